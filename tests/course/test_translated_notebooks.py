"""Every Chinese chapter (course/zh/) runs top to bottom with the outputs of its English twin.

The code cells are the English ones byte for byte, but for the line that makes the
chapter's kernel speak Chinese (tests/course/test_translation.py), so any
difference in what the program prints would mean the translated notebook runs in
another setting (its folder, a link, a file it reads): the chapter would teach
something else in Chinese. What the course's own code shows (a check's report, a
cross-check table, a diagram) is in Chinese there: such an output is compared by
its kinds, and every other one (a printout, a value, an error) as it is.
"""

from __future__ import annotations

import re

import pytest

from coursebook.execution import stderr_outputs
from course_paths import COURSE, ZH_NOTEBOOKS

# a widget's model id, the ids an SVG gives its clip paths and markers, and the file name
# ipykernel gives a cell in a warning's location (its folder names the kernel's pid) change with every run
_RANDOM = re.compile(r"\b(?:[0-9a-f]{32}|md-[0-9a-z_-]*\d[0-9a-z_-]*)\b|/tmp/ipykernel_\d+/")
# cells whose numbers differ from one run to the next in English too: timings (coursebook.timing and
# coursebook.copy_costs,
# and the plots drawn from them) and a model's random initial weights. Their outputs are compared
# with every number masked: same lines, same words, same order.
VARYING = re.compile(r"\bmeasure\(|\bmeasure_copy_costs\(|\bcosts\.plot\(|\btimings\b|nn\.Linear\(")
_NUMBER = re.compile(r"[-+]?\d[\d,.]*(?:e[-+]?\d+)?%?")


def comparable(notebook) -> dict[str, list]:
    """{cell id: outputs} with streams of one name joined (how a kernel cuts a stream into
    messages varies with timing) and the run-specific ids taken out."""
    found = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.outputs:
            kind = output["output_type"]
            if kind == "stream":
                text = _RANDOM.sub("<id>", output["text"])
                if outputs and outputs[-1][0] == "stream" and outputs[-1][1] == output["name"]:
                    outputs[-1] = ("stream", output["name"], outputs[-1][2] + text)
                else:
                    outputs.append(("stream", output["name"], text))
            elif kind in ("execute_result", "display_data"):
                data = output.get("data", {})
                shown = {k: _RANDOM.sub("<id>", v if isinstance(v, str) else str(v))
                         for k, v in data.items() if k != "application/vnd.jupyter.widget-view+json"}
                outputs.append((kind, shown))
            elif kind == "error":
                outputs.append((kind, output["ename"], output["evalue"]))
        found[cell.id] = outputs
    return found


def masked(outputs: list) -> list:
    """``outputs`` with numbers and spacing masked, and images reduced to their kind."""
    found = []
    for output in outputs:
        if output[0] == "stream":
            found.append(("stream", output[1], " ".join(_NUMBER.sub("#", output[2]).split())))
        elif output[0] in ("execute_result", "display_data") and isinstance(output[1], dict):
            found.append((output[0], {k: (" ".join(_NUMBER.sub("#", v).split()) if k.startswith("text/") else k)
                                      for k, v in output[1].items()}))
        else:
            found.append(output)
    return found


_CHINESE = re.compile(r"[\u4e00-\u9fff]")


def language_neutral(outputs: list) -> list:
    """``outputs`` with each rich output that speaks Chinese (the course's code's words) reduced to
    its kinds: the printouts, values and errors stay as they are."""
    found = []
    for output in outputs:
        if output[0] in ("execute_result", "display_data") and any(
                isinstance(v, str) and _CHINESE.search(v) for v in output[1].values()):
            found.append((output[0], sorted(output[1])))
        else:
            found.append(output)
    return found


def differing_cells(english_notebook, chinese_notebook) -> list[str]:
    """The ids of the code cells whose outputs differ (masked for a VARYING cell)."""
    english, chinese = comparable(english_notebook), comparable(chinese_notebook)
    sources = {c.id: c.source for c in english_notebook.cells}
    differ = []
    for cell, outputs in english.items():
        theirs = chinese.get(cell)
        if theirs is not None:
            translated = language_neutral(theirs)
            kinds = {i for i, output in enumerate(translated) if output is not theirs[i]}
            outputs = [(o[0], sorted(o[1])) if i in kinds else o for i, o in enumerate(outputs)]
            theirs = translated
        if outputs == theirs:
            continue
        if VARYING.search(sources[cell]) and theirs is not None and masked(outputs) == masked(theirs):
            continue
        differ.append(cell)
    return differ


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda p: p.name)
def test_chinese_chapter_executes_without_error(executed_zh_notebooks, path):
    run = executed_zh_notebooks[path]
    assert run.error is None, f"zh/{path.name} failed to execute:\n{run.error}"
    assert not stderr_outputs(run.notebook), f"zh/{path.name} writes to stderr"


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda p: p.name)
def test_chinese_chapter_prints_what_its_english_twin_prints(executed_notebooks, executed_zh_notebooks, path):
    differ = differing_cells(executed_notebooks[COURSE / path.name].notebook, executed_zh_notebooks[path].notebook)
    assert not differ, f"zh/{path.name}: cells {differ} print something else than in English"

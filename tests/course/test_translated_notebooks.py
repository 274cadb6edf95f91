"""Every Chinese chapter (course/zh/) runs top to bottom with the outputs of its English twin.

The code cells are the English ones byte for byte (tests/course/test_translation.py),
so any difference in what they print would mean the translated notebook runs in
another setting (its folder, a link, a file it reads): the chapter would teach
something else in Chinese.
"""

from __future__ import annotations

import re

import pytest

from coursebook.execution import stderr_outputs
from course_paths import COURSE, ZH_NOTEBOOKS

# a widget's model id, and the ids an SVG gives its clip paths and markers, change with every run
_RANDOM = re.compile(r"\b(?:[0-9a-f]{32}|md-[0-9a-z_-]*\d[0-9a-z_-]*)\b")


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
                if outputs and outputs[-1][0] == "stream" and outputs[-1][1] == output["name"]:
                    outputs[-1] = ("stream", output["name"], outputs[-1][2] + output["text"])
                else:
                    outputs.append(("stream", output["name"], output["text"]))
            elif kind in ("execute_result", "display_data"):
                data = output.get("data", {})
                shown = {k: _RANDOM.sub("<id>", v if isinstance(v, str) else str(v))
                         for k, v in data.items() if k != "application/vnd.jupyter.widget-view+json"}
                outputs.append((kind, shown))
            elif kind == "error":
                outputs.append((kind, output["ename"], output["evalue"]))
        found[cell.id] = outputs
    return found


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda p: p.name)
def test_chinese_chapter_executes_without_error(executed_zh_notebooks, path):
    run = executed_zh_notebooks[path]
    assert run.error is None, f"zh/{path.name} failed to execute:\n{run.error}"
    assert not stderr_outputs(run.notebook), f"zh/{path.name} writes to stderr"


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda p: p.name)
def test_chinese_chapter_prints_what_its_english_twin_prints(executed_notebooks, executed_zh_notebooks, path):
    english = comparable(executed_notebooks[COURSE / path.name].notebook)
    chinese = comparable(executed_zh_notebooks[path].notebook)
    differ = [cell for cell in english if english[cell] != chinese.get(cell)]
    assert not differ, f"zh/{path.name}: cells {differ} print something else than in English"

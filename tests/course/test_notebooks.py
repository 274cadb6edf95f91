"""Every course notebook runs top to bottom and follows course/README.md."""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from coursebook.execution import stderr_outputs
from course_paths import CHAPTERS, COURSE, NOTEBOOKS
from stored import stored_bytes

# the exercise each chapter must link to (exercises/<name>/<name>.ipynb)
EXERCISE_LINKS = {
    "08_clone.ipynb": ["clone"],
    "09_detach_and_data.ipynb": ["detach"],
    "10_copies_that_leave_the_graph.ipynb": ["new_tensor"],
    "11_copy_into.ipynb": ["copy_into"],
    "13_python_copy.ipynb": ["python_copy"],
    "15_copying_models.ipynb": ["model_snapshot"],
}
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_course_has_at_least_fourteen_notebooks_and_an_index():
    assert len(NOTEBOOKS) >= 14, [p.name for p in NOTEBOOKS]
    assert (COURSE / "00_index.ipynb").exists()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes_without_error(executed_notebooks, path):
    run = executed_notebooks[path]
    assert run.error is None, f"{path.name} failed to execute:\n{run.error}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_warning_is_left_unexplained(executed_notebooks, path):
    found = stderr_outputs(executed_notebooks[path].notebook)
    assert not found, (
        f"{path.name}: cells write to stderr without the 'explained-warning' tag: {found}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_clean(path):
    # git's copy: a learner's saved outputs in the working tree are theirs to keep.
    nb = json.loads(stored_bytes(path))
    assert nb["metadata"].get("kernelspec", {}).get("name") == "python3"
    dirty = [
        i
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count"))
    ]
    assert not dirty, f"{path.name}: cells {dirty} were committed with outputs"


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_relative_link_resolves(path):
    nb = nbformat.read(path, as_version=4)
    broken = []
    for target in LINK.findall(_markdown(nb)):
        if "://" in target or target.startswith("mailto:"):
            continue
        if not (path.parent / target).exists():
            broken.append(target)
    assert not broken, f"{path.name}: links to missing files {broken}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_has_predict_questions_answered_on_click(path):
    nb = nbformat.read(path, as_version=4)
    questions = [
        c.source
        for c in nb.cells
        if c.cell_type == "markdown" and "predict" in c.source.lower() and "<details>" in c.source
    ]
    assert questions, f"{path.name}: no 'predict the output' question with a <details> answer"
    for q in questions:
        assert "<summary>" in q and "</details>" in q, f"{path.name}: unclosed answer in {q[:80]!r}"


@pytest.mark.parametrize("path", [p for p in CHAPTERS if p.name != "00_index.ipynb"], ids=lambda p: p.name)
def test_chapter_ends_with_a_cross_check_of_its_key_cells(executed_notebooks, path):
    nb = executed_notebooks[path].notebook
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    assert any(c.source.lstrip().startswith("%%key") for c in code), f"{path.name}: no %%key cell"
    last = code[-1]
    assert "cross_check_key_cells(" in last.source, f"{path.name}: last code cell is not the cross-check"
    shown = "".join(o.get("data", {}).get("text/plain", "") for o in last.outputs)
    assert "torch and reftorch agree" in shown, f"{path.name}: the cross-check did not report agreement"


@pytest.mark.parametrize("chapter", sorted(EXERCISE_LINKS))
def test_chapter_links_its_exercises(chapter):
    nb = nbformat.read(COURSE / chapter, as_version=4)
    text = _markdown(nb)
    for name in EXERCISE_LINKS[chapter]:
        assert f"../exercises/{name}/{name}.ipynb" in text, f"{chapter} does not link exercise {name}"


def test_index_links_every_notebook():
    text = _markdown(nbformat.read(COURSE / "00_index.ipynb", as_version=4))
    missing = [p.name for p in NOTEBOOKS if p.name != "00_index.ipynb" and p.name not in text]
    assert not missing, f"the index does not link {missing}"


# chapters whose subject is drawn with the memory diagram (memdiagram.show or
# step_through): the primer, assignment, views, in-place ops, clone, detach/.data,
# the copies that leave the graph, copy_, deepcopy, a state_dict next to a clone
DIAGRAM_CHAPTERS = [
    "01_reading_memory_diagrams.ipynb",
    "02_names_and_objects.ipynb",
    "03_storage_strides_views.ipynb",
    "04_indexing_in_depth.ipynb",
    "06_version_counter.ipynb",
    "07_no_grad_and_inference_mode.ipynb",
    "08_clone.ipynb",
    "09_detach_and_data.ipynb",
    "10_copies_that_leave_the_graph.ipynb",
    "11_copy_into.ipynb",
    "12_crossing_boundaries.ipynb",
    "13_python_copy.ipynb",
    "14_saving.ipynb",
    "15_copying_models.ipynb",
    "17_averaged_and_target_copies.ipynb",
]


@pytest.mark.parametrize("name", DIAGRAM_CHAPTERS)
def test_chapter_draws_a_memory_diagram_with_a_static_fallback(executed_notebooks, name):
    nb = executed_notebooks[COURSE / name].notebook
    outputs = [
        o
        for c in nb.cells
        if c.cell_type == "code" and ("step_through(" in c.source or "show(" in c.source)
        for o in c.outputs
    ]
    svgs = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert svgs, f"{name} draws no memory diagram"
    for o in svgs:
        assert "<svg" in o["data"]["image/svg+xml"]
        assert "Step 1" in o["data"]["text/plain"] or "Tensor" in o["data"]["text/plain"], (
            f"{name}: the diagram has no text narration"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_fences_start_their_own_line(path):
    # "**Predict.** ```python" renders as inline code, not as a code block
    nb = nbformat.read(path, as_version=4)
    bad = [c.source[:60] for c in nb.cells if c.cell_type == "markdown" and re.search(r"\S[ \t]*```\w*\n", c.source)]
    assert not bad, f"{path.name}: code fences that do not start a line: {bad}"

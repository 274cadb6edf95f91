"""``autograder.pipeline.inert``: of a student's outputs only text and images reach a page.

Fast checks of the step itself (the browser test, ``tests/browser/test_formgrader_inert.py``,
opens such a submission in formgrader and feedback): each kind of active output
is dropped or reduced to text, a page nbconvert renders with the course's
configuration holds no element that could run, and scores computed before the
step are what nbgrader computes from the original outputs.
"""

import re

import nbformat
from nbconvert import HTMLExporter
from nbgrader.utils import determine_grade
from traitlets.config import Config

from autograder.course import course_config
from autograder.pipeline.inert import InertGradedOutputs, inert_output

new = nbformat.v4.new_output
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

HOSTILE = [
    new("display_data", data={"text/html": "<script>alert(1)</script>", "text/plain": "<HTML object>"}),
    new("display_data", data={"application/javascript": "alert(2)"}),
    new("display_data", data={"image/svg+xml": "<svg onload=alert(3)><script>alert(4)</script></svg>"}),
    new("display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "m"},
                              "text/plain": "a widget"}),
    new("display_data", data={"text/markdown": "<img src=x onerror=alert(5)>",
                              "text/latex": "\\href{javascript:alert(6)}{x}"}),
    new("display_data", data={"image/png": PNG, "text/plain": "a dot"},
        metadata={"image/png": {"width": "1 onerror=alert(7)"}}),
    new("display_data", data={"image/png": "\" onerror=\"alert(8)"}),
    new("stream", name="stdout\" onmouseover=\"alert(9)", text="hello"),
    new("execute_result", execution_count=3, data={"text/html": "<b>5</b>", "text/plain": "5"}),
]


def test_only_text_and_base64_images_are_kept_and_metadata_goes():
    kept = [inert_output(o) for o in HOSTILE]
    assert [sorted(k.get("data", {})) if k is not None else None for k in kept] == [
        ["text/plain"], ["text/plain"], ["text/plain"], ["text/plain"], ["text/plain"],
        ["image/png", "text/plain"], ["text/plain"], [], ["text/plain"]]
    assert kept[0].data["text/plain"] == "<HTML object>"  # the repr, shown as text
    assert "application/javascript removed by the autograder" in kept[1].data["text/plain"]
    assert kept[5].metadata == {} and kept[5].data["image/png"] == PNG
    assert "image/png" not in kept[6].data  # not base64: not an image
    assert kept[7].name == "stdout" and kept[7].text == "hello"
    assert kept[8].execution_count == 3 and kept[8].data == {"text/plain": "5"}


def test_scores_are_those_nbgrader_computes_from_the_original_outputs():
    meta = {"nbgrader": {"grade": True, "solution": False, "points": 10, "grade_id": "t"}}
    original = nbformat.v4.new_code_cell("x", metadata=meta, outputs=[HOSTILE[-1]])
    cleaned = InertGradedOutputs().preprocess(nbformat.v4.new_notebook(cells=[original.copy()]), {})[0]
    assert determine_grade(original) == determine_grade(cleaned.cells[0]) == (5.0, 10.0)


def test_a_page_rendered_with_the_course_configuration_holds_nothing_that_runs():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("print('hi')", outputs=list(HOSTILE)),
        nbformat.v4.new_markdown_cell("<img src=x onerror=alert(10)> [y](javascript:alert(11)) $a<b$",
                                      metadata={"nbgrader": {"solution": True, "grade_id": "answer"}}),
    ])
    config = Config()
    course = course_config()
    config.HTMLExporter.preprocessors = course.HTMLExporter.preprocessors
    config.HTMLExporter.sanitize_html = course.HTMLExporter.sanitize_html
    body, _ = HTMLExporter(config=config, template_name="classic").from_notebook_node(nb)
    page = body.split("<body", 1)[1]
    assert not re.search(r"<(script|svg|iframe|object|embed)\b", page), re.findall(r"<script[^>]*>", page)
    for active in ("onerror=", "onload=", "onmouseover=", "href=\"javascript:"):
        assert not re.search(r"<[^>]*" + re.escape(active), page), active
    assert "removed by the autograder" in page and "hello" in page
    assert "&lt;img src=x onerror=alert(10)&gt;" in page  # the student's markdown, as text

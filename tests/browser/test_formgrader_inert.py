"""Nothing a student hands in runs in the instructor's formgrader or in a feedback page.

A class of three (the fixture assignment): two honest students and mallory,
whose answer cell, run by the real grader in its sandbox, displays HTML with a
``<script>`` and an ``onerror`` image, JavaScript, an SVG with ``onload`` and a
script, a widget view, markdown with HTML and an image whose metadata smuggles
an attribute, and whose cells and notebook carry hostile tags and metadata.
The grader keeps none of it (checked in the graded notebook).  Then, as if a
notebook had been graded before that step existed, the same payloads are
written straight into mallory's graded notebook, and her feedback page is made
from it.  Every payload, if it ran, would set ``window.pwned`` and fetch a
``/pwned/...`` address the test watches; the one aimed at formgrader would
also set every score on the page to 0 and write a comment, as the instructor's
own session would save them.

As the instructor, formgrader (``python -m autograder lab``'s server) opens
mallory's submission, and the feedback page is opened from disk: nothing runs,
no ``/pwned`` address is asked for, no grade or comment in the gradebook
changes.  The page carries the lab's Content-Security-Policy with no inline
script allowed, and the browser enforces it (a handler put into the page
afterwards does not run); the instructor's JupyterLab still starts under it.
"""

import copy
import os
import re
import shutil
import time

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.cli import use_own_environment
from autograder.course import REPO, autograded_dir, course_config, feedback_dir, submitted_dir
from autograder.term.feedback import generate_feedback
from autograder.term.generate import generate
from autograder.grade import autograde

pytestmark = pytest.mark.browser

FIXTURE = os.path.join(REPO, "tests", "autograder", "fixtures", "solutions", "fixture")
HONEST = "def make_copy(t):\n    return t.detach().clone()"
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


# elements that would run something: none may come from a student
DANGEROUS = ("a[href^='javascript:'], svg, iframe, object, embed, [onerror], [onload], [onmouseover], "
             "#notebook-container script, img:not([src^='data:image/png;base64,'])")


def payload(tag):
    """JavaScript that, if it ever runs, leaves a trace the test sees."""
    return "window.pwned = '%s'; fetch('/pwned/%s');" % (tag, tag)


FORGE = ("$('input.score').val(0).trigger('change'); $('textarea.comment').val('forged').trigger('change'); "
         + payload("forge"))

# what mallory's answer cell displays while the grader runs it
HOSTILE_ANSWER = """from IPython.display import HTML, Javascript, SVG, display
display(HTML(%(html)r))
display(Javascript(%(js)r))
display(SVG(%(svg)r))
display({"application/vnd.jupyter.widget-view+json": {"model_id": "m", "version_major": 2,
         "version_minor": 0}, "text/plain": "a widget"}, raw=True)
display({"text/markdown": %(md)r}, raw=True)
display({"image/png": %(png)r, "text/plain": "a dot"},
        metadata={"image/png": {"width": %(width)r}}, raw=True)
def make_copy(t):
    return t.detach().clone()
""" % {"html": "<script>%s</script><img src=x onerror=\"%s\"><a class=jslink href=\"javascript:%s\">x</a>"
               % (FORGE, payload("img"), payload("link")),
       "js": payload("js"),
       "svg": "<svg xmlns='http://www.w3.org/2000/svg' onload=\"%s\"><script>%s</script></svg>"
              % (payload("svg"), payload("svg-script")),
       "md": "<img src=x onerror=\"%s\"> [x](javascript:%s)" % (payload("md"), payload("md-link")),
       "png": PNG, "width": "1 onerror=%s" % payload("width").replace(" ", "")}


def injected_outputs():
    """The same payloads as outputs written straight into a graded notebook."""
    new = nbformat.v4.new_output
    return [
        new("display_data", data={"text/html": "<script>%s</script><img src=x onerror=\"%s\">"
                                               "<a class=jslink href=\"javascript:%s\">x</a>"
                                               % (FORGE, payload("img2"), payload("link2"))}),
        new("display_data", data={"application/javascript": payload("js2")}),
        new("display_data", data={"image/svg+xml": "<svg xmlns='http://www.w3.org/2000/svg' onload=\"%s\">"
                                                   "<script>%s</script></svg>"
                                                   % (payload("svg2"), payload("svg-script2"))}),
        new("display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "m"},
                                  "text/plain": "a widget"}),
        new("display_data", data={"text/markdown": "<img src=x onerror=\"%s\">" % payload("md2")}),
        new("display_data", data={"image/png": PNG, "text/plain": "a dot"},
            metadata={"image/png": {"width": "1 onerror=%s" % payload("width2").replace(" ", "")}}),
        new("display_data", data={"image/png": "\" onerror=\"%s" % payload("png-data")}),
        new("stream", name="stdout\" onmouseover=\"%s" % payload("stream"), text="hello"),
        new("execute_result", execution_count=1,
            data={"text/html": "<script>%s</script>" % payload("result"), "text/plain": "5"}),
    ]


def grades(config):
    """Every score and comment of the class, as the gradebook holds them."""
    out = {}
    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        for sub in gb.assignment_submissions("fixture"):
            for nb in sub.notebooks:
                out[sub.student.id] = (sorted((g.name, g.auto_score, g.manual_score, g.extra_credit)
                                              for g in nb.grades),
                                       sorted((c.name, c.manual_comment or "") for c in nb.comments))
    return out


@pytest.fixture(scope="module")
def class_graded(tmp_path_factory, needs_chromium):
    use_own_environment()  # nbgrader calls alembic
    root = str(tmp_path_factory.mktemp("inert") / "course")
    shutil.copytree(FIXTURE, os.path.join(root, "solutions", "fixture"))
    config = course_config(root)
    assert generate(config, ["fixture"]) == {"fixture": True}
    release = nbformat.read(os.path.join(root, "exercises", "fixture", "fixture.ipynb"), as_version=4)
    for student, answer in (("ada", HONEST), ("bob", HONEST), ("mallory", HOSTILE_ANSWER)):
        nb = copy.deepcopy(release)
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") == "make_copy":
                cell.source = answer
        if student == "mallory":
            nb.metadata["title"] = "<script>%s</script>" % payload("title")
            for cell in nb.cells:
                cell.metadata["tags"] = ["<img src=x onerror=\"%s\">" % payload("tag")]
        os.makedirs(submitted_dir(config, student, "fixture"))
        nbformat.write(nb, os.path.join(submitted_dir(config, student, "fixture"), "fixture.ipynb"))
    run = autograde(config, "fixture", workers=1, progress=False)
    assert run.graded == ["ada", "bob", "mallory"], run.failed
    graded_path = os.path.join(autograded_dir(config, "mallory", "fixture"), "fixture.ipynb")
    graded = nbformat.read(graded_path, as_version=4)
    kinds = {key for cell in graded.cells for output in cell.get("outputs", [])
             for key in output.get("data", {})}
    assert kinds <= {"text/plain", "image/png"}, kinds  # the grader kept only text and images
    outputs = [output for cell in graded.cells for output in cell.get("outputs", [])]
    assert "pwned" not in repr(outputs), outputs
    assert "title" not in graded.metadata and not any("tags" in c.metadata for c in graded.cells)
    # as if graded before the grader dropped such outputs: the payloads, in the graded notebook
    for cell in graded.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") in ("make_copy", "test_values"):
            cell.outputs = injected_outputs() + copy.deepcopy(cell.outputs)
    nbformat.write(graded, graded_path)
    assert generate_feedback(config, ["fixture"]) == {"fixture": True}
    return config


@pytest.fixture(scope="module")
def instructors_lab(class_graded, start_instructors_lab):
    with start_instructors_lab(class_graded, "inert-lab") as lab:
        yield lab


def _watched(context):
    """Record every request for a /pwned address (and refuse it), and every one leaving the machine."""
    seen = []

    def route(route):
        url = route.request.url
        if "/pwned" in url or not url.startswith(("http://127.0.0.1", "file:", "data:")):
            seen.append(url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", route)
    return seen


def test_a_hostile_submission_runs_nothing_in_formgrader_and_changes_no_grade(class_graded, instructors_lab,
                                                                              browser):
    config = class_graded
    base, token, log_path = instructors_lab
    before = grades(config)
    assert set(before) == {"ada", "bob", "mallory"}
    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        submission = gb.find_submission_notebook("fixture", "fixture", "mallory").id
    context = browser.new_context(extra_http_headers={"Authorization": "token " + token})
    seen = _watched(context)
    page = context.new_page()
    try:
        response = page.goto(base + "/formgrader/submissions/" + submission)
        policy = response.headers.get("content-security-policy", "")
        page.locator("textarea.comment").first.wait_for(timeout=60_000)
        page.wait_for_load_state("networkidle")
        time.sleep(3)  # time for any payload to run and save
        text = page.inner_text("body")
        assert "removed by the autograder" in text and "hello" in text  # the outputs are on the page
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert page.locator(DANGEROUS).count() == 0
        assert page.evaluate("typeof submission_id") == "string"  # the page's own script ran
        # the page forbids inline scripts, and the browser enforces it
        script_src = re.search(r"script-src ([^;]*)", policy)
        assert script_src and "'unsafe-inline'" not in script_src[1] and "'self'" in script_src[1], policy
        page.evaluate("document.body.insertAdjacentHTML('beforeend', "
                      "'<img src=\"data:,\" onerror=\"window.pwned = 1\">')")
        time.sleep(1)
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert seen == []
    finally:
        context.close()
    assert grades(config) == before


def test_the_instructors_lab_still_starts_under_its_content_security_policy(instructors_lab, browser):
    base, token, _ = instructors_lab
    context = browser.new_context(extra_http_headers={"Authorization": "token " + token})
    seen = _watched(context)
    page = context.new_page()
    try:
        response = page.goto(base + "/lab")
        assert "script-src" in response.headers.get("content-security-policy", "")
        page.locator(".jp-LabShell").wait_for(timeout=120_000)
        page.locator(".jp-DirListing-item").first.wait_for(timeout=60_000)  # its scripts talk to the server
        assert seen == []
    finally:
        context.close()


def test_a_hostile_submissions_feedback_page_runs_nothing(class_graded, browser):
    config = class_graded
    path = os.path.join(feedback_dir(config, "mallory", "fixture"), "fixture.html")
    with open(path, encoding="utf-8") as f:
        page_source = f.read()
    for marker in ("<script", "<svg", "<iframe"):  # the answer's source is there, escaped
        assert marker not in page_source, marker
    context = browser.new_context(offline=True)
    seen = _watched(context)
    page = context.new_page()
    try:
        page.goto("file://" + path)
        page.wait_for_load_state("load")
        time.sleep(1)
        assert "removed by the autograder" in page.inner_text("body")
        assert page.locator(DANGEROUS).count() == 0
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert seen == []
    finally:
        context.close()

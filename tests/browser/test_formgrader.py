"""The instructor's side in a real browser: formgrader on the course, and a feedback page offline.

One course (the real ``clone`` assignment, one student who handed in the
instructor's solution, graded with the course's own grading path, unsandboxed
because the notebook is our own) serves both tests:

* ``python -m autograder lab``'s server (its command line and environment,
  from ``autograder.term.lab``) is started on the course; formgrader lists the
  graded submission with its score, opens it, and a comment typed into it
  reaches the gradebook (manual grading), with every request that would
  leave the machine refused: MathJax comes from the lab itself;
* the student's feedback page is opened from disk with every network request
  refused: nothing is requested, every test is named in the summary, and the
  markdown table keeps its borders.
"""

import os
import shutil
import time
import urllib.parse
import urllib.request

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.cli import use_own_environment
from autograder.course import REPO, course_config, feedback_dir, submitted_dir
from autograder.term.feedback import generate_feedback
from autograder.term.generate import generate
from autograder.grade import autograde

STUDENT = "ada"


def _solved(root):
    read = lambda folder: nbformat.read(os.path.join(root, folder, "clone", "clone.ipynb"), 4)
    solution = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in read("solutions").cells}
    nb = read("exercises")
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = solution[cell.metadata["nbgrader"]["grade_id"]]
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory, needs_chromium):
    use_own_environment()  # nbgrader calls alembic
    root = str(tmp_path_factory.mktemp("instructor") / "course")
    shutil.copytree(os.path.join(REPO, "solutions", "clone"), os.path.join(root, "solutions", "clone"))
    config = course_config(root)
    assert generate(config, ["clone"]) == {"clone": True}
    os.makedirs(submitted_dir(config, STUDENT, "clone"))
    nbformat.write(_solved(root), os.path.join(submitted_dir(config, STUDENT, "clone"), "clone.ipynb"))
    run = autograde(config, "clone", workers=1, progress=False, unsandboxed=True, warm=False)
    assert run.graded == [STUDENT], run.failed
    assert generate_feedback(config, ["clone"]) == {"clone": True}
    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        score = gb.find_submission("clone", STUDENT).score
        top = gb.find_assignment("clone").max_score
    assert score == top
    return config, score


@pytest.fixture(scope="module")
def formgrader(graded, start_instructors_lab):
    with start_instructors_lab(graded[0], "formgrader-lab") as lab:
        yield lab


# what the instructor's lab serves MathJax from (jupyter_server_mathjax), not a CDN
LOCAL_MATHJAX = "/static/jupyter_server_mathjax/MathJax.js"


def _loopback_only(context):
    """Refuse every request that leaves the machine; returns the list of those refused."""
    refused = []

    def route(route):
        if urllib.parse.urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    return refused


def test_formgrader_lists_the_graded_submission_and_takes_a_comment_offline(graded, formgrader, browser):
    config, score = graded
    base, token, log_path = formgrader
    context = browser.new_context(extra_http_headers={"Authorization": "token " + token})
    refused = _loopback_only(context)
    page = context.new_page()
    try:
        page.goto(base + "/formgrader/manage_submissions/clone")
        page.locator("tbody tr", has_text=STUDENT).first.wait_for(timeout=60_000)
        page.goto(base + "/formgrader/gradebook/clone/clone")  # manual grading: names hidden
        row = page.locator("tbody tr", has_text="Submission #1").first
        row.wait_for(timeout=60_000)
        assert "%g / %g" % (score, score) in row.inner_text()
        row.locator("a").first.click()  # the submission, cell by cell
        comment = page.locator("textarea.comment").first
        comment.wait_for(timeout=60_000)
        page.wait_for_load_state("networkidle")  # the page's scripts have bound the form
        # MathJax came from the lab itself and ran
        assert page.locator("script[src*='MathJax.js']").get_attribute("src").startswith(LOCAL_MATHJAX)
        assert page.evaluate("typeof MathJax !== 'undefined' && typeof MathJax.Hub.Queue") == "function"
        deadline = time.monotonic() + 60
        while True:
            comment.fill("")
            comment.fill("Good work on the strides.")
            comment.blur()
            time.sleep(2)
            with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
                said = [c.manual_comment for nb in gb.find_submission("clone", STUDENT).notebooks
                        for c in nb.comments]
            if "Good work on the strides." in said:
                break
            assert time.monotonic() < deadline, (said, refused, log_path.read_text()[-3000:])
        assert refused == []
    finally:
        context.close()


def test_a_feedback_page_reads_offline_with_every_test_named(graded, browser):
    config, _ = graded
    path = os.path.join(feedback_dir(config, STUDENT, "clone"), "clone.html")
    release = nbformat.read(os.path.join(config.CourseDirectory.root, "exercises", "clone", "clone.ipynb"), 4)
    tests = [c.metadata["nbgrader"]["grade_id"] for c in release.cells
             if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")]
    context = browser.new_context(offline=True)
    asked = []

    def refuse(route):
        if not route.request.url.startswith(("file:", "data:")):
            asked.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", refuse)
    page = context.new_page()
    try:
        page.goto("file://" + path)
        page.wait_for_load_state("load")
        summary = page.locator("#toc li.test-score").all_inner_texts()
        assert [line.split(":")[0] for line in summary] == tests
        # each test with the heading above it
        assert "clone-memory: New object, new memory, same numbers." in summary[tests.index("clone-memory")]
        assert "Test cell" not in page.locator("#toc").inner_text()
        border = page.locator(".rendered_html table td").first.evaluate(
            "cell => getComputedStyle(cell).borderTopStyle + ' ' + getComputedStyle(cell).borderTopWidth")
        assert border == "solid 1px"
        assert asked == []
    finally:
        context.close()

"""``python -m autograder feedback``: a feedback page per graded submission, no hidden test.

The steps of the page (``HideHiddenTests``, ``NameTests``, ``FeedbackExporter``)
are nbgrader pipeline pieces in ``autograder.pipeline.feedback_page``; this
module runs nbgrader's GenerateFeedback with them and writes the pages of the
students whose grading failed outright.

nbgrader 0.9 puts the hidden tests back into every autograded notebook and
its feedback HTML shows them (by design, see jupyter/nbgrader#917; there is
no option to hide them).  ``HideHiddenTests`` runs in nbgrader's
GenerateFeedback pipeline (configured in ``nbgrader_config.py``), before the
HTML is written.  In each cell with a ``### BEGIN HIDDEN TESTS`` region it

* removes the region from the source and says that hidden tests ran there;
* shortens each error output to its last line (``AssertionError: the copy
  must not share memory``): the message the instructor wrote stays, the
  traceback, which quotes the test's source lines, goes.

The score of the cell is read by GetGrades from the gradebook, not from the
source, so it is unchanged.

Only the HTML reaches ``feedback/``: nbgrader would also copy every other
file of the graded folder (the grader's ``messages.json`` and
``grading_error.log``, anything a notebook wrote), so ``generate_feedback``
runs it with every file name ignored.  A student whose grading failed
outright (no graded notebook, only the reason in ``messages.json``) still
gets a page saying why, with the reason as plain text.

The page is the course's own template (``autograder/templates/autograder_feedback``,
through ``FeedbackExporter``, set in ``nbgrader_config.py``): it needs nothing
from the network (no MathJax from a CDN; styles inlined), markdown tables keep
their borders, and its summary names every test by its grade id and the
heading above it (``NameTests``) instead of "Test cell".  An assignment
nobody has a graded submission of is skipped, and the command says so.
"""

import copy
import html
import json
import os

from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory

from .collect import printable
from ..course import autograded_dir, feedback_dir, source_assignments, submitted_dir
from ..judge.language import N_, gettext, notebook_language
from ..pipeline.language import line
from ..pipeline.notes import MESSAGES_FILE


def graded_students(config, assignment, only=None):
    """Students with a graded folder for ``assignment`` (of ``[only]`` if given)."""
    base = autograded_dir(config)
    candidates = [only] if only else (sorted(os.listdir(base)) if os.path.isdir(base) else [])
    return [s for s in candidates if os.path.isdir(autograded_dir(config, s, assignment))]


def generate_feedback(config, assignments=None, student=None):
    """HTML feedback for every autograded submission of ``assignments`` (default: all).

    Returns ``{assignment: success}``, with None for an assignment skipped
    because nothing of it is graded; nbgrader's log is printed on failure.
    """
    config = copy.deepcopy(config)
    config.CourseDirectory.ignore = CourseDirectory(config=config).ignore + ["*", ".*"]
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    results = {}
    for assignment in assignments or source_assignments(config):
        if not graded_students(config, assignment, student):
            results[assignment] = None
            continue
        result = api.generate_feedback(assignment, student, force=True)
        results[assignment] = result["success"]
        if not result["success"]:
            text = result.get("log", "") + result.get("error", "")
            print("\n".join(printable(line) for line in text.split("\n")))  # no raw control characters
        _pages_for_ungraded(config, assignment, student)
    return results


def _pages_for_ungraded(config, assignment, only=None):
    """A feedback page for each student of ``assignment`` with a reason but no graded notebook."""
    base = autograded_dir(config)
    students = [only] if only else (sorted(os.listdir(base)) if os.path.isdir(base) else [])
    for student in students:
        folder = autograded_dir(config, student, assignment)
        reasons = os.path.join(folder, MESSAGES_FILE)
        if os.path.exists(os.path.join(folder, assignment + ".ipynb")) or not os.path.exists(reasons):
            continue
        with open(reasons, encoding="utf-8") as f:
            messages = json.load(f)
        lang = _submitted_language(config, student, assignment)
        target = feedback_dir(config, student, assignment)
        os.makedirs(target, exist_ok=True)
        items = "".join("<li>%s</li>" % html.escape(line(str(m), lang)) for m in messages)
        why = gettext(N_("Your submission could not be graded; every test scores 0 for now. Why:"), lang)
        details = gettext(N_("Your instructor has the details."), lang)
        with open(os.path.join(target, assignment + ".html"), "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html>\n<html%s><head><meta http-equiv=\"Content-Security-Policy\" "
                    "content=\"default-src 'none'\"><meta charset=\"utf-8\"><title>%s</title></head>"
                    "<body><h1>%s</h1><p>%s</p><ul>%s</ul><p>%s</p>"
                    "</body></html>\n" % ("" if lang == "en" else ' lang="%s"' % lang, html.escape(assignment),
                                          html.escape(assignment), html.escape(why), items, html.escape(details)))


def _submitted_language(config, student, assignment):
    """The language the student's submitted notebook says it is in (``"en"`` when it cannot
    be read): their page speaks it even when grading failed."""
    path = os.path.join(submitted_dir(config, student, assignment), assignment + ".ipynb")
    try:
        with open(path, encoding="utf-8") as f:
            return notebook_language(json.load(f))
    except (OSError, ValueError):
        return "en"

"""``from autograder import self_check; self_check()``: the learner's self-check from inside Jupyter.

It checks the notebook as saved on disk, through the warm service
(``check_service``, which runs ``learner_check.check``), prints the result in
the notebook's language, and records the score for the index chapter's
progress list (``coursebook.build_it.progress``).
"""

import glob
import os
import time

import nbformat

from coursebook.build_it.progress import record_exercise

from ..judge.language import N_, gettext, notebook_language


def _notebook_path(path):
    """The notebook a ``self_check()`` call inside a kernel refers to."""
    if path:
        return path
    session = os.environ.get("JPY_SESSION_NAME", "")
    for candidate in (session, os.path.basename(session)):
        if candidate.endswith(".ipynb") and os.path.isfile(candidate):
            return candidate
    notebooks = glob.glob("*.ipynb")
    if len(notebooks) == 1:
        return notebooks[0]
    raise FileNotFoundError("self_check() could not tell which notebook to check; "
                            "call self_check('name.ipynb')")


def _saved_language(path):
    """The language the saved notebook at ``path`` says it is in (``"en"`` when unreadable)."""
    try:
        return notebook_language(nbformat.read(path, as_version=4))
    except Exception:  # a broken file: the check itself says so
        return "en"


def self_check(path=None):
    """Check the saved notebook from inside Jupyter; prints the score and messages.

    The check runs in a separate process on the notebook as saved on disk, so
    save (Ctrl+S) first.  Returns nothing; the printout is the result.
    """
    if os.environ.get("NBGRADER_EXECUTION"):
        print(N_("self_check: skipped while the notebook is being graded"))
        return
    try:
        path = _notebook_path(path)
    except FileNotFoundError as error:
        print(error)
        return
    saved = time.strftime("%H:%M:%S", time.localtime(os.path.getmtime(path)))
    print(gettext(N_("Checking {0} as saved at {1} (save first if you changed it)..."),
                  _saved_language(path)).format(path, saved), flush=True)
    from .check_service import check_saved  # a warm service: see its docstring

    result = check_saved(path)
    print(result.format())
    if result.tests:  # the index chapter shows the latest score (coursebook.build_it.progress)
        record_exercise(os.path.splitext(os.path.basename(path))[0], result.score, result.max_score,
                        lang=result.language)

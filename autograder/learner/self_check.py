"""``from autograder import self_check; self_check()``: the learner's self-check from inside Jupyter.

It checks the notebook as saved on disk (:func:`check_saved`): by the Jupyter server
that started this kernel, whose self-check handler keeps the grader's kernels warm
(``check_extension``, which runs ``learner_check.check``), else in a process of its
own. It prints the result in the notebook's language, and records the score for the
index chapter's progress list (``coursebook.build_it.progress``).
"""

import glob
import json
import os
import subprocess
import sys
import time
import urllib.request

import nbformat

from coursebook.build_it.progress import record_exercise

from ..judge.language import N_, gettext, notebook_language
from .results import CheckResult, result_from_data

CHECK_TIMEOUT = 600      # seconds to wait for one check's answer from the server
HANDLER = "autograder/self-check"   # check_extension's handler, under the server's base URL


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
    result = check_saved(path)
    print(result.format())
    if result.tests:  # the index chapter shows the latest score (coursebook.build_it.progress)
        record_exercise(os.path.splitext(os.path.basename(path))[0], result.score, result.max_score,
                        lang=result.language)


def own_server():
    """The Jupyter server that started this kernel (jupyter_client gives every kernel the server's pid
    as ``JPY_PARENT_PID``), as the runtime file it writes describes it (url, token: what jupyter_server's
    ``list_running_servers`` reads, without importing the server into the kernel); None outside such
    a kernel."""
    parent = os.environ.get("JPY_PARENT_PID", "")
    if not parent.isdigit():
        return None
    from jupyter_core.paths import jupyter_runtime_dir

    for path in glob.glob(os.path.join(jupyter_runtime_dir(), "jpserver-*.json")):
        try:
            with open(path, encoding="utf-8") as f:
                info = json.load(f)
        except (OSError, ValueError):
            continue
        if info.get("pid") == int(parent) and info.get("url"):
            return info
    return None


def ask_server(server, handler, body, timeout=CHECK_TIMEOUT):
    """POST ``body`` as JSON to ``handler`` of ``server`` (its runtime file's record), with its token;
    the answer's JSON."""
    request = urllib.request.Request(server["url"].rstrip("/") + "/" + handler, method="POST",
                                     data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    if server.get("token"):
        request.add_header("Authorization", "token " + server["token"])
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # a server of this machine: no proxy
    with direct.open(request, timeout=timeout) as answer:
        return json.loads(answer.read())


def check_saved(notebook, root=None):
    """The self-check of the saved notebook, as a ``CheckResult``: by this kernel's Jupyter server when
    it has the self-check handler, else in a process of its own (``python -m autograder check --json``)."""
    notebook = os.path.abspath(notebook)
    server = own_server()
    if server is not None:
        try:
            return result_from_data(ask_server(server, HANDLER, {"path": notebook, "root": root}))
        except (OSError, ValueError, KeyError):  # no such handler (404), the server stopping: check here
            pass
    command = [sys.executable, "-m", "autograder"] + (["--root", root] if root else []) + ["check", "--json", notebook]
    done = subprocess.run(command, capture_output=True, text=True)
    try:
        return result_from_data(json.loads(done.stdout.strip().splitlines()[-1]))
    except (IndexError, ValueError, KeyError):
        last = (done.stderr.strip().splitlines() or ["exit status %d" % done.returncode])[-1]
        lang = _saved_language(notebook)
        return CheckResult(notebook, [], [gettext(N_("the check did not finish: {0}"), lang).format(last)], [], lang)

"""Where ``python -m autograder check`` runs a notebook: in the grader's sandbox whenever it can.

``check`` is the learner's self-check, but the instructor has it too, and a
student's submission checked with it would run with the instructor's rights:
read the gradebook, rewrite the term's configuration, everything.  The rule:

* **A sandbox on this machine** (bubblewrap installed and the caller root, as
  grading needs: :func:`autograder.kernels.sandbox.why_unavailable`): the kernel
  always runs in it, exactly as a grading kernel does (its own uid, no
  network, no course folder, the limits of ``autograder.kernels.sandbox.Limits``),
  whoever's notebook it is.  Whose work a file is cannot be told reliably
  (``collect`` writes every submission with the instructor's uid), and the
  sandbox costs a learner nothing.
* **No sandbox** (a learner in Binder or on a laptop: not root): the kernel
  runs with the caller's rights, which is right for one's own work only.  So
  ``check`` refuses a notebook that is visibly someone else's: a file owned by
  another user, one in the course-state folder (``submitted/``,
  ``autograded/``, ``feedback/``: collected work) or one beside a
  ``timestamp.txt`` (a folder ``collect`` wrote).  An instructor grades such a
  file with ``autograde``, which refuses to run without a sandbox too.
* **--unsandboxed**: the kernel runs with the caller's rights, with a warning
  on stderr (a trusted notebook, on a machine without bubblewrap).
"""

import os

from ..course import CourseError, course_config, state_dir
from .sandbox import why_unavailable

COLLECTED_MARK = "timestamp.txt"  # autograder.term.collect.TIMESTAMP_FILE, beside every collected notebook

UNSANDBOXED_WARNING = ("warning: checking {path} without a sandbox: its code runs with your rights "
                       "(your files, the network, the gradebook). Only do that for a notebook you trust.")

REFUSAL = ("{path} looks like someone else's work ({why}), and there is no sandbox to run it in here "
           "({unavailable}). `check` runs a notebook with your rights when it cannot sandbox it, "
           "which is only safe for your own work. Grade a student's notebook with "
           "`python -m autograder autograde` (sandboxed), run `check` as root where bubblewrap is "
           "installed (then it is sandboxed too), or pass --unsandboxed if you trust this notebook.")


def _inside(path, folder):
    folder = os.path.realpath(folder)
    return os.path.commonpath([os.path.realpath(path), folder]) == folder


def someone_elses(path, root=None):
    """Why the notebook at ``path`` is visibly not the caller's own work, or None."""
    try:
        owner = os.stat(path).st_uid
    except OSError:
        return None  # check reports a missing file itself
    if hasattr(os, "geteuid") and owner != os.geteuid():
        return "the file belongs to another user (uid %d)" % owner
    if os.path.exists(os.path.join(os.path.dirname(path), COLLECTED_MARK)):
        return "it is a collected submission (%s beside it)" % COLLECTED_MARK
    try:
        state = state_dir(course_config(root))
    except Exception:  # no course here (a learner's copy): nothing to compare with
        return None
    if _inside(path, state):
        return "it is in the course-state folder %s" % state
    return None


def kernel_sandboxed(path, unsandboxed=False, root=None, warn=None):
    """True when ``check`` must run the notebook at ``path`` in a sandbox; False when it may run it
    with the caller's rights; :class:`CourseError` when it may not run it at all (see the module
    docstring).  ``warn(text)`` receives the warning of an unsandboxed check asked for."""
    if unsandboxed:
        if warn is not None:
            warn(UNSANDBOXED_WARNING.format(path=path))
        return False
    unavailable = why_unavailable()
    if unavailable is None:
        return True
    why = someone_elses(path, root)
    if why:
        raise CourseError(REFUSAL.format(path=path, why=why, unavailable=unavailable))
    return False


def sandboxed_client_options(sandboxed):
    """The nbclient options that start the check's kernel the way the grader starts its kernels."""
    if not sandboxed:
        from .grading_kernels import TolerantKernelManager  # a killed kernel shuts down quietly

        return {"kernel_manager_class": TolerantKernelManager}
    from .grading_kernels import GradingKernelManager  # the grader's kernels: bwrap, own uid, limits

    return {"kernel_manager_class": GradingKernelManager}

"""``python -m autograder lab``: the instructor's JupyterLab, with formgrader on the course.

nbgrader's formgrader (a Jupyter server extension) reads ``nbgrader_config.py``
from the folder the server starts in and from Jupyter's config path, never
from ``autograder/``.  This command starts JupyterLab with:

* ``JUPYTER_CONFIG_PATH`` led by this package's folder, so formgrader loads
  ``autograder/nbgrader_config.py`` (and with it the term's
  ``<state>/term_config.py``);
* ``AUTOGRADER_ROOT`` and ``AUTOGRADER_STATE`` set to the course root and its
  state folder (``--root``, ``--state``), which that file reads;
* the server's root at the course root (formgrader needs the course inside it);
* nbgrader's server extensions as nbgrader installs them (on; the learner's
  lab, ``make lab``, switches them off);
* ``jupyter_server_mathjax`` switched on: it serves MathJax from the server
  itself, at ``/static/jupyter_server_mathjax/``, where the course's
  formgrader page takes it (``autograder/templates/formgrader``; nbgrader's
  own page takes MathJax from a CDN, and offline its scripts stop before
  they save a grade or a comment), so manual grading needs no network;
* the environment's own ``bin/`` first on ``PATH`` (nbgrader calls ``alembic``).
* every page served with the course's Content-Security-Policy, which runs no
  inline script but the lab's own (``autograder/term/formgrader_csp.py``, set by
  ``autograder/jupyter_server_config.py``, which the same config path reaches):
  nothing a student's notebook carries can run in formgrader with the
  instructor's session.

Formgrader is at ``/formgrader`` (or Nbgrader > Formgrader in the menu): the
assignments, each one's submissions with their scores, each submission's
cells with manual grading and comments, the students.  Manual grades and
comments go into the same gradebook that ``export`` and ``feedback`` read.
"""

import os
import secrets
import subprocess
import sys

from ..course import PACKAGE_DIR, state_dir


def lab_environment(config, base=None):
    """The environment of the instructor's lab server."""
    env = dict(os.environ if base is None else base)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        p for p in (PACKAGE_DIR, env.get("JUPYTER_CONFIG_PATH")) if p)
    env["AUTOGRADER_ROOT"] = config.CourseDirectory.root
    env["AUTOGRADER_STATE"] = state_dir(config)
    return env


def lab_command(config, port, token, browser=False):
    """The ``jupyter lab`` command line of the instructor's lab."""
    command = [sys.executable, "-m", "jupyter", "lab", "--ip=127.0.0.1", "--port=%d" % port,
               "--IdentityProvider.token=" + token,
               "--ServerApp.root_dir=" + config.CourseDirectory.root,
               "--LabApp.default_url=/formgrader",
               "--ServerApp.jpserver_extensions=jupyter_server_mathjax=True"]
    if not browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return command


def run_lab(config, port=8889, browser=False):
    """Start the lab and wait for it (Ctrl+C stops it); returns its exit status."""
    os.makedirs(state_dir(config, "exchange"), exist_ok=True)
    token = secrets.token_hex(16)
    print("Formgrader: http://127.0.0.1:%d/formgrader?token=%s  (Ctrl+C stops it)" % (port, token),
          flush=True)
    try:
        return subprocess.call(lab_command(config, port, token, browser),
                               env=lab_environment(config), cwd=config.CourseDirectory.root)
    except KeyboardInterrupt:
        return 0

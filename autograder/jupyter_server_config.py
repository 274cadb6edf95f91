"""Jupyter Server settings of the instructor's lab (``python -m autograder lab``).

Jupyter reads this file because ``autograder/term/lab.py`` puts this folder first on
``JUPYTER_CONFIG_PATH`` (as it does for ``nbgrader_config.py``); no other
server (the learner's ``make lab``) sees it.  Two public settings:

* ``ServerApp.tornado_settings["headers"]``: every page carries the
  Content-Security-Policy of ``autograder/term/formgrader_csp.py`` (no inline script
  runs unless the lab shipped it), computed for the course as the server starts;
* ``ServerApp.extra_static_paths``: the course's script for formgrader's grading
  page, served under ``/static/``.
"""

import os

from autograder.course import course_config
from autograder.term.formgrader_csp import STATIC_DIR, content_security_policy

c = get_config()  # noqa: F821  (provided by traitlets when Jupyter loads this file)

_config = course_config(os.environ.get("AUTOGRADER_ROOT"), os.environ.get("AUTOGRADER_STATE"))
_settings = dict(c.ServerApp.get("tornado_settings") or {})
_settings["headers"] = dict(_settings.get("headers", {}), **{
    "Content-Security-Policy": content_security_policy(_config, c.ServerApp.get("base_url") or "/")})
c.ServerApp.tornado_settings = _settings
c.ServerApp.extra_static_paths = [STATIC_DIR]

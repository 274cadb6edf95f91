"""The Content-Security-Policy of the instructor's lab: no script runs unless the lab shipped it.

The instructor's formgrader shows students' notebooks on the instructor's own
server, with the instructor's session.  Student outputs are made inert before
they get there (``autograder.pipeline.inert``); this policy is the second wall: if
anything of a student's ever reached a page as markup, the browser would still
not run it.  ``python -m autograder lab`` gives Jupyter Server the header
through its public setting ``ServerApp.tornado_settings = {"headers":
{"Content-Security-Policy": ...}}``, so every page of that server carries it
(formgrader's, JupyterLab's, the API's).  It allows

* scripts from the server itself (``'self'``): nbgrader's and JupyterLab's
  files, MathJax from ``jupyter_server_mathjax``, the course's own script for
  the grading page (``autograder/templates/formgrader/static``, served under
  ``/static/`` through ``ServerApp.extra_static_paths``);
* the inline scripts the lab's own pages carry, each by its SHA-256
  (:func:`inline_script_hashes`): nbgrader's list pages set a variable or two
  (``var assignment_id = "clone";``), so their hashes are computed for every
  assignment, notebook and student the course has when the lab starts (a
  student collected later: restart the lab for their pages in "Manage
  students"); JupyterLab's page removes the token from the address bar;
  nbgrader's three ``onclick`` handlers (``'unsafe-hashes'`` lets exactly those
  run, no other attribute).  The grading page itself (the course's template,
  ``formgrade_offline.html.j2``) has no inline script of its own;
* ``'unsafe-eval'``: JupyterLab compiles its settings schemas with ``new
  Function`` (ajv) and does not start without it.  It lets scripts already
  running evaluate strings; it adds no way in for markup (a ``<script>`` that
  jQuery or anything else inserts is still an inline script, and refused);
* styles inline (nbconvert's pages need them; a style runs no code), images
  from the server and ``data:`` URLs, connections to the server only;
* nothing else: no ``<object>``, no ``<base>`` elsewhere, no form posted
  elsewhere, no framing by another site.

So a ``<script>``, an ``onerror=``, a ``javascript:`` link or an SVG
``onload`` in a student's output, if one ever got into a page, would not run.
"""

import base64
import glob
import hashlib
import itertools
import os
import re

from ..course import PACKAGE_DIR, db_url, source_assignments, submitted_dir

STATIC_DIR = os.path.join(PACKAGE_DIR, "templates", "formgrader", "static")
INLINE_SCRIPT = re.compile(r"<script(?:\s+type=\"text/javascript\")?\s*>(.*?)</script>", re.S)
HANDLER = re.compile(r"\son[a-z]+=\"([^\"]*)\"")
VARIABLE = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def _sha256(text):
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def nbgrader_templates():
    """nbgrader's formgrader template folder (its list pages and the grading page's macros)."""
    from nbgrader.server_extensions.formgrader import handlers

    return handlers.template_path


def jupyterlab_page():
    """JupyterLab's built page template (its inline script removes the token from the URL)."""
    from jupyterlab import commands

    return os.path.join(commands.get_app_dir(), "static", "index.html")


def _filled(script, values):
    """Every way ``script`` renders with the candidate values of the ``{{ names }}`` in it."""
    names = sorted(set(VARIABLE.findall(script)))
    if not names:
        return [script]
    out = []
    for chosen in itertools.product(*(sorted(values.get(name, [""])) for name in names)):
        given = dict(zip(names, chosen))
        out.append(VARIABLE.sub(lambda m: given[m.group(1)], script))
    return out


def _course_values(config, base_url):
    """The values nbgrader's list pages fill their inline scripts with, for this course now."""
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.utils import to_numeric_tz

    assignments = set(source_assignments(config))
    notebooks, students = set(), set()
    root = config.CourseDirectory.root
    for assignment in assignments:
        for path in glob.glob(os.path.join(root, config.CourseDirectory.source_directory, assignment, "*.ipynb")):
            notebooks.add(os.path.splitext(os.path.basename(path))[0])
    if os.path.isdir(submitted_dir(config)):
        students.update(os.listdir(submitted_dir(config)))
    url = db_url(config)
    if not url.startswith("sqlite:///") or os.path.exists(url[len("sqlite:///"):]):
        with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
            students.update(s.id for s in gb.students)
            for a in gb.assignments:
                assignments.add(a.name)
                notebooks.update(nb.name for nb in a.notebooks)
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    return {"base_url": {base_url.rstrip("/")}, "url_prefix": {"."},
            "default_timezone": {to_numeric_tz(api.timezone)},
            "assignment_id": assignments, "notebook_id": notebooks, "student_id": students}


def inline_script_hashes(config, base_url="/"):
    """The SHA-256 sources of every inline script and handler the lab's pages carry for this course."""
    values = _course_values(config, base_url)
    hashes = set()
    templates = nbgrader_templates()
    for path in sorted(glob.glob(os.path.join(templates, "*.tpl"))
                       + glob.glob(os.path.join(templates, "formgrade", "*.j2"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for script in INLINE_SCRIPT.findall(text):
            hashes.update(_sha256(s) for s in _filled(script, values))
        hashes.update(_sha256(handler) for handler in HANDLER.findall(text))
    page = jupyterlab_page()
    if os.path.exists(page):
        with open(page, encoding="utf-8") as f:
            hashes.update(_sha256(s) for s in INLINE_SCRIPT.findall(f.read()) if "{{" not in s)
    return sorted(hashes)


def content_security_policy(config, base_url="/"):
    """The header's value (see the module docstring)."""
    scripts = ["'self'", "'unsafe-eval'", "'unsafe-hashes'"] + inline_script_hashes(config, base_url)
    return "; ".join([
        "default-src 'self'",
        "script-src " + " ".join(scripts),
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    ])

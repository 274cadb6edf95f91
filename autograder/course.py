"""Where the course lives: nbgrader's configuration, anchored at a course root.

Every command works on a *course root*: the repository by default, or any
folder with the same layout (``--root``, used by the tests and the benchmark
so they never touch the real gradebook), and on a *course-state folder*, where
everything about the students lives, out of git (default
``<root>/autograder/state/``, git-ignored; ``--state`` or the environment
variable ``AUTOGRADER_STATE`` choose another)::

    <root>/solutions/<a>/<a>.ipynb           source (solutions + hidden tests)
    <root>/exercises/<a>/<a>.ipynb           release
    <state>/gradebook.db                     nbgrader's gradebook (students, grades)
    <state>/submitted/<student>/<a>/         collected submissions
    <state>/autograded/<student>/<a>/        graded copies
    <state>/feedback/<student>/<a>/          feedback HTML
    <state>/term_config.py                   the term's settings: due dates, late penalty
    <state>/roster.csv                       the imported roster
    <state>/inbox/, grades.csv, reports/     what the instructor brings in and takes out

The configuration itself is ``autograder/nbgrader_config.py``; this module
loads it (so it is the same one ``nbgrader`` uses when run from
``autograder/``) and points it at the chosen root and state folder.
"""

import os

from traitlets.config import Config, PyFileConfigLoader

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(PACKAGE_DIR)
CONFIG_FILE = os.path.join(PACKAGE_DIR, "nbgrader_config.py")
STATE_VARIABLE = "AUTOGRADER_STATE"
TERM_CONFIG = "term_config.py"  # the term's settings (due dates...), in the state folder


class CourseError(Exception):
    """A problem with the course folder, worded for the instructor."""


def default_state(root):
    """The course-state folder: ``$AUTOGRADER_STATE`` if set, else ``<root>/autograder/state``."""
    return os.path.abspath(os.environ.get(STATE_VARIABLE) or os.path.join(root, "autograder", "state"))


def point_at(config, root, state):
    """Anchor nbgrader's folders and gradebook at ``root`` and the state folder ``state``.

    nbgrader joins its step folders to the root, so a state folder inside the
    root is given relative to it (``autograder/state/submitted``), one
    elsewhere as an absolute path.
    """
    root, state = os.path.abspath(root), os.path.abspath(state)
    inside = os.path.commonpath([root, state]) == root
    base = os.path.relpath(state, root) if inside else state
    config.CourseDirectory.root = root
    config.CourseDirectory.submitted_directory = os.path.join(base, "submitted")
    config.CourseDirectory.autograded_directory = os.path.join(base, "autograded")
    config.CourseDirectory.feedback_directory = os.path.join(base, "feedback")
    config.CourseDirectory.db_url = "sqlite:///" + os.path.join(state, "gradebook.db")
    config.Exchange.root = os.path.join(state, "exchange")
    return config


def database_url(url):
    """A gradebook URL as SQLAlchemy takes it: ``postgresql://`` means psycopg (version 3),
    the driver this package installs; any other URL is left as it is."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme):]
    return url


def course_config(root=None, state=None, db=None, **overrides):
    """nbgrader's ``Config`` for the course at ``root`` (default: the repository).

    ``state``: the course-state folder (default: :func:`default_state`).
    ``db``: the gradebook's URL (default: ``sqlite:///STATE/gradebook.db``),
    e.g. ``postgresql://grader@dbhost/course`` for a gradebook a team shares.
    """
    config = PyFileConfigLoader(os.path.basename(CONFIG_FILE), path=PACKAGE_DIR).load_config()
    root = os.path.abspath(root) if root is not None else config.CourseDirectory.root
    state = state or default_state(root)
    if os.path.exists(os.path.join(state, TERM_CONFIG)):
        config.merge(PyFileConfigLoader(TERM_CONFIG, path=state).load_config())
    point_at(config, root, state)
    if db:
        config.CourseDirectory.db_url = database_url(db)
    for dotted, value in overrides.items():
        section, name = dotted.rsplit(".", 1)
        config[section][name] = value
    return config


def root_of(config):
    return config.CourseDirectory.root


def state_dir(config, *parts):
    """The course-state folder (where the submissions are), or a path inside it."""
    return os.path.join(os.path.dirname(submitted_dir(config)), *parts)


def path(config, *parts):
    return os.path.join(root_of(config), *parts)


def source_assignments(config):
    """Assignment names: folders ``solutions/<a>/`` holding ``<a>.ipynb``."""
    solutions = path(config, config.CourseDirectory.source_directory)
    if not os.path.isdir(solutions):
        return []
    return sorted(name for name in os.listdir(solutions)
                  if os.path.isfile(os.path.join(solutions, name, name + ".ipynb")))


def test_order(config, assignment):
    """The grade ids of the source notebook's graded cells, in notebook order."""
    source = path(config, config.CourseDirectory.source_directory, assignment, assignment + ".ipynb")
    import nbformat  # here, not on top: the kernels import this module and stay light (engine/plugin.py)

    try:
        nb = nbformat.read(source, as_version=4)
    except (OSError, ValueError):
        return []
    return [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade")]


def check_assignment(config, assignment):
    if assignment not in source_assignments(config):
        known = ", ".join(source_assignments(config)) or "none"
        raise CourseError("no assignment %r in %s (known: %s)"
                          % (assignment, path(config, config.CourseDirectory.source_directory), known))


def submitted_dir(config, student=None, assignment=None):
    parts = [config.CourseDirectory.submitted_directory] + [p for p in (student, assignment) if p]
    return path(config, *parts)


def autograded_dir(config, student=None, assignment=None):
    parts = [config.CourseDirectory.autograded_directory] + [p for p in (student, assignment) if p]
    return path(config, *parts)


def feedback_dir(config, student=None, assignment=None):
    parts = [config.CourseDirectory.feedback_directory] + [p for p in (student, assignment) if p]
    return path(config, *parts)


def release_notebook(config, assignment):
    return path(config, config.CourseDirectory.release_directory, assignment, assignment + ".ipynb")


def db_url(config):
    return config.CourseDirectory.db_url


def submitted_students(config, assignment):
    """Students with a folder ``submitted/<student>/<assignment>/``, sorted."""
    base = submitted_dir(config)
    if not os.path.isdir(base):
        return []
    return sorted(s for s in os.listdir(base) if os.path.isdir(os.path.join(base, s, assignment)))


__all__ = ["Config", "CourseError", "course_config", "default_state", "point_at", "state_dir",
           "source_assignments", "check_assignment", "submitted_dir", "autograded_dir", "feedback_dir", "release_notebook", "db_url", "database_url",
           "submitted_students", "REPO"]

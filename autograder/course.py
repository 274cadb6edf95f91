"""Where the course lives: nbgrader's configuration, anchored at a course root.

Every command works on a *course root*: the repository by default, or any
folder with the same layout (``--root``, used by the tests and the benchmark
so they never touch the real gradebook)::

    <root>/solutions/<a>/<a>.ipynb           source (solutions + hidden tests)
    <root>/exercises/<a>/<a>.ipynb           release
    <root>/autograder/submitted/<student>/<a>/
    <root>/autograder/autograded/<student>/<a>/
    <root>/autograder/feedback/<student>/<a>/
    <root>/autograder/gradebook.db

The configuration itself is ``autograder/nbgrader_config.py``; this module
loads it (so it is the same one ``nbgrader`` uses when run from
``autograder/``) and points it at the chosen root.
"""

import os

from traitlets.config import Config, PyFileConfigLoader

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(PACKAGE_DIR)
CONFIG_FILE = os.path.join(PACKAGE_DIR, "nbgrader_config.py")


class CourseError(Exception):
    """A problem with the course folder, worded for the instructor."""


def course_config(root=None, **overrides):
    """nbgrader's ``Config`` for the course at ``root`` (default: the repository)."""
    config = PyFileConfigLoader(os.path.basename(CONFIG_FILE), path=PACKAGE_DIR).load_config()
    if root is not None:
        root = os.path.abspath(root)
        config.CourseDirectory.root = root
        config.CourseDirectory.db_url = "sqlite:///" + os.path.join(root, "autograder", "gradebook.db")
        config.Exchange.root = os.path.join(root, "autograder", "exchange")
    for dotted, value in overrides.items():
        section, name = dotted.rsplit(".", 1)
        config[section][name] = value
    return config


def root_of(config):
    return config.CourseDirectory.root


def path(config, *parts):
    return os.path.join(root_of(config), *parts)


def source_assignments(config):
    """Assignment names: folders ``solutions/<a>/`` holding ``<a>.ipynb``."""
    solutions = path(config, config.CourseDirectory.source_directory)
    if not os.path.isdir(solutions):
        return []
    return sorted(name for name in os.listdir(solutions)
                  if os.path.isfile(os.path.join(solutions, name, name + ".ipynb")))


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


__all__ = ["Config", "CourseError", "course_config", "source_assignments", "check_assignment",
           "submitted_dir", "autograded_dir", "feedback_dir", "release_notebook", "db_url",
           "submitted_students", "REPO"]

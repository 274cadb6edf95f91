"""The class the grading benches grade: one real assignment and N synthetic students.

``build_base`` makes a throw-away course with the assignment (``clone`` by
default, the autograder's fixture if the repository has none), generated
with nbgrader, and N students: a third full marks, a third the blank
release, a third mixtures.  Each bench then grades copies of it
(``copy_course``: a fresh gradebook each time) and compares the scores
(``read_scores``).  Used by ``bench_autograde.py``, ``bench_farm.py`` and
``bench_cgroups.py``.
"""

import argparse
import contextlib
import copy
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(REPO, "tests", "autograder", "fixtures", "solutions", "fixture")
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")

import nbformat  # noqa: E402
from nbgrader.api import Gradebook  # noqa: E402

from autograder.course import course_config  # noqa: E402
from autograder.term.generate import generate  # noqa: E402


def bench_arguments(doc, *, students, **more):
    """The command line of a grading bench (``doc``: its docstring): ``--students`` (default
    ``students``), ``--workers`` (2), ``--assignment``, and each of ``more`` as
    ``name=(default, help)``, a whole number (``stock_students`` is ``--stock-students``)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--students", type=int, default=students)
    for name, (default, help) in more.items():
        parser.add_argument("--" + name.replace("_", "-"), type=int, default=default, help=help)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--assignment", default=None)
    return parser.parse_args()


def cannot_run(bench, why, what="the sandboxed grader cannot run here"):
    """Print why ``bench`` cannot run on this machine (``why``: empty when it can); true if so."""
    if why:
        print("%s: %s: %s" % (bench, what, why))
    return bool(why)


def choose_assignment(assignment=None):
    """``(assignment, its source folder)``: the one asked for, else ``clone``, else the fixture."""
    if assignment is None:
        assignment = "clone" if os.path.isdir(os.path.join(REPO, "solutions", "clone")) else "fixture"
    return assignment, FIXTURE if assignment == "fixture" else os.path.join(REPO, "solutions", assignment)


def build_base(root, assignment, source, students):
    """The course at ``root`` with ``assignment`` generated and ``students`` submissions; their names."""
    shutil.copytree(source, os.path.join(root, "solutions", assignment))
    config = course_config(root)
    assert generate(config, [assignment])[assignment]
    release = nbformat.read(os.path.join(root, "exercises", assignment, assignment + ".ipynb"), 4)
    solution = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source
                for c in nbformat.read(os.path.join(source, assignment + ".ipynb"), 4).cells}
    ids = [c.metadata["nbgrader"]["grade_id"] for c in release.cells
           if c.metadata.get("nbgrader", {}).get("solution")]
    names = []
    for n in range(students):
        nb = copy.deepcopy(release)
        kind = n % 3
        for i, cell in enumerate(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")):
            if kind == 0 or (kind == 2 and (i + n // 3) % 2 == 0):
                cell.source = solution[ids[i]]
        name = "student%03d" % n
        folder = os.path.join(root, "autograder", "state", "submitted", name, assignment)
        os.makedirs(folder)
        nbformat.write(nb, os.path.join(folder, assignment + ".ipynb"))
        names.append(name)
    return names


def copy_course(base, target, students):
    """A copy of the course ``base`` at ``target`` with only ``students``' submissions; its config."""
    shutil.copytree(base, target, ignore=shutil.ignore_patterns("submitted"))
    for name in students:
        shutil.copytree(os.path.join(base, "autograder", "state", "submitted", name),
                        os.path.join(target, "autograder", "state", "submitted", name))
    return course_config(target)


def read_scores(config, assignment):
    """``{student: {grade id: score}}`` from the course's gradebook."""
    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        return {s.student.id: {g.name: g.score for nb in s.notebooks for g in nb.grades}
                for s in gb.assignment_submissions(assignment)}


@contextlib.contextmanager
def graded_class(bench, assignment, students):
    """``(assignment, work folder, base course, its students)`` for a bench named ``bench``: the class
    built in a new folder (deleted afterwards), with one line saying what is graded and how loaded the
    machine is."""
    assignment, source = choose_assignment(assignment)
    work = tempfile.mkdtemp(prefix=bench.replace("_", "-") + "-")
    try:
        base = os.path.join(work, "base")
        everyone = build_base(base, assignment, source, students)
        print("assignment %s, %d students, %d cores, load average %.1f"
              % (assignment, len(everyone), os.cpu_count(), os.getloadavg()[0]), flush=True)
        yield assignment, work, base, everyone
    finally:
        shutil.rmtree(work, ignore_errors=True)

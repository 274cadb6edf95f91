"""A class graded on a real dask farm into a real Postgres gradebook, one worker killed mid-run.

A ``dask scheduler`` and two ``dask worker`` processes on loopback (each its
own process group, as on separate hosts) and a Postgres 15 server (Debian's
binaries, ``initdb`` and ``pg_ctl`` in a temporary folder, as an
unprivileged user).  16 students hand in 8 different ``make_copy``s, each
answer twice.  The
course's SQLite gradebook is moved into Postgres with
``python -m autograder gradebook migrate``, then the class is graded with
``python -m autograder --db postgresql://... autograde --scheduler tcp://...``;
mid-run, one worker is killed with its whole process group while it grades.
Every submission must end up with exactly one grade per test, equal to a
sequential in-process run of the same class into SQLite, and no SQLAlchemy
``SAWarning`` may be printed on any path.

The class is as big as the claim needs: every answer reaches the gradebook
twice, the victim is killed only once it has taken its third submission and
while it holds one, and about half the class is then still left for the
surviving worker to grade, the victim's lost submissions among them.
"""

import glob
import os
import shutil
import subprocess
import sys
import time
import warnings

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.exc import SAWarning

from autograder.course import course_config, database_url
from autograder.engine.worker import run_folder
from autograder.grade import autograde
from farm import Farm, Postgres, postgres_bin
from synthetic_course import FIXTURES, make_course, scores, student_notebook, write_submission

STUDENTS = 16  # every answer twice: see the module's docstring
ANSWERS = [  # make_copy as students write it: full marks, and each way to lose points
    "def make_copy(t):\n    return t.detach().clone()",
    "def make_copy(t):\n    return t.clone()",
    "def make_copy(t):\n    return t.detach()",
    "def make_copy(t):\n    return t",
    "def make_copy(t):\n    raise NotImplementedError()",
    "def make_copy(t):\n    import copy\n    return copy.deepcopy(t.detach())",
    "def make_copy(t):\n    return t.data.clone()",
    "def make_copy(t):\n    return t.detach().clone().requires_grad_()",
]


def _student(n):
    return "student%02d" % n


@pytest.fixture(scope="module")
def postgres(needs_sandbox):
    if postgres_bin() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the farm test must run in CI, but Debian's postgresql is not installed")
        pytest.skip("Postgres is not installed (apt-get install postgresql)")
    server = Postgres().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def courses(tmp_path_factory, needs_sandbox):
    """The same class in two course folders: one for the farm, one for the sequential run."""
    farm_root = str(tmp_path_factory.mktemp("farm-course"))
    config = make_course(farm_root, {"fixture": os.path.join(FIXTURES, "fixture")})
    for n in range(STUDENTS):
        nb = student_notebook(config, "fixture", replace={"make_copy": ANSWERS[n % len(ANSWERS)]})
        write_submission(os.path.join(farm_root, "autograder", "state", "submitted", _student(n), "fixture"),
                         nb, "fixture.ipynb")
    sequential_root = str(tmp_path_factory.mktemp("sequential-course"))
    shutil.rmtree(sequential_root)
    shutil.copytree(farm_root, sequential_root)
    return farm_root, sequential_root


@pytest.fixture(scope="module")
def sequential(courses):
    """The class graded by the same task function in a loop, in this process, into SQLite."""
    config = course_config(courses[1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = autograde(config, "fixture", scheduler="in-process", progress=False)
    assert sorted(run.graded) == [_student(n) for n in range(STUDENTS)], run.failed
    return config, scores(config, "fixture"), [str(w.message) for w in caught if issubclass(w.category, SAWarning)]


def cli(root, *args, **kwargs):
    return subprocess.run([sys.executable, "-m", "autograder", "--root", root, *args],
                          capture_output=True, text=True, timeout=600, **kwargs)


def _grading_now(pid):
    """Students the worker process ``pid`` is grading at this moment (its workspace's inbox)."""
    return [os.path.basename(p) for p in
            glob.glob(os.path.join(run_folder("*"), "worker-%d/autograder/submitted/*" % pid))]


def test_a_sequential_run_prints_no_sqlalchemy_warning(sequential):
    _, _, sa_warnings = sequential
    assert sa_warnings == [], "nbgrader's add_submission tripped SQLAlchemy's autoflush again"


def test_migrate_copies_every_row_of_a_graded_sqlite_gradebook_into_postgres(postgres, sequential):
    config, expected, _ = sequential
    url = postgres.create_database("migrated")
    moved = cli(config.CourseDirectory.root, "gradebook", "migrate", "--to", url)
    assert moved.returncode == 0, moved.stderr
    assert "copied" in moved.stdout
    source, target = create_engine(config.CourseDirectory.db_url), create_engine(database_url(url))
    from nbgrader.api import Base
    try:
        with source.connect() as a, target.connect() as b:
            for table in Base.metadata.sorted_tables:
                rows = sorted(map(tuple, a.execute(select(table))), key=repr)
                assert rows == sorted(map(tuple, b.execute(select(table))), key=repr), \
                    "table %s changed on its way into Postgres" % table.name
    finally:
        source.dispose()
        target.dispose()
    assert scores(course_config(config.CourseDirectory.root, db=url), "fixture") == expected
    again = cli(config.CourseDirectory.root, "gradebook", "migrate", "--to", url)
    assert again.returncode == 2 and "empty gradebook only" in again.stderr, \
        "migrate must refuse to copy over a gradebook that already holds grades"


def test_a_farm_that_loses_a_worker_mid_run_grades_every_submission_once_as_a_sequential_run(
        postgres, courses, sequential, tmp_path):
    farm_root = courses[0]
    url = postgres.create_database("farm")
    moved = cli(farm_root, "gradebook", "migrate", "--to", url)
    assert moved.returncode == 0, moved.stderr
    farm = Farm(workers=2, logs=str(tmp_path))
    victim, survivor = farm.workers
    try:
        farm.wait_for_workers(2)
        out, err = open(tmp_path / "autograde.out", "w+"), open(tmp_path / "autograde.err", "w+")
        grader = subprocess.Popen([sys.executable, "-m", "autograder", "--root", farm_root, "--db", url,
                                   "autograde", "fixture", "--scheduler", farm.address],
                                  stdout=out, stderr=err, text=True)
        seen, killed_while = set(), []
        deadline = time.monotonic() + 600
        while grader.poll() is None and time.monotonic() < deadline:
            now = _grading_now(victim.pid)
            seen.update(now)
            if len(seen) >= 3 and now:  # mid-run, and the victim holds a submission right now
                farm.kill(victim)
                killed_while = now
                break
            time.sleep(0.05)
        assert killed_while, "the victim worker was never caught grading (%d seen)" % len(seen)
        assert grader.wait(timeout=600) == 0
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read()
        assert survivor.poll() is None, "the surviving worker died too:\n" + farm.log("worker-1")
        worker_logs = farm.log("worker-0") + farm.log("worker-1")
    finally:
        farm.stop()
        for left in glob.glob(os.path.join(run_folder("*"), "worker-%d" % victim.pid)):  # it died with them
            shutil.rmtree(left, ignore_errors=True)
            if not os.listdir(os.path.dirname(left)):
                os.rmdir(os.path.dirname(left))
    assert "fixture: graded %d submission(s)" % STUDENTS in stdout, stdout + stderr
    assert "0 points" not in stdout, "a submission lost with the killed worker got 0:\n" + stdout
    assert "SAWarning" not in stderr + worker_logs, "SQLAlchemy warned on the farm's path"

    _, expected, _ = sequential
    farm_config = course_config(farm_root, db=url)
    assert scores(farm_config, "fixture") == expected, \
        "the farm's grades differ from the same class graded sequentially"
    engine = create_engine(database_url(url))
    from nbgrader.api import Assignment, Grade, SubmittedAssignment, SubmittedNotebook
    try:
        with engine.connect() as db:
            per_student = dict(db.execute(
                select(SubmittedAssignment.student_id, func.count())
                .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
                .where(Assignment.name == "fixture").group_by(SubmittedAssignment.student_id)).all())
            grades = dict(db.execute(
                select(SubmittedAssignment.student_id, func.count(Grade.id))
                .join(SubmittedNotebook, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
                .join(Grade, Grade.notebook_id == SubmittedNotebook.id)
                .group_by(SubmittedAssignment.student_id)).all())
    finally:
        engine.dispose()
    everyone = {_student(n) for n in range(STUDENTS)}
    assert per_student == {s: 1 for s in everyone}, "a submission is missing or counted twice"
    assert grades == {s: 4 for s in everyone}, "a student has other than one grade per test"
    for student in killed_while:
        graded = os.path.join(farm_root, "autograder", "state", "autograded", student, "fixture",
                              "fixture.ipynb")
        assert os.path.exists(graded), "%s, lost with the killed worker, has no graded notebook" % student

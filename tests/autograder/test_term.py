"""A whole term, exactly as autograder/README.md tells it, on a fresh clone, with real nbgrader.

The fixture copies the repository as git sees it (tracked files and new ones
git does not ignore) into a fresh git repository, puts three students' zips
into ``autograder/state/inbox/`` (what the README says the LMS gave: Ada hands
in both assignments early, Barbara clone at the due time exactly, Grace clone
30 hours late; Donald is on the roster and hands in nothing), and runs every
``bash`` block of the README in order, with ``python`` meaning this Python and
a ``PATH`` without the environment's ``bin/`` (the commands must find
``alembic`` themselves).  Each test then reads one outcome: exit statuses,
``git status``, the collect report, the late penalties, the wide export read
back, the feedback pages and the report.
"""

import csv
import datetime
import io
import os
import re
import shutil
import subprocess
import sys
import zipfile

import nbformat
import pytest
from nbgrader.api import Gradebook

from course_copy import fresh_copy

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, "autograder", "README.md")
SUBMITTED = {"Ada Lovelace.zip": {"clone.ipynb": "clone", "detach.ipynb": "detach"},
             "Barbara Liskov.zip": {"clone.ipynb": "clone"},
             "Grace Hopper.zip": {"work/clone.ipynb": "clone"}}
STUDENTS = ["alovelace", "bliskov", "dknuth", "ghopper"]
BARE_PATH = "/usr/bin:/bin"


def readme_blocks():
    """The README's ``bash`` blocks, in order (the formgrader command is an ``sh`` block)."""
    with open(README, encoding="utf-8") as f:
        return re.findall(r"^```bash\n(.*?)^```", f.read(), flags=re.S | re.M)


def solved(root, assignment):
    """The release with every answer cell holding the instructor's solution."""
    read = lambda folder: nbformat.read(os.path.join(root, folder, assignment, assignment + ".ipynb"), 4)
    solution = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in read("solutions").cells}
    nb = read("exercises")
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            cell.source = solution[meta["grade_id"]]
    return nbformat.writes(nb)


@pytest.fixture(scope="module")
def term(tmp_path_factory, needs_sandbox):
    root = str(tmp_path_factory.mktemp("term") / "course")
    fresh_copy(root)
    inbox = os.path.join(root, "autograder", "state", "inbox")
    os.makedirs(inbox)
    for entry, files in SUBMITTED.items():
        with zipfile.ZipFile(os.path.join(inbox, entry), "w") as archive:
            for name, assignment in files.items():
                archive.writestr(name, solved(root, assignment))
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "AUTOGRADER_STATE", "AUTOGRADER_ROOT")}
    env.update(PATH=BARE_PATH, PYTHONPATH=os.path.join(root, "src") + os.pathsep + root)
    runs = []
    for block in readme_blocks():
        script = 'set -e\npython() { "%s" "$@"; }\n%s' % (sys.executable, block)
        done = subprocess.run(["bash", "-c", script], cwd=root, env=env, capture_output=True,
                              text=True, timeout=900)
        runs.append((block, done))
        if done.returncode != 0:
            break
    status = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout
    ignored = subprocess.run(["git", "-C", root, "status", "--porcelain", "--ignored"],
                             capture_output=True, text=True, check=True).stdout
    return {"root": root, "runs": runs, "status": status, "ignored": ignored}


def output(term, command):
    """What the README block running ``command`` printed."""
    return next(done.stdout for block, done in term["runs"] if command in block)


def test_every_command_of_the_readme_exits_0_without_the_environment_on_path(term):
    assert shutil.which("alembic", path=BARE_PATH) is None  # the commands found it themselves
    for block, done in term["runs"]:
        assert done.returncode == 0, "%s\n--- stdout:\n%s\n--- stderr:\n%s" % (
            block, done.stdout[-3000:], done.stderr[-3000:])
    assert len(term["runs"]) == len(readme_blocks()) >= 7


def test_the_term_leaves_git_status_clean(term):
    assert term["status"] == ""
    # and what git ignores is all in the course-state folder (or Python's caches)
    stray = [line for line in term["ignored"].splitlines() if line.startswith("!! ")
             and not line[3:].startswith("autograder/state/") and "__pycache__" not in line]
    assert stray == []
    state = set(os.listdir(os.path.join(term["root"], "autograder", "state")))
    assert {"gradebook.db", "roster.csv", "submitted", "autograded", "feedback", "grades.csv",
            "reports"} <= state


def test_collect_maps_names_to_the_roster_and_reports_who_is_missing(term):
    said = output(term, "autograder collect")
    for line in ("alovelace: clone", "alovelace: detach", "bliskov: clone", "ghopper: clone"):
        assert line in said.splitlines(), said
    assert "missing clone: dknuth (on the roster, no submission)" in said
    assert "missing detach: bliskov, dknuth, ghopper (on the roster, no submission)" in said


def _gradebook(term):
    return Gradebook("sqlite:///" + os.path.join(term["root"], "autograder", "state", "gradebook.db"),
                     "tensor-copies")


def test_only_the_late_student_loses_points_and_the_due_date_is_the_configured_one(term):
    with _gradebook(term) as gb:
        clone = gb.find_assignment("clone")
        assert clone.duedate == datetime.datetime(2025, 3, 14, 22, 59)  # 23:59 at +01:00
        late = {s: gb.find_submission("clone", s) for s in ("alovelace", "bliskov", "ghopper")}
        top = clone.max_score
        assert {s: sub.score for s, sub in late.items()} == {s: top for s in late}
        assert {s: sub.late_submission_penalty for s, sub in late.items()} == {
            "alovelace": 0, "bliskov": 0, "ghopper": pytest.approx(0.2 * top)}  # 30 h: 2 days, 10 %
        assert late["bliskov"].total_seconds_late == 0
        assert late["alovelace"].total_seconds_late == 0


def test_the_wide_export_has_a_row_per_student_with_roster_columns_and_scores(term):
    with open(os.path.join(term["root"], "autograder", "state", "grades.csv"), encoding="utf-8") as f:
        text = f.read()
    rows = {r["student_id"]: r for r in csv.DictReader(io.StringIO(text))}
    header = next(csv.reader(io.StringIO(text)))
    with _gradebook(term) as gb:
        top = {a: gb.find_assignment(a).max_score for a in ("clone", "detach")}
        tests = {a: [c.name for nb in gb.find_assignment(a).notebooks for c in nb.grade_cells]
                 for a in ("clone", "detach")}
    assert sorted(rows) == STUDENTS
    assert rows["ghopper"]["first_name"] == "Grace" and rows["ghopper"]["email"] == "grace@example.org"
    # graded assignments only: the others were named as skipped
    assert [h for h in header if " " not in h and ":" not in h][4:] == ["clone", "detach"]
    assert "copy_into: skipped, nothing graded" in output(term, "autograder export")
    scores = {s: (float(r["clone"]), float(r["detach"])) for s, r in rows.items()}
    assert scores == {"alovelace": (top["clone"], top["detach"]), "bliskov": (top["clone"], 0.0),
                      "dknuth": (0.0, 0.0), "ghopper": (pytest.approx(0.8 * top["clone"]), 0.0)}
    assert rows["alovelace"]["clone submitted"] == "2025-03-12T09:00:00+00:00"
    assert rows["ghopper"]["clone submitted"] == "2025-03-16T04:59:00+00:00"
    assert rows["dknuth"]["clone submitted"] == ""
    for assignment in ("clone", "detach"):
        columns = ["%s: %s" % (assignment, t) for t in tests[assignment]]
        assert set(columns) <= set(header)
        assert sum(float(rows["alovelace"][c]) for c in columns) == top[assignment]
        assert rows["alovelace"][assignment + " misconceptions"] == ""


def test_feedback_is_written_for_each_graded_submission_and_skips_the_rest(term):
    said = output(term, "autograder feedback")
    assert "clone: feedback written" in said and "detach: feedback written" in said
    assert "copy_into: skipped, nothing graded" in said
    base = os.path.join(term["root"], "autograder", "state", "feedback")
    pages = sorted(os.path.relpath(os.path.join(d, f), base) for d, _, files in os.walk(base) for f in files)
    assert pages == ["alovelace/clone/clone.html", "alovelace/detach/detach.html",
                     "bliskov/clone/clone.html", "ghopper/clone/clone.html"]
    with open(os.path.join(base, "ghopper", "clone", "clone.html"), encoding="utf-8") as f:
        page = f.read()
    assert "Late submission penalty" in page
    assert "clone-memory: New object, new memory, same numbers." in page
    assert "Test cell" not in page
    assert not re.search(r"""<(script|link)[^>]+(src|href)=["']?https?:""", page)


def test_report_covers_the_graded_assignments_and_names_the_skipped_ones(term):
    said = output(term, "autograder report")
    assert "== clone" in said and "== detach" in said
    skipped = next(line for line in said.splitlines() if line.startswith("skipped (nothing graded):"))
    assert "copy_into" in skipped and "clone" not in skipped
    assert os.path.exists(os.path.join(term["root"], "autograder", "state", "reports", "clone_scores.png"))

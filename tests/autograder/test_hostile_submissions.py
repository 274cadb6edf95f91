"""Hostile submissions against the sandboxed grader: none of them reaches anyone else.

A course with the fixture assignment (5 points) and two honest students,
graded and given feedback first.  Then one run, with real nbgrader, real
kernels in their sandboxes, two workers and the real gradebook, grades every
attacker of ``hostile.py`` *together with the honest students again*, so the
attacks run while victims are being graded.  Each attack prints what it
reached; every one must come out empty.  Afterwards:

* the honest students' gradebook rows are exactly as before, and their files
  (``submitted/``, ``feedback/``) byte for byte;
* the check library on disk is unchanged;
* the run finished, graded everyone, and left no process of any kernel behind;
* each attacker got its honest score (5, or 2 for the wrong solution of
  ``ships_torch_py``); the limits (memory, processes, file size) held, and
  the notes (an error in the notebook's output) say so.

The shipped ``torch.py`` is also graded cold, unsandboxed (warm and cold) and
through plain ``nbgrader autograde``: it is never imported.
"""

import hashlib
import os
import subprocess
import sys
import time

import nbformat
import pytest
from nbgrader.api import Gradebook

import hostile
from autograder.kernels import sandbox as sandbox_module
from autograder.term.feedback import generate_feedback
from autograder.grade import autograde
from autograder.kernels.grading_kernels import UID_BASE
from autograder.kernels.kernel_launch import KERNEL_UID
from synthetic_course import FIXTURES, REPO, make_course, scores, student_notebook, write_submission

LIMITS = {"GradingKernelManager.memory_limit": 3 << 29,      # 1.5 GiB of address space
          "GradingKernelManager.process_limit": 64,
          "GradingKernelManager.tmp_size": 128 << 20,
          "GradingKernelManager.file_size_limit": 48 << 20}
# a test cell may wait long for a CPU while the bombs run beside it (CI lost one point to 20 s once)
CONFIG = dict(LIMITS, **{"Execute.timeout": 60, "GuardedExecute.notebook_timeout": 180})
HONEST = {"honest_right": hostile.CORRECT, "honest_wrong": hostile.WRONG}
HONEST_SCORES = {"honest_right": 5, "honest_wrong": 2}
CHECKS = os.path.join(REPO, "autograder", "checks")
# the attacked run's deadline: a run still going then marks who is left as failed, which
# test_the_run_ends_and_grades_everyone sees (no clock of the test's own)
RUN_DEADLINE = 600


def _snapshot(folder):
    """``{path: bytes}`` of every file under ``folder``, as it is now (a developer's edits included)."""
    out = {}
    for parent, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(parent, name)
            with open(path, "rb") as f:
                out[path] = f.read()
    return out


def _tree_hashes(folder):
    """``{path relative to folder: sha256}`` of every file under ``folder``."""
    return {os.path.relpath(path, folder): hashlib.sha256(data).hexdigest()
            for path, data in _snapshot(folder).items()}


def _restore(snapshot):
    """Put back what ``_snapshot`` read (never git: the working tree may hold uncommitted edits);
    returns the paths that had changed, appeared or vanished."""
    now = _snapshot(CHECKS)
    changed = sorted(p for p in set(now) | set(snapshot) if now.get(p) != snapshot.get(p))
    for path in changed:
        if path in snapshot:
            with open(path, "wb") as f:
                f.write(snapshot[path])
        else:
            os.remove(path)
    return [os.path.relpath(p, REPO) for p in changed]


def _rows(config, students):
    rows = {}
    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        for student in students:
            sub = gb.find_submission("fixture", student)
            rows[student] = (str(sub.timestamp), sub.score, [
                (g.name, g.auto_score, g.manual_score, g.needs_manual_grade, g.id)
                for nb in sub.notebooks for g in nb.grades])
    return rows


def _folder(config, kind, student):
    return os.path.join(config.CourseDirectory.root, "autograder", "state", kind, student, "fixture")


def _graded(config, student):
    return nbformat.read(os.path.join(_folder(config, "autograded", student), "fixture.ipynb"), 4)


def _report(config, student):
    found = hostile.reports(_graded(config, student))
    assert len(found) == 1, (student, found)  # the attack ran, and said what it reached
    return found[0]


def _total(config, student):
    return sum(scores(config, "fixture")[student].values())


def _targets(config):
    root = config.CourseDirectory.root
    victims = sorted(HONEST)
    return {
        "course": root, "gradebook": os.path.join(root, "autograder", "state", "gradebook.db"),
        "solutions": os.path.join(root, "solutions"),
        "submitted": os.path.join(root, "autograder", "state", "submitted"),
        "observe": os.path.join(CHECKS, "_observe.py"),
        "victims": victims,
        "victim_files": [os.path.join(_folder(config, kind, v), name) for v in victims
                         for kind, name in (("submitted", "fixture.ipynb"), ("feedback", "fixture.html"))],
        "victim_dirs": [_folder(config, kind, v) for v in victims
                        for kind in ("submitted", "autograded", "feedback")],
    }


def _submit(config, student, source, shipped=None):
    nb = student_notebook(config, "fixture", replace={"make_copy": source})
    folder = _folder(config, "submitted", student)
    write_submission(folder, nb, "fixture.ipynb")
    for name, text in (shipped or {}).items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)


def _no_kernel_left(seconds=10):
    deadline = time.monotonic() + seconds
    while hostile.kernel_processes(UID_BASE) and time.monotonic() < deadline:
        time.sleep(0.2)
    return hostile.kernel_processes(UID_BASE)


@pytest.fixture(scope="module")
def battle(tmp_path_factory, needs_sandbox):
    root = str(tmp_path_factory.mktemp("hostile-course"))
    config = make_course(root, {"fixture": os.path.join(FIXTURES, "fixture")})
    for student, source in HONEST.items():
        _submit(config, student, source)
    first = autograde(config, "fixture", workers=1, progress=False, shard_config=CONFIG)
    assert first.graded == sorted(HONEST) and not first.failed
    assert generate_feedback(config, ["fixture"]) == {"fixture": True}
    checks_before = _snapshot(CHECKS)
    before = {"rows": _rows(config, HONEST), "checks": _tree_hashes(CHECKS),
              "files": {s: (_tree_hashes(_folder(config, "submitted", s)),
                            _tree_hashes(_folder(config, "feedback", s))) for s in HONEST}}
    targets = _targets(config)
    for name, attack in hostile.ATTACKS.items():
        _submit(config, name, attack(targets),
                hostile.SHIPPED_FILES if name == "ships_torch_py" else None)
    run = autograde(config, "fixture", workers=2, progress=False, shard_config=CONFIG, deadline=RUN_DEADLINE)
    leftovers = _no_kernel_left()
    yield {"config": config, "before": before, "run": run, "leftovers": leftovers}
    tampered = _restore(checks_before)
    if tampered:
        pytest.fail("an attack changed the check library on disk (%s); its files were put back as they were "
                    "before the run, from this test's own copy" % ", ".join(tampered))


def test_the_run_ends_and_grades_everyone(battle):
    run = battle["run"]
    assert run.failed == {}
    assert run.graded == sorted(set(hostile.ATTACKS) | set(HONEST))


def test_no_process_of_any_kernel_is_left_behind(battle):
    assert battle["leftovers"] == []  # the daemon and the fork bomb's children included


def test_honest_students_keep_their_grades_and_files(battle):
    config, before = battle["config"], battle["before"]
    assert _rows(config, HONEST) == before["rows"]
    for student, score in HONEST_SCORES.items():
        assert _total(config, student) == score
        assert (_tree_hashes(_folder(config, "submitted", student)),
                _tree_hashes(_folder(config, "feedback", student))) == before["files"][student]


def test_the_check_library_is_unchanged(battle):
    assert _tree_hashes(CHECKS) == battle["before"]["checks"]


@pytest.mark.parametrize("attacker", ["writes_gradebook", "edits_files", "looks_around",
                                      "kills_kernels", "pool_injection", "forged_output"])
def test_the_attack_reaches_nothing_and_the_attacker_keeps_its_honest_score(battle, attacker):
    config = battle["config"]
    assert _report(config, attacker)["reached"] == []
    assert _total(config, attacker) == 5


def test_the_kernel_sees_only_its_own_sandbox(battle):
    found = _report(battle["config"], "looks_around")
    assert found["uid"] == KERNEL_UID  # inside its user namespace; on the host, a uid of its own
    assert len(found["pids"]) <= 3  # the sandbox's init, its idle first process, the kernel
    assert found["folder"] == [], "the kernel's folder holds no notebook (hidden tests included), nothing at all"


def test_a_leftover_daemon_dies_with_its_notebook(battle):
    config = battle["config"]
    assert _report(config, "leaves_daemon")["daemon"] is True
    assert _total(config, "leaves_daemon") == 5
    time.sleep(1)  # it would zero the gradebook every 0.2 s if it were alive
    assert _rows(config, HONEST) == battle["before"]["rows"]


def test_bytes_that_are_not_utf8_hang_nothing(battle):
    assert _report(battle["config"], "byte_ff")["reached"] == []
    assert _total(battle["config"], "byte_ff") == 5


def test_a_memory_bomb_stops_at_the_limit(battle):
    found = _report(battle["config"], "memory_bomb")
    assert found["held_bytes"] < LIMITS["GradingKernelManager.memory_limit"]
    assert _total(battle["config"], "memory_bomb") == 5


def test_a_fork_bomb_stops_at_the_process_limit(battle):
    found = _report(battle["config"], "fork_bomb")
    assert 0 < found["children"] < LIMITS["GradingKernelManager.process_limit"]
    assert found["stopped"] == 11  # EAGAIN: the kernel's uid has no process left
    assert _total(battle["config"], "fork_bomb") == 5


def test_a_disk_bomb_fills_only_its_own_small_tmpfs(battle):
    config = battle["config"]
    found = _report(config, "disk_bomb")
    assert found["largest"] <= LIMITS["GradingKernelManager.file_size_limit"]
    assert found["total"] <= LIMITS["GradingKernelManager.tmp_size"]
    assert _total(config, "disk_bomb") == 5
    graded = _folder(config, "autograded", "disk_bomb")
    assert sorted(os.listdir(graded)) == ["fixture.ipynb"]  # nothing the kernel wrote comes back


def test_a_huge_error_message_is_graded(battle):
    config = battle["config"]
    assert _total(config, "huge_error") == 5
    # the error is in the notebook (possibly cut short: formatting 50 MB can run the kernel
    # into its memory limit, or a loaded machine into the cell's timeout)
    errors = [o.ename for o in _outputs(_graded(config, "huge_error")) if o.output_type == "error"]
    assert errors and set(errors) <= {"ValueError", "MemoryError", "CellTimeoutError"}


def _outputs(notebook):
    return [o for c in notebook.cells for o in c.get("outputs", [])]


def _never_imported(config, student="ships_torch_py"):
    text = "".join(str(o) for o in _outputs(_graded(config, student)))
    assert "SHADOWED" not in text
    assert _total(config, student) == 2  # the wrong solution's honest score, not a faked 5


def test_shipped_modules_are_never_imported_by_warm_kernels(battle):
    assert _report(battle["config"], "ships_torch_py")["reached"] == []
    _never_imported(battle["config"])


@pytest.mark.parametrize("warm, unsandboxed", [(False, False), (True, True), (False, True)])
def test_shipped_modules_are_never_imported_cold_or_unsandboxed(battle, warm, unsandboxed):
    config = battle["config"]
    run = autograde(config, "fixture", ["ships_torch_py"], workers=1, warm=warm, progress=False,
                    unsandboxed=unsandboxed, shard_config=CONFIG)
    assert run.graded == ["ships_torch_py"]
    _never_imported(config)


@pytest.mark.parametrize("unsandboxed", [False, True])
def test_shipped_modules_are_never_imported_by_plain_nbgrader(battle, unsandboxed):
    config = battle["config"]
    root = config.CourseDirectory.root
    command = [os.path.join(os.path.dirname(sys.executable), "nbgrader"), "autograde", "fixture",
               "--student=ships_torch_py", "--force", "--CourseDirectory.root=" + root,
               "--CourseDirectory.db_url=" + config.CourseDirectory.db_url,
               "--Exchange.root=" + os.path.join(root, "autograder", "state", "exchange")]
    if unsandboxed:
        command.append("--GradingKernelManager.unsandboxed=True")
    subprocess.run(command, cwd=os.path.join(REPO, "autograder"), check=True, timeout=600,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _never_imported(config)


def test_cold_kernels_resist_the_same_attacks(battle):
    config = battle["config"]
    attackers = ["byte_ff", "forged_output", "kills_kernels"]
    # a cold kernel imports torch for each notebook: on a loaded machine (CI runs the suite beside
    # it) the notebook's budget is the one the patient run below gives, not the warm runs' 180 s
    run = autograde(config, "fixture", attackers + ["honest_right"], workers=2, warm=False,
                    progress=False, shard_config=dict(CONFIG, **{"GuardedExecute.notebook_timeout": 600}))
    assert run.failed == {}
    for attacker in attackers:
        assert _report(config, attacker)["reached"] == []
        assert _total(config, attacker) == 5, (attacker, scores(config, "fixture")[attacker], [
            o.get("evalue", "")[:300] for c in _graded(config, attacker).cells for o in c.get("outputs", [])
            if o.get("output_type") == "error"])
    assert _rows(config, HONEST) == battle["before"]["rows"]
    assert _no_kernel_left() == []


def test_grading_refuses_without_a_sandbox_unless_told(fixture_course, monkeypatch):
    monkeypatch.setattr(sandbox_module, "bwrap_path", lambda: None)
    with pytest.raises(sandbox_module.SandboxUnavailable) as refusal:
        autograde(fixture_course, "fixture", progress=False)
    assert "bubblewrap" in str(refusal.value) and "--unsandboxed" in str(refusal.value)


def test_the_run_deadline_ends_a_notebook_that_outlasts_every_other_limit(battle):
    config = battle["config"]
    _submit(config, "sleeper", "import time\ntime.sleep(3600)\n" + hostile.CORRECT)
    patient = dict(CONFIG, **{"Execute.timeout": 7200, "GuardedExecute.notebook_timeout": 7200})
    run = autograde(config, "fixture", ["sleeper"], workers=1, progress=False,
                    shard_config=patient, deadline=15)
    assert run.failed == {"sleeper": "the run's deadline passed before it was graded"}
    assert _total(config, "sleeper") == 0
    assert _no_kernel_left() == []  # the worker ended itself, and its kernel with it


def test_the_command_line_refuses_when_bwrap_cannot_sandbox(fixture_course, tmp_path):
    fake = tmp_path / "bwrap"  # a bwrap that may not create namespaces, as in some containers
    fake.write_text("#!/bin/sh\necho 'bwrap: Creating new namespace failed' >&2\nexit 1\n")
    fake.chmod(0o755)
    env = dict(os.environ, PATH=str(tmp_path) + os.pathsep + os.environ["PATH"])
    result = subprocess.run([sys.executable, "-m", "autograder", "--root",
                             fixture_course.CourseDirectory.root, "autograde", "--no-progress"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 2
    assert "Creating new namespace failed" in result.stderr and "--unsandboxed" in result.stderr

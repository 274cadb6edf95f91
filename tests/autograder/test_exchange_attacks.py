"""``collect --exchange`` attacked by students from their own Unix accounts, before and during collect.

A real exchange: the ``clone`` assignment released by nbgrader, real Unix
users (made with ``useradd`` and removed at the end), each student's
submission handed in by nbgrader's own submit (the hub's ``CheckedSubmit``)
running with that student's rights.  The instructor's solutions are root's,
``0700``, as on the hub.  Every notebook carries a line naming who wrote
it.

Honest students hand in as usual (one of them twice).  The others then
change their own submission folders with their own rights, as any student
can:

* a symbolic link at each component: the submission folder itself, a
  subfolder, the notebook (pointing at a classmate's submission or the
  instructor's solution);
* the same three swaps racing the collect, from a process that flips a
  folder and a link in a loop while three collects run;
* folders nested past PATH_MAX, and deeper than the limit;
* a sparse file of a terabyte, a file of 120 MiB, 3000 files, a FIFO.

Each test reads one outcome: every student either has their own notebook
collected, or is named in the report with the reason; nothing of anyone
else's is ever collected; every honest student is collected exactly as handed
in, with their secret for the feedback.
"""

import encodings.utf_8_sig  # noqa: F401 - the students' submit reads with it; their rights may not reach Python's library
import grp
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time

import nbformat
import pytest
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from traitlets.config import Config

from autograder.hub.exchange import RECORD, collect_exchange, release
from autograder.hub.submit import CheckedSubmit
from autograder.course import state_dir
from synthetic_course import REPO, make_course, student_notebook, write_submission

HONEST = ["right", "partly", "twice"]
STATIC = ["folder_link", "subfolder_link", "notebook_link", "past_path_max", "too_deep", "sparse",
          "huge", "many_files", "fifo", "extra_file"]
RACING = ["race_folder", "race_subfolder", "race_notebook"]
RACE_SECONDS = 300   # the flippers' own bound, should the test die before stopping them
COLLECTS = 3         # collects while the flippers run


def user_name(role):
    return "xa%d%s" % (os.getpid() % 100000, "".join(w[0] for w in role.split("_")) + str(len(role)))


def as_user(name, action, *args):
    """Run ``action(*args)`` in a child process with ``name``'s rights (uid, gid, no other group);
    returns its pid when ``action`` should keep running (a flipper), else waits and asserts it
    succeeded."""
    info = pwd.getpwnam(name)
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.setgroups([])
            os.setresgid(info.pw_gid, info.pw_gid, info.pw_gid)
            os.setresuid(info.pw_uid, info.pw_uid, info.pw_uid)
            os.environ.update(USER=name, LOGNAME=name, HOME=home(name))
            action(*args)
            status = 0
        except BaseException as error:  # noqa: B902 - the child reports and ends, whatever happened
            os.write(2, ("%s: %r\n" % (name, error)).encode())
        finally:
            os._exit(status)
    return pid


def wait_ok(pid):
    assert os.waitpid(pid, 0)[1] == 0, "the student's action failed (its error is above)"


BASE = None


def home(name):
    return os.path.join(BASE, "home", name)


def notebook(config, name):
    nb = student_notebook(config, "clone")
    nb.cells.append(nbformat.v4.new_markdown_cell("written by %s" % name))
    return nb


def submit(exchange, course, nb):
    """nbgrader's submit (the hub's checked one), as the student running it."""
    work = os.path.join(os.environ["HOME"], "work")
    write_submission(os.path.join(work, "clone"), nb, "clone.ipynb")
    cfg = Config()
    cfg.Exchange.root = exchange
    cfg.Exchange.cache = os.path.join(os.environ["HOME"], "cache")
    cfg.Exchange.assignment_dir = work
    cfg.CourseDirectory.course_id = course
    cfg.CourseDirectory.assignment_id = "clone"
    submitter = CheckedSubmit(coursedir=CourseDirectory(config=cfg), authenticator=Authenticator(config=cfg),
                              config=cfg)
    submitter.start()


# -- what the attackers do, with their own rights ---------------------------------------------------

def swap_for_link(path, target):
    stash = os.path.join(os.environ["HOME"], "stash")
    os.rename(path, stash)
    os.symlink(target, path)


def nest(top, name, depth):
    """``depth`` folders named ``name`` inside each other under ``top``, made through folder fds
    (a path this long cannot be given to one system call), with a notebook at the bottom."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir(name, dir_fd=fd)
        inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    with open(os.open("clone.ipynb", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd), "w") as f:
        f.write("{}")
    os.close(fd)


def attack(kind, folder, classmate, solution):
    if kind == "folder_link":
        swap_for_link(folder, classmate)
    elif kind == "subfolder_link":
        os.mkdir(os.path.join(folder, "sub"))
        os.rename(os.path.join(folder, "clone.ipynb"), os.path.join(folder, "sub", "clone.ipynb"))
        swap_for_link(os.path.join(folder, "sub"), classmate)
    elif kind == "notebook_link":
        swap_for_link(os.path.join(folder, "clone.ipynb"), solution)
    elif kind == "past_path_max":
        nest(folder, "d" * 250, 20)   # about 5000 bytes of path: past PATH_MAX (4096)
    elif kind == "too_deep":
        nest(folder, "d", 40)
    elif kind == "sparse":
        with open(os.path.join(folder, "data.bin"), "wb") as f:
            f.truncate(2 ** 40)       # a terabyte to read, nothing on disk
    elif kind == "huge":
        with open(os.path.join(folder, "weights.bin"), "wb") as f:
            for _ in range(120):
                f.write(b"\1" * 2 ** 20)
    elif kind == "many_files":
        os.mkdir(os.path.join(folder, "many"))
        for number in range(3000):
            open(os.path.join(folder, "many", "%d.txt" % number), "w").close()
    elif kind == "fifo":
        os.mkfifo(os.path.join(folder, "notes.ipynb"))
    elif kind == "extra_file":  # not an attack: a careless student's notes, added after submit
        with open(os.path.join(folder, "notes.txt"), "w") as f:
            f.write("my notes")


def flip(path, target, stop):
    """Swap ``path`` for a link to ``target`` and back, again and again, until ``stop`` exists."""
    stash = path + ".stash" if not os.path.isdir(path) else os.path.join(os.environ["HOME"], "stash")
    deadline, flips = time.monotonic() + RACE_SECONDS, 0
    while not os.path.exists(stop) and time.monotonic() < deadline:
        os.rename(path, stash)
        os.symlink(target, path)
        os.unlink(path)
        os.rename(stash, path)
        flips += 1
    with open(os.path.join(os.environ["HOME"], "flips"), "w") as f:
        f.write(str(flips))


def race(kind, folder, classmate, solution, stop):
    """Flip the submission folder, a subfolder holding the notebook, or the notebook."""
    if kind == "race_folder":
        flip(folder, classmate, stop)
    elif kind == "race_subfolder":
        os.mkdir(os.path.join(folder, "sub"))
        os.rename(os.path.join(folder, "clone.ipynb"), os.path.join(folder, "sub", "clone.ipynb"))
        flip(os.path.join(folder, "sub"), classmate, stop)
    else:
        flip(os.path.join(folder, "clone.ipynb"), solution, stop)


# -- the class -------------------------------------------------------------------------------------

def make_users(roles):
    for role in roles:
        name = user_name(role)
        subprocess.run(["userdel", name], capture_output=True)  # left by a crashed run
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group",
                        name], check=True, capture_output=True)
        os.makedirs(home(name))
        info = pwd.getpwnam(name)
        os.chown(home(name), info.pw_uid, info.pw_gid)
        os.chmod(home(name), 0o700)


def remove_users(roles):
    for role in roles:
        name = user_name(role)
        try:
            uid = pwd.getpwnam(name).pw_uid
        except KeyError:
            continue
        for pid in filter(str.isdigit, os.listdir("/proc")):  # by pid: only this class's users
            try:
                if os.stat("/proc/" + pid).st_uid == uid:
                    os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        subprocess.run(["userdel", name], capture_output=True)
        try:
            grp.getgrnam(name)
            subprocess.run(["groupdel", name], capture_output=True)
        except KeyError:
            pass


def inbound_of(exchange, course, name):
    inbound = os.path.join(exchange, course, "inbound")
    return sorted(os.path.join(inbound, f) for f in os.listdir(inbound) if f.startswith(name + "+"))


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    global BASE
    if os.geteuid() != 0 or not shutil.which("useradd"):
        if os.environ.get("CI") == "true":
            pytest.fail("the exchange attacks must run in CI, as root with useradd")
        pytest.skip("exchange attacks skipped: they need root and useradd (to make real students)")
    BASE = tempfile.mkdtemp(prefix="exchange-attacks-")
    os.chmod(BASE, 0o755)
    os.makedirs(os.path.join(BASE, "home"), mode=0o755)
    roles = HONEST + STATIC + RACING
    out = {"names": {role: user_name(role) for role in roles}}
    flippers = []
    try:
        config = make_course(os.path.join(BASE, "course"), {"clone": os.path.join(REPO, "solutions", "clone")})
        solutions = os.path.join(BASE, "course", "solutions")
        os.chmod(solutions, 0o700)  # as on the hub: the grader's alone
        solution = os.path.join(solutions, "clone", "clone.ipynb")
        exchange, course = os.path.join(BASE, "exchange"), config.CourseDirectory.course_id
        release(config, ["clone"], exchange)
        make_users(roles)
        sent = {}
        for role in roles:
            name = user_name(role)
            nb = notebook(config, name)
            if role == "right":
                nb = student_notebook(config, "clone", solved="all")
                nb.cells.append(nbformat.v4.new_markdown_cell("written by %s" % name))
            if role == "twice":
                wait_ok(as_user(name, submit, exchange, course, notebook(config, name + " first")))
                time.sleep(1.1)
            wait_ok(as_user(name, submit, exchange, course, nb))
            sent[name] = nb
        classmate = inbound_of(exchange, course, user_name("right"))[0]
        for role in STATIC:
            name = user_name(role)
            wait_ok(as_user(name, attack, role, inbound_of(exchange, course, name)[0], classmate, solution))
        stop = os.path.join(BASE, "stop")
        for role in RACING:
            name = user_name(role)
            flippers.append(as_user(name, race, role, inbound_of(exchange, course, name)[0], classmate,
                                    solution, stop))
        out["reports"] = [collect_exchange(config, exchange) for _ in range(COLLECTS)]
        open(stop, "w").close()
        flippers, running = [], flippers
        for pid in running:
            wait_ok(pid)
        out["flips"] = {role: int(open(os.path.join(home(user_name(role)), "flips")).read()) for role in RACING}
        out.update(config=config, sent=sent, exchange=exchange, course=course, solution=solution,
                   record=json.load(open(state_dir(config, RECORD))))
        yield out
    finally:
        for pid in flippers:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        remove_users(roles)
        shutil.rmtree(BASE, ignore_errors=True)


def stored(attacked, name):
    path = os.path.join(state_dir(attacked["config"], "submitted"), name, "clone", "clone.ipynb")
    return nbformat.read(path, 4) if os.path.exists(path) else None


def said(report, name):
    """The report's lines about ``name``."""
    return [line for line in report.lines() if name in line]


def sources(nb):
    return [cell.source for cell in nb.cells]


# -- outcomes --------------------------------------------------------------------------------------

def test_every_honest_student_is_collected_exactly_as_handed_in_with_their_secret(attacked):
    for report in attacked["reports"]:
        collected = {student for student, _, _ in report.collected}
        for role in HONEST:
            assert attacked["names"][role] in collected, report.lines()
    for role in HONEST:
        name = attacked["names"][role]
        assert sources(stored(attacked, name)) == sources(attacked["sent"][name])
        folder = inbound_of(attacked["exchange"], attacked["course"], name)[-1]
        with open(os.path.join(folder, "submission_secret.txt")) as f:
            assert attacked["record"][name]["clone"]["secret"] == f.read()


def test_a_student_who_handed_in_twice_gets_the_newest_and_a_note(attacked):
    name = attacked["names"]["twice"]
    assert any("handed in 2 times" in line for line in said(attacked["reports"][0], name))
    assert "written by %s" % name in sources(stored(attacked, name))


def test_nobody_is_ever_collected_with_anything_but_their_own_notebook(attacked):
    for name, nb in attacked["sent"].items():
        kept = stored(attacked, name)
        if kept is not None:
            assert sources(kept) == sources(nb), "%s was collected with someone else's work" % name
            assert "BEGIN SOLUTION" not in json.dumps(kept.dict()) or name == attacked["names"]["right"]


@pytest.mark.parametrize("role, reason", [
    ("folder_link", "a symbolic link, not a submission folder; refused, not followed"),
    ("subfolder_link", "sub: a symbolic link; refused, not followed"),
    ("notebook_link", "clone.ipynb: a symbolic link; refused, not followed"),
    ("past_path_max", "a path in it is longer than 1024 bytes"),
    ("too_deep", "its folders nest deeper than 32 levels"),
    ("sparse", "its files hold more than 100 MiB (0 MiB on disk, 1048576 MiB to read)"),
    ("huge", "its files hold more than 100 MiB (120 MiB on disk, 120 MiB to read)"),
    ("many_files", "it holds more than 1000 files and folders"),
])
def test_an_attack_before_collect_gives_its_student_a_note_and_collects_nothing_of_theirs(
        attacked, role, reason):
    name = attacked["names"][role]
    for report in attacked["reports"]:
        lines = said(report, name)
        assert any(reason in line for line in lines), lines
        assert name not in {student for student, _, _ in report.collected}
    assert stored(attacked, name) is None


def test_a_fifo_beside_the_notebook_is_named_and_the_notebook_collected(attacked):
    name = attacked["names"]["fifo"]
    lines = said(attacked["reports"][0], name)
    assert any("notes.ipynb: a special file" in line for line in lines), lines
    assert sources(stored(attacked, name)) == sources(attacked["sent"][name])


def test_a_file_that_is_not_a_notebook_is_named_not_read_and_the_notebook_collected(attacked):
    name = attacked["names"]["extra_file"]
    assert sources(stored(attacked, name)) == sources(attacked["sent"][name])
    with open(os.path.join(state_dir(attacked["config"], "submitted"), name, "clone", "collect_notes.json")) as f:
        assert "only notebooks are collected; left out: notes.txt" in json.load(f)


@pytest.mark.parametrize("role", RACING)
def test_a_link_swapped_in_during_collect_gains_nothing_and_the_class_is_collected(attacked, role):
    name = attacked["names"][role]
    for report in attacked["reports"]:
        others = {student for student, _, _ in report.collected}
        assert {attacked["names"][r] for r in HONEST} <= others, report.lines()
        if name in others:
            continue   # the reader met the folder, not the link: the student's own notebook (above)
        if role != "race_folder":  # the folder is always there; the report says what happened
            assert said(report, name), report.lines()
    kept = stored(attacked, name)
    assert kept is None or sources(kept) == sources(attacked["sent"][name])
    assert attacked["flips"][role] > 100, "the race hardly ran: %d flips" % attacked["flips"][role]

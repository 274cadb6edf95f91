"""A whole term on a real JupyterHub, as autograder/README.md ("A class on a hub") tells it.

Real parts only: JupyterHub and configurable-http-proxy on free loopback
ports, PAM logins of real Unix users (made and removed by the fixture),
LocalProcessSpawner servers running as those users, nbgrader's exchange and
its assignment list (the calls the lab's Assignments panel makes), grading in
the sandbox.  The instructor releases ``clone`` and ``detach``; three
students log in through the hub and fetch ``clone``: one solves it right (and
submits twice: a first try, then the right answer), one partly, one right but
after the due date.  A student's refused submissions (a file that is not a
notebook, a notebook too large) come first.  The instructor collects from the
exchange, grades, writes and returns feedback; each student fetches theirs.
Then the hub is restarted.  Each test reads one outcome.
"""

import datetime
import glob
import json
import os
import pwd
import re
import subprocess
import time

import nbformat
import pytest
from nbgrader.api import Gradebook

from driver import Person

COURSE = "tensor-copies"
RIGHT, PARTLY, LATE = "tc-student1", "tc-student2", "tc-student3"


def answers(root, assignment, nb, only=None):
    """``nb`` (a notebook as the contents API gives it) with the instructor's solutions in
    its answer cells (``only``: just these grade ids)."""
    source = nbformat.read(os.path.join(root, "solutions", assignment, assignment + ".ipynb"), 4)
    solution = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in source.cells}
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and (only is None or meta["grade_id"] in only):
            cell["source"] = solution[meta["grade_id"]]
    return nb


def work(person, root, assignment, only=None):
    path = "%s/%s.ipynb" % (assignment, assignment)
    person.write_notebook(path, answers(root, assignment, person.read(path)["content"], only))


def as_user(user, *command):
    return subprocess.run(["runuser", "-u", user, "--"] + list(command), capture_output=True, text=True)


@pytest.fixture(scope="module")
def term(hub_class):
    c = hub_class
    out = {"class": c}
    c.run(c.blocks[2])  # generate, release
    people = {name: Person(c.url, name, password) for name, password in c.people.items()}
    started = time.monotonic()
    for name in c.students():
        people[name].login().start_server()
    for name in c.students():
        people[name].wait_ready()
    out["three_ready_seconds"] = time.monotonic() - started
    people[c.instructor()].login()
    out["listed"] = {name: people[name].assignments(COURSE) for name in c.students()}
    for name in c.students():
        people[name].action("fetch", COURSE, "clone")
    right, partly, late = people[RIGHT], people[PARTLY], people[LATE]

    # refused at submit, with the reason in the answer the assignment list shows
    partly.write_file("clone/scratch.txt", "my notes")
    out["not_a_notebook"] = partly.action("submit", COURSE, "clone")
    partly.delete("clone/scratch.txt")
    big = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("x" * (21 * 2 ** 20))])
    partly.write_notebook("clone/big.ipynb", big)
    out["too_large"] = partly.action("submit", COURSE, "clone")
    partly.delete("clone/big.ipynb")

    work(right, c.root, "clone", only={"clone-layout-solution"})
    out["first_try"] = right.action("submit", COURSE, "clone")
    time.sleep(1.1)
    work(right, c.root, "clone")
    out["second_try"] = right.action("submit", COURSE, "clone")
    work(partly, c.root, "clone", only={"clone-layout-solution"})
    # the student's own self-check, from a kernel of their server, as the exercise's last cell runs it
    out["self_check"] = partly.run_in_notebook("clone/clone.ipynb", "from autograder import self_check\n"
                                                                      "self_check()")
    out["self_check_processes"] = processes_running_as(PARTLY)
    # the self-check handler of the student's own server, asked with that server's token as self_check() asks
    out["self_check_handler"] = partly.run_in_notebook(
        "clone/clone.ipynb", "from autograder.learner.self_check import HANDLER, ask_server, own_server\n"
                             "print('handler', ask_server(own_server(), HANDLER + '/warm-up', {}))")
    out["partly"] = partly.action("submit", COURSE, "clone")
    due = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=2)
    time.sleep(3)
    work(late, c.root, "clone")
    out["late"] = late.action("submit", COURSE, "clone")

    c.run(c.blocks[3], CLONE_DUE=due.isoformat(), DETACH_DUE="2099-01-01T00:00:00+00:00")
    submitted = time.monotonic()
    out["instructor_log"] = c.run(c.blocks[4])
    out["grading_seconds"] = time.monotonic() - submitted
    out["feedback"] = {}
    for name in c.students():
        people[name].action("fetch_feedback", COURSE, "clone")
        folder = people[name].read("clone/feedback")["content"]
        out["feedback"][name] = [people[name].read(f["path"] + "/clone.html")["content"]
                                 for f in folder]
    with Gradebook("sqlite:///" + os.path.join(c.state, "gradebook.db")) as gb:
        out["scores"] = {name: (gb.find_submission("clone", name).score,
                                gb.find_submission("clone", name).max_score,
                                gb.find_submission_notebook("clone", "clone", name).late_submission_penalty)
                         for name in c.students()}
    out["people"] = people
    return out


def processes_running_as(user):
    """``[(pid, command line)]`` of the processes running as ``user``."""
    import psutil

    uid = pwd.getpwnam(user).pw_uid
    return [(p.pid, " ".join(p.info["cmdline"] or [])) for p in psutil.process_iter(["uids", "cmdline"])
            if p.info["uids"] and p.info["uids"].real == uid]


def ok(answer):
    return isinstance(answer.get("value"), list) and answer.get("success")


def test_three_students_log_in_through_pam_and_each_sees_both_released_assignments(term):
    assert len(term["class"].students()) == 3
    for name, listed in term["listed"].items():
        assert listed["success"], listed
        assert {a["assignment_id"] for a in listed["value"]} == {"clone", "detach"}, name
    print("three servers ready in %.1f s" % term["three_ready_seconds"])


def test_a_wrong_password_does_not_log_in(term):
    c = term["class"]
    with pytest.raises(AssertionError, match="could not log in"):
        Person(c.url, RIGHT, "not-the-password").login()


def test_a_file_that_is_not_a_notebook_is_refused_with_a_message_the_student_sees(term):
    answer = term["not_a_notebook"]
    assert answer["success"] is False
    assert "scratch.txt is not a notebook" in answer["value"] and "Nothing was handed in" in answer["value"]


def test_a_notebook_too_large_to_grade_is_refused_with_a_message_the_student_sees(term):
    answer = term["too_large"]
    assert answer["success"] is False
    assert "big.ipynb is too large to grade" in answer["value"]


def test_every_real_submission_reached_the_exchange(term):
    for key in ("first_try", "second_try", "partly", "late"):
        assert ok(term[key]), term[key]


def test_submitting_twice_collects_the_newest_and_the_log_says_so(term):
    log = term["instructor_log"]
    assert re.search(r"note %s: clone was handed in 2 times; the newest .* is collected" % RIGHT, log), log
    score, max_score, _ = term["scores"][RIGHT]
    assert score == max_score == 11, "the first try (2 points) was graded instead of the newest"


def test_the_right_solution_scores_full_marks_and_its_student_reads_that_in_the_feedback(term):
    score, max_score, penalty = term["scores"][RIGHT]
    assert (score, penalty or 0) == (11, 0)
    pages = term["feedback"][RIGHT]
    assert len(pages) == 1 and "clone (Score: 11.0 / 11.0)" in pages[0]


def test_the_partial_solution_scores_part_of_the_points_and_its_student_reads_that(term):
    score, max_score, penalty = term["scores"][PARTLY]
    assert 0 < score < max_score and not penalty
    assert "clone (Score: %s / 11.0)" % round(float(score), 2) in term["feedback"][PARTLY][0]


def test_a_late_submission_is_graded_with_the_late_penalty_not_lost(term):
    score, max_score, penalty = term["scores"][LATE]
    assert (penalty or 0) > 0, "submitted after the due date but not marked late"
    page = term["feedback"][LATE][0]
    assert "Late submission penalty" in page


def test_each_student_reads_only_their_own_score(term):
    own = {name: re.search(r"clone \(Score: ([\d.]+) / 11\.0\)", pages[0]).group(1)
           for name, pages in term["feedback"].items()}
    assert own[RIGHT] == "11.0" and float(own[PARTLY]) < 11
    assert len(set(term["feedback"][name][0] for name in own)) == 3


def test_a_students_self_check_on_the_hub_runs_as_the_student_and_gives_the_graders_score(term):
    printed = term["self_check"]
    found = re.search(r"Score: ([\d.]+)/([\d.]+)", printed)
    assert found, printed
    score, max_score, _ = term["scores"][PARTLY]
    assert (float(found.group(1)), float(found.group(2))) == (score, max_score), printed
    for instructor_words in ("as root", "--unsandboxed", "needs a sandbox", "SandboxUnavailable", "CourseError"):
        assert instructor_words not in printed, printed
    servers = [command for _, command in term["self_check_processes"] if "jupyterhub.singleuser" in command]
    assert servers, "no server of %s's own ran: %s" % (PARTLY, term["self_check_processes"])
    # no sandbox for a student (not root): the handler answers, with no zygote to keep warm
    assert "handler {'zygote': None}" in term["self_check_handler"], term["self_check_handler"]


def test_grading_ran_every_kernel_in_the_sandbox(term):
    log = term["instructor_log"]
    assert "clone: graded 3 submission(s)" in log
    assert "warm (forked)" in log and "without a sandbox" not in log


def test_a_student_cannot_read_another_students_home_submission_or_feedback(term):
    c = term["class"]
    other_home = os.path.expanduser("~" + RIGHT)
    inbound = os.path.join(c.exchange, COURSE, "inbound")
    theirs = sorted(glob.glob(os.path.join(inbound, RIGHT + "+clone+*")))
    assert len(theirs) == 2
    feedback_pages = glob.glob(os.path.join(other_home, "clone", "feedback", "*", "clone.html"))
    assert feedback_pages
    for path in [os.path.join(other_home, "clone", "clone.ipynb"), os.path.join(theirs[-1], "clone.ipynb"),
                 os.path.join(theirs[-1], "submission_secret.txt"), feedback_pages[0]]:
        done = as_user(PARTLY, "cat", path)
        assert done.returncode != 0 and "Permission denied" in done.stderr, path
    for folder in (other_home, inbound, os.path.join(c.exchange, COURSE, "feedback")):
        done = as_user(PARTLY, "ls", folder)
        assert done.returncode != 0 and "Permission denied" in done.stderr, folder
    done = as_user(PARTLY, "touch", os.path.join(theirs[-1], "clone.ipynb"))
    assert done.returncode != 0, "a student changed another's submission"


def test_a_student_cannot_read_the_gradebook_solutions_or_hidden_tests(term):
    c = term["class"]
    for path in [os.path.join(c.state, "gradebook.db"),
                 os.path.join(c.root, "solutions", "clone", "clone.ipynb"),
                 os.path.join(c.state, "submitted", RIGHT, "clone", "clone.ipynb"),
                 os.path.join(c.state, "feedback", RIGHT, "clone", "clone.html")]:
        done = as_user(PARTLY, "cat", path)
        assert done.returncode != 0 and "Permission denied" in done.stderr, path
        assert os.path.exists(path)


def test_only_the_instructors_reach_formgrader(term):
    people = term["people"]
    instructor = people[term["class"].instructor()]
    page = instructor.api("GET", "/services/formgrader/formgrader")
    assert page.status_code == 200 and "Manage Assignments" in page.text
    refused = people[PARTLY].api("GET", "/services/formgrader/formgrader")
    assert refused.status_code == 403
    for student in (RIGHT, PARTLY, LATE):  # formgrader's error page, with none of the class's data
        assert student not in refused.text
    listed = instructor.api("GET", "/services/formgrader/formgrader/api/students")
    assert listed.status_code == 200 and RIGHT in listed.text
    students = people[PARTLY].api("GET", "/services/formgrader/formgrader/api/students")
    assert students.status_code in (403, 404) and RIGHT not in students.text


def test_the_chapters_are_in_every_students_home(term):
    chapters = sorted(os.listdir(os.path.join(term["class"].root, "course")))
    listed = {f["name"] for f in term["people"][LATE].read("course")["content"]}
    assert {n for n in chapters if n.endswith(".ipynb")} <= listed


def test_a_hub_restart_loses_nothing(term):
    c = term["class"]
    inbound = sorted(os.listdir(os.path.join(c.exchange, COURSE, "inbound")))
    c.stop()
    for name in c.people:  # servers (and their self-check), kernels, formgrader: all stopped with the hub
        assert processes_running_as(name) == [], name
    assert processes_running_as("grader") == []
    c.start(c.blocks[1])
    again = Person(c.url, LATE, c.people[LATE]).login().start_server().wait_ready()
    listed = {(a["assignment_id"], a["status"]) for a in again.assignments(COURSE)["value"]}
    assert {("clone", "fetched"), ("clone", "submitted")} <= listed, listed
    assert again.read("clone/feedback")["content"], "the fetched feedback is gone"
    assert sorted(os.listdir(os.path.join(c.exchange, COURSE, "inbound"))) == inbound
    with Gradebook("sqlite:///" + os.path.join(c.state, "gradebook.db")) as gb:
        assert gb.find_submission("clone", LATE).score == term["scores"][LATE][0]

"""Two courses on one real JupyterHub (``python -m autograder hub --courses FILE``), kept apart.

Two fresh copies of the repository are two course roots, ``copies-a`` and
``copies-b``, each with an instructor and a student (real Unix users, PAM
logins, LocalProcessSpawner servers), a grader account, a formgrader service
and groups of its own.  Both release ``clone``; ``copies-b`` also ``detach``.
Each student fetches and hands in to their own course, and tries the other
course through the assignment list as the lab would, and as their Unix user
on the exchange's folders.  Each instructor collects and grades their own
course with the course's own commands (``--root``, ``--course``).  Each test
reads one outcome.
"""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from nbgrader.api import Gradebook, MissingEntry

from hub_course import Class, kill_processes_of, needs_proxy
from driver import Person
from test_hub_term import as_user, work

A, B = "copies-a", "copies-b"
PEOPLE = {A: {"instructors": ["ca-prof"], "students": ["ca-stud"]},
          B: {"instructors": ["cb-prof"], "students": ["cb-stud"]}}
GRADERS = ["grader-" + A, "grader-" + B]


@pytest.fixture(scope="module")
def two_courses(needs_sandbox):
    needs_proxy()
    c = Class.on_a_fresh_copy("hub-courses-")
    base = c.base
    shutil.copytree(c.root, os.path.join(base, "course-b"), symlinks=True)
    c.roots = {A: os.path.join(base, "course"), B: os.path.join(base, "course-b")}
    courses_file = os.path.join(base, "courses.json")
    with open(courses_file, "w") as f:
        json.dump({"courses": [dict(id=A, root="course", **PEOPLE[A]),
                               dict(id=B, root="course-b", **PEOPLE[B])]}, f)
    hub = 'python -m autograder hub --dir "$HUB" --courses %s' % courses_file
    remove = [sys.executable, "-m", "autograder", "hub", "--dir", c.env["HUB"], "--courses", courses_file,
              "--remove-users"]
    c.course = lambda course: "python -m autograder --root %s --course %s " % (c.roots[course], course)
    try:
        subprocess.run(remove, cwd=c.root, env=c.env, capture_output=True)  # left by a crashed run
        c.said = c.start(hub + "\n")
        c.run(c.course(A) + "generate clone\n" + c.course(A) + "release clone\n")
        c.run(c.course(B) + "generate clone detach\n" + c.course(B) + "release clone detach\n")
        out = {"class": c, "people": {n: Person(c.url, n, p).login() for n, p in c.people.items()}}
        for student in ("ca-stud", "cb-stud"):
            out["people"][student].start_server()
        for student in ("ca-stud", "cb-stud"):
            out["people"][student].wait_ready()
        yield out
    finally:
        c.stop()
        kill_processes_of(list(c.people) + GRADERS)
        subprocess.run(remove, cwd=c.root, env=c.env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def handed_in(two_courses):
    """Each student fetches and hands in their own course's work; each course is collected and graded
    by its own commands."""
    c, people = two_courses["class"], two_courses["people"]
    out = dict(two_courses)
    for student, course, assignment in (("ca-stud", A, "clone"), ("cb-stud", B, "detach")):
        fetched = people[student].action("fetch", course, assignment)
        assert fetched["success"], fetched
        work(people[student], c.roots[course], assignment)
        submitted = people[student].action("submit", course, assignment)
        assert submitted["success"], submitted
    out["collected"] = {course: c.run(c.course(course) + "collect --exchange\n") for course in (A, B)}
    c.run(c.course(A) + "autograde clone\n")
    c.run(c.course(B) + "autograde detach\n")
    return out


def names_listed(person, course):
    listed = person.assignments(course)
    assert listed["success"], listed
    return {(a["course_id"], a["assignment_id"]) for a in listed["value"]}


def test_each_person_gets_a_login_line_and_each_course_its_formgrader(two_courses):
    c = two_courses["class"]
    assert set(c.people) == {"ca-prof", "ca-stud", "cb-prof", "cb-stud"}
    assert c.roles["ca-prof"] == c.roles["cb-prof"] == "instructor"
    assert "/services/formgrader-copies-a/" in c.said and "/services/formgrader-copies-b/" in c.said


def test_a_student_sees_only_their_own_courses_releases(two_courses):
    people = two_courses["people"]
    assert names_listed(people["ca-stud"], "") == {(A, "clone")}
    assert names_listed(people["ca-stud"], B) == set()
    assert names_listed(people["cb-stud"], "") == {(B, "clone"), (B, "detach")}
    assert names_listed(people["cb-stud"], A) == set()


def test_a_student_cannot_fetch_another_courses_assignment(two_courses):
    people = two_courses["people"]
    for student, other, assignment in (("ca-stud", B, "detach"), ("cb-stud", A, "clone")):
        listed = people[student].action("fetch", other, assignment)  # the list, as after any fetch
        assert listed["value"] == [], listed
        copied = people[student].server("GET", "/api/contents/" + assignment)
        assert copied.status_code == 404, "%s fetched %s of %s" % (student, assignment, other)


def test_the_other_courses_exchange_folder_is_closed_to_a_student_as_a_unix_user(two_courses):
    c = two_courses["class"]
    for student, other in (("ca-stud", B), ("cb-stud", A)):
        folder = os.path.join(c.exchange, other)
        for command in (["ls", folder], ["ls", os.path.join(folder, "outbound", "clone")],
                        ["touch", os.path.join(folder, "inbound", "%s+clone+2025-01-01 00:00:00.000000 UTC" % student)],
                        ["ls", os.path.join(folder, "feedback")]):
            done = as_user(student, *command)
            assert done.returncode != 0 and "Permission denied" in done.stderr, (student, command, done)
    own = as_user("ca-stud", "ls", os.path.join(c.exchange, A, "outbound"))
    assert own.returncode == 0 and "clone" in own.stdout, own  # the same check, passing for one's own course


def test_a_student_reaches_no_formgrader(two_courses):
    people = two_courses["people"]
    for student in ("ca-stud", "cb-stud"):
        for course in (A, B):
            refused = people[student].api("GET", "/services/formgrader-%s/formgrader" % course)
            assert refused.status_code == 403, (student, course, refused.status_code)


def test_an_instructor_reaches_only_their_courses_formgrader_and_gradebook(two_courses):
    c, people = two_courses["class"], two_courses["people"]
    for instructor, own, other in (("ca-prof", A, B), ("cb-prof", B, A)):
        page = people[instructor].api("GET", "/services/formgrader-%s/formgrader" % own)
        assert page.status_code == 200 and "Manage Assignments" in page.text, (instructor, page.status_code)
        refused = people[instructor].api("GET", "/services/formgrader-%s/formgrader" % other)
        assert refused.status_code == 403, (instructor, other, refused.status_code)
        api = people[instructor].api("GET", "/services/formgrader-%s/formgrader/api/assignments" % other)
        assert api.status_code in (403, 404) and "detach" not in api.text
        for secret in (os.path.join(c.roots[other], "autograder", "state", "gradebook.db"),
                       os.path.join(c.roots[other], "solutions", "clone", "clone.ipynb")):
            done = as_user(instructor, "cat", secret)
            assert done.returncode != 0 and "Permission denied" in done.stderr, (instructor, secret)


def test_a_course_collects_only_what_was_handed_in_to_it(handed_in):
    c = handed_in["class"]
    submitted = {course: sorted(os.listdir(os.path.join(c.roots[course], "autograder", "state", "submitted")))
                 for course in (A, B)}
    assert submitted == {A: ["ca-stud"], B: ["cb-stud"]}, handed_in["collected"]
    assert "cb-stud" not in handed_in["collected"][A] and "ca-stud" not in handed_in["collected"][B]


def test_each_course_grades_into_its_own_gradebook(handed_in):
    c = handed_in["class"]
    books = {course: "sqlite:///" + os.path.join(c.roots[course], "autograder", "state", "gradebook.db")
             for course in (A, B)}
    with Gradebook(books[A]) as gb:
        assert gb.find_submission("clone", "ca-stud").score == gb.find_submission("clone", "ca-stud").max_score
        with pytest.raises(MissingEntry):
            gb.find_student("cb-stud")
        assert [a.name for a in gb.assignments] == ["clone"]
    with Gradebook(books[B]) as gb:
        assert gb.find_submission("detach", "cb-stud").score == gb.find_submission("detach", "cb-stud").max_score
        with pytest.raises(MissingEntry):
            gb.find_student("ca-stud")


def test_each_formgrader_shows_its_own_courses_gradebook(handed_in):
    people = handed_in["people"]
    for prof, course, own, other in (("ca-prof", A, "ca-stud", "cb-stud"), ("cb-prof", B, "cb-stud", "ca-stud")):
        answer = people[prof].api("GET", "/services/formgrader-%s/formgrader/api/students" % course)
        assert answer.status_code == 200, (prof, answer.status_code)
        assert {s["id"] for s in answer.json()} == {own}, (course, answer.text[:500])


@pytest.mark.parametrize("courses, words", [
    ([{"id": "A b", "root": "one"}], "id 'A b'"),
    ([{"id": "x", "root": "one"}, {"id": "y", "root": "one"}], "another course's too"),
    ([{"id": "x", "root": "none"}], "has no solutions/"),
    ([{"id": "x", "root": "one", "students": ["ok", "not ok"]}], "students must be a list of Unix user names"),
    ([{"id": "x", "root": "one", "instructors": ["p"], "students": ["p"]}], "p both instructor and student"),
    ([{"id": "x", "root": "one"}, {"id": "y", "root": "two", "grader": "grader-x"}], "a grader account of its own"),
])
def test_a_courses_file_that_cannot_work_is_refused_with_the_reason(tmp_path, courses, words):
    from autograder.course import CourseError
    from autograder.hub.courses import read_courses

    for root in ("one", "two"):
        (tmp_path / root / "solutions").mkdir(parents=True)
    (tmp_path / "courses.json").write_text(json.dumps({"courses": courses}))
    with pytest.raises(CourseError, match=re.escape(words)):
        read_courses(str(tmp_path / "courses.json"))
    (tmp_path / "courses.json").write_text(json.dumps({"courses": [{"id": "x", "root": "one"},
                                                                   {"id": "y", "root": "two"}]}))
    assert [(c.id, c.grader, c.root) for c in read_courses(str(tmp_path / "courses.json"))] == [
        ("x", "grader-x", str(tmp_path / "one")), ("y", "grader-y", str(tmp_path / "two"))]

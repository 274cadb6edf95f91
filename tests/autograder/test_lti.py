"""A term taught from an LMS over LTI 1.3: the roster from its member list, the scores into its grade book.

The LMS is tests/autograder/lti_platform.py, a platform of the tests' own on
loopback. The course is the fixture assignment (5 points). Everything the
instructor does is the command line, as typed: ``lti-key`` (registered with
the platform), ``roster --lti``, ``collect``, ``autograde`` (real nbgrader,
sandboxed kernels), ``export --lti``, and again after a resubmission.
``autograde`` grades on the test session's warm grading cluster (``--scheduler``,
as on a farm): what is tested here is the way from the LMS and back, and the
command's own local cluster is started by the other command-line tests.
"""

import json
import os
import shutil

import jwt
import pytest

from lti_platform import INSTRUCTOR, LEARNER, Platform
from synthetic_course import FIXTURES, make_course, run_cli, student_notebook, write_submission

FULL = 5.0
CLONE_ONLY = "def make_copy(t):\n    return t.clone()"  # values right, history kept: 2 of 5 points


def member(user_id, given, family, roles, sourced=None, status="Active"):
    m = {"user_id": user_id, "given_name": given, "family_name": family, "name": given + " " + family,
         "email": given.lower() + "@example.org", "roles": roles, "status": status}
    if sourced:
        m["lis_person_sourcedid"] = sourced
    return m


MEMBERS = [
    member("u-turing", "Alan", "Turing", [INSTRUCTOR], "aturing"),
    member("u-ada", "Ada", "Lovelace", [LEARNER], "alovelace"),
    member("u-barbara", "Barbara", "Liskov", [LEARNER], "bliskov"),
    member("u-grace", "Grace", "Hopper", [LEARNER], "ghopper"),
    member("u-anon", "Anonymous", "Learner", [LEARNER]),                      # no institution id
    member("u-gone", "Dropped", "Out", [LEARNER], "dropped", status="Inactive"),
]


@pytest.fixture(scope="module")
def term(tmp_path_factory, needs_sandbox, grading_cluster):
    root = str(tmp_path_factory.mktemp("lti-course"))
    config = make_course(root, {"fixture": os.path.join(FIXTURES, "fixture")})
    with Platform(MEMBERS) as lms:
        state = os.path.join(root, "autograder", "state")
        os.makedirs(state, exist_ok=True)
        with open(os.path.join(state, "lti.json"), "w") as f:
            json.dump(lms.registration(), f)
        lms.register_tool(json.loads(run_cli(root, "lti-key").stdout))
        yield root, config, lms, grading_cluster


def hand_in(root, config, folder, answers, scheduler):
    """An inbox with one folder per student, each holding the fixture notebook with ``answers``."""
    inbox = os.path.join(root, folder)
    for student, replace in answers.items():
        nb = student_notebook(config, "fixture", solved="all" if replace is None else None,
                              replace=replace)
        write_submission(os.path.join(inbox, student), nb, "fixture.ipynb")
    run_cli(root, "collect", inbox, "--assignment", "fixture")
    run_cli(root, "autograde", "fixture", "--scheduler", scheduler, "--no-progress")


def grade_book(lms):
    """The platform's grade book for the fixture's line item: {LMS user id: score}."""
    item = [i for i in lms.line_items.values() if i["resourceId"] == "fixture"]
    assert len(item) == 1, lms.line_items
    return {user: g["score"] for (line, user), g in lms.grades.items() if line == item[0]["id"]}


def test_the_tool_key_is_private_and_its_public_half_verifies_its_tokens(term):
    root, _, lms, _ = term
    key_file = os.path.join(root, "autograder", "state", "lti_tool_key.pem")
    assert os.stat(key_file).st_mode & 0o777 == 0o600
    public = jwt.PyJWK(lms.tool_keys["keys"][0])
    assert public.key_type == "RSA" and "d" not in lms.tool_keys["keys"][0]


def test_a_whole_term_ends_with_the_right_scores_in_the_lms_grade_book_and_a_rerun_sends_nothing(term):
    root, config, lms, cluster = term
    roster = run_cli(root, "roster", "--lti").stdout
    assert "imported 3 learner(s)" in roster and "Anonymous Learner" in roster, roster
    with open(os.path.join(root, "autograder", "state", "roster.csv")) as f:
        ids = sorted(line.split(",")[0] for line in f.read().splitlines()[1:])
    assert ids == ["alovelace", "bliskov", "ghopper"]  # not the instructor, the inactive one or the anonymous

    hand_in(root, config, "inbox-1", {"alovelace": None, "bliskov": {"make_copy": CLONE_ONLY}}, cluster)
    sent = run_cli(root, "export", "--lti").stdout
    assert "sent 2 score(s)" in sent and "made line items for: fixture" in sent, sent
    assert grade_book(lms) == {"u-ada": FULL, "u-barbara": 2.0}
    assert all(score["gradingProgress"] == "FullyGraded" and score["scoreMaximum"] == FULL
               and score["submission"]["submittedAt"] for _, score in lms.posted)

    again = run_cli(root, "export", "--lti").stdout
    assert "sent 0 score(s)" in again and "2 already there" in again, again
    assert len(lms.posted) == 2 and len(lms.created) == 1

    # The record of what was sent is lost (another machine): the LMS's own results are read first.
    os.remove(os.path.join(root, "autograder", "state", "lti_sent.json"))
    run_cli(root, "export", "--lti")
    assert len(lms.posted) == 2 and len(lms.created) == 1

    # Barbara hands in again and is graded again: only her new score is sent.
    shutil.rmtree(os.path.join(root, "inbox-1"))
    hand_in(root, config, "inbox-2", {"bliskov": None}, cluster)
    third = run_cli(root, "export", "--lti").stdout
    assert "sent 1 score(s)" in third, third
    assert grade_book(lms) == {"u-ada": FULL, "u-barbara": FULL}
    assert [score["userId"] for _, score in lms.posted] == ["u-ada", "u-barbara", "u-barbara"]


def test_export_without_a_registration_names_the_file_to_write(tmp_path):
    root = str(tmp_path)  # a course folder with nothing in it yet: the registration is read first
    done = run_cli(root, "export", "--lti", check_status=False)
    assert done.returncode == 2 and "lti.json" in done.stderr, done.stderr


def test_a_token_refused_by_the_lms_is_an_error_naming_the_call(tmp_path):
    root = str(tmp_path)
    with Platform(MEMBERS) as lms:
        os.makedirs(os.path.join(root, "autograder", "state"), exist_ok=True)
        with open(os.path.join(root, "autograder", "state", "lti.json"), "w") as f:
            json.dump(lms.registration(), f)
        lms.register_tool({"keys": []})  # the tool was never registered: its key is unknown
        done = run_cli(root, "roster", "--lti", check_status=False)
    assert done.returncode == 2 and "HTTP 401" in done.stderr and "/token" in done.stderr, done.stderr

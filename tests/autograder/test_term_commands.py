"""The instructor's commands one by one, where the whole term (test_term.py) does not look:
plain-text help, the late-penalty rule, generate keeping an edited exercise, the roster's
unknown and missing students, a course-state folder elsewhere."""

import os
import re

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.cli import build_parser
from autograder.term.collect import collect
from autograder.course import course_config, release_notebook, state_dir, submitted_dir
from autograder.term.generate import generate
from autograder.term.late import DAY, LatePenalty
from autograder.term.roster import import_roster
from synthetic_course import FIXTURES, make_course, student_notebook


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("commands"))
    return make_course(root, {"fixture": os.path.join(FIXTURES, "fixture")})


def test_help_is_plain_text():
    parser = build_parser()
    texts = [parser.format_help()] + [p.format_help() for p in
                                      parser._subparsers._group_actions[0].choices.values()]
    for text in texts:
        assert not re.search(r"``|:func:|:class:|\*\*", text), text


@pytest.mark.parametrize("seconds_late, penalty", [
    (-3 * DAY, 0.0), (0, 0.0), (1, 1.0), (DAY, 1.0), (DAY + 1, 2.0), (30 * 3600, 2.0), (20 * DAY, 10.0)])
def test_the_late_penalty_is_ten_percent_per_started_day(seconds_late, penalty):
    assert LatePenalty(percent_per_day=10).late_submission_penalty("s", 10.0, seconds_late) == penalty


def test_generate_keeps_an_edited_exercise_unless_forced(course, capsys):
    target = release_notebook(course, "fixture")
    with open(target, "rb") as f:
        generated = f.read()
    with open(target, "ab") as f:
        f.write(b"\n")  # a learner's save
    assert generate(course, ["fixture"]) == {"fixture": False}
    assert "exercises/fixture/fixture.ipynb differs from what generate last wrote" in capsys.readouterr().out
    with open(target, "rb") as f:
        assert f.read() == generated + b"\n"
    assert generate(course, ["fixture"], force=True) == {"fixture": True}
    with open(target, "rb") as f:
        assert f.read() == generated
    assert generate(course, ["fixture"]) == {"fixture": True}  # what it wrote: replaced freely


def test_the_roster_maps_names_and_reports_unknown_and_missing_students(course, tmp_path):
    roster = tmp_path / "class.csv"
    roster.write_text("id,first_name,last_name,email\nalovelace,Ada,Lovelace,ada@example.org\n"
                      "dknuth,Donald,Knuth,don@example.org\n", encoding="utf-8")
    assert import_roster(course, str(roster)) == 2
    with Gradebook(course.CourseDirectory.db_url, course.CourseDirectory.course_id) as gb:
        assert gb.find_student("alovelace").email == "ada@example.org"
    inbox = tmp_path / "inbox"
    for entry in ("Ada Lovelace", "Eve Unknown"):
        os.makedirs(inbox / entry)
        nbformat.write(student_notebook(course, "fixture", solved="all"), str(inbox / entry / "fixture.ipynb"))
    report = collect(course, str(inbox))
    assert [(s, a) for s, a, _ in report.collected] == [("alovelace", "fixture")]
    assert report.rejected == [("Eve Unknown", "not on the roster")]
    assert report.missing == {"fixture": ["dknuth"]}
    assert "missing fixture: dknuth (on the roster, no submission)" in report.lines()
    assert os.path.isdir(submitted_dir(course, "alovelace", "fixture"))


def test_a_state_folder_elsewhere_holds_everything(tmp_path):
    root, state = tmp_path / "course", tmp_path / "private" / "state"
    config = course_config(str(root), str(state))
    assert state_dir(config) == str(state)
    assert config.CourseDirectory.db_url == "sqlite:///" + str(state / "gradebook.db")
    assert submitted_dir(config, "a", "b") == str(state / "submitted" / "a" / "b")
    inside = course_config(str(root))
    assert state_dir(inside) == str(root / "autograder" / "state")
    assert inside.CourseDirectory.submitted_directory == os.path.join("autograder", "state", "submitted")


def test_collect_from_the_exchange_names_a_hub_user_who_is_not_on_the_roster(course, tmp_path):
    import pwd

    from autograder.hub.exchange import collect_exchange

    roster = tmp_path / "class.csv"
    roster.write_text("id,first_name,last_name,email\nalovelace,Ada,Lovelace,ada@example.org\n", encoding="utf-8")
    import_roster(course, str(roster))
    me = "nobody"  # the hub user who handed in is the folder's owner (never root: collect reads as them)
    folder = tmp_path / "exchange" / course.CourseDirectory.course_id / "inbound" / (
        "%s+fixture+2026-03-01 10:00:00.000000 UTC+abc" % me)
    os.makedirs(folder)
    nbformat.write(student_notebook(course, "fixture", solved="all"), str(folder / "fixture.ipynb"))
    owner = pwd.getpwnam(me)
    for path in (folder, folder / "fixture.ipynb"):
        os.chown(path, owner.pw_uid, owner.pw_gid)
    report = collect_exchange(course, str(tmp_path / "exchange"), ["fixture"])
    assert report.collected == []
    assert [entry for entry, _ in report.rejected] == [me]
    assert ("skipped %s: %s handed in fixture on the hub but is not on the roster, so it was not collected"
            % (me, me)) in "\n".join(report.lines())
    assert os.path.isdir(folder), "the submission stays in the exchange, for a collect after the import"

"""Cheats graded as a class is graded: each one scores 0 on the tests it tried to fake.

One run of the real grader (``autograder.grade.autograde_all``: real nbgrader, the
course's configuration, warm forked kernels in their bubblewrap sandboxes, two
workers, a real gradebook) grades an honest student and every cheat of
``hostile_cheats.py`` on the ``clone`` assignment. ``clone`` is judged
(``autograder.judge``): the cheats' routes into the kernel lead nowhere, so each
cheat scores 0 on every test of its lazy ``my_clone`` (it returns the source)
that its entry names, keeps its points elsewhere, and the judge never fails; the
honest student keeps full marks; the feedback shows no hidden test; the
self-check scores each cheat as the grader did. (The rules these cheats broke
under the allowlist are not what stops them any more: ``test_judge_attacks``
attacks the judged design by category.)
"""

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))

from graded_bank import make_course, outcome, student_notebook, submit  # noqa: E402
from hostile_cheats import ALL, CHEATS, MY_CLONE, SOLUTION  # noqa: E402

from autograder.grade import autograde_all  # noqa: E402


@pytest.fixture(scope="module")
def graded(tmp_path_factory, needs_sandbox, grading_cluster):
    config = make_course(tmp_path_factory.mktemp("cheats"), ["clone"])
    submit(config, "honest", "clone", student_notebook(config, "clone"))
    for cheat in CHEATS:
        submit(config, cheat.name, "clone", student_notebook(config, "clone", {SOLUTION: cheat.code}))
    runs = autograde_all(config, ["clone"], {"clone": ["honest"] + [c.name for c in CHEATS]}, workers=2,
                         warm=True, progress=False, scheduler=grading_cluster)
    assert not runs["clone"].failed, runs["clone"].failed
    return config


def test_the_suite_covers_every_route_of_the_issue_and_three_more():
    assert len(CHEATS) >= 12 + 3
    assert len({c.name for c in CHEATS}) == len(CHEATS)


def test_the_honest_student_keeps_full_marks(graded):
    results, messages = outcome(graded, "honest", "clone")
    assert set(results) == set(ALL)
    assert all(score == points for score, points, _ in results.values()), results
    assert messages == []


def faked(cheat):
    """The tests the cheat tried to fake that call its lazy my_clone (clone-layout calls only the
    strides functions, which every cheat leaves honest)."""
    return set(cheat.fails) & set(MY_CLONE)


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda c: c.name)
def test_each_cheat_scores_0_on_what_it_faked(graded, cheat):
    results, _ = outcome(graded, cheat.name, "clone")
    assert faked(cheat), cheat.name
    problems = []
    for test, (score, points, errors) in results.items():
        if "GraderError" in errors or "could not be judged" in errors:
            problems.append(f"{test}: the judge failed:\n{errors}")
        if test in faked(cheat):
            if score != 0:
                problems.append(f"{test} scored {score}/{points}: '{cheat.route}' got through")
        elif score != points:
            problems.append(f"{test} lost points the cheat did not touch ({score}/{points}):\n{errors}")
    assert not problems, "\n".join(problems)


def test_the_feedback_shows_no_hidden_test(graded):
    from autograder.term.feedback import generate_feedback

    assert generate_feedback(graded, ["clone"]) == {"clone": True}
    root = Path(graded.CourseDirectory.root) / "autograder" / "state" / "feedback"
    pages = list(root.glob("*/clone/clone.html"))
    assert len(pages) == len(CHEATS) + 1
    for page in pages:
        assert 'battery="drawn"' not in page.read_text() and "battery=&quot;drawn&quot;" not in page.read_text()


def test_the_kernel_folder_is_empty_and_says_nothing_of_who_runs_it(tmp_path):
    from autograder.kernels.kernel_folder import empty_kernel_folder

    folder = empty_kernel_folder("clone")
    try:
        assert os.listdir(folder) == [] and os.path.basename(folder) == "clone"
        assert "student" not in folder and "autograded" not in folder and "submitted" not in folder
    finally:
        os.rmdir(folder)
        os.rmdir(os.path.dirname(folder))


def test_messages_json_is_valid(graded):
    root = Path(graded.CourseDirectory.root) / "autograder" / "state" / "autograded"
    for path in root.glob("*/clone/messages.json"):
        assert isinstance(json.loads(path.read_text()), list), path


@pytest.mark.parametrize("name", ["magic-first-line", "getattribute", "setattr-through-alias"])
def test_the_self_check_gives_the_same_zeros(graded, name, tmp_path):
    """Three cheats the allowlist used to refuse in three ways: the learner's self-check, which
    judges as the grader does, scores each test as the grader did."""
    import nbformat

    from autograder.learner.learner_check import check

    cheat = next(c for c in CHEATS if c.name == name)
    path = tmp_path / "clone.ipynb"
    nbformat.write(student_notebook(graded, "clone", {SOLUTION: cheat.code}), str(path))
    release = Path(graded.CourseDirectory.root) / "exercises" / "clone" / "clone.ipynb"
    result = check(str(path), release=str(release))
    graded_scores, _ = outcome(graded, name, "clone")
    assert {t.grade_id for t in result.tests} == set(ALL)
    for test in result.tests:
        assert test.points == graded_scores[test.grade_id][0], (test, result.format())

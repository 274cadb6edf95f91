"""Every entry of the bank gets the grade it deserves, from the real judge, in every grading path.

The bank is one class graded once (``conftest.graded_class``: the course's
nbgrader_config.py, static rules, variants, the judge, warm sandboxed kernels) for its cheats, its stubs
and a sample of its honest and wrong answers (``graded_bank.SANDBOXED``); every honest and wrong
answer is judged once more without nbgrader and sandbox (``conftest.bank_in_process``), and the
sample must get the same grade, error for error, both ways. A wrong
answer, a cheat or a stub must score 0 on exactly the test cells its entry
names, each showing the expected tag or rule, and keep full
points everywhere else; an honest answer must keep full marks. The cheats are
graded a second time by plain ``nbgrader autograde`` run from autograder/, and
must score the same there. What ``messages.json`` says about the scores is
checked against the gradebook.
"""

import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from exercise_mutants import ALL_TESTS, BANK
from graded_bank import IN_PROCESS, SANDBOXED, SELECTED, outcome, plain_nbgrader, reference_student
from graded_bank import in_sandbox_only, sandbox_sample, selected_assignments
from nbgrader_course import ASSIGNMENTS

CHEATS = [e for e in SELECTED if e.kind == "cheat"]
SAMPLE = [e for e in SANDBOXED if not in_sandbox_only(e)]

BLIND_SPOTS = {"device", ".grad", "version counters", "the destination after a refused op",
               "attribute identity", "deepcopy's memo", "float64 models", "parameter memory"}


def _verdict(entry, results):
    """The problems with one graded entry (empty when it got exactly what it deserves)."""
    problems = []
    unknown = set(entry.fails) - set(results)
    if unknown:
        problems.append(f"the bank names test cells that do not exist: {sorted(unknown)}")
    for test, (score, points, errors) in results.items():
        if test in entry.fails:
            if score != 0:
                problems.append(f"{test} scored {score}/{points}: it let '{entry.about}' through")
            elif entry.fails[test] not in errors:
                problems.append(f"{test} scored 0 without naming {entry.fails[test]!r}:\n{errors}")
        elif score != points:
            problems.append(f"{test} lost points it should keep ({score}/{points}):\n{errors}")
    return problems


def test_the_bank_is_big_enough():
    kinds = Counter((e.assignment, e.kind) for e in BANK)
    for assignment in ASSIGNMENTS:
        assert kinds[assignment, "wrong"] >= 15, f"{assignment}: only {kinds[assignment, 'wrong']} wrong answers"
        assert kinds[assignment, "honest"] >= 3, f"{assignment}: only {kinds[assignment, 'honest']} honest answers"
        assert kinds[assignment, "stub"] == 1
    assert sum(1 for e in BANK if e.kind == "cheat") >= 8
    assert len({e.name for e in BANK}) == len(BANK)
    assert BLIND_SPOTS <= {e.blind_spot for e in BANK}, BLIND_SPOTS - {e.blind_spot for e in BANK}
    for entry in BANK:
        assert entry.kind in ("wrong", "cheat", "honest", "stub")
        assert bool(entry.fails) == (entry.kind != "honest"), entry.name


def test_the_bank_holds_every_cheat_issue_13_names():
    """Issue 13's cheats are all still there. Every assignment is judged, so they reach nothing and
    score 0 on the wrong answer they hide (test_judge_attacks), or on calls-the-op when they call
    the op; a cheat that patched a module or replaced a check now fails on what its code does
    (restore/wrong-values, copy_/raises), since neither torch nor the checks are in the kernel."""
    cheats = " | ".join(f"{e.about} -> {' '.join(e.fails.values())}" for e in BANK if e.kind == "cheat")
    for needle in ("returns self.clone()", "torch.Tensor.clone (inherited", "torch.Tensor.new_tensor (inherited",
                   "torch.Tensor.data (inherited", "a Tensor subclass whose methods lie", "built at run time",
                   "through an alias", "the tampering check replaced", "rules/calls-the-op", "restore/wrong-values",
                   "reftorch's own __deepcopy__ called", "copy_/raises", "clone/not-a-tensor", "clone/raises"):
        assert needle in cheats, needle


def test_the_sandbox_sample_holds_every_assignment_every_tag_family_and_every_cheat():
    """The sample graded in the sandbox as well as in process is chosen, not drawn: each
    assignment's first honest answer, and for each family of expected tags of an assignment
    (``clone/...``, ``copy_/...``) a wrong answer expecting it; cheats and stubs only ever go
    through the sandbox."""
    sample = sandbox_sample(BANK)
    for assignment in ASSIGNMENTS:
        honest = [e for e in sample if e.assignment == assignment and e.kind == "honest"]
        assert honest, f"{assignment}: no honest answer graded in the sandbox"
        expected = {t.split("/")[0] for e in BANK if e.assignment == assignment and e.kind == "wrong"
                    for t in e.fails.values()}
        sampled = {t.split("/")[0] for e in sample if e.assignment == assignment and e.kind == "wrong"
                   for t in e.fails.values()}
        assert expected == sampled, f"{assignment}: no wrong answer of {sorted(expected - sampled)} in the sandbox"
    if selected_assignments() == ASSIGNMENTS:
        assert {e.name for e in SANDBOXED} >= {e.name for e in BANK if e.kind in ("cheat", "stub")}
        assert {e.name for e in SANDBOXED} | {e.name for e in IN_PROCESS} == {e.name for e in BANK}
        assert not {e.name for e in IN_PROCESS if e.kind in ("cheat", "stub")}


def _graded(graded_class, bank_in_process, entry):
    """What ``entry`` was graded: by the sandboxed class when it is there, else by the judge in process."""
    if entry in SANDBOXED:
        return outcome(graded_class, entry.name, entry.assignment)[0]
    return bank_in_process[entry.name]


@pytest.mark.parametrize("entry", SAMPLE, ids=[e.name for e in SAMPLE])
def test_the_sandbox_and_the_judge_in_process_grade_the_sample_alike(graded_class, bank_in_process, entry):
    """What the in-process grading leaves out (nbgrader, the kernel, the sandbox, the transport)
    changes no grade and no error text of an honest or wrong answer."""
    sandboxed, _ = outcome(graded_class, entry.name, entry.assignment)
    assert bank_in_process[entry.name] == sandboxed


@pytest.mark.parametrize("assignment", selected_assignments())
def test_the_reference_solution_scores_full_marks_with_every_safety_measure_on(graded_class, assignment):
    results, messages = outcome(graded_class, reference_student(assignment), assignment)
    assert set(results) == set(ALL_TESTS[assignment])
    lost = {test: r for test, r in results.items() if r[0] != r[1]}
    assert not lost and not messages, (lost, messages)


@pytest.mark.parametrize("entry", SELECTED, ids=[e.name for e in SELECTED])
def test_each_entry_gets_exactly_the_grade_it_deserves(graded_class, bank_in_process, entry):
    results = _graded(graded_class, bank_in_process, entry)
    problems = _verdict(entry, results)
    assert not problems, "\n".join(problems)


def test_no_message_contradicts_its_own_data(graded_class, bank_in_process):
    """A message that names torch's node shows that node in its evidence; "not written yet" is
    said only of code that still raises NotImplementedError."""
    for entry in SELECTED:
        results = _graded(graded_class, bank_in_process, entry)
        for test, (_, _, errors) in results.items():
            claimed = {"None" if node == "none" else node
                       for node in re.findall(r"torch records (?:an? )?([A-Z]\w+|none)", errors)}
            shown = set(re.findall(r"grad_fn: torch's .*? gives '?(\w+)'?,", errors))
            assert not (claimed and shown) or claimed <= shown, (entry.name, test, errors)
            if "not written yet" in errors:
                assert entry.kind == "stub" or "NotImplementedError" in str(entry.cells), (entry.name, test)


def _listed(message):
    found = re.search(r"score 0: ([\w\-, ]+)$", message)
    return found.group(1).split(", ") if found else []


@pytest.mark.parametrize("entry", CHEATS, ids=lambda e: e.name)
def test_messages_json_tells_the_truth(graded_class, entry):
    """Every test messages.json says scores 0 does, and every test zeroed by a rule is listed there."""
    results, messages = outcome(graded_class, entry.name, entry.assignment)
    listed = {test for message in messages for test in _listed(message)}
    zeroed_by_the_grader = {test for test, (_, _, errors) in results.items()
                            if errors.startswith("RuleBroken")}
    assert listed or not zeroed_by_the_grader, messages
    assert listed == zeroed_by_the_grader, (listed, zeroed_by_the_grader)
    for test in listed:
        assert results[test][0] == 0, f"messages.json says {test} scores 0, the gradebook says {results[test][0]}"


@pytest.fixture(scope="module")
def plain_path(graded_class, tmp_path_factory):
    """{assignment: root of the copy that graded its cheats}: the cheats graded again by plain
    ``nbgrader autograde``, in two copies of the course (two processes at once), each
    grading its half of the assignments in one run."""
    cheats = {}
    for entry in CHEATS:
        cheats.setdefault(entry.assignment, []).append(entry.name)
    halves = [half for half in (dict(list(sorted(cheats.items()))[i::2]) for i in (0, 1)) if half]

    def grade(half):
        return half, plain_nbgrader(graded_class, half, tmp_path_factory.mktemp("plain"))
    with ThreadPoolExecutor(max_workers=2) as pool:
        return {assignment: root for half, root in pool.map(grade, halves) for assignment in half}


@pytest.mark.parametrize("entry", CHEATS, ids=lambda e: e.name)
def test_cheats_score_the_same_under_plain_nbgrader(graded_class, plain_path, entry):
    plain, _ = outcome(graded_class, entry.name, entry.assignment, root=plain_path[entry.assignment])
    problems = _verdict(entry, plain)
    assert not problems, "\n".join(problems)
    ours, _ = outcome(graded_class, entry.name, entry.assignment)
    assert {t: r[:2] for t, r in plain.items()} == {t: r[:2] for t, r in ours.items()}

"""A story judged through the witness's socket, in this process: the protocol, not the sandbox.

The checks of save_and_load, numpy_bridge, model_snapshot and target_network
play stories (``autograder/checks/_facts.py``). Judged, the learner's side is
asked of the witness (``{"story": ...}``) and its facts come back as plain
data. Here the witness's loop (``autograder.witness.serve.serve``) runs in a
thread on a bank entry's notebook namespace, and the check runs with the
learner's functions as names (``LearnerFunction``), exactly as the judge runs a
test cell: the verdict must be the one the in-process run gives, and a witness
that answers facts of the wrong shape ends the test (``WitnessFailed``), never
with another exception. The sandbox and the grading run are tested in
``test_mutants`` and ``test_judge_attacks``.
"""

import json
import socket
import struct
import threading

import pytest

from exercise_mutants import BANK
from inprocess import notebook_cells

from autograder.judge.connection import Witness
from autograder.judge.learner import LearnerFunction, WitnessFailed
from autograder.witness.serve import serve

ENTRIES = {e.name: e for e in BANK}


def namespace_of(entry_name):
    """The notebook's namespace after its setup and solution cells (no test cell runs)."""
    namespace = {"__name__": "__main__"}
    for grade_id, code, is_test in notebook_cells(ENTRIES[entry_name]):
        if not is_test and "self_check" not in code and "autograder" not in code:
            try:
                exec(compile(code, f"<cell {grade_id}>", "exec"), namespace)
            except Exception:  # a "try it" cell of a wrong answer may raise: the learner's business
                pass
    return namespace


def judged(tmp_path, answer, check, names, **kwargs):
    """``check(*learner functions, **kwargs)`` with a witness answering from ``answer(path)``
    in a thread; the AssertionError's text, or None when the check passes."""
    with Witness(str(tmp_path), 120) as witness:
        thread = threading.Thread(target=answer, args=(witness.path,), daemon=True)
        thread.start()
        try:
            check(*[LearnerFunction(name, witness) for name in names], **kwargs)
        except AssertionError as failure:
            return str(failure)
        finally:
            witness.close()
            thread.join(10)
    return None


def witness_of(entry_name):
    namespace = namespace_of(entry_name)
    return lambda path: serve(path, namespace)


def _check(name):
    module, function = name.rsplit(".", 1)
    return getattr(__import__(f"autograder.checks.{module}", fromlist=[function]), function)


# (check, learner functions, entry, the tag it must fail with: None = it passes)
CASES = [
    ("save_and_load.check_saved_bytes", ["my_saved_bytes"], "reference", None),
    ("save_and_load.check_save_compact", ["my_save_compact"], "reference", None),
    ("save_and_load.check_rebuild", ["my_rebuild"], "reference", None),
    ("save_and_load.check_rebuild", ["my_rebuild"], "blind-sl-rebuild-by-bytes", "save_and_load/merges-equal-records"),
    # issue 34, item 7: storages named by their bytes and kept from one load to the next
    ("save_and_load.check_rebuild", ["my_rebuild"], "blind-sl-rebuild-by-bytes-kept",
     "save_and_load/keeps-storages-between-loads"),
    ("save_and_load.check_saved_bytes", ["my_saved_bytes"], "blind-sl-counts-grad", "save_and_load/counts-grad"),
    ("save_and_load.check_rebuild", ["my_rebuild"], "sl-stub", "save_and_load/not-written"),
]


def _entry(name, assignment):
    if name == "reference":
        return next(e.name for e in BANK if e.assignment == assignment and e.kind == "honest")
    return name


@pytest.mark.parametrize("check, functions, entry, tag", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_a_judged_story_gives_the_verdict_of_the_story_played_here(tmp_path, check, functions, entry, tag):
    assignment = check.split(".")[0]
    name = _entry(entry, assignment)
    message = judged(tmp_path, witness_of(name), _check(check), functions, battery="full")
    if tag is None:
        assert message is None, message
    else:
        assert message is not None and f"misconception: {tag}" in message, message
    # the same check, the learner's functions called here: the same verdict
    namespace = namespace_of(name)
    try:
        _check(check)(*[namespace[f] for f in functions], battery="full")
        here = None
    except AssertionError as failure:
        here = str(failure)
    assert (message is None) == (here is None) and (tag is None or f"misconception: {tag}" in here), (message, here)


def _liar(told):
    """A witness that answers every request with ``{"told": told}``."""
    def answer(path):
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(path)
        try:
            while True:
                header = sock.recv(4)
                if len(header) < 4:
                    return
                (length,) = struct.unpack(">I", header)
                request = b""
                while len(request) < length:
                    request += sock.recv(length - len(request))
                if "done" in json.loads(request):
                    return
                body = json.dumps({"told": told}).encode()
                sock.sendall(struct.pack(">I", len(body)) + body)
        finally:
            sock.close()
    return answer


LIES = {
    "a dict of facts": {"d": [["facts", {"d": [["bytes of numbers in the file", 48]]}]]},
    "a fact told twice": {"d": [["facts", [["bytes of numbers in the file", 1], ["bytes of numbers in the file", 48]]]]},
    "an opaque fact": {"d": [["facts", [["bytes of numbers in the file", {"o": "an Always"}]]]]},
    "a fact that is no name": {"d": [["facts", [[7, 48]]]]},
    "a raise without its step": {"d": [["raised", {"d": [["type", "KeyError"]]}]]},
    "not a dict": [1, 2, 3],
}


@pytest.mark.parametrize("lie", sorted(LIES))
def test_facts_of_the_wrong_shape_end_the_test_as_not_run(tmp_path, lie):
    with pytest.raises(WitnessFailed):
        judged(tmp_path, _liar(LIES[lie]), _check("save_and_load.check_saved_bytes"), ["my_saved_bytes"])


def test_facts_a_message_cannot_read_end_the_test_as_not_run(tmp_path):
    """Well-formed plain data that is no fact the witness's story could give (the beliefs' numbers
    as a list): the message that reads it does not raise in the judge."""
    told = {"d": [["facts", [["bytes of numbers in the file", 1], ["_candidates", [1, 2]]]]]}
    with pytest.raises(WitnessFailed):
        judged(tmp_path, _liar(told), _check("save_and_load.check_saved_bytes"), ["my_saved_bytes"])

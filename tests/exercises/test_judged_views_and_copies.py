"""strides_and_views and python_copy, judged: each kind of request they add crosses the real wire.

The judge's side (``judge.test_cell.run_test_cell``, with the checks and torch) and the
witness's (``witness.serve.serve``, in a thread of this process, on the notebook's own cells run
here with reftorch) talk over a real Unix socket, as a graded notebook does, without a kernel:
a view's arguments (``witness.views``), a call on a fresh input, a drawn input with a gradient
and attributes (``witness.copies.Annotated``), ``copy.deepcopy`` through the learner's
``__deepcopy__`` and the memo story. Each reference test passes, a wrong answer fails with the
misconception it embodies, and a witness that answers with data of the wrong shape ends the
test as TestNotRun with a reason, never as an error of the judge.
"""

import contextlib
import io
import json
import socket
import struct
import threading
import warnings

import pytest

from autograder.judge.connection import Witness
from autograder.judge import test_cell
from autograder.witness.serve import serve
from exercise_mutants import BANK
from inprocess import test_code as graded_code  # (a test_ name pytest would collect)
from nbgrader_course import SOLUTIONS, read_notebook


def _cells(assignment):
    """(grade_id, source, is_test, imports_the_checks) of every code cell of the reference."""
    nb = read_notebook(SOLUTIONS / assignment / f"{assignment}.ipynb")
    for cell in nb.cells:
        if cell.cell_type == "code":
            meta = cell.metadata.get("nbgrader", {})
            yield (meta.get("grade_id"), cell.source, bool(meta.get("grade") and not meta.get("solution")),
                   "autograder.checks" in cell.source)


def judged(assignment, tmp_path, replaced=None, server=serve, seed="alice", lang="en"):
    """``{test grade_id: outputs}`` of the reference (``replaced``: {grade_id: code} swapped in),
    each test cell judged here, in the language ``lang``, against a witness served by ``server``
    in a thread."""
    namespace, names, results = {"__name__": "__main__"}, test_cell.TestNames(), {}
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        for grade_id, source, is_test, imports_checks in _cells(assignment):
            source = (replaced or {}).get(grade_id, source)
            if imports_checks:
                assert test_cell.run_instructor_cell(source, names) == []
            elif is_test:
                with Witness(str(tmp_path), 60) as witness:
                    thread = threading.Thread(target=server, args=(witness.path, namespace), daemon=True)
                    thread.start()
                    results[grade_id] = test_cell.run_test_cell(graded_code(source, "full"), witness,
                                                                seed=f"{seed}/{assignment}", names=names,
                                                                lang=lang)
                thread.join(10)
            else:
                exec(compile(source, f"<{grade_id}>", "exec"), namespace)
    return results


def _text(outputs):
    return " ".join(f"{o.ename}: {o.evalue}" for o in outputs)


@pytest.mark.parametrize("assignment", ["strides_and_views", "python_copy"])
def test_the_reference_passes_every_judged_test(assignment, tmp_path):
    results = judged(assignment, tmp_path)
    assert results and all(outputs == [] for outputs in results.values()), \
        {test: _text(outputs) for test, outputs in results.items() if outputs}


WRONG = {
    "strides_and_views": ({"sv-positions-solution": "def my_storage_positions(t):\n"
                                                    "    return list(range(t.numel()))\n",
                           "sv-views-solution": "def my_slice(t, dim, start, stop, step):\n    return t\n\n\n"
                                                "def my_transpose(t, dim0, dim1):\n    return t\n\n\n"
                                                "def my_expand(t, *sizes):\n    return t\n"},
                          {"sv-positions": "strides_and_views/assumes-contiguous",
                           "sv-slice": "strides_and_views/returns-source",
                           "sv-transpose": "strides_and_views/returns-source",
                           "sv-expand": "strides_and_views/returns-source"}),
    "python_copy": ({"copy-solution": "def my_copy(self):\n    return self.detach()\n",
                     "deepcopy-solution": "def my_deepcopy(self, memo):\n    return self\n"},
                    {"copy-alias": "copy/loses-attributes", "copy-autograd": "copy/drops-requires-grad",
                     "deepcopy-copy": "copy/returns-source", "deepcopy-memo": "deepcopy/ignores-memo",
                     "deepcopy-non-leaf": "deepcopy/copies-history"}),
}


@pytest.mark.parametrize("assignment", sorted(WRONG))
def test_a_wrong_answer_fails_with_its_misconception(assignment, tmp_path):
    replaced, tags = WRONG[assignment]
    results = judged(assignment, tmp_path, replaced)
    for test, outputs in results.items():
        if test in tags:
            assert [o.ename for o in outputs] == ["AssertionError"], (test, _text(outputs))
            assert "misconception: " + tags[test] in outputs[0].evalue, (test, _text(outputs))
        else:
            assert outputs == [], (test, _text(outputs))


@pytest.mark.parametrize("assignment", sorted(WRONG))
def test_a_wrong_answer_fails_in_chinese_with_the_same_misconception_tag(assignment, tmp_path):
    from autograder.judge.language import misconception

    replaced, tags = WRONG[assignment]
    results = judged(assignment, tmp_path, replaced, lang="zh")
    for test, outputs in results.items():
        if test in tags:
            assert [o.ename for o in outputs] == ["AssertionError"], (test, _text(outputs))
            lines = outputs[0].evalue.splitlines()
            assert lines[0].startswith("误解「%s」" % misconception(tags[test], "zh")[0]), (test, lines[0])
            assert lines[-1] == "    误解标签：" + tags[test], (test, _text(outputs))
        else:
            assert outputs == [], (test, _text(outputs))


TWIN_READERS = ["blind-clone-packs-row-major", "sv-expand-keeps-stride", "blind-sv-expand-size-one-keeps-stride",
                "blind-sv-expand-zeroes-size-one"]


@pytest.mark.parametrize("name", TWIN_READERS)
def test_a_message_that_reads_the_input_names_its_misconception(name, tmp_path):
    # the witness sends no input: these messages tell beliefs apart on the judge's own twin of it
    entry = next(e for e in BANK if e.name == name)
    results = judged(entry.assignment, tmp_path, entry.cells)
    for test, outputs in results.items():
        if test in entry.fails:
            assert "misconception: " + entry.fails[test] in _text(outputs), (test, _text(outputs))
        else:
            assert outputs == [], (test, _text(outputs))


def lying_server(path, namespace):
    """A witness whose every answer has the wrong shape for the question."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        while True:
            head = sock.recv(4, socket.MSG_WAITALL)
            if len(head) < 4:
                return
            request = json.loads(sock.recv(struct.unpack(">I", head)[0], socket.MSG_WAITALL))
            if "done" in request:
                return
            reply = ({"seen": {"d": [["raised", None], ["size", "all of them"]]}} if "observe" in request
                     else {"value": {"d": [["a list holding x", 7]]}})
            body = json.dumps(reply).encode()
            sock.sendall(struct.pack(">I", len(body)) + body)


@pytest.mark.parametrize("assignment", ["strides_and_views", "python_copy"])
def test_answers_of_the_wrong_shape_end_each_test_with_a_reason(assignment, tmp_path):
    results = judged(assignment, tmp_path, server=lying_server)
    for test, outputs in results.items():
        assert outputs and outputs[0].ename in ("TestNotRun", "AssertionError"), (test, _text(outputs))
        assert "GraderError" not in _text(outputs)
    not_run = {test for test, outputs in results.items() if outputs[0].ename == "TestNotRun"}
    # the observed views and copies and the memo story cannot be read; returned values fail as values
    expected = ({"sv-slice", "sv-transpose", "sv-expand"} if assignment == "strides_and_views"
                else {"copy-alias", "copy-autograd", "deepcopy-copy", "deepcopy-memo", "deepcopy-non-leaf"})
    assert not_run == expected, {test: _text(outputs) for test, outputs in results.items()}


def test_a_dunder_name_the_test_code_does_not_define_is_missing_not_a_learner_function():
    # pytest looks up __tracebackhide__ in a failing frame's globals: it must get "missing",
    # not a function of the learner's that fails when called with no witness.
    names = test_cell.TestNames()
    with pytest.raises(KeyError):
        names["__tracebackhide__"]
    assert type(names["my_clone"]).__name__ == "LearnerFunction"

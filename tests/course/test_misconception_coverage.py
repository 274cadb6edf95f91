"""Every prediction against every misconception model (issue 36): which beliefs explain which answers.

For each prediction, each model that applies prints a wrong answer for it, also when the
believer's program raised in an earlier key cell; the beliefs the learners were seen to hold are
there; the docs table (docs/misconceptions.md) is what the models print today; and a prediction
with more than one line of answer has at least two models, except the ones the table lists as not
yet covered: that list must be exact, so it shrinks as models are added.
"""

from __future__ import annotations

import re

import pytest

from coursebook.predict.diagnose import _model_printouts, _torch_printouts, diagnose, model_answers, right_answer
from coursebook.predict.models import MODELS, model
from coursebook.predict.questions import normalise, printouts, questions
from crosscheck.harness import import_reftorch
from misconception_table import TABLE, answer_lines, applying, check_tags, short_of_two, table

QUESTIONS = questions()

# Multi-line answers that fewer than two models explain today (docs/misconceptions.md lists them).
# A prediction that loses its second model must be named here, with why.
NOT_YET_COVERED: set[str] = set()


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.id)
def test_each_model_that_applies_prints_a_wrong_answer_the_widget_names(question):
    right = normalise(right_answer(question))
    for name in applying(question):
        printed = normalise(model_answers(question)[name])
        assert printed and printed != right, (question.id, name)
        assert name in [m.name for m in diagnose(question, printed).models], (question.id, name)


@pytest.mark.parametrize("m", MODELS, ids=lambda m: m.name)
def test_after_a_cell_that_raises_under_a_belief_the_next_cells_still_print(m):
    """A cell that raises under the belief prints the raise as torch's key cells print theirs
    (``Type: message``), and the chapter runs on: later cells print under the belief too (one may
    print nothing where the believer expects no error, so: some of them)."""
    for chapter in sorted({q.chapter for q in QUESTIONS}):
        key_cells = next(q.key_cells for q in QUESTIONS if q.chapter == chapter)
        cells = _model_printouts(key_cells, m.name)  # the run under the belief the widget's diagnosis reads
        on_torch = _torch_printouts(key_cells)
        assert len(cells) == len(on_torch) == len(key_cells)
        raised = [i for i, text in enumerate(cells) if text != on_torch[i]
                  and re.match(r"^\w+(Error|Exception): ", text.strip().splitlines()[-1] if text.strip() else "")]
        for i in raised[:1]:
            later = [j for j in range(i + 1, len(cells)) if on_torch[j].strip()]
            assert not later or any(cells[j].strip() for j in later), (m.name, chapter, i)


@pytest.mark.parametrize("question", [q for q in QUESTIONS if answer_lines(q) > 1], ids=lambda q: q.id)
def test_an_answer_of_several_lines_has_two_models_or_is_listed_as_not_yet_covered(question):
    if question.id in NOT_YET_COVERED:
        assert len(applying(question)) < 2, f"{question.id} is covered now: take it off NOT_YET_COVERED"
    else:
        assert len(applying(question)) >= 2, (question.id, applying(question))


def test_the_not_yet_covered_list_names_real_predictions():
    assert NOT_YET_COVERED <= {q.id for q in QUESTIONS}
    assert set(short_of_two()) == NOT_YET_COVERED


@pytest.mark.parametrize("name, question_id, wrong", [
    # the beliefs a learner was seen to hold, each with the answer that learner gave
    ("copy_ only copies the values", "00-d6ea5f4c", "True False True\ntensor([1., 2., 3.])"),
    ("a = a + 1 changes the tensor in place", "02-c65da14c", "tensor([2., 3., 4.])\nTrue"),
    ("a function can rebind the caller's variable", "02-ce77d30b", "tensor([0., 0.])"),
    ("clone shares the version counter", "06-eafea8db", "1 1 1"),
    # issue 36 item 2: the beliefs behind the multi-line answers, each with the answer it gives
    ("b = a links the two names", "02-c65da14c", "tensor([2., 3., 4.])\nTrue"),
    ("an index at regular steps is a view", "04-9bcaeaf3", "True\nTrue"),
    ("a list equal to a slice is the slice", "03-bde8b797",
     "True False\nFalse True\nFalse True\ntensor([[-1., -1., -1.],\n[-1., -1., -1.]])"),
    ("t[idx] += 1 adds once for each time idx names a position", "04-4235c340",
     "tensor([2., 1., 0., 0.])\ntensor([2., 1., 0., 0.])"),
    ("accumulate=True still writes a repeated position once", "04-4235c340",
     "tensor([1., 1., 0., 0.])\ntensor([1., 1., 0., 0.])"),
    ("zeros_like copies requires_grad", "05-21ede7d0",
     "torch.bool False None\ntorch.int64 False None\ntorch.int64 False None\ntorch.float32 True None"),
    ("only inputs that need a gradient have an edge", "05-115df087",
     "None\nAccumulateGrad True\nIndexError: tuple index out of range"),
    # a node's address changes from run to run: a learner's answer may give any
    ("a leaf's grad_fn is its AccumulateGrad", "05-115df087",
     "<AccumulateGrad object at 0x7f3a2c1d9e80>\nAccumulateGrad True\n(None, 0)"),
    ("long() is recorded like double()", "05-21ede7d0",
     "torch.bool False None\ntorch.int64 True <ToCopyBackward0 object at 0x7f3a2c1d9e80>\n"
     "torch.int64 False None\ntorch.float32 False None"),
    ("a refused write changes nothing", "07-d4151630",
     "RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
     "clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
     "for more details.\nRuntimeError: Setting requires_grad=True on inference tensor outside InferenceMode "
     "is not allowed.\nRuntimeError: Inference tensors cannot be saved for backward. Please do not use "
     "Tensors created in inference mode in computation tracked by autograd. To work around this, you can "
     "make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
     "`torch.inference_mode()`.\ntensor([2., 4., 6.])\ntensor([1., 1., 1.])"),
    ("inference_mode is no_grad by another name", "07-d4151630",
     "tensor([3., 5., 7.], requires_grad=True)\ntensor([4., 6., 8.])"),
    ("an optimizer follows the model", "16-replace-a-parameter",
     "TypeError: cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None "
     "expected)\nTrue [[5.0, 6.0]]\nTrue\nTensor ['bias'] ['bias']"),
    ("an optimizer follows the model", "16-deepcopy-model-old-optimizer", "False None [[1.0, 1.0]]\nTrue False"),
    ("a tensor attribute is part of the module", "16-replace-a-parameter",
     "TypeError: cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None "
     "expected)\nTrue [[5.0, 6.0]]\nFalse\nTensor ['bias'] ['bias', 'weight']"),
    # the second beliefs of chapter 03's view predictions and of chapter 23's warm-up
    ("reshape always copies", "03-b4839423", "tensor([[0., 1., 2.],\n[3., 4., 5.]])\nFalse True"),
    ("a transpose has memory of its own", "03-b4839423", "tensor([[100., 1., 2.],\n[ 3., 4., 5.]])\nTrue False"),
    ("a transpose has memory of its own", "03-243b6a6b", "tensor([[ 0., 100., 2.],\n[ 3., 4., 5.]])\ntensor(1.)"),
    ("an advanced-index assignment writes into a copy", "23-page-predict",
     "a: RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.\n"
     "c: tensor([0., 1., 1.], requires_grad=True)"),
    ("model.double() makes new Parameters", "18-optimiser-state-after-double-text",
     "Adam torch.float64 {}\nSGD torch.float64 {}"),
    ("the optimizer's state follows the model", "18-optimiser-state-after-double-text",
     "Adam torch.float64 {'exp_avg': torch.float64, 'exp_avg_sq': torch.float64}\n"
     "SGD torch.float64 {'momentum_buffer': torch.float64}"),
])
def test_the_beliefs_learners_hold_are_named(name, question_id, wrong):
    question = next(q for q in QUESTIONS if q.id == question_id)
    assert name in [m.name for m in diagnose(question, wrong).models]


def _rewritten(belief, cell):
    """``cell`` as the program of one who holds ``belief`` runs it (still one cell)."""
    (program,) = model(belief).program([cell])
    return program


def test_a_python_belief_rewrites_only_the_cells_it_is_about():
    untouched = "x = torch.ones(2)\nprint(x)\n"
    assert _rewritten("a function can rebind the caller's variable", untouched) == untouched
    assert _rewritten("a = a + 1 changes the tensor in place", "a = b + 1\n") == "a = b + 1\n"
    assert "a += 1" in _rewritten("a = a + 1 changes the tensor in place", "a = a + 1\n")


def test_a_belief_about_a_call_or_an_assignment_changes_only_what_the_program_writes():
    """reshape, t() and t[idx] = v as the believer reads them, in the program only: a basic index
    and a dict still take their writes, and nn.Linear, which transposes (and reshapes) its
    operands inside, still computes torch's numbers."""
    cell = ("t = torch.zeros(3)\nt[[0, 2]] = 1.0\nt[1] = 5.0\nd = {}\nd['k'] = 2\nprint(t, d)\n"
            "m = torch.zeros(2, 3)\nflat = m.reshape(6)\nmt = m.t()\nflat[0] = 1.0\nmt[0, 1] = 2.0\n"
            "print(m.sum().item(), flat._base is None, mt.is_contiguous())\n"
            "lin = torch.nn.Linear(2, 1)\nlin.weight.data.fill_(1.0)\nlin.bias.data.zero_()\n"
            "print(lin(torch.ones(3, 2)).sum().item())\n")
    on_reftorch = printouts([cell], import_reftorch())
    assert on_reftorch == ["tensor([1., 5., 1.]) {'k': 2}\n3.0 False False\n6.0\n"]
    believed = {"an advanced-index assignment writes into a copy": "tensor([0., 5., 0.]) {'k': 2}\n3.0 False False",
                "reshape always copies": "tensor([1., 5., 1.]) {'k': 2}\n2.0 True False",
                "a transpose has memory of its own": "tensor([1., 5., 1.]) {'k': 2}\n1.0 False True"}
    for belief, first_lines in believed.items():
        assert printouts([_rewritten(belief, cell)], import_reftorch()) == [first_lines + "\n6.0\n"], belief


def test_a_belief_about_what_the_learner_reads_leaves_reftorchs_own_reads_alone():
    """The leaf's-grad_fn belief rewrites the program's reads of ``.grad_fn``: reftorch's is_leaf
    and backward, which read grad_fn too, still see None for a leaf."""
    leaf = "a leaf's grad_fn is its AccumulateGrad"
    cell = ("x = torch.ones(2, requires_grad=True)\nprint(type(x.grad_fn).__name__, x.is_leaf)\n"
            "(x * 2).sum().backward()\nprint(x.grad)\n")
    assert printouts([_rewritten(leaf, cell)], import_reftorch()) == ["AccumulateGrad True\ntensor([2., 2.])\n"]
    untouched = "x = torch.ones(2, requires_grad=True)\nprint(x.is_leaf)\n"
    assert _rewritten(leaf, untouched) == untouched
    assert _rewritten("long() is recorded like double()", "y = x.double()\n") == "y = x.double()\n"
    assert "__believed_conversion__(x, 'long')" in _rewritten("long() is recorded like double()", "y = x.long()\n")


def test_every_models_tags_are_tags_the_checks_name():
    tags = check_tags()
    assert len(tags) > 100
    for m in MODELS:
        assert set(m.tags) <= tags, (m.name, set(m.tags) - tags)


def test_the_docs_table_is_what_the_models_print_today():
    assert TABLE.read_text(encoding="utf-8") == table(), \
        "docs/misconceptions.md is stale: .venv/bin/python tests/course/misconception_table.py > docs/misconceptions.md"


@pytest.mark.parametrize("chapter", ["04_indexing_in_depth.ipynb", "07_no_grad_and_inference_mode.ipynb",
                                     "16_models_and_optimizers.ipynb", "18_optimizer_state_and_grad.ipynb"])
def test_after_a_replay_under_each_belief_reftorch_prints_what_torch_prints(chapter):
    """A model changes reftorch only inside its own replay: after every model has run the chapter
    (the models that switch reftorch's Module, Optimizer, index_put_ and inference_mode included),
    no replacement is left in place and reftorch prints torch's answer for each key cell."""
    from reftorch import overrides

    key_cells = next(q.key_cells for q in QUESTIONS if q.chapter == chapter)
    for m in MODELS:
        with m.active():
            printouts(m.program(key_cells), import_reftorch())
        assert overrides.overridden() == {}, m.name
    assert [normalise(t) for t in printouts(key_cells, import_reftorch())] == \
        [normalise(t) for t in _torch_printouts(key_cells)]

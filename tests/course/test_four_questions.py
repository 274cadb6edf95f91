"""coursebook.four_questions: torch and reftorch answer the four questions alike.

The matrix in 00_index.ipynb is computed, not typed: each question runs an
experiment on fresh tensors.  Here the same experiments run on real torch and
on reftorch and must give the same answer for every copy operation.
"""

from __future__ import annotations

import matplotlib
import pytest
import torch

import reftorch
from coursebook import four_questions as fq

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def torch_matrix():
    return fq.answer_all(torch)


@pytest.mark.parametrize("op", fq.OPS, ids=lambda op: op.code)
@pytest.mark.parametrize("question", list(fq.QUESTIONS))
def test_reftorch_answers_like_torch(op, question):
    decide = fq.QUESTIONS[question]
    assert decide(reftorch, op) == decide(torch, op), f"{op.code}: {question}"


def test_every_question_tells_operations_apart(torch_matrix):
    # a question that gives one answer for every operation decides nothing
    for question in fq.QUESTIONS:
        answers = {row[question] for row in torch_matrix.values()}
        assert {fq.YES, fq.NO} <= answers, f"{question!r} answers {answers} for every operation"


def test_only_copy_into_an_existing_tensor_answers_dst(torch_matrix):
    with_dst = [code for code, row in torch_matrix.items() if fq.DST in row.values()]
    assert with_dst == ["b = dst.copy_(a)"]


def test_answers_are_the_documented_words(torch_matrix):
    for row in torch_matrix.values():
        assert set(row.values()) <= {fq.YES, fq.NO, fq.DST}


def test_markdown_has_one_row_per_operation(torch_matrix):
    table = fq.as_markdown(torch_matrix).splitlines()
    assert len(table) == 2 + len(fq.OPS)
    for line, op in zip(table[2:], fq.OPS):
        assert line.startswith(f"| `{op.code}` |")


def test_the_figure_writes_every_answer_as_text(torch_matrix):
    # the colours are a help, not the only carrier of the answer
    fig = fq.draw(torch_matrix)
    try:
        texts = [t.get_text() for t in fig.axes[0].texts]
        expected = [answer for row in torch_matrix.values() for answer in row.values()]
        assert texts == expected
    finally:
        matplotlib.pyplot.close(fig)


def test_no_warning_escapes_while_answering(recwarn):
    fq.answer_all(torch)
    fq.answer_all(reftorch)
    assert not [str(w.message) for w in recwarn]

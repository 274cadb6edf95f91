"""What the class believes: each learner's first answer to each "Predict the output" question.

With the learner's consent the course's predict widget sends, once per
question, the learner's first answer and the misconception models that print
exactly that answer (``coursebook.sharing``), to the course hub's
``predictions`` service (``autograder.hub.predictions_service``), under the
learner's own hub token. The service keeps it here: a table
``prediction_answers`` in the course gradebook's database (SQLite or
Postgres, the same URL as nbgrader's), one row per learner and question; a
later answer to the same question is not kept. A learner can read and delete
their own rows through the service.

:func:`class_beliefs` sums the table up per chapter and misconception for
``report --predictions``.
"""

import datetime

import sqlalchemy as sa

from ..course import db_url

MAX_ANSWER_CHARS = 4000
MAX_FIELD_CHARS = 200

METADATA = sa.MetaData()
ANSWERS = sa.Table(
    "prediction_answers", METADATA,
    sa.Column("student", sa.String(MAX_FIELD_CHARS), primary_key=True),
    sa.Column("question", sa.String(MAX_FIELD_CHARS), primary_key=True),
    sa.Column("chapter", sa.String(MAX_FIELD_CHARS), nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("misconceptions", sa.Text, nullable=False),   # model names, "; "-joined ('' for none)
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("answered_at", sa.DateTime, nullable=False),
)


class BadRecord(ValueError):
    """A record that is not what the predict widget sends: its words name the field."""


def engine_for(url):
    engine = sa.create_engine(url)
    METADATA.create_all(engine)
    return engine


def engine_of(config):
    return engine_for(db_url(config))


def _text(record, key, limit):
    value = record.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise BadRecord("%s: a non-empty text of at most %d characters" % (key, limit))
    return value.strip()


def clean(record):
    """The fields kept of one record sent by a learner's widget (:class:`BadRecord` if unfit)."""
    if not isinstance(record, dict):
        raise BadRecord("a JSON object")
    if not isinstance(record.get("correct"), bool):
        raise BadRecord("correct: true or false")
    beliefs = record.get("misconceptions", [])
    if (not isinstance(beliefs, list) or len(beliefs) > 20
            or not all(isinstance(b, str) and 0 < len(b) <= MAX_FIELD_CHARS and ";" not in b for b in beliefs)):
        raise BadRecord("misconceptions: a list of model names")
    answer = record.get("answer", "")
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
        raise BadRecord("answer: a text of at most %d characters" % MAX_ANSWER_CHARS)
    return {"question": _text(record, "question", MAX_FIELD_CHARS),
            "chapter": _text(record, "chapter", MAX_FIELD_CHARS),
            "correct": record["correct"], "misconceptions": "; ".join(beliefs), "answer": answer}


def keep_first(engine, student, record):
    """Store ``student``'s first answer to the record's question; False when one was kept already."""
    row = dict(clean(record), student=student,
               answered_at=datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None))
    with engine.begin() as db:
        known = db.execute(sa.select(ANSWERS.c.question).where(
            ANSWERS.c.student == student, ANSWERS.c.question == row["question"])).first()
        if known:
            return False
        db.execute(ANSWERS.insert().values(**row))
    return True


def answers_of(engine, student):
    """What was kept of ``student``'s answers, oldest first, as plain dicts."""
    with engine.begin() as db:
        rows = db.execute(sa.select(ANSWERS).where(ANSWERS.c.student == student)
                          .order_by(ANSWERS.c.answered_at, ANSWERS.c.question)).mappings().all()
    return [dict(row, answered_at=row["answered_at"].isoformat(timespec="seconds") + "Z",
                 misconceptions=[m for m in row["misconceptions"].split("; ") if m]) for row in rows]


def forget(engine, student):
    """Delete every answer of ``student``; returns how many."""
    with engine.begin() as db:
        return db.execute(ANSWERS.delete().where(ANSWERS.c.student == student)).rowcount


def class_beliefs(engine):
    """Per chapter: how many learners answered, and per misconception how many held it.

    A learner holds a misconception in a chapter when at least one of their
    first answers there is printed by that model. Returns
    ``{chapter: {"learners": n, "right_first": share, "beliefs": {model: [students]}}}``.
    """
    with engine.begin() as db:
        rows = db.execute(sa.select(ANSWERS)).mappings().all()
    out = {}
    for row in rows:
        chapter = out.setdefault(row["chapter"], {"learners": set(), "answers": 0, "right": 0, "beliefs": {}})
        chapter["learners"].add(row["student"])
        chapter["answers"] += 1
        chapter["right"] += bool(row["correct"])
        for model in filter(None, row["misconceptions"].split("; ")):
            chapter["beliefs"].setdefault(model, set()).add(row["student"])
    return {name: {"learners": len(c["learners"]), "right_first": c["right"] / c["answers"],
                   "beliefs": {m: sorted(s) for m, s in sorted(c["beliefs"].items())}}
            for name, c in sorted(out.items())}

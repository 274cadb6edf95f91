"""The learner's progress: which build-it pieces pass, and the self-check scores.

A small JSON file in the learner's course folder, ``course/.progress.json``
(git-ignored), written when a check cell passes fully and when an exercise's
self-check runs.  The index chapter reads it with :func:`progress_table`.

Where the file is: ``$COURSEBOOK_PROGRESS`` if set (the tests use it), else
``course/.progress.json`` next to this package's ``src`` folder, else
``.progress.json`` in the working directory (an installed package without
the course folder).

Each language keeps its own file: a Chinese notebook (:func:`coursebook.language.language`
is ``"zh"``) reads and writes ``.progress.zh.json`` beside the English one. The two courses
are two runs through the same pieces, so a piece failed in one language leaves its
"done" mark in the other alone.
"""

from __future__ import annotations

import datetime
import html
import json
import os
from pathlib import Path

from coursebook.build_it.registry import pieces
from coursebook.language import _, language

__all__ = ["progress_path", "load", "record_piece", "forget_piece", "record_exercise", "record_prediction",
           "progress_table"]

PROGRESS_ENV = "COURSEBOOK_PROGRESS"


def progress_path(lang: str | None = None) -> Path:
    """The progress file of the language this notebook speaks (English: the path itself;
    another language: ``<stem>.<lang><suffix>`` beside it)."""
    if os.environ.get(PROGRESS_ENV):
        path = Path(os.environ[PROGRESS_ENV])
    else:
        course = Path(__file__).resolve().parents[3] / "course"  # src/coursebook/build_it -> repo
        path = (course if course.is_dir() else Path.cwd()) / ".progress.json"
    lang = lang or language()
    if lang == "en":
        return path
    return path.with_name(f"{path.stem}.{lang}{path.suffix}")


def load(lang: str | None = None) -> dict:
    """The saved progress, ``{"pieces": {...}, "exercises": {...}}``; empty if none or unreadable."""
    try:
        data = json.loads(progress_path(lang).read_text())
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    data.setdefault("pieces", {})
    data.setdefault("exercises", {})
    data.setdefault("predictions", {})
    return data


def _save(data: dict, lang: str | None = None) -> str:
    """Write atomically; return a note for the learner ("" when all went well)."""
    path = progress_path(lang)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        temporary.replace(path)
    except OSError as error:
        return _("(progress not saved: {error})").format(error=error)
    return ""


def _now() -> str:
    return datetime.datetime.now().isoformat(timespec="seconds")


def record_piece(name: str, chapter: str) -> str:
    """Mark a build-it piece done."""
    data = load()
    data["pieces"][name] = {"chapter": chapter, "passed": _now()}
    return _save(data)


def forget_piece(name: str) -> str:
    """A piece whose check fails again (a later rewrite broke it) is no longer done."""
    data = load()
    if data["pieces"].pop(name, None) is None:
        return ""
    return _save(data)


def record_exercise(assignment: str, score: float, max_score: float, lang: str | None = None) -> str:
    """Save the latest self-check score of a graded exercise, in the progress file of ``lang``
    (the checked notebook's language; by default the one this process speaks)."""
    data = load(lang)
    data["exercises"][assignment] = {"score": score, "max_score": max_score, "checked": _now()}
    return _save(data, lang)


def record_prediction(question_id: str, outcome: str, tries: int) -> str:
    """How a "Predict the output" question went, the first time it was settled: ``"right first
    time"``, ``"right after a retry"`` or ``"revealed"``. Later tries do not change it."""
    data = load()
    if question_id in data["predictions"]:
        return ""
    data["predictions"][question_id] = {"outcome": outcome, "tries": tries, "when": _now()}
    return _save(data)


class ProgressTable:
    """Every build-it piece by chapter, done or not, and the exercises' scores."""

    def __init__(self, rows, exercises):
        self.rows = rows  # (chapter, piece, summary, done)
        self.exercises = exercises  # (assignment, score, max_score)

    @property
    def done(self) -> list[str]:
        return [name for _, name, _, done in self.rows if done]

    def __repr__(self):
        lines = [_("Build-it pieces: {done} of {count} done").format(done=len(self.done), count=len(self.rows))]
        for chapter, name, summary, done in self.rows:
            lines.append(f"  {'[x]' if done else '[ ]'} {chapter}  {name}  {_(summary)}")
        if self.exercises:
            lines.append(_("Exercises (latest self-check):"))
            for assignment, score, max_score in self.exercises:
                lines.append(f"  {assignment}: {score:g}/{max_score:g}")
        return "\n".join(lines)

    def _repr_html_(self):
        mark = "&#10003; " + html.escape(_("done"))
        body = "".join(
            f"<tr><td>{html.escape(chapter)}</td><td><code>{html.escape(name)}</code></td>"
            f"<td>{html.escape(_(summary))}</td><td>{mark if done else ''}</td></tr>"
            for chapter, name, summary, done in self.rows)
        heads = "".join(f"<th>{html.escape(head)}</th>" for head in (_("chapter"), _("piece"), _("what it does")))
        table = (f"<p>{html.escape(_('Build-it pieces: {done} of {count} done').format(done=len(self.done), count=len(self.rows)))}</p>"
                 f"<table><tr>{heads}<th></th></tr>"
                 f"{body}</table>")
        if self.exercises:
            rows = "".join(f"<tr><td>{html.escape(a)}</td><td>{s:g}/{m:g}</td></tr>"
                           for a, s, m in self.exercises)
            table += f"<p>{html.escape(_('Exercises (latest self-check)'))}</p><table>{rows}</table>"
        return f"<div class='coursebook-progress'>{table}</div>"


def progress_table() -> ProgressTable:
    """The index's table, read from the progress file now."""
    data = load()
    rows = [(p.chapter, p.name, p.summary, p.name in data["pieces"]) for p in pieces()]
    exercises = [(name, e.get("score", 0), e.get("max_score", 0))
                 for name, e in sorted(data["exercises"].items())]
    return ProgressTable(rows, exercises)

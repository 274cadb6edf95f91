"""The practice self-check's answers, recorded on real torch for the browser (``make lite``).

In a browser tab there is no torch and no sandbox, so the exercises cannot be
judged there. What can run there is the witness (``autograder.witness``): it
needs only reftorch. So when the JupyterLite site is built, each *visible*
test cell of an exercise (the release's, never the hidden tests) is judged
here, on real torch, with the course's solution in the witness's place: every
question the judge asks the witness, and the solution's answer, are written
down. The check must pass (else the recording is refused): the solution then
agrees with torch on everything the check compares. Which fields of an
observation (or facts of a story) a test compares is found by changing each
one in the recorded answers and judging again: a field whose change fails the
test is compared, and one that a change in the last float digits does not
fail is compared up to rounding.

In the browser, ``coursebook.practice`` asks the learner's functions the same
questions, through the same witness code, and compares their answers with the
recorded ones. Plain data only (JSON): nothing of the judge runs there.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from pathlib import Path

import nbformat
import torch

from ..judge.learner import SHAPE
from ..judge.test_cell import TestNames, run_instructor_cell, run_test_cell
from ..pipeline.language import line
from ..witness import plans, serve
from ..witness.wire import decode, encode

# A folder where ``recorded`` keeps recordings by what they were made from (unset: none kept).
CACHE_VARIABLE = "PRACTICE_ANSWERS_CACHE"
# what the recording runs besides the two notebooks: the grader's checks, judge and witness, and reftorch
RECORDED_WITH = [Path(__file__).resolve().parents[1], Path(__file__).resolve().parents[2] / "src"]
# what a reply says about where the code that raised lives: the solution's lines, not an answer
UNCOMPARED = ("where", "_where", "trace")


def _grade(cell) -> bool:
    return bool(cell.metadata.get("nbgrader", {}).get("grade"))


def _plain(value):
    """``value`` as it crosses the wire: through JSON and back."""
    return json.loads(json.dumps(value))


class RecordingWitness:
    """A witness answering with the solution's functions, writing down each question and answer."""

    def __init__(self, namespace: dict):
        self.namespace, self.asked = namespace, []

    def ask(self, request):
        request = _plain(request)
        try:
            reply = serve.answer(self.namespace, request)
        except plans.BadPlan as error:
            reply = {"refused": str(error)}
        self.asked.append([request, _plain(reply)])
        return _plain(reply)


class RecordedReply:
    """A recorded reply, decoded once, for the replays: each replay asks it again with one field
    of its observations (or one fact of its story) changed, or none (docs/decisions/0072)."""

    def __init__(self, reply):
        self.reply, self.each, self.key = reply, None, None
        if "each" in reply:
            self.each = [RecordedReply(one) for one in reply["each"]]
        else:
            self.key = next((key for key in ("seen", "told") if key in reply), None)
            self.decoded = decode(reply[self.key]) if self.key else None
        self.unchanged = json.dumps(self.changed(None, None))

    def changed(self, field, change):
        """The reply, as JSON-ready data, with ``field`` changed by ``change`` wherever it is."""
        if self.each is not None:
            return {"each": [one.changed(field, change) for one in self.each]}
        if self.key is None:
            return self.reply
        value = dict(self.decoded)
        if self.key == "seen" and field in value:
            value[field] = change(field, value[field])
        if self.key == "told" and isinstance(value.get("facts"), list):
            value["facts"] = [[fact, change(fact, one) if fact == field else one] for fact, one in value["facts"]]
        return {self.key: encode(value)}

    def holds(self, field) -> bool:
        if self.each is not None:
            return any(one.holds(field) for one in self.each)
        if self.key == "seen":
            return field in self.decoded
        facts = self.decoded.get("facts") if self.key == "told" else None
        return isinstance(facts, list) and any(fact == field for fact, _ in facts)


class ReplayingWitness:
    """The recorded answers (``RecordedReply``) again, in order, with one field of every observation
    (or one fact of every story) changed by ``change``."""

    def __init__(self, replies: list, field: str, change):
        self.replies, self.field, self.change = list(replies), field, change

    def ask(self, request):
        if not self.replies:
            return {"refused": "not recorded"}
        reply = self.replies.pop(0)
        if reply.holds(self.field):
            return _plain(reply.changed(self.field, self.change))
        return json.loads(reply.unchanged)


def _rounded(field: str, value):
    """``value`` with each float off in its last digits, as another honest formula rounds it."""
    if isinstance(value, float):
        return value * (1 + 1e-7) + 1e-9
    if isinstance(value, (list, tuple)):
        return type(value)(_rounded(field, v) for v in value)
    return value


def _has_float(value) -> bool:
    return isinstance(value, float) or (isinstance(value, (list, tuple)) and any(map(_has_float, value)))


def _other(field: str, value):
    """A value different from ``value`` that the judge accepts as that field (``SHAPE``)."""
    if isinstance(value, bool):
        candidates = [not value]
    elif isinstance(value, (int, float)):
        candidates = [value + 1]
    elif isinstance(value, str):
        candidates = [value + " (changed)"]
    elif isinstance(value, tuple):
        candidates = [value + (0,), value + ("changed",), value + (("UserWarning", "changed"),)]
    elif isinstance(value, list):
        candidates = [value + [0]]
    elif isinstance(value, dict):
        candidates = [dict(value, changed=1)]
    else:
        candidates = []
    candidates += ["changed", ("Changed", "changed")]
    return next((c for c in candidates if c != value and SHAPE.get(field, lambda v: True)(c)), "changed")


def _fields(asked: list) -> dict:
    """``{field or fact: a recorded value of it}``, in the order first met."""
    found: dict = {}
    for _, reply in asked:
        for one in reply.get("each", [reply]):
            if isinstance(one, dict) and "seen" in one:
                for key, value in decode(one["seen"]).items():
                    found.setdefault(key, value)
            if isinstance(one, dict) and "told" in one:
                for fact, value in decode(one["told"]).get("facts") or []:
                    found.setdefault(fact, value)
    return {k: v for k, v in found.items() if k not in UNCOMPARED}


def _fails(source: str, names: TestNames, replies: list, field: str, change) -> bool:
    """Does the test fail (a check's verdict, not an answer the judge refuses to read) when
    ``field`` is changed by ``change`` in the recorded answers?"""
    return any(output.get("ename") == "AssertionError"
               for output in run_test_cell(source, ReplayingWitness(replies, field, change), names=names))


def compared_fields(source: str, names: TestNames, asked: list) -> tuple[list[str], list[str]]:
    """The fields of the observations (and the facts of the stories) the test compares: those whose
    change fails it; and those of them it compares up to float rounding."""
    fields, replies = _fields(asked), [RecordedReply(reply) for _, reply in asked]
    compared = [field for field in fields if _fails(source, names, replies, field, _other)]
    approximate = [field for field in compared
                   if _has_float(fields[field]) and not _fails(source, names, replies, field, _rounded)]
    return compared, approximate


def solution_namespace(solution: Path) -> dict:
    """The solution notebook's own code (not its tests, not the self-check), run on reftorch."""
    namespace: dict = {"__name__": "__main__"}
    for cell in nbformat.read(solution, as_version=4).cells:
        if cell.cell_type != "code" or _grade(cell) or "autograder" in cell.source:
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(cell.source, "<solution>", "exec"), namespace)
    return namespace


def record(exercise: Path, solution: Path) -> dict:
    """``{"torch", "tests": [{"id", "points", "compared", "approximate", "asked": [[request, reply],
    ...]}], "zh": {input: its Chinese}}`` of the
    exercise's visible test cells, judged on torch with the solution in the witness's place."""
    namespace = solution_namespace(solution)
    names = TestNames()
    tests = []
    for cell in nbformat.read(exercise, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        if not _grade(cell):
            run_instructor_cell(cell.source, names)
            continue
        witness = RecordingWitness(namespace)
        outputs = run_test_cell(cell.source, witness, names=names)
        grade_id = cell.metadata["nbgrader"]["grade_id"]
        if outputs:
            raise RuntimeError(f"{exercise}: the solution fails the visible test {grade_id} on torch "
                               f"{torch.__version__}: {outputs[0].get('evalue', '')[:500]}")
        compared, approximate = compared_fields(cell.source, names, witness.asked)
        tests.append({"id": grade_id, "points": cell.metadata["nbgrader"].get("points", 0),
                      "compared": compared, "approximate": approximate, "asked": witness.asked})
    return {"torch": torch.__version__.split("+")[0], "tests": tests, "zh": _inputs_in_chinese(tests)}


def _inputs_in_chinese(tests: list) -> dict:
    """``{input as the witness names it: its Chinese}``, from the grader's catalog, for the inputs
    of the recorded questions that it translates."""
    found = {}
    for test in tests:
        for request, _ in test["asked"]:
            for asked in request.get("observe_all") or [request.get("observe") or {}]:
                if "case" in asked:
                    english = plans.case_of(asked["case"]).label()
                    chinese = line(english, "zh")
                    if chinese != english:
                        found[english] = chinese
    return found


def _made_from(exercise: Path, solution: Path) -> str:
    """A digest of everything a recording is made from: torch's version, the two notebooks, and
    every Python file and catalog of the grader and of ``src/`` (the checks, the judge, the
    witness, reftorch, the Chinese of the inputs)."""
    digest = hashlib.sha256(torch.__version__.encode())
    files = [Path(exercise), Path(solution)] + sorted(
        p for root in RECORDED_WITH for pattern in ("*.py", "*.po") for p in root.rglob(pattern))
    for path in files:
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def recorded(exercise: Path, solution: Path, cache: str | None = None) -> dict:
    """``record(exercise, solution)``, kept in the folder ``cache`` (by default the one
    ``$PRACTICE_ANSWERS_CACHE`` names, if any) under a digest of all it is made from, and read
    back from there when nothing it is made from has changed: the test run records each exercise
    once for the site's build and for the practice tests."""
    cache = cache or os.environ.get(CACHE_VARIABLE)
    if not cache:
        return record(exercise, solution)
    kept = Path(cache) / f"{Path(exercise).stem}-{_made_from(exercise, solution)}.json"
    if kept.is_file():
        return json.loads(kept.read_text(encoding="utf-8"))
    answers = record(exercise, solution)
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{kept.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(answers), encoding="utf-8")
    os.replace(partial, kept)   # whole or absent, for a test worker reading it at the same time
    return answers

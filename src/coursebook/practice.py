"""The practice self-check of an exercise in the browser (the JupyterLite site, ``make lite``).

A browser tab has no torch and no sandbox, so nothing is graded there. When
the site was built, on real torch, each visible test of the exercise was
judged with the course's solution in the learner's place, and every question
the judge asked about the solution's functions was recorded with its answer
(``autograder.learner.practice_record``; the answers agree with torch on all
a test compares, or the build stops). Here the learner's own functions are
asked the same questions, by the grader's witness (which needs only reftorch,
and is shipped into the site's wheel as its own package, :data:`WITNESS`),
in this kernel, with no sandbox, and their answers are compared with the
recorded ones. A test passes when they agree on everything it compares; a
failure names the test, the input and the first difference.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from coursebook.language import _, language, use

__all__ = ["practice_check", "practice_results", "recorded", "checks_run_elsewhere", "ANSWERS", "WITNESS"]

ANSWERS = Path(__file__).with_name("practice_answers")   # <exercise>.json, written when the site is built
WITNESS = "clone_or_detach_witness"                        # the grader's witness, in the site's wheel
UNCOMPARED = ("where", "_where", "trace")                  # where the code that raised lives, not what it did


def _plain(value):
    return json.loads(json.dumps(value))


def _first_difference(theirs, yours, fields=None):
    """``(what, torch's, yours)`` of the first difference between two answers, or None."""
    if isinstance(theirs, dict) and isinstance(yours, dict):
        keys = [k for k in theirs if k not in UNCOMPARED and (fields is None or k in fields)]
        keys += [k for k in yours if k not in theirs and k not in UNCOMPARED and (fields is None or k in fields)]
        for key in keys:
            found = _first_difference(theirs.get(key), yours.get(key))
            if found:
                return (key,) + found[1:] if found[0] is None else found
        return None
    return None if theirs == yours else (None, theirs, yours)


class _Asker:
    def __init__(self, namespace, witness, translations=None):
        self.translations = translations or {}
        self.serve = importlib.import_module(witness + ".serve")
        self.plans = importlib.import_module(witness + ".plans")
        self.wire = importlib.import_module(witness + ".wire")
        self.close = importlib.import_module(witness + ".stories").close   # equal up to float rounding
        self.namespace = namespace

    def ask(self, request):
        try:
            return _plain(self.serve.answer(self.namespace, request))
        except self.plans.BadPlan as error:
            return {"refused": str(error)}
        except Exception as error:   # the learner's code broke the witness: say what
            return {"failed": "%s: %s" % (type(error).__name__, error)}

    def _decoded(self, value):
        try:
            return self.wire.decode(value)
        except Exception:
            return value

    def label(self, request):
        """The input of one question, in words."""
        if "name" in request and "arguments" in request:   # a story: its first argument says what it plays on
            arguments = self._decoded(request["arguments"])
            first = arguments[0] if isinstance(arguments, (list, tuple)) and arguments else arguments
            return "%s (%s)" % (first, request["name"])
        if "case" in request:
            try:
                english = self.plans.case_of(request["case"]).label()
            except Exception:
                return json.dumps(request["case"])
            return self.translations.get(language(), {}).get(english, english)   # the grader's words
        call = request.get("call") or {}
        args = ", ".join(repr(self._decoded(a)) for a in call.get("args", []))
        return "%s(%s)" % (call.get("function", "?"), args)

    def value(self, reply):
        """A reply read back from the wire: a function's value, or a story's facts (or what raised)."""
        try:
            if isinstance(reply, dict) and "value" in reply:
                return dict(reply, value=self.wire.decode(reply["value"]))
            if isinstance(reply, dict) and "told" in reply:
                return self.wire.decode(reply["told"])
        except Exception:
            pass
        return reply

    def seen(self, reply):
        return self.wire.decode(reply["seen"]) if isinstance(reply, dict) and "seen" in reply else reply


def _not_written() -> str:
    return _("not written yet: it still raises NotImplementedError (replace "
             "`raise NotImplementedError()` with your code)")


def _raised(raised, where="") -> str:
    return _("yours raised {0}: {1}").format(raised[0], raised[1]) + where if raised else _("yours raised nothing")


def _observed(theirs, yours, fields):
    """The lines saying where one observation of the learner's call differs from torch's, or None."""
    if yours.get("_stub"):
        return [_not_written()]
    if theirs.get("raised") != yours.get("raised"):
        lines = [_raised(yours.get("raised"), yours.get("_where", ""))]
        if theirs.get("raised"):
            lines.insert(0, _("torch raises {0}: {1}").format(*theirs["raised"]))
        return lines
    found = _first_difference(theirs, yours, fields)
    if found:
        return [_("{0}: torch gives {1}, yours gives {2}").format(found[0], found[1], found[2])]
    return None


def _told(asker, theirs, yours, fields, approximate):
    """The line saying which fact of a story first differs from torch's, or None."""
    mine = dict((fact, value) for fact, value in yours["facts"])
    for fact, value in theirs["facts"]:
        if fact not in fields:
            continue
        got = mine.get(fact, _("(not told: an earlier step went wrong)"))
        if not (asker.close(value, got) if fact in approximate else value == got):
            return [_("{0}: torch gives {1}, yours gives {2}").format(fact, value, got)]
    return None


def _judge(asker, test):
    """None when the learner's answers agree with the recorded ones on what the test compares, else the
    lines that say where they first differ."""
    fields = set(test["compared"]) | {"returned", "not_a_tensor"}
    for request, recorded in test["asked"]:
        questions = request.get("observe_all") or [request.get("observe") or request.get("story") or request]
        mine = asker.ask(request)
        pairs = zip(questions, recorded.get("each", [recorded]), mine.get("each", [mine]))
        for question, theirs, yours in pairs:
            if "seen" in theirs and "seen" in yours:
                lines = _observed(asker.seen(theirs), asker.seen(yours), fields)
            elif "facts" in asker.value(theirs) and "facts" in asker.value(yours):
                lines = _told(asker, asker.value(theirs), asker.value(yours), fields, set(test["approximate"]))
            elif "raised" in asker.value(yours) and "raised" not in asker.value(theirs):
                raised = asker.value(yours)["raised"]
                lines = ([_not_written()] if raised.get("stub") else
                         [_raised((raised.get("type"), raised.get("message")), str(raised.get("where") or ""))])
            else:
                found = _first_difference(asker.value(theirs), asker.value(yours))
                lines = found and [_("{0}: torch gives {1}, yours gives {2}").format(
                    found[0] or _("answer"), found[1], found[2])]
            if lines:
                return [_("input: {0}").format(asker.label(question))] + lines
    return None


def checks_run_elsewhere(binder: str, lang: str = "en") -> None:
    """What the browser's copy of an exercise prints in place of its first test cell."""
    use(lang)
    print(_("The tests below compare your code with real torch, which the browser does not have: here they "
            "do not run, and nothing is graded. The last cell runs a practice self-check against torch's "
            "answers recorded when this site was built. To be graded, open the exercise on Binder ({0}) or "
            "on your machine (make lab, then this notebook in workspace/exercises/).").format(binder))


def recorded(exercise: str, answers: Path = ANSWERS) -> dict:
    """The answers recorded for ``exercise`` when the site was built."""
    return json.loads((answers / f"{exercise}.json").read_text(encoding="utf-8"))


def practice_results(exercise: str, namespace: dict, answers: Path = ANSWERS,
                     witness: str = WITNESS) -> list[tuple[str, int, list[str] | None]]:
    """``[(test, points, None when it passes, else the lines saying why not)]`` for the visible
    tests of ``exercise``, asked of the learner's functions in ``namespace``."""
    answered = recorded(exercise, answers)
    asker = _Asker(namespace, witness, {"zh": answered.get("zh", {})})
    return [(test["id"], test["points"], _judge(asker, test)) for test in answered["tests"]]


def practice_check(exercise: str, namespace: dict, lang: str = "en") -> None:
    """Check the learner's functions in ``namespace`` against the recorded answers of ``exercise``'s
    visible tests; prints a practice score (nothing is graded here)."""
    use(lang)
    print(_("Practice score, against torch {0}'s answers recorded when this site was built: your code ran "
            "here, in your browser, with no sandbox, and nothing is graded. To be graded, hand the notebook "
            "in to your course's grader; to check it on real torch first, open it on Binder or with make lab "
            "(the README's \"Check yourself\").").format(recorded(exercise)["torch"]))
    score = total = 0
    for test, points, lines in practice_results(exercise, namespace):
        total += points
        if lines is None:
            score += points
            print("\u2713 " + _("{0}: passed ({1} of {1} points)").format(test, points))
        else:
            print("\u2717 " + _("{0}: failed (0 of {1} points)").format(test, points))
            for line in lines:
                print("    " + line)
    print(_("Practice score: {0} of {1} points (the graded check also runs hidden tests on more "
            "inputs)").format(score, total))

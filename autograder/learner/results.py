"""What a self-check found: each test's points and message, and how it is printed.

Kept apart from the check itself (``learner_check``), so the learner's ``self_check()``
(``self_check``), which receives results from the Jupyter server's self-check handler
(``check_extension``) or from a process of its own as data, reads them without importing the check.
"""

import dataclasses

from ..judge.language import N_, gettext
from ..pipeline.language import result_message


@dataclasses.dataclass
class TestResult:
    grade_id: str
    points: float
    max_points: float
    message: str = ""

    @property
    def passed(self):
        return self.points == self.max_points


@dataclasses.dataclass
class CheckResult:
    path: str
    tests: list
    problems: list  # messages not tied to one test (unreadable file, dead kernel, ...)
    notes: list = dataclasses.field(default_factory=list)  # repairs made before running
    language: str = "en"  # the notebook's (its metadata, autograder.judge.language): how format() speaks

    @property
    def score(self):
        return sum(t.points for t in self.tests)

    @property
    def max_score(self):
        return sum(t.max_points for t in self.tests)

    @property
    def all_passed(self):
        return not self.problems and all(t.passed for t in self.tests)

    def format(self):
        """The printout, in the notebook's language: the messages were written in it where they were
        made (the judge's verdicts, the check's problems and notes); the grader's own errors in a
        test cell are translated here (autograder.pipeline.language); torch's texts stay as printed."""
        lang = self.language
        lines = [gettext(N_("Self-check of {0} (visible tests only; your instructor also runs hidden "
                            "tests)"), lang).format(self.path)]
        width = max([len(t.grade_id) for t in self.tests] + [10])
        passed, failed = gettext(N_("ok"), lang), gettext(N_("FAIL"), lang)
        for t in self.tests:
            status = (passed if t.passed else failed).ljust(4)
            line_ = "  %s  %-*s  %g/%g" % (status, width, t.grade_id, t.points, t.max_points)
            if t.message:
                line_ += "  " + result_message(t.message, lang)
            lines.append(line_)
        for note in self.notes:
            lines.append("  " + gettext(N_("note: {0}"), lang).format(note))
        for problem in self.problems:
            lines.append("  " + gettext(N_("problem: {0}"), lang).format(problem))
        failing = sum(not t.passed for t in self.tests)
        verdict = (gettext(N_("all tests pass"), lang) if self.all_passed
                   else gettext(N_("{0} test(s) failing"), lang).format(failing))
        lines.append(gettext(N_("Score: {0}/{1}  ({2})"), lang).format("%g" % self.score, "%g" % self.max_score,
                                                                      verdict))
        return "\n".join(lines)


def result_to_data(result: CheckResult) -> dict:
    """The result as JSON-ready data: how the self-check handler and ``check --json`` answer."""
    return dataclasses.asdict(result)


def result_from_data(data: dict) -> CheckResult:
    return CheckResult(data["path"], [TestResult(**t) for t in data["tests"]], list(data["problems"]),
                       list(data.get("notes", [])), data.get("language", "en"))

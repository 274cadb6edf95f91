"""``report``: how the class did, per assignment and per test, with a histogram.

For each assignment with submissions (the others are named as skipped) it prints the number of submissions and
the mean, median, lowest and highest score; then, for each test cell in
notebook order, its points, its mean score and the share of students who got
all its points (a test almost nobody passes is worth a second look: a hard
question or a wrong test).  It also counts the submissions that came with
autograder messages, and lists the class's most common misconceptions: each
tag (``clone/shares-memory``; see ``autograder.term.misconceptions``) with the
number of students whose failed tests showed it.  Per assignment, two PNG
charts are written with matplotlib (Agg backend: no display needed): a
histogram of total scores (one bar per whole point, integer ticks) and a bar
chart of the misconception counts.
"""

import math
import os
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402
from nbgrader.api import Gradebook  # noqa: E402

from ..course import db_url, state_dir, test_order  # noqa: E402
from .export import messages  # noqa: E402
from .misconceptions import class_counts, name_of, student_tags  # noqa: E402


def assignment_summary(gb, config, assignment):
    """Per-assignment figures and per-test rows for one assignment."""
    subs = list(gb.assignment_submissions(assignment.name))
    scores = [s.score for s in subs]
    tests = {}
    for sub in subs:
        for nb in sub.notebooks:
            for grade in nb.grades:
                entry = tests.setdefault((nb.name, grade.name), {"max": grade.max_score, "scores": []})
                entry["scores"].append(grade.score or 0.0)
    with_messages = sum(1 for s in subs if messages(config, s.student.id, assignment.name))
    tags = {s.student.id: student_tags(config, s.student.id, assignment.name) for s in subs}
    return {"name": assignment.name, "max_score": assignment.max_score, "scores": scores,
            "tests": tests, "order": test_order(config, assignment.name), "with_messages": with_messages,
            "misconceptions": class_counts(tags)}


def _in_order(summary):
    """The per-test entries, in notebook order (tests the notebook does not list come last, by name)."""
    order = {name: i for i, name in enumerate(summary.get("order", []))}
    return sorted(summary["tests"].items(), key=lambda item: (order.get(item[0][1], len(order)), item[0]))


def score_bins(max_score):
    """Histogram bin edges centred on whole points: one bar per possible integer score."""
    top = max(1, int(math.ceil(max_score or 0)))
    return [i - 0.5 for i in range(top + 2)]


def score_figure(summary):
    """The histogram of total scores: integer bins, integer ticks on both axes."""
    figure, axes = plt.subplots(figsize=(6, 3.5))
    top = summary["max_score"] or 1
    axes.hist(summary["scores"], bins=score_bins(top), edgecolor="black")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("score (out of %g)" % top)
    axes.set_ylabel("students")
    axes.set_title("%s: %d submission(s)" % (summary["name"], len(summary["scores"])))
    figure.tight_layout()
    return figure


def misconception_figure(summary):
    """A horizontal bar per misconception tag: how many students showed it (integer ticks)."""
    counts = summary["misconceptions"]
    figure, axes = plt.subplots(figsize=(7, 0.6 + 0.35 * max(1, len(counts))))
    tags = [tag for tag, _ in counts][::-1]
    axes.barh(tags, [n for _, n in counts][::-1], edgecolor="black")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("students")
    axes.set_title("%s: misconceptions shown by failed tests" % summary["name"])
    figure.tight_layout()
    return figure


def _save(figure, folder, name):
    os.makedirs(folder, exist_ok=True)
    target = os.path.join(folder, name)
    figure.savefig(target, dpi=100)
    plt.close(figure)
    return target


def histogram(summary, folder):
    return _save(score_figure(summary), folder, "%s_scores.png" % summary["name"])


def misconception_chart(summary, folder):
    return _save(misconception_figure(summary), folder, "%s_misconceptions.png" % summary["name"])


def format_summary(summary, lang="en"):
    """The summary's lines; with ``lang="zh"`` each misconception tag is followed by its Chinese
    name (``autograder.term.misconceptions.name_of``)."""
    scores = summary["scores"]
    lines = ["== %s  (max %g)" % (summary["name"], summary["max_score"])]
    if not scores:
        return lines + ["   no submissions"]
    lines.append("   %d submission(s): mean %.2f, median %.2f, min %g, max %g; %d with messages"
                 % (len(scores), statistics.mean(scores), statistics.median(scores),
                    min(scores), max(scores), summary["with_messages"]))
    width = max(len(name) for _, name in summary["tests"]) if summary["tests"] else 4
    lines.append("   %-*s  %6s  %6s  %s" % (width, "test", "points", "mean", "full marks"))
    for (_, name), entry in _in_order(summary):
        full = sum(1 for s in entry["scores"] if s >= entry["max"])
        lines.append("   %-*s  %6g  %6.2f  %d/%d (%.0f%%)" % (
            width, name, entry["max"], statistics.mean(entry["scores"]), full,
            len(entry["scores"]), 100.0 * full / len(entry["scores"])))
    counts = summary.get("misconceptions") or []
    if counts:
        lines.append("   most common misconceptions (students):")
        lines.extend(("   %4d  %s  %s" % (n, tag, name_of(tag, lang))).rstrip() for tag, n in counts)
    return lines


def report(config, assignments=None, plots=None, lang="en"):
    """The report as text; charts go to ``plots`` (default ``<state>/reports/``).

    An assignment with nothing graded is skipped, and the report says so.
    """
    plots = plots or state_dir(config, "reports")
    out, skipped = [], []
    with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        for assignment in sorted(gb.assignments, key=lambda a: a.name):
            if assignments and assignment.name not in assignments:
                continue
            summary = assignment_summary(gb, config, assignment)
            if not summary["scores"]:
                skipped.append(assignment.name)
                continue
            out += format_summary(summary, lang)
            out.append("   histogram: %s" % histogram(summary, plots))
            if summary["misconceptions"]:
                out.append("   misconceptions chart: %s" % misconception_chart(summary, plots))
    if skipped:
        out.append("skipped (nothing graded): %s" % ", ".join(skipped))
    return "\n".join(out) if out else "no assignments in the gradebook"

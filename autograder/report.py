"""``report``: how the class did, per assignment and per test, with a histogram.

For each assignment with submissions it prints the number of submissions and
the mean, median, lowest and highest score; then, for each test cell, its
points, its mean score and the share of students who got all its points (a
test almost nobody passes is worth a second look: a hard question or a wrong
test).  It also counts the submissions that came with autograder messages.
One PNG histogram of total scores per assignment is written with matplotlib
(Agg backend: no display needed).
"""

import os
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from nbgrader.api import Gradebook  # noqa: E402

from .course import db_url, path  # noqa: E402
from .export import messages  # noqa: E402


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
    return {"name": assignment.name, "max_score": assignment.max_score, "scores": scores,
            "tests": tests, "with_messages": with_messages}


def histogram(summary, folder):
    os.makedirs(folder, exist_ok=True)
    figure, axes = plt.subplots(figsize=(6, 3.5))
    top = summary["max_score"] or 1
    bins = [i * top / 10 for i in range(11)]
    axes.hist(summary["scores"], bins=bins, edgecolor="black")
    axes.set_xlabel("score (out of %g)" % top)
    axes.set_ylabel("students")
    axes.set_title("%s: %d submission(s)" % (summary["name"], len(summary["scores"])))
    target = os.path.join(folder, "%s_scores.png" % summary["name"])
    figure.tight_layout()
    figure.savefig(target, dpi=100)
    plt.close(figure)
    return target


def format_summary(summary):
    scores = summary["scores"]
    lines = ["== %s  (max %g)" % (summary["name"], summary["max_score"])]
    if not scores:
        return lines + ["   no submissions"]
    lines.append("   %d submission(s): mean %.2f, median %.2f, min %g, max %g; %d with messages"
                 % (len(scores), statistics.mean(scores), statistics.median(scores),
                    min(scores), max(scores), summary["with_messages"]))
    width = max(len(name) for _, name in summary["tests"]) if summary["tests"] else 4
    lines.append("   %-*s  %6s  %6s  %s" % (width, "test", "points", "mean", "full marks"))
    for (_, name), entry in sorted(summary["tests"].items()):
        full = sum(1 for s in entry["scores"] if s >= entry["max"])
        lines.append("   %-*s  %6g  %6.2f  %d/%d (%.0f%%)" % (
            width, name, entry["max"], statistics.mean(entry["scores"]), full,
            len(entry["scores"]), 100.0 * full / len(entry["scores"])))
    return lines


def report(config, assignments=None, plots=None):
    """The report as text; histograms go to ``plots`` (default autograder/reports/)."""
    plots = plots or path(config, "autograder", "reports")
    out = []
    with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        for assignment in sorted(gb.assignments, key=lambda a: a.name):
            if assignments and assignment.name not in assignments:
                continue
            summary = assignment_summary(gb, config, assignment)
            out += format_summary(summary)
            if summary["scores"]:
                out.append("   histogram: %s" % histogram(summary, plots))
    return "\n".join(out) if out else "no assignments in the gradebook"

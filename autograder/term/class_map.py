"""``report --predictions``: what share of the class held each misconception, chapter by chapter.

Read from the learners' first answers to the chapters' predictions
(:mod:`autograder.term.predictions`). Per chapter: how many learners
answered, the share of first answers that were right, and per misconception
the share of those learners whose first answers it printed. Then, per
misconception, what it predicts of the exercises: for each graded assignment,
the mean score (as a share of the maximum) of the learners who held it next
to that of the others who answered in the same chapter. A bar chart of the
shares is written with matplotlib, as the exercises' report does.
"""

import statistics

from nbgrader.api import Gradebook

from ..course import db_url, state_dir
from .predictions import class_beliefs, engine_of
from .report import _save, plt


def exercise_shares(config):
    """{assignment: {student: score / max}} for every graded submission."""
    out = {}
    with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        for assignment in gb.assignments:
            maximum = assignment.max_score or 0
            for sub in gb.assignment_submissions(assignment.name):
                if maximum:
                    out.setdefault(assignment.name, {})[sub.student.id] = max(
                        0.0, sub.score - sub.late_submission_penalty) / maximum
    return out


def beliefs_figure(beliefs):
    rows = [(chapter, model, len(held) / entry["learners"])
            for chapter, entry in beliefs.items() for model, held in entry["beliefs"].items()]
    figure, axes = plt.subplots(figsize=(8, 0.8 + 0.35 * max(1, len(rows))))
    labels = ["%s: %s" % (chapter.split("_", 1)[0], model) for chapter, model, _ in rows][::-1]
    axes.barh(labels, [100 * share for _, _, share in rows][::-1], edgecolor="black")
    axes.set_xlim(0, 100)
    axes.set_xlabel("% of the learners who answered in the chapter")
    axes.set_title("Misconceptions behind first answers to the predictions")
    figure.tight_layout()
    return figure


def predictions_report(config, plots=None):
    """The report as text; the chart goes to ``plots`` (default ``<state>/reports/``)."""
    beliefs = class_beliefs(engine_of(config))
    if not beliefs:
        return "no prediction answers have been shared yet"
    lines = []
    for chapter, entry in beliefs.items():
        lines.append("== %s: %d learner(s); %.0f%% of first answers right"
                     % (chapter, entry["learners"], 100 * entry["right_first"]))
        for model, held in entry["beliefs"].items():
            lines.append("   %3.0f%%  %s  (%d of %d)" % (100 * len(held) / entry["learners"], model,
                                                        len(held), entry["learners"]))
    scores = exercise_shares(config)
    predicts = []
    for chapter, entry in beliefs.items():
        for model, held in entry["beliefs"].items():
            for assignment, by_student in sorted(scores.items()):
                holders = [by_student[s] for s in held if s in by_student]
                others = [v for s, v in by_student.items() if s not in held]
                if holders and others:
                    predicts.append("   %s (%s) on %s: %.0f%% held it, %.0f%% the others"
                                    % (model, chapter.split("_", 1)[0], assignment,
                                       100 * statistics.mean(holders), 100 * statistics.mean(others)))
    if predicts:
        lines.append("== what each misconception predicts of the exercises (mean score)")
        lines += predicts
    if any(entry["beliefs"] for entry in beliefs.values()):
        lines.append("chart: %s" % _save(beliefs_figure(beliefs), plots or state_dir(config, "reports"),
                                         "predictions_misconceptions.png"))
    return "\n".join(lines)

"""Misconception tags: what each failed test caught, read back from the graded notebooks.

Every failure the checks raise ends with a line ``misconception: <tag>``
(``clone/shares-memory``, ``copy_/no-version-bump``...; see
``autograder/checks``), and so do the grader's own verdicts: a broken static
rule (``rules/calls-the-op``...) and tampering (``integrity/tampering``). The
tag of a test is the one in the *first* error of its graded cell, the error
that decided its score.

``export`` writes each student's tags; ``report`` counts, per assignment, how
many students showed each one, and draws the counts as a bar chart.
"""

import os
import re
from collections import Counter

import nbformat

from ..course import autograded_dir
from ..pipeline.language import misconception

TAG = re.compile(r"misconception: ([\w.\-]+/[\w.\-]+)")
TAMPERING_TAG = "integrity/tampering"


def _grade_id(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def _is_test(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution")


def tag_of(output):
    """The tag an error output carries, if any."""
    if output.get("output_type") != "error":
        return None
    if output.get("ename") == "TamperingDetected":
        return TAMPERING_TAG
    found = TAG.search(str(output.get("evalue", "")))
    return found.group(1) if found else None


def test_tags(nb):
    """``{test grade_id: tag}`` for each failed test cell whose deciding (first) error has a tag,
    in notebook order."""
    tags = {}
    for cell in nb.cells:
        if not _is_test(cell):
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors and tag_of(errors[0]):
            tags[_grade_id(cell)] = tag_of(errors[0])
    return tags


def student_tags(config, student, assignment):
    """The tags of one graded submission, each once, in notebook order ([] if not graded)."""
    folder = autograded_dir(config, student, assignment)
    path = os.path.join(folder, assignment + ".ipynb")
    if not os.path.exists(path):
        return []
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception:  # an unreadable graded notebook carries no tags
        return []
    return list(dict.fromkeys(test_tags(nb).values()))


def name_of(tag, lang="en"):
    """A tag's name in ``lang`` (the learner's Chinese name, ``autograder/locale/zh/autograder.po``);
    ``""`` in English, where the tag is its own name."""
    named = misconception(tag, lang) if lang != "en" else None
    return named[0] if named else ""


def class_counts(tags_by_student):
    """``[(tag, number of students), ...]``, most common first (ties by tag)."""
    counts = Counter(tag for tags in tags_by_student.values() for tag in set(tags))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

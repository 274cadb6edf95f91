"""Misconception tags: what each failed test caught, read back from the graded notebooks.

Every failure the checks raise ends with a line ``misconception: <tag>``
(``clone/shares-memory``, ``copy_/no-version-bump``...; see
``autograder/checks``; in a Chinese notebook ``误解标签：<tag>``, the tag itself
untranslated), and so do the grader's own verdicts: a broken static
rule (``rules/calls-the-op``...) and tampering (``integrity/tampering``). The
tag of a test is the one in the *first* error of its graded cell, the error
that decided its score.

That error was raised in the student's kernel, so its text may be the
student's own (an exception of theirs with a tag line in its message). A tag
is read only where a check or the grader writes it: the *last* line of an
``AssertionError`` or ``RuleBroken``, alone on that line; and only a tag the
checks define is kept, and of those only the ones of the check modules the
notebook's test cells (the gradebook's, never the student's) import, or the
grader's own (``rules/...``, ``integrity/tampering``).  Any other text is no
tag: the test is still failed, but the export and the report count nothing
for it.  Which tags the checks define is read from their source
(:func:`defined_tags`).

``export`` writes each student's tags; ``report`` counts, per assignment, how
many students showed each one, and draws the counts as a bar chart.
"""

import functools
import os
import re
from collections import Counter
from pathlib import Path

import nbformat

from ..course import autograded_dir
from ..judge.language import misconception, tag_prefixes

# the tag line in every language the judge writes it in ("misconception: ", "误解标签：")
_SAID = "(?:%s)" % "|".join(re.escape(prefix) for prefix in tag_prefixes())
TAG = re.compile(_SAID + r"([\w.\-]+/[\w.\-]+)")
TAG_ALONE = re.compile(_SAID + r"([\w.\-]+/[\w.\-]+)\Z")   # the whole last line, stripped
TAMPERING_TAG = "integrity/tampering"
TAGGED_ERRORS = ("AssertionError", "RuleBroken")   # a check's failure; a rule the grader applies

CHECKS = Path(__file__).resolve().parents[1] / "checks"
CHECKS_IMPORTED = re.compile(r"\bautograder\.checks\.([A-Za-z_]\w*)|\bfrom\s+autograder\.checks\s+import\s+"
                             r"\(?\s*([\w\s,]+)")

# how the checks write tags (see autograder/checks): a literal "topic/name", a topic module's
# _tag("name", ...), its tables of names and the tag = "name" of its messages file (<module>.toml),
# and the few names a check builds from a variable
_LITERAL = re.compile(r'"([a-z_.]+(?:-[a-z]+)*/[a-z0-9][a-z0-9\-]*)"')
_HYPHENATED = r"[a-z0-9]+(?:-[a-z0-9]+)+"
_BUILT = {"strides_and_views": [f"{op}-{what}" for op in ("slice", "transpose", "expand")
                                for what in ("offset", "size")],
          "target_network": ["ignores-tau", "ignores-lr"],
          "save_and_load": ["version"]}
# module: (the module whose tags it renames, old prefix, new prefix)
_DERIVED = {"data": ("detach", "detach/", "data/"), "new_tensor": ("new_tensor", "new_tensor/", "tensor/")}
_GENERIC = ("not-written", "raises", "not-a-tensor")    # _observe's f"{topic}/..." for every topic


def _module_tags(text):
    found = set(_LITERAL.findall(text))
    topic = re.search(r'^TOPIC = "([a-z_]+)"', text, re.M)
    if topic:
        # every string that is a hyphenated name: a tag may be chosen among several (a few
        # strings that are no tag come along; a tag left out would be dropped from the export)
        names = set(re.findall(r'_tag\(\s*"([a-z0-9\-]+)"', text))
        names |= set(re.findall(r'^tag = "([a-z0-9\-]+)"', text, re.M))
        names |= set(re.findall(r'"(%s)"' % _HYPHENATED, text))
        found |= {f"{topic.group(1)}/{n}" for n in names | set(_BUILT.get(topic.group(1), ()))}
    return found


@functools.lru_cache(maxsize=None)
def defined_tags():
    """``{check module: frozenset of tags}``: every tag each module of ``autograder/checks`` can end a
    failure with (read from its source and its messages file, as above), with the tags it takes over
    from another module (``data/`` from ``detach/``) and the generic ones of each of its topics."""
    texts = {path.stem: "".join(p.read_text(encoding="utf-8") for p in (path, path.with_suffix(".toml"))
                                if p.exists())
             for path in sorted(CHECKS.glob("*.py")) if not path.stem.startswith("_")}
    tags = {name: _module_tags(text) for name, text in texts.items()}
    for name, (source, old, new) in _DERIVED.items():
        tags[name] |= {t.replace(old, new) for t in tags.get(source, ()) if t.startswith(old)}
    for name, found in tags.items():
        found |= {f"{t.split('/')[0]}/{g}" for t in set(found) for g in _GENERIC}
    return {name: frozenset(found) for name, found in tags.items()}


@functools.lru_cache(maxsize=None)
def grader_tags():
    """The tags of the grader's own verdicts: each static rule's, and tampering."""
    from ..pipeline.static_rules import RULES

    return frozenset({"rules/" + rule for rule in RULES} | {TAMPERING_TAG})


def all_tags():
    """Every tag the checks or the grader can write."""
    return frozenset().union(grader_tags(), *defined_tags().values())


def checks_named(sources):
    """The check modules a list of cell sources import (``autograder.checks.clone``...)."""
    named = set()
    for source in sources:
        for module, listed in CHECKS_IMPORTED.findall(source if isinstance(source, str) else ""):
            named |= {module} if module else {n.strip() for n in listed.split(",") if n.strip()}
    return named & set(defined_tags())


def allowed_tags(nb):
    """The tags a graded notebook's tests may carry: the grader's, and those of the check modules
    its locked code cells import (the test and set-up cells, which the grader restored)."""
    sources = [cell.get("source", "") for cell in nb.cells
               if cell.get("cell_type") == "code" and cell.get("metadata", {}).get("nbgrader", {}).get("locked")]
    modules = checks_named(sources)
    return grader_tags().union(*(defined_tags()[m] for m in modules))


def _grade_id(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def _is_test(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution")


def tag_of(output, allowed=None):
    """The tag an error output carries, if any: the last line of a check's failure or a rule's
    error, when it is a tag in ``allowed`` (by default, any tag the checks or the grader write)."""
    if output.get("output_type") != "error":
        return None
    allowed = all_tags() if allowed is None else allowed
    if output.get("ename") == "TamperingDetected":
        return TAMPERING_TAG if TAMPERING_TAG in allowed else None
    if output.get("ename") not in TAGGED_ERRORS:
        return None
    lines = [line.strip() for line in str(output.get("evalue", "")).splitlines() if line.strip()]
    found = TAG_ALONE.match(lines[-1]) if lines else None
    return found.group(1) if found and found.group(1) in allowed else None


def test_tags(nb):
    """``{test grade_id: tag}`` for each failed test cell whose deciding (first) error has a tag,
    in notebook order."""
    tags, allowed = {}, allowed_tags(nb)
    for cell in nb.cells:
        if not _is_test(cell):
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        tag = tag_of(errors[0], allowed) if errors else None
        if tag:
            tags[_grade_id(cell)] = tag
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

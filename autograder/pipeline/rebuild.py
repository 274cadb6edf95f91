"""Rebuild a submission from its release: the student's answers in the instructor's notebook.

A student's notebook is never graded as handed in.  It is rebuilt, cell by
cell, from a *reference*: the release notebook's cells in their release
order, each with the content and nbgrader metadata the grader trusts (the
gradebook's, when grading; the release's own, in the learner's self-check).

* **Locked cells** (instructions, set-up, tests) always come from the
  reference, whatever the student did to them: edited, deleted, duplicated,
  moved or stripped of their metadata.
* **Answer cells** (nbgrader solution cells) and **plain cells** (cells of the
  release without nbgrader metadata, such as a "try it" cell) take only the
  *source* of the student's matching cell; type and metadata are the
  reference's.
* Cells the student **added**, and extra **copies** of a cell, are left out.

Every repair becomes a note in plain words (the caller shows them to the
student).

Which student cell is which (the matching rule, in this order):

1. its nbgrader ``grade_id``, when the reference has that id;
2. else its notebook cell id (nbformat's ``id``, which editors that drop
   nbgrader's metadata usually keep), for answer and plain cells, and for
   locked cells whose text is unchanged;
3. else, for a locked cell, its text: equal to exactly one locked cell of the
   release;
4. else its position: an answer or plain cell of the reference that is still
   unmatched takes the first unmatched student cell of the same type lying
   between the student's copies of the reference cells just before and just
   after it (e.g. the code cell under the exercise's heading).

Among several student cells matched to one answer or plain cell, the last one
whose text differs from the release is taken (the one a top-to-bottom run of
the student's notebook would define last); if none differs, the first.

**Other tools' files.** Line ends are read as any editor reads them: a cell
saved with Windows line ends (``\r\n``, as older JupyterLab on Windows wrote
them) is the same text as the release's, and its source is graded with
``\n``.  Outputs and attachments never reach the rebuilt notebook, and an
image embedded in a markdown cell as a ``data:`` URI (Colab pastes
screenshots so) is left out of it (``autograder.pipeline.graded_size``).

**Size cap.** An exercise's notebook holds about ten thousand characters of
text and code in a few dozen cells.  A submission with more than
``MAX_SOURCE_CHARS`` characters of cell source (not counting embedded
images), or more than ``MAX_CELLS`` cells, is not analysed at all (no matching, no static rules, no kernel): it
is rebuilt as the blank release, flagged ``not_graded`` with a note saying
why, so every test scores 0 and no one else's grading waits for it.  The
check itself is one linear pass.
"""

import copy
import dataclasses
import re

from nbformat import NotebookNode

from .graded_size import without_embedded_images
from ..judge.language import LANGUAGE_KEY, notebook_language

LOCKED, ANSWER, PLAIN = "locked", "answer", "plain"

MAX_NOTE_CHARS = 1000
MAX_CELLS_NAMED = 8
MAX_SOURCE_CHARS = 200_000  # twenty times the largest exercise of the course
MAX_CELLS = 500


@dataclasses.dataclass
class RefCell:
    """One cell of the reference, as the rebuilt notebook will hold it."""

    key: str          # grade_id, or "#<cell id>" / "#<position>" for a plain cell
    kind: str         # LOCKED, ANSWER or PLAIN
    cell: NotebookNode  # content and metadata to emit (answer/plain: source replaced)
    shown: str        # the text the student was given (the release's source)


def nbgrader_meta(cell):
    """A cell's nbgrader metadata, or ``{}`` (also when a student's JSON has the wrong shape)."""
    metadata = cell.get("metadata")
    meta = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    return meta if isinstance(meta, dict) else {}


def kind_of(cell):
    """nbgrader's own rule: solution cells are answers; grade or locked cells are locked."""
    meta = nbgrader_meta(cell)
    if not meta.get("grade_id"):
        return PLAIN
    if meta.get("solution"):
        return ANSWER
    if meta.get("grade") or meta.get("locked"):
        return LOCKED
    return PLAIN


def reference_from_release(release_nb):
    """The reference the learner's self-check uses: the release, trusted as it is."""
    cells = []
    for position, cell in enumerate(release_nb.cells):
        kind = kind_of(cell)
        key = nbgrader_meta(cell).get("grade_id") if kind != PLAIN else None
        cells.append(RefCell(key or "#%s" % (cell.get("id") or position), kind,
                             copy.deepcopy(cell), cell.source))
    return cells


def clean_text(text):
    """A cell source as a str that can be written as UTF-8 (lone surrogates replaced), with ``\n``
    line ends (Windows' ``\r\n`` and old Macs' ``\r`` read as Python and every editor read them)."""
    if isinstance(text, list):
        text = "".join(str(part) for part in text)
    if not isinstance(text, str):
        text = ""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


def first_line(text, width=60):
    line = next((part.strip() for part in clean_text(text).splitlines() if part.strip()), "")
    return repr(line if len(line) <= width else line[:width] + "...")


def _claims(cells, reference):
    """Steps 1-3 of the rule: ``claims[i]`` is the reference index student cell ``i`` is, or None."""
    by_key = {ref.key: n for n, ref in enumerate(reference)}
    by_id = {}
    for n, ref in enumerate(reference):
        if ref.cell.get("id"):
            by_id[ref.cell.id] = n
    locked_text = {}
    for n, ref in enumerate(reference):
        if ref.kind == LOCKED and ref.shown.strip():
            locked_text.setdefault(ref.shown.strip(), []).append(n)
    claims = []
    for cell in cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        text = clean_text(cell.get("source", "")).strip()
        found = by_key.get(grade_id) if isinstance(grade_id, str) else None
        cell_id = cell.get("id")
        if found is None and isinstance(cell_id, str) and cell_id in by_id:
            n = by_id[cell_id]
            if reference[n].kind != LOCKED or text == reference[n].shown.strip():
                found = n
        if found is None and len(locked_text.get(text, [])) == 1:
            found = locked_text[text][0]
        claims.append(found)
    return claims


def _place_by_position(cells, reference, claims):
    """Step 4: unmatched answer/plain cells take unclaimed student cells between their neighbours."""
    first_at = {}
    for i, n in enumerate(claims):
        if n is not None:
            first_at.setdefault(n, i)
    for n, ref in enumerate(reference):
        if ref.kind == LOCKED or n in first_at:
            continue
        before = max((first_at[m] for m in first_at if m < n), default=-1)
        after = min((first_at[m] for m in first_at if m > n), default=len(cells))
        for i in range(before + 1, after):
            if claims[i] is None and cells[i].get("cell_type") == ref.cell.cell_type:
                claims[i] = n
                first_at[n] = i
                break


def _new_cell(ref, source):
    cell = copy.deepcopy(ref.cell)
    cell.source = source
    if cell.cell_type == "code":
        cell.outputs = []
        cell.execution_count = None
    return cell


def _grader_metadata(nb):
    """The ``autograder`` notebook metadata the grader set, reduced to known, bounded fields."""
    state = nb.get("metadata", {}).get("autograder")
    if not isinstance(state, dict):
        return {}
    kept = {}
    messages = state.get("messages")
    if isinstance(messages, list):
        kept["messages"] = [clean_text(str(m))[:2000] for m in messages[:50]]
    for key in ("unreadable", "not_graded"):
        if state.get(key):
            kept[key] = clean_text(str(state[key]))[:2000]
    return kept


def _source_chars(cell):
    source = cell.get("source", "")
    if isinstance(source, list):
        source = "".join(line for line in source if isinstance(line, str))
    if not isinstance(source, str):
        return 0
    return len(without_embedded_images(source) if cell.get("cell_type") == "markdown" else source)


def oversize(cells):
    """Why ``cells`` are too large to be an exercise (a sentence), or ``None``; linear time."""
    if len(cells) > MAX_CELLS:
        return ("your notebook has %d cells, more than an exercise needs (the grader reads at "
                "most %d); it was not graded" % (len(cells), MAX_CELLS))
    total = 0
    for cell in cells:
        total += _source_chars(cell)
        if total > MAX_SOURCE_CHARS:
            return ("your notebook holds more than %d characters of code and text, more than an "
                    "exercise needs; it was not graded" % MAX_SOURCE_CHARS)
    return None


def _language_metadata(nb, submitted):
    """The submission's language mark (``autograder.language``), carried over as data: the
    feedback of a Chinese exercise is written in Chinese. Only a known language is kept."""
    lang = notebook_language(submitted)
    if lang != "en":
        nb.metadata[LANGUAGE_KEY] = {"language": lang}
    else:
        nb.metadata.pop(LANGUAGE_KEY, None)
    return nb


def rebuild(submitted, reference, notebook_metadata):
    """``(notebook, notes)``: ``submitted`` rebuilt on ``reference`` (a list of RefCell).

    ``notebook_metadata`` is the metadata the rebuilt notebook gets (the
    release's: kernelspec, language); the grader's own ``autograder`` entry of
    the submitted notebook is carried over, and so is its language mark.
    """
    cells = submitted.get("cells")
    cells = [c for c in cells if isinstance(c, dict)] if isinstance(cells, list) else []
    too_big = oversize(cells)
    if too_big:  # the blank release, flagged: nothing of it is analysed or run
        nb = NotebookNode(nbformat=4, nbformat_minor=5, metadata=copy.deepcopy(notebook_metadata),
                          cells=[_new_cell(ref, ref.shown) for ref in reference])
        nb.metadata["autograder"] = dict(_grader_metadata(submitted), not_graded=too_big)
        return _language_metadata(nb, submitted), []
    claims = _claims(cells, reference)
    _place_by_position(cells, reference, claims)
    notes = []
    if cells and not any(nbgrader_meta(c).get("grade_id") for c in cells) and any(
            ref.kind != PLAIN for ref in reference):
        notes.append("the notebook had lost its nbgrader metadata (saved by another editor?); "
                     "its cells were matched to the assignment by cell id, text and position")
    out = []
    for n, ref in enumerate(reference):
        mine = [i for i, claim in enumerate(claims) if claim == n]
        if ref.kind == LOCKED:
            out.append(_new_cell(ref, ref.cell.source))
            notes += _locked_notes(ref, [cells[i] for i in mine], notebook_language(submitted))
            continue
        changed = [i for i in mine
                   if clean_text(cells[i].get("source", "")).strip() != ref.shown.strip()]
        chosen = changed[-1] if changed else (mine[0] if mine else None)
        if chosen is None:
            out.append(_new_cell(ref, ref.shown))
            if ref.kind == ANSWER:
                notes.append("your answer cell %s was not found; the empty cell from the "
                             "release was graded in its place" % ref.key)
            continue
        source = clean_text(cells[chosen].get("source", ""))
        out.append(_new_cell(ref, without_embedded_images(source) if ref.cell.cell_type == "markdown"
                             else source))
        if ref.kind == ANSWER and cells[chosen].get("cell_type") != ref.cell.cell_type:
            notes.append("your answer cell %s had been changed to a %s cell; it was graded as a %s "
                         "cell" % (ref.key, cells[chosen].get("cell_type"), ref.cell.cell_type))
        if ref.kind == ANSWER and len(mine) > 1:
            notes.append("your answer cell %s appeared %d times; cell %d was graded and the other "
                         "copies were left out" % (ref.key, len(mine), chosen + 1))
    added = [i for i, claim in enumerate(claims) if claim is None]
    if added:
        named = ", ".join("cell %d (%s)" % (i + 1, first_line(cells[i].get("source", "")))
                          for i in added[:MAX_CELLS_NAMED])
        more = " and %d more" % (len(added) - MAX_CELLS_NAMED) if len(added) > MAX_CELLS_NAMED else ""
        notes.append("cells you added are not part of the assignment and were not run: %s%s; "
                     "code the tests need belongs in the answer cells" % (named, more))
    nb = NotebookNode(nbformat=4, nbformat_minor=5, metadata=copy.deepcopy(notebook_metadata),
                      cells=out)
    state = _grader_metadata(submitted)
    if state:
        nb.metadata["autograder"] = state
    return _language_metadata(nb, submitted), [note[:MAX_NOTE_CHARS] for note in notes]


def _locked_notes(ref, copies, lang="en"):
    """What the learner is told about a locked cell. A translated exercise (``lang`` not English)
    holds its markdown in its own language: that is not an edit (the release's cell is restored)."""
    if not copies:
        if ref.cell.cell_type == "code" and nbgrader_meta(ref.cell).get("grade"):
            return ["the test cell %s was missing (deleted, or its metadata removed); it was put "
                    "back and run" % ref.key]
        return ["the cell %s was missing (deleted, or its metadata removed); it was put back"
                % ref.key]
    notes = []
    translated = lang != "en" and ref.cell.cell_type == "markdown"
    if not translated and any(clean_text(c.get("source", "")).strip() != ref.shown.strip() for c in copies):
        notes.append("the locked cell %s was edited; the original was restored and run" % ref.key)
    if len(copies) > 1:
        notes.append("the locked cell %s appeared %d times; it was run once" % (ref.key, len(copies)))
    claimed = nbgrader_meta(copies[0])
    wanted = nbgrader_meta(ref.cell)
    if claimed.get("grade_id") and wanted.get("grade") and claimed.get("points") is not None:
        try:
            if float(claimed["points"]) != float(wanted.get("points", 0)):
                notes.append("the points of cell %s were changed; they were restored" % ref.key)
        except (TypeError, ValueError):
            notes.append("the points of cell %s were changed; they were restored" % ref.key)
    return notes


def without_hidden_tests(source, begin="BEGIN HIDDEN TESTS", end="END HIDDEN TESTS"):
    """The source as released: every line from one with ``begin`` to the next with ``end``
    (both included) left out; a region without its end runs to the end of the cell."""
    kept, hidden = [], False
    for line in source.split("\n"):
        if begin in line:
            hidden = True
        elif end in line:
            hidden = False
        elif not hidden:
            kept.append(line)
    return "\n".join(kept)

"""The bank: what learners hand in, and how grading must answer each submission.

The entries are data, one TOML file an assignment in ``tests/exercises/bank/`` (and
``blind_spots.toml``); this module reads them (see docs/decisions/0033-data-tables-are-data-files.md).

Four kinds of entries, each replacing some solution cells of one assignment
(every other solution cell holds the instructor's solution):

* ``wrong``: an honest attempt built on a misconception, taken from the wrong
  claims of the tutorials the course answers (paraphrased) or from classic
  mistakes, including every blind spot issue 13 lists (``blind_spot``: the
  device, ``.grad``, version counters, a refused op's destination, attribute
  identity, deepcopy's memo, float64 models, parameter memory).
* ``cheat``: code that tries to get the points without doing the work: calling
  the op itself, patching torch, the copy module, the checks or the old tamper
  check, lying subclasses. The op called by name is stopped by the static rule
  ``calls-the-op``; everything else gains nothing because every assignment is
  judged (``autograder.judge``): the wrong answer the cheat hides is observed as
  it is and scores 0 on the checks' own tags. Several cheats take, on purpose, the
  way past the static rules of reaching a check function's module globals through
  ``getattr`` with a computed name (``"__glo" + "bals__"``), and real torch through them.
* ``honest``: a correct answer in an unusual style; it must keep full marks
  (the static rules must never reject it).
* ``stub``: the untouched release (``cells = "release"``): "not written yet".

``fails`` maps every test cell that must score 0 to the tag its error must carry (a
misconception tag such as ``clone/keeps-offset``, or the rule's ``rules/calls-the-op``);
every other test cell must keep its full points, so a check cannot blame the wrong belief.

A cell is either the learner's code, or a table ``{replace = [[old, new], ...]}``: the
instructor's solution cell, read from ``solutions/``, with each ``old`` replaced by ``new``
(``mutate`` refuses an ``old`` that no longer occurs, so such an entry cannot drift from the
solution silently).
"""

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

RELEASE = "release"   # cells: use the released notebook's solution cells (the stub)
APPENDED = "+end"     # a key of cells: a cell the learner added after the last one

HERE = Path(__file__).resolve().parent
SOLUTIONS = HERE.parents[1] / "solutions"

ALL_TESTS = {
    "clone": ("clone-layout", "clone-memory", "clone-metadata", "clone-strides", "clone-graph", "clone-no-grad", "clone-version"),
    "detach": ("detach-memory", "detach-metadata", "detach-graph", "detach-version", "detach-clone-copy",
               "detach-clone-graph", "data-alias", "data-version"),
    "new_tensor": ("new-tensor-copy", "new-tensor-dtype", "new-tensor-graph", "tensor-from-tensor"),
    "copy_into": ("copy-values", "copy-version", "copy-graph", "copy-leaf-rules"),
    "python_copy": ("copy-alias", "copy-autograd", "deepcopy-copy", "deepcopy-memo", "deepcopy-non-leaf"),
    "model_snapshot": ("snapshot-survives", "snapshot-plain", "restore"),
    "strides_and_views": ("sv-strides", "sv-positions", "sv-slice", "sv-transpose", "sv-expand"),
    "numpy_bridge": ("nb-from-numpy", "nb-as-tensor", "nb-numpy"),
    "save_and_load": ("sl-bytes", "sl-compact", "sl-rebuild"),
    "target_network": ("tn-make", "tn-update", "tn-train"),
}
NEWER = ("strides_and_views", "numpy_bridge", "save_and_load", "target_network")


@dataclass(frozen=True)
class Entry:
    name: str
    assignment: str
    kind: str                      # "wrong", "cheat", "honest" or "stub"
    about: str                     # the misconception, the cheat, or the style
    cells: object                  # {solution grade_id: code}, or RELEASE
    fails: dict = field(default_factory=dict)   # test grade_id -> piece of its error message
    blind_spot: str = ""

    def tags(self):
        """The misconception tags the graded notebook must show, in test order."""
        return list(dict.fromkeys(self.fails[test] for test in ALL_TESTS[self.assignment] if test in self.fails))


def reference(assignment, grade_id):
    """The instructor's code of one solution cell, without nbgrader's markers."""
    nb = nbformat.read(str(SOLUTIONS / assignment / f"{assignment}.ipynb"), as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return "\n".join(line for line in cell.source.splitlines()
                             if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")) + "\n"
    raise KeyError(grade_id)


def mutate(assignment, grade_id, *pairs):
    """``{grade_id: the reference with each (old, new) replaced}``; every ``old`` must occur."""
    code = reference(assignment, grade_id)
    for old, new in zip(pairs[::2], pairs[1::2]):
        assert old in code, f"{assignment}/{grade_id}: {old!r} is not in the solution any more"
        code = code.replace(old, new)
    return {grade_id: code}


def _cells(assignment, cells):
    if cells == RELEASE:
        return RELEASE
    code = {}
    for grade_id, cell in cells.items():
        if isinstance(cell, str):
            code[grade_id] = cell
        else:
            code.update(mutate(assignment, grade_id, *(text for pair in cell["replace"] for text in pair)))
    return code


def load(stem):
    """The entries of ``bank/<stem>.toml``, in file order, and the file's other keys."""
    with open(HERE / "bank" / f"{stem}.toml", "rb") as f:
        table = tomllib.load(f)
    entries = [Entry(e["name"], e["assignment"], e["kind"], e["about"], _cells(e["assignment"], e["cells"]),
                     e.get("fails", {}), e.get("blind_spot", "")) for e in table.pop("entry")]
    return entries, table


SECTIONS = {stem: load(stem)[0] for stem in ALL_TESTS}
BLIND_SPOT_ENTRIES, _blind = load("blind_spots")
BLIND_SPOT_CATEGORIES = tuple(_blind["categories"])
NEW_BANK = [e for stem in NEWER for e in SECTIONS[stem]]
BANK = [e for entries in SECTIONS.values() for e in entries] + BLIND_SPOT_ENTRIES

"""Grade many wrong versions of one assignment in a single Jupyter kernel.

Starting a kernel and importing torch costs about two seconds, so the mutants
of one assignment share a kernel. For each mutant the runner appends, to one
notebook, exactly what nbgrader would execute for a submission: every code cell
of the solution notebook in order (setup cells, test cells with their hidden
tests), with the solution cell replaced by the mutant's code. A cell before
each mutant deletes every public name defined since the kernel started, so
nothing one mutant defines is seen by the next (``%reset -f`` does the same but
costs half a second each time). The notebook runs once in a real kernel (nbclient), and a
test cell counts as failed exactly when nbgrader would give it 0: it raised, or
it wrote to stderr.

Code cells without nbgrader metadata ("try it" scratch cells) are left out:
nbgrader never grades them.
"""

from dataclasses import dataclass

import nbformat
from nbclient import NotebookClient

from nbgrader_course import SOLUTIONS, read_notebook


_BASELINE = "_names_before_any_mutant = set(globals())"
_RESET = (
    "for _name in set(globals()) - _names_before_any_mutant:\n"
    "    if not _name.startswith('_'):\n"
    "        del globals()[_name]"
)


@dataclass
class CellResult:
    failed: bool
    message: str


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _outcome(cell):
    errors = [o for o in cell.outputs if o.output_type == "error"]
    stderr = [o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stderr"]
    if errors:
        return CellResult(True, f"{errors[0].ename}: {errors[0].evalue}")
    if stderr:
        return CellResult(True, "wrote to stderr: " + "".join(stderr))
    return CellResult(False, "")


def run_mutants(assignment, replacements):
    """Grade each ``{solution grade_id: code}`` in ``replacements``.

    Returns, for each entry, ``{test grade_id: CellResult}``.
    """
    source = read_notebook(SOLUTIONS / assignment / f"{assignment}.ipynb")
    graded_cells = [c for c in source.cells if c.cell_type == "code" and _grade_id(c)]
    big = nbformat.v4.new_notebook()
    big.metadata = source.metadata
    where = []  # (mutant index, test grade_id, cell index)
    big.cells.append(nbformat.v4.new_code_cell(_BASELINE))
    for index, replacement in enumerate(replacements):
        unknown = set(replacement) - {_grade_id(c) for c in graded_cells}
        assert not unknown, f"no solution cell with grade_id {unknown} in {assignment}"
        big.cells.append(nbformat.v4.new_code_cell(_RESET))
        for cell in graded_cells:
            code = replacement.get(_grade_id(cell), cell.source)
            if cell.metadata["nbgrader"].get("grade"):
                where.append((index, _grade_id(cell), len(big.cells)))
            big.cells.append(nbformat.v4.new_code_cell(code))
    NotebookClient(big, kernel_name="python3", allow_errors=True, timeout=300).execute()
    results = [{} for _ in replacements]
    for index, grade_id, cell_index in where:
        results[index][grade_id] = _outcome(big.cells[cell_index])
    return results

"""Feedback for students that shows their scores and errors but no hidden test.

nbgrader 0.9 puts the hidden tests back into every autograded notebook and
its feedback HTML shows them (by design, see jupyter/nbgrader#917; there is
no option to hide them).  ``HideHiddenTests`` runs in nbgrader's
GenerateFeedback pipeline (configured in ``nbgrader_config.py``), before the
HTML is written.  In each cell with a ``### BEGIN HIDDEN TESTS`` region it

* removes the region from the source and says that hidden tests ran there;
* shortens each error output to its last line (``AssertionError: the copy
  must not share memory``): the message the instructor wrote stays, the
  traceback, which quotes the test's source lines, goes.

The score of the cell is read by GetGrades from the gradebook, not from the
source, so it is unchanged.
"""

from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests
from traitlets import Bool

from .course import source_assignments

HIDDEN_NOTE = "# (hidden tests ran here; their code is not shown)"


class HideHiddenTests(ClearHiddenTests):

    enforce_metadata = Bool(False)

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type != "code" or self.begin_test_delimeter not in cell.source:
            return cell, resources
        self._remove_hidden_test_region(cell)
        cell.source = (cell.source.rstrip() + "\n" + HIDDEN_NOTE).lstrip("\n")
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                output.traceback = ["%s: %s" % (output.ename, output.evalue)]
        return cell, resources


def generate_feedback(config, assignments=None, student=None):
    """HTML feedback for every autograded submission of ``assignments`` (default: all).

    Returns ``{assignment: success}``; nbgrader's log is printed on failure.
    """
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    results = {}
    for assignment in assignments or source_assignments(config):
        result = api.generate_feedback(assignment, student, force=True)
        results[assignment] = result["success"]
        if not result["success"]:
            print(result.get("log", "") + result.get("error", ""))
    return results

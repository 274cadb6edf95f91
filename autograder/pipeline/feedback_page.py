"""The feedback page's steps in nbgrader's GenerateFeedback pipeline (``nbgrader_config.py``).

nbgrader 0.9 puts the hidden tests back into every autograded notebook and
its feedback HTML shows them (by design, see jupyter/nbgrader#917; there is
no option to hide them).  ``HideHiddenTests``, before the HTML is written,
in each cell with a ``### BEGIN HIDDEN TESTS`` region

* removes the region from the source and says that hidden tests ran there;
* shortens each error output to its last line (``AssertionError: the copy
  must not share memory``): the message the instructor wrote stays, the
  traceback, which quotes the test's source lines, goes.

The score of the cell is read by GetGrades from the gradebook, not from the
source, so it is unchanged.  ``NameTests`` names every test by its grade id
and the heading above it, for the course's template
(``autograder/templates/autograder_feedback``, through ``FeedbackExporter``).
"""

from nbconvert.exporters import HTMLExporter
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Unicode

from .language import N_, error_message, gettext, notebook_language
from .cell_names import grade_id, test_name
from .rebuild import without_hidden_tests


class FeedbackExporter(HTMLExporter):
    """nbgrader's HTML exporter under a name of its own, so the course's feedback template
    (``c.FeedbackExporter.template_name``) applies to feedback and not to formgrader."""


class NameTests(Preprocessor):
    """``resources["test_names"]``: each graded cell's grade id and the heading above it."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        resources["test_names"] = {grade_id(cell): test_name(nb.cells, index)
                                   for index, cell in enumerate(nb.cells) if grade_id(cell)}
        return nb, resources

HIDDEN_NOTE = N_("# (hidden tests ran here; their code is not shown)")


class HideHiddenTests(Preprocessor):
    """Each hidden-test region out of the source, each error cut to its last line."""

    enabled = Bool(True)
    begin_test_delimeter = Unicode("BEGIN HIDDEN TESTS").tag(config=True)   # nbgrader's names
    end_test_delimeter = Unicode("END HIDDEN TESTS").tag(config=True)

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type != "code" or self.begin_test_delimeter not in cell.source:
            return cell, resources
        cell.source = without_hidden_tests(cell.source, self.begin_test_delimeter, self.end_test_delimeter)
        cell.source = (cell.source.rstrip() + "\n" + HIDDEN_NOTE).lstrip("\n")
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                output.traceback = ["%s: %s" % (output.ename, output.evalue)]
        return cell, resources


class SpeakTheNotebooksLanguage(Preprocessor):
    """The page in the submission's own language (``autograder.language``: the notebook's
    metadata says it, as data, so one class can mix languages).

    ``resources["words"]``: the page frame's words for the template; each error output of a
    graded cell: a check's failure in that language (the misconception's name and explanation,
    the evidence), any other error in its own English words followed by a line in that language.
    The graded notebook itself is not changed: the class report reads its English tags."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        lang = notebook_language(nb)
        resources["words"] = {"score": gettext(N_("Score"), lang),
                              "comment_on": gettext(N_("Comment on {0}"), lang),
                              "late_penalty": gettext(N_("Late submission penalty"), lang)}
        resources["language"] = lang
        if lang == "en":
            return nb, resources
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            cell.source = cell.source.replace(HIDDEN_NOTE, gettext(HIDDEN_NOTE, lang))
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    output.traceback = error_message(output.ename, output.evalue, lang).split("\n")
        return nb, resources

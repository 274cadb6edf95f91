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

import json
import os

from nbconvert.exporters import HTMLExporter
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Unicode

from ..judge.language import N_, gettext, notebook_language
from .language import error_message, line
from .notes import MESSAGES_FILE, markdown_text
from .cell_names import grade_id, test_name
from .learner_code import is_test_cell
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


WORDS = {  # the page frame's words (our template and the nbgrader blocks it overrides)
    "score": N_("Score"),
    "comment_on": N_("Comment on {0}"),
    "late_penalty": N_("Late submission penalty"),
    "top": N_("(Top)"),
    "answer": N_("Student's answer"),
    "task": N_("Student's task"),
    "grade_cell": N_("Grade cell:"),
    "task_cell": N_("Task:"),
    "comments": N_("Comments:"),
}
NOTES_HEADING = "**Autograder notes**"   # autograder.pipeline.notes.notes_markdown
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def prose_catalog(roots, lang, assignment):
    """``{(cell id#paragraph, English): translation}`` of an exercise's prose catalog
    (``course/locale/<lang>/exercises/<assignment>.po``) in the first of ``roots`` that has it."""
    from coursebook.translate.notebook import translations

    import polib

    for root in roots:
        path = os.path.join(root, "course", "locale", lang, "exercises", assignment + ".po")
        if os.path.isfile(path):
            return translations(polib.pofile(path))
    return {}


class SpeakTheNotebooksLanguage(Preprocessor):
    """The page in the submission's own language (``autograder.pipeline.language``: the notebook's
    metadata says it, as data, so one class can mix languages).

    * ``resources["words"]``: the page frame's words for the template;
    * each error output: a test cell's verdict as the judge wrote it (already in that language,
      ``autograder.judge.language``), the grader's own errors translated, any other error in
      its own English words followed by a line in that language;
    * the exercise's prose (the release's markdown, which the rebuild restored) from the
      exercise's translation catalog, paragraph by paragraph, as the translated exercise has it
      (an untranslated paragraph stays English).

    The graded notebook itself is not changed: the class report reads its tags in either
    language."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        lang = notebook_language(nb)
        resources["words"] = {key: gettext(text, lang) for key, text in WORDS.items()}
        resources["language"] = lang
        if lang == "en":
            return nb, resources
        prose = self._prose(lang, resources)
        self._notes(nb, lang, resources)
        for cell in nb.cells:
            if cell.cell_type == "markdown" and prose:
                cell.source = self._translated(cell, prose)
            if cell.cell_type != "code":
                continue
            cell.source = cell.source.replace(HIDDEN_NOTE, gettext(HIDDEN_NOTE, lang))
            judged = is_test_cell(cell)   # its outputs are the judge's, already in the notebook's language
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    output.traceback = error_message(output.ename, output.evalue, lang, judged).split("\n")
        return nb, resources

    @staticmethod
    def _notes(nb, lang, resources):
        """The autograder's notes cell (``autograder.kernels.execute``) rewritten from the notes
        themselves (``messages.json`` beside the graded notebook), each in ``lang``."""
        if not nb.cells or nb.cells[0].cell_type != "markdown" or \
                not nb.cells[0].source.startswith(NOTES_HEADING):
            return
        folder = (resources.get("metadata") or {}).get("path") or ""
        try:
            with open(os.path.join(folder, MESSAGES_FILE), encoding="utf-8") as f:
                messages = json.load(f)
        except (OSError, ValueError):
            return
        if not isinstance(messages, list):
            return
        nb.cells[0].source = ("**%s**\n\n" % gettext(N_("Autograder notes"), lang)
                              + "\n".join("- " + markdown_text(line(str(m), lang)) for m in messages))

    def _prose(self, lang, resources):
        assignment = (resources.get("nbgrader") or {}).get("assignment")
        if not assignment:
            return {}
        from nbgrader.coursedir import CourseDirectory

        roots = [CourseDirectory(config=self.config).root, REPO]
        try:
            return prose_catalog(roots, lang, assignment)
        except Exception as error:  # no catalog library, a broken catalog: the prose stays English
            self.log.warning("no %s prose for %s: %s", lang, assignment, error)
            return {}

    @staticmethod
    def _translated(cell, prose):
        from coursebook.translate.paragraphs import join, split, translatable

        paragraphs, separators = split(cell.source)
        for index, text in enumerate(paragraphs):
            if translatable(text):
                paragraphs[index] = prose.get((f"{cell.get('id')}#{index}", text), text)
        return join(paragraphs, separators)

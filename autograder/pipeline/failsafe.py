"""When grading one notebook fails anyway: a kept traceback, a 0 with a reason, feedback.

nbgrader runs each submission through its preprocessors inside an exporter.
If one of them raises (a grader bug, a notebook nobody foresaw), stock
nbgrader deletes the student's graded folder, logs the traceback to a
terminal nobody keeps, and leaves the student without a grade or feedback.

``FailSafeExporter`` (configured as ``Autograde.exporter_class``) is
nbgrader's notebook exporter with one difference: when the preprocessors
raise, it

1. appends the traceback, with the time, student, assignment and notebook, to
   ``grading_error.log`` in the student's graded folder
   (``autograder/autograded/<student>/<assignment>/``, git-ignored; it is
   never copied into feedback), which outlives the run;
2. runs the same preprocessors again on the notebook marked ``not_graded``:
   the rebuild then uses the release without the student's code, and
   ``GuardedExecute`` runs nothing and gives every test 0 with the reason.

So the gradebook gets a 0, the graded notebook opens with a note saying the
autograder failed on this notebook and that the instructor has the details,
and feedback is written as for everyone else.  Database errors and
interruptions are not caught (they are not about one notebook); if the
second pass fails too, the error goes to nbgrader as before.
"""

import copy
import datetime
import os
import traceback

from nbconvert.exporters import NotebookExporter
from nbgrader.coursedir import CourseDirectory
from sqlalchemy.exc import OperationalError

LOG_FILE = "grading_error.log"


def log_path(config, student, assignment):
    cd = CourseDirectory(config=config)
    return os.path.join(cd.root, cd.autograded_directory, student, assignment, LOG_FILE)


class FailSafeExporter(NotebookExporter):

    def from_notebook_node(self, nb, resources=None, **kw):
        try:
            return super().from_notebook_node(nb, resources, **kw)
        except OperationalError:
            raise
        except Exception as error:
            details, kind = traceback.format_exc(), type(error).__name__
            if getattr(error, "student_note", None):  # a failure that knows its cause, in words
                kind = "%s: %s" % (kind, error.student_note)
        info = (resources or {}).get("nbgrader", {})
        where = self._write_log(info, details)
        self.log.error("grading %s/%s failed; traceback kept in %s",
                       info.get("student"), info.get("assignment"), where)
        fallback = copy.deepcopy(nb)
        fallback.metadata["autograder"] = dict(fallback.metadata.get("autograder") or {})
        fallback.metadata["autograder"]["not_graded"] = (
            "the autograder failed on this notebook (%s), so no test was run; your instructor "
            "has the details and can regrade it" % kind)
        return super().from_notebook_node(fallback, resources, **kw)

    def _write_log(self, info, details):
        path = log_path(self.config, info.get("student", "unknown"), info.get("assignment", "unknown"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        with open(path, "a", encoding="utf-8", errors="replace") as f:
            f.write("%s  student %s, assignment %s, notebook %s\n%s\n"
                    % (stamp, info.get("student"), info.get("assignment"), info.get("notebook"),
                       details))
        return path

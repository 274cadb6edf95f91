"""nbgrader configuration for the course.

nbgrader reads this file only from the current directory, so run nbgrader
from autograder/ (or pass --NbGrader.config_file=autograder/nbgrader_config.py).
Paths are anchored at the repository root:

    solutions/<assignment>/            source notebooks with solutions and hidden tests
    exercises/<assignment>/            student versions (committed, generated)
    autograder/submitted/<student>/<assignment>/     collected submissions   (git-ignored)
    autograder/autograded/<student>/<assignment>/    graded copies           (git-ignored)
    autograder/feedback/<student>/<assignment>/      feedback HTML           (git-ignored)
    autograder/gradebook.db                          SQLite gradebook        (git-ignored)
"""

import os

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

c.CourseDirectory.course_id = "tensor-copies"
c.CourseDirectory.root = REPO
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
c.CourseDirectory.submitted_directory = os.path.join("autograder", "submitted")
c.CourseDirectory.autograded_directory = os.path.join("autograder", "autograded")
c.CourseDirectory.feedback_directory = os.path.join("autograder", "feedback")
c.CourseDirectory.db_url = "sqlite:///" + os.path.join(HERE, "gradebook.db")

# --- grading hardening (see autograder/README.md, "How grading is made safe") ---
# Sanitize: first rebuild the submission on the release, with the gradebook's cells and
# metadata (answers by grade_id; duplicates and added cells left out; each repair noted),
# then nbgrader's own list, which now always sees a well-formed notebook.
c.Autograde.sanitize_preprocessors = [
    "autograder.sanitize.RebuildFromRelease",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# A notebook whose grading raises anyway: traceback kept in grading_error.log beside the
# graded notebook, every test 0 with the reason, feedback as usual (autograder/failsafe.py).
c.Autograde.exporter_class = "autograder.failsafe.FailSafeExporter"
# Autograde: nbgrader's list, with Execute replaced by GuardedExecute (warnings on
# stdout, timeouts and watchdog, dead kernels, output cap, tampering check). Each of
# its kernels runs in a bubblewrap sandbox (autograder/grading_kernels.py: needs root
# and bwrap); for trusted notebooks only: --GradingKernelManager.unsandboxed=True
# Also: the exercises' static rules checked before it runs and scored after it
# (autograder/static_rules.py), and the student's variant seed set for the kernel
# (autograder/variants.py).
c.Autograde.autograde_preprocessors = [
    "autograder.static_rules.CheckRules",
    "autograder.variants.AssignVariant",
    "autograder.execute.GuardedExecute",
    "autograder.truncate.TruncateOutputs",
    "autograder.static_rules.ScoreRuleViolations",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.Execute.timeout = 30                     # seconds per cell, then interrupt
c.GuardedExecute.notebook_timeout = 300    # seconds per notebook, then kill the kernel
c.GuardedExecute.max_output_chars = 100_000
c.TruncateOutputs.max_chars = 10_000         # per error message/traceback and result field
# Feedback: nbgrader's list plus a step that removes hidden-test source (scores
# and error messages stay).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.feedback.HideHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
# nbgrader's exchange (only used with `nbgrader release_assignment`/`collect` on a
# shared JupyterHub): kept inside the course, git-ignored.
c.Exchange.root = os.path.join(HERE, "exchange")

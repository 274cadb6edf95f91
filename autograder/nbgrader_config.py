"""nbgrader configuration for the course.

nbgrader reads this file only from the current directory or Jupyter's config
path (its --config option is ignored), so run nbgrader from autograder/, or
let `python -m autograder` do it (`python -m autograder lab` puts this folder
on JUPYTER_CONFIG_PATH so formgrader finds it). Paths:

    solutions/<assignment>/            source notebooks with solutions and hidden tests
    exercises/<assignment>/            student versions (committed, generated)
    <state>/submitted/<student>/<assignment>/    collected submissions
    <state>/autograded/<student>/<assignment>/   graded copies
    <state>/feedback/<student>/<assignment>/     feedback HTML
    <state>/gradebook.db                         SQLite gradebook

<state> is the course-state folder: autograder/state/ (git-ignored) unless the
environment variable AUTOGRADER_STATE names another. AUTOGRADER_ROOT names
another course root than this repository, and AUTOGRADER_COURSE_ID another
course id than tensor-copies (a hub with several courses).
"""

import os
from importlib.util import find_spec

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.environ.get("AUTOGRADER_ROOT") or os.path.dirname(HERE))
STATE = os.path.abspath(os.environ.get("AUTOGRADER_STATE") or os.path.join(REPO, "autograder", "state"))
# nbgrader joins these to the root: relative when the state folder is inside it
STATE_BASE = (os.path.relpath(STATE, REPO) if os.path.commonpath([REPO, STATE]) == REPO else STATE)

c.CourseDirectory.course_id = os.environ.get("AUTOGRADER_COURSE_ID") or "tensor-copies"
c.CourseDirectory.root = REPO
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
c.CourseDirectory.submitted_directory = os.path.join(STATE_BASE, "submitted")
c.CourseDirectory.autograded_directory = os.path.join(STATE_BASE, "autograded")
c.CourseDirectory.feedback_directory = os.path.join(STATE_BASE, "feedback")
c.CourseDirectory.db_url = "sqlite:///" + os.path.join(STATE, "gradebook.db")

# --- grading hardening (see autograder/README.md, "How grading is made safe") ---
# Sanitize: first rebuild the submission on the release, with the gradebook's cells and
# metadata (answers by grade_id; duplicates and added cells left out; each repair noted),
# then nbgrader's own list, which now always sees a well-formed notebook. nbgrader's
# OverwriteKernelspec and OverwriteCells are left out: the rebuilt notebook already has the
# gradebook's kernelspec and, in every graded or locked cell, the gradebook's type, source,
# points, lock and checksum, which is all they would write (each a gradebook query per cell).
c.Autograde.sanitize_preprocessors = [
    "autograder.pipeline.submission.CollectorNotes",
    "autograder.pipeline.sanitize.RebuildFromRelease",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "autograder.pipeline.cell_metadata.CheckCellMetadata",
]
# A notebook is validated once, after the last step of a pipeline, not after each of them.
c.Exporter.optimistic_validation = True
# A notebook whose grading raises anyway: traceback kept in grading_error.log beside the
# graded notebook, every test 0 with the reason, feedback as usual (autograder/pipeline/failsafe.py);
# a file that is no notebook: the release in its place, flagged (autograder/pipeline/submission.py).
c.Autograde.exporter_class = "autograder.pipeline.submission.SubmissionExporter"
# Autograde: nbgrader's list, with Execute replaced by GuardedExecute (warnings on
# stdout, timeouts and watchdog, dead kernels, output cap, the judge). Each of
# its kernels runs in a bubblewrap sandbox (autograder/kernels/grading_kernels.py: needs root
# and bwrap); for trusted notebooks only: --GradingKernelManager.unsandboxed=True
# Also: the exercises' static rules checked before it runs and scored after it
# (autograder/pipeline/static_rules.py), and the student's variant seed set for the kernel
# (autograder/pipeline/variants.py).
c.Autograde.autograde_preprocessors = [
    "autograder.pipeline.static_rules.CheckRules",
    "autograder.pipeline.variants.AssignVariant",
    "autograder.kernels.execute.GuardedExecute",
    "autograder.pipeline.truncate.TruncateOutputs",
    "autograder.pipeline.static_rules.ScoreRuleViolations",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "autograder.pipeline.cell_metadata.CheckCellMetadata",
    "autograder.pipeline.inert.InertGradedOutputs",
]
# The last step above (autograder/pipeline/inert.py): once the scores are saved, every output of the graded
# notebook keeps only its text and images; HTML, JavaScript, widgets, SVG, markdown outputs and
# output metadata are dropped, so nothing a student's kernel produced runs in formgrader or in
# feedback. Every HTML page (formgrader's, feedback's) does it again as it renders, and also shows
# the HTML of a student's markdown answer as text, then lets nbconvert sanitise what is left.
c.HTMLExporter.preprocessors = ["autograder.pipeline.inert.InertOutputs"]
# The notebook's language mark (autograder/judge/language.py: a Chinese exercise says "zh") survives the
# metadata clearing above, so the feedback step reads each submission's language as data.
c.ClearMetadataPreprocessor.preserve_nb_metadata_mask = {("language_info", "name"), ("coursebook", "language")}
c.HTMLExporter.sanitize_html = True
# Due dates (ISO 8601; UTC when no offset is given), per assignment, written into the gradebook by
# `generate` and `autograde`; an assignment without one is never late. Submission times
# come from `collect` (the inbox's file times, or the LMS manifest's). The penalty is
# nbgrader's AssignLatePenalties step above with our plugin (autograder/term/late.py):
# percent_per_day of the score for each started day late, at most the whole score.
c.DueDates.dates = {}                  # set per term in <state>/term_config.py (below)
c.AssignLatePenalties.plugin_class = "autograder.term.late.LatePenalty"
c.LatePenalty.percent_per_day = 10.0
c.LatePenalty.grace_minutes = 0.0
c.Execute.timeout = 30                     # seconds per cell, then interrupt
c.GuardedExecute.notebook_timeout = 300    # seconds per notebook, then kill the kernel
# One output budget per cell (autograder/pipeline/output_budget.py), held while the cell runs
# (GuardedExecute) and once it has run (TruncateOutputs).
c.OutputBudget.max_stream_chars = 100_000    # printed and displayed, as it arrives
c.OutputBudget.max_chars = 10_000            # per error message/traceback and result field
# Feedback: nbgrader's list plus a step that removes hidden-test source (scores
# and error messages stay).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.pipeline.feedback_page.HideHiddenTests",
    "autograder.pipeline.feedback_page.SpeakTheNotebooksLanguage",
    "autograder.pipeline.feedback_page.NameTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
# The page: the course's template (autograder/templates/autograder_feedback), built on
# nbgrader's: every test named in the summary, table borders, nothing from the network.
c.GenerateFeedback.exporter_class = "autograder.pipeline.feedback_page.FeedbackExporter"
c.FeedbackExporter.template_name = "autograder_feedback"
# nbgrader's own templates, found without importing it: the learner's Binder image has no
# nbgrader, and its self-check reads this file too (it never renders feedback).
NBGRADER = find_spec("nbgrader")
if NBGRADER is not None:
    NBGRADER_TEMPLATES = os.path.join(os.path.dirname(NBGRADER.origin), "server_extensions", "formgrader")
    c.FeedbackExporter.extra_template_basedirs = [os.path.join(HERE, "templates"),
                                                  os.path.join(NBGRADER_TEMPLATES, "templates")]
    # ours extends "feedback/index.html.j2" (nbgrader's), found from here; bootstrap.min.css is inlined
    c.FeedbackExporter.extra_template_paths = [
        os.path.join(NBGRADER_TEMPLATES, "templates"),
        os.path.join(NBGRADER_TEMPLATES, "static", "node_modules", "bootstrap", "dist", "css"),
    ]
# What arrives before nbgrader reads a submission (autograder/pipeline/submission.py), the same for
# `python -m autograder autograde` and plain `nbgrader autograde`: a lone notebook saved under another
# name is graded under the assignment's (a copy, with a note; above: the collector's notes become
# messages, a file that is no notebook is replaced by the flagged release and never run).
# Named by its dotted path (nbgrader imports it when it grades), so that reading this file imports
# neither nbgrader nor nbconvert: the hub's command and its predictions service read it at each start.
if NBGRADER is not None:
    c.Autograde.pre_convert_hook = "autograder.pipeline.submission.graded_under_its_name"
# Formgrader's grading page: formgrader renders it with a plain HTMLExporter whose template
# (nbgrader's "formgrade") it sets itself, over this file; the template file is ours, built on
# it, with MathJax from the lab (jupyter_server_mathjax) instead of a CDN, so manual grading
# works offline. Feedback keeps its own template's index.
c.HTMLExporter.template_file = os.path.join(HERE, "templates", "formgrader", "formgrade_offline.html.j2")
c.FeedbackExporter.template_file = "index.html.j2"
# nbgrader's exchange (only used with `nbgrader release_assignment`/`collect` on a
# shared JupyterHub): kept inside the course, git-ignored.
c.Exchange.root = os.environ.get("AUTOGRADER_EXCHANGE") or os.path.join(STATE, "exchange")

# The term's own settings (due dates, a different late penalty...): a configuration file
# of the same kind in the course-state folder, read last, so it overrides this one.
load_subconfig("term_config.py", path=STATE)  # noqa: F821  (provided by traitlets; a missing file is fine)

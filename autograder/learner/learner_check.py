"""The learner's self-check: run a saved exercise notebook, score its visible tests.

No instructor, no gradebook and no nbgrader are needed: the notebook is
rebuilt on its release (``autograder.pipeline.rebuild``, the same rule the grader
applies), run in a fresh kernel (nbclient) in the grader's order (every cell
but the test code first, then the tests), and every test cell
(an nbgrader "autograded tests" cell) is judged as the grader judges it
(``autograder.judge``: the test runs here, the kernel only answers what the
learner's functions do) and scored the way nbgrader scores it: full points
when it ran without an error, 0 when it raised.  Warnings do not cost points
(see ``autograder.witness.setup``).

The reference for the rebuild is the release notebook of the same assignment
in the course's ``exercises/`` folder (found by the notebook's name, else by
the cell ids only that assignment has).  When the notebook checked *is* that
release file (a learner working in place), the release as committed in git
(``git show HEAD:...``) is used; without git, the notebook is its own
reference, and a test cell whose checksum shows it was edited (text or
points) scores 0 (line ends do not count: a file saved with Windows line ends
holds the same test).  The grader's size limits apply alike: a notebook too
large as graded (``autograder.pipeline.graded_size``: outputs and embedded
images do not count) is reported, not run.  So duplicated, deleted or metadata-stripped cells are
handled as the grader handles them, and the points are the release's: a cell
claiming 100 points still counts its real 2.

The learner's cells run as written, as in the grader; ``calls-the-op`` and syntax
errors cost the same tests (``autograder.pipeline.static_rules``). The kernel
starts in the same kind of empty folder,
with the same ``NBGRADER_EXECUTION`` variable, as the grader's: nothing tells
a learner's code which of the two runs it.

Two limits keep the check from hanging: a cell running longer than
``timeout`` seconds is interrupted; a cell that ignores the interrupt, or a
notebook running longer than ``notebook_timeout`` seconds, has its kernel
killed, and the tests after it are reported as not run.

Two ways in:

* ``python -m autograder check exercises/clone/clone.ipynb`` prints the score
  and the messages and exits with status 1 when a test fails (``nbgrader
  validate`` exits 0 even then), 0 when all pass.
* ``from autograder import self_check; self_check()`` as the last cell of an
  exercise notebook does the same for the notebook it sits in, as saved on
  disk.  While nbgrader (or a self-check) runs that notebook, it only prints
  one line, so grading never recurses.

The released notebooks hold only the visible tests; the instructor's grader
also runs hidden ones, so a full self-check score is necessary, not sufficient.
"""

import copy
import functools
import glob
import os
import shutil
import signal
import subprocess
import threading

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import run_sync

from ..judge.language import N_, gettext, notebook_language
from ..pipeline.language import line
from ..kernels.check_sandbox import kernel_sandboxed, sandboxed_client_options
from ..course import course_config, path as course_path
from ..kernels.kernel_folder import empty_kernel_folder
from ..judge import JUDGED_ASSIGNMENTS
from ..judge.serving import judge_cell
from ..judge.test_cell import TestNames, run_instructor_cell
from .results import CheckResult, TestResult, result_to_data
from ..kernels.kernel_setup import KERNEL_ARGUMENTS
from ..witness import stubs
from ..witness.setup import kernel_arguments as witness_arguments
from ..pipeline.graded_size import MAX_FILE_BYTES, MAX_GRADED_BYTES, graded_bytes, mib
from ..pipeline.learner_code import cells_of_test_code
from ..pipeline.releases import match_by_ids
from ..pipeline.rebuild import LOCKED, RefCell, clean_text, nbgrader_meta, rebuild, reference_from_release

# The kernel sees the variable nbgrader sets when it grades, with the same value: nothing in the
# environment tells a self-check from the grader (and a learner's cell cannot read it anyway).
GRADING_ENV = {"NBGRADER_EXECUTION": "autograde"}


def is_test_cell(cell):
    """A code cell nbgrader grades automatically: ``grade`` and not ``solution``."""
    meta = nbgrader_meta(cell)
    return cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution")


def _last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def score_test_cell(cell, lang="en"):
    """``(points, message)`` for an executed test cell, by nbgrader's rule (the message in ``lang``;
    an error's is the judge's, already written in the notebook's language).

    An ``error`` output or anything on stderr gives 0; an ``execute_result``
    that reads as a number gives that many points (partial credit, capped at
    the cell's points); otherwise all the points.
    """
    max_points = float(nbgrader_meta(cell).get("points", 0))
    for output in cell.get("outputs", []):
        if output.output_type == "error":
            return 0.0, ("%s: %s" % (output.ename, output.evalue)).strip(": ")
        if output.output_type == "stream" and output.name == "stderr":
            return 0.0, gettext(N_("wrote to stderr: {0}"), lang).format(_last_line(output.text))
        if output.output_type == "execute_result":
            try:
                value = float(output.data.get("text/plain", ""))
            except ValueError:
                return max_points, ""
            return min(max(value, 0.0), max_points), gettext(N_("partial credit"), lang)
    return max_points, ""


# -- the reference --------------------------------------------------------------------------

def _release_notebooks(root):
    """``{assignment: path}`` of the release notebooks of the course at ``root``."""
    config = course_config(root)
    folder = course_path(config, config.CourseDirectory.release_directory)
    found = {}
    for candidate in sorted(glob.glob(os.path.join(folder, "*", "*.ipynb"))):
        name = os.path.basename(os.path.dirname(candidate))
        if os.path.basename(candidate) == name + ".ipynb":
            found[name] = candidate
    return found


def _committed_version(path):
    """The notebook at ``path`` as committed in git (HEAD), or None."""
    try:
        shown = subprocess.run(["git", "show", "HEAD:./" + os.path.basename(path)],
                               cwd=os.path.dirname(path), capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if shown.returncode != 0:
        return None
    try:
        return nbformat.reads(shown.stdout.decode("utf-8"), as_version=4)
    except Exception:  # not a notebook in HEAD
        return None


def _release_name(path, nb, releases):
    """The assignment of ``releases`` a notebook belongs to: by its file name, else (when ``nb`` is
    given) by the cell ids only that release has; None when neither tells."""
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem in releases or nb is None:
        return stem if stem in releases else None
    loaded = {}
    for a, candidate in releases.items():
        try:
            loaded[a] = nbformat.read(candidate, as_version=4)
        except Exception:
            continue
    return match_by_ids(nb, loaded)


def find_reference(path, nb, release=None, root=None):
    """``(reference notebook or None, how it was found)`` for the notebook ``nb`` at ``path``."""
    if release:
        return nbformat.read(release, as_version=4), "the release %s" % release
    releases = _release_notebooks(root)
    name = _release_name(path, nb, releases)
    if name is None:
        return None, N_("no release of this notebook's assignment was found")
    candidate = releases[name]
    if os.path.exists(path) and os.path.samefile(candidate, path):
        committed = _committed_version(path)
        if committed is None:
            return None, N_("this is the release file itself and git has no committed version of it")
        return committed, "the release as committed in git"
    return nbformat.read(candidate, as_version=4), "the release %s" % candidate


def _own_reference(nb):
    """The notebook as its own reference: one cell per grade id; edited tests marked."""
    try:
        from nbgrader.utils import compute_checksum  # optional: only to spot edited tests
    except ImportError:
        compute_checksum = None
    reference, seen, edited = [], set(), set()
    for ref in reference_from_release(nb):
        if ref.key in seen:
            continue
        seen.add(ref.key)
        meta = nbgrader_meta(ref.cell)
        if (compute_checksum and ref.kind == LOCKED and is_test_cell(ref.cell)
                and "checksum" in meta and compute_checksum(_as_generated(ref.cell)) != meta["checksum"]):
            edited.add(ref.key)
        reference.append(RefCell(ref.key, ref.kind, ref.cell, ref.shown))
    return reference, edited


def _as_generated(cell):
    """A cell with ``\n`` line ends, as nbgrader generated it and computed its checksum: a file saved
    with Windows line ends holds the same test (``autograder.pipeline.rebuild.clean_text``)."""
    cell = copy.deepcopy(cell)
    cell.source = clean_text(cell.source)
    return cell


# -- running ----------------------------------------------------------------------------------

class LearnerClient(NotebookClient):
    """nbclient, with a kernel that is killed when it ignores an interrupt or runs too long."""

    def __init__(self, nb, notebook_timeout, assignment=None, **kwargs):
        super().__init__(nb, **kwargs)
        self.notebook_timeout = notebook_timeout
        self.assignment = assignment
        self.judged = assignment in JUDGED_ASSIGNMENTS   # the tests run here, as the grader's judge does
        self.lang = notebook_language(nb)   # what it reports is written in it
        self.test_names = TestNames()
        self.test_code = None    # the cells run after every other one
        self.stopped = None  # why the rest of the notebook did not run
        self.interrupted = []
        self._watchdog_fired = False

    async def async_start_new_kernel_client(self):
        result = await super().async_start_new_kernel_client()
        if self.notebook_timeout:
            self._watchdog = threading.Timer(self.notebook_timeout, self._watchdog_kill)
            self._watchdog.daemon = True
            self._watchdog.start()
        return result

    def _watchdog_kill(self):
        self._watchdog_fired = True
        self.kill_kernel()

    def kill_kernel(self):
        pid = getattr(getattr(self.km, "provisioner", None), "pid", None)
        if pid is None:
            return
        try:
            if os.getpgid(pid) == pid:  # jupyter_client starts kernels in their own session
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    async def async_execute(self, reset_kc=False, **kwargs):
        try:
            return await super().async_execute(reset_kc=reset_kc, **kwargs)
        finally:  # the kernel is shut down by now (a killed one quietly: TolerantKernelManager)
            watchdog = getattr(self, "_watchdog", None)
            if watchdog is not None:
                watchdog.cancel()
            folder = getattr(self, "kernel_folder", None)
            if folder:
                shutil.rmtree(os.path.dirname(folder), ignore_errors=True)

    # nbclient binds ``execute`` to its own ``async_execute`` when its class is made: bound again
    # here, ``execute()`` runs the clean-up above (the watchdog stopped, the kernel's folder removed)
    execute = run_sync(async_execute)

    def create_kernel_manager(self):
        """As the grader's: a witness kernel (no torch, no checks) for a judged assignment."""
        km = super().create_kernel_manager()
        if km.has_trait("witness"):
            km.witness = self.judged
            km.reftorch_stubs = (self.judged and stubs.build(self.assignment)) or ""
        return km

    async def async_start_new_kernel(self, **kwargs):
        # the same empty folder as the grader's kernels: no notebook, no path that tells them apart
        self.kernel_folder = empty_kernel_folder(self.assignment)
        kwargs["cwd"] = self.kernel_folder
        return await super().async_start_new_kernel(**kwargs)

    async def async_execute_cell(self, cell, cell_index, execution_count=None,
                                 store_history=True):
        """As the grader: every cell but the test code in notebook order, then the test code
        (``autograder.pipeline.learner_code.cells_of_test_code``), each test's outputs in its own place."""
        if self.test_code is None:
            self.test_code = cells_of_test_code(self.nb)
        result = cell
        if cell_index not in self.test_code:
            result = await self._execute_in_order(cell, cell_index, store_history)
        if cell_index == len(self.nb.cells) - 1:
            for later in self.test_code:
                await self._execute_in_order(self.nb.cells[later], later, store_history)
        return result

    async def _execute_in_order(self, cell, cell_index, store_history):
        execution_count = self.code_cells_executed + 1
        if self.stopped:
            return cell
        if self.judged and cell_index in self.test_code:
            return await self._judge(cell, cell_index)
        try:
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)
        except CellTimeoutError:
            self.stopped = gettext(N_("cell {0} did not stop when interrupted after {1} s; the check stopped "
                                      "its kernel"), self.lang).format(cell_index + 1, self.timeout)
            self.kill_kernel()
        except DeadKernelError:
            self._kernel_died(cell_index)
        return cell

    async def _judge(self, cell, cell_index):
        """A test cell judged here (``autograder.judge``), the import of the checks run here, anything
        else of the test code (the self-check's own call) not run: exactly what the grader does."""
        if not is_test_cell(cell):
            cell.outputs = run_instructor_cell(cell.source, self.test_names)
            return cell
        try:
            cell.outputs, _ = await judge_cell(self, cell.source, self.test_names, None, self.timeout or 60)
            cell.execution_count = self.code_cells_executed + 1
        except DeadKernelError:
            self.kill_kernel()
            self._kernel_died(cell_index)
        return cell

    def _kernel_died(self, cell_index):
        """Why the rest did not run: the watchdog stopped the kernel, or it died, in this cell."""
        if self._watchdog_fired:
            self.stopped = gettext(N_("the notebook ran longer than {0} s; the check stopped its kernel "
                                      "in cell {1}"), self.lang).format(self.notebook_timeout, cell_index + 1)
        else:
            self.stopped = gettext(N_("the kernel died in cell {0} (os._exit, a crash, or too much "
                                      "memory)"), self.lang).format(cell_index + 1)

    def on_cell_executed(self, **kwargs):
        reply = kwargs.get("execute_reply") or {}
        if reply.get("content", {}).get("ename") == "CellTimeoutError":
            self.interrupted.append(gettext(N_("cell {0} ran longer than {1} s and was interrupted"), self.lang)
                                    .format(kwargs["cell_index"] + 1, self.timeout))


def check(path, timeout=60, notebook_timeout=300, release=None, root=None, sandboxed=None, warm=False):
    """Rebuild the notebook at ``path`` on its release, run it in a fresh kernel, score its tests.

    ``sandboxed``: run the kernel in the grader's sandbox (None: whenever this machine has one,
    and refuse someone else's notebook when it has none; see ``autograder.kernels.check_sandbox``).
    ``warm``: fork the sandboxed kernel from this process's zygote, as the grader's warm workers
    do (torch already imported; a new kernel and sandbox all the same)."""
    path = os.path.abspath(path)
    shown = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:   # the grader's limits (autograder.pipeline.graded_size), applied alike
            return CheckResult(shown, [], [N_("the file is {0}, over the {1} a notebook file may be: the grader "
                                              "would not read it").format(mib(size), mib(MAX_FILE_BYTES))])
        nb = nbformat.read(path, as_version=4)
    except FileNotFoundError:
        return CheckResult(shown, [], [N_("no such notebook: {0}").format(path)])
    except Exception as error:  # nbformat raises several kinds for a broken file
        return CheckResult(shown, [], [N_("not a readable notebook ({0})").format(str(error).splitlines()[0])])
    graded = graded_bytes(nb)
    if graded > MAX_GRADED_BYTES:
        return CheckResult(shown, [], [N_("the notebook is {0} without its outputs and embedded images, over the "
                                          "grader's limit of {1}: it would not be collected")
                                       .format(mib(graded), mib(MAX_GRADED_BYTES))])
    lang = notebook_language(nb)
    reference_nb, how = find_reference(path, nb, release, root)
    problems, edited = [], set()
    if reference_nb is None:
        reference, edited = _own_reference(nb)
        metadata = copy.deepcopy(nb.metadata)
    else:
        reference = reference_from_release(reference_nb)
        metadata = copy.deepcopy(reference_nb.metadata)
    metadata.pop("autograder", None)
    rebuilt, notes = rebuild(nb, reference, metadata)
    notes = [line(note, lang) for note in notes]   # the rebuild's notes are the grader's, in English
    rebuilt.metadata.pop("autograder", None)
    env = dict(os.environ, **GRADING_ENV)
    assignment = _assignment_of(path, reference_nb, release, root)
    costs = _rule_costs(rebuilt, assignment)
    if sandboxed is None:
        sandboxed = kernel_sandboxed(path, root=root)
    options = sandboxed_client_options(sandboxed)
    if warm and sandboxed:
        options = {"kernel_manager_class": _warm_manager_class()}
    client = LearnerClient(rebuilt, notebook_timeout, assignment, timeout=timeout, kernel_name="python3",
                           **options,
                           allow_errors=True, interrupt_on_timeout=True,
                           error_on_timeout={"ename": "CellTimeoutError",
                                             "evalue": "interrupted after %s s" % timeout},
                           raise_on_iopub_timeout=True, iopub_timeout=5,
                           extra_arguments=witness_arguments(stubs.build(assignment))
                           if assignment in JUDGED_ASSIGNMENTS
                           else KERNEL_ARGUMENTS,
                           resources={"metadata": {"path": os.path.dirname(path)}})
    try:
        client.execute(env=env, stderr=subprocess.DEVNULL)
    except DeadKernelError:
        client.stopped = client.stopped or gettext(N_("the kernel died while starting"), lang)
    problems += client.interrupted
    if client.stopped:
        problems.append(gettext(N_("{0}; tests after that point did not run"), lang).format(client.stopped))
    tests = []
    for cell in rebuilt.cells:
        if is_test_cell(cell):
            grade_id = nbgrader_meta(cell).get("grade_id", "?")
            points, message = score_test_cell(cell, lang)
            if not cell.get("outputs") and cell.get("execution_count") is None:
                points, message = 0.0, gettext(N_("did not run"), lang)
            rule = costs.get(grade_id)
            if rule:   # the static rules, as the grader applies them (autograder.pipeline.static_rules)
                points, message = 0.0, "%s: %s" % rule
            if grade_id in edited:
                points, message = 0.0, gettext(N_("this test cell was edited (text or points); the "
                                                  "instructor's grader runs the original"), lang)
            tests.append(TestResult(grade_id, points, float(nbgrader_meta(cell).get("points", 0)),
                                    message))
    if not tests:
        problems.append(gettext(N_("no test cells found: is this an exercise notebook?"), lang))
    if reference_nb is None and tests:
        notes.append(gettext(N_("checked against itself ({0}): deleted tests cannot be restored"), lang)
                     .format(gettext(how, lang)))
    return CheckResult(shown, tests, problems, notes, lang)


def check_data(path, root=None, warm=False):
    """:func:`check` of the notebook at ``path``, as data (``results.result_to_data``); a refusal (someone
    else's notebook where there is no sandbox) is an answer too, as the result's problem."""
    try:
        result = check(path, root=root, warm=warm)
    except Exception as error:
        result = CheckResult(path, [], ["%s: %s" % (type(error).__name__, error)])
    return result_to_data(result)


@functools.lru_cache(maxsize=None)
def _warm_manager_class():
    from traitlets import Bool

    from ..kernels.grading_kernels import GradingKernelManager

    class WarmGradingKernelManager(GradingKernelManager):
        """The grader's kernel manager with ``warm`` on: kernels forked from the zygote."""

        warm = Bool(True).tag(config=True)

    return WarmGradingKernelManager


def _assignment_of(path, reference_nb, release, root):
    """The assignment the notebook is (whose rules and judge apply): the release's folder name."""
    if release:
        return os.path.basename(os.path.dirname(os.path.abspath(release)))
    return _release_name(path, reference_nb, _release_notebooks(root))


def _rule_costs(nb, assignment):
    """{test grade_id: (error name, message)} for calls-the-op and cells that are not Python."""
    from ..pipeline.static_rules import find_violations   # the same analysis as the grader's CheckRules
    costs = {}
    for violation, tests in find_violations(nb, assignment):
        for test in tests:
            costs.setdefault(test, (violation.ename(), violation.text()))
    return costs

"""``GuardedExecute``: nbgrader's Execute preprocessor, hardened for a whole class.

nbgrader runs each submission top to bottom in a kernel and scores the test
cells from their outputs.  Stock, one bad submission can stop the run or fake
a pass.  This subclass keeps nbgrader's scoring and adds:

* warnings printed on stdout, not stderr (``autograder.kernels.kernel_setup``), so a
  ``UserWarning`` from ``torch.tensor(t)`` never costs a test its points;
* a per-cell timeout (nbgrader's ``Execute.timeout``) and a whole-notebook
  watchdog (``notebook_timeout``) that kills a kernel which ignores the
  interrupt; a cell that does not stop when interrupted ends the run too;
* a kernel that dies (``os._exit``, a segfault, the watchdog) ends the run for
  that notebook only: the cell where it happened and every test cell not run yet get
  an error output that says why, so they score 0, and tests already run keep theirs;
* each cell held to one ``OutputBudget`` (``autograder.pipeline.output_budget``): printed
  output capped while it arrives (``autograder.kernels.output_cap``; nbgrader's LimitOutput
  only cuts lines afterwards, and one line can be megabytes), errors and results cut to a
  bounded size as the cell finishes (``autograder.pipeline.truncate``); errors and results
  are never dropped, so the score is unchanged;
* for an assignment of ``autograder.judge.JUDGED_ASSIGNMENTS`` (all of the course's), the
  test code never reaches the kernel: the judge runs each test cell in this process and asks
  the kernel (the witness) only what the learner's functions do; the kernel holds no torch,
  no check and no test, so nothing in it decides a grade.  Any other assignment's test cells
  run in the kernel, as stock nbgrader runs them (in the sandbox all the same);
* the learner's cells (and the instructor's set-up) run first, in notebook order, then the
  test code (``autograder.pipeline.learner_code.cells_of_test_code``); each test cell's
  outputs stay in its own place, so nbgrader scores it as before.  So every learner cell runs
  while the kernel's CPU use is counted (a burner is demoted, ``kernels/cgroups.py``), and
  every test asks about the notebook's final definitions;
* the kernel starts in an empty folder named after the assignment (the
  self-check does the same): no notebook, no hidden test, nothing that tells
  the grader from the self-check;
* a notebook the collector could not read, or one whose grading raised
  (``autograder.pipeline.failsafe``), flagged in its metadata, is not run at all:
  every test cell gets an error output with the reason.

Every such event is also written, in plain words, to ``messages.json`` next to
the graded notebook and shown, escaped as plain text (``autograder.pipeline.notes``), in
a markdown cell at its top (so in feedback).
"""

import ast
import json
import os
import shutil
import signal
import threading
import time

from nbclient.util import ensure_async, run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.v4 import new_markdown_cell, new_output
from nbgrader.preprocessors import Execute
from traitlets import Integer, List, Unicode, default

from ..judge import JUDGED_ASSIGNMENTS
from ..judge.serving import judge_cell
from ..judge.test_cell import TestNames, run_instructor_cell
from ..witness import stubs
from ..witness.setup import kernel_arguments as witness_arguments
from .kernel_folder import empty_kernel_folder
from ..pipeline.cell_names import describe
from .grading_kernels import GradingKernelManager
from ..pipeline.learner_code import cells_of_test_code, is_test_cell
from .kernel_setup import KERNEL_ARGUMENTS, SETUP_SECONDS_EXPRESSION
from ..pipeline.notes import MESSAGES_FILE, notes_markdown
from ..pipeline.output_budget import OutputBudget
from ..pipeline.truncate import TruncateOutputs
from .output_cap import INTERRUPT, OutputCap
from ..pipeline.variants import RESOURCE as VARIANT_RESOURCE

# Hands a kernel its student's variant seed before the first cell (autograder.checks.use_variant).
VARIANT_EXPRESSION = "__import__('autograder.checks').checks.use_variant(%r)"


# One record per notebook run in this process: where its time went (seconds).
TIMINGS = []


def _values(user_expressions):
    """``{name: value}`` of the user_expressions a kernel evaluated without an error (each value is
    read back from its ``repr`` with ``ast.literal_eval``: data only, nothing runs)."""
    values = {}
    for name, result in user_expressions.items():
        if isinstance(result, dict) and result.get("status") == "ok":
            try:
                values[name] = ast.literal_eval(result["data"]["text/plain"])
            except (KeyError, TypeError, ValueError, SyntaxError, MemoryError, RecursionError):
                pass
    return values


def add_error(cell, ename, evalue):
    """Give ``cell`` an error output, which makes nbgrader score it 0."""
    output = new_output("error", ename=ename, evalue=evalue, traceback=["%s: %s" % (ename, evalue)])
    cell.setdefault("outputs", []).append(output)


class GuardedExecute(Execute):

    notebook_timeout = Integer(
        300, help="Seconds a whole notebook may run before its kernel is killed."
    ).tag(config=True)

    shutdown_kernel = Unicode("immediate").tag(config=True)

    extra_arguments = List(KERNEL_ARGUMENTS).tag(config=True)

    judged = List(list(JUDGED_ASSIGNMENTS), help="Assignments whose test cells the judge runs in this process "
                  "against torch, asking the student's kernel (the witness) only what the learner's functions "
                  "do (autograder.judge); the others run their tests in the kernel.").tag(config=True)

    @default("kernel_name")
    def _kernel_name_default(self):
        return "python3"

    def __init__(self, *args, **kwargs):
        # a sandbox per kernel (autograder.kernels.grading_kernels); nbgrader's Execute would
        # otherwise pass AsyncKernelManager here (configuration still wins)
        kwargs.setdefault("kernel_manager_class", GradingKernelManager)
        super().__init__(*args, **kwargs)
        self._kernel_arguments = list(self.extra_arguments)
        self._judged = False
        self._stubs = None   # a judged assignment's reftorch copy, its pieces stubs (autograder.witness.stubs)

    def create_kernel_manager(self):
        """nbclient's kernel manager; for a judged assignment, a witness kernel (no torch, no checks)."""
        km = super().create_kernel_manager()
        if km.has_trait("witness"):
            km.witness = self._judged
            km.reftorch_stubs = self._stubs or ""
        return km

    # -- the run --------------------------------------------------------------------------

    def preprocess(self, nb, resources=None, km=None):
        state = nb.metadata.get("autograder", {})
        self._messages = list(state.get("messages", []))
        self._stopped = None          # why the rest of the notebook did not run
        self._watchdog_fired = False
        self._test_code = None        # the cells run after every other (learner_code.cells_of_test_code)
        budget = OutputBudget(parent=self)
        self._cap = OutputCap(budget)                          # as output arrives
        self._truncate = TruncateOutputs(parent=self, budget=budget)   # as each cell ends
        self._assignment = (resources or {}).get("nbgrader", {}).get("assignment")
        self._variant = (resources or {}).get(VARIANT_RESOURCE)  # "<student>/<assignment>" (AssignVariant)
        self._judged = self._assignment in self.judged
        self._test_names = TestNames()   # what the judged test code imports, cell after cell
        self._stubs = stubs.build(self._assignment) if self._judged else None
        self.extra_arguments = list(witness_arguments(self._stubs) if self._judged else self._kernel_arguments)
        if state.get("unreadable") or state.get("not_graded"):
            reason = (("your submitted file could not be read: " + state["unreadable"])
                      if state.get("unreadable") else state["not_graded"])
            self._messages.append(reason + "; every test scores 0")
            for cell in nb.cells:
                if is_test_cell(cell):
                    cell.outputs = []
                    add_error(cell, "NotGraded", reason)
        else:
            started = time.perf_counter()
            self._timing = {"kernel_start": 0.0, "imports": 0.0}
            try:
                nb, resources = super().preprocess(nb, resources, km)
            finally:
                self._after_kernel()
            self._timing["total"] = time.perf_counter() - started
            self._timing["tests"] = (self._timing["total"] - self._timing["kernel_start"]
                                     - self._timing["imports"])
            TIMINGS.append(self._timing)
        self._record_messages(nb, resources)
        return nb, resources

    async def async_start_new_kernel(self, **kwargs):
        started = time.perf_counter()
        self._kernel_folder = empty_kernel_folder(self._assignment)
        kwargs["cwd"] = self._kernel_folder
        await super().async_start_new_kernel(**kwargs)
        self._arm_watchdog()
        self._kernel_started = started

    start_new_kernel = run_sync(async_start_new_kernel)

    async def async_start_new_kernel_client(self):
        result = await super().async_start_new_kernel_client()  # waits until the kernel is ready
        # one request before the first cell of a kernel that runs its tests (an assignment not
        # judged): how long its imports took, and the student's seed for the checks' drawn inputs
        if self._judged:   # nothing to hand over: the kernel holds no verdict
            self._timing["kernel_start"] = time.perf_counter() - getattr(self, "_kernel_started", time.perf_counter())
            group = self._kernel_cgroup()
            if group is not None:
                group.start_counting()
            return result
        expressions = {}
        if hasattr(self, "_kernel_started"):
            self._timing["kernel_start"] = time.perf_counter() - self._kernel_started
            expressions["imports"] = SETUP_SECONDS_EXPRESSION
        if self._variant is not None:  # the student's seed, as data: nothing in any environment
            expressions["variant"] = VARIANT_EXPRESSION % (self._variant,)
        answers = await self._async_ask_kernel_many(expressions)
        if "imports" in expressions:
            self._timing["imports"] = answers.get("imports", 0.0)
            self._timing["kernel_start"] -= self._timing["imports"]
        if self._variant is not None and answers.get("variant") != self._variant:
            raise RuntimeError("the kernel did not take the variant seed %r (it answered %r)"
                               % (self._variant, answers.get("variant")))
        group = self._kernel_cgroup()
        if group is not None:   # its imports are done: from here, a CPU burner gets demoted
            group.start_counting()
        return result

    start_new_kernel_client = run_sync(async_start_new_kernel_client)

    def _kernel_process(self):
        """The kernel's process object (killing it ends the kernel's whole sandbox)."""
        return getattr(getattr(self.km, "provisioner", None), "process", None)

    def _kernel_cgroup(self):
        """The kernel's control group (``None`` when it runs without one)."""
        return getattr(getattr(self._kernel_process(), "sandbox", None), "cgroup", None)

    def _arm_watchdog(self):
        process = self._kernel_process()
        if process is None or not self.notebook_timeout:
            return

        def kill():
            self._watchdog_fired = True
            try:
                process.kill()
            except OSError:
                pass
        timer = threading.Timer(self.notebook_timeout, kill)
        timer.daemon = True
        timer.start()
        self._watchdog = timer

    def _after_kernel(self):
        """Once nbclient has shut the kernel down (a dead kernel's refusal of a clean shutdown
        is the kernel manager's to log): stop the watchdog, remove the kernel's folder."""
        watchdog = getattr(self, "_watchdog", None)
        if watchdog is not None:
            watchdog.cancel()
            self._watchdog = None
        folder = getattr(self, "_kernel_folder", None)
        if folder:
            shutil.rmtree(os.path.dirname(folder), ignore_errors=True)
            self._kernel_folder = None

    def preprocess_cell(self, cell, resources, index):
        """Every cell but the test code in notebook order, then the test code
        (``autograder.pipeline.learner_code.cells_of_test_code``): each test cell's outputs stay in its place."""
        if self._test_code is None:
            self._test_code = cells_of_test_code(self.nb)
        result = (cell, resources)
        if index not in self._test_code:
            result = self._grade_cell(cell, resources, index)
        if index == len(self.nb.cells) - 1:   # the last learner cell has run: now the tests
            group = self._kernel_cgroup()
            if group is not None:   # the tests run at the kernel's full CPU weight
                group.stop_counting()
            for later in self._test_code:
                self._grade_cell(self.nb.cells[later], resources, later)
        return result

    def _grade_cell(self, cell, resources, index):
        if self._stopped:
            if is_test_cell(cell):
                cell.outputs = []
                add_error(cell, "NotRun", "this test did not run: " + self._stopped)
            return cell, resources
        if self._judged and index in self._test_code:
            if is_test_cell(cell):
                return self._judge_cell(cell, resources, index)
            cell.outputs = run_instructor_cell(cell.source, self._test_names, self._variant)
            return cell, resources
        try:
            return super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._stop(cell, index, self._death_reason(self._where(index)))
            return cell, self.resources
        except CellTimeoutError:
            self._stop(cell, index, "%s did not stop when interrupted after %s s"
                       % (self._where(index), self.timeout))
            self._kill_kernel()
            return cell, self.resources

    # -- a judged test cell --------------------------------------------------------------

    async def _async_judge_cell(self, cell, resources, index):
        """The test cell run by the judge (``autograder.judge.serving``): the kernel only answers
        questions about the learner's functions."""
        try:
            cell.outputs, notes = await judge_cell(self, cell.source, self._test_names, self._variant,
                                                   self.timeout or 60)
        except DeadKernelError as gone:
            self._kill_kernel()
            cell.outputs = []
            self._stop(cell, index, self._death_reason(self._where(index)) if "died" in str(gone)
                       else "%s: %s" % (self._where(index), gone))
            return cell, resources
        self._messages += ["%s: %s" % (self._where(index), note) for note in notes]
        self._truncate.truncate_cell(cell)
        return cell, resources

    _judge_cell = run_sync(_async_judge_cell)

    def on_cell_executed(self, **kwargs):
        super().on_cell_executed(**kwargs)
        self._truncate.truncate_cell(kwargs["cell"])  # huge errors and results, as they arrive
        reply = kwargs["execute_reply"]
        if reply and reply["content"].get("ename") == "CellTimeoutError":
            self._messages.append("%s ran longer than %s s and was interrupted"
                                  % (self._where(kwargs["cell_index"]), self.timeout))

    # -- kernel death ---------------------------------------------------------------------

    def _where(self, index):
        """The cell as the student can find it (its test's name or the heading above it)."""
        return describe(self.nb.cells, index)

    def _death_reason(self, where):
        if self._watchdog_fired:
            return ("the notebook ran longer than the autograder's limit of %d s and was "
                    "stopped in %s" % (self.notebook_timeout, where))
        return ("the kernel died in %s (the code ended its own process, crashed or ran "
                "out of memory)" % where)

    def _stop(self, cell, index, reason):
        self._stopped = reason
        self._messages.append(reason + "; later test cells were not run and score 0")
        add_error(cell, "KernelDied" if "died" in reason else "Stopped", reason)

    def _kill_kernel(self):
        process = self._kernel_process()
        if process is not None:
            try:
                process.kill()
            except OSError:
                pass

    # -- output cap -----------------------------------------------------------------------

    def output(self, outs, msg, display_id, cell_index):
        refused = self._cap.refuse(outs, msg, cell_index)
        if refused is None:
            return super().output(outs, msg, display_id, cell_index)
        if refused.startswith(INTERRUPT):  # a flood: stop the cell
            refused = refused[len(INTERRUPT):]
            process = self._kernel_process()
            if process is not None:
                process.send_signal(signal.SIGINT)
        if refused:
            self._messages.append("%s %s" % (self._where(cell_index), refused))
        return None

    # -- questions to a kernel that runs its tests ----------------------------------------

    async def _async_ask_kernel_many(self, expressions):
        """Evaluate each of ``{name: expression}`` in the kernel, silently, in one request (in that
        order); returns ``{name: value}`` for those that answered."""
        msg_id = await ensure_async(self.kc.execute("", silent=True, store_history=False,
                                                    user_expressions=expressions))
        reply = await self.async_wait_for_reply(msg_id)
        return _values(reply["content"].get("user_expressions", {}))

    # -- messages -------------------------------------------------------------------------

    def _record_messages(self, nb, resources):
        nb.metadata.pop("autograder", None)
        if not self._messages:
            return
        text = notes_markdown(self._messages)  # plain text: a note may quote the student
        nb.cells.insert(0, new_markdown_cell(text, metadata={"autograder_notes": True}))
        path = (resources or {}).get("metadata", {}).get("path")
        if path:
            with open(os.path.join(path, MESSAGES_FILE), "w") as f:
                json.dump(self._messages, f, indent=1)

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
* output capped at ``max_output_chars`` per cell while it arrives (nbgrader's
  LimitOutput only cuts lines afterwards, and one line can be megabytes);
  errors and results are never dropped, so the score is unchanged;
* every learner cell of an assignment with an allowlist (``autograder.kernels.allowlist``)
  reaches the kernel as a call that compiles it with RestrictedPython and runs
  it with guards, in a namespace without IPython's objects; the notebook keeps
  the learner's text.  A refusal at run time is recorded in the kernel, and
  after every test cell the grader reads the record: that test and every later
  one score 0, with the rule and the line;
* test code reaches the kernel only after every other cell has run: the
  learner's cells (and the instructor's set-up) first, in notebook order, then
  the test cells and the instructor's cells among them
  (``autograder.pipeline.learner_code.cells_of_test_code``); each test cell's outputs stay
  in its own place, so nbgrader scores it as before.  No learner cell can see
  a test's code, names or inputs, or wait for them;
* the kernel starts in an empty folder named after the assignment (the
  self-check does the same): no notebook, no hidden test, nothing that tells
  the grader from the self-check;
* before the first cell, the grader reads the kernel's report of the objects
  the tests trust (torch, reftorch, builtins, the check library, IPython's
  hooks: their identities, and the checks' data by contents), a digest of the
  same state and a seal of the tripwire, and keeps them; after every test
  cell it reads the digest and the seal again (with the test cell's own
  request, evaluated right after it; asked separately when the cell ended
  with an error), and when the digest moved, the report, which it compares
  with the first itself (``kernel_setup.differences``): the kernel is never
  asked for a verdict, so a notebook that makes the tripwire answer "nothing
  changed" gains nothing.  A test that ran after a replacement scores 0.
  (the digest, not the whole report, is read after each test cell: its cost
  is in docs/decisions/0015);
* a notebook the collector could not read, or one whose grading raised
  (``autograder.pipeline.failsafe``), flagged in its metadata, is not run at all:
  every test cell gets an error output with the reason;
* errors and results are cut to a bounded size as each cell finishes
  (``autograder.pipeline.truncate``).

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
from traitlets import Bool, Integer, List, Unicode, default

from ..judge import JUDGED_ASSIGNMENTS
from ..judge.serving import judge_cell
from ..judge.test_cell import TestNames, run_instructor_cell
from ..witness import stubs
from ..witness.setup import kernel_arguments as witness_arguments
from .allowlist import POLICIES, VIOLATIONS_EXPRESSION, empty_kernel_folder, learner_source
from ..pipeline.cell_names import describe
from .grading_kernels import GradingKernelManager
from ..pipeline.learner_code import cells_of_test_code, is_test_cell
from .kernel_setup import (DIGEST_EXPRESSION, KERNEL_ARGUMENTS, REPORT_EXPRESSION, SETUP_SECONDS_EXPRESSION,
                           differences)
from ..pipeline.notes import MESSAGES_FILE, notes_markdown
from ..pipeline.truncate import TruncateOutputs, keep_stderr_mark
from ..pipeline.variants import RESOURCE as VARIANT_RESOURCE

# Hands a kernel its student's variant seed before the first cell (autograder.checks.use_variant).
VARIANT_EXPRESSION = "__import__('autograder.checks').checks.use_variant(%r)"


# One record per notebook run in this process: where its time went (seconds).
TIMINGS = []

# The names of the checks' answers in a test cell's user_expressions (GuardedExecute._checks).
_DIGEST, _VIOLATIONS = "autograder-tripwire", "autograder-rules"
_SEAL_BROKEN = "the tampering check itself (autograder.kernels.kernel_setup) was replaced"


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


def add_error(cell, ename, evalue, first=False):
    """Give ``cell`` an error output, which makes nbgrader score it 0.

    nbgrader's ``determine_grade`` reads the outputs in order and the first error
    or ``execute_result`` decides, so an error that must win whatever the cell
    printed (tampering) goes ``first``.
    """
    output = new_output("error", ename=ename, evalue=evalue, traceback=["%s: %s" % (ename, evalue)])
    outputs = cell.setdefault("outputs", [])
    outputs.insert(0, output) if first else outputs.append(output)


class GuardedExecute(Execute):

    notebook_timeout = Integer(
        300, help="Seconds a whole notebook may run before its kernel is killed."
    ).tag(config=True)

    max_output_chars = Integer(
        100_000, help="Characters of stream/display output kept per cell while it runs."
    ).tag(config=True)

    shutdown_kernel = Unicode("immediate").tag(config=True)

    allowlist = Bool(
        True, help="Run learner cells under their assignment's allowlist (autograder.kernels.allowlist); False "
                   "sends them as written (to measure what the allowlist costs: tests/bench).").tag(config=True)

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
        self._output_chars = {}
        self._tampering = []          # what was found replaced (first report)
        self._untrusted_tests = []    # the tests zeroed because of it
        self._baseline = None         # the tripwire's report before the first cell (kernel_setup.report),
        self._baseline_parsed = None  # as text until a digest moves, then parsed
        self._seal = None             # the tripwire's seal before the first cell (kernel_setup.SEAL)
        self._accepted = set()        # fingerprint digests of states found to hold the same objects
        self._test_code = None        # the cells run after every other (learner_code.cells_of_test_code)
        self._truncate = TruncateOutputs(parent=self)
        self._assignment = (resources or {}).get("nbgrader", {}).get("assignment")
        self._variant = (resources or {}).get(VARIANT_RESOURCE)  # "<student>/<assignment>" (AssignVariant)
        self._judged = self._assignment in self.judged
        self._test_names = TestNames()   # what the judged test code imports, cell after cell
        self._stubs = stubs.build(self._assignment) if self._judged else None
        self.extra_arguments = list(witness_arguments(self._stubs) if self._judged else self._kernel_arguments)
        self._rules_broken = []       # run-time refusals of the allowlist (their messages)
        self._rule_tests = []         # the tests zeroed because of them
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
        # one request before the first cell: how long the kernel's imports took, the student's seed,
        # then (the checks' data depend on the seed) the tripwire's whole report, its digest and seal,
        # kept here: the grader compares later digests and reports with them itself (_check_tampering)
        if self._judged:   # nothing to hand over or to fingerprint: the kernel holds no verdict
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
        expressions["report"] = REPORT_EXPRESSION
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
        self._keep_report(answers.get("report"), baseline=True)
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
        (``autograder.pipeline.learner_code.grading_order``): each test cell's outputs stay in its place."""
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
        test = is_test_cell(cell)
        if self._judged and index in self._test_code:
            if test:
                return self._judge_cell(cell, resources, index)
            cell.outputs = run_instructor_cell(cell.source, self._test_names, self._variant)
            return cell, resources
        original, source = cell, cell.source
        cell.source = learner_source(self.nb, index,
                                     self._assignment if self.allowlist and not self._judged else None)
        self._answers = {}
        if test and hasattr(self.kc, "next_user_expressions"):  # the checks ride on the cell's request
            self.kc.next_user_expressions = self._checks()
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            cell.source = source
            self._stop(cell, index, self._death_reason(self._where(index)))
            return cell, self.resources
        except CellTimeoutError:
            cell.source = source
            self._stop(cell, index, "%s did not stop when interrupted after %s s"
                       % (self._where(index), self.timeout))
            self._kill_kernel()
            return cell, self.resources
        finally:
            original.source = cell.source = source
            if hasattr(self.kc, "next_user_expressions"):
                self.kc.next_user_expressions = None
        if test:
            answers = self._answers
            if not answers:   # the cell ended with an error: the kernel evaluated nothing, ask now
                answers = self._ask_kernel_many(self._checks())
            self._check_rules(cell, answers)
            self._check_tampering(cell, answers)
        return cell, resources

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

    def _checks(self):
        """What the grader reads after each test cell: the allowlist's record (for an assignment
        with an allowlist) and the tripwire's digest and seal."""
        checks = {}
        if self._assignment in POLICIES and self.allowlist:
            checks[_VIOLATIONS] = VIOLATIONS_EXPRESSION
        checks[_DIGEST] = DIGEST_EXPRESSION
        return checks

    def on_cell_executed(self, **kwargs):
        super().on_cell_executed(**kwargs)
        self._truncate.truncate_cell(kwargs["cell"])  # huge errors and results, as they arrive
        reply = kwargs["execute_reply"]
        if reply:   # the checks evaluated right after a test cell (QuickReadyClient.next_user_expressions)
            self._answers = _values(reply["content"].get("user_expressions") or {})
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
        kind = msg["msg_type"]
        refused = self._truncate.refuse_output(outs, msg, cell_index)  # too many outputs
        if refused is not None:
            if refused.startswith("interrupt: "):  # a flood: stop the cell
                refused = refused[len("interrupt: "):]
                process = self._kernel_process()
                if process is not None:
                    process.send_signal(signal.SIGINT)
            if refused:
                self._messages.append("%s %s" % (self._where(cell_index), refused))
            return None
        if kind not in ("stream", "display_data", "update_display_data"):
            return super().output(outs, msg, display_id, cell_index)
        content = msg["content"]
        size = len(content.get("text", "")) or sum(len(str(v)) for v in content.get("data", {}).values())
        used = self._output_chars.get(cell_index, 0)
        self._output_chars[cell_index] = used + size
        if used + size <= self.max_output_chars:
            return super().output(outs, msg, display_id, cell_index)
        if used <= self.max_output_chars:  # first message over the cap: say so once
            note = "\n[autograder: output beyond %d characters was dropped]\n" % self.max_output_chars
            self._messages.append("%s printed more than %d characters; the rest was dropped"
                                  % (self._where(cell_index), self.max_output_chars))
            outs.append(new_output("stream", name="stdout", text=note))
        if kind == "stream" and content.get("name") == "stderr":
            keep_stderr_mark(outs)
        return None

    # -- integrity of the objects the tests trust -----------------------------------------

    async def _async_ask_kernel_many(self, expressions):
        """Evaluate each of ``{name: expression}`` in the kernel, silently, in one request (in that
        order); returns ``{name: value}`` for those that answered."""
        msg_id = await ensure_async(self.kc.execute("", silent=True, store_history=False,
                                                    user_expressions=expressions))
        reply = await self.async_wait_for_reply(msg_id)
        return _values(reply["content"].get("user_expressions", {}))

    async def _async_ask_kernel(self, expression, fallback):
        """Evaluate ``expression`` in the kernel, silently, and return its value."""
        return (await self._async_ask_kernel_many({"value": expression})).get("value", fallback)

    _ask_kernel = run_sync(_async_ask_kernel)
    _ask_kernel_many = run_sync(_async_ask_kernel_many)

    def _check_tampering(self, cell, answers):
        """After a test cell: are the trusted objects (and the tripwire) still the originals?

        The verdict is the grader's: it compares the tripwire's seal and the digest of the kernel's
        state now (``answers``: read with the test cell's own request when it ended without an
        error, else asked for here) with those it read before the first cell, and when the digest
        moved, the kernel's whole report with the first one (``kernel_setup.differences``): the
        kernel is never asked whether anything changed.  From the first test after which something
        was found, every test scores 0 (the error output goes first), whatever it printed, and the
        message in ``messages.json`` lists exactly those tests.
        """
        try:
            found = self._compare_with_baseline(answers.get(_DIGEST))
        except DeadKernelError:
            raise
        except Exception as error:  # no reply, unreadable reply: do not trust the test
            found = ["the integrity check got no answer (%s)" % type(error).__name__]
        if not found and not self._tampering:
            return
        if found and not self._tampering:
            self._tampering = found
        what = ", ".join(found or self._tampering)
        add_error(cell, "TamperingDetected",
                  "this test is not trusted: the notebook changed what the tests rely on (%s)" % what,
                  first=True)
        self._untrusted_tests.append(cell.metadata.get("nbgrader", {}).get("grade_id", "?"))

    def _keep_report(self, answer, baseline=False):
        """Keep the report, digest and seal the kernel answered (``REPORT_EXPRESSION``) as the
        baseline; or (later) compare them with it.  Returns what changed."""
        if not (isinstance(answer, tuple) and len(answer) == 3 and isinstance(answer[0], str)):
            return [] if baseline else ["the integrity check itself was broken"]
        text, digest, seal = answer
        if self._baseline is None:  # before the first cell (or the kernel did not answer then)
            self._baseline, self._seal = text, seal
            self._accepted.add(digest)
            return []
        if seal != self._seal:
            return [_SEAL_BROKEN]
        if self._baseline_parsed is None:
            self._baseline_parsed = json.loads(self._baseline)
        found = differences(self._baseline_parsed, json.loads(text))
        if not found:   # torch imported or re-wrapped something of its own: accept the new state
            self._accepted.add(digest)
        return found

    def _compare_with_baseline(self, answer=None):
        if answer is None:
            answer = self._ask_kernel(DIGEST_EXPRESSION, None)
        if isinstance(answer, tuple) and len(answer) == 2 and self._baseline is not None:
            digest, seal = answer
            if seal != self._seal:
                return [_SEAL_BROKEN]
            if digest in self._accepted:
                return []
        return self._keep_report(self._ask_kernel(REPORT_EXPRESSION, None))

    def _check_rules(self, cell, answers):
        """After a test cell: did the allowlist refuse anything at run time (in any cell so far)?

        From the first test after a refusal, every test scores 0 with the rule and the line
        (the error goes first): the learner's code tried what the exercise does not allow,
        whether or not it caught the error.
        """
        if self._assignment not in POLICIES or not self.allowlist:
            return
        try:
            found = answers.get(_VIOLATIONS)
            if found is None:
                found = self._ask_kernel(VIOLATIONS_EXPRESSION, ["the allowlist's record could not be read"])
            found = list(found)
        except DeadKernelError:
            raise
        except Exception as error:
            found = ["the allowlist's record got no answer (%s)" % type(error).__name__]
        if not found:
            return
        if not self._rules_broken:
            self._rules_broken = found
        add_error(cell, "RuleBroken", found[0], first=True)
        self._rule_tests.append(cell.metadata.get("nbgrader", {}).get("grade_id", "?"))

    # -- messages -------------------------------------------------------------------------

    def _record_messages(self, nb, resources):
        if self._rule_tests:
            self._messages.append(
                "your code broke the exercise's rules while it ran (%s); the tests that ran from then on "
                "score 0: %s" % (self._rules_broken[0].splitlines()[0], ", ".join(self._rule_tests)))
        if self._untrusted_tests:
            self._messages.append(
                "the notebook replaced objects the tests rely on (%s); the tests that ran from then on "
                "score 0: %s" % (", ".join(self._tampering), ", ".join(self._untrusted_tests)))
        nb.metadata.pop("autograder", None)
        if not self._messages:
            return
        text = notes_markdown(self._messages)  # plain text: a note may quote the student
        nb.cells.insert(0, new_markdown_cell(text, metadata={"autograder_notes": True}))
        path = (resources or {}).get("metadata", {}).get("path")
        if path:
            with open(os.path.join(path, MESSAGES_FILE), "w") as f:
                json.dump(self._messages, f, indent=1)

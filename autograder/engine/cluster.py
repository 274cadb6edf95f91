"""The grader's side of the engine: run one task per submission, collect every result once.

:func:`grade_tasks` takes the run's spec, the gradebook snapshot and the list
of ``(assignment, student, files)`` to grade, and returns
``{(assignment, student): result}`` with exactly one result for each, whatever
happens to the workers.  Where the tasks run is ``scheduler``:

- ``None`` (the default): a ``distributed.LocalCluster`` made for this run,
  ``workers`` processes of one thread each (the command line's default: one
  per core), closed at the end;
- ``"tcp://HOST:8786"``: the farm behind that ``dask scheduler``; its
  ``dask worker`` processes, on any number of machines, stay up between
  runs and keep their warm kernels;
- ``"in-process"``: no dask at all, the same task function called in a
  loop in this process (a sequential run, and the baseline the bench
  measures dask's overhead against).

Every worker gets the ``GradingPlugin`` (``autograder.engine.plugin``): when
the worker starts, it makes the worker's kernel folders and starts its
kernel zygote, which imports torch while the worker readies its first task.
A farm's workers get it from each run (registering it again keeps what the
worker holds); the local cluster's workers are started with it.

The local cluster is made for the run, before anything else (no progress
bar, no gradebook connection open yet), and its workers are *forked* from
the grader (dask's ``distributed.worker.multiprocessing-method``, set to
``fork`` for the cluster's start only, with the rest of :data:`LOCAL_CLUSTER_CONFIG`) rather than spawned: a spawned worker
is a new interpreter that imports dask, nbgrader and nbformat's jsonschema
(whose IRI grammar alone is about a second of CPU) while its zygote imports
torch on the same two cores, and at its end runs the interpreter's
finalisation over some 1,600 modules; a forked one starts with all of it
imported and ends with ``os._exit``.  Measured on a loaded 2-core machine:
the cluster up in 0.45 s instead of 2.2 s, closed in 0.05 s instead of
3.3 s.  The grader's process has only the cluster's own threads when it
forks (the child keeps none of them), and the child forgets the grader's
worker state and kernel folders (``os.register_at_fork`` in ``worker`` and
``plugin``).  A worker the nanny restarts after a crash is spawned, the
default.

A worker that dies mid-run loses the tasks it held; the scheduler gives them
to another worker (``distributed.scheduler.allowed-failures`` times, then
the submission gets 0 with the reason).  A task returns data and writes
nothing, so a task run twice changes nothing, and the grader accepts one
result per submission, as the answer to the task that asked for it.  At the
run's deadline the grader stops waiting: the tasks not finished get 0 with
that reason and are cancelled; each task also cuts its notebook's time limit
to what is left of the run, so no kernel outlives the deadline by more than
its grace period, on a farm as on a local cluster (which is closed at once).
"""

import logging
import shutil
import sys
import time

import dask
from tqdm import tqdm

from distributed import Client, LocalCluster, as_completed
from distributed.client import FutureCancelledError
from distributed.scheduler import KilledWorker

from . import worker as grading
from .plugin import PLUGIN_NAME, GradingPlugin

IN_PROCESS = "in-process"

# The local cluster's dask settings, read as its scheduler and workers start: workers forked, not
# spawned (see above); no statistical profiler sampling each worker's stacks every 10 ms (it feeds
# the dashboard's profile page, which nobody looks at during a run, with CPU the grading needs);
# the event loop's health measured every second rather than every 20 ms.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.multiprocessing-method": "fork",
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
}


def failure(task, reason):
    return grading.failure(task[0], task[1], reason)


def _check(task, result):
    """A result is accepted only as the answer to the task that asked for that student."""
    if not isinstance(result, dict) or (result.get("assignment"), result.get("student")) != task:
        return failure(task, "the grading worker returned a result for someone else")
    return result


class _Results(dict):
    """``{task: result}``, each task's first result only, handed to ``accept`` as it comes."""

    def __init__(self, accept, bar):
        super().__init__()
        self.accept, self.bar = accept, bar

    def add(self, task, result):
        self[task] = result
        if self.accept is not None:
            self.accept(task, result)
        self.bar.update(1)


def grade_tasks(spec, snapshot, tasks, scheduler=None, workers=1, progress=False, label="",
                accept=None):
    """``{(assignment, student): result}`` for every ``(assignment, student, files)`` in ``tasks``.

    ``accept(task, result)``, if given, is called once per task as soon as its
    result is in (the grader writes the grade then, while the workers grade
    the next submissions), in this thread; results are never given twice.
    """
    # the cluster first: its workers are forked from this process (see above)
    client, cluster = (None, None) if scheduler == IN_PROCESS else _open_client(spec, scheduler, workers)
    with tqdm(total=len(tasks), desc="autograde " + label, unit="submission",
              disable=not progress, file=sys.stderr) as bar:
        results = _Results(accept, bar)
        if scheduler == IN_PROCESS:
            _in_process(spec, snapshot, tasks, results)
        else:
            _on_dask(spec, snapshot, tasks, client, cluster, results)
        for assignment, student, files in tasks:
            task = (assignment, student)
            if task not in results:
                results.add(task, failure(task, "the run's deadline passed before it was graded"))
        return dict(results)


def _in_process(spec, snapshot, tasks, results):
    try:
        for assignment, student, files in tasks:
            task = (assignment, student)
            try:
                result = _check(task, grading.grade_submission(spec, snapshot, assignment, student, files))
            except Exception as error:  # noqa: BLE001 - the grader's own failure, for this student
                result = failure(task, "grading failed: %s: %s" % (type(error).__name__, error))
            results.add(task, result)
    finally:
        grading.drop_workspace(spec["run"])


def _open_client(spec, scheduler, workers):
    plugin = GradingPlugin(warm=bool(spec.get("warm")), sandboxed=not spec.get("unsandboxed"))
    if scheduler:
        client = Client(scheduler, timeout="30s")
        try:
            client.register_plugin(plugin, name=PLUGIN_NAME)
        except BaseException:
            client.close()
            raise
        return client, None
    with dask.config.set(LOCAL_CLUSTER_CONFIG):
        cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                               dashboard_address=":0",  # any free port: two graders on one machine
                               silence_logs=logging.CRITICAL,  # a lost task is reported per student
                               plugins={plugin})  # each worker starts its zygote as it starts
    try:
        return Client(cluster), cluster
    except BaseException:
        cluster.close()
        raise


def _on_dask(spec, snapshot, tasks, client, cluster, results):
    futures = {}
    try:
        shared = client.scatter(snapshot, broadcast=True, hash=False)
        for assignment, student, files in tasks:
            future = client.submit(grading.grade_submission, spec, shared, assignment, student, files,
                                   key="grade-%s-%s-%s" % (spec["run"], assignment, student), pure=False)
            futures[future] = (assignment, student)
        waiting = as_completed(futures, timeout=max(0.0, spec["deadline"] - time.time()))
        try:
            for future in waiting:
                task = futures[future]
                if task in results:
                    continue
                try:
                    result = _check(task, future.result())
                except KilledWorker:
                    result = failure(task, "the grading worker crashed while grading it "
                                           "(every worker that tried it)")
                except FutureCancelledError:
                    continue
                except Exception as error:  # noqa: BLE001 - the grader's own failure, for this student
                    result = failure(task, "grading failed: %s: %s" % (type(error).__name__, error))
                results.add(task, result)
        except TimeoutError:
            pass  # the deadline: what is missing gets 0 below
    finally:
        unfinished = [f for f, task in futures.items() if task not in results]
        if unfinished:
            client.cancel(unfinished, force=True)
        try:
            client.run(grading.drop_workspace, spec["run"])  # every worker still up
        except Exception:  # noqa: BLE001 - a farm that went away: its workspaces went with it
            pass
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
                # its workers were on this machine: a workspace a worker still grading in at
                # the deadline kept goes with them
                shutil.rmtree(grading.run_folder(spec["run"]), ignore_errors=True)

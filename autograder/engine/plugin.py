"""What a grading worker process keeps warm: its kernel folders and its kernel zygote.

The ``GradingPlugin`` is given to every worker (dask's public worker-plugin
API).  This module is light on purpose (it imports the kernels, not
nbgrader): a worker imports it to unpickle the plugin, and the plugin's
``setup`` starts the zygote at once, so the zygote imports torch while the
worker goes on to import nbgrader for its first task, the two at the same
time rather than one after the other.  A run in the grader's own process
(``scheduler="in-process"``) warms up through the same :func:`warm_up`.

A worker of the grader's own local cluster is *forked* from the grader
(``autograder.engine.cluster``): it starts with nbgrader already imported,
and it ends with ``os._exit``, which runs no ``atexit`` handler.  So the
kernel folders are removed by the plugin's ``teardown`` when the worker
closes (and at exit, for a ``dask worker`` of a farm), and a forked process
forgets the folders of the process it was forked from.
"""

import atexit
import os
import shutil
import tempfile
import time

from distributed import WorkerPlugin
from distributed.core import Status

from ..kernels import grading_kernels

PLUGIN_NAME = "autograder-grading"

_folder = None


def kernel_folders():
    """This process's kernel folders: made on first use, removed when the process exits."""
    global _folder
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix="autograder-kernels-worker-")
        atexit.register(shutil.rmtree, _folder, True)
        grading_kernels.use_kernel_folders(_folder)
    return _folder


def _forget_folders():
    """In a forked child: the parent's folders are the parent's (it removes them)."""
    global _folder
    _folder = None


os.register_at_fork(after_in_child=_forget_folders)


def remove_kernel_folders(patience=2.0):
    """Remove this process's kernel folders now (its zygote ends when this process does).

    The last notebook's kernel may still be shutting down, and its clean-up removes its own
    folder at the same time: removal is tried again until the folder is gone (up to
    ``patience`` seconds)."""
    global _folder
    if _folder is None:
        return
    give_up = time.monotonic() + patience
    while True:
        shutil.rmtree(_folder, ignore_errors=True)
        if not os.path.exists(_folder) or time.monotonic() > give_up:
            break
        time.sleep(0.05)
    _folder = None


def warm_up(sandboxed=True):
    """Start this process's zygote now if it is not running (it imports torch in the background)."""
    kernel_folders()
    return grading_kernels.start_zygote(sandboxed=sandboxed)


class GradingPlugin(WorkerPlugin):
    """Each worker's lasting state: kernel folders and the warm zygote (see above)."""

    name = PLUGIN_NAME

    def __init__(self, warm=True, sandboxed=True):
        self.warm, self.sandboxed = warm, sandboxed

    def setup(self, worker):
        if self.warm:
            warm_up(sandboxed=self.sandboxed)
        else:
            kernel_folders()

    def teardown(self, worker):
        # Registering the plugin again (each run on a farm does) tears this one down while the
        # worker runs on: its zygote and the workspaces of runs still going must survive that.
        # Only a worker that closes removes its kernel folders; a workspace goes when its run
        # ends (drop_workspace).
        if worker.status in (Status.closing, Status.closing_gracefully, Status.closed):
            remove_kernel_folders()

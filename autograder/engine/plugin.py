"""What a grading worker process keeps warm: its kernel folders and its kernel zygote.

The ``GradingPlugin`` is given to every worker (dask's public worker-plugin
API).  This module is light on purpose (it imports the kernels, not
nbgrader): a worker imports it to unpickle the plugin, and the plugin's
``setup`` starts the zygote at once, so the zygote imports torch while the
worker goes on to import nbgrader for its first task, the two at the same
time rather than one after the other.  A run in the grader's own process
(``scheduler="in-process"``) warms up through the same :func:`warm_up`.
"""

import atexit
import shutil
import tempfile

from distributed import WorkerPlugin

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

    # No teardown: registering the plugin again (the next run does) replaces this one,
    # and the worker's zygote and the workspaces of runs still going must survive that.
    # A workspace goes when its run ends (drop_workspace), the kernel folders at exit.

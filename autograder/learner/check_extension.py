"""The self-check in the learner's own Jupyter server: a handler that keeps the grader's kernels warm.

``self_check()`` in a notebook posts the saved notebook's path to
``/autograder/self-check`` of the server that started its kernel
(:func:`autograder.learner.self_check.check_saved`). The server runs
:func:`autograder.learner.learner_check.check` and answers with the result as data
(``CheckResult``: each test's points and message, in the notebook's language).

* **Warm.** The grader's imports and its **zygote** (``autograder.kernels``: a
  process that imported torch once and forks each kernel from itself) live in
  this server process for as long as it runs. Every check still gets a new
  kernel in a new sandbox of its own (bubblewrap, its own uid, limits): no
  learner's code runs twice in one kernel, and no kernel is reused.
* **One check at a time.** Checks run in one worker thread, in the order they
  were asked; a second click waits for the first.
* **One learner's.** The handler is part of the learner's own server (on a hub,
  their single-user server, running as them), and answers only requests that
  the server authenticates and authorizes to run kernels.
* **Nothing left behind.** The worker thread is a daemon; the zygote and each
  kernel's sandbox are tied to it by their parent-death signal, and the zygote
  is closed when the server stops (:meth:`SelfCheckApp.stop_extension`).

Enabled by configuration (``jpserver_extensions``): ``binder/lab-settings/jupyter_server_config.json``
for ``make lab`` and Binder, ``autograder/hub/student_config/`` for the hub's servers.
``make lab`` also sets ``SelfCheckApp.warm_up_at_start``, so the first check finds the zygote ready.
See docs/decisions/0024-the-self-check-in-the-jupyter-server.md.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import queue
import sys
import threading

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.extension.application import ExtensionApp
from jupyter_server.extension.handler import ExtensionHandlerMixin
from tornado import web
from traitlets import Bool

__all__ = ["SelfCheckApp"]


def warm_up() -> int | None:
    """Import what a check needs and start the zygote where there is a sandbox (it imports torch);
    wait until it is ready. Returns the zygote's pid (None: no sandbox here, checks start cold)."""
    from . import learner_check  # noqa: F401  (nbclient, the rebuild, the judge)
    from ..pipeline import static_rules  # noqa: F401
    from ..kernels.grading_kernels import start_zygote
    from ..kernels.sandbox import why_unavailable

    if why_unavailable() is not None:
        return None
    zygote = start_zygote(sandboxed=True)
    zygote.wait_ready()
    return zygote.process.pid


def _check(path: str, root: str | None) -> dict:
    from .learner_check import check_data

    warm_up()
    return check_data(path, root=root, warm=True)


class _Worker:
    """One daemon thread that runs jobs in turn. It lives as long as the server: the zygote and the
    sandboxes started from it are killed when it ends (their parent-death signal follows the thread
    that started them), and, a daemon, it never holds the server's exit up behind a running check."""

    def __init__(self):
        self.jobs = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="autograder-self-check", daemon=True)
        self.thread.start()

    def _run(self):
        while True:
            future, job, args = self.jobs.get()
            if future is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job(*args))
            except BaseException as error:  # handed to the request that asked
                future.set_exception(error)

    def submit(self, job, *args) -> concurrent.futures.Future:
        future = concurrent.futures.Future()
        self.jobs.put((future, job, args))
        return future

    def stop(self):
        self.jobs.put((None, None, None))


class _Handler(ExtensionHandlerMixin, APIHandler):
    auth_resource = "kernels"  # a check runs the notebook's code in a kernel: whoever may run kernels


class CheckHandler(_Handler):
    """``POST {"path": NOTEBOOK, "root": COURSE or null}``: the self-check of the saved notebook
    (a path relative to the server's root, or absolute), answered as ``CheckResult`` data."""

    @web.authenticated
    @authorized
    async def post(self):
        body = self.get_json_body() or {}
        path, root = body.get("path"), body.get("root")
        if not isinstance(path, str) or not path or not (root is None or isinstance(root, str)):
            raise web.HTTPError(400, 'expected {"path": "the notebook", "root": null or "the course folder"}')
        path = os.path.join(self.serverapp.root_dir, path)   # an absolute path stays as it is
        self.finish(json.dumps(await self.extensionapp.run(_check, path, root)))


class WarmUpHandler(_Handler):
    """``POST``: start the warm-up now (imports and zygote); answers ``{"zygote": pid or null}``."""

    @web.authenticated
    @authorized
    async def post(self):
        self.finish(json.dumps({"zygote": await self.extensionapp.run(warm_up)}))


class SelfCheckApp(ExtensionApp):
    """The self-check's part of the Jupyter server (see the module's docstring)."""

    name = "autograder_self_check"

    warm_up_at_start = Bool(False, help="Start the grader's imports and zygote as the server starts, "
                                        "not at the first check (make lab sets it).").tag(config=True)

    def initialize_settings(self):
        self.worker = _Worker()
        self.asked = 0
        if self.warm_up_at_start:
            self.worker.submit(warm_up)

    def initialize_handlers(self):
        self.handlers.extend([(r"/autograder/self-check", CheckHandler),
                              (r"/autograder/self-check/warm-up", WarmUpHandler)])

    async def run(self, job, *args):
        """``job(*args)`` in the worker thread, after the checks asked before it."""
        self.asked += 1
        try:
            return await asyncio.wrap_future(self.worker.submit(job, *args))
        finally:
            self.asked -= 1

    def current_activity(self):
        """A check running or waiting counts as activity: an idle culler does not stop the server
        under it."""
        return self.asked > 0

    async def stop_extension(self):
        self.worker.stop()
        kernels = sys.modules.get("autograder.kernels.grading_kernels")  # not imported: no zygote started
        if kernels is not None:
            await asyncio.get_running_loop().run_in_executor(None, kernels.stop_zygote)


def _jupyter_server_extension_points():
    return [{"module": __name__, "app": SelfCheckApp}]

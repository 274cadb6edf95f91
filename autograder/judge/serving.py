"""A judged test cell, from the kernel's side: the kernel serves the judge while the cell is judged.

Used by the grader (``autograder.kernels.execute``) and the self-check
(``autograder.learner.learner_check``) alike, with their nbclient client: the kernel
is sent one line that calls ``autograder.witness.serve.serve`` on the judge's
socket, the cell is judged here (``test_cell.run_test_cell``, in the language the
client's notebook says, ``language.notebook_language``), what the learner's
code printed meanwhile is kept first in the cell's outputs, then the serving line must end:
it is interrupted after a few seconds, and a kernel that ignores the interrupt is
reported as gone (the caller kills it).
"""

import os
import queue
import time

from nbclient.exceptions import DeadKernelError
from nbclient.util import ensure_async
from nbformat.v4 import new_output

from ..witness.setup import SERVE
from .connection import WITNESS_DIR_INSIDE, Witness, witness_folder
from .language import N_, gettext, notebook_language
from .test_cell import error_output, run_test_cell

GRACE_SECONDS = 5
PRINTED_CHARS = 100_000   # of what the learner's code printed while being asked, kept per test


async def judge_cell(client, source, names, seed, seconds):
    """``(outputs, notes)`` of the test cell ``source``; raises DeadKernelError when the kernel is gone
    or did not return to the notebook after the test."""
    km, kc = client.km, client.kc
    folder = witness_folder(os.path.dirname(km.connection_file))
    inside = folder if getattr(km, "unsandboxed", True) else WITNESS_DIR_INSIDE
    notes = []
    lang = notebook_language(client.nb)
    witness = Witness(folder, seconds)
    msg_id = await ensure_async(kc.execute(SERVE % os.path.join(inside, witness.name), silent=True,
                                           store_history=False, allow_stdin=False))
    try:
        with witness:
            outputs = run_test_cell(source, witness, seed=seed, names=names, lang=lang)
    except Exception as error:  # the judge's own failure: this test is not scored as passed
        outputs = [error_output("GraderError", gettext(N_("the grader failed on this test ({0}: {1})"), lang)
                                .format(type(error).__name__, error))]
        notes.append("could not be judged: %s: %s" % (type(error).__name__, error))
    notes += await _end_serving(km, kc, msg_id)
    printed = await _printed(kc, msg_id)
    return ([new_output("stream", name="stdout", text=printed)] if printed else []) + outputs, notes


async def _printed(kc, msg_id):
    """What the learner's code printed while the kernel served this test (stdout and stderr alike,
    kept as stdout: a learner's debugging print costs no points), at most PRINTED_CHARS."""
    texts, size = [], 0
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline:
        try:
            msg = await ensure_async(kc.iopub_channel.get_msg(timeout=0.2))
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
            break
        if msg["msg_type"] == "stream" and size < PRINTED_CHARS:
            text = str(msg["content"].get("text", ""))[:PRINTED_CHARS - size]
            texts.append(text)
            size += len(text)
    return "".join(texts)


async def _end_serving(km, kc, msg_id):
    """Wait for the serving line's reply; interrupt it after GRACE_SECONDS; DeadKernelError after that."""
    for attempt in ("wait", "interrupt"):
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline:
            try:
                msg = await ensure_async(kc.shell_channel.get_msg(timeout=0.5))
            except queue.Empty:
                if not await ensure_async(km.is_alive()):
                    raise DeadKernelError("the kernel died") from None
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                content = msg.get("content", {})
                if content.get("status") == "error" and content.get("ename") != "KeyboardInterrupt":
                    return ["the kernel could not answer the grader (%s: %s)"
                            % (content.get("ename"), str(content.get("evalue"))[:500])]
                return []
        if attempt == "wait":
            await ensure_async(km.interrupt_kernel())
    raise DeadKernelError("the kernel did not return to the notebook after the test")

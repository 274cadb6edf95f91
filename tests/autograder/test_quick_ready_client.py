"""The grader's kernel client gives up on a kernel that never answers, and says after how long.

``QuickReadyClient.wait_for_ready`` (``autograder.kernels.grading_kernels``) waits
``timeout`` seconds, or its ``ready_timeout`` when called without one (as
jupyter_client's own callers do). No kernel listens on the ports here, so no
reply ever comes.
"""

import asyncio
import socket

import pytest

from autograder.kernels.grading_kernels import QuickReadyClient


def _unused_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def _client_of_no_kernel(**traits):
    client = QuickReadyClient(**traits)
    shell, iopub, stdin, control, hb = _unused_ports(5)
    client.load_connection_info({"transport": "tcp", "ip": "127.0.0.1", "key": "", "shell_port": shell,
                                 "iopub_port": iopub, "stdin_port": stdin, "control_port": control,
                                 "hb_port": hb, "signature_scheme": "hmac-sha256"})
    client.start_channels(hb=False)   # no heartbeat: the client takes the kernel for alive
    return client


@pytest.mark.parametrize("timeout, said", [(None, "1.5 seconds"), (1, "1 seconds")])
def test_a_kernel_that_never_answers_is_given_up_naming_the_wait(timeout, said):
    client = _client_of_no_kernel(ready_timeout=1.5)
    try:
        with pytest.raises(RuntimeError, match="Kernel didn't respond in " + said):
            asyncio.run(client.wait_for_ready(timeout=timeout))
    finally:
        client.stop_channels()

"""formgrader's process on the hub: ``python -m autograder.hub.formgrader_service ARGS`` is
``python -m jupyterhub.singleuser ARGS``, whose imports are done before the hub listens.

The ``hub`` command starts formgrader at the same moment as JupyterHub (:mod:`.services`).
``jupyterhub.singleuser`` asks the hub's API once as it starts, and when nothing answers it
sleeps 2 s, then 4 s, 8 s, 16 s before it asks again.  So this process first imports what the
server will import (the single-user server, nbgrader's server extensions: most of its start),
then waits until the hub's API (``JUPYTERHUB_API_URL``) accepts a connection, and only then
runs the server, as ``python -m`` would.
"""

import os
import runpy
import socket
import sys
import time
import urllib.parse

WAIT = 300  # seconds: then the server starts anyway, and asks the hub as it always does


def wait_for_hub(url, timeout=WAIT):
    """Return once something listens at ``url``'s host and port, or after ``timeout`` seconds."""
    address = urllib.parse.urlsplit(url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection((address.hostname, address.port), timeout=2).close()
            return
        except OSError:
            time.sleep(0.05)


def main():
    import jupyter_server.serverapp  # noqa: F401
    import jupyter_server_mathjax  # noqa: F401
    import jupyter_server_terminals  # noqa: F401
    import jupyterhub.singleuser  # noqa: F401  (not its .app: importing that makes the server a subclass)
    import nbgrader.server_extensions.assignment_list  # noqa: F401
    import nbgrader.server_extensions.course_list  # noqa: F401
    import nbgrader.server_extensions.formgrader  # noqa: F401
    import nbgrader.server_extensions.validate_assignment  # noqa: F401

    wait_for_hub(os.environ["JUPYTERHUB_API_URL"])
    sys.argv = ["jupyterhub-singleuser"] + sys.argv[1:]
    runpy.run_module("jupyterhub.singleuser", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()

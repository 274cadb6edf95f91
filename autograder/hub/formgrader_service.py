"""formgrader's process on the hub: ``python -m autograder.hub.formgrader_service ARGS`` is
``python -m jupyterhub.singleuser ARGS``, whose imports are done before the hub listens.

The ``hub`` command starts formgrader at the same moment as JupyterHub (:mod:`.services`).
``jupyterhub.singleuser`` asks the hub's API once as it starts, and when nothing answers it
sleeps 2 s, then 4 s, 8 s, 16 s before it asks again.  So this process first imports what the
server will import (the single-user server, nbgrader's server extensions: most of its start;
kept out of the garbage collector's walks, :mod:`warmkernels.frozen_imports`), then waits until the hub's
API (``JUPYTERHUB_API_URL``) accepts a connection, and only then runs the server, as
``python -m`` would.
"""

import os
import socket
import sys
import time
import urllib.parse

from warmkernels.frozen_imports import import_frozen, run_module

WAIT = 300  # seconds: then the server starts anyway, and asks the hub as it always does
# what the server will import (not jupyterhub.singleuser.app: importing it makes the server a subclass)
PRELOAD = ["jupyter_server.serverapp", "jupyter_server_mathjax", "jupyter_server_terminals", "jupyterhub.singleuser",
           "nbgrader.server_extensions.assignment_list", "nbgrader.server_extensions.course_list",
           "nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.validate_assignment"]


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
    import_frozen(PRELOAD)
    wait_for_hub(os.environ["JUPYTERHUB_API_URL"])
    run_module("jupyterhub.singleuser", sys.argv[1:])


if __name__ == "__main__":
    main()

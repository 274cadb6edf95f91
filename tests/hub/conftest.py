"""A class on a real hub: the course copied, real Unix users, JupyterHub on free loopback ports.

``hub_class`` (one per test session) copies the repository as git sees it into
a fresh folder (the course root: its ``solutions/`` and state folder become
the grader account's), then runs the hub's walk-through in
autograder/README.md ("A class on a hub"): its ``shell`` blocks, with
``python`` meaning this Python and the folders the first block names replaced
by temporary ones.  The block starting the hub runs in the background; the
people's names and passwords are read from what it prints.

Cleanup, even after a failure: the hub stopped by its pid (it stops the
servers it started and its proxy), any process left of the class's users
killed by pid, the users and their homes removed (``hub --remove-users``),
the folders deleted.
"""

import os
import shutil
import signal
import subprocess
import sys

import pytest

from hub_course import Class, hub_blocks, kill_processes_of, needs_proxy


@pytest.fixture(scope="session")
def hub_class(needs_sandbox):
    needs_proxy()
    course = Class.on_a_fresh_copy("hub-class-")
    blocks = hub_blocks()
    course.blocks = blocks
    remove = [sys.executable, "-m", "autograder", "hub", "--dir", course.env["HUB"], "--remove-users"]
    try:
        subprocess.run(remove, cwd=course.root, env=course.env, capture_output=True)  # left by a crashed run
        course.start(blocks[1])
        yield course
    finally:
        course.stop()
        proxy_pid = os.path.join(course.env["HUB"], "hub", "proxy.pid")
        if os.path.exists(proxy_pid):  # the hub stops its proxy; this is in case it died first
            try:
                with open(proxy_pid) as f:
                    os.kill(int(f.read().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
        names = list(course.people) + ["grader"]
        kill_processes_of(names)
        subprocess.run(remove, cwd=course.root, env=course.env, capture_output=True)
        shutil.rmtree(course.base, ignore_errors=True)

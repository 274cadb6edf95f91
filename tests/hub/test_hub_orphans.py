"""The hub command collects the orphans it adopted once they end, and leaves the hub's and the
services' exit status to their own ``poll``."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.unit  # in a Python of its own: three short children, nothing else started

REAPS = """
import os, subprocess, sys, time
from autograder.hub.server import adopt_orphans, reap_orphans
from autograder.hub.services import Services

adopt_orphans()
hub = subprocess.Popen([sys.executable, "-c", "raise SystemExit(5)"])
running = Services({"services": []}, os.devnull)
running.processes["formgrader"] = subprocess.Popen([sys.executable, "-c", "raise SystemExit(7)"])
# an orphan: a grandchild whose parent ended, adopted by this process (the subreaper)
parent = subprocess.Popen(["sh", "-c", "sleep 0.2 & echo $!"], stdout=subprocess.PIPE, text=True)
orphan = int(parent.stdout.read())
parent.wait()
for pid in (hub.pid, running.processes["formgrader"].pid, orphan):
    while open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()[0] != "Z":
        time.sleep(0.05)
reap_orphans(hub, running)
print("orphan left", os.path.exists("/proc/%d" % orphan), "hub", hub.poll(),
      "service", running.processes["formgrader"].poll())
"""


def test_an_ended_orphan_is_collected_and_the_hubs_and_services_status_is_kept():
    done = subprocess.run([sys.executable, "-c", REAPS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["orphan", "left", "False", "hub", "5", "service", "7"]

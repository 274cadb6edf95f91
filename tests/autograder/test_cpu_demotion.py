"""A kernel that keeps the CPU busy past its allowance drops to a quarter of the CPU weight; an idle one keeps its own.

Real control groups (``autograder.kernels.cgroups``, v2 or v1 as this machine has), real
processes: one burns the CPU, one sleeps, each in a kernel's group with an
allowance of one CPU second.
"""

import os
import subprocess
import sys
import time

import pytest

from autograder.kernels import cgroups


@pytest.fixture
def groups():
    why = cgroups.why_unavailable()
    if why:
        pytest.skip(why)
    limits = cgroups.CgroupLimits(demote_after_cpu_seconds=1.0)
    made, processes = [], []

    def start(code):
        group = cgroups.KernelCgroup(limits)
        made.append(group)
        process = subprocess.Popen([sys.executable, "-c", code])
        processes.append(process)
        group.join(process.pid)
        group.start_counting()
        return group

    yield start
    for process in processes:
        process.kill()
        process.wait()
    for group in made:
        group.remove()


def test_a_cpu_burner_is_demoted_and_a_sleeper_is_not(groups):
    burner = groups("while True:\n    pass")
    sleeper = groups("import time\ntime.sleep(60)")
    deadline = time.monotonic() + 30
    while not burner.demoted and time.monotonic() < deadline:
        time.sleep(0.2)
    assert burner.demoted, "a kernel that used %.1f CPU seconds kept an honest kernel's weight" % burner.cpu_seconds()
    assert not sleeper.demoted, "an idle kernel was demoted (%.1f CPU seconds)" % sleeper.cpu_seconds()


def test_a_demoted_kernel_gets_its_full_weight_back_when_the_tests_begin_and_keeps_it(groups):
    burner = groups("while True:\n    pass")
    deadline = time.monotonic() + 30
    while not burner.demoted and time.monotonic() < deadline:
        time.sleep(0.2)
    assert burner.demoted, "a kernel that used %.1f CPU seconds kept an honest kernel's weight" % burner.cpu_seconds()
    demoted = _weight(burner)
    burner.stop_counting()
    assert not burner.demoted and _weight(burner) > demoted, (demoted, _weight(burner))
    time.sleep(3 * cgroups.WATCH_SECONDS)   # the watcher no longer looks at it
    assert not burner.demoted and _weight(burner) > demoted, "the burner was demoted again during its tests"


def _weight(group):
    """The group's CPU weight as the kernel reads it (v2 ``cpu.weight``, v1 ``cpu.shares``)."""
    for folder in group.folders:
        for name in ("cpu.weight", "cpu.shares"):
            path = os.path.join(folder, name)
            if os.path.exists(path):
                with open(path) as f:
                    return int(f.read())
    raise AssertionError("no CPU weight file in %s" % group.folders)


def test_a_demoted_kernel_removed_before_its_tests_has_no_weight_to_get_back():
    """A cell that would not stop, or a kernel that died, ends the kernel and removes its group
    before the tests would begin: the grader then records why, not a failure of its own."""
    why = cgroups.why_unavailable()
    if why:
        pytest.skip(why)
    group = cgroups.KernelCgroup(cgroups.CgroupLimits())
    group.demote()
    assert group.remove()
    group.stop_counting()
    assert not group.demoted

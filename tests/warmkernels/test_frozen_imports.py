"""``python -m warmkernels.frozen_imports`` (how the hub runs JupyterHub and the people's servers)
is ``python -m MODULE ARGS`` whose imports the garbage collector never walks again.

A module of the test's own, run through it, reports what it finds: the modules asked for are
imported before it runs, the collector runs, and what the process held then is in the
collector's permanent generation; the garbage it leaves is collected (its finalizer runs) and at
exit (an ``atexit`` handler) nothing is left for the interpreter's last collections to walk; the
module's exit status is the process's.
"""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e  # a process of its own

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROBE = """
import atexit, gc, sys
print("imported: %s" % ("email.parser" in sys.modules))
print("collecting: %s" % gc.isenabled())
print("frozen: %d" % gc.get_freeze_count())
print("name: %s" % __name__)
print("argv: %s" % sys.argv[1:])
atexit.register(lambda: print("tracked at exit: %d" % len(gc.get_objects()), flush=True))
class Cycle:  # garbage the module leaves: it is finalized before the process exits, as it would be
    def __del__(self):
        print("cycle finalized: yes", flush=True)
cycle = Cycle()
cycle.me = cycle
del cycle
sys.exit(int(sys.argv[-1]))
"""


def run_probe(tmp_path, *args):
    """The probe run through ``frozen_imports`` with ``args``: its exit status and what it said."""
    (tmp_path / "probe_main.py").write_text(PROBE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.path.join(REPO, "src")]))
    done = subprocess.run([sys.executable, "-m", "warmkernels.frozen_imports", "--import=email.parser",
                           "probe_main"] + list(args), env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, dict(line.split(": ", 1) for line in done.stdout.splitlines()), done.stderr


def test_the_module_runs_as_main_with_its_arguments_after_the_imports_frozen(tmp_path):
    status, said, errors = run_probe(tmp_path, "-f", "config.py", "0")
    assert status == 0, errors
    assert said["imported"] == "True" and said["collecting"] == "True", said
    assert int(said["frozen"]) > 1000, "the imports were not moved to the permanent generation: %s" % said
    assert (said["name"], said["argv"]) == ("__main__", "['-f', 'config.py', '0']"), said
    assert said["tracked at exit"] == "0", "the interpreter's exit would walk these objects: %s" % said
    assert list(said)[-2:] == ["cycle finalized", "tracked at exit"], "the garbage was frozen, never finalized: %s" % said


def test_the_modules_exit_status_is_the_processs(tmp_path):
    status, said, errors = run_probe(tmp_path, "3")
    assert status == 3, (said, errors)

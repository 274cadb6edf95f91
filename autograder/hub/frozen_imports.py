"""The hub's long-lived Python processes keep what they import out of the cyclic garbage collector.

JupyterHub, formgrader and a person's server each import a few thousand modules as they start
and keep every one of them until they exit.  Python's cyclic collector walks all the objects
it tracks whenever enough new ones have been made: during the imports it walks what has been
imported so far again and again, and as the interpreter exits it walks all of it once more,
although none of it is garbage.  So such a process imports with the collector paused
(:func:`import_frozen`), moves what it then holds into the collector's permanent generation
(``gc.freeze``), and does so again before it exits (:func:`run_module`): the collector only
ever walks what the process made since, which is where its garbage is.

    python -m autograder.hub.frozen_imports [--import=NAME ...] MODULE [ARGS ...]

is ``python -m MODULE ARGS`` once the modules ``NAME`` are imported so.
"""

import gc
import importlib
import runpy
import sys

IMPORT = "--import="


def import_frozen(names):
    """Import the modules ``names`` with the collector paused, then freeze everything this
    process holds (``gc.freeze``: never walked by a collection again) and resume collecting."""
    gc.disable()
    try:
        for name in names:
            importlib.import_module(name)
    finally:
        gc.freeze()
        gc.enable()


def run_module(name, args):
    """Run the module ``name`` as ``python -m name args`` would; whatever this process holds when
    it returns or raises is frozen, so the interpreter's exit does not walk it."""
    sys.argv = [name] + list(args)
    try:
        runpy.run_module(name, run_name="__main__", alter_sys=True)
    finally:
        gc.freeze()


def main(argv):
    names = []
    while argv and argv[0].startswith(IMPORT):
        names.append(argv.pop(0)[len(IMPORT):])
    import_frozen(names)
    run_module(argv[0], argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])

"""Long-lived imports kept out of the cyclic garbage collector: a zygote's, a server's, a command's.

A process that imports a few thousand modules (torch, Jupyter Server, JupyterHub, nbgrader,
dask) keeps every one of them until it exits.  Python's cyclic collector walks all the objects
it tracks whenever enough new ones have been made: during the imports it walks what has been
imported so far again and again, and as the interpreter exits it walks all of it once more,
although none of it is garbage.  So such a process imports with the collector paused
(:func:`import_frozen`), moves what it then holds into the collector's permanent generation
(``gc.freeze``), and does so again, after collecting the garbage it made (whose finalizers run
as they would at exit), before it exits (:func:`run_frozen`): the collector only ever walks what
the process made since, which is where its garbage is.  A zygote's children also keep their
pages shared with it: a collection no longer writes the frozen objects' headers.  A command that
imports as it goes freezes at its end only.

    python -m warmkernels.frozen_imports [--import=NAME ...] MODULE [ARGS ...]

is ``python -m MODULE ARGS`` once the modules ``NAME`` are imported so.
"""

import gc
import importlib
import runpy
import sys

IMPORT = "--import="


def import_frozen(names, missing_ok=False):
    """Import the modules ``names`` with the collector paused, then freeze everything this
    process holds (``gc.freeze``: never walked by a collection again) and resume collecting.
    With ``missing_ok``, a module that cannot be imported here is left out."""
    gc.disable()
    try:
        for name in names:
            try:
                importlib.import_module(name)
            except ImportError:
                if not missing_ok:
                    raise
    finally:
        gc.freeze()
        gc.enable()


def run_module(name, args):
    """Run the module ``name`` as ``python -m name args`` would, through :func:`run_frozen`."""
    sys.argv = [name] + list(args)
    run_frozen(runpy.run_module, name, run_name="__main__", alter_sys=True)


def run_frozen(main, *args, **kwargs):
    """``main(*args, **kwargs)``'s value; when it returns or raises, the garbage of this process
    is collected (its finalizers run, as at exit) and everything still held is frozen, so the
    interpreter's exit does not walk it."""
    try:
        return main(*args, **kwargs)
    finally:
        collect_and_freeze()


def collect_and_freeze():
    """Collect this process's garbage (its finalizers run), then freeze all it still holds."""
    gc.collect()
    gc.freeze()


def main(argv):
    names = []
    while argv and argv[0].startswith(IMPORT):
        names.append(argv.pop(0)[len(IMPORT):])
    import_frozen(names)
    run_module(argv[0], argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])

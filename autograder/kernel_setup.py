"""What runs inside every kernel that grades a notebook, before the first cell.

Two jobs, both installed by :func:`install`:

1. Warnings go to stdout, not stderr.  nbgrader gives 0 points to a graded cell
   that wrote anything to stderr, and ``torch.tensor(t)`` on a tensor ``t``
   emits a ``UserWarning``.  A warning is advice, not a failure, so it is
   printed (same text, same "once per place" rule of the ``warnings`` module)
   on stdout, where it stays visible in the feedback without costing points.
   Anything else a cell writes to stderr still counts as nbgrader says.

2. A fingerprint of the objects the tests trust.  ``install`` records the
   identity of every attribute of ``builtins``, ``torch``, ``torch.Tensor``,
   ``reftorch``, ``reftorch.Tensor``, the check library ``autograder.checks``
   and of IPython's execution hooks.  :func:`tampering` compares them again
   after each test cell: a notebook that replaced ``torch.equal``,
   ``builtins.isinstance`` or a check function to fake a pass is caught, and
   the grader gives 0 to every test that ran after the replacement.

The grader asks for the comparison through the kernel's ``user_expressions``
(see ``autograder.execute``); nothing here is visible in the notebook's
namespace.
"""

import importlib
import os
import pkgutil
import sys
import time
import warnings

# Names that IPython and ipykernel themselves rebind while cells run.
_REBOUND_BY_JUPYTER = {
    "_", "__", "___", "_i", "_ii", "_iii", "_oh", "_ih", "_dh", "In", "Out",
    "input", "raw_input", "getpass", "display", "get_ipython", "exit", "quit",
}

# The modules (and classes) whose attributes the tests rely on.
WATCHED = ["builtins", "torch", "torch.Tensor", "torch.testing", "reftorch", "reftorch.Tensor",
           "autograder.checks"]

_fingerprint = {}
setup_seconds = 0.0  # how long install() took: mostly importing torch, unless already imported


def _show_on_stdout(message, category, filename, lineno, file=None, line=None):
    """``warnings.showwarning`` replacement: same text, printed on stdout."""
    text = warnings.formatwarning(message, category, filename, lineno, line)
    sys.stdout.write(text)


def _watched_objects():
    """``{label: object}`` for everything :data:`WATCHED` names, plus the check submodules."""
    objects = {}
    for dotted in WATCHED:
        try:
            objects[dotted] = pkgutil.resolve_name(dotted)
        except (ImportError, AttributeError):
            continue
    for name, module in list(sys.modules.items()):
        if name.startswith("autograder.checks.") and module is not None:
            objects[name] = module
    return objects


def _ipython_hooks():
    """Identity of the IPython machinery that turns a cell into a result."""
    try:
        from IPython import get_ipython
    except ImportError:
        return {}, {}
    shell = get_ipython()
    if shell is None:
        return {}, {}
    hooks = {
        "shell.run_cell": shell.run_cell,
        "shell.run_ast_nodes": shell.run_ast_nodes,
        "shell.run_code": shell.run_code,
        "shell.showtraceback": shell.showtraceback,
        "shell.showsyntaxerror": shell.showsyntaxerror,
    }
    counts = {
        "shell.ast_transformers": len(shell.ast_transformers),
        "shell.input_transformers_cleanup": len(shell.input_transformers_cleanup),
        "shell.input_transformers_post": len(shell.input_transformers_post),
    }
    return {name: getattr(value, "__func__", value) for name, value in hooks.items()}, counts


def _take_fingerprint(objects=None):
    """``{name: id(object)}`` for everything watched; fills ``objects`` with the objects."""
    prints = {}
    for label, obj in _watched_objects().items():
        for name, value in list(vars(obj).items()):
            if label == "builtins" and name in _REBOUND_BY_JUPYTER:
                continue
            prints[label + "." + name] = id(value)
            if objects is not None:
                objects[label + "." + name] = value
    for name in ("torch", "reftorch", "builtins", "autograder.checks"):
        if name in sys.modules:
            prints["sys.modules[%r]" % name] = id(sys.modules[name])
    prints["sys.gettrace()"] = id(sys.gettrace())
    functions, counts = _ipython_hooks()
    prints.update({name: id(f) for name, f in functions.items()})
    prints.update(counts)
    return prints


def tampering():
    """The watched names whose object changed or vanished since :func:`install`.

    Returns a short list of strings such as ``"torch.equal was replaced"``.
    Attributes added after ``install`` (torch imports submodules lazily) are
    not reported: a new name cannot change what an existing test calls.
    """
    current = {}
    now = _take_fingerprint(current)
    found = []
    for name, before in _fingerprint.items():
        if name not in now:
            found.append(name + " was deleted")
        elif now[name] != before and not _wrapped_by_torch(current.get(name), before):
            found.append(name + " was replaced")
    return sorted(found)[:20]


def _wrapped_by_torch(obj, original_id):
    """True when torch's own code wrapped the original object (``__wrapped__`` chain).

    torch re-wraps a few of its functions when a submodule is first imported
    (``import torch._dynamo`` wraps ``torch.manual_seed``); that is not the
    notebook's doing.  Every wrapper on the way must be code from torch's folder.
    """
    torch = sys.modules.get("torch")
    if torch is None or obj is None:
        return False
    folder = os.path.dirname(torch.__file__) + os.sep
    while obj is not None:
        code = getattr(obj, "__code__", None)
        if code is None or not code.co_filename.startswith(folder):
            return False
        obj = getattr(obj, "__wrapped__", None)
        if obj is not None and id(obj) == original_id:
            return True
    return False


def import_trusted_modules():
    """Import torch, reftorch and every module of the check library, so they can be watched."""
    for module in ("torch", "reftorch", "autograder.checks"):
        try:
            importlib.import_module(module)
        except ImportError:
            pass
    checks = sys.modules.get("autograder.checks")
    if checks is not None:
        for info in pkgutil.iter_modules(checks.__path__, "autograder.checks."):
            try:
                importlib.import_module(info.name)
            except Exception:  # a broken check module fails in its test cell, visibly
                pass


def _forget_notebook_folder():
    """Take the kernel's folder off ``sys.path``: nothing there may shadow a module the tests import.

    Kernels are started with ``python -P`` and ``ignore_cwd``, so it should
    not be there; this makes sure before anything is imported.
    """
    here = os.getcwd()
    sys.path[:] = [p for p in sys.path if p not in ("", ".") and os.path.abspath(p) != here]


def install():
    """Route warnings to stdout and fingerprint the trusted objects."""
    global setup_seconds
    started = time.perf_counter()
    _forget_notebook_folder()
    warnings.showwarning = _show_on_stdout
    import_trusted_modules()
    _fingerprint.clear()
    _fingerprint.update(_take_fingerprint())
    setup_seconds = time.perf_counter() - started


# Passed to every grading kernel; runs install() before the first cell.
KERNEL_ARGUMENTS = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.ignore_cwd=True",
    "--IPKernelApp.exec_lines=['import autograder.kernel_setup as _ag_setup', "
    "'_ag_setup.install()', 'del _ag_setup']",
]

# The expression the grader evaluates (through user_expressions) after each test cell.
TAMPERING_EXPRESSION = "__import__('autograder.kernel_setup').kernel_setup.tampering()"
SETUP_SECONDS_EXPRESSION = "__import__('autograder.kernel_setup').kernel_setup.setup_seconds"

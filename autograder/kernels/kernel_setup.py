"""What runs inside every kernel that grades a notebook, before the first cell.

Two jobs, both installed by :func:`install`:

1. Warnings go to stdout, not stderr.  nbgrader gives 0 points to a graded cell
   that wrote anything to stderr, and ``torch.tensor(t)`` on a tensor ``t``
   emits a ``UserWarning``.  A warning is advice, not a failure, so it is
   printed (same text, same "once per place" rule of the ``warnings`` module)
   on stdout, where it stays visible in the feedback without costing points.
   Anything else a cell writes to stderr still counts as nbgrader says.

2. A fingerprint of the objects the tests trust.  ``install`` records the
   identity of every attribute of ``builtins``, ``torch``, ``reftorch`` and all
   its modules, the check library ``autograder.checks``, the standard-library
   modules the checks use (``copy``, ``warnings``, ...), this module itself (the
   tripwire), and of IPython's execution hooks; for classes (``torch.Tensor``,
   ``nn.Module``, every reftorch class...) the attribute each name resolves to
   through the class's MRO, so a method inherited from torch's C base class
   (``clone``, ``new_tensor``, ``data``) that is shadowed by an assignment on
   ``torch.Tensor`` counts as replaced; and for functions, their code, defaults
   and closure.  :func:`tampering` compares them again after each test cell: a
   notebook that replaced ``torch.equal``, ``builtins.isinstance``, ``copy.deepcopy``,
   a check function or the tripwire to fake a pass is caught, and the grader
   gives 0 to every test from then on.  The checks' and reftorch's constants
   (module-level names in capitals: the test data) are also fingerprinted by
   *contents*, so rewriting them in place is caught too.  ``install`` also
   imports the allowlist (``autograder.kernels.allowlist``) and hands it the objects the
   checks hold, which a learner's cell may then not write.  Because a replaced tripwire would
   report nothing, the grader also compares a *seal* (:data:`TAMPERING_EXPRESSION`
   computes it with builtins only) with the one it read before the first cell.

The grader asks for the comparison through the kernel's ``user_expressions``
(see ``autograder.kernels.execute``); nothing here is visible in the notebook's
namespace.
"""

import hashlib
import importlib
import json
import os
import pkgutil
import sys
import time
import types
import warnings

# Names that IPython and ipykernel themselves rebind while cells run.
_REBOUND_BY_JUPYTER = {
    "_", "__", "___", "_i", "_ii", "_iii", "_oh", "_ih", "_dh", "In", "Out",
    "input", "raw_input", "getpass", "display", "get_ipython", "exit", "quit",
}

# The modules (and classes) whose attributes the tests rely on; every module whose name starts
# with a prefix in WATCHED_PACKAGES is watched too, with the classes it defines.
WATCHED = ["builtins", "torch", "torch.Tensor", "torch.testing", "torch.nn", "torch.nn.Module",
           "torch.nn.Parameter", "torch.nn.Linear", "torch.nn.Sequential", "torch.optim",
           "torch.optim.SGD", "torch.optim.Optimizer", "torch.autograd", "reftorch", "reftorch.Tensor",
           "autograder.checks", "autograder.kernels.kernel_setup", "autograder.kernels.allowlist",
           # the standard library (and numpy) as the checks use it
           "copy", "copyreg", "warnings", "re", "contextlib", "dataclasses", "random", "functools",
           "operator", "traceback", "linecache", "os", "os.path", "types", "numpy", "numpy.ndarray",
           # save_and_load reads the files both sides write; target_network trains BatchNorm1d
           "io", "zipfile", "zipfile.ZipFile", "torch.serialization", "torch.nn.BatchNorm1d"]
WATCHED_PACKAGES = ("reftorch.", "autograder.checks.")

_fingerprint = {}
setup_seconds = 0.0  # how long install() took: mostly importing torch, unless already imported


def _show_on_stdout(message, category, filename, lineno, file=None, line=None):
    """``warnings.showwarning`` replacement: same text, printed on stdout."""
    text = warnings.formatwarning(message, category, filename, lineno, line)
    sys.stdout.write(text)


def _watched_objects():
    """``{label: object}`` for everything :data:`WATCHED` names, plus the modules of the watched
    packages and the classes they define."""
    objects = {}
    for dotted in WATCHED:
        try:
            objects[dotted] = pkgutil.resolve_name(dotted)
        except (ImportError, AttributeError, ValueError):
            continue
    for name, module in sorted(sys.modules.items()):
        if name.startswith(WATCHED_PACKAGES) and module is not None:
            objects[name] = module
            for attribute, value in list(vars(module).items()):
                if isinstance(value, type) and getattr(value, "__module__", None) == name:
                    objects[name + "." + attribute] = value
    return objects


def _resolved(cls):
    """``{name: value}`` as attribute lookup on the class finds them: the first class of the MRO
    whose ``__dict__`` has the name wins (``object`` left out: it cannot be changed)."""
    found = {}
    for klass in reversed(cls.__mro__[:-1] if cls.__mro__[-1] is object else cls.__mro__):
        found.update(vars(klass))
    return found


_FUNCTION = types.FunctionType
_BOUND = (staticmethod, classmethod, types.MethodType)


def _function_parts(key, value, prints):
    """What can be swapped inside a function without replacing it: code, defaults, closure."""
    if type(value) in _BOUND:
        value = value.__func__
    if type(value) is not _FUNCTION:
        return
    prints[key + ".__code__"] = id(value.__code__)
    prints[key + ".__defaults__"] = id(value.__defaults__)
    prints[key + ".__kwdefaults__"] = id(value.__kwdefaults__)
    for i, cell in enumerate(value.__closure__ or ()):
        try:
            prints["%s.__closure__[%d]" % (key, i)] = id(cell.cell_contents)
        except ValueError:  # an empty cell
            pass


_DATA = (list, tuple, dict, set, frozenset, str, bytes, int, float, bool, type(None))


def contents(value, budget=None):
    """A digest of what ``value`` holds (containers, numbers, strings, torch tensors, numpy arrays),
    or None for anything else. Equal contents give equal digests, whatever the objects' ids."""
    budget = budget if budget is not None else [20_000]
    digest = hashlib.sha256()

    def feed(item, depth):
        budget[0] -= 1
        if budget[0] < 0 or depth > 6:
            digest.update(b"...")
            return
        if isinstance(item, (str, bytes, int, float, bool, type(None))):
            digest.update(repr(item).encode())
        elif isinstance(item, (list, tuple)):
            digest.update(b"[" if isinstance(item, list) else b"(")
            for part in item:
                feed(part, depth + 1)
            digest.update(b"]")
        elif isinstance(item, dict):
            digest.update(b"{")
            for key in sorted(item, key=repr):
                feed(key, depth + 1)
                feed(item[key], depth + 1)
            digest.update(b"}")
        elif isinstance(item, (set, frozenset)):
            digest.update(b"<" + ",".join(sorted(repr(x) for x in item)).encode() + b">")
        elif _is_array(item):
            digest.update(repr((type(item).__name__, tuple(item.shape), str(item.dtype))).encode())
            if _numel(item) <= 100_000:
                digest.update(repr(item.tolist()).encode())
        else:
            digest.update(("<%s>" % type(item).__qualname__).encode())

    if not isinstance(value, _DATA) and not _is_array(value):
        return None
    feed(value, 0)
    return digest.hexdigest()


def _is_array(item):
    module = type(item).__module__ or ""
    return (module.startswith(("torch", "numpy")) and hasattr(item, "tolist") and hasattr(item, "shape")
            and hasattr(item, "dtype"))


def _numel(item):
    n = 1
    for size in item.shape:
        n *= size
    return n


def _constant(label, name):
    """A module-level constant of the check library or reftorch (a name in capitals): test data."""
    return label.startswith(("autograder.checks", "reftorch")) and name.isupper() and label in sys.modules


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
        items = _resolved(obj) if isinstance(obj, type) else vars(obj)
        for name, value in list(items.items()):
            if label == "builtins" and name in _REBOUND_BY_JUPYTER:
                continue
            key = label + "." + name
            prints[key] = id(value)
            if objects is not None:
                objects[key] = value
            _function_parts(key, value, prints)
            if _constant(label, name):
                digest = contents(value)
                if digest is not None:
                    prints[key + " (contents)"] = digest
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
    if not _fingerprint:
        return ["autograder.kernels.kernel_setup._fingerprint was emptied"]
    current = {}
    now = _take_fingerprint(current)
    found = []
    rewrapped = set()  # functions torch itself wrapped since install (their parts changed with them)
    for name, before in _fingerprint.items():
        if name in _VOLATILE or name.endswith(_CACHED_BY_PYTHON):
            continue
        if name not in now:
            found.append(name + " was deleted")
        elif now[name] != before:
            if name.endswith(" (contents)"):
                found.append(name[:-len(" (contents)")] + " was changed in place")
            elif _wrapped_by_torch(current.get(name), before):
                rewrapped.add(name)
            elif not _part_of_rewrapped(name, rewrapped):
                found.append(name + " was replaced")
    for name in now:
        if name not in _fingerprint and _class_attribute(name) and not name.endswith(_CACHED_BY_PYTHON):
            found.append(name + " was added")
    return sorted(found)[:20]


def _part_of_rewrapped(name, rewrapped):
    """``torch.f.__code__`` (or ``__closure__[0]``...) of a function torch re-wrapped."""
    owner, _, part = name.rpartition(".")
    return part.startswith(("__code__", "__defaults__", "__kwdefaults__", "__closure__")) and owner in rewrapped


# Names the tripwire itself rebinds after taking the fingerprint.
_VOLATILE = {"autograder.kernels.kernel_setup.setup_seconds"}
# Attributes Python itself caches on classes when they are first used (copyreg stores
# __slotnames__ the first time an object with __slots__ is copied or pickled).
_CACHED_BY_PYTHON = ("__slotnames__",)


def _class_attribute(name):
    """True for a fingerprint entry that is an attribute of a watched class (a new name on a
    class changes what its instances do; a new name in a module is a lazy import)."""
    owner = name.rsplit(".", 1)[0]
    return owner in _classes


_classes = set()  # labels of the watched classes, set by install()


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


# -- the report the grader compares itself -------------------------------------------------------
#
# tampering() answers in the kernel, from a fingerprint the kernel keeps: a notebook that reaches this
# module could refresh that fingerprint after its replacements (same dict, same size: the seal holds)
# and the answer would be "nothing".  So the grader does not ask for a verdict: before the first cell
# it reads the whole report (:func:`report`, taken by code no learner cell has run beside yet) and
# keeps it in its own process; after each test cell it reads a digest of the report, and when that
# differs, the report itself, and compares the two with :func:`differences`, on its side.

def _torch_chain(obj):
    """Ids along ``obj``'s ``__wrapped__`` chain, as long as every wrapper is torch's own code."""
    torch = sys.modules.get("torch")
    if torch is None or getattr(obj, "__wrapped__", None) is None:
        return None
    folder = os.path.dirname(torch.__file__) + os.sep
    chain = []
    while obj is not None:
        code = getattr(obj, "__code__", None)
        if code is None or not code.co_filename.startswith(folder):
            break
        obj = getattr(obj, "__wrapped__", None)
        if obj is not None:
            chain.append(id(obj))
    return chain or None


def report():
    """The fingerprint now, as JSON: ``prints`` (:func:`_take_fingerprint`), ``chains`` (for each
    function torch wrapped, the ids it wraps), ``classes`` (the watched classes) and ``seal`` (the
    identity of this module's own functions, so replacing them shows)."""
    objects = {}
    prints = _take_fingerprint(objects)
    chains = {}
    for key, obj in objects.items():
        try:
            chain = _torch_chain(obj)
        except Exception:   # an object whose attributes raise: no chain
            chain = None
        if chain:
            chains[key] = chain
    me = sys.modules[__name__]
    seal = [id(me)] + [id(f) for f in (report, _take_fingerprint, _torch_chain, _watched_objects, contents)] \
        + [id(f.__code__) for f in (report, _take_fingerprint, _torch_chain, _watched_objects, contents)]
    return json.dumps({"prints": prints, "chains": chains, "classes": sorted(_classes), "seal": seal},
                      sort_keys=True)


def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()


def differences(before, now):
    """What changed from the report ``before`` to ``now`` (both parsed): the grader's verdict."""
    if now.get("seal") != before.get("seal"):
        return ["the tampering check itself (autograder.kernels.kernel_setup) was replaced"]
    old, new, chains = before["prints"], now["prints"], now.get("chains", {})
    classes = set(before.get("classes", ()))
    found, rewrapped = [], set()
    for name, value in old.items():
        if name in _VOLATILE or name.endswith(_CACHED_BY_PYTHON):
            continue
        if name not in new:
            found.append(name + " was deleted")
        elif new[name] != value:
            if name.endswith(" (contents)"):
                found.append(name[:-len(" (contents)")] + " was changed in place")
            elif value in chains.get(name, ()):
                rewrapped.add(name)
            elif not _part_of_rewrapped(name, rewrapped):
                found.append(name + " was replaced")
    for name in new:
        if name not in old and name.rsplit(".", 1)[0] in classes and not name.endswith(_CACHED_BY_PYTHON):
            found.append(name + " was added")
    return sorted(found)[:20]


def import_trusted_modules():
    """Import torch, reftorch and every module of the check library, so they can be watched."""
    for module in ("torch", "reftorch", "autograder.checks", "autograder.kernels.allowlist"):
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
    _classes.clear()
    _classes.update(label for label, obj in _watched_objects().items() if isinstance(obj, type))
    allowlist = sys.modules.get("autograder.kernels.allowlist")
    if allowlist is not None:   # what the checks hold may not be written by a learner's cell
        allowlist.capture_trusted([vars(module) for label, module in _watched_objects().items()
                                   if isinstance(module, types.ModuleType) and label.startswith("autograder.checks")])
    setup_seconds = time.perf_counter() - started


# Passed to every grading kernel; runs install() before the first cell.
KERNEL_ARGUMENTS = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.ignore_cwd=True",
    "--IPKernelApp.exec_lines=['import autograder.kernels.kernel_setup as _ag_setup', "
    "'_ag_setup.install()', 'del _ag_setup']",
]

# The expression the grader evaluates (through user_expressions) after each test cell: what
# tampering() found, and a seal of the tripwire itself computed with builtins only (the module
# object, its functions and their code, the fingerprint's size), which the grader compares with
# the seal it read before the first cell. A notebook that replaces tampering() (or empties the
# fingerprint) changes the seal.
SEAL_EXPRESSION = (
    "(lambda m: (id(m), id(m.tampering), id(m.tampering.__code__), id(m._take_fingerprint), "
    "id(m._take_fingerprint.__code__), id(m._fingerprint), len(m._fingerprint), id(m._classes), "
    "len(m._classes)))(__import__('sys').modules['autograder.kernels.kernel_setup'])"
)
TAMPERING_EXPRESSION = (
    "(__import__('sys').modules['autograder.kernels.kernel_setup'].tampering(), " + SEAL_EXPRESSION + ")"
)
# What the grader reads: the report before the first cell, its digest after each test (see report()).
REPORT_EXPRESSION = "__import__('sys').modules['autograder.kernels.kernel_setup'].report()"
DIGEST_EXPRESSION = ("(lambda m: m.digest(m.report()))(__import__('sys').modules['autograder.kernels.kernel_setup'])")
SETUP_SECONDS_EXPRESSION = "__import__('autograder.kernels.kernel_setup').kernels.kernel_setup.setup_seconds"

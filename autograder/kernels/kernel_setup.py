"""What runs inside every kernel that grades a notebook, before the first cell.

Two jobs, both installed by :func:`install`:

1. Warnings go to stdout, not stderr.  nbgrader gives 0 points to a graded cell
   that wrote anything to stderr, and ``torch.tensor(t)`` on a tensor ``t``
   emits a ``UserWarning``.  A warning is advice, not a failure, so it is
   printed (same text, same "once per place" rule of the ``warnings`` module)
   on stdout, where it stays visible in the feedback without costing points.
   Anything else a cell writes to stderr still counts as nbgrader says.

2. A fingerprint of the objects the tests trust.  :func:`report` records the
   identity of every attribute of ``builtins``, ``torch``, ``reftorch`` and all
   its modules, the check library ``autograder.checks``, the standard-library
   modules the checks use (``copy``, ``warnings``, ...), this module itself (the
   tripwire), and of IPython's execution hooks; for classes (``torch.Tensor``,
   ``nn.Module``, every reftorch class...) the attribute each name resolves to
   through the class's MRO, so a method inherited from torch's C base class
   (``clone``, ``new_tensor``, ``data``) that is shadowed by an assignment on
   ``torch.Tensor`` counts as replaced; and for functions, their code, defaults
   and closure.  The checks' and reftorch's constants (module-level names in
   capitals: the test data) are also fingerprinted by *contents*, so rewriting
   them in place is caught too.  The grader reads the report before the first
   cell and keeps it; after each test cell it reads :func:`fingerprint_digest`
   (a digest of the same state, about 5 times cheaper) and, when that moved,
   the report again, and compares the two itself (:func:`differences`): a
   notebook that replaced ``torch.equal``, ``builtins.isinstance``,
   ``copy.deepcopy``, a check function or the tripwire to fake a pass is
   caught, and the grader gives 0 to every test from then on.  Because a
   replaced tripwire could answer with a report it saved, the grader also
   compares a *seal* (:data:`SEAL`, computed by the grader's expression with
   builtins only) with the one it read before the first cell.  ``install``
   imports the trusted modules and the allowlist (``autograder.kernels.allowlist``)
   and hands the allowlist the objects the checks hold, which a learner's cell
   may then not write.

The grader asks for all of it through the kernel's ``user_expressions``
(see ``autograder.kernels.execute``); nothing here is visible in the notebook's
namespace.
"""

import hashlib
import importlib
import json
import operator
import os
import pkgutil
import sys
import time
import types
import warnings
from array import array

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
           "autograder.checks", "autograder.witness", "autograder.kernels.kernel_setup", "autograder.kernels.allowlist",
           # the standard library (and numpy) as the checks use it
           "copy", "copyreg", "warnings", "re", "contextlib", "dataclasses", "random", "functools",
           "operator", "traceback", "linecache", "os", "os.path", "types", "numpy", "numpy.ndarray",
           # save_and_load reads the files both sides write; target_network trains BatchNorm1d
           "io", "zipfile", "zipfile.ZipFile", "torch.serialization", "torch.nn.BatchNorm1d"]
WATCHED_PACKAGES = ("reftorch.", "autograder.checks.", "autograder.witness.")

_classes = set()  # labels of the watched classes, set by install()
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
_CALLABLES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def contents(value, budget=None):
    """A digest of what ``value`` holds (containers, numbers, strings, torch tensors, numpy arrays),
    or None for anything else. Equal contents give equal digests, whatever the containers' ids.
    A function inside (the checks' tables of misconceptions, reftorch's dispatch tables) counts by
    its identity and its code's: putting another function in a table, or another code in one of
    its functions, changes the digest."""
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
        elif type(item) in _CALLABLES:
            code = getattr(item, "__code__", None)
            digest.update(("<%s %d %d>" % (type(item).__qualname__, id(item), id(code))).encode())
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
    return label.startswith(_CONSTANT_PREFIXES) and name.isupper() and label in sys.modules


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


def _namespaces():
    """``(label, names, values)`` for every watched object, as the fingerprint and its digest see it:
    a module's ``vars()``, a class's attributes as lookup finds them (:func:`_resolved`), each taken
    in one step (a copy of the items), without the names Jupyter and Python themselves rebind."""
    for label, obj in _watched_objects().items():
        namespace = _resolved(obj) if isinstance(obj, type) else vars(obj)
        items = list(namespace.items())
        if label == "builtins":
            items = [item for item in items if item[0] not in _REBOUND_BY_JUPYTER]
        elif any(name in namespace for name in _CACHED_BY_PYTHON):
            items = [item for item in items if item[0] not in _CACHED_BY_PYTHON]
        yield label, list(map(_first, items)), list(map(_second, items))


_first, _second = operator.itemgetter(0), operator.itemgetter(1)


def _take_fingerprint(objects=None):
    """``{name: id(object)}`` for everything watched; fills ``objects`` with the objects."""
    prints = {}
    for label, names, values in _namespaces():
        for name, value in zip(names, values):
            key = label + "." + name
            prints[key] = id(value)
            if objects is not None:
                objects[key] = value
            _function_parts(key, value, prints)
            if _constant(label, name):
                digest = contents(value)
                if digest is not None:
                    prints[key + " (contents)"] = digest
    for name, module_id in _trusted_module_ids():
        prints["sys.modules[%r]" % name] = module_id
    prints["sys.gettrace()"] = id(sys.gettrace())
    functions, counts = _ipython_hooks()
    prints.update({name: id(f) for name, f in functions.items()})
    prints.update(counts)
    return prints


def _trusted_module_ids():
    return [(name, id(sys.modules[name])) for name in ("torch", "reftorch", "builtins", "autograder.checks")
            if name in sys.modules]


def fingerprint_digest():
    """A digest of everything :func:`_take_fingerprint` reads, without building it: what the grader
    asks for after each test cell (``DIGEST_EXPRESSION``), about 5 times cheaper than :func:`report`.

    It changes whenever the report would (the converse need not hold: a digest that moved makes the
    grader read the whole report and compare, :func:`differences`).  For that it takes, from the
    same :func:`_namespaces`, every label and name (with their lengths, so no two lists of names
    give the same bytes), the id of every value, the code, defaults, keyword defaults and closure
    of every function, and the contents of every constant of the checks and reftorch: a number or
    a string by its ``repr`` (what :func:`contents` hashes for it), anything else by
    :func:`contents`.  Then the trusted modules, ``sys.gettrace()`` and IPython's hooks, as the
    report has them.  The grader compares the result with the digest it read with the first
    report (``autograder.kernels.execute``), never asking the kernel for a verdict.

    It is several times cheaper than ``report()`` (docs/decisions/0015).
    """
    lengths, names, ids, where, parts, texts = array("Q"), [], array("Q"), array("Q"), array("Q"), []
    for label, keys, values in _namespaces():
        names.append(label)
        names.extend(keys)
        lengths.append(len(label))
        lengths.append(len(keys))
        lengths.extend(map(len, keys))
        first = len(ids)
        ids.extend(map(id, values))
        for i, value in enumerate(values):
            kind = type(value)
            if kind in _BOUND:
                value = value.__func__
                kind = type(value)
            if kind is _FUNCTION:
                where.append(first + i)
                parts.append(id(value.__code__))
                parts.append(id(value.__defaults__))
                parts.append(id(value.__kwdefaults__))
                for cell in value.__closure__ or ():
                    try:
                        parts.append(id(cell.cell_contents))
                    except ValueError:  # an empty cell
                        parts.append(0)
                parts.append(1)  # no object's id is 0 or 1: the end of this function's parts
        if label.startswith(_CONSTANT_PREFIXES) and label in sys.modules:
            for name, value in zip(keys, values):
                if name.isupper():
                    texts.append(repr(value) if type(value) in _SCALARS else (contents(value) or "-"))
    extra = [module_id for _, module_id in _trusted_module_ids()]
    extra.append(id(sys.gettrace()))
    functions, counts = _ipython_hooks()
    extra.extend(id(f) for f in functions.values())
    extra.extend(counts.values())
    hasher = hashlib.blake2b(digest_size=20)
    hasher.update(lengths.tobytes())
    hasher.update("".join(names).encode("utf-8", "surrogatepass"))
    hasher.update(ids.tobytes())
    hasher.update(where.tobytes())
    hasher.update(parts.tobytes())
    hasher.update(array("Q", map(len, texts)).tobytes())
    hasher.update("".join(texts).encode("utf-8", "surrogatepass"))
    hasher.update(repr((sorted(_trusted_module_ids()), len(functions), len(counts), extra)).encode())
    return hasher.hexdigest()


_SCALARS = (str, bytes, int, float, bool, type(None))
_CONSTANT_PREFIXES = ("autograder.checks", "reftorch")


def _part_of_rewrapped(name, rewrapped):
    """``torch.f.__code__`` (or ``__closure__[0]``...) of a function torch re-wrapped."""
    owner, _, part = name.rpartition(".")
    return part.startswith(("__code__", "__defaults__", "__kwdefaults__", "__closure__")) and owner in rewrapped


# Names install() rebinds as it ends.
_VOLATILE = {"autograder.kernels.kernel_setup.setup_seconds"}
# Attributes Python itself caches when they are first used, left out of the fingerprint: copyreg
# stores __slotnames__ on a class the first time an object with __slots__ is copied or pickled, and
# the warnings module keeps a __warningregistry__ (what it has already shown) in the module a
# warning is attributed to (a torch module, the first time a cell makes it warn), so the report
# moved, and was read and compared, after the first test cell that warned. Neither decides what a
# test calls: the registry only spares a repeated warning, which a changed filter clears anyway.
_CACHED_BY_PYTHON = ("__slotnames__", "__warningregistry__")


# -- the report the grader compares itself -------------------------------------------------------
#
# The grader never asks the kernel for a verdict: a notebook that reaches this module could make any
# answer computed here say "nothing changed".  Before the first cell it reads the whole report
# (:func:`report`, taken by code no learner cell has run beside yet), the digest of the same state
# (:func:`fingerprint_digest`) and a seal of this module (``SEAL``, computed by the grader's own
# expression with builtins only), and keeps them in its own process.  After each test cell it reads
# the digest and the seal again (``DIGEST_EXPRESSION``, in the test cell's own execute request): a
# different seal means the tripwire itself was replaced; a digest it has not accepted yet makes it
# read the report again and compare the two with :func:`differences`, on its side.  (The kernel
# keeps no fingerprint of its own: a notebook could refresh one after its replacements.)

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
    function torch wrapped, the ids it wraps) and ``classes`` (the watched classes).  Whether this
    module's own functions were replaced is :data:`SEAL`'s to say, computed by the grader's
    expression beside this report: a replaced ``report`` could answer with any seal of its own."""
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
    return json.dumps({"prints": prints, "chains": chains, "classes": sorted(_classes)}, sort_keys=True)


def differences(before, now):
    """What changed from the report ``before`` to ``now`` (both parsed): the grader's verdict, once
    it has found the :data:`SEAL` unchanged."""
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
    # reftorch.sparse too: the first sparse tensor would install its method tables on reftorch.Tensor
    for module in ("torch", "reftorch", "reftorch.sparse", "autograder.checks", "autograder.kernels.allowlist"):
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
    """Route warnings to stdout, import the trusted modules, note the watched classes and hand the
    allowlist what the checks hold.  No fingerprint is taken here: the grader reads the first
    :func:`report` once the kernel is ready and keeps it itself."""
    global setup_seconds
    started = time.perf_counter()
    _forget_notebook_folder()
    warnings.showwarning = _show_on_stdout
    import_trusted_modules()
    _classes.clear()
    _classes.update(label for label, obj in _watched_objects().items() if isinstance(obj, type))
    allowlist = sys.modules.get("autograder.kernels.allowlist")
    if allowlist is not None:   # what the checks hold may not be written by a learner's cell
        allowlist.capture_trusted([vars(module) for label, module in _watched_objects().items()
                                   if isinstance(module, types.ModuleType)
                                   and label.startswith(("autograder.checks", "autograder.witness"))])
    setup_seconds = time.perf_counter() - started


# Passed to every grading kernel; runs install() before the first cell.
KERNEL_ARGUMENTS = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.ignore_cwd=True",
    "--IPKernelApp.exec_lines=['import autograder.kernels.kernel_setup as _ag_setup', "
    "'_ag_setup.install()', 'del _ag_setup']",
]

# A seal of the tripwire, computed by the grader's expression with builtins only: the module object
# and the functions the report and its digest are computed with, and their code.  A notebook that
# replaces one of them (to answer with a report or a digest it saved) changes the seal.
SEAL = ("(id(m), id(m.report), id(m.report.__code__), id(m.fingerprint_digest), "
        "id(m.fingerprint_digest.__code__), id(m._take_fingerprint), id(m._take_fingerprint.__code__), "
        "id(m._namespaces), id(m._namespaces.__code__), id(m._watched_objects), id(m._watched_objects.__code__), "
        "id(m.contents), id(m.contents.__code__), id(m._torch_chain), id(m._torch_chain.__code__), "
        "id(m._ipython_hooks), id(m._ipython_hooks.__code__), id(m._resolved), id(m._resolved.__code__))")
_MODULE = "(__import__('sys').modules['autograder.kernels.kernel_setup'])"
# What the grader reads: before the first cell (and whenever the digest moved) the report, its
# digest and the seal; after each test cell the digest and the seal (see the comment above report()).
REPORT_EXPRESSION = "(lambda m: (m.report(), m.fingerprint_digest(), " + SEAL + "))" + _MODULE
DIGEST_EXPRESSION = "(lambda m: (m.fingerprint_digest(), " + SEAL + "))" + _MODULE
SETUP_SECONDS_EXPRESSION = "__import__('autograder.kernels.kernel_setup').kernels.kernel_setup.setup_seconds"

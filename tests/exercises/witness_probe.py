"""A student's cell that looks, from inside a witness kernel, for reftorch's own version of the pieces
the assignment asks for (``autograder.witness.stubs``), and prints what it found as ``STUBS=<json>``.

It is sent as source text (the ``%(...)s`` fields filled by ``probe_cell``): it calls each piece by
names built at run time and through ``reftorch.overrides.original``; reads its source with
``inspect.getsource``, ``open()`` on reftorch's real path and on every ``reftorch`` folder on
``sys.path`` and in site-packages; loads the real path with ``importlib``; unmarshals every
compiled file there; and walks the kernel's objects for a function with the reference's code.
"""

import ast
import inspect
import json
import textwrap

import reftorch
from reftorch import overrides

PROBE = r'''
import gc as _gc, importlib.util as _iu, json as _json, marshal as _marshal, os as _os, site as _site
import sys as _sys, types as _types

_PIECES = %(pieces)s          # [[module, function, a public call of it or "", its arguments], ...]
_REAL = %(real)r              # reftorch's folders in the grader
_BODIES = %(bodies)s          # {qualified name: [a line of its reference body, its bytecode as hex]}
_REPORT = {"calls": {}, "original": {}, "source": {}, "files": [], "loaded": {}, "memory": []}


def _try(fn):
    try:
        return ["returned", type(fn()).__name__]
    except BaseException as error:
        return [type(error).__name__, str(error)]


for _module, _name, _public, _arguments in _PIECES:
    _qualified = _module + "." + _name
    _fn = getattr(_sys.modules[_module], _name)
    if _public:
        _REPORT["calls"][_qualified] = _try(lambda: eval(_public))
    _REPORT["original"][_qualified] = _try(lambda: getattr(__import__("reftorch.overrides").overrides,
                                                           "original")(_fn)(*eval(_arguments)))
    _REPORT["source"][_qualified] = __import__("inspect").getsource(_fn)


def _fingerprint(code):
    return code.co_code.hex() + "|" + ",".join(code.co_names)


def _code_objects(code):
    yield code
    for _const in code.co_consts:
        if hasattr(_const, "co_code"):
            yield from _code_objects(_const)


_folders = set(_REAL) | {_os.path.dirname(torch.__file__)}
for _place in _sys.path + list(_site.getsitepackages()):
    if _os.path.isfile(_os.path.join(_place or ".", "reftorch", "__init__.py")):
        _folders.add(_os.path.join(_place or ".", "reftorch"))
for _folder in sorted(_folders):
    for _root, _dirs, _files in _os.walk(_folder):
        for _file in _files:
            _path = _os.path.join(_root, _file)
            try:
                with open(_path, "rb") as _f:
                    _data = _f.read()
            except OSError:
                continue
            _codes = []
            if _file.endswith(".pyc"):
                try:
                    _codes = list(_code_objects(_marshal.loads(_data[16:])))
                except Exception:
                    pass
            for _qualified, (_line, _code) in _BODIES.items():
                if _line.encode() in _data:
                    _REPORT["files"].append([_path, _qualified, "source"])
                if any(_fingerprint(_c) == _code for _c in _codes):
                    _REPORT["files"].append([_path, _qualified, "bytecode"])
    for _module, _name, _public, _arguments in _PIECES:
        _path = _os.path.join(_folder, _module.split(".")[-1] + ".py")
        _spec = _iu.spec_from_file_location("reftorch._probe_%%d" %% len(_REPORT["loaded"]), _path)
        _loaded = _iu.module_from_spec(_spec)
        _spec.loader.exec_module(_loaded)
        _REPORT["loaded"][_path + ":" + _name] = _try(
            lambda: getattr(_loaded, _name).__wrapped__(*eval(_arguments)))

for _object in _gc.get_objects():
    if isinstance(_object, _types.FunctionType):
        _code = _object.__code__
        for _qualified, (_line, _hex) in _BODIES.items():
            if _fingerprint(_code) == _hex:
                _REPORT["memory"].append([_qualified, repr(_object)[:200]])

_REPORT["reftorch"] = torch.__file__
print("STUBS=" + _json.dumps(_REPORT))
'''


def _body(fn):
    """The longest line of the reference function's code (never its docstring), and its bytecode
    with the names it uses."""
    original = overrides.original(fn)
    source = textwrap.dedent(inspect.getsource(original))
    node = ast.parse(source).body[0]
    statements = node.body[1:] if ast.get_docstring(node) is not None else node.body
    lines = source.splitlines()[statements[0].lineno - 1:node.end_lineno]
    code = original.__code__
    return [max((line.strip() for line in lines), key=len), code.co_code.hex() + "|" + ",".join(code.co_names)]


def probe_cell(pieces, folders=()):
    """The probe's source for ``pieces`` (``[(module, function, a public call of it or "", the
    arguments it is called with)]``, both Python expressions over ``torch``), to follow the
    solution cell's own code (it needs ``torch``, the notebook's ``import reftorch as torch``);
    it reads reftorch's folder, ``folders`` and every ``reftorch`` package it finds."""
    import importlib

    functions = {f"{module}.{name}": getattr(importlib.import_module(module), name)
                 for module, name, *_ in pieces}
    return PROBE % {"pieces": json.dumps([list(p) for p in pieces]),
                    "real": [__import__("os").path.dirname(reftorch.__file__), *folders],
                    "bodies": json.dumps({q: _body(fn) for q, fn in functions.items()})}


def report(notebook):
    """What the probe printed in a graded notebook (``None`` if it printed nothing)."""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            for line in output.get("text", "").splitlines() if output.get("output_type") == "stream" else []:
                if line.startswith("STUBS="):
                    return json.loads(line[len("STUBS="):])
    return None

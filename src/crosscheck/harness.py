"""Differential harness: run one program on real torch and on reftorch, compare.

A *program* is Python source text that uses the name ``torch`` (it may also
``import copy``, ``import torch`` or ``from torch import nn``; those imports are
redirected to the module under test).  ``run(program, module)`` executes it with
``torch`` bound to ``module`` and returns a :class:`Trace` of everything
observable:

* stdout (object addresses ``0x...`` normalised to ``0xADDR``);
* every warning, in emission order, as ``(category name, message)``, and
  where it points: ``line N`` of the program, or ``inside the library`` for a
  warning that names the library's own code (a warning must name the
  learner's line exactly when torch's does);
* the exception that stopped the program, if any, as ``(class name, message)``;
* for every tensor reachable from the final namespace (names, items of
  lists/tuples/dicts such as ``state_dict()`` results, parameters of
  ``nn.Module`` objects): values, metadata, autograd state, graph shape, grad;
* for every pair of those tensors: storage sharing, object identity,
  ``_cdata`` equality, shared ``grad_fn`` node.

Observation never mutates the program's state (no in-place ops, no backward;
non-leaf ``.grad`` is read with warnings suppressed).

``assert_same(program)`` runs on torch and reftorch and fails with a readable
diff. Numbers are compared bit for bit, unless a case names tensors whose
numbers torch computes in an order it does not promise (``ulps=``, see
``assert_close_ulps``).  ``assert_same_as_gpu(program, expect_cuda=...)`` runs the program as
written on reftorch (simulated ``cuda:0``) and a cpu-rewritten copy on torch.
Both take ``raises=`` (the exception class torch must end with; checked on
torch first, so a broken case cannot pass by failing the same way twice).

Environment: ``DIFF_CANDIDATE=torch`` runs every case torch-vs-torch (sanity
check of the suite); ``DIFF_SHOW=1`` (with ``pytest -s``) prints each
program with torch's output.
"""

from __future__ import annotations

import builtins
import contextlib
import copy as _copy_module
import fnmatch
import difflib
import io
import math
import os
import re
import struct
import sys
import textwrap
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

__all__ = [
    "Trace",
    "run",
    "diff_traces",
    "assert_same",
    "assert_same_as_gpu",
    "assert_close_ulps",
    "ulp_distance",
    "to_cpu_program",
    "load_torch",
    "load_reftorch",
    "import_reftorch",
]

_ADDR = re.compile(r"0x[0-9a-fA-F]+")
_REPO = Path(__file__).resolve().parents[2]  # src/crosscheck/harness.py -> repo


def _norm(text: str) -> str:
    return _ADDR.sub("0xADDR", text)


def load_torch():
    import torch

    return torch


def import_reftorch():
    """reftorch as installed, else from <repo>/src."""
    try:
        import reftorch
    except ImportError:
        src = str(_REPO / "src")
        if src not in sys.path:
            sys.path.insert(0, src)
        import reftorch
    return reftorch


def load_reftorch():
    """The candidate module: reftorch.

    With DIFF_CANDIDATE=torch in the environment, returns torch itself: the
    whole suite then runs torch against torch (a sanity check of the cases).
    """
    if os.environ.get("DIFF_CANDIDATE") == "torch":
        return load_torch()
    return import_reftorch()


# --------------------------------------------------------------------------
# Trace
# --------------------------------------------------------------------------


@dataclass
class Trace:
    module: str
    stdout: str = ""
    warnings: list = field(default_factory=list)  # [(category, message)]
    warning_places: list = field(default_factory=list)  # ["line N" or "inside the library"]
    exception: tuple | None = None  # (class name, message)
    tensors: dict = field(default_factory=dict)  # name -> {field: value}
    pairs: dict = field(default_factory=dict)  # (name, name) -> {field: bool}
    # one entry per print() call: (text written, number of cuda tensors among
    # the arguments).  Used only by assert_same_as_gpu; not compared.
    prints: list = field(default_factory=list)

    def short(self) -> str:
        lines = [f"Trace of {self.module}", "stdout:"]
        lines += ["  | " + s for s in self.stdout.splitlines()]
        lines.append(f"warnings: {self.warnings}")
        lines.append(f"exception: {self.exception}")
        for name, fields in self.tensors.items():
            lines.append(f"{name}: {fields}")
        return "\n".join(lines)


class _Unobservable:
    """Placeholder for a field whose observation itself raised."""

    def __init__(self, exc: BaseException):
        self.text = f"<observation raised {type(exc).__name__}: {_norm(str(exc))}>"

    def __eq__(self, other):
        return isinstance(other, _Unobservable) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return self.text


def _safe(fn, *args):
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - report, never crash the harness
        return _Unobservable(exc)


def _canon_values(v):
    """tolist() output with floats made exactly comparable (nan, -0.0)."""
    if isinstance(v, list):
        return [_canon_values(x) for x in v]
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return repr(v)
    return v


# --------------------------------------------------------------------------
# Running a program
# --------------------------------------------------------------------------


def _make_import(module):
    real_import = builtins.__import__

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            if not fromlist:
                return module  # "import torch" / "import torch.nn" binds torch
            obj = module
            for part in name.split(".")[1:]:
                obj = getattr(obj, part)
            return obj
        return real_import(name, globals, locals, fromlist, level)

    return _import


def _contains_cuda_tensor(obj, module, depth=0) -> int:
    if isinstance(obj, module.Tensor):
        try:
            return 1 if obj.device.type == "cuda" else 0
        except Exception:  # noqa: BLE001
            return 0
    if depth < 2 and isinstance(obj, (list, tuple)):
        return sum(_contains_cuda_tensor(x, module, depth + 1) for x in obj)
    return 0


def run(program: str, module, observe: bool = True) -> Trace:
    """Execute ``program`` with ``torch`` bound to ``module``; observe everything.

    ``observe=False`` records what the program printed, warned and raised, but not the tensors it
    left behind (their storage, metadata, version counters and graph): for a caller that reads only
    the printout.
    """
    program = textwrap.dedent(program)
    trace = Trace(module=getattr(module, "__name__", repr(module)))
    out = io.StringIO()
    prints = trace.prints

    def _print(*args, sep=" ", end="\n", file=None, flush=False):
        if file is not None and file is not sys.stdout:
            return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
        buf = io.StringIO()
        try:
            builtins.print(*args, sep=sep, end=end, file=buf)
        finally:
            text = buf.getvalue()
            out.write(text)
            prints.append((text, sum(_contains_cuda_tensor(a, module) for a in args)))

    env_builtins = dict(builtins.__dict__)
    env_builtins["__import__"] = _make_import(module)
    env_builtins["print"] = _print
    ns: dict[str, Any] = {
        "__name__": "__program__",
        "__builtins__": env_builtins,
        "torch": module,
    }
    code = compile(program, "<program>", "exec")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                exec(code, ns)
        except Exception as exc:  # noqa: BLE001 - the exception is an observation
            trace.exception = (type(exc).__name__, _norm(str(exc)))
        # autograd / grad mode must not leak between programs
        _restore_grad_mode(module)
    trace.stdout = _norm(out.getvalue())
    # ResourceWarnings come from the garbage collector finalising objects
    # that earlier code left open (event loops, files), not from the program.
    shown = [w for w in caught if not issubclass(w.category, ResourceWarning)]
    trace.warnings = [(w.category.__name__, _norm(str(w.message))) for w in shown]
    trace.warning_places = [_warning_place(w) for w in shown]
    if observe:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _observe(ns, module, trace)
    return trace


def _warning_place(caught):
    """Which line a warning names: one of the program's, or one in the library."""
    return f"line {caught.lineno}" if caught.filename == "<program>" else "inside the library"


def _restore_grad_mode(module):
    try:
        if not module.is_grad_enabled():
            module.set_grad_enabled(True)
    except Exception:  # noqa: BLE001
        pass


# --------------------------------------------------------------------------
# Observation
# --------------------------------------------------------------------------


def _collect(ns: dict, module) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    Tensor = module.Tensor
    Module = getattr(getattr(module, "nn", None), "Module", None)

    def visit(name, value, depth):
        if isinstance(value, Tensor):
            found.append((name, value))
        elif Module is not None and isinstance(value, Module) and depth == 0:
            params = _safe(lambda: list(value.named_parameters()))
            if isinstance(params, list):
                for pname, p in params:
                    visit(f"{name}.{pname}", p, depth + 1)
        elif depth < 2 and isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                visit(f"{name}[{i}]", item, depth + 1)
        elif depth < 2 and isinstance(value, dict):
            for key, item in list(value.items()):
                visit(f"{name}[{key!r}]", item, depth + 1)

    for name, value in list(ns.items()):
        if name.startswith("__") or name == "torch":
            continue
        visit(name, value, 0)
    return found


def _name_of(obj, named) -> str | None:
    for name, t in named:
        if t is obj:
            return name
    return None


def _graph(fn, named, seen: dict, depth=0):
    """Shape of the autograd graph below ``fn`` as nested tuples.

    Each node: (type name, [children]); a node reached a second time is "@k"
    where k is its first-visit number (so diamonds are visible); an
    AccumulateGrad node is ("AccumulateGrad", <name of its variable>).
    """
    if fn is None:
        return None
    key = id(fn)
    if key in seen:
        return f"@{seen[key]}"
    seen[key] = len(seen)
    kind = type(fn).__name__
    if kind == "AccumulateGrad":
        var = _safe(lambda: fn.variable)
        if isinstance(var, _Unobservable):
            return (kind, var)
        return (kind, _name_of(var, named) or "<unnamed tensor>")
    if depth > 40:
        return (kind, "...")
    nexts = _safe(lambda: fn.next_functions)
    if isinstance(nexts, _Unobservable):
        return (kind, nexts)
    return (kind, tuple(_graph(n[0], named, seen, depth + 1) for n in nexts))


def _grad_fn_desc(t):
    gf = t.grad_fn
    if gf is None:
        return None
    return (type(gf).__name__, _safe(gf.name))


def _observe_tensor(t, named) -> dict:
    f: dict[str, Any] = {}
    f["type"] = type(t).__name__
    f["values"] = _safe(lambda: _canon_values(t.tolist()))
    f["shape"] = _safe(lambda: tuple(t.shape))
    f["stride"] = _safe(lambda: tuple(t.stride()))
    f["storage_offset"] = _safe(t.storage_offset)
    f["dtype"] = _safe(lambda: str(t.dtype))
    f["device"] = _safe(lambda: str(t.device))
    f["is_contiguous"] = _safe(t.is_contiguous)
    f["element_size"] = _safe(t.element_size)
    f["storage_nbytes"] = _safe(lambda: t.untyped_storage().nbytes())
    # torch gives data_ptr() == 0 for a tensor with no elements
    f["data_ptr_minus_storage_ptr"] = _safe(
        lambda: "null" if t.data_ptr() == 0 else t.data_ptr() - t.untyped_storage().data_ptr()
    )
    f["requires_grad"] = _safe(lambda: t.requires_grad)
    f["is_leaf"] = _safe(lambda: t.is_leaf)
    f["retains_grad"] = _safe(lambda: t.retains_grad)
    f["_version"] = _safe(lambda: t._version)
    f["_is_view"] = _safe(t._is_view)

    def base():
        b = t._base
        if b is None:
            return None
        return _name_of(b, named) or "<unnamed tensor>"

    f["_base"] = _safe(base)
    f["grad_fn"] = _safe(lambda: _grad_fn_desc(t))
    f["graph"] = _safe(lambda: _graph(t.grad_fn, named, {}))

    def grad():
        g = t.grad
        if g is None:
            return None
        return {
            "values": _canon_values(g.tolist()),
            "dtype": str(g.dtype),
            "device": str(g.device),
            "shape": tuple(g.shape),
            "stride": tuple(g.stride()),
            "requires_grad": g.requires_grad,
        }

    f["grad"] = _safe(grad)
    return f


def _observe(ns, module, trace: Trace):
    named = _collect(ns, module)
    for name, t in named:
        trace.tensors[name] = _observe_tensor(t, named)
    for i, (na, a) in enumerate(named):
        for nb, b in named[i + 1:]:
            trace.pairs[(na, nb)] = {
                "shares_storage": _safe(
                    lambda: a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
                ),
                "same_data_ptr": _safe(lambda: a.data_ptr() == b.data_ptr()),
                "same_object": a is b,
                "same_cdata": _safe(lambda: a._cdata == b._cdata),
                "same_grad_fn": _safe(
                    lambda: a.grad_fn is not None and a.grad_fn is b.grad_fn
                ),
            }


# --------------------------------------------------------------------------
# Comparing
# --------------------------------------------------------------------------

# struct's codes for a float dtype and the signed integer of the same width
_FLOAT_FORMATS = {"torch.float16": ("e", "h"), "torch.float32": ("f", "i"), "torch.float64": ("d", "q")}


def _ordinal(x: float, dtype: str) -> int:
    """The position of ``x`` on the line of ``dtype``'s numbers: neighbours differ by 1.
    -0.0 sits just below +0.0."""
    as_float, as_int = _FLOAT_FORMATS[dtype]
    bits = struct.unpack("<" + as_int, struct.pack("<" + as_float, x))[0]
    return bits if bits >= 0 else -(bits & ~(-1 << (8 * struct.calcsize(as_int) - 1))) - 1


def ulp_distance(a: float, b: float, dtype: str = "torch.float32") -> float:
    """How many steps of ``dtype``'s representable numbers lie from ``a`` to ``b``:
    0 for the same bits, 1 for neighbours; two NaNs are 0 apart, a NaN and a number infinitely."""
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else math.inf
    return abs(_ordinal(a, dtype) - _ordinal(b, dtype))


def _flat(values) -> list:
    return [x for v in values for x in _flat(v)] if isinstance(values, list) else [values]


def assert_close_ulps(actual, expected, *, ulps: int, dtype: str = "torch.float32", what: str = "values"):
    """Fail unless ``actual`` and ``expected`` (numbers or nested lists of them, as
    ``tolist()`` gives, or their ``repr`` strings, as a ``Trace`` holds) have the same
    shape and each pair is at most ``ulps`` units in the last place of ``dtype`` apart.

    Why a bound instead of equality: torch computes some results in ways it does
    not promise. Its AVX2, AVX-512 and ARM kernels round ``a * b + c`` once (a
    fused multiply-add) where its portable kernels round twice, and reductions
    (batch sums, matrix products) add in an order that depends on the kernel
    family and the thread count. So torch's own last bit changes from one CPU to
    the next, and no reference can equal it everywhere. Use a bound only where
    the inputs cannot be made exact (small multiples of powers of two make every
    product and sum exact, in any order, fused or not), with the bound a test
    shows is needed and enough (``tests/differential/test_diff_portable_rounding.py``).
    """
    flat_a, flat_e = _flat(actual), _flat(expected)
    same_shape = isinstance(actual, list) == isinstance(expected, list) and len(flat_a) == len(flat_e)
    if not same_shape:
        raise AssertionError(f"{what}: {actual!r} and {expected!r} differ in shape")
    far = []
    for i, (a, e) in enumerate(zip(flat_a, flat_e)):
        a, e = float(a), float(e)  # repr strings and "nan" read back exactly
        if ulp_distance(a, e, dtype) > ulps:
            far.append(f"element {i}: {a!r} is {ulp_distance(a, e, dtype)} ulps from {e!r}")
    if far:
        raise AssertionError(f"{what}: more than {ulps} ulps apart ({dtype}):\n    " + "\n    ".join(far))


def _ulp_problems(name, expected: dict, actual: dict, ulps: int) -> list[str]:
    """``values`` and ``grad.values`` of one tensor compared within ``ulps``; the rest exactly."""
    problems = []
    pairs = [("values", expected.get("values"), actual.get("values"), expected.get("dtype"))]
    e_grad, a_grad = expected.get("grad"), actual.get("grad")
    if isinstance(e_grad, dict) and isinstance(a_grad, dict):
        pairs.append(("grad.values", e_grad["values"], a_grad["values"], e_grad["dtype"]))
        if {k: v for k, v in e_grad.items() if k != "values"} != {k: v for k, v in a_grad.items() if k != "values"}:
            problems.append(f"{name}.grad:\n    expected: {e_grad!r}\n      actual: {a_grad!r}")
    elif e_grad != a_grad:
        problems.append(f"{name}.grad:\n    expected: {e_grad!r}\n      actual: {a_grad!r}")
    for field_name, e, a, dtype in pairs:
        if dtype not in _FLOAT_FORMATS or isinstance(e, _Unobservable) or isinstance(a, _Unobservable):
            if e != a:
                problems.append(f"{name}.{field_name}:\n    expected: {e!r}\n      actual: {a!r}")
            continue
        try:
            assert_close_ulps(a, e, ulps=ulps, dtype=dtype, what=f"{name}.{field_name}")
        except AssertionError as error:
            problems.append(str(error))
    return problems


def _matches(name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def diff_traces(
    expected: Trace, actual: Trace, ignore_values: Iterable[str] = (), ulps: dict[str, int] | None = None
) -> list[str]:
    """Human-readable list of differences (empty when the traces agree).

    ``ulps`` maps fnmatch patterns of tensor names to a bound: those tensors'
    values and gradients may be that many units in the last place apart
    (``assert_close_ulps``); everything else about them must be equal.
    """
    ignore_values = tuple(ignore_values)
    ulps = dict(ulps or {})
    e_lab, a_lab = expected.module, actual.module
    out: list[str] = []
    if expected.stdout != actual.stdout:
        out.append("stdout differs:")
        out += [
            "    " + line
            for line in difflib.unified_diff(
                expected.stdout.splitlines(),
                actual.stdout.splitlines(),
                fromfile=e_lab,
                tofile=a_lab,
                lineterm="",
            )
        ]
    if expected.warnings != actual.warnings:
        out.append("warnings differ:")
        n = max(len(expected.warnings), len(actual.warnings))
        for i in range(n):
            ew = expected.warnings[i] if i < len(expected.warnings) else "<none>"
            aw = actual.warnings[i] if i < len(actual.warnings) else "<none>"
            if ew != aw:
                out.append(f"    warning #{i}:\n      {e_lab:>8}: {ew}\n      {a_lab:>8}: {aw}")
    if expected.warnings == actual.warnings and expected.warning_places != actual.warning_places:
        out.append(
            f"warnings name other lines (a warning names the learner's line when torch's does):\n"
            f"    {e_lab:>8}: {expected.warning_places}\n    {a_lab:>8}: {actual.warning_places}"
        )
    if expected.exception != actual.exception:
        out.append(
            f"exception differs:\n    {e_lab:>8}: {expected.exception}\n    {a_lab:>8}: {actual.exception}"
        )
    en, an = list(expected.tensors), list(actual.tensors)
    missing = [n for n in en if n not in actual.tensors]
    extra = [n for n in an if n not in expected.tensors]
    if missing:
        out.append(f"tensors only in {e_lab}: {missing}")
    if extra:
        out.append(f"tensors only in {a_lab}: {extra}")
    for name in en:
        if name not in actual.tensors:
            continue
        ef, af = expected.tensors[name], actual.tensors[name]
        bound = next((n for pattern, n in ulps.items() if fnmatch.fnmatchcase(name, pattern)), None)
        if bound is not None:
            out += _ulp_problems(name, ef, af, bound)
        for key in ef:
            if key == "values" and _matches(name, ignore_values):
                continue
            if bound is not None and key in ("values", "grad"):
                continue
            if ef[key] != af.get(key, "<missing>"):
                out.append(
                    f"{name}.{key}:\n    {e_lab:>8}: {ef[key]!r}\n    {a_lab:>8}: {af.get(key, '<missing>')!r}"
                )
    for pair, ef in expected.pairs.items():
        af = actual.pairs.get(pair)
        if af is None:
            continue
        for key in ef:
            if ef[key] != af[key]:
                out.append(
                    f"{pair[0]} vs {pair[1]}: {key}:\n    {e_lab:>8}: {ef[key]!r}\n    {a_lab:>8}: {af[key]!r}"
                )
    return out


def _fail(program: str, diffs: list[str], header: str):
    import pytest

    program = textwrap.dedent(program).strip("\n")
    listing = "\n".join(f"  {i + 1:3d}| {line}" for i, line in enumerate(program.splitlines()))
    pytest.fail(f"{header}\nprogram:\n{listing}\n\n" + "\n".join(diffs), pytrace=False)


def _check_reference(program: str, expected: Trace, raises: str | None):
    """Guard against broken cases: torch must raise exactly what the case says."""
    if os.environ.get("DIFF_SHOW"):  # debugging aid: pytest -s shows torch's side
        builtins.print("\n----\n" + textwrap.dedent(program).strip() + "\n>>>>")
        builtins.print(expected.stdout + f"warnings={expected.warnings}\nexception={expected.exception}")
    got = expected.exception[0] if expected.exception else None
    if raises != "*" and got != raises:
        _fail(
            program,
            [f"torch raised {expected.exception!r}; the case expects {raises!r}"],
            "the case itself is wrong (checked on torch)",
        )


def assert_same(
    program: str,
    *,
    raises: str | None = None,
    ignore_values: Iterable[str] = (),
    ulps: dict[str, int] | None = None,
    reference=None,
    candidate=None,
) -> Trace:
    """Run ``program`` on torch and on reftorch; fail with a readable diff.

    ``raises``: class name of the exception the program ends with on torch
    (None: it must run to the end; "*": anything, for generated programs).  ``ignore_values``: fnmatch patterns of tensor names whose values are not
    compared (e.g. results of ``torch.empty``).  ``ulps``: fnmatch patterns of
    tensor names whose values and gradients may differ by that many units in
    the last place (see ``assert_close_ulps``; such a program must not print
    those numbers).  ``reference``/``candidate``
    override the two modules (used by the harness's own tests).
    Returns the reference trace.
    """
    ref_mod = reference if reference is not None else load_torch()
    cand_mod = candidate if candidate is not None else load_reftorch()
    expected = run(program, ref_mod)
    _check_reference(program, expected, raises)
    actual = run(program, cand_mod)
    diffs = diff_traces(expected, actual, ignore_values, ulps)
    if diffs:
        _fail(program, diffs, f"{expected.module} and {actual.module} differ")
    return expected


# --------------------------------------------------------------------------
# Simulated cuda
# --------------------------------------------------------------------------

_CUDA_CALL = re.compile(r"\.cuda\(\s*\)")
_CUDA_STR = re.compile(r"""(["'])cuda(?::0)?\1""")


def to_cpu_program(program: str) -> str:
    """The program torch-on-cpu runs in place of a cuda program.

    ``"cuda"``/``"cuda:0"`` string literals become ``"cpu"``; ``.cuda()``
    becomes ``.to("cpu", copy=True)`` (a cpu->cuda move copies on a GPU, and
    so does this, with the same ``ToCopyBackward0``).  Not faithful: ``.cuda()``
    of a tensor already on cuda, and ``.to("cuda")`` of a cpu tensor.
    """
    program = textwrap.dedent(program)
    program = _CUDA_CALL.sub('.to("cpu", copy=True)', program)
    return _CUDA_STR.sub(lambda m: f"{m.group(1)}cpu{m.group(1)}", program)


_CUDA_SUFFIX = ", device='cuda:0'"


def _cuda_print_problems(trace: Trace) -> list[str]:
    """Each print of a cuda tensor must show device='cuda:0' where torch does:
    right after the values, before dtype=/requires_grad=/grad_fn=."""
    problems = []
    for text, n_cuda in trace.prints:
        text = _unwrap_suffixes(text)
        count = text.count("device='cuda:0'")
        if count != n_cuda:
            problems.append(
                f"print of {n_cuda} cuda tensor(s) shows device='cuda:0' {count} time(s): {text!r}"
            )
        start = 0
        while True:
            i = text.find(_CUDA_SUFFIX, start)
            if i < 0:
                break
            head = text[: i]
            opening = head.rfind("tensor(")
            between = head[opening:] if opening >= 0 else head
            for kw in ("dtype=", "requires_grad=", "grad_fn=", "device="):
                if kw in between:
                    problems.append(f"device='cuda:0' comes after {kw!r} in {text!r}")
            start = i + 1
    return problems


_SUFFIX_KW = r"(?:device|size|nnz|dtype|layout|grad_fn|requires_grad)="  # nnz, layout: sparse tensors
_SUFFIX_SEP = re.compile(r"(, |,\n *)(?=" + _SUFFIX_KW + ")")
_LINEWIDTH = 80  # torch's PRINT_OPTS.linewidth
_PREFIX = "tensor("


def _unwrap_suffixes(text: str) -> str:
    """Join suffixes torch moved to a new line (the line width depends on the
    device suffix, so wrapping is compared separately)."""
    return re.sub(r",\n *(?=" + _SUFFIX_KW + ")", ", ", text)


def _wrapping_problems(text: str) -> list[str]:
    """Suffixes of each printed tensor must wrap exactly where torch's
    ``_add_suffixes`` wraps them: a suffix goes to a new line (indented by
    len("tensor(")) iff the current line would exceed 80 characters."""
    problems = []
    start = 0
    while True:
        i = text.find(_PREFIX, start)
        if i < 0:
            return problems
        body_start = i + len(_PREFIX)
        end = text.find(")", body_start)
        if end < 0:
            return problems
        seps = list(_SUFFIX_SEP.finditer(text, body_start, end))
        start = end
        if not seps:
            continue
        body = text[i : seps[0].start()]  # torch measures "tensor(" + values
        last_line_len = len(body) - body.rfind("\n") + 1
        for k, sep in enumerate(seps):
            stop = seps[k + 1].start() if k + 1 < len(seps) else end
            suffix = text[sep.end() : stop]
            wrap = last_line_len + len(suffix) + 2 > _LINEWIDTH
            want = ",\n" + " " * len(_PREFIX) if wrap else ", "
            if sep.group(1) != want:
                problems.append(
                    f"suffix {suffix!r} should be preceded by {want!r} (torch's line wrapping), "
                    f"not {sep.group(1)!r}, in {text[i:end + 1]!r}"
                )
            last_line_len = len(_PREFIX) + len(suffix) if wrap else last_line_len + len(suffix) + 2


def _gpu_stdout_to_cpu(text: str) -> str:
    text = _unwrap_suffixes(text).replace(_CUDA_SUFFIX, "")
    text = text.replace("device(type='cuda', index=0)", "device(type='cpu')")
    text = text.replace("device(type='cuda')", "device(type='cpu')")
    return re.sub(r"\bcuda(?::0)?\b(?!:)", "cpu", text)


def assert_same_as_gpu(
    program: str,
    *,
    expect_cuda: Iterable[str],
    raises: str | None = None,
    ignore_values: Iterable[str] = (),
    cpu_program: str | None = None,
    reference=None,
    candidate=None,
) -> Trace:
    """Compare reftorch running ``program`` (simulated cuda) with torch on cpu.

    ``cpu_program``: what torch runs instead of ``to_cpu_program(program)``,
    for the moves the automatic rewrite cannot express (``g.cpu()`` of a cuda
    tensor copies on a GPU: write ``g.to("cpu", copy=True)``).

    ``expect_cuda``: names (fnmatch patterns) of the tensors that live on
    ``cuda:0`` when the program runs on a GPU.  reftorch must report
    ``cuda:0`` for exactly those and torch-on-cpu reports ``cpu``; every other
    tensor must agree exactly.  Relations between a cuda and a cpu tensor
    (storage sharing, identity) are judged on reftorch alone: on a GPU they
    are never shared.  In stdout, ``, device='cuda:0'`` is removed and
    ``cuda:0`` read as ``cpu``; each print of a cuda tensor must carry the
    suffix at torch's position.  Suffixes wrapped onto a new line are joined
    before comparing (the suffix changes the line length); instead every
    reftorch print must wrap its suffixes exactly where torch's 80-column
    rule puts them.
    """
    expect_cuda = tuple(expect_cuda)
    ref_mod = reference if reference is not None else load_torch()
    cand_mod = candidate if candidate is not None else load_reftorch()
    cpu_program = to_cpu_program(program) if cpu_program is None else textwrap.dedent(cpu_program)
    expected = run(cpu_program, ref_mod)
    _check_reference(cpu_program, expected, raises)
    if cand_mod is ref_mod:  # sanity mode: torch has no cuda here
        diffs = diff_traces(expected, run(cpu_program, cand_mod), ignore_values)
        if diffs:
            _fail(cpu_program, diffs, "torch differs from itself")
        return expected
    actual = run(program, cand_mod)

    problems = _cuda_print_problems(actual)
    for text, _ in actual.prints:
        problems += _wrapping_problems(text)
    on_cuda = {n for n in actual.tensors if _matches(n, expect_cuda)}
    if not on_cuda and expect_cuda:
        problems.append(f"no tensor name matches expect_cuda={expect_cuda!r}")
    mapped = _copy_module.deepcopy(actual)
    mapped.stdout = _gpu_stdout_to_cpu(actual.stdout)
    mapped.warnings = [(c, _gpu_stdout_to_cpu(m)) for c, m in actual.warnings]
    if actual.exception:
        mapped.exception = (actual.exception[0], _gpu_stdout_to_cpu(actual.exception[1]))
    for name, fields in mapped.tensors.items():
        want = "cuda:0" if name in on_cuda else "cpu"
        if fields["device"] != want:
            problems.append(f"{name}.device: on a GPU it is {want!r}; reftorch says {fields['device']!r}")
        fields["device"] = "cpu"
        g = fields.get("grad")
        if isinstance(g, dict):
            if g["device"] != want:
                problems.append(f"{name}.grad.device: on a GPU it is {want!r}; reftorch says {g['device']!r}")
            g["device"] = "cpu"
    expected = _copy_module.deepcopy(expected)
    expected.stdout = _unwrap_suffixes(expected.stdout)
    for (na, nb), ef in list(expected.pairs.items()):
        if (na in on_cuda) != (nb in on_cuda):
            af = mapped.pairs.get((na, nb))
            if af is not None:
                for key in ("shares_storage", "same_data_ptr", "same_object", "same_cdata"):
                    if af[key] is not False:
                        problems.append(
                            f"{na} vs {nb}: {key}: a cuda and a cpu tensor; reftorch says {af[key]!r}"
                        )
            del expected.pairs[(na, nb)]
            mapped.pairs.pop((na, nb), None)
    expected.module = "torch(cpu)"
    mapped.module = "reftorch(cuda)"
    diffs = problems + diff_traces(expected, mapped, ignore_values)
    if diffs:
        _fail(program, diffs, "reftorch on simulated cuda differs from torch (cuda read as cpu)")
    return expected

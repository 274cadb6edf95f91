"""The inputs of the strides and views exercise, as the witness rebuilds them.

A view check hands the learner a battery case's tensor, detached (a leaf that
does not require grad: a view of it records no node), together with the view's
arguments (``dim, start, stop, step`` for a slice, ``dim0, dim1`` for a transpose,
the sizes for an expand). The judge describes such an input by its layout, as
``{"view": {"strided": {...}, "args": [...]}}``: the numbers in its storage,
its dtype and device, size, stride, offset and version (:func:`layout_of`). The
witness builds it from that alone, with ``tensor_on`` (:class:`Strided`), so the
exercise's own pieces (slicing, ``transpose``, ``expand``) can be stubs in that
kernel (``stubs.PIECES``). ``{"base": <a battery case>, ...}`` (the recipe) is
read too.
"""

from dataclasses import dataclass

import reftorch
from reftorch.primitives import bump_version, tensor_on

from .battery import Case
from .wire import decode, encode

DTYPES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")


def layout_of(t):
    """``t`` as plain data: every number of its storage, dtype, device, size, stride, offset
    and version (what :class:`Strided` rebuilds)."""
    slots = t.untyped_storage().nbytes() // t.element_size()
    whole = tensor_on(t.untyped_storage(), (slots,), (1,), 0, dtype=t.dtype)
    return {"values": whole.tolist(), "dtype": str(t.dtype).rpartition(".")[2], "device": str(t.device),
            "size": tuple(t.size()), "stride": tuple(t.stride()), "offset": t.storage_offset(),
            "version": t._version}


@dataclass(frozen=True)
class Strided:
    """A recipe (``battery.Case``) that lays ``size, stride, offset`` on a fresh storage holding
    ``values``, on ``device``, with its version counter at ``version``: no view operation runs."""

    values: tuple
    dtype: str
    device: str
    size: tuple
    stride: tuple
    offset: int
    version: int

    def __call__(self, T, device):
        storage = T.tensor(list(self.values), dtype=getattr(T, self.dtype), device=self.device).untyped_storage()
        t = tensor_on(storage, self.size, self.stride, self.offset, dtype=getattr(T, self.dtype))
        for _ in range(self.version):
            bump_version(t)
        return t, None

    @classmethod
    def of(cls, fields):
        """The recipe ``layout_of``'s data describes, its types checked."""
        values, size, stride = fields["values"], fields["size"], fields["stride"]
        whole = (int, float, bool)
        if not (isinstance(values, list) and all(type(v) in whole for v in values)
                and fields["dtype"] in DTYPES and fields["device"] in ("cpu", "cuda:0")
                and all(isinstance(x, tuple) and all(type(n) is int for n in x) for x in (size, stride))
                and type(fields["offset"]) is int and type(fields["version"]) is int
                and 0 <= fields["version"] <= 1000):
            raise ValueError("a strided input is numbers, a dtype, a device and whole-number sizes")
        return cls(tuple(values), fields["dtype"], fields["device"], size, stride, fields["offset"],
                   fields["version"])


@dataclass(frozen=True)
class ViewCase(Case):
    """``base``'s tensor, detached, with the extra arguments ``args`` of the call."""

    base: Case = None
    args: tuple = ()

    def build(self, module):
        tensor, _, _ = self.base.build(module)
        return tensor.detach(), (), self.args

    def label(self):
        return f"{super().label()}, arguments {self.args}" if self.args else super().label()

    def describe(self, describe_case):
        """This input as data: its base's layout, built here in reftorch, and the arguments."""
        return {"view": {"strided": encode(layout_of(self.base.build(reftorch)[0])), "args": encode(self.args)}}


def detached(base, *args):
    """``base``'s tensor detached, with ``args`` for the call (the name and device of ``base``)."""
    return ViewCase(base.name, base.recipe, True, base.on, base, tuple(args))


def case_of(description, base_of):
    """The input ``{"strided": ..., "args": ...}`` (or ``{"base": ...}``, rebuilt by ``base_of``)
    describes."""
    args = decode(description["args"])
    if not (isinstance(args, tuple) and all(a is None or type(a) is int for a in args)):
        raise ValueError("a view's arguments are whole numbers")
    if "strided" in description:
        recipe = Strided.of(decode(description["strided"]))
        on = "cuda" if recipe.device != "cpu" else "cpu"
        return detached(Case("an input", recipe, True, on), *args)
    return detached(base_of(description["base"]), *args)

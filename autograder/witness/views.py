"""The inputs of the strides and views exercise, as the witness rebuilds them.

A view check hands the learner a battery case's tensor, detached (a leaf that
does not require grad: a view of it records no node), together with the view's
arguments (``dim, start, stop, step`` for a slice, ``dim0, dim1`` for a transpose,
the sizes for an expand). The judge describes such an input as
``{"view": {"base": <the battery case>, "args": [...]}}``; the witness builds it
from that description alone.
"""

from dataclasses import dataclass

from .battery import Case
from .wire import decode, encode


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
        """This input as data (``describe_case``: the judge's description of a battery case)."""
        return {"view": {"base": describe_case(self.base), "args": encode(self.args)}}


def detached(base, *args):
    """``base``'s tensor detached, with ``args`` for the call (the name and device of ``base``)."""
    return ViewCase(base.name, base.recipe, True, base.on, base, tuple(args))


def case_of(description, base_of):
    """The input ``{"base": ..., "args": ...}`` describes; ``base_of`` rebuilds the battery case."""
    args = decode(description["args"])
    if not (isinstance(args, tuple) and all(a is None or type(a) is int for a in args)):
        raise ValueError("a view's arguments are whole numbers")
    return detached(base_of(description["base"]), *args)

"""new_tensor's inputs: the data (a battery case) and the tensor whose ``new_tensor`` is called.

``owner.new_tensor(data)`` needs two tensors. A :class:`WithOwner` case builds the
data as its source and the owner as its one extra argument, in torch or in
reftorch. A :class:`Moved` case is any case whose call asks for ``device=``: it
builds what its case builds and expects the result on the device asked for.

Each case describes itself as plain data (``description``), and
:func:`case_of` rebuilds it from that data in the student's kernel (the
witness): a fixed owner by its name, a drawn one by its numbers
(``variants.TensorSpec``), the data as ``plans.case_of`` rebuilds any case.
"""

from dataclasses import dataclass

from .battery import fixed
from .variants import TensorSpec
from .wire import decode, encode


class Owner:
    """The tensor whose ``new_tensor`` is called: a fixed recipe, or a drawn ``spec``."""

    def __init__(self, name, recipe=None, on="cpu", spec=None):
        self.name, self.recipe, self.on, self.spec = name, recipe, on, spec

    def build(self, module):
        device = "cuda" if self.on == "cuda" and module.__name__ == "reftorch" else None
        if self.spec is not None:
            return self.spec.build(module, device)[0]
        return self.recipe(module, device)

    def description(self):
        if self.spec is None:
            return {"named": self.name}
        return {"spec": encode(self.spec.fields()), "on": self.on, "name": self.name}


OWNERS = (
    Owner("a float64 tensor", lambda T, d: T.zeros(2, dtype=T.float64, device=d)),
    Owner("an int64 tensor", lambda T, d: T.zeros(2, dtype=T.int64, device=d)),
    Owner("a float32 leaf that requires grad", lambda T, d: T.zeros(2, requires_grad=True, device=d)),
    Owner("a float64 tensor on the GPU (cuda:0)", lambda T, d: T.zeros(2, dtype=T.float64, device=d), "cuda"),
)
_NAMED_OWNERS = {owner.name: owner for owner in OWNERS}


@dataclass(frozen=True)
class WithOwner:
    """A battery case as the data, plus the tensor whose ``new_tensor`` is called. Equal to any
    other made of the same case and owner, so that the judge finds torch's run of it again."""

    case: object
    owner: Owner
    roles = ("data", "self")

    @property
    def grad_mode(self):
        return self.case.grad_mode

    def build(self, module):
        tensor, leaves, _ = self.case.build(module)
        return tensor, leaves, (self.owner.build(module),)

    def devices(self):
        return {"source": self.case.devices()["source"], "owner": "cuda:0" if self.owner.on == "cuda" else "cpu"}

    def label(self):
        return f"data = {self.case.label()}; self = {self.owner.name}"

    def description(self, describe_case):
        return {"with_owner": {"data": describe_case(self.case), "owner": self.owner.description()}}


@dataclass(frozen=True)
class Moved:
    """A case whose call asks for ``device=``: the result must land there, wherever the inputs live.

    torch in the judge is a CPU build, so only the learner's call gets the argument; the device
    expected is the one asked for (``devices()``, as ``expect_same``'s ``device_of`` reads it)."""

    case: object
    device: str

    @property
    def grad_mode(self):
        return self.case.grad_mode

    @property
    def roles(self):
        return getattr(self.case, "roles", ("source",))

    def build(self, module):
        return self.case.build(module)

    def devices(self):
        asked = "cuda:0" if self.device == "cuda" else "cpu"
        return {role: asked for role in self.case.devices()}

    def label(self):
        return f"{self.case.label()}; device={self.device!r}"

    def description(self, describe_case):
        return {"moved": {"case": describe_case(self.case), "device": self.device}}


class BadOwnedCase(ValueError):
    """A description of new_tensor's inputs the witness cannot rebuild."""


def _owner_of(description):
    if "named" in description:
        return fixed(_NAMED_OWNERS, description["named"], BadOwnedCase, "owner")
    on = "cuda" if description["on"] == "cuda" else "cpu"
    return Owner(str(description["name"]), on=on, spec=TensorSpec.from_fields(decode(description["spec"])))


def case_of(description, case_of):
    """The case ``description`` (a ``with_owner`` or a ``moved`` one) describes; ``case_of`` rebuilds
    the case inside it."""
    if "with_owner" in description:
        inner = description["with_owner"]
        return WithOwner(case_of(inner["data"]), _owner_of(inner["owner"]))
    inner = description["moved"]
    if inner["device"] not in ("cpu", "cuda"):
        raise BadOwnedCase("no device is called %r" % (inner["device"],))
    return Moved(case_of(inner["case"]), inner["device"])

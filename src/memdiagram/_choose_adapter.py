"""Which adapter reads a tensor: torch's or reftorch's (see ``_adapter`` for what one answers).

Neither library is imported here: each adapter imports its own library when
it first reads a tensor, so choosing one costs nothing.
"""

from ._reftorch_adapter import ReftorchAdapter
from ._torch_adapter import TorchAdapter


def adapter_for(obj):
    """The adapter for a tensor object, chosen by the package that defines its class."""
    for cls in type(obj).__mro__:
        package = cls.__module__.split(".", 1)[0]
        if package == "torch":
            return TorchAdapter()
        if package == "reftorch":
            return ReftorchAdapter()
    raise TypeError(
        f"memdiagram draws torch or reftorch tensors, not {type(obj).__name__}"
    )


def adapter_for_module(module):
    """The adapter for ``torch=...`` as passed to ``step_through``."""
    name = getattr(module, "__name__", None)
    if name == "torch":
        return TorchAdapter()
    if name == "reftorch":
        return ReftorchAdapter()
    raise TypeError(
        "step_through(..., torch=...) expects the torch or the reftorch module, "
        f"got {type(module).__name__} {name!r}"
    )

"""``t.copy_(other, non_blocking=False)``, read as torch's parser reads it.

torch names the source ``other``: ``copy_(other=t)`` works, ``copy_(src=t)`` is refused as a
missing ``other``. A source that is neither a dense tensor nor a number is refused here, before
the lesson (``_copy_.copy_``) writes anything. Nothing here touches memory, metadata, the version
counter or the graph.
"""

import builtins

from . import _copy_, _layout, _messages
from ._arguments import MISSING, _check_given
from ._tensor import Tensor


def copy_(self, other=MISSING, *rest, **unknown):
    """torch's refusals of ``copy_``'s arguments; then ``_copy_.copy_``."""
    if len(rest) > 1:
        raise TypeError(_messages.COPY_ARGUMENTS.format(", ".join(_messages.type_name(a) for a in (other, *rest))))
    non_blocking = rest[0] if rest else unknown.pop("non_blocking", False)
    if other is MISSING and not unknown and non_blocking is False:
        raise TypeError(_messages.COPY_NO_ARGUMENTS)
    _check_given("copy_", other=other)
    if unknown:
        raise TypeError(f"copy_() got an unexpected keyword argument '{next(iter(unknown))}'")
    if not isinstance(other, (Tensor, builtins.int, builtins.float, builtins.bool)):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='copy_', name='other', position=1, expected='Tensor', got=_messages.type_name(other)))
    if not isinstance(non_blocking, builtins.bool):
        text = _messages.ARGUMENT_TYPE if rest else _messages.ARGUMENT_TYPE_BY_KEYWORD
        raise TypeError(text.format(fn="copy_", name="non_blocking", position=2, expected="bool",
                                    got=_messages.type_name(non_blocking)))
    if isinstance(other, Tensor) and other.layout is _layout.sparse_coo:
        raise RuntimeError(_messages.SPARSE_COPY_DENSE.format(self=self.type(), src=other.type()))
    if isinstance(other, Tensor) and other.layout is _layout.sparse_csr:
        raise RuntimeError(_messages.SPARSE_CSR_COPY_INTO_STRIDED)
    return _copy_.copy_(self, other, non_blocking)

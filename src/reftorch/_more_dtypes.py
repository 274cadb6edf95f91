"""The dtype shortcuts no core lesson reaches: ``t.half()``, ``int()``, ``short()``, ``char()``,
``byte()``, each ``t.to(dtype, memory_format=memory_format)`` as ``_binding.float`` is: ``self`` if
already of that dtype, else a copy in new memory."""

from ._binding import to
from ._dtype import float16, int8, int16, int32, uint8


def half(self, *, memory_format=None):
    return to(self, float16, memory_format=memory_format)


def int(self, *, memory_format=None):  # noqa: A001
    return to(self, int32, memory_format=memory_format)


def short(self, *, memory_format=None):
    return to(self, int16, memory_format=memory_format)


def char(self, *, memory_format=None):
    return to(self, int8, memory_format=memory_format)


def byte(self, *, memory_format=None):
    return to(self, uint8, memory_format=memory_format)

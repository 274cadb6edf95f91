"""Layouts and memory formats: the names torch gives to ways of arranging memory.

``torch.strided`` is the layout of every ordinary tensor: one storage and a
stride per dimension; ``torch.sparse_coo`` and ``torch.sparse_csr`` keep only
the stored entries (``_sparse``, ``_sparse_csr``). A memory format is a request
to an operation that allocates (``clone(memory_format=...)``): row-major
(``contiguous_format``), the source's own (``preserve_format``), or an image
layout (``channels_last``, ``channels_last_3d``; see ``_memory_formats``).
"""


class _Name:
    """A named singleton that prints as ``torch.<name>``; copying or pickling
    one gives the same object (pickle looks the name up in this module)."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name


class layout(_Name):
    """One of torch's layouts. There is one object per layout, as in torch."""


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")


class memory_format(_Name):
    """How a new tensor lays out its elements in memory."""


preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")  # 4-D images, channel innermost (_memory_formats)
channels_last_3d = memory_format("channels_last_3d")  # the same for 5-D

"""Layouts (``strided``, the sparse ones) and memory formats (what an operation that allocates
is asked for: ``contiguous_format``, ``preserve_format``, ``channels_last``): torch's names."""


class _Name:
    """A named singleton that prints as ``torch.<name>``; copying or pickling keeps it."""

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
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

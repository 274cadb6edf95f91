"""``torch.Size``: the tuple type of ``t.shape``."""

from ._strides import numel


class Size(tuple):
    """A tuple of dimension sizes that prints as ``torch.Size([2, 3])``."""

    def numel(self):
        return numel(self)

    def __repr__(self):
        return f"torch.Size([{', '.join(str(n) for n in self)}])"

    __str__ = __repr__

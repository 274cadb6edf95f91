"""``torch.Size``: the tuple type of ``t.shape``."""


class Size(tuple):
    """A tuple of dimension sizes that prints as ``torch.Size([2, 3])``."""

    def numel(self):
        count = 1
        for n in self:
            count *= n
        return count

    def __repr__(self):
        return f"torch.Size([{', '.join(str(n) for n in self)}])"

    __str__ = __repr__

"""nn.Sequential: modules registered under the names "0", "1", "2" ..., run in order.

``Sequential(a, b)`` registers ``a`` as child ``"0"`` and ``b`` as ``"1"``, so its
parameters are named ``"0.weight"``, ``"1.bias"`` and so on. ``seq[0]`` is the
module ``a`` itself, not a copy; ``seq[1:]`` is a *new* Sequential holding the
same module objects (their parameters are shared). ``Sequential(a, a)`` holds
one module twice: its parameters are listed once.
"""

import operator
from collections import OrderedDict
from itertools import islice

from .module import Module


class Sequential(Module):
    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def _get_item_by_idx(self, iterator, idx):
        size = len(self)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return next(islice(iterator, idx % size, None))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx, module):
        setattr(self, self._get_item_by_idx(self._modules.keys(), idx), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for name in list(self._modules.keys())[idx]:
                delattr(self, name)
        else:
            delattr(self, self._get_item_by_idx(self._modules.keys(), idx))
        # renumber what is left: "0", "1", ...
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

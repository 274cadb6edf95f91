"""Walking a module tree: every sub-module, parameter and buffer, once, by dotted name.

``named_modules`` visits a module, then each child's tree in registration
order, naming each by its path (``"0.fc"``). ``named_parameters`` and
``named_buffers`` walk that tree and list each tensor once, under the first
name it is found at: a weight shared by two layers appears once, and its
object is the registered object itself, never a copy. ``parameters()`` is
what an optimizer is given, so it holds the very tensors the model uses.
These functions are ``Module``'s methods (``module.py`` attaches them).
"""


def named_modules(self, memo=None, prefix="", remove_duplicate=True):
    """This module and every descendant, each once, with its dotted name."""
    if memo is None:
        memo = set()
    if self in memo:
        return
    if remove_duplicate:
        memo.add(self)
    yield prefix, self
    for name, module in self._modules.items():
        if module is not None:
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)


def named_members(self, table, prefix="", recurse=True, remove_duplicate=True):
    """``(dotted name, tensor)`` for one table over the tree; a tensor shared
    by two modules is listed once, under its first name."""
    seen = set()
    modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
    for module_prefix, module in modules:
        for name, value in getattr(module, table).items():
            if value is None or id(value) in seen:
                continue
            if remove_duplicate:
                seen.add(id(value))
            yield module_prefix + ("." if module_prefix else "") + name, value


def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
    yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)


def parameters(self, recurse=True):
    for _, param in self.named_parameters(recurse=recurse):
        yield param


def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
    yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)


def buffers(self, recurse=True):
    for _, buf in self.named_buffers(recurse=recurse):
        yield buf


def named_children(self):
    seen = set()
    for name, module in self._modules.items():
        if module is not None and module not in seen:
            seen.add(module)
            yield name, module


def children(self):
    for _, module in self.named_children():
        yield module


def modules(self):
    for _, module in self.named_modules():
        yield module

"""Which torch tensors share a version counter? Reading it, not guessing it.

torch has no public way to ask "do these two tensors share a version
counter?". ``t._version`` being equal is not enough (two fresh tensors are both
at 0), and bumping one to see who changes would modify the program we are
drawing. What torch does guarantee:

* a view (``t._base is not None``) shares its counter with its base;
* ``t.detach()`` shares the counter of ``t``; ``t.data``, ``clone()`` and
  every new allocation get a new one;
* tensors that share a counter always show the same ``_version``.

The first rule can be checked on the tensors alone; the second cannot:
``a.detach()`` and ``a.data`` look identical from Python (same storage, same
metadata, ``_base`` None), yet only one of them shares ``a``'s counter.

So we read the answer where torch keeps it. A tensor's C++ ``TensorImpl``
holds a pointer to its ``VersionCounter`` object, and ``t._cdata`` is the
address of that ``TensorImpl``. Two tensors share a counter exactly when
those pointers are equal. Where the pointer sits inside ``TensorImpl`` depends
on the torch build, so ``find_counter_slot()`` finds it once, on tensors we
make for the purpose (never the user's): it looks for the one pointer-sized
word that is equal for ``p``, ``p.detach()`` and ``p[1:]`` and different for
``p.data``, ``p.clone()`` and an unrelated tensor, and then checks that the
object it points to holds ``p._version`` (after bumping our own ``p``).
Only reads of the user's tensors follow: one word each, never written.

If that check fails (another torch build, another platform), we fall back to
what the rules above can tell: a view and its base share a counter, anything
else is drawn with a counter of its own, and the diagram says the sharing was
inferred from ``._base`` and may miss ``detach()`` links.
"""

import ctypes

_WORD = ctypes.sizeof(ctypes.c_void_p)
_WORDS_TO_SCAN = 16          # TensorImpl is larger than 16 words on every build
_VERSION_OFFSET = 2 * _WORD  # VersionCounter: vtable, two 32-bit refcounts, then version_

_slot = "unknown"  # word index of the counter pointer, None if not found


def _word(t, index):
    return ctypes.c_size_t.from_address(t._cdata + index * _WORD).value


def find_counter_slot():
    """The word index of the version-counter pointer in ``TensorImpl``, or None."""
    global _slot
    if _slot != "unknown":
        return _slot
    import torch

    p = torch.zeros(4)
    shared = [p.detach(), p[1:]]
    separate = [p.data, p.clone(), torch.zeros(4)]
    candidates = []
    for i in range(1, _WORDS_TO_SCAN):
        w = _word(p, i)
        if w == 0 or w % _WORD:
            continue
        if all(_word(s, i) == w for s in shared) and all(_word(s, i) != w for s in separate):
            if len({_word(s, i) for s in separate}) == len(separate):
                candidates.append(i)
    _slot = None
    if len(candidates) == 1:
        i = candidates[0]
        with torch.no_grad():
            for _ in range(3):
                p.add_(1)  # our own probe tensor, not the user's
        readings = [ctypes.c_uint32.from_address(_word(s, i) + _VERSION_OFFSET).value
                    for s in [p, *shared, *separate]]
        if readings == [3, 3, 3, 0, 0, 0] and p._version == 3:
            _slot = i
    return _slot


def counter_key(t, others):
    """``(key, how)`` for ``t``'s version counter; see the module docstring."""
    slot = find_counter_slot()
    if slot is not None:
        pointer = _word(t, slot)
        if pointer == 0:
            return None, "none: an inference-mode tensor has no version counter"
        return ("torch", pointer), "read from the tensor's C++ TensorImpl"
    return _counter_key_by_rules(t), "inferred from ._base only (detach() links not visible)"


def _counter_key_by_rules(t):
    """Views share their base's counter; every other tensor is assumed to have its own."""
    base = t._base
    return ("rules", id(base if base is not None else t))

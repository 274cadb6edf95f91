"""Which line a warning names: the learner's, never one inside reftorch.

A Python warning is printed with a file and a line, ``prog.py:12:
UserWarning: ...``, and Python's default filter shows it once per such
place. torch raises most of its warnings in C++, so Python names the line of
the learner's code that called into torch. reftorch is Python all the way
down: a plain ``warnings.warn`` would name the reftorch line that warned, or
with a fixed ``stacklevel`` whichever function happened to call it (a method
wrapper, an indexing helper ...).

``warn`` walks up the call stack past every frame of the reftorch package
and names the first frame outside it: the learner's line, as torch does.
(Python 3.12's ``warnings.warn(..., skip_file_prefixes=...)`` does the same;
reftorch runs on 3.11.)

One exception, torch's too: while ``set_default_device`` has named a device,
torch runs every call through a Python function of its own (a
``TorchFunctionMode`` in ``torch/utils/_device.py``), and its warnings name
that function's line. reftorch's then name a line of reftorch.
Nothing here touches tensors, memory or the graph.
"""

import inspect
import warnings

from ._default_device import is_default_device_set

PACKAGE = __name__.partition(".")[0]  # "reftorch"


def _in_reftorch(frame):
    """Does this frame run reftorch's code? Told by its module's name, whatever
    path the package was imported from."""
    module = frame.f_globals.get("__name__") or ""
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def stacklevel_outside_reftorch():
    """The ``stacklevel`` that makes a ``warnings.warn`` called by our caller name
    the innermost frame outside the reftorch package.

    Level 1 is the function that calls ``warnings.warn``; each level above it
    is one frame further out.
    """
    frame = inspect.currentframe().f_back.f_back  # the caller of our caller: level 2 from it
    level = 2
    while frame is not None and _in_reftorch(frame):
        frame, level = frame.f_back, level + 1
    return level


def warn(message, category=UserWarning):
    """``warnings.warn(message, category)``, naming the learner's line (or, while a
    default device is set, reftorch's own, as torch names its own)."""
    level = 1 if is_default_device_set() else stacklevel_outside_reftorch()
    warnings.warn(message, category, stacklevel=level)

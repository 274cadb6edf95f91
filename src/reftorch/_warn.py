"""Which line a warning names: the learner's, never one inside reftorch.

torch warns from C++, so Python names the learner's line that called torch.
reftorch is Python all the way down: ``warn`` walks up the call stack past
every frame of the package and names the first frame outside it, as torch
does. While ``set_default_device`` has named a device, torch runs every call
through a Python function of its own and its warnings name that line;
reftorch's then name a line of reftorch. Nothing here touches tensors.
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

"""Which line a warning names: the learner's, as torch's warnings from C++ do (while a default
device is set, torch's name its own Python line, and reftorch's one of reftorch)."""

import inspect
import warnings

PACKAGE = __name__.partition(".")[0]  # "reftorch"
default_device_set = False  # the switch ``set_default_device`` sets


def _in_reftorch(frame):
    """Does this frame run reftorch's code (by its module's name)?"""
    module = frame.f_globals.get("__name__") or ""
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def stacklevel_outside_reftorch():
    """The ``stacklevel`` at which our caller's ``warnings.warn`` names the innermost frame outside reftorch."""
    frame = inspect.currentframe().f_back.f_back  # the caller of our caller: level 2 from it
    level = 2
    while frame is not None and _in_reftorch(frame):
        frame, level = frame.f_back, level + 1
    return level


def warn(message, category=UserWarning):
    """``warnings.warn(message, category)``, naming the learner's line."""
    level = 1 if default_device_set else stacklevel_outside_reftorch()
    warnings.warn(message, category, stacklevel=level)

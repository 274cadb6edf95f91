"""reftorch.optim: plain SGD."""

from .sgd import SGD

__all__ = ["SGD"]

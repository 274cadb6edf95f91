"""reftorch.optim: SGD and Adam, which update parameters in place.

Read ``optimizer`` first (parameter groups, per-parameter state, state_dict),
then ``sgd`` and ``adam``.
"""

from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Adam", "Optimizer", "SGD"]

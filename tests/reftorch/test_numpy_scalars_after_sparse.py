"""A numpy number on the left of a reftorch tensor gives a tensor, with or without ``reftorch.sparse``.

numpy defers ``np.int64(2) + t`` to ``t.__radd__`` because reftorch's Tensor, as torch's,
sets ``__array_priority__`` on its class. numpy reads that number from the class, so
``reftorch.sparse``, which puts a per-layout descriptor on ``Tensor`` for each method,
must leave it a plain number.
"""

import subprocess
import sys

import pytest

pytest.importorskip("numpy", reason="numpy is not installed: the numpy bridge (reftorch's optional numpy extra) "
                                    "is not tested")

PROGRAM = """
import numpy as np
import reftorch
{imports}
t = reftorch.tensor([1, 2])
print(type(np.int64(2) + t).__name__, type(np.int64(2) * t).__name__, type(np.float32(1) - t).__name__)
"""


@pytest.mark.parametrize("imports", ["", "import reftorch.sparse"])
def test_a_numpy_number_on_the_left_gives_a_tensor(imports):
    # a process of its own: whether reftorch.sparse was imported is a process's state
    done = subprocess.run([sys.executable, "-c", PROGRAM.format(imports=imports)], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["Tensor", "Tensor", "Tensor"]

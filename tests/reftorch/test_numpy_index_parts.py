"""A numpy array inside an index is read as the index tensor torch makes of it.

torch turns an array into a tensor with its dtype where that dtype makes a
mask (bool, uint8) and into an int64 tensor otherwise (floats truncated). So a
0-d uint8 array is a mask, advanced, a copy, although ``np.array(1)`` is the
integer 1, basic, a view; and ``np.array(1.0)`` is the integer 1 too, while a
uint8 array of several elements is a mask, not a list of row numbers.
"""

import warnings

import pytest
import torch

from crosscheck.harness import assert_same

from reftorch._indexing import is_advanced

np = pytest.importorskip("numpy", reason="numpy is not installed: the numpy bridge (reftorch's optional numpy extra) "
                                         "is not tested")

PARTS = ["np.array(1)", "np.array(1, dtype=np.int32)", "np.array(1.0)", "np.array(1, dtype=np.uint8)",
         "np.array(True)", "np.array([1, 0], dtype=np.uint8)", "np.array([1.7, 0.2])"]


@pytest.mark.parametrize("part", PARTS)
def test_numpy_part_reads_like_torch(part):
    assert_same(f"""
import numpy as np
m = torch.arange(6.).reshape(2, 3)
r = m[{part}]
print(r, r._base is m, r.untyped_storage().data_ptr() == m.untyped_storage().data_ptr())
""")


@pytest.mark.parametrize("part", PARTS)
def test_is_advanced_reads_a_numpy_array_as_torch_does(part):
    m = torch.arange(6.).reshape(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # uint8 indexing is deprecated
        copies = m[eval(part)].untyped_storage().data_ptr() != m.untyped_storage().data_ptr()
    assert is_advanced(eval(part)) is copies, f"torch {'copies' if copies else 'keeps a view'} for {part}"

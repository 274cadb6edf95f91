"""The layout of a computed result (torch's TensorIterator), on layouts found by random search.

``a + b`` allocates its result dense, in the memory order of its inputs
(``_iterator_strides``). These programs pin the cases a random comparison of
reftorch with torch turned up: inputs that are all contiguous and of the
result's shape take a shortcut (plain row-major strides, whatever the strides
of their size-1 dimensions); a Python number operand of ``*``, ``/``, ``-``
or ``==`` counts as a 0-d operand, so that shortcut is off; ``2 ** t`` is
always row-major; and ``t ** u`` with shapes that do not broadcast raises
torch's error.
"""

import pytest

from crosscheck.harness import assert_same

LAYOUTS = [
    ((1, 2, 1), (2, 1, 1), (1, 2, 1), (1, 1, 2)),
    ((0, 1), (1, 2), (0, 1), (6, 0)),
    ((3, 1, 0), (1, 6, 3), (3, 1, 0), (0, 6, 3)),
    ((1, 2), (1, 6), (1, 2), (0, 6)),
    ((2, 3), (1, 2), (2, 3), (3, 1)),
    ((0, 2, 1), (3, 0, 6), (), ()),
]

EXPRESSIONS = ["a + b", "a * b", "a * 1", "1 * a", "a / 2", "1 - a", "a - 1", "a == 1", "a < 0.3",
               "-a", "a.exp()", "a.pow(2)", "a.pow(b)", "2 ** a", "a.lerp(b, 0.5)", "a.lerp(b, a)",
               "a.add(b, alpha=2)", "a + torch.tensor(1.0)"]


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_result_strides_follow_torchs_tensor_iterator(layout):
    a_size, a_stride, b_size, b_stride = layout
    lines = "\n".join(
        f"try:\n    r = {e}\n    print({e!r}, r.shape, r.stride())\nexcept RuntimeError as e:\n    print({e!r}, e)"
        for e in EXPRESSIONS
    )
    assert_same(f"""
a = torch.full((64,), 0.5).as_strided({a_size}, {a_stride})
b = torch.full((64,), 0.25).as_strided({b_size}, {b_stride})
{lines}
""")


def test_a_power_of_shapes_that_do_not_broadcast_raises_torchs_error():
    assert_same("""
a = torch.ones(2, 3)
a.pow(torch.ones(2))
""", raises="RuntimeError")

"""Fused multiply-add: ``x * y + z`` rounded once, as torch's CPU kernels round it.

A float32 ``x * y`` usually needs 48 bits, and a float32 keeps 24, so
``x * y + z`` written out rounds twice: once after the product, once after
the sum. The CPU's fused multiply-add instruction (FMA) rounds only once, at
the end. torch's CPU kernels use it for ``a.add(b, alpha=...)``,
``a.lerp(b, w)`` and ``a.addcmul(b, c)``, so the last bit of their results can
differ from the two-rounding formula. Optimizer updates are built from these
ops, so reftorch rounds them the same way to give the same bits.

numpy has no FMA, so ``fma`` computes the exact result with more precision
and rounds it once:

* **float32** (and narrower): the product of two float32 numbers is exact in
  float64. The float64 sum is made *round-to-odd* (see ``_round_to_odd_sum``),
  and rounding that once more to float32 then gives the correctly rounded
  result, with no double-rounding error.
* **float64**: the product is split exactly into ``high + low`` (Dekker's
  algorithm), and the three-term sum is rounded once with the same
  round-to-odd step (Boldo and Melquiond, "Emulation of FMA and correctly
  rounded sums", 2008).

Infinities and NaNs take the plain formula (it gives the same answer).
"""

import numpy as np

_SPLITTER = 2.0 ** 27 + 1  # Veltkamp's constant for splitting a float64 in two halves


def _two_sum(a, b):
    """``a + b`` as ``s + e`` exactly: ``s`` the rounded sum, ``e`` its rounding error."""
    s = a + b
    b_virtual = s - a
    e = (a - (s - b_virtual)) + (b - b_virtual)
    return s, e


def _two_product(a, b):
    """``a * b`` as ``p + e`` exactly (Dekker): ``p`` the rounded product, ``e`` its error."""
    p = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    return p, e


def _split(a):
    """``a`` as ``hi + lo``, each with at most 26 significant bits, so products of halves are exact."""
    t = _SPLITTER * a
    hi = t - (t - a)
    return hi, a - hi


def _round_to_odd_sum(a, b):
    """``a + b`` in float64, rounded to odd: exact if it fits, otherwise the
    neighbour whose last bit is 1. Rounding this result again to nearest (in
    a format at least two bits shorter, or in a final sum) rounds correctly."""
    s, e = _two_sum(a, b)
    last_bit_even = (s.view(np.int64) & 1) == 0
    inexact = (e != 0) & last_bit_even
    # The exact sum lies between s and its neighbour in the direction of e.
    return np.where(inexact, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)


def fma(x, y, z):
    """``x * y + z`` with one rounding, in the dtype of the (broadcast) operands."""
    x, y, z = np.broadcast_arrays(*(np.asarray(v) for v in (x, y, z)))
    dtype = np.result_type(x, y, z)
    x64, y64, z64 = (v.astype(np.float64) for v in (x, y, z))
    with np.errstate(all="ignore"):
        plain = x64 * y64 + z64
        if dtype == np.float64:
            p, p_err = _two_product(x64, y64)
            s, s_err = _two_sum(z64, p)
            fused = s + _round_to_odd_sum(s_err, p_err)
        else:  # float32 products are exact in float64; round to float32 once, as float32 FMA does
            fused = _round_to_odd_sum(x64 * y64, z64).astype(np.float32)
        result = np.where(np.isfinite(plain), fused, plain)
    return result.astype(dtype)  # a new array of the broadcast shape (0-d stays 0-d)


def add_scaled(x, y, alpha):
    """``x + alpha * y`` as torch's ``add`` kernel computes it: for floating
    point numbers, one fused multiply-add (one rounding) unless ``alpha`` is 1."""
    if alpha == 1:
        return x + y
    if np.result_type(x, y).kind != "f":
        if alpha == -1:  # sub: no negative number meets an unsigned dtype
            return x - y
        # integers wrap around, as in C: alpha too is taken modulo the dtype's range
        return x + np.asarray(alpha).astype(np.result_type(x, y)) * y
    dtype = np.result_type(x, y).type
    return fma(y, dtype(alpha), x)

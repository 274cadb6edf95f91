"""``t ** u`` and ``2.7 ** t`` in float32 and float16: C's ``powf``, as torch's portable kernel.

torch 2.13 computes a float32 power of two tensors with ``std::pow(float, float)``, C's ``powf``,
for every element its kernel takes one at a time: all of them under ``ATEN_CPU_CAPABILITY=default``,
and a tensor's tail (or a tensor too short for one vector) under ``avx2`` and ``avx512``, whose
whole vectors go to Sleef's ``powf`` instead (``test_diff_portable_rounding.py`` bounds those).
float16 powers are ``powf`` of the float32 values under every family. reftorch calls ``powf``.
The pairs below are ones where ``powf`` and float64's ``pow`` rounded to float32 disagree.
"""

import json
import os
import subprocess
import sys

from crosscheck.harness import assert_same, import_reftorch

# base, exponent (float32 values, as hex): powf differs from round(pow(double, double)) here
PAIRS = [("0x1.6e9eaap+2", "0x1.5a81d6p+1"), ("0x1.29be48p+1", "0x1.10c7aep+3"),
         ("0x1.2de0e4p-1", "-0x1.bd7274p-2"), ("0x1.041102p+3", "0x1.5c3d82p-2")]

ONE_AT_A_TIME = """
pairs = [(float.fromhex(b), float.fromhex(e)) for b, e in %r]
for b, e in pairs:
    for dtype in (torch.float32, torch.float16):
        x, y = torch.tensor([b], dtype=dtype), torch.tensor([e], dtype=dtype)
        print(dtype, (x ** y).item().hex(), (x.pow(y)).item().hex(), (2.7 ** y).item().hex(), x.clone().pow_(y).item().hex())
""" % (PAIRS,)


def test_a_power_of_one_element_tensors_is_cs_powf_under_every_kernel_family():
    assert_same(ONE_AT_A_TIME)


WHOLE = """
import json, torch
{make}
print(json.dumps([v.hex() for v in (b ** e).tolist() + (2.7 ** e).tolist() + (b.half() ** e.half()).tolist()]))
"""
MAKE = """
pairs = [(float.fromhex(b), float.fromhex(e)) for b, e in %r] * 16
b = torch.tensor([p[0] for p in pairs]) + torch.arange(64.) / 64
e = torch.tensor([p[1] for p in pairs]) - torch.arange(64.) / 32
""" % (PAIRS,)


def test_under_the_portable_kernels_a_whole_tensors_powers_are_powf_bit_for_bit():
    program = WHOLE.format(make=MAKE)
    torch_says = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                                env={**os.environ, "ATEN_CPU_CAPABILITY": "default"}).stdout
    reftorch = import_reftorch()
    namespace = {"torch": reftorch}
    exec(MAKE, namespace)
    b, e = namespace["b"], namespace["e"]
    ours = [v.hex() for v in (b ** e).tolist() + (2.7 ** e).tolist() + (b.half() ** e.half()).tolist()]
    assert json.loads(torch_says.splitlines()[-1]) == ours

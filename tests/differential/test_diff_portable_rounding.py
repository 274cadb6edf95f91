"""Where torch's last bit depends on the CPU: numbers compared within a stated bound.

torch picks its CPU kernels by processor (``ATEN_CPU_CAPABILITY`` = ``default``,
``avx2``, ``avx512``). The AVX2 and AVX-512 kernels round ``a * b + c`` once (a
fused multiply-add) where the portable kernels round twice, and batch sums add
in an order set by the kernel's vector width. torch promises neither, so its
last bit moves from one CPU to the next. reftorch computes each formula as
written, every operation rounded: the portable kernels' bits.

Every other differential case feeds numbers that make each product and sum
exact (small multiples of powers of two), and compares bit for bit. The cases
here cannot: Adam's default settings (betas 0.9 and 0.999, eps 1e-8), lerp and
``add(alpha=)`` on arbitrary numbers, and BatchNorm's default eps and its
gradients. Each names the tensors whose numbers may differ and a bound in
units in the last place (``assert_close_ulps``); everything else about them
(shape, strides, versions, graph, printed text) is still compared exactly.

``test_each_bound_is_needed_and_enough_on_every_kernel_family`` runs torch
under every kernel family this CPU offers, with one and with two threads, and
shows for each case that bit equality fails for some family (the bound is
needed) and that no family is further away than the bound (it is enough).
``ULPS_SHOW=1 pytest -s`` prints the distances it measured.
"""

import fnmatch
import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass

import pytest

from crosscheck.harness import assert_same, import_reftorch, run, ulp_distance


@dataclass(frozen=True)
class Case:
    name: str
    program: str
    ulps: dict  # fnmatch pattern of tensor names -> bound in units in the last place

    def bounded(self, tensors: dict) -> dict:
        """``{tensor name: (bound, dtype, [numbers of its values and gradient])}``
        from a trace's observed tensors."""
        found = {}
        for name, fields in tensors.items():
            bound = next((n for pattern, n in self.ulps.items() if fnmatch.fnmatchcase(name, pattern)), None)
            if bound is None:
                continue
            numbers = _flat(fields["values"])
            if isinstance(fields["grad"], dict):
                numbers += _flat(fields["grad"]["values"])
            found[name] = (bound, fields["dtype"], [float(x) for x in numbers])
        return found


def _flat(values):
    return [x for v in values for x in _flat(v)] if isinstance(values, list) else [values]


# One multiply-add, fused or not, differs by at most 1 ulp when its product is no
# larger than its result (in binades): rounding the product first moves the sum by
# at most half an ulp of the result. The lerp and add cases keep to such numbers.
CASES = [
    Case(
        "lerp_on_arbitrary_numbers",
        """
        a = torch.tensor([0.731, 1.29, 2.003, 1e-3, 7.5])
        e = torch.tensor([1.7, 0.31, 2.9, 3.3, 7.25])
        wts = torch.tensor([0.1, 0.49, 0.5, 0.9, -0.3])
        small, large, by_tensor = a.lerp(e, 0.1), a.lerp(e, 0.75), a.lerp(e, wts)
        d = a.double().lerp(e.double(), 0.1)
        moved = a.clone()
        moved.lerp_(e, 0.01)
        print(moved._version, by_tensor.dtype, d.dtype)
        """,
        {"small": 1, "large": 1, "by_tensor": 1, "d": 1, "moved": 1},
    ),
    Case(
        "add_with_alpha_on_arbitrary_numbers",
        """
        a = torch.tensor([0.731, -1.29, 2.003, 1e-3, 7.5])
        g = torch.tensor([1.7, 0.31, -2.9, 3.3, 0.05])
        added, subtracted = a.add(g, alpha=-0.1), a.sub(g, alpha=0.03)
        d = a.double().add(g.double(), alpha=0.037)
        b = a.clone()
        b.add_(g, alpha=-0.01)
        print(b._version)
        """,
        {"added": 1, "subtracted": 1, "d": 1, "b": 1},
    ),
    Case(
        "adam_with_default_settings",
        # betas 0.9 and 0.999 and eps 1e-8: each step's lerp and addcmul may round
        # differently, and the moments carry that into the next steps. Measured: at
        # most 1 ulp after five steps (AMD EPYC, default, AVX2 and AVX-512).
        """
        w = torch.nn.Parameter(torch.tensor([0.731, -1.29, 2.003]))
        b = torch.nn.Parameter(torch.tensor([0.1]))
        def loss_fn():
            x = torch.tensor([0.37, 1.9, -0.55])
            return ((w * x).sum() + b - 0.3) ** 2
        opt = torch.optim.Adam([w, b], weight_decay=0.01)
        for _ in range(5):
            opt.zero_grad()
            loss_fn().backward()
            opt.step()
        sd = opt.state_dict()
        print(list(sd["state"]), sorted(sd["state"][0]), sd["state"][0]["step"], sd["param_groups"])
        exp_avg, exp_avg_sq = opt.state[w]["exp_avg"], opt.state[w]["exp_avg_sq"]
        del sd
        """,
        {"w": 2, "b": 2, "exp_avg": 2, "exp_avg_sq": 2},
    ),
    Case(
        "powers_of_whole_float32_tensors",
        # A vector's worth of elements at a time, torch's AVX2 and AVX-512 kernels call Sleef's
        # powf (1 ulp from the true power), the portable one C's powf (reftorch's): these pairs
        # are ones where the two differ. Measured: at most 1 ulp. Shorter tensors, and a
        # tensor's tail, are computed one element at a time with C's powf under every family
        # (test_diff_powers.py).
        """
        b = torch.tensor([4.451, 1.906, 3.016, 6.204, 5.578, 3.13] * 6)
        e = torch.tensor([0.573, 1.531, -0.044, 2.991, -2.295, 1.958] * 6)
        powers = b ** e
        moved = b.clone()
        moved.pow_(e)
        print(powers.dtype, moved._version)
        """,
        {"powers": 1, "moved": 1},
    ),
    Case(
        "batchnorm_in_training_with_its_gradients",
        # 1 / sqrt(var + eps) is inexact, and the gradients are sums in torch's order.
        # Each channel keeps to one side of zero and the upstream gradient weighs one
        # side of the mean, so no result comes from nearly equal terms (a difference
        # of those can be many ulps off). Measured: at most 3 ulps.
        """
        bn = torch.nn.BatchNorm1d(3)
        with torch.no_grad():
            bn.weight.copy_(torch.tensor([2.0, 0.5, 1.5]))
            bn.bias.copy_(torch.tensor([0.0, 1.0, -0.25]))
        x = torch.tensor([[0.3, -1.7, 2.2], [2.1, -0.4, 0.9], [0.1, -3.3, 0.1], [1.7, -0.2, 2.6]], requires_grad=True)
        y = bn(x)
        (y * torch.tensor([[0.25, 0.5, 2.0], [2.0, 4.0, 0.25], [0.5, 0.0, -1.0], [3.0, 1.0, 0.5]])).sum().backward()
        running_mean, running_var = bn.running_mean, bn.running_var
        print(y.grad_fn.name(), bn.num_batches_tracked)
        """,
        {"y": 4, "x": 4, "bn.*": 4, "running_*": 4},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_reftorch_is_within_the_stated_bound_of_torch(case):
    assert_same(textwrap.dedent(case.program), ulps=case.ulps)


# --- the bounds, under every kernel family --------------------------------------------

CAPABILITIES = ("default", "avx2", "avx512")
THREADS = (1, 2)

# Runs in a fresh interpreter per capability: reads the cases' programs as JSON on
# stdin, prints the capability torch chose and each case's bounded numbers.
_RUN_ON_TORCH = """
import json, sys, torch
from crosscheck.harness import run
programs = json.load(sys.stdin)
runs = {}
for threads in %r:
    torch.set_num_threads(threads)
    runs[threads] = {name: run(program, torch).tensors for name, program in programs.items()}
print(json.dumps({"capability": torch.backends.cpu.get_cpu_capability(), "runs": runs}))
""" % (THREADS,)


@pytest.fixture(scope="module")
def torch_runs():
    """``{(capability torch chose, threads): {case name: trace tensors}}`` for each family this CPU offers."""
    programs = json.dumps({case.name: textwrap.dedent(case.program) for case in CASES})
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _RUN_ON_TORCH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env={**os.environ, "ATEN_CPU_CAPABILITY": capability},
        )
        for capability in CAPABILITIES
    ]
    results = {}
    for capability, process in zip(CAPABILITIES, processes):
        out, err = process.communicate(programs, timeout=300)
        assert process.returncode == 0, f"torch with ATEN_CPU_CAPABILITY={capability} failed:\n{err}"
        report = json.loads(out.splitlines()[-1])
        for threads, traces in report["runs"].items():
            # a CPU without AVX-512 gives the AVX2 kernels again: counted once
            results.setdefault((report["capability"], int(threads)), traces)
    return results


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_each_bound_is_needed_and_enough_on_every_kernel_family(case, torch_runs):
    ours = case.bounded(run(textwrap.dedent(case.program), import_reftorch()).tensors)
    assert ours, f"no tensor of {case.name} matches {case.ulps}"
    farthest = {}  # tensor name -> (ulps, capability, threads)
    for (capability, threads), traces in torch_runs.items():
        theirs = case.bounded(traces[case.name])
        assert theirs.keys() == ours.keys(), (capability, threads)
        for name, (bound, dtype, numbers) in ours.items():
            assert len(theirs[name][2]) == len(numbers), (name, capability, threads)
            distance = max(ulp_distance(a, b, dtype) for a, b in zip(numbers, theirs[name][2]))
            if distance > farthest.get(name, (-1,))[0]:
                farthest[name] = (distance, capability, threads)
    report = {name: f"{d} ulps ({cap}, {n} thread(s)); bound {ours[name][0]}" for name, (d, cap, n) in farthest.items()}
    too_far = {name: text for name, text in report.items() if farthest[name][0] > ours[name][0]}
    assert not too_far, f"the bound is not enough: {too_far}"
    if max(d for d, _, _ in farthest.values()) == 0:
        families = sorted({cap for cap, _ in torch_runs})
        message = f"every kernel family this CPU offers ({families}) gives reftorch's bits: the bound is not shown needed"
        if len(families) > 1 or os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    if os.environ.get("ULPS_SHOW"):
        print(case.name, report)

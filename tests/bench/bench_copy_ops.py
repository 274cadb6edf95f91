"""Time each copy operation on torch and on reftorch, for growing sizes.

Prints one table per library: microseconds per call (median of repeats).
reftorch is pure Python (the standard library), so it is slower; the point is the shape of
the numbers (which ops allocate, which only make metadata).
"""

import copy
import statistics
import time
import warnings

import reftorch
import torch

SIZES = (10, 1_000, 100_000)
OPS = {
    "b = a": lambda t, a: a,
    "a.detach()": lambda t, a: a.detach(),
    "a.clone()": lambda t, a: a.clone(),
    "a.clone().detach()": lambda t, a: a.clone().detach(),
    "a.detach().clone()": lambda t, a: a.detach().clone(),
    "a.new_tensor(a)": lambda t, a: a.new_tensor(a),
    "torch.tensor(a)": lambda t, a: t.tensor(a),
    "dst.copy_(a)": lambda t, a: t.empty(a.shape).copy_(a),
    "a.data": lambda t, a: a.data,
    "copy.copy(a)": lambda t, a: copy.copy(a),
    "copy.deepcopy(a)": lambda t, a: copy.deepcopy(a),
}


def time_call(fn, repeats=50):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def main():
    warnings.simplefilter("ignore")  # torch.tensor(t) and new_tensor(t) warn on purpose
    for lib in (torch, reftorch):
        print(f"\n{lib.__name__} {lib.__version__}: microseconds per call (median of 50)")
        print(f"{'operation':<22}" + "".join(f"{n:>12,}" for n in SIZES))
        for name, op in OPS.items():
            row = []
            for n in SIZES:
                a = lib.ones(n, requires_grad=True)
                row.append(time_call(lambda: op(lib, a)))
            print(f"{name:<22}" + "".join(f"{us:>12.1f}" for us in row))


if __name__ == "__main__":
    main()

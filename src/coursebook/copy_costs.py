"""What each way of copying a tensor costs, measured: chapter 22's price list.

``measure_copy_costs(sizes)`` makes, for every size, a float32 tensor ``a``
that requires grad (as a model's tensors do) and measures every operation of
``OPERATIONS`` on it:

* **new bytes**: the storage the result owns, 0 when it shares ``a``'s (for
  ``copy_``, the destination's) storage;
* **time**: ``coursebook.timing.measure``, many short batches taken in turn.

The result prints itself as a table (``print(costs)``) and draws the same
numbers (``costs.plot()``).  Nothing here is a key cell: reftorch's speed says
nothing about torch's, so the costs are measured on torch alone.
"""

from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass

import torch

from coursebook.timing import Comparison, Timing, compare, measure

__all__ = ["OPERATIONS", "CopyCosts", "measure_copy_costs"]

# name shown -> statement timed.  ``copy_`` writes into ``dst``, allocated once, from ``src``,
# ``a`` detached, so that repeated copies do not chain CopyBackwards nodes.
OPERATIONS = {
    "a.detach()": "a.detach()",
    "a.data": "a.data",
    "copy.copy(a)": "copy.copy(a)",
    "a.clone()": "a.clone()",
    "a.detach().clone()": "a.detach().clone()",
    "a.clone().detach()": "a.clone().detach()",
    "a.new_tensor(a)": "a.new_tensor(a)",
    "torch.tensor(a)": "torch.tensor(a)",
    "copy.deepcopy(a)": "copy.deepcopy(a)",
    "dst.copy_(a)": "dst.copy_(src)",
}


@dataclass
class CopyCosts:
    """The measurements: ``timings[size][statement]`` and ``new_bytes[name]`` (one per size)."""

    sizes: list[int]
    timings: dict[int, dict[str, Timing]]
    new_bytes: dict[str, list[int]]

    def detach_first(self, size: int) -> Comparison:
        """``a.clone().detach()`` against ``a.detach().clone()`` at ``size``."""
        return compare(self.timings[size]["a.clone().detach()"], self.timings[size]["a.detach().clone()"])

    def __str__(self) -> str:
        small, large = self.sizes[0], self.sizes[-1]
        ends = (small,) if small == large else (small, large)  # one size: one set of columns, one summary
        header = f"{'operation':20} {'new bytes at ' + format(large, '.0e'):>17} {'µs at ' + str(small) + ': min':>14} {'median':>7}"
        if large != small:
            header += f" {'µs at ' + format(large, '.0e') + ': min':>15} {'median':>7}"
        lines = [header]
        for name, stmt in OPERATIONS.items():
            s = self.timings[small][stmt]
            row = f"{name:20} {self.new_bytes[name][-1]:17,} {s.min * 1e6:14.2f} {s.median * 1e6:7.2f}"
            if large != small:
                l = self.timings[large][stmt]
                row += f" {l.min * 1e6:15.1f} {l.median * 1e6:7.1f}"
            lines.append(row)
        for n in ends:
            gap = self.detach_first(n)
            lines.append(f"{n:>9,} elements: detach() first saves {gap.best_gap * 1e6:.2f} µs in the best case "
                         f"({gap.best_share:.0%} of a call); faster in {gap.second_faster} of {gap.rounds} rounds")
        return "\n".join(lines)

    def plot(self):
        """Median time per call (log-log) and new bytes of the operations that allocate."""
        import matplotlib.pyplot as plt

        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
        for name, stmt in OPERATIONS.items():
            left.plot(self.sizes, [self.timings[n][stmt].median * 1e6 for n in self.sizes], marker="o", label=name)
            if self.new_bytes[name][-1]:
                right.plot(self.sizes, self.new_bytes[name], marker="o", label=name)
        left.set(xscale="log", yscale="log", xlabel="elements (float32)", ylabel="µs per call (median)",
                 title="time")
        right.set(xscale="log", yscale="log", xlabel="elements (float32)", ylabel="bytes of new storage",
                  title="new memory (the others: 0 bytes)")
        left.legend(fontsize=7)
        right.legend(fontsize=7)
        fig.tight_layout()
        plt.show()


def _new_bytes(result, source) -> int:
    shares = result.untyped_storage().data_ptr() == source.untyped_storage().data_ptr()
    return 0 if shares else result.untyped_storage().nbytes()


def measure_copy_costs(sizes, rounds: int = 21) -> CopyCosts:
    """Measure every operation of ``OPERATIONS`` on float32 tensors of each size in ``sizes``."""
    timings, new_bytes = {}, {name: [] for name in OPERATIONS}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # new_tensor(a) and torch.tensor(a) warn (chapter 10)
        for n in sizes:
            env = {"a": torch.rand(n, requires_grad=True), "torch": torch, "copy": copy}
            env["dst"], env["src"] = torch.empty(n), env["a"].detach()
            for name, stmt in OPERATIONS.items():
                source = env["dst"] if name.startswith("dst") else env["a"]
                new_bytes[name].append(_new_bytes(eval(stmt, env), source))
            number = max(1, min(50, 10_000 // n))
            timings[n] = measure(list(OPERATIONS.values()), env, number=number, rounds=rounds)
    return CopyCosts(list(sizes), timings, new_bytes)

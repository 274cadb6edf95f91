"""Time to build and render one memory-diagram step, for 10 and for 50 tensors.

One step = take the snapshot (read every tensor, storage, counter and graph
node), diff it against the previous step, write the narration, lay it out and
render the SVG. The tensors are a mix the course draws: leaves that require
grad, results with a graph, views, detached aliases, clones. Prints the median
milliseconds per step, on torch and on reftorch. Target: <= 50 ms for 10 tensors.
"""

import statistics
import time

import reftorch
import torch

from memdiagram import compute_layout, diff, narrate, render_svg, take_snapshot
from memdiagram._choose_adapter import adapter_for_module
from memdiagram._model import Labels


def program(lib, count):
    """``count`` named tensors of various kinds."""
    named = {}
    x = lib.ones(4, 3, requires_grad=True)
    for i in range(count):
        kind = i % 5
        if kind == 0:
            t = lib.ones(4, 3, requires_grad=True)
        elif kind == 1:
            t = x * float(i)
        elif kind == 2:
            t = x[1:, ::2]
        elif kind == 3:
            t = x.detach().t()
        else:
            t = x.clone()
        named[f"t{i}"] = t
    return named


def one_step(lib, named, labels, previous):
    adapter = adapter_for_module(lib)
    snap = take_snapshot(named, adapter, labels, statement="t = ...")
    layout = compute_layout([snap] if previous is None else [previous, snap])
    change = diff(previous, snap)
    text = narrate(snap, change, step=2, total=2)
    render_svg(snap, layout, change, title="bench", narration=text)
    return snap


def measure(lib, count, repeats=15):
    named = program(lib, count)
    labels = Labels()
    previous = one_step(lib, named, labels, None)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        one_step(lib, named, labels, previous)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    print(f"{'library':<10}{'tensors':>8}{'ms per step':>14}")
    for lib in (torch, reftorch):
        for count in (10, 50):
            print(f"{lib.__name__:<10}{count:>8}{measure(lib, count):>14.1f}")


if __name__ == "__main__":
    main()

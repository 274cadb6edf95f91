"""Timings the cost cells can stand behind: many short runs, taken in turn.

One ``timeit`` run on a shared machine measures the machine as much as the
code: a neighbour's burst of work lands on whichever statement happens to be
running.  So ``measure`` runs every statement in many short batches, the
statements taking turns (forwards on even rounds, backwards on odd ones, so
that none always goes first), and keeps every batch:

* the **minimum** is the best case the code allows on this machine;
* the **median** is what a call typically costs here and now;
* ``compare`` sets two statements side by side.  The gap between their
  minimums is the steadiest estimate of what one saves over the other (load
  only ever adds time), and its share of a call says whether the saving
  matters.  Two statements timed in the same round ran under the same load,
  so ``compare`` also pairs them round by round: the median of the paired
  differences, and in how many rounds the second one was faster.  A real
  difference wins almost every round; no difference wins about half.

The chapters print these numbers and never hard-code them: the text says
what to look for, the machine says how much.
"""

from __future__ import annotations

import statistics
import timeit
from dataclasses import dataclass

__all__ = ["Timing", "Comparison", "measure", "compare"]


@dataclass
class Timing:
    """Seconds per call of one statement, one entry per batch."""

    statement: str
    per_call: list[float]

    @property
    def min(self) -> float:
        return min(self.per_call)

    @property
    def median(self) -> float:
        return statistics.median(self.per_call)


@dataclass
class Comparison:
    """``first`` against ``second``, round by round."""

    best_gap: float  # first.min - second.min: seconds per call ``second`` saves at best
    best_share: float  # best_gap as a fraction of ``second``'s best call
    median_gap: float  # median of the round-by-round differences (negative: ``second`` costs more)
    second_faster: int  # rounds in which ``second`` was faster
    rounds: int


def measure(statements, namespace: dict, number: int, rounds: int) -> dict[str, Timing]:
    """Time each statement ``rounds`` times, ``number`` calls per batch, in turn.

    Every statement runs once before timing starts (a warm-up), so that a
    first call's one-off costs are not counted.
    """
    statements = list(statements)
    timers = {s: timeit.Timer(s, globals=namespace) for s in statements}
    for timer in timers.values():
        timer.timeit(1)
    per_call = {s: [] for s in statements}
    for r in range(rounds):
        for s in statements if r % 2 == 0 else statements[::-1]:
            per_call[s].append(timers[s].timeit(number) / number)
    return {s: Timing(s, per_call[s]) for s in statements}


def compare(first: Timing, second: Timing) -> Comparison:
    """Pair the two timings batch by batch (they ran in the same rounds)."""
    if len(first.per_call) != len(second.per_call):
        raise ValueError("compare needs two timings from the same measure() call")
    gaps = [a - b for a, b in zip(first.per_call, second.per_call)]
    best_gap = first.min - second.min
    return Comparison(best_gap, best_gap / second.min, statistics.median(gaps),
                      sum(g > 0 for g in gaps), len(gaps))

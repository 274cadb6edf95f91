"""Benchmark: how much one student's load slows the others' grading (target: at most 20 %).

    python tests/bench/bench_attackers.py

Grades the class of ``tests/autograder/test_resource_attackers.py`` the way its
test does: four honest students alone (before and after), and the same four
next to a size bomb, a CPU burner, an output flood and a memfd memory hog,
each student's kernel in its own control group. Prints the seconds the honest
notebooks' cells took each way and their ratio against the target. Run it on
a machine with nothing else to do: another job's load counts as the
attackers'.
"""

import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "autograder")]
sys.path.append(os.path.join(HERE, "..", "support"))  # empty_gradebook

from test_resource_attackers import HONEST_STUDENTS, grade_classes, honest_seconds  # noqa: E402

TARGET = 1.2


def main():
    with tempfile.TemporaryDirectory(prefix="bench-attackers-") as scratch:
        roots = [os.path.join(scratch, name) for name in ("baseline", "attacked")]
        for root in roots:
            os.makedirs(root)
        classes = grade_classes(*roots, baselines=2)
        before, after = (honest_seconds(run) for run in classes["base_runs"])
        attacked = honest_seconds(classes["attack_run"])
    assert sorted(before) == sorted(after) == sorted(attacked) == HONEST_STUDENTS
    base = list(before.values()) + list(after.values())
    ratio = statistics.mean(attacked.values()) / statistics.mean(base)
    print("honest notebooks' cells, seconds each: alone %s; next to the attackers %s"
          % (sorted(round(s, 2) for s in base), sorted(round(s, 2) for s in attacked.values())))
    print("slow-down next to the attackers: x%.2f (target at most x%.2f): %s"
          % (ratio, TARGET, "met" if ratio <= TARGET else "NOT met"))


if __name__ == "__main__":
    main()

"""Wrong answers for the blind spots issue 21 names, merged into ``exercise_mutants.BANK``.

Each is the reference solution with one realistic mistake written in (``mutate`` refuses a
replacement that no longer matches the solution). ``blind_spot`` names the category;
``test_agreement`` checks that each fails, with its own tag, under 20 students' seeds.
"""

from exercise_mutants import Entry
from exercise_mutants_new import mutate

BLIND_SPOT_CATEGORIES = (
    "negative slice bounds", "empty slices", "size-1 dimensions in expand", "a list of Python floats",
    "device= arguments", "which error comes first", ".grad when counting saved bytes",
    "storages with equal bytes", "interleaved records", "an argument every test passed the same",
    "the version counter after a soft update", "buffer memory identity",
)


def wrong(name, assignment, about, cells, fails, blind_spot):
    return Entry(f"blind-{name}", assignment, "wrong", about, cells, fails, blind_spot)


BLIND_SPOT_ENTRIES = []

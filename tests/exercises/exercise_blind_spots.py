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


# ---- strides_and_views ----------------------------------------------------------------

SV, VIEWS = "strides_and_views", "sv-views-solution"
NORMALISED = "    start, stop, _ = slice(start, stop, step).indices(t.shape[dim])\n"

BLIND_SPOT_ENTRIES += [
    wrong("sv-slice-negative-bounds-as-zero", SV, "a negative start or stop counts from 0, like any number "
          "below 0 (it is clipped, not counted from the end)",
          mutate(SV, VIEWS, NORMALISED, "    n = t.shape[dim]\n"
                 "    start, stop = min(max(start, 0), n), min(max(stop, 0), n)\n"),
          {"sv-slice": f"{SV}/slice-negative-bounds"}, "negative slice bounds"),
    wrong("sv-slice-empty-is-negative", SV, "a slice keeps ceil((stop - start) / step) elements, even when start "
          "is past stop",
          mutate(SV, VIEWS, "size[dim] = len(range(start, stop, step))",
                 "size[dim] = (stop - start + step - 1) // step"),
          {"sv-slice": f"{SV}/slice-empty"}, "empty slices"),
    wrong("sv-expand-size-one-keeps-stride", SV, "only the new leading dimensions of expand get stride 0; a "
          "size-1 dimension that grows keeps its stride",
          mutate(SV, VIEWS, "size[i], stride[i] = n, s if n == old else 0",
                 "size[i], stride[i] = n, s if n == old or i >= new else 0"),
          {"sv-expand": f"{SV}/expand-size-one-stride"}, "size-1 dimensions in expand"),
    wrong("sv-expand-zeroes-size-one", SV, "every size-1 dimension of an expanded view has stride 0, grown or not",
          mutate(SV, VIEWS, "size[i], stride[i] = n, s if n == old else 0",
                 "size[i], stride[i] = n, s if n == old and old != 1 else 0"),
          {"sv-expand": f"{SV}/expand-zeroes-kept-dims"}, "size-1 dimensions in expand"),
]

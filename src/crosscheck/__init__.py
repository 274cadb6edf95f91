"""Run one program on real torch and on reftorch, and compare what is observable.

Used by the differential test suite and by the course's cross-check cells.
See :mod:`crosscheck.harness`.
"""

from crosscheck.harness import (  # noqa: F401
    Trace,
    assert_same,
    assert_same_as_gpu,
    diff_traces,
    import_reftorch,
    load_reftorch,
    load_torch,
    run,
    to_cpu_program,
)

"""Grading tools: see autograder/README.md.

``from autograder import self_check; self_check()`` (the last cell of every
exercise notebook) checks the saved notebook; ``python -m autograder`` is the
instructor's command line.
"""


def self_check(path=None):
    """Score the visible tests of the saved notebook (see ``autograder.learner.learner_check``)."""
    import os

    if os.environ.get("NBGRADER_EXECUTION"):
        print("self_check: skipped while the notebook is being graded")
        return None
    from .learner.self_check import self_check as run_self_check  # imported on use: keeps kernels light

    return run_self_check(path)


__all__ = ["self_check"]

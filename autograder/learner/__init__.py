"""The learner's self-check: ``python -m autograder check`` and ``self_check()``.
It never imports the instructor's term (autograder.term). See autograder/README.md.
"""

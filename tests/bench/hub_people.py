"""What the hub benches share: tests/hub's fixtures importable, and the people of a one-course hub.

Importing it puts tests/hub (hub_course, driver) and tests/support (course_copy) on ``sys.path``.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "hub"))
sys.path.insert(1, os.path.join(os.path.dirname(HERE), "support"))


def people(prefix):
    """``(instructor, student, grader)`` named ``<prefix>-...``, and the hub command's options that
    create them (Unix users the bench removes after)."""
    instructor, student, grader = f"{prefix}-instructor", f"{prefix}-student1", f"{prefix}-grader"
    return (instructor, student, grader), ["--instructor", instructor, "--students", student, "--grader", grader,
                                           "--groups", f"{prefix}-students", f"{prefix}-instructors"]

"""The empty folder a grading or self-check kernel starts in."""

import os
import tempfile


def empty_kernel_folder(assignment):
    """A new empty folder named after the assignment, where a grading (or self-check) kernel starts:
    the notebook and its hidden tests are not there, and its path says nothing of who runs it."""
    parent = tempfile.mkdtemp(prefix="autograder-kernel-")
    folder = os.path.join(parent, assignment or "notebook")
    os.mkdir(folder)
    return folder

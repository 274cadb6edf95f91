"""The submit step of a student's server on the hub: nbgrader's, after a check the student reads.

``CheckedSubmit`` is nbgrader's ``ExchangeSubmit`` (named in the students'
``nbgrader_config.py`` as ``c.ExchangeFactory.submit``, nbgrader's plugin
point).  Before anything is copied to the exchange it looks at the assignment
folder and refuses, with a message the assignment list shows the student:

* a file that is not a notebook (only notebooks are graded: move it out);
* a notebook over the collect limit (20 MiB as graded: outputs and embedded
  images do not count) or with more cells than it allows;
* a ``.ipynb`` that is not a notebook (not JSON, or no list of cells).

This runs in the student's own server, with the student's rights, so it is a
courtesy, not the guard: the instructor's ``collect --exchange`` applies the
same intake rules again (:mod:`autograder.hub.exchange`).

Once handed in, the submission's folder in the exchange is made the
student's alone (``0700``; nbgrader leaves it ``0777`` with ``0644`` files,
hidden only by its name): the course's collect reads it with the student's
own rights (:mod:`autograder.hub.as_student`).
"""

import json
import os

from nbgrader.exchange.default.submit import ExchangeSubmit

from ..pipeline.graded_size import graded_bytes, mib
from ..term.inbox import Limits

IGNORED = {".ipynb_checkpoints", "__pycache__", "feedback"}


def problems(folder, limits=None):
    """What stops ``folder`` (an assignment as the student has it) from being submitted."""
    limits = limits or Limits()
    found, notebooks = [], 0
    for here, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in IGNORED and not d.startswith(".")]
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = os.path.join(here, name)
            shown = os.path.relpath(path, folder)
            if os.path.islink(path) or not os.path.isfile(path):
                found.append("%s is not a regular file (a link or a special file)" % shown)
                continue
            if not name.endswith(".ipynb"):
                found.append("%s is not a notebook; only notebooks are graded: move it out of "
                             "the assignment folder" % shown)
                continue
            size = os.path.getsize(path)
            if size > limits.max_file_bytes:
                found.append("%s is too large to grade (%s; a notebook file may be at most %s)"
                             % (shown, mib(size), mib(limits.max_file_bytes)))
                continue
            try:
                with open(path, encoding="utf-8-sig") as f:
                    nb = json.load(f)
                cells = nb.get("cells") if isinstance(nb, dict) else None
                if not isinstance(cells, list):
                    raise ValueError("no list of cells")
            except (ValueError, UnicodeDecodeError, RecursionError) as error:
                found.append("%s is not a notebook (%s); open and save it in the lab, or fetch "
                             "the assignment again" % (shown, str(error)[:80]))
                continue
            if len(cells) > limits.max_cells:
                found.append("%s has %d cells; at most %d are graded"
                             % (shown, len(cells), limits.max_cells))
                continue
            graded = graded_bytes(nb) if size > limits.max_notebook_bytes else size
            if graded > limits.max_notebook_bytes:
                found.append("%s is too large to grade (%s without its outputs and embedded images; at "
                             "most %s)" % (shown, mib(graded), mib(limits.max_notebook_bytes)))
                continue
            notebooks += 1
    if not notebooks and not found:
        found.append("there is no notebook in the assignment folder")
    return found


class CheckedSubmit(ExchangeSubmit):
    """nbgrader's submit, refusing what the grader would refuse, with the reason."""

    def copy_files(self):
        found = problems(self.src_path)
        if found:
            self.fail("Not submitted: %s. Nothing was handed in; fix this and submit again."
                      % "; ".join(found))
        super().copy_files()
        # nbgrader leaves the submission readable by anyone who knows its folder's name
        # (files 0644 in a 0777 folder); the course's collect reads it as its student, so the
        # student's own rights are enough: nobody else reads or changes it.
        submitted = os.path.join(self.inbound_path, self.assignment_filename)
        for here, dirs, files in os.walk(submitted):
            for name in files:
                os.chmod(os.path.join(here, name), 0o600)
            for name in dirs:
                os.chmod(os.path.join(here, name), 0o700)
        os.chmod(submitted, 0o700)

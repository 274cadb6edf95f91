"""``generate``: make the student version of each assignment with nbgrader.

``nbgrader generate_assignment`` reads ``solutions/<a>/<a>.ipynb``, records
every test cell (hidden tests included) and its points in the gradebook,
and writes ``exercises/<a>/<a>.ipynb`` with the solutions replaced by
``raise NotImplementedError()``, the hidden tests removed, the outputs
cleared and the test cells locked.  The gradebook entries are what
autograde later restores tests from, so generate must run (on the
instructor's machine) before autograde.
"""

import os

from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory

from .course import check_assignment, db_url, source_assignments


def generate(config, assignments=None):
    """Generate ``assignments`` (default: all in solutions/); returns ``{a: success}``."""
    os.makedirs(os.path.dirname(db_url(config)[len("sqlite:///"):]), exist_ok=True)
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    results = {}
    for assignment in assignments or source_assignments(config):
        check_assignment(config, assignment)
        result = api.generate_assignment(assignment, force=True, create=True)
        results[assignment] = result["success"]
        print("%s: %s" % (assignment, "generated" if result["success"] else "FAILED"))
        if not result["success"]:
            print(result.get("log", "") + result.get("error", ""))
    return results

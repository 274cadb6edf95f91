"""nbgrader configuration for the course.

nbgrader reads this file only from the current directory, so run nbgrader
from autograder/ (or pass --NbGrader.config_file=autograder/nbgrader_config.py).
Paths are anchored at the repository root:

    solutions/<assignment>/            source notebooks with solutions and hidden tests
    exercises/<assignment>/            student versions (committed, generated)
    autograder/submitted/<student>/<assignment>/     collected submissions   (git-ignored)
    autograder/autograded/<student>/<assignment>/    graded copies           (git-ignored)
    autograder/feedback/<student>/<assignment>/      feedback HTML           (git-ignored)
    autograder/gradebook.db                          SQLite gradebook        (git-ignored)
"""

import os

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

c.CourseDirectory.course_id = "tensor-copies"
c.CourseDirectory.root = REPO
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
c.CourseDirectory.submitted_directory = os.path.join("autograder", "submitted")
c.CourseDirectory.autograded_directory = os.path.join("autograder", "autograded")
c.CourseDirectory.feedback_directory = os.path.join("autograder", "feedback")
c.CourseDirectory.db_url = "sqlite:///" + os.path.join(HERE, "gradebook.db")

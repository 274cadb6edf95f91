"""nbgrader's settings in a student's server on the course hub (on its JUPYTER_CONFIG_PATH).

The hub's spawner sets ``AUTOGRADER_HUB_EXCHANGE`` and ``AUTOGRADER_HUB_COURSE_ID``.
Submissions go through :class:`autograder.hub.submit.CheckedSubmit`, which refuses,
with a message shown in the assignment list, a folder holding anything but
notebooks, a notebook that is not one, or one over the collect limits.
"""

import os

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)

c.CourseDirectory.course_id = os.environ.get("AUTOGRADER_HUB_COURSE_ID", "tensor-copies")
c.Exchange.root = os.environ.get("AUTOGRADER_HUB_EXCHANGE", "/srv/nbgrader/exchange")
c.ExchangeFactory.submit = "autograder.hub.submit.CheckedSubmit"

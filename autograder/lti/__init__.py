"""A course taught from an LMS through LTI 1.3: its roster and its grade book.

An LMS (Canvas, Moodle, Blackboard, ...) that registers this course as an
LTI 1.3 tool offers two services besides the launch:

* **Names and Role Provisioning Services** (NRPS): the members of the course,
  with their roles. ``python -m autograder roster --lti`` imports its learners
  as the roster (:mod:`autograder.lti.sync`).
* **Assignment and Grade Services** (AGS): one line item per assignment in the
  LMS's grade book, and a score per learner. ``python -m autograder export
  --lti`` sends each graded submission's score there, with its submission time,
  and sends nothing twice.

The tool proves who it is with a key pair of its own (:mod:`autograder.lti.registration`);
the protocol's HTTP calls are in :mod:`autograder.lti.services`. Signing and
checking tokens is PyJWT's.
"""

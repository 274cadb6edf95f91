"""Several courses on one hub (``python -m autograder hub --courses FILE``), in nbgrader's own model.

nbgrader's documentation ("Using nbgrader with JupyterHub", several courses)
gives each course a grader account running that course's formgrader as a
hub service, a group ``formgrade-<course>`` whose members reach that service,
and a group ``nbgrader-<course>`` of its students; all courses share one
exchange, a folder per course.  Here those groups are Unix groups as well as
the hub's, and the operating system keeps the courses apart:

* ``<exchange>/<course>/`` belongs to root and the group ``nbgrader-<course>``
  (the course's students), mode ``0750``: nobody else lists its releases,
  fetches them, hands in or finds a feedback page there (nbgrader's own
  ``outbound/``, ``inbound/`` and ``feedback/`` are inside, as nbgrader makes
  them);
* each course has its own root (its ``solutions/``) and state folder
  (gradebook, submissions, feedback), both given to ``grader-<course>``,
  mode ``0700``;
* ``formgrader-<course>`` runs as ``grader-<course>`` on that root, and only
  the group ``formgrade-<course>`` (the course's instructors) has the role
  that reaches it (``access:services!service=formgrader-<course>``).

The file is JSON::

    {"courses": [
      {"id": "copies-a", "root": "/srv/courses/copies-a",
       "instructors": ["a-prof"], "students": ["a-stud1", "a-stud2"]},
      {"id": "copies-b", "root": "/srv/courses/copies-b",
       "instructors": ["b-prof"], "students": ["b-stud1"]}]}

``root`` (relative: to the file's folder) is a course folder like this
repository; ``grader`` names the grader account (default ``grader-<id>``).
"""

import dataclasses
import json
import os
import re

from ..course import CourseError, course_config, state_dir
from . import users

ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,21}$")   # fits Unix group names: formgrade-<id> <= 32
NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


@dataclasses.dataclass
class Course:
    id: str
    root: str
    instructors: list
    students: list
    grader: str

    @property
    def students_group(self):
        return "nbgrader-" + self.id

    @property
    def instructors_group(self):
        return "formgrade-" + self.id

    @property
    def service(self):
        return "formgrader-" + self.id

    @property
    def state(self):
        return os.path.join(self.root, "autograder", "state")

    def people(self):
        return users.People(instructors=list(self.instructors), students=list(self.students),
                            grader=self.grader, students_group=self.students_group,
                            instructors_group=self.instructors_group)

    def config(self):
        """nbgrader's configuration of this course: its root, its state folder, its id."""
        return course_config(self.root, self.state, **{"CourseDirectory.course_id": self.id})


def read_courses(path):
    """The courses of the JSON file ``path`` (see the module's docstring), checked."""
    try:
        with open(path, encoding="utf-8") as f:
            given = json.load(f)
    except (OSError, ValueError) as error:
        raise CourseError("--courses %s: %s" % (path, error)) from None
    entries = given.get("courses") if isinstance(given, dict) else None
    if not isinstance(entries, list) or not entries:
        raise CourseError('--courses %s: expected {"courses": [{"id": ..., "root": ..., '
                          '"instructors": [...], "students": [...]}, ...]}' % path)
    courses, roots = [], set()
    for number, entry in enumerate(entries, 1):
        where = "--courses %s, course %d" % (path, number)
        if not isinstance(entry, dict):
            raise CourseError("%s: not an object" % where)
        course_id = entry.get("id")
        if not isinstance(course_id, str) or not ID.match(course_id):
            raise CourseError("%s: id %r: use 1 to 22 of a-z, 0-9 and -, starting with a letter or digit"
                              % (where, course_id))
        if any(c.id == course_id for c in courses):
            raise CourseError("%s: the id %s is used twice" % (where, course_id))
        root = entry.get("root")
        if not isinstance(root, str):
            raise CourseError("%s (%s): no root (the course's folder)" % (where, course_id))
        root = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(path)), root))
        if not os.path.isdir(os.path.join(root, "solutions")):
            raise CourseError("%s (%s): %s has no solutions/ folder" % (where, course_id, root))
        if root in roots:
            raise CourseError("%s (%s): the root %s is another course's too; each course needs its "
                              "own (its gradebook and solutions belong to its grader)" % (where, course_id, root))
        roots.add(root)
        names = {}
        for role in ("instructors", "students"):
            names[role] = entry.get(role, [])
            if not isinstance(names[role], list) or not all(isinstance(n, str) and NAME.match(n)
                                                            for n in names[role]):
                raise CourseError("%s (%s): %s must be a list of Unix user names" % (where, course_id, role))
        if set(names["instructors"]) & set(names["students"]):
            raise CourseError("%s (%s): %s both instructor and student" % (
                where, course_id, ", ".join(sorted(set(names["instructors"]) & set(names["students"])))))
        grader = entry.get("grader", "grader-" + course_id)
        if not isinstance(grader, str) or not NAME.match(grader):
            raise CourseError("%s (%s): grader %r is no Unix user name" % (where, course_id, grader))
        courses.append(Course(course_id, root, names["instructors"], names["students"], grader))
    graders = [c.grader for c in courses]
    if len(set(graders)) != len(graders):
        raise CourseError("--courses %s: each course needs a grader account of its own" % path)
    people = {n for c in courses for n in c.instructors + c.students}
    if people & set(graders):
        raise CourseError("--courses %s: a grader account is not a person: %s"
                          % (path, ", ".join(sorted(people & set(graders)))))
    return courses


def everyone(courses):
    """Each person once, in the file's order."""
    return list(dict.fromkeys(n for c in courses for n in c.instructors + c.students))


def role_of(courses, name):
    """"instructor" if ``name`` teaches any course, else "student"."""
    return "instructor" if any(name in c.instructors for c in courses) else "student"


def gate_exchange(course, exchange):
    """``<exchange>/<course>/``: root's, the group ``nbgrader-<course>``'s, ``0750`` (made if missing;
    put right if not so).  nbgrader's release (as root) then makes ``outbound/``, ``inbound/``
    and ``feedback/`` inside as it always does."""
    import grp

    folder = os.path.join(exchange, course.id)
    os.makedirs(folder, exist_ok=True)
    if os.path.islink(folder):
        raise CourseError("%s is a symbolic link; remove it" % folder)
    os.chown(folder, 0, grp.getgrnam(course.students_group).gr_gid)
    os.chmod(folder, 0o750)
    return folder


def settings_of(course):
    """What ``jupyterhub_config.py`` needs of one course (its ``formgrader_port`` is added by the caller)."""
    return dict(id=course.id, root=course.root, state=state_dir(course.config()), grader=course.grader,
                grader_home=users.home(course.grader) if users.exists(course.grader) else "/",
                students_group=course.students_group, instructors_group=course.instructors_group,
                service=course.service)

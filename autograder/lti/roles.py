"""What an LMS's LTI 1.3 roles make a person in this course: a learner, an instructor, or neither.

LTI names roles by URI (``http://purl.imsglobal.org/vocab/lis/v2/membership#Learner``);
older platforms send the bare name (``Learner``). Teaching roles (instructor,
teaching assistant, content developer) win over a learner role held alongside.
"""

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
TEACHING = ("#Instructor", "#ContentDeveloper", "/Instructor#TeachingAssistant")
LEARNING = ("#Learner",)


def _holds(roles, endings):
    names = [r for r in roles if isinstance(r, str)] if isinstance(roles, list) else []
    return any(r.startswith(MEMBERSHIP) and r.endswith(endings) or r in {e.rsplit("#", 1)[-1] for e in endings}
               for r in names)


def is_instructor(roles):
    return _holds(roles, TEACHING)


def is_learner(roles):
    return _holds(roles, LEARNING) and not is_instructor(roles)

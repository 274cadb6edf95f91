"""An LTI 1.3 launch, in the hub's terms: the LMS's roles become the course's groups.

``jupyterhub-ltiauthenticator`` checks the launch (the platform's signed
``id_token``) and names the person by a claim of it (the course uses the
custom parameter ``username``, set to the institution's id, as the roster
does: autograder/lti/sync.py). :func:`post_auth_hook` then reads the token's
roles: an instructor, teaching assistant or content developer joins the
instructors' group (formgrader), a learner the students' group, and anyone
else is refused. JupyterHub applies the groups itself
(``Authenticator.manage_groups``).
"""

from ..lti.roles import is_instructor, is_learner

ROLES_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/roles"


def groups_hook(students_group, instructors_group):
    """A ``post_auth_hook`` that puts each launch's person into the course's groups by role."""
    def post_auth_hook(authenticator, handler, authentication):
        roles = (authentication.get("auth_state") or {}).get(ROLES_CLAIM)
        if is_instructor(roles):
            authentication["groups"] = [instructors_group]
        elif is_learner(roles):
            authentication["groups"] = [students_group]
        else:
            authenticator.log.warning("LTI launch of %s refused: no learner or teaching role",
                                      authentication.get("name"))
            return None
        return authentication
    return post_auth_hook

"""People arrive from the LMS: an LTI 1.3 launch into a real JupyterHub, their roles become its groups.

The LMS is the tests' own platform (tests/autograder/lti_platform.py) on
loopback; the hub is this course's configuration (autograder/hub/) with
``"authenticator": "lti13"``, so ``jupyterhub-ltiauthenticator`` checks each
launch. A browser's part is played by an HTTP session: the LMS's launch link
(the hub's OIDC login initiation), the hub's redirect to the platform's
``/authorize``, and the form the platform answers with, posted to the hub's
callback. The hub's own database then says who is in which group.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import urllib.parse

import pytest
import requests

from hub_course import Class, kill_processes_of, needs_proxy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "autograder"))

from lti_platform import INSTRUCTOR, LEARNER, Platform  # noqa: E402

TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
MENTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"
# Unix accounts for the people the LMS names (LocalProcessSpawner needs them), their own groups
PEOPLE = ["--instructor", "aturing", "--students", "alovelace", "bliskov", "habelson",
          "--grader", "lti-grader", "--groups", "lti-students", "lti-instructors"]


def member(user_id, given, family, roles, sourced):
    return {"user_id": user_id, "given_name": given, "family_name": family, "name": given + " " + family,
            "email": given.lower() + "@example.org", "roles": roles, "lis_person_sourcedid": sourced}


MEMBERS = [member("u-turing", "Alan", "Turing", [INSTRUCTOR], "aturing"),
           member("u-ada", "Ada", "Lovelace", [LEARNER], "alovelace"),
           member("u-barbara", "Barbara", "Liskov", [LEARNER], "bliskov"),
           member("u-hal", "Hal", "Abelson", [TA, LEARNER], "habelson"),
           member("u-parent", "Pat", "Parent", [MENTOR], "pparent")]


@pytest.fixture(scope="module")
def lti_hub(needs_sandbox):
    """``python -m autograder hub --lti`` on a fresh copy of the course, the LMS a platform of our own."""
    needs_proxy()
    course = Class.on_a_fresh_copy("lti-hub-")
    base = course.base
    hub = [sys.executable, "-m", "autograder", "hub", "--dir", os.path.join(base, "hub")] + PEOPLE
    with Platform(MEMBERS) as lms:
        settings = os.path.join(base, "lti13.json")
        with open(settings, "w") as f:
            json.dump(lms.authenticator_settings(), f)
        try:
            course.start(" ".join("'%s'" % part for part in hub + ["--lti", settings]) + "\n")
            yield lms, course.url, os.path.join(base, "hub", "hub")
        finally:
            course.stop()
            kill_processes_of(["aturing", "alovelace", "bliskov", "habelson", "lti-grader"])
            subprocess.run(hub + ["--remove-users"], cwd=course.root, env=course.env, capture_output=True)
            shutil.rmtree(base, ignore_errors=True)


def launch(lms, hub, user_id):
    """One person's launch from the LMS, as their browser makes it; the HTTP session afterwards."""
    browser = requests.Session()
    start = lms.login_initiation(hub + "/hub/lti13/oauth_login", user_id, hub + "/hub/home")
    to_platform = browser.get(start, allow_redirects=False, timeout=30)
    assert to_platform.status_code == 302, to_platform.text[:500]
    location = to_platform.headers["Location"]
    assert location.startswith(lms.url + "/authorize?")
    form = browser.get(location, timeout=30)
    fields = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    token = form.text.split('name="id_token" value="', 1)[1].split('"', 1)[0]
    back = browser.post(fields["redirect_uri"], data={"id_token": token, "state": fields["state"]},
                        allow_redirects=False, timeout=30)
    return browser, back


def groups_in_hub(hub_dir):
    with sqlite3.connect(os.path.join(hub_dir, "jupyterhub.sqlite")) as db:
        rows = db.execute("SELECT users.name, groups.name FROM users JOIN user_group_map ON "
                          "users.id = user_group_map.user_id JOIN groups ON groups.id = "
                          "user_group_map.group_id").fetchall()
    found = {}
    for user, group in rows:
        found.setdefault(user, set()).add(group)
    return found


def test_an_instructor_and_two_students_launch_from_the_lms_into_their_groups(lti_hub):
    lms, hub, hub_dir = lti_hub
    for user_id in ("u-turing", "u-ada", "u-barbara", "u-hal"):
        browser, back = launch(lms, hub, user_id)
        assert back.status_code == 302, back.text[:500]
        home = browser.get(hub + "/hub/home", timeout=30)
        assert home.status_code == 200 and "/hub/login" not in home.url
    assert groups_in_hub(hub_dir) == {"aturing": {"lti-instructors"}, "alovelace": {"lti-students"},
                                       "bliskov": {"lti-students"}, "habelson": {"lti-instructors"}}


def test_a_launch_without_a_course_role_is_refused(lti_hub):
    lms, hub, hub_dir = lti_hub
    browser, back = launch(lms, hub, "u-parent")
    assert back.status_code == 403
    assert "pparent" not in groups_in_hub(hub_dir)


def test_a_forged_id_token_is_refused(lti_hub):
    lms, hub, hub_dir = lti_hub
    browser = requests.Session()
    start = lms.login_initiation(hub + "/hub/lti13/oauth_login", "u-ada", hub + "/hub/home")
    location = browser.get(start, allow_redirects=False, timeout=30).headers["Location"]
    fields = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa

    forged = jwt.encode({"sub": "u-ada", "iss": lms.url, "aud": lms.client_id},
                        rsa.generate_private_key(public_exponent=65537, key_size=2048),
                        algorithm="RS256", headers={"kid": "platform-key"})
    back = browser.post(fields["redirect_uri"], data={"id_token": forged, "state": fields["state"]},
                        allow_redirects=False, timeout=30)
    assert back.status_code in (400, 401)

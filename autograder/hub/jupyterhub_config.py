"""JupyterHub configuration for a class on this course (``jupyterhub -f autograder/hub/jupyterhub_config.py``).

Every site-specific value comes from one JSON file of settings, named by the
environment variable ``AUTOGRADER_HUB_SETTINGS`` (``python -m autograder hub``
writes it; :func:`autograder.hub.server.hub_settings` documents each key).  The parts:

* **JupyterHub 6** on ``ip:port``, its database and cookie secret in
  ``hub_dir`` (root only), so a restart keeps users, groups and tokens;
* **configurable-http-proxy** (npm), started by the hub, its API on loopback;
* **PAM**: people log in with their Unix password; only members of the
  students' and instructors' groups are allowed.  ``authenticator: "lti13"``
  switches to an LMS's LTI 1.3 launch through ``jupyterhub-ltiauthenticator``
  instead (``pip install jupyterhub-ltiauthenticator``; the keys named in the
  README; tests/hub/test_lti_launch.py);
* **LocalProcessSpawner**: each person's server runs under their own Unix
  user, in their ``0700`` home.  It starts with ``coursebook.workspace``
  bringing the chapters into ``~/course/`` (new chapters copied, unchanged ones
  updated, the learner's edited ones kept with the new version beside them),
  and sees the course's student configuration (``student_config/``): nbgrader's
  exchange and course id, the checked submit, and nbgrader's instructor
  interface switched off (formgrader, create-assignment, courses, validate);
* **formgrader** as a hub service run by the grader account on the course
  root, reachable only by the instructors' group (a role with
  ``access:services!service=formgrader``); an external service, which the
  ``hub`` command starts beside JupyterHub (:mod:`autograder.hub.services`).

With several courses (``courses`` in the settings, ``hub --courses FILE``;
:mod:`autograder.hub.courses`): nbgrader's own model, per course a service
``formgrader-<id>`` run by ``grader-<id>`` on that course's root, reached only
by the group ``formgrade-<id>``; the students' groups are ``nbgrader-<id>``.
"""

import grp
import json
import os

with open(os.environ["AUTOGRADER_HUB_SETTINGS"], encoding="utf-8") as _f:
    S = json.load(_f)

c = get_config()  # noqa: F821  (provided by traitlets when JupyterHub loads this file)

# The courses: the settings' list (several), or the one course the settings name
from autograder.hub.services import courses_of  # noqa: E402

COURSES = courses_of(S)

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(S["python"])
# The environment whose packages the servers use: its Jupyter config (nbgrader's extensions,
# enabled there) and data (the lab's extensions), named explicitly because the servers'
# Python may be a shared one (autograder.hub.server.shared_python) with another sys.prefix.
PREFIX = S["environment_prefix"]
CONFIG = os.path.join(PREFIX, "etc", "jupyter")
DATA = os.path.join(PREFIX, "share", "jupyter")

# -- the hub, its proxy and its database ----------------------------------------------------
c.JupyterHub.ip = S["ip"]
c.JupyterHub.port = S["port"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = S["hub_port"]
c.JupyterHub.db_url = "sqlite:///" + os.path.join(S["hub_dir"], "jupyterhub.sqlite")
c.JupyterHub.cookie_secret_file = os.path.join(S["hub_dir"], "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = os.path.join(S["hub_dir"], "jupyterhub.pid")
c.ConfigurableHTTPProxy.command = [S["proxy"]]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%d" % S["proxy_api_port"]
c.ConfigurableHTTPProxy.pid_file = os.path.join(S["hub_dir"], "proxy.pid")
c.JupyterHub.log_level = S.get("log_level", "INFO")
# On SIGTERM or Ctrl+C the hub stops formgrader, every person's server and its proxy (defaults,
# spelled out: the demo promises that nothing is left running).
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
# After login without a `next`, start the person's server and open it (not the hub's home page).
c.JupyterHub.default_url = "/hub/spawn"
if S.get("ssl_cert"):  # a real deployment: TLS on the public port (see the README)
    c.JupyterHub.ssl_cert = S["ssl_cert"]
    c.JupyterHub.ssl_key = S["ssl_key"]

# -- who may log in ------------------------------------------------------------------------
if S.get("authenticator", "pam") == "lti13":
    # An LMS's LTI 1.3 launch (Canvas, Moodle, ...); the issuer and URLs come from the LMS's
    # tool registration. Users are then named by the LMS, and still need Unix accounts of the
    # same names for LocalProcessSpawner (or another spawner: see the README).
    c.JupyterHub.authenticator_class = "ltiauthenticator.lti13.auth.LTI13Authenticator"
    c.LTI13Authenticator.issuer = S["lti13"]["issuer"]
    c.LTI13Authenticator.authorize_url = S["lti13"]["authorize_url"]
    c.LTI13Authenticator.jwks_endpoint = S["lti13"]["jwks_endpoint"]
    _ids = S["lti13"]["client_id"]  # one id, or a list (one per tool registration)
    c.LTI13Authenticator.client_id = set(_ids) if isinstance(_ids, list) else {_ids}
    # named by the institution's id, as `roster --lti` names them (autograder/lti/sync.py): the
    # tool's registration sets the custom parameter username=$Person.sourcedId
    c.LTI13Authenticator.username_key = S["lti13"].get("username_key", "custom_username")
    c.Authenticator.allow_all = True  # whoever the LMS launches with a course role (the hook below)
    # the LMS's roles decide the groups (instructors reach formgrader), at every launch
    from autograder.hub.lti_login import groups_hook
    c.Authenticator.manage_groups = True
    c.Authenticator.post_auth_hook = groups_hook(S["students_group"], S["instructors_group"])
else:
    c.JupyterHub.authenticator_class = "pam"
    c.PAMAuthenticator.allowed_groups = {g for course in COURSES
                                         for g in (course["students_group"], course["instructors_group"])}
    c.PAMAuthenticator.admin_groups = set()
    c.PAMAuthenticator.open_sessions = False


def _members(group):
    try:
        return sorted(grp.getgrnam(group).gr_mem)
    except KeyError:
        return []


# The hub's own groups mirror the Unix ones (read when the hub starts); after an LTI launch
# they are the LMS's roles instead (manage_groups above).
if S.get("authenticator", "pam") != "lti13":
    c.JupyterHub.load_groups = {group: {"users": _members(group)} for course in COURSES
                                for group in (course["instructors_group"], course["students_group"])}

# -- each person's server --------------------------------------------------------------------
c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
# The lab opens on the course's index (not the Launcher), with the course's lab settings: no
# news pop-up, no update check (binder/lab-settings/overrides.json, copied by `hub`).
c.Spawner.default_url = "/lab/tree/course/00_index.ipynb"
if S.get("lab_settings"):
    c.Spawner.args = ["--LabApp.app_settings_dir=" + S["lab_settings"]]
c.Spawner.notebook_dir = "~"
# A whole class logging in at once on a small machine waits for CPU: every server's start-up
# shares the cores (tests/bench/bench_hub_class.py; autograder/README.md, "How long it takes")
c.Spawner.start_timeout = 300
# Stopping a server (or formgrader): SIGINT, then SIGTERM after 5 s, SIGKILL after 3 more.
c.Spawner.interrupt_timeout = 5
c.Spawner.term_timeout = 3
c.Spawner.kill_timeout = 2
c.Spawner.http_timeout = 120
c.Spawner.environment = {
    "PATH": BIN + ":/usr/local/bin:/usr/bin:/bin",
    "JUPYTER_CONFIG_PATH": os.pathsep.join([os.path.join(HERE, "student_config"), CONFIG]),
    "JUPYTER_PATH": DATA,
    "AUTOGRADER_HUB_EXCHANGE": S["exchange"],
    "AUTOGRADER_HUB_COURSE_ID": S["course_id"],
}
# First the chapters into ~/course/ (coursebook.workspace, as `make lab` does for the
# learner's own copy), then the single-user server with the arguments the hub gives, its imports
# kept out of the garbage collector's walks (src/warmkernels/frozen_imports.py).
c.Spawner.cmd = ["/bin/sh", "-c",
                 '"%s" -m coursebook.workspace --repo "%s" --workspace "$HOME" --quiet; '
                 'exec "%s" -m warmkernels.frozen_imports --import=jupyterhub.singleuser jupyterhub.singleuser "$@"'
                 % (S["python"], S["chapters"], S["python"]),
                 "singleuser"]

# -- formgrader, for the instructors' group only (one per course), and the predictions service ---
# External services: the `hub` command starts them beside JupyterHub, as their accounts, with the
# environment JupyterHub would give them, and stops them (autograder/hub/services.py). JupyterHub
# knows each one's URL, its token and its OAuth client. JupyterHub waits up to `timeout` seconds
# for each to answer before it says it runs (30 s by default; a busy machine's formgrader needs more).
SERVICE_TIMEOUT = 120
c.JupyterHub.services = [dict(name=s["name"], url=s["url"], api_token=s["api_token"],
                              oauth_client_id="service-" + s["name"],
                              oauth_redirect_uri="/services/%s/oauth_callback" % s["name"],
                              timeout=SERVICE_TIMEOUT, **s["hub"])
                         for s in S["services"]]
# the tokens are the command's `secrets.token_hex(32)`: no extra hashing, as for JupyterHub's own
c.JupyterHub.trust_user_provided_tokens = True
c.JupyterHub.load_roles = []
for course in COURSES:
    c.JupyterHub.load_roles += [
        {"name": course["service"] + "-for-instructors",
         "description": "the instructors' group of %s reaches its formgrader service" % course["id"],
         "scopes": ["access:services!service=%s" % course["service"]],
         "groups": [course["instructors_group"]]},
        {"name": course["service"] + "-service",
         "description": "what the formgrader service may ask the hub: who is logged in",
         "scopes": ["read:users:name", "read:groups:name"],
         "services": [course["service"]]},
    ]

# -- what the class believes: learners' first answers to the predictions, if they agree ---------
# (autograder/hub/predictions_service.py keeps them in the course gradebook's database; the
# learner's predict widget sends them with the server's own token, coursebook/sharing.py)
if any(service["name"] == "predictions" for service in S["services"]):
    c.JupyterHub.load_roles.append(
        {"name": "predictions-for-the-class",
         "description": "learners and instructors send their first answers to the predictions service",
         "scopes": ["access:services!service=predictions"],
         "groups": [S["students_group"], S["instructors_group"]]})
    # the server's token (which its kernels see) may reach that service, and nothing more than before
    c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server",
                                     "access:services!service=predictions"]
    c.Spawner.environment.update({
        "COURSEBOOK_SHARE_URL": "http://%s:%d/services/predictions/" % (S["ip"], S["port"]),
        "COURSEBOOK_SHARE_DEFAULT": "on",
    })
    c.JupyterHub.template_vars = {"announcement_login": (
        "This course collects each learner's first answer to every \u201cPredict the output\u201d "
        "question, to show the class's misconceptions to its instructors. You can switch it off "
        "on the course's index page (the sharing switch), and see or delete what was sent.")}

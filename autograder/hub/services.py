"""The hub's services (formgrader, one per course; the predictions service), run by the ``hub`` command
beside JupyterHub as JupyterHub's *external* services.

JupyterHub starts a managed service only once it is up itself, and then looks for it after a
random pause that grows; started by the command at the same moment as JupyterHub, formgrader is
usually answering by the time JupyterHub looks (docs/decisions/0060).  Each runs as JupyterHub
would run it as a managed service: as the service's account (its uid, gid and groups), in the
service's folder, in a session of its own, with the environment JupyterHub gives a managed
service (:func:`environment`: its token, its OAuth client, the hub's API) and its log in the
hub's log.  The command stops them when it stops the hub, and starts one again that ends
while the hub runs, as JupyterHub does with a managed one.

:func:`describe` lists them for the settings (``services``), with a new API token each start;
``jupyterhub_config.py`` gives JupyterHub each one's URL, token and OAuth client.
"""

import http.client
import json
import os
import pwd
import secrets
import signal
import subprocess
import time

# formgrader's pages only (docs/decisions/0038, 0042): no language servers (jupyter-lsp's only work
# at start would be a search for them, with `npm prefix -g`), no lab or notebook of the grader
# account (a quarter of formgrader's start, node's `yarn config` included)
FORMGRADER_EXTENSIONS = ["jupyter_server_mathjax=True", "jupyter_lsp=False", "jupyterlab=False", "notebook=False",
                         "notebook_shim=False"]
# what LocalProcessSpawner passes on from JupyterHub's own environment (its `env_keep`)
ENV_KEEP = ("CONDA_DEFAULT_ENV", "CONDA_ROOT", "JUPYTERHUB_SINGLEUSER_APP", "LANG", "LC_ALL", "LD_LIBRARY_PATH",
            "PATH", "PYTHONPATH", "VIRTUAL_ENV")


def _course_environment(settings, course):
    return {
        "PATH": os.path.dirname(settings["python"]) + ":/usr/local/bin:/usr/bin:/bin",
        # autograder/nbgrader_config.py, as `lab`; nbgrader's extensions, enabled in the environment
        "JUPYTER_CONFIG_PATH": os.pathsep.join([os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                os.path.join(settings["environment_prefix"], "etc", "jupyter")]),
        "JUPYTER_PATH": os.path.join(settings["environment_prefix"], "share", "jupyter"),
        "AUTOGRADER_ROOT": course["root"],
        "AUTOGRADER_STATE": course["state"],
        "AUTOGRADER_COURSE_ID": course["id"],
        "AUTOGRADER_EXCHANGE": settings["exchange"],
        "HOME": course["grader_home"],
    }


def courses_of(settings):
    """The courses of the hub's settings: their ``courses`` list (several), or the one course they name."""
    return settings.get("courses") or [dict(
        id=settings["course_id"], root=settings["course_root"], state=settings["state"], grader=settings["grader"],
        grader_home=settings["grader_home"], students_group=settings["students_group"],
        instructors_group=settings["instructors_group"], service="formgrader",
        formgrader_port=settings["formgrader_port"])]


def describe(settings):
    """The services of the hub of ``settings``: per course its formgrader; with one course and a
    ``predictions_port``, the predictions service.  Each: name, url, api_token, user, cwd, command,
    environment and what JupyterHub shows of it (``hub``)."""
    courses, listed = courses_of(settings), []
    for course in courses:
        listed.append(dict(
            name=course["service"], url="http://127.0.0.1:%d" % course["formgrader_port"],
            api_token=secrets.token_hex(32), user=course["grader"], cwd=course["root"],
            command=[settings["python"], "-m", "autograder.hub.formgrader_service",
                     "--ServerApp.root_dir=" + course["root"],
                     "--ServerApp.default_url=/formgrader"]
            + ["--ServerApp.jpserver_extensions=" + e for e in FORMGRADER_EXTENSIONS],
            environment=_course_environment(settings, course), hub={"oauth_no_confirm": True, "display": True}))
    if settings.get("predictions_port") and len(courses) == 1:
        course = courses[0]
        listed.append(dict(
            name="predictions", url="http://127.0.0.1:%d" % settings["predictions_port"],
            api_token=secrets.token_hex(32), user=course["grader"], cwd=course["root"],
            command=[settings["python"], "-m", "autograder.hub.predictions_service"],
            environment=_course_environment(settings, course), hub={}))
    return listed


def prefix(service):
    return "/services/%s/" % service["name"]


def environment(service, settings):
    """The environment JupyterHub 6 gives a managed service (``Service.start``, ``Spawner.get_env``,
    ``LocalProcessSpawner.user_env``): what it keeps of its own, the service's token, OAuth client
    and URLs, the service's ``environment``, then the account's USER, HOME and SHELL."""
    env = {k: os.environ[k] for k in ENV_KEEP if k in os.environ}
    scopes = json.dumps(["access:services", "access:services!service=%s" % service["name"]])
    env.update({
        "JUPYTERHUB_API_TOKEN": service["api_token"],
        "JPY_API_TOKEN": service["api_token"],
        "JUPYTERHUB_CLIENT_ID": "service-" + service["name"],
        "JUPYTERHUB_COOKIE_HOST_PREFIX_ENABLED": "0",
        "JUPYTERHUB_HOST": "",
        "JUPYTERHUB_OAUTH_CALLBACK_URL": prefix(service) + "oauth_callback",
        "JUPYTERHUB_OAUTH_SCOPES": scopes,
        "JUPYTERHUB_OAUTH_ACCESS_SCOPES": scopes,
        "JUPYTERHUB_OAUTH_CLIENT_ALLOWED_SCOPES": "[]",
        "JUPYTERHUB_USER": service["user"],
        "JUPYTERHUB_SERVER_NAME": "",
        "JUPYTERHUB_API_URL": "http://127.0.0.1:%d/hub/api" % settings["hub_port"],
        "JUPYTERHUB_BASE_URL": "/",
        "JUPYTERHUB_SERVICE_PREFIX": prefix(service),
        "JUPYTERHUB_SERVICE_URL": service["url"],
        "JUPYTERHUB_PUBLIC_URL": "",
        "JUPYTERHUB_PUBLIC_HUB_URL": "",
        "JUPYTERHUB_SERVICE_NAME": service["name"],
    })
    env.update(service["environment"])
    account = pwd.getpwnam(service["user"])
    env.update(USER=service["user"], HOME=account.pw_dir, SHELL=account.pw_shell)
    return env


class Services:
    """The services of ``settings`` (its ``services``), started by :meth:`start`, their output appended
    to ``log``."""

    def __init__(self, settings, log):
        self.settings, self.log = settings, log
        self.processes = {}  # name -> Popen

    def start(self, service=None):
        """Start every service (or ``service``) as its account, in a session of its own."""
        for one in [service] if service else self.settings["services"]:
            account = pwd.getpwnam(one["user"])
            with open(self.log, "ab") as out:
                self.processes[one["name"]] = subprocess.Popen(
                    one["command"], cwd=one["cwd"], env=environment(one, self.settings),
                    user=account.pw_uid, group=account.pw_gid,
                    extra_groups=os.getgrouplist(one["user"], account.pw_gid),
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def pids(self):
        return {p.pid for p in self.processes.values()}

    def ended(self):
        """The first service that has ended, as ``(name, status)``, or None."""
        for name, process in self.processes.items():
            if process.poll() is not None:
                return name, process.returncode
        return None

    def start_ended(self):
        """Start again each service that ended while the hub runs (JupyterHub does so with a managed
        service); the hub's log says so."""
        for one in self.settings["services"]:
            status = self.processes[one["name"]].poll()
            if status is not None:
                with open(self.log, "a", encoding="utf-8") as out:
                    out.write("[autograder hub] service %s exited with status %s; starting it again\n"
                              % (one["name"], status))
                self.start(one)

    def answering(self):
        """Whether every service answers HTTP at its prefix (any status: JupyterHub's own test)."""
        for one in self.settings["services"]:
            host, port = one["url"].rsplit("/", 1)[-1].rsplit(":", 1)
            connection = http.client.HTTPConnection(host, int(port), timeout=2)
            try:
                connection.request("GET", prefix(one))
                connection.getresponse().read()
            except OSError:
                return False
            finally:
                connection.close()
        return True

    def interrupt(self):
        """SIGTERM to each service's session (a Jupyter server stops on it, as on Ctrl+C)."""
        for process in self.processes.values():
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except OSError:
                    pass

    def wait(self, timeout):
        """Wait for every service to end (after :meth:`interrupt`); SIGKILL to what still runs after
        ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        for process in self.processes.values():
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except OSError:
                    pass
                process.wait()

"""Setting up and starting the course's hub (``python -m autograder hub``).

:func:`prepare` makes a host ready for a class, as root:

* the people as Unix users (:mod:`autograder.hub.users`): instructors, students,
  the grader account;
* the course root's private parts given to the grader account, ``0700``:
  ``solutions/`` (solutions and hidden tests) and the course-state folder
  (gradebook, submissions, feedback); students never read the course root's
  copies of anything, they fetch from the exchange;
* the exchange (:func:`autograder.hub.exchange.ensure_exchange`);
* the chapters, a copy of ``course/`` that every student's server brings into
  the student's home (``coursebook.workspace``, nbgitpuller's rule: new
  chapters copied, untouched ones updated, edited ones kept with the new
  version beside them, so an update never conflicts);
* the hub's own folder (database, cookie secret, logs), root only.

:func:`start` writes the settings file that ``jupyterhub_config.py`` reads and
starts ``jupyterhub`` (which starts configurable-http-proxy); :func:`stop`
ends it by its pid.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request

from ..course import CourseError, path, state_dir
from . import users
from .exchange import ensure_exchange

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG_FILE = os.path.join(HERE, "jupyterhub_config.py")
REPO = os.path.dirname(os.path.dirname(HERE))
LOCAL_PROXY = os.path.join(REPO, ".hub", "node_modules", ".bin", "configurable-http-proxy")


def find_proxy():
    """configurable-http-proxy: on PATH (``npm install -g``) or in ``.hub/`` (``npm install --prefix .hub``)."""
    found = shutil.which("configurable-http-proxy") or (LOCAL_PROXY if os.path.exists(LOCAL_PROXY) else None)
    if found is None:
        raise CourseError("configurable-http-proxy is not installed: run "
                          "`npm install --prefix .hub configurable-http-proxy@5` in the repository "
                          "(or `npm install -g configurable-http-proxy`)")
    return found


SHARED_PYTHON = os.path.join(REPO, ".hub", "python")


def _everyone_runs(path):
    """Whether any user may run ``path``: every folder on its real path searchable by all."""
    real = os.path.realpath(path)
    if not os.stat(real).st_mode & 0o001:
        return False
    folder = os.path.dirname(real)
    while True:
        if not os.stat(folder).st_mode & 0o001:
            return False
        if folder == os.path.dirname(folder):
            return True
        folder = os.path.dirname(folder)


def shared_python():
    """A Python every user of the hub can run, with this environment's packages.

    Usually ``sys.executable``.  When it lies in a folder only root may enter
    (a pyenv build in ``/root``), a virtual environment of the system's own
    Python of the same version is made in ``.hub/python`` (git-ignored), whose
    one ``.pth`` file adds this environment's site-packages.
    """
    if _everyone_runs(sys.executable):
        return sys.executable
    version = "python%d.%d" % sys.version_info[:2]
    system = shutil.which(version, path="/usr/local/bin:/usr/bin:/bin")
    if system is None or not _everyone_runs(system):
        raise CourseError("%s is not runnable by other users and there is no system %s to share "
                          "this environment's packages through" % (sys.executable, version))
    python = os.path.join(SHARED_PYTHON, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([system, "-m", "venv", "--without-pip", SHARED_PYTHON], check=True)
    purelib = sysconfig.get_paths()["purelib"]
    site_packages = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(site_packages, "course_environment.pth"), "w") as f:
        f.write("import site; site.addsitedir(%r)\n" % purelib)
    return python


def free_port(start=20000, end=60000):
    """A free high loopback port, picked at run time (from a range, starting at a pid-dependent place)."""
    span = end - start
    first = start + (os.getpid() * 97) % span
    for offset in range(0, span, 7):
        port = start + (first - start + offset) % span
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise CourseError("no free loopback port")


def hub_settings(config, people, base, exchange, ports=None, authenticator="pam"):
    """The settings ``jupyterhub_config.py`` reads (written as JSON by :func:`start`).

    ip, port            where people connect (the proxy's public side)
    hub_port, proxy_api_port, formgrader_port, predictions_port   the hub's own, the proxy's API,
                        formgrader's, the predictions service's
    hub_dir             the hub's database, cookie secret, pid files and log (root only)
    python, proxy       the servers' Python (:func:`shared_python`) and configurable-http-proxy
    environment_prefix  the environment whose Jupyter config and data the servers use
    exchange, course_id nbgrader's exchange and the course's id in it
    chapters            the folder whose ``course/`` chapters every student gets
    course_root, state  the course and its state folder (formgrader's)
    grader, grader_home the account formgrader runs as
    students_group, instructors_group   who may log in; who reaches formgrader
    authenticator       "pam" (default) or "lti13" (then an "lti13" entry; see the README)
    """
    ports = dict(ports or {})
    for name in ("port", "hub_port", "proxy_api_port", "formgrader_port", "predictions_port"):
        ports.setdefault(name, free_port())
        while list(ports.values()).count(ports[name]) > 1:
            ports[name] = free_port(ports[name] + 1)
    return dict(ip="127.0.0.1", hub_dir=os.path.join(base, "hub"), python=shared_python(),
                environment_prefix=sys.prefix,
                proxy=find_proxy(), exchange=exchange, course_id=config.CourseDirectory.course_id,
                chapters=os.path.join(base, "chapters"), course_root=config.CourseDirectory.root,
                state=state_dir(config), grader=people.grader, grader_home=users.home(people.grader)
                if users.exists(people.grader) else "/", students_group=people.students_group,
                instructors_group=people.instructors_group, authenticator=authenticator, **ports)


def _give(folder, owner, mode=0o700):
    uid, gid = users.uid(owner), users.gid(owner)
    for here, dirs, files in os.walk(folder):
        for name in [here] + [os.path.join(here, n) for n in dirs + files]:
            os.lchown(name, uid, gid)
    os.chmod(folder, mode)


def hand_over(config, grader="grader"):
    """Give the state folder (back) to the grader account, so formgrader (which runs as it) can
    write the gradebook the root-run commands wrote; nothing happens without that account."""
    if os.geteuid() == 0 and users.exists(grader) and os.path.isdir(state_dir(config)):
        _give(state_dir(config), grader)


def prepare(config, people, base, exchange, passwords=None):
    """Users, folders and permissions for a class (see the module's docstring); returns passwords."""
    if os.geteuid() != 0:
        raise CourseError("setting up the hub needs root (it creates Unix users)")
    made = users.create(people, passwords)
    os.makedirs(base, exist_ok=True)
    os.chmod(base, 0o755)
    hub_dir = os.path.join(base, "hub")
    os.makedirs(hub_dir, exist_ok=True)
    os.chmod(hub_dir, 0o700)
    chapters = os.path.join(base, "chapters", "course")
    if os.path.isdir(chapters):
        shutil.rmtree(chapters)
    shutil.copytree(path(config, "course"), chapters,
                    ignore=shutil.ignore_patterns(".*", "__pycache__", "*.new.ipynb"))
    os.chmod(os.path.dirname(chapters), 0o755)
    state = state_dir(config)
    os.makedirs(state, exist_ok=True)
    _give(state, people.grader)
    _give(path(config, config.CourseDirectory.source_directory), people.grader)
    ensure_exchange(exchange)
    return made


def start(settings, log=None):
    """Start JupyterHub with ``settings``; returns the process once the hub answers."""
    os.makedirs(settings["hub_dir"], exist_ok=True)
    settings_file = os.path.join(settings["hub_dir"], "settings.json")
    with open(settings_file, "w", encoding="utf-8") as f:
        json.dump(settings, f, indent=1)
    env = dict(os.environ, AUTOGRADER_HUB_SETTINGS=settings_file,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    log = log or os.path.join(settings["hub_dir"], "jupyterhub.log")
    with open(log, "ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", CONFIG_FILE],
                                   cwd=settings["hub_dir"], env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    url = "http://%s:%d/hub/api/" % (settings["ip"], settings["port"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stop(process, hub_dir=settings["hub_dir"])  # its proxy may outlive it
            raise CourseError("jupyterhub exited with status %s; its log: %s" % (process.returncode, log))
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return process
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    stop(process, hub_dir=settings["hub_dir"])
    raise CourseError("jupyterhub did not answer at %s within 120 s; its log: %s" % (url, log))


def stop(process, timeout=30, hub_dir=None):
    """Stop the hub by its pid: SIGTERM (it stops the servers it started and its proxy), then SIGKILL."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    hub_dir = os.path.dirname(os.environ.get("AUTOGRADER_HUB_SETTINGS", "")) if hub_dir is None else hub_dir
    proxy_pid = os.path.join(hub_dir, "proxy.pid") if hub_dir else None
    if proxy_pid and os.path.exists(proxy_pid):  # a hub killed outright leaves its proxy running
        try:
            with open(proxy_pid) as f:
                os.kill(int(f.read().strip()), signal.SIGTERM)
        except (OSError, ValueError):
            pass


def login_url(settings, name):
    return "http://%s:%d/hub/login?next=%%2Fuser%%2F%s%%2Flab" % (settings["ip"], settings["port"], name)

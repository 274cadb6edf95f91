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
starts ``jupyterhub`` (which starts configurable-http-proxy) and, beside it, the
hub's services (:mod:`autograder.hub.services`: formgrader); :func:`stop` ends
them by their pids.
"""

import json
import os
import secrets
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
from . import services, users
from .exchange import ensure_exchange

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG_FILE = os.path.join(HERE, "jupyterhub_config.py")
REPO = os.path.dirname(os.path.dirname(HERE))
LOCAL_PROXY = os.path.join(REPO, ".hub", "node_modules", ".bin", "configurable-http-proxy")
# `make lab`'s settings; its overrides.json (no news pop-up, no update check) is the students' too
LAB_SETTINGS = os.path.join(REPO, "binder", "lab-settings")


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


PORT_NAMES = ("port", "hub_port", "proxy_api_port", "formgrader_port", "predictions_port")


def _below_ephemeral():
    """The ports from 10000 up to the first one the kernel hands out for outgoing connections
    (``ip_local_port_range``): one of them, once free, stays free until someone binds it."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    return range(10000, low) if low > 11000 else range(1024, 10000)


class Ports:
    """The hub's ports, each found by binding it on loopback, and held until the hub starts.

    Candidates are drawn at random (``secrets``, nothing of this process's id)
    below the range the kernel gives outgoing connections, and each is bound;
    one that is taken is skipped.  The sockets stay bound until :func:`start`
    closes them just before JupyterHub starts, so no two are the same and
    nothing else takes one meanwhile; and between that moment and JupyterHub's
    own bind, no outgoing connection is given one either (they come from the
    range above).  ``given`` ports (``--port``) are used as they are.
    """

    def __init__(self, given=None, names=PORT_NAMES, host="127.0.0.1"):
        self.numbers, self.held = {}, []
        given = {k: v for k, v in (given or {}).items() if v}
        self.given, self.names, self.host = given, names, host
        candidates = _below_ephemeral()
        try:
            for name in names:
                if name in given:
                    self.numbers[name] = given[name]
                    continue
                for _ in range(1000):
                    held = socket.socket()
                    try:
                        held.bind((host, candidates[secrets.randbelow(len(candidates))]))
                    except OSError:  # taken (by anyone, or by one of ours)
                        held.close()
                        continue
                    self.held.append(held)
                    self.numbers[name] = held.getsockname()[1]
                    break
                else:
                    raise CourseError("no free loopback port for the hub in %d..%d"
                                      % (candidates[0], candidates[-1]))
        except BaseException:
            self.release()
            raise

    def release(self):
        for held in self.held:
            held.close()
        self.held = []

    def again(self):
        """Other ports (the given ones kept), for a start that found one taken after all."""
        return Ports(self.given, self.names, self.host)


def free_ports(count, host="127.0.0.1"):
    """``count`` distinct free ports on ``host`` (see :class:`Ports`), released for the caller."""
    ports = Ports(names=range(count), host=host)
    ports.release()
    return list(ports.numbers.values())


def check_host():
    """What the hub needs before anything on the host changes: root, the proxy, a shared Python."""
    if os.geteuid() != 0:
        raise CourseError("setting up the hub needs root (it creates Unix users)")
    return find_proxy(), shared_python()


def hub_settings(config, people, base, exchange, ports=None, authenticator="pam", proxy=None, python=None):
    """The settings ``jupyterhub_config.py`` reads (written as JSON by :func:`start`).

    ip, port            where people connect (the proxy's public side)
    hub_port, proxy_api_port, formgrader_port, predictions_port   the hub's own, the proxy's API,
                        formgrader's, the predictions service's
    hub_dir             the hub's database, cookie secret, pid files, passwords and log (root only)
    python, proxy       the servers' Python (:func:`shared_python`) and configurable-http-proxy
    environment_prefix  the environment whose Jupyter config and data the servers use
    exchange, course_id nbgrader's exchange and the course's id in it
    chapters            the folder whose ``course/`` chapters every student gets
    lab_settings        the students' lab settings (no news, no update check)
    course_root, state  the course and its state folder (formgrader's)
    grader, grader_home the account formgrader runs as
    students_group, instructors_group   who may log in; who reaches formgrader
    authenticator       "pam" (default) or "lti13" (then an "lti13" entry; see the README)
    services            added by :func:`start`: the services the command runs beside the hub
                        (:func:`autograder.hub.services.describe`)

    ``ports``: a :class:`Ports` (its numbers), or a dict of the ports to use (the others found
    by binding).
    """
    if not isinstance(ports, Ports):
        ports = Ports(ports)
        ports.release()  # found for a caller that holds none: released at once
    numbers = ports.numbers
    return dict(ip="127.0.0.1", hub_dir=os.path.join(base, "hub"), python=python or shared_python(),
                environment_prefix=sys.prefix,
                proxy=proxy or find_proxy(), exchange=exchange, course_id=config.CourseDirectory.course_id,
                chapters=os.path.join(base, "chapters"), lab_settings=os.path.join(base, "lab-settings"),
                course_root=config.CourseDirectory.root,
                state=state_dir(config), grader=people.grader, grader_home=users.home(people.grader)
                if users.exists(people.grader) else "/", students_group=people.students_group,
                instructors_group=people.instructors_group, authenticator=authenticator, **numbers)


def courses_settings(config, courses, base, exchange, ports, proxy=None, python=None):
    """:func:`hub_settings` for several courses (:mod:`autograder.hub.courses`): no single course's
    keys, a ``courses`` list instead (each course's id, root, state, grader, groups, service and
    ``formgrader_port``, from ``ports``' ``formgrader_port:<id>``), and no predictions service.
    The students' servers get no course id: nbgrader lists the courses each may read."""
    from .courses import settings_of

    numbers = ports.numbers
    listed = [dict(settings_of(course), formgrader_port=numbers["formgrader_port:" + course.id])
              for course in courses]
    return dict(ip="127.0.0.1", hub_dir=os.path.join(base, "hub"), python=python or shared_python(),
                environment_prefix=sys.prefix, proxy=proxy or find_proxy(), exchange=exchange, course_id="",
                chapters=os.path.join(base, "chapters"), lab_settings=os.path.join(base, "lab-settings"),
                authenticator="pam", courses=listed,
                **{name: numbers[name] for name in ("port", "hub_port", "proxy_api_port")})


def take_ports(settings, numbers):
    """``settings`` moved to the ports ``numbers`` (of :class:`Ports`): the hub's own and, on a hub
    of several courses, each course's formgrader (``formgrader_port:<id>``)."""
    settings.update((name, port) for name, port in numbers.items() if ":" not in name)
    for course in settings.get("courses") or []:
        course["formgrader_port"] = numbers["formgrader_port:" + course["id"]]


def course_ports(courses):
    """The port names of a hub of ``courses``: the hub's own and one formgrader's per course."""
    return ("port", "hub_port", "proxy_api_port") + tuple("formgrader_port:" + c.id for c in courses)


def _give(folder, owner, mode=0o700):
    uid, gid = users.uid(owner), users.gid(owner)
    for here, dirs, files in os.walk(folder):
        for name in [here] + [os.path.join(here, n) for n in dirs + files]:
            os.lchown(name, uid, gid)
    os.chmod(folder, mode)


def hand_over(config, grader="grader"):
    """Give the state folder (back) to the grader account, so formgrader (which runs as it) can
    write the gradebook the root-run commands wrote; nothing happens without that account.

    The account is the state folder's owner once :func:`prepare` has given it one (a course's
    own ``grader-<id>`` on a hub of several courses), else ``grader``."""
    import pwd

    if os.geteuid() != 0 or not os.path.isdir(state_dir(config)):
        return
    owner = os.stat(state_dir(config)).st_uid
    if owner != 0:
        try:
            grader = pwd.getpwuid(owner).pw_name
        except KeyError:  # an account removed since
            pass
    if users.exists(grader):
        _give(state_dir(config), grader)


PASSWORDS_FILE = "passwords.json"


def passwords_file(base):
    """Where the demo's passwords are kept: in the hub's own folder (root only), mode ``0600``."""
    return os.path.join(base, "hub", PASSWORDS_FILE)


def stored_passwords(base):
    try:
        with open(passwords_file(base), encoding="utf-8") as f:
            return dict(json.load(f))
    except (OSError, ValueError):
        return {}


def _store_passwords(base, passwords):
    target = passwords_file(base)
    fd = os.open(target + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(passwords, f, indent=1, sort_keys=True)
    os.chmod(target + ".new", 0o600)
    os.replace(target + ".new", target)


def prepare(config, people, base, exchange, new_passwords=False):
    """Folders and permissions for a class, then its users (see the module's docstring).

    The users come last, once everything that can fail has been done: the
    hub's folder, the chapters, the lab's settings, the exchange.  Their
    passwords are written to :func:`passwords_file` before any account is
    made or changed, so a start that fails later still leaves every password
    readable there, and every start prints them again.  A person made by an
    earlier start keeps the stored password; an account this command never
    made keeps its own (``None``: not known here) unless ``new_passwords``.
    Returns ``{name: password or None}``.
    """
    _prepare_folders(config, base, exchange)
    os.makedirs(state_dir(config), exist_ok=True)
    passwords = _make_people(base, [people], new_passwords)
    _give(state_dir(config), people.grader)
    _give(path(config, config.CourseDirectory.source_directory), people.grader)
    return passwords


def prepare_courses(config, courses, base, exchange, new_passwords=False):
    """:func:`prepare` for several courses (:mod:`autograder.hub.courses`): the chapters of
    ``config``'s course, then per course its state folder, its people and groups, its root's
    ``solutions/`` and state given to its grader, and its gated folder in the exchange."""
    from .courses import gate_exchange

    _prepare_folders(config, base, exchange)
    for course in courses:
        os.makedirs(course.state, exist_ok=True)
    passwords = _make_people(base, [course.people() for course in courses], new_passwords)
    for course in courses:
        cfg = course.config()
        _give(state_dir(cfg), course.grader)
        _give(path(cfg, cfg.CourseDirectory.source_directory), course.grader)
        gate_exchange(course, exchange)
    return passwords


def _prepare_folders(config, base, exchange):
    """The hub's folder (root only), the chapters, the lab's settings, the exchange."""
    if os.geteuid() != 0:
        raise CourseError("setting up the hub needs root (it creates Unix users)")
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
    lab_settings = os.path.join(base, "lab-settings")
    os.makedirs(lab_settings, exist_ok=True)
    os.chmod(lab_settings, 0o755)
    shutil.copyfile(os.path.join(LAB_SETTINGS, "overrides.json"), os.path.join(lab_settings, "overrides.json"))
    ensure_exchange(exchange)


def _make_people(base, groups_of_people, new_passwords):
    """Passwords stored first, then the users and groups of each :class:`users.People`."""
    everyone = list(dict.fromkeys(n for people in groups_of_people for n in people.everyone()))
    passwords = {} if new_passwords else stored_passwords(base)
    for name in everyone:
        if name not in passwords and (new_passwords or not users.exists(name)):
            passwords[name] = secrets.token_urlsafe(12)
    _store_passwords(base, passwords)
    for people in groups_of_people:
        users.create(people, {name: passwords[name] for name in people.everyone() if name in passwords})
    return {name: passwords.get(name) for name in everyone}


PR_SET_CHILD_SUBREAPER = 36
STOP_TIMEOUT = 6         # seconds the hub gets to stop its services, servers and proxy
COMMAND_PID = "hub-command.pid"


def adopt_orphans():
    """Make this process the one that inherits whatever the hub leaves behind (Linux's child
    subreaper): a server, a kernel or a zygote orphaned by a crash is then still a
    descendant of this process, so :func:`stop` finds it."""
    from ..kernels.kernel_launch import prctl

    prctl(PR_SET_CHILD_SUBREAPER, 1)


def start(settings, log=None, ports=None):
    """Start JupyterHub with ``settings``, and its services beside it (:mod:`.services`); returns the
    hub's process and the :class:`~.services.Services` once the hub and every service answer.

    ``ports``: the :class:`Ports` holding the settings' ports, released just before the hub and the
    services bind them.  The hub runs in a session of its own with no terminal (stdin is
    ``/dev/null``): a server it starts never asks at a terminal whether to stop, it stops.
    """
    os.makedirs(settings["hub_dir"], exist_ok=True)
    log = log or os.path.join(settings["hub_dir"], "jupyterhub.log")
    adopt_orphans()
    for attempt in range(3):
        settings["services"] = services.describe(settings)
        running = services.Services(settings, log)
        process, said = None, 0
        try:
            process, said = _launch(settings, log, ports, running)
            _wait_answering(process, settings, log, said, running)
            return process, running
        except CourseError:
            stop(process, hub_dir=settings["hub_dir"], services=running)  # its proxy may outlive it
            if ports is None or attempt == 2 or not _port_taken(log, said):
                raise
            ports = ports.again()  # taken between our release and its bind: other ports, once more
            take_ports(settings, ports.numbers)
        except BaseException:  # Ctrl+C or SIGTERM came first
            stop(process, hub_dir=settings["hub_dir"], services=running)
            raise


def _launch(settings, log, ports, running):
    """The services (``running``) and JupyterHub started on ``settings`` (``ports`` released just
    before), the services first: formgrader takes longer to start.  Returns the hub's process and
    where its log stood before them."""
    settings_file = os.path.join(settings["hub_dir"], "settings.json")
    with open(settings_file, "w", encoding="utf-8") as f:
        json.dump(settings, f, indent=1)
    env = dict(os.environ, AUTOGRADER_HUB_SETTINGS=settings_file,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if ports is not None:
        ports.release()
    with open(log, "ab") as out:
        said = out.tell()
    running.start()
    with open(log, "ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "warmkernels.frozen_imports", "--import=jupyterhub.app",
                                    "jupyterhub", "-f", CONFIG_FILE],
                                   cwd=settings["hub_dir"], env=env, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    return process, said


def _port_taken(log, since):
    """Whether the log, from ``since`` on, says a port was in use (the hub's or its proxy's words)."""
    try:
        with open(log, "rb") as f:
            f.seek(since)
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return False
    return "EADDRINUSE" in text or "Address already in use" in text


RUNNING = b"JupyterHub is now running at "  # JupyterHub's log line once its proxy routes to it
CHECK_EVERY = 3.0  # seconds between asks through the proxy before that line (if the words change)


def _wait_answering(process, settings, log, since, running, timeout=120):
    """Return once the hub answers through its proxy and every service (``running``) answers;
    ``since``: where the hub's log stood at its start.

    Until JupyterHub has started its services and routed its proxy to itself,
    each request through the proxy is a 404 that the proxy has the hub render
    as an error page: asked every 0.3 s, the hub spent much of its start on
    them (docs/decisions/0038).  So the log is read every 0.1 s for
    JupyterHub's words that it runs (:data:`RUNNING`), and the proxy is asked
    then; before them, only every :data:`CHECK_EVERY` s, so a JupyterHub that
    words it differently is still found running.  JupyterHub says it runs once each
    service answered, or after it waited its ``timeout`` for one: so each is asked too.
    """
    url = "http://%s:%d/hub/api/" % (settings["ip"], settings["port"])
    deadline = time.monotonic() + timeout
    said_running, asked, tail, hub_answers = False, -CHECK_EVERY, b"", False
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CourseError("jupyterhub exited with status %s; its log: %s" % (process.returncode, log))
        ended = running.ended()
        if ended:
            raise CourseError("the hub's service %s exited with status %s; its log: %s" % (ended + (log,)))
        if hub_answers:
            if running.answering():
                return
        elif not said_running:
            try:
                with open(log, "rb") as f:
                    f.seek(since)
                    new = f.read()
            except OSError:
                new = b""
            since += len(new)
            said_running = RUNNING in tail + new
            tail = (tail + new)[-len(RUNNING):]
        if not hub_answers and (said_running or time.monotonic() - asked >= CHECK_EVERY):
            asked = time.monotonic()
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    hub_answers = answer.status == 200
            except (urllib.error.URLError, OSError):
                pass
            if hub_answers:
                continue
        time.sleep(0.1)
    raise CourseError("jupyterhub did not answer at %s within %d s; its log: %s" % (url, timeout, log))


def reap_orphans(hub, running):
    """Collect the exit status of the orphans this process adopted (:func:`adopt_orphans`) that have
    ended since, so none lingers as a zombie while the hub runs; ``hub`` (a Popen) and the services
    (``running``) are left to their own ``poll``.  Called every second while the hub runs: it reads
    this process's own children (:func:`_own_children`), not every process on the host."""
    for pid in _own_children() - {hub.pid} - running.pids():
        try:
            os.waitpid(pid, os.WNOHANG)  # collects it if it ended; one still running is left
        except ChildProcessError:
            pass


def _own_children():
    """The pids of this process's children, zombies included: Linux's ``/proc/self/task/<tid>/children``,
    a line per thread (psutil's ``children`` reads the ``stat`` of every process on the host:
    docs/decisions/0074)."""
    if not os.path.exists("/proc/self/task/%d/children" % os.getpid()):  # a kernel without it
        return {child.pid for child in _children(os.getpid())}
    pids = set()
    for tid in os.listdir("/proc/self/task"):
        try:
            with open("/proc/self/task/%s/children" % tid) as f:
                pids.update(int(pid) for pid in f.read().split())
        except OSError:  # a thread that ended meanwhile
            pass
    return pids


def _descendants(pid):
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _interrupt_servers(hub_pid, hub_dir):
    """SIGTERM to each server the hub started (the people's servers), all at once.

    The hub stops the servers one after the other; a
    Jupyter server takes a few seconds to shut its kernels down, so the
    servers are told together (each runs in a session of its own: its whole
    process group is told).  A Jupyter server stops on SIGTERM as it does on
    Ctrl+C, shutting its kernels down, but from a signal handler of its own,
    not from a ``KeyboardInterrupt`` that any ``except`` on the way may catch.
    The hub, which asks them to stop next, finds them stopping or gone.  The
    proxy is left to the hub.
    """
    import psutil

    proxy = None
    try:
        with open(os.path.join(hub_dir or "", "proxy.pid")) as f:
            proxy = int(f.read().strip())
    except (OSError, ValueError):
        pass
    for child in _children(hub_pid):
        if child.pid == proxy:
            continue
        try:
            if os.getpgid(child.pid) == child.pid:
                os.killpg(child.pid, signal.SIGTERM)
        except (OSError, psutil.Error):
            pass


def _children(pid):
    import psutil

    try:
        return psutil.Process(pid).children()
    except psutil.Error:
        return []


def stop(process, timeout=STOP_TIMEOUT, hub_dir=None, services=None):
    """Stop the hub and everything it started, and its ``services``; returns when none of it runs.

    SIGTERM: JupyterHub stops the people's servers (which shut their kernels
    down) and its proxy; the servers are told at the same moment
    (:func:`_interrupt_servers`), and so are the services (formgrader).  A hub
    still running after ``timeout`` seconds is killed, and so is a service.
    ``process`` is None when the hub did not start.  Then whatever of the hub's descendants
    still runs (a self-check zygote, a kernel, a server slow to stop, a
    proxy left by a hub killed outright) gets SIGTERM, and SIGKILL a second
    later.  So a stop takes ``timeout`` seconds and a little more at most.
    """
    import psutil

    left = _descendants(process.pid) if process is not None else []
    # and what a hub that ended by itself left to this process (adopt_orphans), with its descendants
    for adopted in _children(os.getpid()):
        if process is None or adopted.pid != process.pid:
            left += [adopted] + _descendants(adopted.pid)
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        _interrupt_servers(process.pid, hub_dir)
    if services is not None:
        services.interrupt()
    if process is not None:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if services is not None:
        services.wait(timeout)
    hub_dir = os.path.dirname(os.environ.get("AUTOGRADER_HUB_SETTINGS", "")) if hub_dir is None else hub_dir
    proxy_pid = os.path.join(hub_dir, "proxy.pid") if hub_dir else None
    if proxy_pid and os.path.exists(proxy_pid):  # a hub killed outright leaves its proxy running
        try:
            with open(proxy_pid) as f:
                proxy = psutil.Process(int(f.read().strip()))
            if "configurable-http-proxy" in " ".join(proxy.cmdline()):  # not a pid used again since
                left.append(proxy)
        except (OSError, ValueError, psutil.Error):
            pass
    for _ in range(3):  # what the ended processes started meanwhile, too
        left = [p for p in left if p.is_running()]
        if not left:
            break
        more = [c for p in left for c in _descendants(p.pid)]
        users.end(left, grace=1.0)
        left = more


def write_command_pid(hub_dir):
    """Note this process (the ``hub`` command) as the one running the hub in ``hub_dir``."""
    with open(os.path.join(hub_dir, COMMAND_PID), "w") as f:
        f.write("%d\n" % os.getpid())


def stop_running(hub_dir, timeout=STOP_TIMEOUT + 10):
    """Stop the ``hub`` command running the hub in ``hub_dir`` (it stops the hub and everything the
    hub started); True when one was running."""
    import psutil

    try:
        with open(os.path.join(hub_dir, COMMAND_PID)) as f:
            command = psutil.Process(int(f.read().strip()))
    except (OSError, ValueError, psutil.Error):
        return False
    if "autograder" not in " ".join(command.cmdline()):  # the pid now belongs to something else
        return False
    command.terminate()
    try:
        command.wait(timeout)
    except psutil.TimeoutExpired:
        users.end([command] + command.children(recursive=True))
    return True


def login_url(settings, name):
    """The URL that logs ``name`` in and opens their lab: the hub's spawn page starts the server
    (and waits for it) and then goes to the server's default URL, the course's index."""
    return "http://%s:%d/hub/login?next=%%2Fhub%%2Fspawn%%2F%s" % (settings["ip"], settings["port"], name)

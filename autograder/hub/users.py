"""The hub's people as real Unix users: created with ``useradd`` and ``chpasswd``, removed with ``userdel``.

The hub authenticates them through PAM (the host's own password database),
and ``LocalProcessSpawner`` starts each one's server under their own uid, so
the operating system keeps students apart: every home is ``0700``.

Groups (names in :class:`People`): the students' group, the instructors'
group (whose members reach the formgrader service) and the grader account,
which owns the course-state folder (gradebook, submissions, feedback) and
runs formgrader.  Only ``root`` runs these functions.
"""

import dataclasses
import grp
import os
import pwd
import secrets
import subprocess


@dataclasses.dataclass
class People:
    """Who is on the hub: names only; passwords are made by :func:`create`."""

    instructors: list
    students: list
    grader: str = "grader"
    students_group: str = "course-students"
    instructors_group: str = "course-instructors"

    def everyone(self):
        return list(self.instructors) + list(self.students)


def exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def _group(name):
    try:
        grp.getgrnam(name)
    except KeyError:
        subprocess.run(["groupadd", name], check=True)


def _user(name, groups=(), password=None):
    """Create ``name`` (or add it to ``groups``); set ``password`` if given. Returns whether it was new."""
    new = not exists(name)
    if new:
        command = ["useradd", "--create-home", "--shell", "/bin/bash", "--user-group"]
        if groups:
            command += ["--groups", ",".join(groups)]
        subprocess.run(command + [name], check=True, capture_output=True)
    elif any(name not in grp.getgrnam(group).gr_mem for group in groups):  # a restart finds them in it
        subprocess.run(["usermod", "--append", "--groups", ",".join(groups), name], check=True)
    os.chmod(pwd.getpwnam(name).pw_dir, 0o700)  # whatever HOME_MODE says: nobody else reads it
    if password is not None:
        subprocess.run(["chpasswd"], input="%s:%s\n" % (name, password), text=True, check=True)
    return new


def create(people, passwords=None):
    """Create the groups and users (idempotent); returns ``{user: password}`` for those who log in.

    ``passwords`` may give some; a new user without one gets a random one; a
    user who already exists keeps theirs (``None`` in the result), so setting
    up again, after a restart say, changes nobody's password.  The grader
    account gets no password (nobody logs in as it; the hub starts formgrader
    under it).
    """
    passwords = dict(passwords or {})
    _group(people.students_group)
    _group(people.instructors_group)
    _user(people.grader)
    made = {}
    for name in people.everyone():
        group = people.instructors_group if name in people.instructors else people.students_group
        if name not in passwords and not exists(name):
            passwords[name] = secrets.token_urlsafe(12)
        _user(name, [group], passwords.get(name))
        made[name] = passwords.get(name)
    return made


def remove(people):
    """End the users' processes, remove the users, their homes and the groups; returns what could
    not be removed."""
    left = []
    for name in people.everyone() + [people.grader]:
        if exists(name):
            end_processes_of(name)  # nothing keeps running under a uid that no longer has a name
            done = subprocess.run(["userdel", "--remove", "--force", name], capture_output=True, text=True)
            if done.returncode not in (0, 12):  # 12: the home could not be removed (already gone)
                left.append("%s: %s" % (name, done.stderr.strip()))
    for group in (people.students_group, people.instructors_group):
        try:
            grp.getgrnam(group)
        except KeyError:
            continue
        subprocess.run(["groupdel", group], capture_output=True)
    return left


def end(processes, grace=2.0):
    """SIGTERM, then after ``grace`` seconds SIGKILL, to each of ``processes`` (psutil's) still
    running (psutil compares start times: a pid used again by another process is left alone)."""
    import psutil

    alive = [p for p in processes if p.is_running()]
    for p in alive:
        try:
            p.terminate()
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(alive, timeout=grace)
    for p in alive:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=grace)


def end_processes_of(name, grace=2.0):
    """End every process running as ``name``: SIGTERM, then SIGKILL after ``grace`` seconds."""
    import psutil

    mine = []
    for process in psutil.process_iter(["uids"]):
        try:
            if process.info["uids"] and process.info["uids"].real == uid(name):
                mine.append(process)
        except psutil.Error:
            pass
    end(mine, grace)


def uid(name):
    return pwd.getpwnam(name).pw_uid


def gid(name):
    return pwd.getpwnam(name).pw_gid


def home(name):
    return pwd.getpwnam(name).pw_dir

"""Every sandboxed kernel is the same user inside, and a user of its own on the host.

``kernel_launch.identity_namespace`` makes the user namespace a kernel is
forked in.  Two of them, for two host uids, are joined here by real forked
processes that drop to ``KERNEL_UID`` as a kernel does: inside, both see the
same uid, gid, groups and maps; on the host, the files each one makes belong
to its own uid, so students stay apart from each other.
"""

import json
import os

from autograder.kernels.grading_kernels import UID_BASE
from autograder.kernels.kernel_launch import KERNEL_UID, identity_namespace, join_user_namespace


def _as_a_kernel(outer_uid, folder):
    """Fork a process in the namespace of ``outer_uid`` that becomes ``KERNEL_UID`` and records
    what it sees in ``folder/seen.json``; return the host's owner of that file and the record."""
    users = identity_namespace(outer_uid)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            join_user_namespace(users)
            os.chown(folder, KERNEL_UID, KERNEL_UID)
            here = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)  # its parents are root's, 0700
            os.setgroups([])
            os.setresgid(KERNEL_UID, KERNEL_UID, KERNEL_UID)
            os.setresuid(KERNEL_UID, KERNEL_UID, KERNEL_UID)
            with open("/proc/self/status") as f:
                capabilities = [line.split()[1] for line in f if line.startswith("CapEff")]
            seen = {"uid": os.getresuid(), "gid": os.getresgid(), "groups": os.getgroups(),
                    "uid_map": open("/proc/self/uid_map").read().split(),
                    "gid_map": open("/proc/self/gid_map").read().split(),
                    "capabilities": capabilities}
            with open(os.open("seen.json", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=here), "w") as f:
                json.dump(seen, f)
            code = 0
        finally:
            os._exit(code)
    else:
        os.close(users)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the process could not become the kernel's user"
    path = os.path.join(folder, "seen.json")
    with open(path) as f:
        return os.stat(path).st_uid, json.load(f)


def test_two_kernels_see_the_same_user_inside_and_are_different_users_on_the_host(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    owner_1, seen_1 = _as_a_kernel(UID_BASE + 7, str(first))
    owner_2, seen_2 = _as_a_kernel(UID_BASE + 8, str(second))
    assert seen_1 == seen_2, "what a kernel sees of its identity tells one kernel from another"
    assert seen_1["uid"] == [KERNEL_UID] * 3 and seen_1["gid"] == [KERNEL_UID] * 3 and seen_1["groups"] == []
    assert seen_1["uid_map"] == ["0", "0", "1", str(KERNEL_UID), str(KERNEL_UID), "1"], (
        "the kernel reads its host uid in /proc/self/uid_map")
    assert seen_1["capabilities"] == ["0000000000000000"], "the kernel kept capabilities in its namespace"
    assert (owner_1, owner_2) == (UID_BASE + 7, UID_BASE + 8), (
        "on the host, kernels must stay users of their own (students apart from each other)")

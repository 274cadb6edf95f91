"""Witnesses without a kernel, forked for each bank entry from one process per assignment (``graded_in_process``).

Run as ``python witness_forks.py STUBS`` (STUBS: the assignment's reftorch copy,
``autograder.witness.stubs``, or "" for reftorch as installed). It loads the witness as a
grading kernel does (``autograder.witness.setup.install``), then reads lines from stdin, each
the path of a judge's control socket: for each it forks a witness for one entry, as the grader
forks a kernel from its zygote, and reads on. The witness connects to the control socket, reads
the learner's cells (a JSON list of sources, one line) and runs them in one namespace as
IPython would (its input transformer, the cell's lines kept for tracebacks), an error ending
only its cell, says ``ready``; then each line it reads is the path of a judge's socket:
it serves it (``autograder.witness.serve.serve``, the grading kernel's own code) and says
``served``, until the judge closes the control socket. What the learner's code prints on stdout
goes nowhere; stderr goes where the judge's side sends it.
"""

import json
import linecache
import os
import signal
import socket
import sys
import traceback


def run_cell(source, index, namespace, transform):
    """A cell as IPython runs it: transformed (leading blank lines dropped), its lines kept for
    tracebacks, so the learner's line a message quotes is the one a kernel quotes."""
    code = transform(source)
    filename = f"<witness-cell-{index}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    exec(compile(code, filename, "exec"), namespace)


def witness(control_path, serve, transform):
    """One entry's witness (in the forked child)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as control:
        control.connect(control_path)
        lines = control.makefile("r")
        namespace = {"__name__": "__main__"}
        for index, source in enumerate(json.loads(lines.readline())):
            try:
                run_cell(source, index, namespace, transform)
            except BaseException:  # noqa: BLE001 - a learner's cell that fails, as in a kernel
                traceback.print_exc()
        control.sendall(b"ready\n")
        for line in lines:
            try:
                serve(line.strip(), namespace)
            except (OSError, EOFError):   # the judge asked nothing and closed its socket
                pass
            control.sendall(b"served\n")


def main(stubs):
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    sys.path.remove(os.path.dirname(os.path.abspath(__file__)))   # only what a witness kernel sees
    from autograder.witness import setup
    setup.install(stubs or None)
    from autograder.witness.serve import serve
    from IPython.core.inputtransformer2 import TransformerManager
    transform = TransformerManager().transform_cell

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)   # the witnesses end on their own; nobody waits
    for line in sys.stdin:
        if os.fork() == 0:
            code = 0
            try:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                sys.stdin.close()
                witness(line.strip(), serve, transform)
            except BaseException:  # noqa: BLE001 - said on stderr; the judge sees the line close
                traceback.print_exc()
                code = 1
            finally:
                sys.stderr.flush()
                os._exit(code)


if __name__ == "__main__":
    main(sys.argv[1])

"""torch's answers: computed on real torch where it runs, read back from a recording where it cannot.

A browser tab (the JupyterLite site, ``make lite``) runs Python in Pyodide,
where torch does not exist.  So when that site is built, on a machine with
real torch, every program the course compares with torch runs there once
(``lite.record``), and what torch did is saved next to this module as
``torch_answers.pickle``: each program's :class:`~crosscheck.harness.Trace`,
keyed by the program's text, and each build-it case's expected answer, keyed
by the piece and the case.  In the browser the same calls read them back.

Nothing is made up: a program that was not recorded (the learner changed a
key cell) gets :class:`NotRecorded`, a message saying torch is not here, never
a guess.  Where torch can be imported it is always used, and a recording is
never read.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from crosscheck.harness import Trace, run

__all__ = ["ANSWERS", "NotRecorded", "torch_here", "torch_run", "torch_answer", "recorded_torch_version",
           "program_key"]

ANSWERS = Path(__file__).with_name("torch_answers.pickle")

_loaded: dict | None = None


class NotRecorded(LookupError):
    """torch cannot run here, and its answer for this program was not recorded when the site was built."""


def torch_here():
    """The real torch module, or None where it cannot be imported (in the browser)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def program_key(program: str) -> str:
    """The recording's key of a program: its text, without trailing spaces and blank end lines."""
    text = "\n".join(line.rstrip() for line in program.strip("\n").splitlines())
    return hashlib.sha256(text.encode()).hexdigest()


def _answers() -> dict:
    global _loaded
    if _loaded is None:
        try:
            _loaded = pickle.loads(ANSWERS.read_bytes())
        except OSError:
            _loaded = {"torch": None, "traces": {}, "answers": {}}
    return _loaded


def recorded_torch_version() -> str | None:
    """The version of the torch that made the recording, None when there is none."""
    return _answers()["torch"]


def torch_run(program: str) -> Trace:
    """``run(program, torch)``: on real torch if it is here, else torch's trace recorded at build time."""
    torch = torch_here()
    if torch is not None:
        return run(program, torch)
    try:
        return _answers()["traces"][program_key(program)]
    except KeyError:
        raise NotRecorded(
            "torch cannot run in the browser, and its answer for this program was not recorded when "
            "the site was built (a changed key cell is a new program): run the chapter in JupyterLab "
            "(make lab) or on Binder to compare it with torch") from None


def torch_answer(key: tuple, compute):
    """``compute()`` on real torch if it is here, else the value it gave when the site was built."""
    if torch_here() is not None:
        return compute()
    try:
        return _answers()["answers"][key]
    except KeyError:
        raise NotRecorded(f"torch cannot run in the browser, and its answer for {key!r} was not recorded") from None

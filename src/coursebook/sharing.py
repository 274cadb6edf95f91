"""Sharing your first answer to each prediction with your class's instructor, if you agree.

On a course hub that collects them, the hub tells your server where its
``predictions`` service is (``$COURSEBOOK_SHARE_URL``) and whether the course
shares by default (``$COURSEBOOK_SHARE_DEFAULT=on``; its login page says so).
Then your *first* answer to each "Predict the output" question (right or
wrong), and the misconceptions that print exactly that answer, go to that
service under your own hub token, once. Nothing else is sent, and nothing at
all anywhere else (your own machine, Binder, the book, the browser edition):
the switch only matters on such a hub.

:func:`switch` is the visible switch, with buttons to see what the service
keeps of yours and to delete it. Your choice, the questions you have
answered, and what was sent are kept in a small JSON file
(``$COURSEBOOK_SHARING``, else ``~/.config/tensor-copies/sharing.json``).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

from coursebook.language import _

__all__ = ["available", "consent", "set_consent", "share_first_answer", "sent", "kept_by_service",
           "delete_shared", "switch"]

SHARE_URL = "COURSEBOOK_SHARE_URL"
SHARE_DEFAULT = "COURSEBOOK_SHARE_DEFAULT"
STATE_FILE = "COURSEBOOK_SHARING"
TIMEOUT = 5  # seconds: once a service has answered, a slow one never holds up a prediction for long
# Seconds for a service that has not answered this process yet: the course hub's service reads the
# course at its first request (autograder/hub/predictions_service.py), longer than TIMEOUT on a busy
# hub, and an answer given up on there would be lost (a first answer is sent once).
FIRST_TIMEOUT = 60
_answered = set()  # the URLs of the services that have answered this process


def _path() -> Path:
    if os.environ.get(STATE_FILE):
        return Path(os.environ[STATE_FILE])
    return Path.home() / ".config" / "tensor-copies" / "sharing.json"


def _load() -> dict:
    try:
        data = json.loads(_path().read_text())
    except (OSError, ValueError):
        data = {}
    data = data if isinstance(data, dict) else {}
    data.setdefault("consent", None)
    data.setdefault("answered", [])
    data.setdefault("sent", {})
    return data


def _save(data: dict) -> None:
    path = _path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        temporary.replace(path)
    except OSError:
        pass  # a read-only home: the switch falls back to the course's default next time


def available() -> bool:
    """Is there a class service to share with (a course hub that collects predictions)?"""
    return bool(os.environ.get(SHARE_URL) and os.environ.get("JUPYTERHUB_API_TOKEN"))


def consent() -> bool:
    """Your choice; until you make one, the course's default (off except on a hub that says on)."""
    chosen = _load()["consent"]
    if isinstance(chosen, bool):
        return chosen
    return os.environ.get(SHARE_DEFAULT, "off") == "on"


def set_consent(on: bool) -> None:
    data = _load()
    data["consent"] = bool(on)
    _save(data)


def _request(method: str, body: dict | None = None):
    url = os.environ[SHARE_URL].rstrip("/") + "/answers"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": "token " + os.environ["JUPYTERHUB_API_TOKEN"], "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT if url in _answered else FIRST_TIMEOUT) as answer:
        reply = json.loads(answer.read() or b"{}")
    _answered.add(url)
    return reply


def share_first_answer(question, diagnosis) -> bool:
    """Send this answer if it is your first to ``question``, you agreed, and a class service exists.

    ``diagnosis`` is :class:`coursebook.predict.diagnose.Diagnosis`. Returns whether it was sent.
    """
    if not available():
        return False  # no class service here: nothing to share, nothing to remember
    data = _load()
    if question.id in data["answered"]:
        return False
    data["answered"].append(question.id)
    record = {"question": question.id, "chapter": question.chapter, "correct": bool(diagnosis.right),
              "misconceptions": [m.name for m in diagnosis.models], "answer": diagnosis.answer[:4000]}
    shared = False
    if consent():
        try:
            _request("POST", record)
            data["sent"][question.id] = record
            shared = True
        except (urllib.error.URLError, OSError, ValueError):
            pass  # not reached: this answer stays on your machine
    _save(data)
    return shared


def sent() -> list[dict]:
    """What this machine sent, oldest first."""
    return list(_load()["sent"].values())


def kept_by_service() -> list[dict]:
    """What the class service keeps of yours (asked of it, under your own token)."""
    return _request("GET")["answers"] if available() else []


def delete_shared() -> int:
    """Delete what the class service keeps of yours; returns how many records it deleted."""
    deleted = _request("DELETE")["deleted"] if available() else 0
    data = _load()
    data["sent"] = {}
    _save(data)
    return deleted


def switch():
    """The visible switch: share or not, see what was kept, delete it."""
    import ipywidgets as widgets

    box = widgets.Checkbox(value=consent(), indent=False,
                           description=_("Share my first answer to each prediction with my instructor"),
                           layout=widgets.Layout(width="auto"))
    show = widgets.Button(description=_("What was shared"))
    delete = widgets.Button(description=_("Delete what was shared"))
    out = widgets.Output()
    box.observe(lambda change: set_consent(change["new"]), names="value")

    def on_show(button):
        out.clear_output()
        with out:
            records = kept_by_service()
            if not records:
                print(_("Nothing of yours is kept."))
            for record in records:
                verdict = _("right") if record["correct"] else _("wrong")
                print(record["question"], verdict, "; ".join(record["misconceptions"]))

    def on_delete(button):
        out.clear_output()
        with out:
            print(_("Deleted {n} record(s).").format(n=delete_shared()))

    show.on_click(on_show)
    delete.on_click(on_delete)
    box.add_class("coursebook-sharing")
    return widgets.VBox([box, widgets.HBox([show, delete]), out])

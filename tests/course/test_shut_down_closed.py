"""One click frees the kernels of closed notebooks: coursebook.kernels.shut_down_closed().

In a real learner's lab (the server `make lab` starts, REST API only), three
notebooks have kernels: one whose tab is open (a websocket is connected to its
kernel), one closed (no connection), and the one asking. Only the closed one
is shut down; outside a lab nothing happens.
"""

import asyncio
import json
import shutil
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
from tornado.websocket import websocket_connect

from coursebook.kernels import shut_down_closed


def _api(base, token, path, method="GET", body=None):
    request = urllib.request.Request(f"{base}/api/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read()
    return json.loads(text) if text else None


def test_only_the_kernels_of_closed_notebooks_are_shut_down(start_learners_lab, tmp_path):
    root = tmp_path / "course"
    root.mkdir()
    names = ["02_open.ipynb", "03_closed.ipynb", "00_index.ipynb"]
    for name in names:
        nbformat.write(nbformat.v4.new_notebook(), str(root / name))
    scratch = Path(tempfile.mkdtemp(prefix="lab-"))  # short: the kernels' unix sockets go there
    try:
        _run(start_learners_lab, root, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run(start_learners_lab, root, scratch):
    names = ["02_open.ipynb", "03_closed.ipynb", "00_index.ipynb"]
    with start_learners_lab(root, scratch) as (base, token):
        sessions = {name: _api(base, token, "sessions", "POST",
                               {"path": name, "name": name, "type": "notebook", "kernel": {"name": "python3"}})
                    for name in names}
        kernel = {name: s["kernel"]["id"] for name, s in sessions.items()}

        async def with_the_open_tab():
            url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel['02_open.ipynb']}/channels?token={token}"
            tab = await websocket_connect(url)
            try:
                for _ in range(100):  # the server counts the connection once the kernel is ready
                    counted = [s for s in _api(base, token, "sessions") if s["path"] == "02_open.ipynb"]
                    if counted[0]["kernel"]["connections"] > 0:
                        break
                    await asyncio.sleep(0.2)
                return await asyncio.to_thread(shut_down_closed, {"url": base, "token": token},
                                               kernel["00_index.ipynb"])
            finally:
                tab.close()

        closed = asyncio.run(with_the_open_tab())
        assert closed == ["03_closed.ipynb"]
        time.sleep(0.5)
        left = {s["path"] for s in _api(base, token, "sessions")}
        assert left == {"02_open.ipynb", "00_index.ipynb"}
        running = {k["id"] for k in _api(base, token, "kernels")}
        assert kernel["03_closed.ipynb"] not in running and kernel["02_open.ipynb"] in running


def test_outside_a_lab_nothing_is_shut_down(capsys):
    assert shut_down_closed() == []
    assert "Not in a running lab" in capsys.readouterr().out

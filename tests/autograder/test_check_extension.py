"""The self-check in the learner's Jupyter server: the grader's verdict, as data, in a new sandboxed
kernel every time.

A real learner's lab (``coursebook.lab.lab_command``, with the self-check handler that
``binder/lab-settings/`` enables), real HTTP, real kernels. Each check through the server
must give exactly what ``learner_check.check`` gives run on its own with a fresh kernel,
whatever was checked before it (a kernel is never reused); ``self_check()`` in a kernel of
that server asks that server, whose zygote then runs below it and stops with it; the score
reaches the progress file as numbers. Without a server (here, pytest's own process) the
check runs in a process of its own and gives the same verdict.
"""

import asyncio
import json
import os
import pathlib
import shutil
import tempfile
import time
import urllib.error
import urllib.request
import uuid

import psutil
import pytest
from jupyter_server.serverapp import list_running_servers
from tornado.websocket import websocket_connect

from autograder.learner.learner_check import check
from autograder.learner.self_check import HANDLER, check_saved, self_check
from coursebook.lab import WARM_SELF_CHECK
from synthetic_course import student_notebook, write_submission

WRONG = {"make_copy": "def make_copy(t):\n    return t"}


def _post(base, token, path, body):
    request = urllib.request.Request(f"{base}/{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", "token " + token)
    with urllib.request.urlopen(request, timeout=600) as answer:
        return json.loads(answer.read())


def _verdict(result):
    if isinstance(result, dict):
        return [(t["grade_id"], t["points"], t["max_points"], t["message"]) for t in result["tests"]], \
            result["problems"]
    return [(t.grade_id, t.points, t.max_points, t.message) for t in result.tests], result.problems


def _run_in_kernel(base, token, kernel, code, timeout=600):
    """Execute ``code`` in the server's kernel over its websocket, as JupyterLab does; what it printed."""
    async def run():
        channel = await websocket_connect(f"{base.replace('http', 'ws', 1)}/api/kernels/{kernel}/channels"
                                          f"?token={token}")
        msg_id = uuid.uuid4().hex
        channel.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "test", "session": msg_id,
                       "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                        "allow_stdin": False}}))
        printed = []
        while True:
            message = json.loads(await asyncio.wait_for(channel.read_message(), timeout))
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if message["msg_type"] == "stream":
                printed.append(message["content"]["text"])
            elif message["msg_type"] == "error":
                printed.append("\n".join(message["content"]["traceback"]))
            elif message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                channel.close()
                return "".join(printed)
    return asyncio.run(run())


@pytest.fixture(scope="module")
def lab(start_learners_lab, tmp_path_factory):
    """The learner's lab on a scratch folder, and its pid; it warms the self-check up as it starts,
    as ``make lab`` does (while the first test checks in this process, for comparison)."""
    scratch = tmp_path_factory.mktemp("self-check-lab")
    (scratch / "root").mkdir()
    with start_learners_lab(scratch / "root", scratch, WARM_SELF_CHECK) as (base, token):
        server = next(info for info in list_running_servers(str(scratch / "runtime")) if info["token"] == token)
        yield {"base": base, "token": token, "pid": server["pid"], "root": scratch / "root"}


def _zygotes_below(pid):
    return [p for p in psutil.Process(pid).children(recursive=True)
            if "autograder.kernels.kernel_zygote" in " ".join(p.cmdline())]


def test_each_check_equals_a_fresh_kernels_whatever_ran_before(fixture_course, lab):
    solved = write_submission(str(lab["root"] / "solved"), student_notebook(fixture_course, "fixture", solved="all"),
                              "fixture.ipynb")
    wrong = write_submission(str(lab["root"] / "wrong"), student_notebook(fixture_course, "fixture", replace=WRONG),
                             "fixture.ipynb")
    cold = {path: _verdict(check(path)) for path in (solved, wrong)}
    assert cold[solved] != cold[wrong]
    seconds = []
    for path in (solved, wrong, solved, os.path.relpath(wrong, lab["root"])):  # absolute, or the server's own
        start = time.perf_counter()
        answer = _post(lab["base"], lab["token"], HANDLER, {"path": path, "root": None})
        seconds.append(time.perf_counter() - start)
        assert _verdict(answer) == cold[os.path.join(lab["root"], path)]
        assert answer["language"] == "en"
    zygotes = _zygotes_below(lab["pid"])
    assert zygotes, "the checks did not run on the server's warm zygote"
    assert _post(lab["base"], lab["token"], HANDLER + "/warm-up", {}) == {"zygote": zygotes[0].pid}
    print("self-check by the server: " + ", ".join(f"{s:.2f} s" for s in seconds))


def test_the_handler_answers_only_with_the_servers_token(lab):
    for token in ("", "not-" + lab["token"]):
        with pytest.raises(urllib.error.HTTPError) as refused:
            _post(lab["base"], token, HANDLER, {"path": "anything.ipynb"})
        assert refused.value.code == 403
    with pytest.raises(urllib.error.HTTPError) as bad:
        _post(lab["base"], lab["token"], HANDLER, {"notebook": "anything.ipynb"})
    assert bad.value.code == 400


def test_without_a_server_the_check_runs_in_a_process_of_its_own(fixture_course, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("JPY_PARENT_PID", raising=False)
    progress = tmp_path / "progress.json"
    monkeypatch.setenv("COURSEBOOK_PROGRESS", str(progress))
    path = write_submission(str(tmp_path / "ex"), student_notebook(fixture_course, "fixture", replace=WRONG),
                            "fixture.ipynb")
    assert _verdict(check_saved(path)) == _verdict(check(path))
    self_check(path)
    assert "Score: 2/5" in capsys.readouterr().out
    recorded = json.loads(progress.read_text())["exercises"]["fixture"]
    assert (recorded["score"], recorded["max_score"]) == (2, 5)


@pytest.fixture
def short_tmp():
    """A scratch folder with a short path: the lab's kernels put their sockets in it (107 bytes at most)."""
    folder = tempfile.mkdtemp(prefix="sc-")
    yield pathlib.Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


def test_self_check_in_a_kernel_asks_its_own_server_and_nothing_outlives_it(start_learners_lab, fixture_course,
                                                                          short_tmp):
    """A fresh lab: only its handler can have started the zygote found below it after the kernel's
    ``self_check()``; once the lab stops, nothing it started runs."""
    tmp_path = short_tmp
    progress = tmp_path / "progress.json"
    path = write_submission(str(tmp_path / "root" / "ex"), student_notebook(fixture_course, "fixture", replace=WRONG),
                            "fixture.ipynb")
    with start_learners_lab(tmp_path / "root", tmp_path, environ={"COURSEBOOK_PROGRESS": str(progress)}) \
            as (base, token):
        pid = next(i for i in list_running_servers(str(tmp_path / "runtime")) if i["token"] == token)["pid"]
        assert not _zygotes_below(pid)
        kernel = _post(base, token, "api/kernels", {"name": "python3", "path": "ex"})["id"]
        printed = _run_in_kernel(base, token, kernel, "from autograder.learner.self_check import own_server, self_check\n"
                                                      "print('server', own_server()['pid'])\n"
                                                      f"self_check({path!r})")
        assert f"server {pid}\n" in printed, printed
        assert "Score: 2/5" in printed, printed
        assert _zygotes_below(pid), "the kernel's check did not run in its server"
        below = psutil.Process(pid).children(recursive=True)
    recorded = json.loads(progress.read_text())["exercises"]["fixture"]
    assert (recorded["score"], recorded["max_score"]) == (2, 5)
    deadline = time.monotonic() + 30
    while [p for p in below if p.is_running() and p.status() != psutil.STATUS_ZOMBIE] and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [(p.pid, p.cmdline()) for p in below if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert left == [], left

"""A learner's first answer reaches a class service that is slow to give its first answer.

The course hub's predictions service reads the course at its first request
(autograder/hub/predictions_service.py); on a busy hub that takes longer than
``coursebook.sharing.TIMEOUT``. The service here is a real HTTP server on loopback that
holds its first answer that long, then keeps the record, as that service does; the
learner's side is ``coursebook.sharing`` itself, with a real question.
"""

import http.server
import json
import threading
import time

import pytest

from coursebook import sharing
from coursebook.predict.diagnose import Diagnosis
from coursebook.predict.questions import questions


class SlowToStart(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        record = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if not self.server.kept:
            time.sleep(sharing.TIMEOUT + 2)  # reading the course, as at the service's first request
        self.server.kept.append(record)
        body = json.dumps({"kept": True}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def slow_service(tmp_path, monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowToStart)
    server.kept = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv(sharing.SHARE_URL, "http://127.0.0.1:%d/services/predictions/" % server.server_port)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "a-learners-token")
    monkeypatch.setenv(sharing.SHARE_DEFAULT, "on")
    monkeypatch.setenv(sharing.STATE_FILE, str(tmp_path / "sharing.json"))
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_the_first_answer_waits_for_a_service_slow_to_give_its_first_answer(slow_service):
    first, second = questions()[:2]
    for q in (first, second):
        assert sharing.share_first_answer(q, Diagnosis(q, "an answer", False, "torch's printout")), q.id
    assert [r["question"] for r in slow_service.kept] == [first.id, second.id]
    assert sorted(r["question"] for r in sharing.sent()) == sorted([first.id, second.id])

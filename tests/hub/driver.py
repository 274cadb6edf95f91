"""A person at the hub, driven through HTTP as their browser would: log in, start the server, use it.

``Person(hub_url, name, password)``: :meth:`login` posts the hub's login form
(PAM checks the Unix password), then asks the hub for an API token of the
person's own (``POST /hub/api/users/<name>/tokens``, with the session's xsrf
token), which every later call carries.  The nbgrader calls are the ones the
lab's assignment list makes (``/user/<name>/assignments/...``). :meth:`run_in_notebook`
opens a notebook as the lab does (a session, whose kernel runs in the notebook's folder) and
runs code in its kernel over the kernel's websocket.
"""

import json
import time
import uuid

import requests
import websocket


class HubError(AssertionError):
    pass


class Person:
    def __init__(self, hub, name, password):
        self.hub, self.name, self.password = hub.rstrip("/"), name, password
        self.session = requests.Session()
        self.token = None

    # -- the hub -------------------------------------------------------------------------
    def login(self):
        self.session.get(self.hub + "/hub/login", timeout=30)
        xsrf = self.session.cookies.get("_xsrf", path="/hub/") or self.session.cookies.get("_xsrf")
        answer = self.session.post(self.hub + "/hub/login?next=", allow_redirects=False, timeout=60,
                                   data={"username": self.name, "password": self.password, "_xsrf": xsrf})
        if answer.status_code != 302:
            raise HubError("%s could not log in: HTTP %d" % (self.name, answer.status_code))
        xsrf = self.session.cookies.get("_xsrf", path="/hub/") or xsrf
        made = self.session.post(self.hub + "/hub/api/users/%s/tokens" % self.name, timeout=30,
                                 headers={"X-XSRFToken": xsrf}, json={"note": "term", "expires_in": 3600})
        if made.status_code != 201:
            raise HubError("%s got no token: HTTP %d %s" % (self.name, made.status_code, made.text[:300]))
        self.token = made.json()["token"]
        return self

    def api(self, method, path, **kwargs):
        headers = dict(kwargs.pop("headers", {}), Authorization="token " + self.token)
        return self.session.request(method, self.hub + path, headers=headers, timeout=kwargs.pop("timeout", 120),
                                    **kwargs)

    def start_server(self):
        answer = self.api("POST", "/hub/api/users/%s/server" % self.name)
        if answer.status_code not in (201, 202, 400):  # 400: already running
            raise HubError("%s's server did not start: HTTP %d %s" % (self.name, answer.status_code, answer.text))
        return self

    def wait_ready(self, timeout=180):
        """Return once the person's server is ready: the hub's stream of its start's progress
        (``/hub/api/users/<name>/server/progress``, server-sent events) ends with a ready event."""
        deadline = time.monotonic() + timeout
        answer = self.api("GET", "/hub/api/users/%s/server/progress" % self.name, stream=True, timeout=60)
        if answer.status_code != 200:
            raise HubError("%s's server is not starting: HTTP %d %s" % (self.name, answer.status_code, answer.text))
        with answer:
            for line in answer.iter_lines(decode_unicode=True):
                if line.startswith("data:"):
                    event = json.loads(line[len("data:"):])
                    if event.get("ready"):
                        return self
                    if event.get("failed"):
                        raise HubError("%s's server did not start: %s" % (self.name, event.get("message")))
                if time.monotonic() > deadline:
                    break
        raise HubError("%s's server was not ready in %d s" % (self.name, timeout))

    # -- the person's own server ---------------------------------------------------------------
    def server(self, method, path, **kwargs):
        return self.api(method, "/user/%s%s" % (self.name, path), **kwargs)

    def assignments(self, course):
        answer = self.server("GET", "/assignments", params={"course_id": course})
        answer.raise_for_status()
        return answer.json()

    def action(self, action, course, assignment):
        """``fetch``, ``submit`` or ``fetch_feedback``, as the assignment list's buttons do."""
        answer = self.server("POST", "/assignments/" + action,
                             data={"course_id": course, "assignment_id": assignment})
        answer.raise_for_status()
        return answer.json()

    def read(self, path):
        answer = self.server("GET", "/api/contents/" + path, params={"content": "1"})
        answer.raise_for_status()
        return answer.json()

    def write_notebook(self, path, nb):
        answer = self.server("PUT", "/api/contents/" + path,
                             data=json.dumps({"type": "notebook", "format": "json", "content": nb}))
        answer.raise_for_status()

    def write_file(self, path, text):
        answer = self.server("PUT", "/api/contents/" + path,
                             data=json.dumps({"type": "file", "format": "text", "content": text}))
        answer.raise_for_status()

    def delete(self, path):
        self.server("DELETE", "/api/contents/" + path)

    def run_in_notebook(self, path, code, timeout=900):
        """Run ``code`` in a kernel of a session on the notebook ``path``, as the lab does when the
        notebook is open; returns what the kernel printed (stdout and stderr)."""
        made = self.server("POST", "/api/sessions", json={"path": path, "name": path.split("/")[-1],
                                                          "type": "notebook", "kernel": {"name": "python3"}})
        made.raise_for_status()
        kernel = made.json()["kernel"]["id"]
        url = self.hub.replace("http", "ws", 1) + "/user/%s/api/kernels/%s/channels" % (self.name, kernel)
        channel = websocket.create_connection(url, header=["Authorization: token " + self.token],
                                              timeout=timeout)
        try:
            msg_id, session = uuid.uuid4().hex, uuid.uuid4().hex
            channel.send(json.dumps({
                "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.name,
                           "session": session, "version": "5.3", "date": ""},
                "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True}}))
            printed = []
            while True:
                message = json.loads(channel.recv())
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = message["header"]["msg_type"], message["content"]
                if kind == "stream":
                    printed.append(content["text"])
                elif kind == "error":
                    printed.append("%s: %s\n" % (content["ename"], content["evalue"]))
                elif kind == "status" and content["execution_state"] == "idle":
                    return "".join(printed)
        finally:
            channel.close()

"""A small LTI 1.3 platform (an LMS's side of LTI Advantage) on loopback, for the tests.

It launches people into the tool: :meth:`Platform.login_initiation` is the
URL the LMS sends a browser to (the tool's OIDC login initiation), and its
``/authorize`` endpoint answers the tool's authentication request with a form
that posts a signed ``id_token`` (resource link launch, roles, the custom
parameter ``username`` set to the person's institution id, the NRPS and AGS
claims) to the tool's callback; ``/jwks`` is the platform's public key set.
It serves what a course's tool calls: the token endpoint (client credentials,
the tool's JWT checked against the public key set registered with
:meth:`Platform.register_tool`), Names and Role Provisioning Services (paged,
two members a page, with a ``Link: rel="next"`` header) and Assignment and
Grade Services (line items, scores, results). Its grade book is
:attr:`Platform.grades`; every score it accepted is in :attr:`Platform.posted`.
It is strict where the specifications say "must": a score needs the score
scope, the score media type, and a timestamp later than the last one taken
for that learner and line item.
"""

import datetime
import html
import json
import secrets
import time
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
PAGE = 2


class Platform:
    def __init__(self, members):
        self.members = members
        self.client_id = "autograder-test-client"
        self.tool_keys = None
        self.tokens = {}
        self.used_jti = set()
        self.line_items = {}
        self.grades = {}      # (line item id, user_id) -> {"score", "maximum", "timestamp", "submittedAt"}
        self.posted = []      # every accepted score, in order
        self.created = []     # every line item made, in order
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.launched = []    # every id_token issued, decoded
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def register_tool(self, jwks):
        self.tool_keys = jwks

    def registration(self):
        """What the LMS shows when the course's tool is registered: ``lti.json``."""
        return {"issuer": self.url, "client_id": self.client_id, "deployment_id": "1",
                "token_url": self.url + "/token",
                "memberships_url": self.url + "/courses/7/memberships",
                "lineitems_url": self.url + "/courses/7/lineitems"}

    def jwks(self):
        public = jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key(), as_dict=True)
        public.update(kid="platform-key", alg="RS256", use="sig")
        return {"keys": [public]}

    def authenticator_settings(self):
        """What the hub's LTI 1.3 login needs from the platform (the settings' ``lti13`` entry)."""
        return {"issuer": self.url, "authorize_url": self.url + "/authorize",
                "jwks_endpoint": self.url + "/jwks", "client_id": self.client_id}

    def login_initiation(self, tool_login_url, user_id, target_link_uri):
        """The URL the LMS sends a person's browser to, to launch them into the tool."""
        return tool_login_url + "?" + urllib.parse.urlencode({
            "iss": self.url, "login_hint": user_id, "target_link_uri": target_link_uri,
            "lti_message_hint": "launch-" + user_id, "client_id": self.client_id,
            "lti_deployment_id": "1"})

    def id_token(self, user_id, nonce):
        person = next(m for m in self.members if m["user_id"] == user_id)
        now = int(time.time())
        claims = {
            "iss": self.url, "aud": self.client_id, "azp": self.client_id, "sub": user_id,
            "iat": now, "exp": now + 300, "nonce": nonce,
            "name": person["name"], "given_name": person["given_name"],
            "family_name": person["family_name"], "email": person["email"],
            "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiResourceLinkRequest",
            "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
            "https://purl.imsglobal.org/spec/lti/claim/deployment_id": "1",
            "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": self.url,
            "https://purl.imsglobal.org/spec/lti/claim/resource_link": {"id": "course-tool"},
            "https://purl.imsglobal.org/spec/lti/claim/roles": person["roles"],
            "https://purl.imsglobal.org/spec/lti/claim/context": {"id": "7", "label": "TC101",
                                                                   "title": "Tensor copies"},
            "https://purl.imsglobal.org/spec/lti/claim/custom": {
                "username": person.get("lis_person_sourcedid", "")},
            "https://purl.imsglobal.org/spec/lti/claim/lis": {
                "person_sourcedid": person.get("lis_person_sourcedid", "")},
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": self.url + "/courses/7/memberships",
                "service_versions": ["2.0"]},
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                "scope": [LINEITEM, RESULT, SCORE], "lineitems": self.url + "/courses/7/lineitems"},
        }
        self.launched.append(claims)
        return jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": "platform-key"})

    # -- checks ---------------------------------------------------------------------------------
    def issue_token(self, form):
        if form.get("grant_type") != "client_credentials":
            return 400, {"error": "unsupported_grant_type"}
        assertion = form.get("client_assertion", "")
        try:
            kid = jwt.get_unverified_header(assertion).get("kid")
            jwk = next(k for k in self.tool_keys["keys"] if k.get("kid") == kid)
            claims = jwt.decode(assertion, jwt.PyJWK(jwk).key, algorithms=["RS256"],
                                audience=self.url + "/token", issuer=self.client_id)
        except Exception as error:  # any bad assertion is the same refusal
            return 401, {"error": "invalid_client", "error_description": str(error)}
        if claims.get("sub") != self.client_id or claims.get("jti") in self.used_jti:
            return 401, {"error": "invalid_client"}
        self.used_jti.add(claims["jti"])
        token = secrets.token_hex(16)
        self.tokens[token] = set(form.get("scope", "").split())
        return 200, {"access_token": token, "token_type": "bearer", "expires_in": 3600,
                     "scope": form.get("scope", "")}

    def allowed(self, headers, scope):
        given = headers.get("Authorization", "")
        return given.startswith("Bearer ") and scope in self.tokens.get(given[7:], set())

    def accept_score(self, item_id, score):
        needed = ("userId", "scoreGiven", "scoreMaximum", "activityProgress", "gradingProgress", "timestamp")
        if not isinstance(score, dict) or any(k not in score for k in needed):
            return 400
        when = datetime.datetime.fromisoformat(score["timestamp"])
        key = (item_id, score["userId"])
        last = self.grades.get(key)
        if last and datetime.datetime.fromisoformat(last["timestamp"]) >= when:
            return 409
        self.grades[key] = {"score": score["scoreGiven"], "maximum": score["scoreMaximum"],
                            "timestamp": score["timestamp"],
                            "submittedAt": (score.get("submission") or {}).get("submittedAt")}
        self.posted.append((item_id, dict(score)))
        return 204


NRPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
RESULT = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


def _handler(platform):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, status, body=None, headers=()):
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def body(self):
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def do_POST(self):
            path = urllib.parse.urlsplit(self.path).path
            if path == "/token":
                form = dict(urllib.parse.parse_qsl(self.body().decode()))
                return self.reply(*platform.issue_token(form))
            if path == "/courses/7/lineitems":
                if not platform.allowed(self.headers, LINEITEM):
                    return self.reply(401, {})
                item = json.loads(self.body())
                item["id"] = "%s/courses/7/lineitems/%d" % (platform.url, len(platform.line_items) + 1)
                platform.line_items[item["id"]] = item
                platform.created.append(item["id"])
                return self.reply(201, item)
            if path.startswith("/courses/7/lineitems/") and path.endswith("/scores"):
                if not platform.allowed(self.headers, SCORE):
                    return self.reply(401, {})
                if self.headers.get("Content-Type") != SCORE_TYPE:
                    return self.reply(415, {})
                item_id = platform.url + path[: -len("/scores")]
                if item_id not in platform.line_items:
                    return self.reply(404, {})
                return self.reply(platform.accept_score(item_id, json.loads(self.body())))
            self.reply(404, {})

        def do_GET(self):
            parts = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(parts.query))
            if parts.path == "/jwks":
                return self.reply(200, platform.jwks())
            if parts.path == "/authorize":
                if query.get("client_id") != platform.client_id or query.get("response_type") != "id_token":
                    return self.reply(400, {"error": "invalid_request"})
                token = platform.id_token(query["login_hint"], query["nonce"])
                page = ('<form method="post" action="%s"><input name="id_token" value="%s">'
                        '<input name="state" value="%s"></form>'
                        % tuple(html.escape(v, quote=True) for v in
                                (query["redirect_uri"], token, query["state"]))).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                return self.wfile.write(page)
            if parts.path == "/courses/7/memberships":
                if not platform.allowed(self.headers, NRPS):
                    return self.reply(401, {})
                page = int(query.get("page", "0"))
                shown = platform.members[page * PAGE:(page + 1) * PAGE]
                more = (page + 1) * PAGE < len(platform.members)
                links = [("Link", '<%s/courses/7/memberships?page=%d>; rel="next"'
                          % (platform.url, page + 1))] if more else []
                return self.reply(200, {"id": self.path, "context": {"id": "7"}, "members": shown}, links)
            if parts.path == "/courses/7/lineitems":
                if not platform.allowed(self.headers, LINEITEM):
                    return self.reply(401, {})
                items = [i for i in platform.line_items.values()
                         if "resource_id" not in query or i.get("resourceId") == query["resource_id"]]
                return self.reply(200, items)
            if parts.path.startswith("/courses/7/lineitems/") and parts.path.endswith("/results"):
                if not platform.allowed(self.headers, RESULT):
                    return self.reply(401, {})
                item_id = platform.url + parts.path[: -len("/results")]
                found = [{"id": "%s/results/%s" % (item_id, user), "userId": user, "resultScore": g["score"],
                          "resultMaximum": g["maximum"], "scoreOf": item_id}
                         for (item, user), g in platform.grades.items()
                         if item == item_id and query.get("user_id") in (None, user)]
                return self.reply(200, found)
            self.reply(404, {})

    return Handler

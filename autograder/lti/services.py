"""The LMS's LTI Advantage services, as HTTP calls: an access token, the members, line items, scores.

Every call carries an OAuth 2 access token that the tool gets from the LMS's
token endpoint with the client-credentials grant, proving who it is by a JWT
signed with its own key (RFC 7523, as LTI 1.3's security framework says).
A token is asked for once per set of scopes and reused until it nearly expires.
"""

import time
import urllib.parse
import uuid

import jwt
import requests

from ..course import CourseError
from .registration import KEY_ID

NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
RESULT_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"

MEMBERSHIPS = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
LINEITEM = "application/vnd.ims.lis.v2.lineitem+json"
LINEITEMS = "application/vnd.ims.lis.v2.lineitemcontainer+json"
RESULTS = "application/vnd.ims.lis.v2.resultcontainer+json"
SCORE = "application/vnd.ims.lis.v1.score+json"

TIMEOUT = 30  # seconds for one HTTP call
MAX_PAGES = 1000  # a paged list that goes on longer is a platform fault, not a class


class Platform:
    """The LMS of one :class:`~autograder.lti.registration.Registration`, seen by the tool."""

    def __init__(self, registration, key):
        self.registration = registration
        self.key = key
        self.http = requests.Session()
        self._tokens = {}

    # -- the access token ---------------------------------------------------------------------
    def _assertion(self):
        now = int(time.time())
        claims = {"iss": self.registration.client_id, "sub": self.registration.client_id,
                  "aud": self.registration.token_url, "iat": now, "exp": now + 300,
                  "jti": uuid.uuid4().hex}
        return jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": KEY_ID})

    def token(self, *scopes):
        """An access token for ``scopes``."""
        wanted = " ".join(sorted(scopes))
        known = self._tokens.get(wanted)
        if known and known[1] > time.time() + 30:
            return known[0]
        answer = self._call("POST", self.registration.token_url, token=None, data={
            "grant_type": "client_credentials",
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": self._assertion(), "scope": wanted})
        body = answer.json()
        if not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            raise CourseError("the LMS's token endpoint gave no access token")
        expires = body.get("expires_in", 3600)
        self._tokens[wanted] = (body["access_token"],
                                time.time() + (expires if isinstance(expires, (int, float)) else 3600))
        return body["access_token"]

    # -- HTTP --------------------------------------------------------------------------------
    def _call(self, method, url, token, accept=None, json_body=None, content_type=None, data=None,
              params=None):
        headers = {}
        if token:
            headers["Authorization"] = "Bearer " + token
        if accept:
            headers["Accept"] = accept
        if content_type:
            headers["Content-Type"] = content_type
        try:
            answer = self.http.request(method, url, headers=headers, data=data, params=params,
                                       json=json_body, timeout=TIMEOUT)
        except requests.RequestException as error:
            raise CourseError("the LMS did not answer %s %s: %s" % (method, url, error)) from None
        if answer.status_code >= 400:
            raise CourseError("the LMS refused %s %s: HTTP %d %s"
                              % (method, url, answer.status_code, answer.text[:300]))
        return answer

    def _pages(self, url, token, accept, params=None):
        """Every page of a paged list (the next page is the ``Link: <...>; rel="next"`` header)."""
        for _ in range(MAX_PAGES):
            answer = self._call("GET", url, token, accept=accept, params=params)
            yield answer.json()
            following = answer.links.get("next", {}).get("url")
            if not following:
                return
            url, params = following, None
        raise CourseError("the LMS's list at %s goes on for more than %d pages" % (url, MAX_PAGES))

    # -- Names and Role Provisioning Services ---------------------------------------------------
    def members(self):
        """The course's members: NRPS member objects (``user_id``, ``roles``, ``email``, ...)."""
        token = self.token(NRPS_SCOPE)
        found = []
        for page in self._pages(self.registration.memberships_url, token, MEMBERSHIPS):
            members = page.get("members") if isinstance(page, dict) else None
            if not isinstance(members, list):
                raise CourseError("the LMS's member list has no 'members'")
            found += [m for m in members if isinstance(m, dict)]
        return found

    # -- Assignment and Grade Services ----------------------------------------------------------
    def line_items(self, resource_id=None):
        """The course's line items, or those of one ``resource_id``."""
        token = self.token(LINEITEM_SCOPE)
        params = {"resource_id": resource_id} if resource_id else None
        found = []
        for page in self._pages(self.registration.lineitems_url, token, LINEITEMS, params):
            if not isinstance(page, list):
                raise CourseError("the LMS's line items are not a list")
            found += [item for item in page if isinstance(item, dict) and isinstance(item.get("id"), str)]
        return [item for item in found if resource_id is None or item.get("resourceId") == resource_id]

    def create_line_item(self, label, score_maximum, resource_id, tag):
        token = self.token(LINEITEM_SCOPE)
        item = {"label": label, "scoreMaximum": score_maximum, "resourceId": resource_id, "tag": tag}
        answer = self._call("POST", self.registration.lineitems_url, token, accept=LINEITEM,
                            json_body=item, content_type=LINEITEM)
        made = answer.json()
        if not isinstance(made, dict) or not isinstance(made.get("id"), str):
            raise CourseError("the LMS made a line item without an id")
        return made

    def results(self, line_item, user_id):
        """The LMS's current results of ``user_id`` on ``line_item`` (a list of result objects)."""
        token = self.token(RESULT_SCOPE)
        url = _below(line_item["id"], "results")
        found = []
        for page in self._pages(url, token, RESULTS, {"user_id": user_id}):
            found += [r for r in page if isinstance(r, dict)] if isinstance(page, list) else []
        return [r for r in found if r.get("userId") == user_id]

    def send_score(self, line_item, score):
        token = self.token(SCORE_SCOPE)
        self._call("POST", _below(line_item["id"], "scores"), token, json_body=score, content_type=SCORE)


def _below(item_url, name):
    """``<line item URL>/<name>``, keeping the line item URL's query (AGS says so)."""
    parts = urllib.parse.urlsplit(item_url)
    return urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/" + name))

"""The hub service that keeps what learners chose to share of their predictions.

A JupyterHub-managed service (``python -m autograder.hub.predictions_service``,
run as the grader account, like formgrader) on the course's state folder.
Under ``$JUPYTERHUB_SERVICE_PREFIX`` it answers ``answers``:

* ``POST`` one record from a learner's predict widget (``coursebook.sharing``):
  kept once per learner and question (:func:`autograder.term.predictions.keep_first`);
* ``GET`` the caller's own records, as JSON;
* ``DELETE`` the caller's own records.

Who calls is the hub's word, not the request's: every request carries the
learner's own hub token (the server's ``$JUPYTERHUB_API_TOKEN``, which the
hub grants ``access:services!service=predictions``), checked with the hub by
JupyterHub's ``HubAuthenticated``. A learner reads and deletes only their own
records; nothing here shows one learner another's.
"""

import json
import os
import sys
import urllib.parse

from tornado import httpserver, ioloop, netutil, routing, web
from tornado.log import app_log

MAX_BODY = 64 * 1024


def answers_handler():
    """The handler of ``answers``, made when the app is: JupyterHub's auth and the gradebook's
    database bring in SQLAlchemy, which the service imports at its first ``answers`` request."""
    from jupyterhub.services.auth import HubAuthenticated

    from ..term.predictions import BadRecord, answers_of, forget, keep_first

    class Answers(HubAuthenticated, web.RequestHandler):
        def initialize(self, hub_auth, engine):
            self.hub_auth = hub_auth
            self.engine = engine

        def _student(self):
            user = self.current_user
            if user.get("kind") != "user":
                raise web.HTTPError(403, "only a learner's own token is accepted")
            return user["name"]

        @web.authenticated
        def get(self):
            self.finish({"answers": answers_of(self.engine, self._student())})

        @web.authenticated
        def post(self):
            if len(self.request.body) > MAX_BODY:
                raise web.HTTPError(413, "a record is at most %d bytes" % MAX_BODY)
            try:
                record = json.loads(self.request.body)
                kept = keep_first(self.engine, self._student(), record)
            except (ValueError, BadRecord) as error:
                raise web.HTTPError(400, str(error)) from None
            self.set_status(201 if kept else 200)
            self.finish({"kept": kept})

        @web.authenticated
        def delete(self):
            self.finish({"deleted": forget(self.engine, self._student())})

    return Answers


def make_app(engine, prefix):
    from jupyterhub.services.auth import HubAuth

    return web.Application([(prefix.rstrip("/") + "/answers", answers_handler(),
                             {"hub_auth": HubAuth(), "engine": engine})])


class OnFirstAnswer(routing.Router):
    """The service's requests: ``answers`` to the app :func:`make_app` makes at the first of them
    (JupyterHub's auth, SQLAlchemy, the course's config, the table made if missing), anything
    else (the hub looking whether the service is up) a 404 at once."""

    def __init__(self, prefix, build):
        self.answers = prefix.rstrip("/") + "/answers"
        self.build, self.app = build, None
        self.nothing = web.Application()

    def find_handler(self, request, **kwargs):
        if request.path != self.answers:
            return self.nothing.find_handler(request, **kwargs)
        if self.app is None:
            try:
                self.app = self.build()
            except Exception:  # a gradebook it cannot open, say: in the log, tried again next time
                app_log.exception("the predictions service could not read the course's gradebook")
                return self.nothing.get_handler_delegate(request, web.ErrorHandler, {"status_code": 503})
        return self.app.find_handler(request, **kwargs)


def main():
    """Listen, answer the hub at once, and read the course at the first ``answers`` request.

    The hub waits for this service's URL to answer before it goes on, looking
    again and again with a growing random pause; a start asks nothing else of
    the service.  So it listens first (the hub's first look connects and
    waits for its answer) and answers with no more than tornado imported; what
    the answers need (JupyterHub's auth, SQLAlchemy, the course's config and
    gradebook) is imported at the first learner's request, not at every start
    of the hub (docs/decisions/0038).
    """
    url = urllib.parse.urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    sockets = netutil.bind_sockets(url.port, url.hostname)
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/predictions/")

    def build():
        from ..course import course_config
        from ..term.predictions import engine_of

        config = course_config(os.environ.get("AUTOGRADER_ROOT"), os.environ.get("AUTOGRADER_STATE"))
        return make_app(engine_of(config), prefix)

    httpserver.HTTPServer(OnFirstAnswer(prefix, build)).add_sockets(sockets)
    print("predictions service on %s" % url.geturl(), file=sys.stderr, flush=True)
    ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main()

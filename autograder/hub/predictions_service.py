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

from tornado import httpserver, ioloop, netutil, web

MAX_BODY = 64 * 1024


def answers_handler():
    """The handler of ``answers``, made when the app is: JupyterHub's auth and the gradebook's
    database bring in SQLAlchemy, which :func:`main` imports only once the service listens."""
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


def main():
    """Listen first, then import and read the course, then answer.

    The hub waits for this service's URL to answer before it goes on, looking
    again and again with a growing random pause.  Listening first makes its
    first look connect and wait for the answer, so the hub goes on as soon as
    the service is ready instead of at its next look, up to seconds later.
    """
    url = urllib.parse.urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    sockets = netutil.bind_sockets(url.port, url.hostname)
    from ..course import course_config
    from ..term.predictions import engine_of

    config = course_config(os.environ.get("AUTOGRADER_ROOT"), os.environ.get("AUTOGRADER_STATE"))
    app = make_app(engine_of(config), os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/predictions/"))
    httpserver.HTTPServer(app).add_sockets(sockets)
    print("predictions service on %s" % url.geturl(), file=sys.stderr, flush=True)
    ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main()

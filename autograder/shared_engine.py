"""One SQLAlchemy engine per gradebook file inside a grading process.

nbgrader opens a new ``Gradebook`` (and so a new SQLAlchemy engine) about
nine times per submission it autogrades, and each new engine starts with an
empty cache of compiled SQL: a third of nbgrader's own time per submission
went into compiling the same queries again.  :func:`install` makes
``nbgrader.api`` reuse one engine per database URL for the life of the
process.  Nothing else changes: every ``Gradebook`` still has its own
session and still commits and closes it; ``engine.dispose()`` on close only
empties the connection pool, and the next session opens a new connection.

Only grading workers (``autograder.shard``) install it: each has its own
gradebook file and a single thread.
"""

import nbgrader.api
from sqlalchemy import create_engine

_engines = {}


def shared_create_engine(url, **kwargs):
    key = (str(url), tuple(sorted(kwargs.items())))
    if key not in _engines:
        _engines[key] = create_engine(url, **kwargs)
    return _engines[key]


def install():
    nbgrader.api.create_engine = shared_create_engine

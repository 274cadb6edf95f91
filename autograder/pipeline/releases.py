"""Which assignment a notebook is: the cell ids that only that assignment's release has.

Used by ``collect`` (a renamed notebook in an inbox) and by the learner's
self-check (the release to rebuild a notebook on). Ids several releases share,
such as every assignment's ``self-check`` cell, never count.
"""


def _ids(nb):
    """Every nbgrader grade id and notebook cell id in a parsed notebook."""
    ids = set()
    cells = nb.get("cells") if isinstance(nb, dict) else None
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict):
            continue
        meta = cell.get("metadata")
        nbgrader = meta.get("nbgrader") if isinstance(meta, dict) else None
        if isinstance(nbgrader, dict) and isinstance(nbgrader.get("grade_id"), str):
            ids.add("grade:" + nbgrader["grade_id"])
        if isinstance(cell.get("id"), str):
            ids.add("cell:" + cell["id"])
    return ids


def unique_ids(releases):
    """``{assignment: ids only its release has}`` for ``{assignment: parsed release}``."""
    every = {a: _ids(nb) for a, nb in releases.items()}
    return {a: ids - set().union(*(every[b] for b in every if b != a)) for a, ids in every.items()}


def match_by_ids(nb, releases, unique=None):
    """The one assignment whose release-only cell ids ``nb`` carries most, or None."""
    unique = unique if unique is not None else unique_ids(releases)
    mine = _ids(nb)
    hits = {a: len(mine & ids) for a, ids in unique.items()}
    best = max(hits.values(), default=0)
    winners = [a for a, n in hits.items() if n == best]
    return winners[0] if best > 0 and len(winners) == 1 else None

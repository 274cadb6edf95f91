"""The learner's own copy of the notebooks, so that learning never fights git.

``make lab`` opens ``workspace/course/00_index.ipynb``, not ``course/``:
``workspace/`` (git-ignored) holds a copy of every chapter (``course/*.ipynb``)
and every exercise (``exercises/<a>/<a>.ipynb``). The learner runs, saves and
answers there; the tracked notebooks stay as committed, so ``git pull`` never
meets a change of the learner's, and never conflicts.

After a pull, :func:`sync` (run by every ``make lab``) brings the new versions
in without losing work, as nbgitpuller does on a hub:

* a notebook the workspace lacks is copied in (a new chapter);
* one the learner has not changed since it was copied (same cells: sources
  and outputs) is replaced by the new version;
* one the learner changed is kept as it is, and the new version is written
  beside it as ``<name>.new.ipynb``, with a line saying so.

``workspace/.sync.json`` records, per notebook, the fingerprint of the course's
version that was copied and of the copy as written. Only files are read and
written; git is never called.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

import nbformat

__all__ = ["WORKSPACE", "sources", "fingerprint", "sync", "main"]

REPO = Path(__file__).resolve().parents[2]
WORKSPACE = "workspace"
RECORD = ".sync.json"


def sources(repo: Path = REPO) -> list[Path]:
    """The notebooks a learner works in, relative to the repository: chapters and exercises."""
    chapters = sorted((repo / "course").glob("*.ipynb"))
    exercises = sorted(p for p in (repo / "exercises").glob("*/*.ipynb") if p.stem == p.parent.name)
    return [p.relative_to(repo) for p in chapters + exercises]


def fingerprint(path: Path) -> str:
    """What the learner can change in a notebook: its cells' types, sources and outputs.

    Metadata a lab rewrites on opening or saving (kernel info, widget state,
    execution counts) does not count, so a chapter only opened and saved is
    still "unchanged".
    """
    try:
        nb = nbformat.read(str(path), as_version=4)
    except Exception:  # unreadable: treat as the learner's own, never overwrite it
        return "unreadable:" + hashlib.sha256(path.read_bytes()).hexdigest()
    cells = [(c.cell_type, c.source, [{k: v for k, v in o.items() if k != "execution_count"}
                                      for o in c.get("outputs", [])]) for c in nb.cells]
    return hashlib.sha256(json.dumps(cells, sort_keys=True, default=str).encode()).hexdigest()


def _load(record: Path) -> dict:
    try:
        data = json.loads(record.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def sync(repo: Path = REPO, workspace: Path | None = None) -> list[str]:
    """Bring the workspace up to date with ``repo``'s notebooks; return one line per change."""
    workspace = Path(workspace or repo / WORKSPACE)
    record_path = workspace / RECORD
    record = _load(record_path)
    lines = []
    for relative in sources(repo):
        source, copy = repo / relative, workspace / relative
        key = relative.as_posix()
        new = fingerprint(source)
        known = record.get(key, {})
        if not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy)
            lines.append(f"copied {key}")
        elif known.get("course") == new:
            continue  # the course's version has not changed: the learner's copy is theirs
        elif fingerprint(copy) == known.get("copy"):
            shutil.copyfile(source, copy)
            lines.append(f"updated {key} (you had not changed it)")
        else:
            beside = copy.with_name(copy.stem + ".new.ipynb")
            shutil.copyfile(source, beside)
            lines.append(f"kept your {key}; the course's new version is {beside.relative_to(workspace).as_posix()}")
        record[key] = {"course": new, "copy": fingerprint(copy)}
    workspace.mkdir(parents=True, exist_ok=True)
    temporary = record_path.with_name(RECORD + ".tmp")
    temporary.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    temporary.replace(record_path)
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursebook.workspace", description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the course's repository (default: this one)")
    parser.add_argument("--workspace", type=Path, default=None,
                        help="the learner's copy (default: REPO/workspace; on a hub, the home folder)")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    for line in sync(args.repo, args.workspace):
        if not args.quiet:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

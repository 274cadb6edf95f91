"""``python -m coursebook.translate update|generate|check|status [--lang zh]``.

* ``update``: bring every catalog in line with the English (new paragraphs get
  empty entries, changed ones turn fuzzy with their previous English kept);
* ``generate``: write the translated notebooks (``course/<lang>/``);
* ``check``: exit 1 when an entry is missing, stale or unused, when a finished
  document has an untranslated paragraph, or when a translated notebook is not
  what ``generate`` writes;
* ``status``: translated / total paragraphs per document.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

from coursebook.translate.catalog import new_catalog, paragraphs_of, translation_memory, update
from coursebook.translate.drift import drift, load
from coursebook.translate.layout import REPO, documents, twin_finder
from coursebook.translate.notebook import render, translate


def finished(language: str, repo=REPO) -> list[str]:
    """The documents ``course/locale/<lang>/finished.toml`` declares fully translated."""
    path = repo / "course" / "locale" / language / "finished.toml"
    if not path.exists():
        return []
    return list(tomllib.loads(path.read_text(encoding="utf-8")).get("finished", []))


def run_update(language: str, repo=REPO) -> int:
    every = documents(language, repo)
    # paragraphs that moved to another chapter keep their translation
    memory = translation_memory(load(d.catalog) for d in every)
    for document in every:
        old = load(document.catalog)
        if not old.metadata:
            old = new_catalog(language)
        fresh, counts = update(old, paragraphs_of(document.source),
                               document.source.relative_to(repo).as_posix(), memory)
        document.catalog.parent.mkdir(parents=True, exist_ok=True)
        text = str(fresh)
        if not document.catalog.exists() or document.catalog.read_text(encoding="utf-8") != text:
            document.catalog.write_text(text, encoding="utf-8")
            changed = ", ".join(f"{v} {k}" for k, v in counts.items() if v and k != "kept")
            print(f"{document.catalog.relative_to(repo)}: {changed or 'rewritten'}")
    return 0


def run_generate(language: str, repo=REPO) -> int:
    twin = twin_finder(language, repo)
    for document in documents(language, repo):
        text = render(translate(document, load(document.catalog), twin))
        document.target.parent.mkdir(parents=True, exist_ok=True)
        if not document.target.exists() or document.target.read_text(encoding="utf-8") != text:
            document.target.write_text(text, encoding="utf-8")
            print(f"wrote {document.target.relative_to(repo)}")
    return 0


def run_check(language: str, repo=REPO) -> int:
    problems = []
    done = set(finished(language, repo))
    twin = twin_finder(language, repo)
    for document in documents(language, repo):
        found = drift(document)
        for kind in ("missing", "stale", "unused"):
            if getattr(found, kind):
                problems.append(found.describe(kind))
        if document.name in done and found.untranslated:
            problems.append(found.describe("untranslated") + " (listed as finished)")
        expected = render(translate(document, load(document.catalog), twin))
        if not document.target.exists() or document.target.read_text(encoding="utf-8") != expected:
            problems.append(f"{document.target.relative_to(repo)} is not what `generate` writes")
    for line in problems:
        print(line)
    return 1 if problems else 0


def run_status(language: str, repo=REPO) -> int:
    for document in documents(language, repo):
        found = drift(document)
        print(f"{document.name:40} {found.translated:4}/{found.total:<4} translated, "
              f"{len(found.untranslated)} untranslated, {len(found.missing)} missing, {len(found.stale)} stale")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursebook.translate", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["update", "generate", "check", "status"])
    parser.add_argument("--lang", default="zh")
    parser.add_argument("--repo", type=Path, default=REPO, help="the course's repository (default: this one)")
    args = parser.parse_args(argv)
    return {"update": run_update, "generate": run_generate, "check": run_check,
            "status": run_status}[args.command](args.lang, args.repo.resolve())


if __name__ == "__main__":
    sys.exit(main())

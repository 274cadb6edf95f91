"""Pyodide's distribution with its lock file pointing at the wheels we downloaded: the relock step.

The npm package ``pyodide`` holds the interpreter and the standard library,
and a lock file (``pyodide-lock.json``) naming the wheels Pyodide loads by
name (micropip, IPython, ...), which it would fetch from a CDN next to the
interpreter.  Here each wheel the site needs is copied next to the
interpreter and its entry rewritten: the file's name and sha256 (the wheel
as downloaded from PyPI, with the bytecode :mod:`lite.bytecode` adds to it and
to the standard library first).  The packages the lock does not know (the
widgets, polib, the course's own wheel) get entries of their own.  Entries for
wheels that are not there are dropped, so asking for one fails at once with
Pyodide's "no known package" instead of a request to another host.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tarfile
import zipfile
from pathlib import Path

from lite import versions
from lite.bytecode import compile_in_pyodide
from lite.download import WHEELS, canonical, pyodide_tarball, wanted


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _top_level_imports(wheel: Path) -> list[str]:
    """The importable names a wheel installs: its top-level packages and modules."""
    names = set()
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            first = name.split("/")[0]
            if first.endswith((".dist-info", ".data")) or first == "__pycache__":
                continue
            if "/" in name:
                names.add(first)
            elif name.endswith(".py"):
                names.add(name[:-3])
    return sorted(n for n in names if n.isidentifier())


def _wheel_of(name: str, version: str, folder: Path) -> Path:
    stem = f"{canonical(name).replace('-', '_')}-{version}-"
    return next(p for p in folder.glob("*.whl") if p.name.lower().startswith(stem))


def entry(name: str, version: str, wheel: Path, depends: list[str]) -> dict:
    return {"name": name, "version": version, "file_name": wheel.name, "install_dir": "site",
            "sha256": _sha256(wheel), "package_type": "package", "imports": _top_level_imports(wheel),
            "depends": depends, "unvendored_tests": False}


def relock(dest: Path, course_wheels: dict[str, tuple[Path, list[str]]]) -> list[str]:
    """Unpack Pyodide into ``dest``, add the wheels, rewrite the lock; return every package name it holds.

    ``course_wheels``: {name: (wheel, what it needs)} built for this site.
    """
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    with tarfile.open(pyodide_tarball()) as tar:
        for member in tar.getmembers():
            if member.isfile() and not member.name.endswith((".map", ".d.ts", ".html", "README.md")):
                member.name = member.name.removeprefix("package/")
                tar.extract(member, dest, filter="data")
    lock = json.loads((dest / "pyodide-lock.json").read_text())
    packages = {canonical(k): v for k, v in lock["packages"].items()}
    downloaded = {name: _wheel_of(name, version, WHEELS) for name, version in wanted().items()}
    for wheel in [*downloaded.values(), *(wheel for wheel, _ in course_wheels.values())]:
        shutil.copy2(wheel, dest / wheel.name)
    compile_in_pyodide(dest)
    kept = {}
    for name, version in wanted().items():
        wheel = dest / downloaded[name].name
        if name in packages:
            found = dict(packages[name], file_name=wheel.name, sha256=_sha256(wheel), unvendored_tests=False)
        else:
            found = entry(name, version, wheel, versions.EXTRA[name][1])
        found["depends"] = [canonical(d) for d in found["depends"]]
        kept[name] = found
    for name, (wheel, depends) in course_wheels.items():
        kept[name] = entry(name, wheel.name.split("-")[1], dest / wheel.name, depends)
    lock["packages"] = kept
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    return sorted(kept)

"""Fetch what the site is made of into ``.lite-cache/``, from npm and PyPI only (the one online step).

* Pyodide's distribution, ``npm pack pyodide@<version>`` (the npm cache inside
  ``.lite-cache/`` too);
* the pure-Python wheels Pyodide will load (:mod:`lite.versions`), by
  ``pip download --no-deps`` at exact versions: the lock's own for the
  packages it names, so its dependency graph stays true;
* JupyterLite's build tools, installed into ``.venv``.

Anything already in the cache, or installed at its pinned version, is not fetched again.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tarfile
from pathlib import Path

from lite import versions

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / ".lite-cache"
WHEELS = CACHE / "wheels"


def pyodide_tarball() -> Path:
    return CACHE / f"pyodide-{versions.PYODIDE}.tgz"


def lock() -> dict:
    """Pyodide's own lock file, read from the npm tarball."""
    with tarfile.open(pyodide_tarball()) as tar:
        return json.load(tar.extractfile("package/pyodide-lock.json"))


def canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def closure(packages: dict, names) -> list[str]:
    """``names`` and everything they depend on, in the lock (and in :data:`versions.EXTRA`)."""
    seen: list[str] = []

    def visit(name):
        name = canonical(name)
        if name in seen:
            return
        seen.append(name)
        depends = packages[name]["depends"] if name in packages else versions.EXTRA[name][1]
        for dependency in depends:
            visit(dependency)

    for name in names:
        visit(name)
    return seen


def wanted() -> dict[str, str]:
    """{lock name: exact version} of every wheel the site needs."""
    packages = {canonical(k): v for k, v in lock()["packages"].items()}
    needed = closure(packages, versions.FROM_THE_LOCK + list(versions.EXTRA))
    return {name: packages[name]["version"] if name in packages else versions.EXTRA[name][0] for name in needed}


def _have(name: str, version: str) -> bool:
    stem = f"{canonical(name).replace('-', '_')}-{version}-"
    return any(p.name.lower().startswith(stem) for p in WHEELS.glob("*.whl"))


def _installed(pin: str) -> bool:
    name, version = pin.split("==")
    try:
        return importlib.metadata.version(name) == version
    except importlib.metadata.PackageNotFoundError:
        return False


def main() -> None:
    CACHE.mkdir(exist_ok=True)
    if not pyodide_tarball().exists():
        print(f"npm: pyodide {versions.PYODIDE}")
        subprocess.run(["npm", "pack", f"pyodide@{versions.PYODIDE}", "--silent", "--cache", str(CACHE / "npm"),
                        "--pack-destination", str(CACHE)], check=True, stdout=subprocess.DEVNULL)
    WHEELS.mkdir(exist_ok=True)
    missing = [f"{name}=={version}" for name, version in wanted().items() if not _have(name, version)]
    if missing:
        print(f"pip: {len(missing)} wheels for Pyodide")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "--python-version", "3.14", "--implementation", "py", "--abi", "none",
                        "--platform", "any", "--dest", str(WHEELS), *missing], check=True)
    if not all(map(_installed, versions.JUPYTERLITE)):
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "-c", str(REPO / "constraints.txt"),
                        *versions.JUPYTERLITE], check=True)

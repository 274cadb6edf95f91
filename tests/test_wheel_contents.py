"""What ``pip install .`` (not editable) installs: every module and data file of our packages.

The checkout's own installs are editable (``make venv``, Binder's postBuild), which read the
folders themselves; an installed wheel has only what pyproject.toml names. The wheel is built
from a copy of the packages and pyproject.toml in a temporary folder (the build writes
``build/`` and an ``.egg-info`` beside its sources), with the venv's setuptools, offline.
"""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# the top-level folders whose packages pyproject.toml installs, and where they sit in the wheel
ROOTS = {REPO / "src": "", REPO / "autograder": "autograder/"}
NOT_INSTALLED = {"README.md"}


def _sources():
    """Every file of our packages a wheel must hold, as its path inside the wheel."""
    wanted = set()
    for root, prefix in ROOTS.items():
        for path in root.rglob("*"):
            if (path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
                    and path.name not in NOT_INSTALLED and not any(p.endswith(".egg-info") for p in path.parts)):
                wanted.add(prefix + path.relative_to(root).as_posix())
    return wanted


def _wheel_names(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(REPO / "src", source / "src", ignore=ignore)
    shutil.copytree(REPO / "autograder", source / "autograder", ignore=ignore)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(tmp_path / "wheel"), str(source)], check=True, capture_output=True, text=True)
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if ".dist-info/" not in name}


def test_the_wheel_holds_every_module_and_data_file_of_our_packages(tmp_path):
    names = _wheel_names(tmp_path)
    missing = sorted(_sources() - names)
    assert not missing, "pyproject.toml's packages or package-data leave out: %s" % ", ".join(missing[:20])
    assert "coursebook/predict/models.toml" in names and "reftorch/__init__.py" in names

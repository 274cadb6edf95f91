"""What git holds for a file, not what a learner's lab saved over it.

A learner runs the chapters and the exercises in place and saves them, with
outputs and their own answers. Tests about how notebooks are *stored* (no
outputs committed, releases equal to nbgrader's output, an untouched release
scores 0) must read the version in git's index, so that learning never turns
``make test`` red. Outside a git checkout (an unpacked archive) the file on
disk is all there is, and it is what gets read.
"""

import shutil
import subprocess
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[2]


def _in_git_checkout():
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--is-inside-work-tree"],
            capture_output=True, text=True, check=False,
        )
    except FileNotFoundError:
        return False
    return done.returncode == 0 and done.stdout.strip() == "true"


IN_GIT = _in_git_checkout()


def stored_bytes(path) -> bytes:
    """The bytes of ``path`` as staged in git (the index), else as on disk."""
    path = Path(path).resolve()
    if not IN_GIT:
        return path.read_bytes()
    relative = path.relative_to(REPO).as_posix()
    done = subprocess.run(
        ["git", "-C", str(REPO), "show", f":{relative}"], capture_output=True, check=False
    )
    if done.returncode != 0:
        # Not tracked yet (a new notebook a contributor has not added): the disk copy.
        return path.read_bytes()
    return done.stdout


def stored_notebook(path):
    """``stored_bytes`` read as a notebook (nbformat v4)."""
    return nbformat.reads(stored_bytes(path).decode("utf-8"), as_version=4)


def stored_files(folder):
    """The names of the files git tracks directly in ``folder`` (what a release holds), else those on disk.

    A learner's lab leaves ``.ipynb_checkpoints`` and other untracked files beside the notebooks.
    """
    folder = Path(folder).resolve()
    if not IN_GIT:
        return sorted(p.name for p in folder.iterdir())
    done = subprocess.run(["git", "-C", str(REPO), "ls-files", "--", folder.relative_to(REPO).as_posix()],
                          capture_output=True, text=True, check=True)
    return sorted({Path(line).relative_to(folder.relative_to(REPO)).parts[0] for line in done.stdout.splitlines()})


def stored_tree(destination, ignore=None):
    """A copy of the repository as git holds it (Binder builds from git too).

    Outside a git checkout, the working tree is copied, minus ``ignore``.
    """
    destination = Path(destination)
    if not IN_GIT:
        shutil.copytree(REPO, destination, ignore=ignore)
        return destination
    destination.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["git", "-C", str(REPO), "checkout-index", "--all", "--force", f"--prefix={destination}/"],
        check=True, capture_output=True,
    )
    return destination

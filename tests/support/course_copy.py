"""The course as git sees it, committed into a new repository: what the term and hub tests run on.

A test that installs the course for a class (real Unix users, a hub, an
exchange) works on a copy, never on this checkout: the files git tracks, and
the untracked ones it does not ignore, as they are in the working tree, so an
uncommitted change is tested too.
"""

import os
import shutil
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fresh_copy(target):
    """The repository as git sees it, committed into a new repository at ``target``."""
    listed = subprocess.run(["git", "-C", REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout
    for name in sorted(set(filter(None, listed.decode().split("\0")))):
        source = os.path.join(REPO, name)
        if os.path.isfile(source):  # a file deleted in the work tree is not copied
            os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
            shutil.copy2(source, os.path.join(target, name))
    git = ["git", "-C", target, "-c", "user.name=term", "-c", "user.email=term@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "the course"], check=True)

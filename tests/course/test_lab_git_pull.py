"""A learner's work survives `git pull`: the lab saves into workspace/, never over tracked notebooks.

A real learner's lab (the server `make lab` starts) on a clone: every chapter
and exercise is opened and saved through its REST API, some with the
learner's own additions. The course then changes upstream; `git pull` in the
clone must meet no conflict (the tracked notebooks were never written), and
the next sync brings the new versions in: replacing what the learner never
changed, keeping what they did, with the new version beside it.
"""

import json
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest

from coursebook.workspace import WORKSPACE, sources, sync

REPO = Path(__file__).resolve().parents[2]
NOTE = "My own note: clone() gave new memory here."
OUTPUT = "what my run printed\n"
CHANGED_BY_LEARNER = "course/08_clone.ipynb"      # the learner wrote in it; the course changes it too
ONLY_SAVED = "course/02_names_and_objects.ipynb"  # the learner only opened and saved it; the course changes it


def _git(cwd, *args):
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, check=True).stdout


def _api(base, token, path, method="GET", body=None):
    request = urllib.request.Request(f"{base}/api/contents/{urllib.parse.quote(path)}?token={token}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def _learner_edits(relative: str) -> bool:
    """The learner writes in every exercise and in every even-numbered chapter but one."""
    if "/exercises/" in "/" + relative or relative == CHANGED_BY_LEARNER:
        return True
    return relative != ONLY_SAVED and int(Path(relative).name[:2]) % 2 == 0


@pytest.fixture(scope="module")
def clones(tmp_path_factory):
    top = tmp_path_factory.mktemp("pull")
    upstream, learner = top / "upstream", top / "learner"
    _git(top, "clone", "--quiet", str(REPO), str(upstream))
    _git(upstream, "config", "user.email", "course@example.org")
    _git(upstream, "config", "user.name", "The course")
    _git(top, "clone", "--quiet", str(upstream), str(learner))
    return upstream, learner


@pytest.fixture(scope="module")
def worked(clones, start_learners_lab, tmp_path_factory):
    """The learner's lab copies the notebooks into workspace/; every one is opened and saved."""
    upstream, learner = clones
    first = sync(learner)
    with start_learners_lab(learner, tmp_path_factory.mktemp("lab")) as (base, token):
        for relative in sources(learner):
            path = f"{WORKSPACE}/{relative.as_posix()}"
            model = _api(base, token, path)  # opened: the model with its content
            if _learner_edits(relative.as_posix()):
                cells = model["content"]["cells"]
                cells.append(nbformat.v4.new_markdown_cell(NOTE))
                ran = next(c for c in cells if c["cell_type"] == "code")  # saved after running
                ran["outputs"] = [nbformat.v4.new_output("stream", name="stdout", text=OUTPUT)]
                ran["execution_count"] = 1
            _api(base, token, path, "PUT", {"type": "notebook", "format": "json", "content": model["content"]})
    return first


def test_the_lab_saves_into_the_workspace_and_tracked_notebooks_stay_as_committed(clones, worked):
    _, learner = clones
    assert len([line for line in worked if line.startswith("copied ")]) == len(sources(learner))
    assert _git(learner, "status", "--porcelain") == "", "saving in the lab changed tracked files"
    assert NOTE in (learner / WORKSPACE / CHANGED_BY_LEARNER).read_text()


def test_a_pull_after_the_learner_worked_never_conflicts_and_keeps_their_work(clones, worked):
    upstream, learner = clones
    for relative in (CHANGED_BY_LEARNER, ONLY_SAVED):
        nb = nbformat.read(str(upstream / relative), 4)
        nb.cells.insert(1, nbformat.v4.new_markdown_cell(f"New in this version of {relative}."))
        nbformat.write(nb, str(upstream / relative))
    _git(upstream, "commit", "--quiet", "-am", "The course changes two chapters")
    pulled = subprocess.run(["git", "-C", str(learner), "pull", "--ff-only"], capture_output=True, text=True)
    assert pulled.returncode == 0 and "CONFLICT" not in pulled.stdout + pulled.stderr, pulled.stderr
    changes = sync(learner)
    workspace = learner / WORKSPACE
    kept, beside = workspace / CHANGED_BY_LEARNER, (workspace / CHANGED_BY_LEARNER).with_suffix(".new.ipynb")
    assert NOTE in kept.read_text() and "New in this version" not in kept.read_text(), "the learner's work was lost"
    assert OUTPUT.strip() in kept.read_text(), "the outputs the learner saved were lost"
    assert "New in this version" in beside.read_text()
    assert f"kept your {CHANGED_BY_LEARNER}" in "\n".join(changes)
    assert "New in this version" in (workspace / ONLY_SAVED).read_text(), "an untouched chapter was not updated"
    assert f"updated {ONLY_SAVED}" in "\n".join(changes)
    assert sync(learner) == [], "a second sync changed something again"
    assert _git(learner, "status", "--porcelain") == ""

"""Binder: the config repo2docker reads, and a simulated Binder build.

The simulation does what Binder does, without Docker: a fresh virtualenv gets
only ``binder/requirements.txt``, then ``binder/postBuild`` runs in a copy of
the repository.  In that environment the course index executes, a learner's
self-check grades an exercise, and no CUDA package is present.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import nbformat
import pytest
from stored import stored_tree

REPO = Path(__file__).resolve().parents[2]
BINDER = REPO / "binder"
# what Binder copies: the repository without local state
IGNORED = shutil.ignore_patterns(
    ".venv", ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis", "artifacts",
    "state", "submitted", "autograded", "feedback", "gradebook.db",
)


def _requirements() -> list[str]:
    lines = (BINDER / "requirements.txt").read_text().splitlines()
    return [l.strip() for l in lines if l.strip() and not l.lstrip().startswith("#")]


def test_requirements_take_the_cpu_wheel_and_not_the_project():
    lines = _requirements()
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in lines
    assert "torch==2.13.0+cpu" in lines
    for line in lines:
        if line.startswith("--"):
            continue
        assert "==" in line, f"unpinned requirement {line!r}"
        assert not line.startswith(("-e", ".")), f"{line!r} would reinstall the project (and torch) on every commit"


def test_runtime_and_postbuild():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    post = (BINDER / "postBuild").read_text().splitlines()
    assert post[0].startswith("#!")
    assert "set -e" in [l.strip() for l in post[:5]], "postBuild must start with set -e"
    assert os.access(BINDER / "postBuild", os.X_OK), "postBuild must be executable"


def test_repo2docker_accepts_the_configuration():
    exe = Path(sys.executable).parent / "jupyter-repo2docker"
    done = subprocess.run(
        [str(exe), "--no-build", "--debug", str(REPO)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dockerfile = done.stdout + done.stderr
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in dockerfile
    assert "RUN ./binder/postBuild" in dockerfile
    assert "environment for python=3.11" in dockerfile


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory):
    """A copy of the repository and a fresh venv built only from binder/ files."""
    root = tmp_path_factory.mktemp("binder")
    repo = root / "repo"
    stored_tree(repo, ignore=IGNORED)  # what git holds, as Binder builds it
    env_dir = root / "env"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "JUPYTER", "PYTHON"))}
    environ["PATH"] = f"{bin_dir}{os.pathsep}{environ.get('PATH', '')}"
    environ["HOME"] = str(root / "home")
    (root / "home").mkdir()

    def sh(*cmd, cwd=repo, check=True, timeout=900):
        done = subprocess.run(cmd, cwd=cwd, env=environ, capture_output=True, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        return done

    sh(bin_dir / "python", "-m", "pip", "install", "--quiet", "--no-compile", "--retries", "0", "--timeout", "10",
       "-r", "binder/requirements.txt")
    sh("bash", "binder/postBuild")
    return {"repo": repo, "bin": bin_dir, "sh": sh, "prefix": env_dir}


def test_no_cuda_package_in_the_binder_environment(binder_env):
    listing = binder_env["sh"](binder_env["bin"] / "python", "-m", "pip", "list", "--format=json").stdout
    packages = {p["name"].lower(): p["version"] for p in json.loads(listing)}
    assert packages["torch"].endswith("+cpu"), packages["torch"]
    cuda = sorted(n for n in packages if n.startswith(("nvidia", "triton", "cuda")))
    assert not cuda, f"CUDA packages in the learner's image: {cuda}"
    version = binder_env["sh"](
        binder_env["bin"] / "python", "-c", "import torch; print(torch.version.cuda)"
    ).stdout.strip()
    assert version == "None"


def test_nbgrader_is_kept_out_of_the_learners_image(binder_env):
    done = binder_env["sh"](binder_env["bin"] / "python", "-c", "import nbgrader", check=False)
    assert done.returncode != 0, "nbgrader (and its instructor panels) should not be in the learner's image"


def test_postbuild_settings_save_widget_state_and_silence_news(binder_env):
    overrides = binder_env["prefix"] / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings = json.loads(overrides.read_text())
    assert settings["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    page_config = binder_env["prefix"] / "share" / "jupyter" / "lab" / "settings" / "page_config.json"
    assert "@jupyter/nbgrader" in json.loads(page_config.read_text())["disabledExtensions"]
    server = binder_env["prefix"] / "etc" / "jupyter" / "jupyter_server_config.d" / "course.json"
    assert json.loads(server.read_text())["ServerApp"]["contents_manager_class"] == (
        "coursebook.lab.CourseContentsManager")
    # the self-check runs in the learner's server (autograder.learner.check_extension)
    assert json.loads(server.read_text())["ServerApp"]["jpserver_extensions"]["autograder.learner.check_extension"]


def test_the_course_index_runs_in_the_binder_environment(binder_env):
    code = (
        "from coursebook.execution import execute_notebook, stderr_outputs\n"
        "run = execute_notebook('course/00_index.ipynb')\n"
        "assert run.error is None, run.error\n"
        "assert not stderr_outputs(run.notebook), stderr_outputs(run.notebook)\n"
        "print('index ok')\n"
    )
    done = binder_env["sh"](binder_env["bin"] / "python", "-c", code)
    assert "index ok" in done.stdout


def test_a_learner_can_self_check_an_exercise(binder_env):
    repo, py = binder_env["repo"], binder_env["bin"] / "python"
    untouched = binder_env["sh"](py, "-m", "autograder", "check", "exercises/clone/clone.ipynb", check=False)
    assert untouched.returncode != 0, "an unsolved exercise must fail the self-check"
    # a learner who solved it: the solution notebook stands in for their work
    solved = repo / "exercises" / "clone" / "solved.ipynb"
    shutil.copy(repo / "solutions" / "clone" / "clone.ipynb", solved)
    done = binder_env["sh"](py, "-m", "autograder", "check", str(solved), check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

"""The learner's JupyterLab: ``python -m coursebook.lab [--port N]`` (what ``make lab`` runs).

It is the lab Binder gives, on your own machine:

* the settings in ``binder/lab-settings/`` (the same files Binder installs):
  widget state is saved with the notebook, so a reopened chapter still shows
  its memory diagrams; no "Jupyter news" pop-up;
* nbgrader's instructor interface (its menu, Create Assignment panel,
  Formgrader, Assignment List) is switched off: it is for whoever grades, not
  for the learner. The self-check cell of each exercise does not need it;
* a notebook opens exactly as the kernel is about to describe it
  (:class:`CourseContentsManager`), so opening a chapter and closing it again
  does not mark it modified;
* kernels talk to the server over unix sockets, not TCP;
* the learner works in ``workspace/`` (git-ignored), a copy of the chapters and
  exercises that :func:`coursebook.workspace.sync` brings up to date first, so
  saving never changes a tracked notebook and ``git pull`` never conflicts;
* the server runs the grader's self-check handler (enabled in ``binder/lab-settings/``), and
  warms it up as it starts (``SelfCheckApp.warm_up_at_start``), so an exercise's
  ``self_check()`` finds the grader's kernels warm;
* the server logs only warnings; the lines printed are what the sync changed
  and the address to open;
* each language's lab keeps its own JupyterLab workspace (the open tabs and
  the layout it restores, in ``workspace/.lab-workspaces-<lang>/``), so the
  Chinese lab does not reopen the English lab's chapters and start their
  kernels, nor the other way round;
* ``--lang zh`` (``make lab LANG=zh``) opens the Chinese course
  (``course/zh/00_index.ipynb``) with JupyterLab's own menus in Chinese (the
  ``jupyterlab-language-pack-zh-CN`` package, chosen in the settings the lab is
  given). What the course's code shows speaks each notebook's own language
  (:mod:`coursebook.language`): the lab sets no language for its kernels, so a
  Chinese chapter speaks Chinese and an English one English in either lab.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import secrets
import subprocess
import sys
from pathlib import Path

from ipykernel.ipkernel import IPythonKernel
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

from coursebook.workspace import WORKSPACE, sync

REPO = Path(__file__).resolve().parents[2]
SETTINGS = REPO / "binder" / "lab-settings"
INDEX = f"/lab/tree/{WORKSPACE}/course/00_index.ipynb"
INDEXES = {"en": INDEX, "zh": f"/lab/tree/{WORKSPACE}/course/zh/00_index.ipynb"}
# JupyterLab's locale for each course language (its translation extension's setting)
LAB_LOCALES = {"zh": "zh_CN"}
# the exercises' self-check answers in about a second once the server's handler is warm: the lab
# warms it as the server starts, not at the first check
WARM_SELF_CHECK = "--SelfCheckApp.warm_up_at_start=True"
# the server's side of those settings: nbgrader's server extensions off, and
# CourseContentsManager; Binder installs the same file into its environment
SERVER_CONFIG = SETTINGS / "jupyter_server_config.json"


class CourseContentsManager(AsyncLargeFileManager):
    """Jupyter's file contents manager, with one addition for notebooks.

    The course's notebooks are stored with ``language_info`` reduced to
    ``{"name": "python"}``: the full record names the exact Python version, which
    differs from one machine to the next. When a kernel starts, JupyterLab
    writes the kernel's full record into the notebook and marks it modified.
    This manager hands out a stored notebook with the record the kernel (this
    same Python, through ipykernel) will report, so nothing changes on opening.
    Saving is untouched.
    """

    async def get(self, path, content=True, type=None, format=None, require_hash=False):
        model = await super().get(path, content=content, type=type, format=format, require_hash=require_hash)
        if model.get("type") == "notebook" and model.get("content"):
            metadata = model["content"].setdefault("metadata", {})
            if metadata.get("language_info", {}) == {"name": "python"}:
                metadata["language_info"] = dict(IPythonKernel.language_info)
        return model


def course_language(value: str | None) -> str:
    """``"zh"`` for zh, zh_CN, zh_CN.UTF-8...; ``"en"`` for anything else (a LANG such as C.UTF-8)."""
    return "zh" if (value or "").strip().lower().startswith("zh") else "en"


def settings_dir(language: str, root: Path = REPO) -> Path:
    """The lab's settings: ``binder/lab-settings/`` for English; for another language a copy in
    the (git-ignored) workspace, whose overrides also pick JupyterLab's locale."""
    if language not in LAB_LOCALES:
        return SETTINGS
    target = root / WORKSPACE / f".lab-settings-{language}"
    target.mkdir(parents=True, exist_ok=True)
    for source in SETTINGS.iterdir():
        if source.name == "overrides.json":
            overrides = json.loads(source.read_text())
            overrides["@jupyterlab/translation-extension:plugin"] = {"locale": LAB_LOCALES[language]}
            (target / source.name).write_text(json.dumps(overrides, indent=2) + "\n")
        elif source.is_file():
            shutil.copyfile(source, target / source.name)
    return target


def workspaces_dir(language: str, root: Path = REPO) -> Path:
    """Where the lab of ``language`` keeps its JupyterLab workspaces (open tabs, layout): one
    folder per language, in the git-ignored workspace, so the two labs never restore each other's."""
    return root / WORKSPACE / f".lab-workspaces-{language}"


def lab_command(port: int, token: str, root: Path = REPO, language: str = "en",
                workspaces: Path | None = None) -> list[str]:
    """The ``jupyter lab`` command line of the learner's lab, in ``language`` ("en" or "zh");
    ``workspaces``: where it keeps its JupyterLab workspaces (default :func:`workspaces_dir`)."""
    command = [
        sys.executable, "-m", "jupyter", "lab", "--allow-root", "--no-browser",
        "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}", f"--LabApp.default_url={INDEXES[language]}",
        f"--LabApp.app_settings_dir={settings_dir(language, root)}",
        f"--LabApp.workspaces_dir={workspaces or workspaces_dir(language, root)}",
        "--KernelManager.transport=ipc",
        f"--config={SERVER_CONFIG}",
        "--ServerApp.log_level=WARN", "--LabApp.log_level=WARN",
    ]
    return command


def lab_environment(language: str, base=None) -> dict:
    """The server's environment (its kernels inherit it): this Python first on PATH. The language
    of what the course's code shows is each notebook's own; ``COURSEBOOK_LANG``, when the learner
    set it, overrides it in every notebook (:mod:`coursebook.language`)."""
    env = dict(os.environ if base is None else base)
    if env.get("LANG", "").lower() in ("zh", "en"):  # `make lab LANG=zh` put a bare name into the locale
        env["LANG"] = "C.UTF-8"
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursebook.lab", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8888, help="port on 127.0.0.1 (default 8888)")
    parser.add_argument("--lang", default="en",
                        help="the course's language: en (default) or zh (make lab LANG=zh)")
    args = parser.parse_args(argv)
    language = course_language(args.lang)
    token = secrets.token_hex(16)
    env = lab_environment(language)
    changes = sync(REPO)
    copied = [line for line in changes if line.startswith("copied ")]
    if copied:
        print(f"{WORKSPACE}/: copied {len(copied)} notebooks (your copies: work and save there)")
    for line in changes:
        if line not in copied:
            print(f"{WORKSPACE}/: {line}")
    print(f"The course is at http://127.0.0.1:{args.port}{INDEXES[language]}?token={token}  (Ctrl+C stops it)",
          flush=True)
    try:
        return subprocess.call([*lab_command(args.port, token, language=language), WARM_SELF_CHECK], env=env,
                               cwd=REPO)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())

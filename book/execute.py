"""Execute the chapters into a build folder and make their diagrams static (``make book``'s first half).

Steps, one function each:

* ``execute_chapters``: copy ``course/`` to ``<build>/course`` and run every
  chapter there with nbclient, the English ones (``course/``) and their
  Chinese twins (``course/zh/``) in one pool, each chapter once. Their 46
  kernels are forked from one process that imported torch, reftorch and
  ipykernel once (``coursebook.warm_kernels``, as the course tests run the
  chapters): a fresh kernel spends about 2.5 CPU seconds on those imports,
  more than half of what most chapters take. A Chinese
  chapter's kernel gets ``COURSEBOOK_LANG=zh``, as in ``make lab LANG=zh``, so
  its build-it checks speak Chinese as they do for a Chinese learner, and its
  diagrams' controls are in Chinese (``PLAYER_WORDS_ZH``). Each run
  keeps the widget state (the widgets' data:
  every step's SVG and narration). ``COURSEBOOK_PROGRESS`` points the
  build-it progress file into the build folder, so ``course/`` stays as it is;
  ``COURSEBOOK_PREDICTIONS=shown`` has the key cells of "Predict the output"
  questions print at once (see ``coursebook.key_cells``): a page takes no answer.
* ``static_diagrams``: each output that shows a ``MemoryDiagram`` widget gets
  a ``text/html`` representation built from that widget's saved state
  (``memdiagram.player_html``): the same SVGs, stepped by HTML and CSS.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from coursebook.language import LANGUAGE_VARIABLE
from coursebook.warm_kernels import WarmKernelManager, start_zygote, stop_zygote
from memdiagram import player_html

ROOT = Path(__file__).resolve().parents[1]  # book/ -> the repository
BUILD = ROOT / "_build" / "book"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# The stepping diagrams' controls on the Chinese pages (the pictures keep the widget's words).
PLAYER_WORDS_ZH = {
    "label": "内存图。选一步；左右方向键在各步之间移动。",
    "role": "分步内存图",
    "step": "步骤",
    "step_of": "第 {i} 步，共 {n} 步",
    "position": "第 {i}/{n} 步：",
    "slide": "拖动",
    "back": "\u25c0 上一步",
    "forward": "下一步 \u25b6",
}


def copy_course(build: Path = BUILD) -> Path:
    """A fresh copy of ``course/`` (notebooks and data files) in ``<build>/course``."""
    target = build / "course"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(ROOT / "course", target,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", ".progress.json*"))
    return target


def execute(path: Path, timeout: int = 180, env: dict | None = None, kernel_manager_class=None,
            player_words: dict | None = None) -> float:
    """Run one notebook in place (its folder as working directory), its kernel with the
    environment ``env`` (this process's by default) and from ``kernel_manager_class``
    (nbclient's option; a fresh kernel by default), and make its diagrams static with
    controls in ``player_words`` (``memdiagram.player_html``); seconds taken."""
    nb = nbformat.read(path, as_version=4)
    options = {} if kernel_manager_class is None else {"kernel_manager_class": kernel_manager_class}
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}}, **options)
    start = time.perf_counter()
    client.execute(**({"env": env} if env is not None else {}))
    static_diagrams(nb, player_words)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def widget_states(nb) -> dict:
    """model id -> the widget's saved state, from the executed notebook's metadata."""
    saved = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return {model_id: entry.get("state", {}) for model_id, entry in saved.items()}


def static_diagrams(nb, words: dict | None = None) -> int:
    """Give every stepping-diagram output a ``text/html`` player; how many were found."""
    states = widget_states(nb)
    found = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if not view:
                continue
            state = states.get(view.get("model_id"), {})
            if not state.get("svgs"):
                continue
            output["data"]["text/html"] = player_html(state["statements"], state["svgs"],
                                                      state.get("changes_html"), words)
            found += 1
    return found


def execute_chapters(build: Path = BUILD, workers: int = 2) -> tuple[list[Path], list[Path]]:
    """(English chapters, Chinese chapters), executed in the copy of ``course/`` in ``build``."""
    course = copy_course(build)
    os.environ["COURSEBOOK_PROGRESS"] = str(build / "progress.json")
    os.environ["COURSEBOOK_PREDICTIONS"] = "shown"  # a static page cannot take an answer: print it
    english = sorted(course.glob("[0-9][0-9]_*.ipynb"))
    chinese = sorted((course / "zh").glob("[0-9][0-9]_*.ipynb"))
    zh_env = {**os.environ, LANGUAGE_VARIABLE: "zh", "COURSEBOOK_PROGRESS": str(build / "progress-zh.json")}
    runs = [(path, None, None) for path in english] + [(path, zh_env, PLAYER_WORDS_ZH) for path in chinese]
    start_zygote()  # from this (main) thread: it dies with this process

    def run(chapter):
        return execute(chapter[0], env=chapter[1], kernel_manager_class=WarmKernelManager,
                       player_words=chapter[2])

    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for (path, _env, _words), seconds in zip(runs, pool.map(run, runs)):
                print(f"executed {path.relative_to(course)} in {seconds:.1f} s", file=sys.stderr)
    finally:
        stop_zygote()
    return english, chinese

"""Execute the chapters into a build folder and make their diagrams static.

Steps, one function each:

* ``execute_chapters``: copy ``course/`` to ``<build>/course`` and run every
  chapter there with nbclient, keeping the widget state (the widgets' data:
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

from memdiagram import player_html

ROOT = Path(__file__).resolve().parents[2]  # src/booksite -> the repository
BUILD = ROOT / "_build" / "book"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def copy_course(build: Path = BUILD) -> Path:
    """A fresh copy of ``course/`` (notebooks and data files) in ``<build>/course``."""
    target = build / "course"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(ROOT / "course", target,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", ".progress.json*"))
    return target


def execute(path: Path, timeout: int = 180) -> float:
    """Run one notebook in place (its folder as working directory); seconds taken."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    client.execute()
    static_diagrams(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def widget_states(nb) -> dict:
    """model id -> the widget's saved state, from the executed notebook's metadata."""
    saved = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return {model_id: entry.get("state", {}) for model_id, entry in saved.items()}


def static_diagrams(nb) -> int:
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
                                                      state.get("changes_html"))
            found += 1
    return found


def execute_chapters(build: Path = BUILD, workers: int = 2) -> list[Path]:
    course = copy_course(build)
    os.environ["COURSEBOOK_PROGRESS"] = str(build / "progress.json")
    os.environ["COURSEBOOK_PREDICTIONS"] = "shown"  # a static page cannot take an answer: print it
    chapters = sorted(course.glob("[0-9][0-9]_*.ipynb"))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for path, seconds in zip(chapters, pool.map(execute, chapters)):
            print(f"executed {path.name} in {seconds:.1f} s", file=sys.stderr)
    return chapters


def main(argv=None) -> int:
    start = time.perf_counter()
    chapters = execute_chapters()
    print(f"{len(chapters)} chapters executed in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    from .site import build_site

    index = build_site(chapters, BUILD / "html", sorted((ROOT / "exercises").glob("*/*.ipynb")))
    print(index)
    return 0

"""Execute course notebooks top to bottom with nbclient, as a learner's "Run all" would.

Used by the tests (every chapter must execute without error and without
unexplained warnings) and by ``tests/bench/bench_course.py`` (the course's
total execution time).  Each notebook runs in its own fresh kernel, with the
notebook's folder as the working directory; several run at once on separate
kernels when ``workers`` > 1.  The tests pass a ``kernel_manager_class`` whose
kernels are forked from a process that imported torch once
(coursebook.warm_kernels); the default is nbclient's fresh kernel.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

__all__ = ["Execution", "execute_notebook", "execute_all", "stderr_outputs", "EXPLAINED_WARNING_TAG"]

# A cell whose stderr output (a warning) is deliberate and explained in the
# text next to it carries this tag.  Any other stderr output is a test failure.
EXPLAINED_WARNING_TAG = "explained-warning"


@dataclass
class Execution:
    path: Path
    notebook: nbformat.NotebookNode
    seconds: float
    error: str | None  # None when every cell ran


def execute_notebook(path, timeout: int = 120, kernel_manager_class=None, read=None) -> Execution:
    """Run ``path`` in a new kernel, in its folder; ``kernel_manager_class`` (nbclient's option)
    defaults to jupyter_client's; ``read(path)`` gives the notebook to run (the file by default)."""
    path = Path(path)
    nb = read(path) if read else nbformat.read(path, as_version=4)
    options = {} if kernel_manager_class is None else {"kernel_manager_class": kernel_manager_class}
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        **options,
    )
    start = time.perf_counter()
    error = None
    try:
        client.execute()
    except CellExecutionError as exc:
        error = str(exc)
    return Execution(path, nb, time.perf_counter() - start, error)


def execute_all(paths, workers: int = 2, timeout: int = 120, kernel_manager_class=None,
                read=None) -> dict[Path, Execution]:
    paths = [Path(p) for p in paths]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = pool.map(lambda p: execute_notebook(p, timeout, kernel_manager_class, read), paths)
        return {r.path: r for r in results}


def stderr_outputs(nb) -> list[tuple[int, str]]:
    """(cell index, text) of every stderr stream in cells not tagged as explained."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if EXPLAINED_WARNING_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                found.append((index, output.get("text", "")))
    return found

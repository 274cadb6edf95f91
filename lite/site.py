"""Build the site, offline: the learner's wheel, the relocked Pyodide, the notebooks, ``jupyter lite build``.

The learner's wheel holds reftorch, coursebook, memdiagram and crosscheck,
never the instructor's side (autograder), plus what they read in the
browser: torch's recorded answers (:mod:`lite.record`) and the English
chapters (the prediction questions are read from them).

The notebooks are copied with two changes, and only in the copy: the kernel
is Pyodide's, and the line ``import torch`` says what stands in for it,
reftorch, since torch cannot run there (a comment on that line says so).
An exercise's checks are the instructor's side (autograder) and run on real
torch: in the copy, the first cell that imports or calls them prints instead
where they do run (Binder, or ``make lab``), with the link, and the others
say so in a comment. Its self-check, the last cell, becomes a practice
self-check (:mod:`coursebook.practice`): the learner's functions are asked,
by the grader's witness shipped in the wheel (it needs only reftorch), the
questions the visible tests asked of the course's solution when the site was
built on real torch (``autograder.learner.practice_record``), and the answers
are compared. English and Chinese exercises both.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

from lite import versions
from lite.record import record
from lite.relock import relock
from autograder.learner.practice_record import recorded as record_practice
from coursebook.practice import WITNESS   # the name autograder/witness has in the site's wheel

REPO = Path(__file__).resolve().parents[1]
STAGE = REPO / "_build" / "lite-stage"
OUT = REPO / "_build" / "lite"
LEARNER_PACKAGES = ["reftorch", "coursebook", "memdiagram", "crosscheck"]
WHEEL_NAME = "clone-or-detach-learner"
STAND_IN = {
    "en": "import reftorch as torch  # torch cannot run in the browser: reftorch stands in, "
          "and the cross-checks compare with torch's answers recorded when this site was built",
    "zh": "import reftorch as torch  # 浏览器里不能运行 torch：这里由 reftorch 代替，交叉核对对照的是构建本站时记录的 torch 的答案",
}
BINDER = "https://mybinder.org/v2/gh/tensor-copies/copy-semantics-course/main?urlpath=lab/tree/"
NOT_CHECKED_HERE = (
    "# In the browser this cell does not run: the exercise's checks run your code next to real torch.\n"
    "from coursebook.practice import checks_run_elsewhere\n"
    "checks_run_elsewhere({binder!r}, lang={lang!r})"
)
SEE_ABOVE = "# A check of this exercise: it runs on real torch, not in the browser (see the first check cell above)."
PRACTICE = (
    "# In the browser: a practice self-check against torch's answers recorded when this site was built.\n"
    "from coursebook.practice import practice_check\n"
    "practice_check({exercise!r}, globals(), lang={lang!r})"
)
KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}

PYPROJECT = """\
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = "The learner's side of the course (reftorch, coursebook, memdiagram, crosscheck), for the browser."
requires-python = ">=3.11"
dependencies = ["ipywidgets", "anywidget", "polib"]

[tool.setuptools.packages.find]
include = {packages}

[tool.setuptools.package-data]
"*" = ["*.js", "*.css", "*.po", "*.pickle", "*.ipynb", "*.json", "*.toml"]
"""


def chapters() -> list[Path]:
    return sorted((REPO / "course").glob("[0-9][0-9]_*.ipynb")) + sorted((REPO / "course" / "zh").glob("[0-9][0-9]_*.ipynb"))


def learner_wheel() -> Path:
    """Build the wheel of the learner's packages (with torch's answers and the English chapters inside)."""
    source = STAGE / "learner"
    shutil.rmtree(source, ignore_errors=True)
    for package in LEARNER_PACKAGES:
        shutil.copytree(REPO / "src" / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "torch_answers.pickle"))
    counts = record(chapters(), source / "crosscheck" / "torch_answers.pickle")
    print(f"torch's answers recorded: {counts}")
    shutil.copytree(REPO / "course", source / "coursebook" / "chapters",
                    ignore=shutil.ignore_patterns("zh", "locale", "*.md", "*.toml", ".*"))
    shutil.copytree(REPO / "autograder" / "witness", source / WITNESS,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "README.md"))
    answers = source / "coursebook" / "practice_answers"
    answers.mkdir()
    for exercise in sorted((REPO / "exercises").glob("*/*.ipynb")):
        recorded = record_practice(exercise, REPO / "solutions" / exercise.parent.name / exercise.name)
        (answers / f"{exercise.stem}.json").write_text(json.dumps(recorded), encoding="utf-8")
    print(f"practice self-check answers recorded: {len(list(answers.glob('*.json')))} exercises")
    packages = sorted({f"{p}*" for p in LEARNER_PACKAGES + [WITNESS]} | set(LEARNER_PACKAGES + [WITNESS]))
    (source / "pyproject.toml").write_text(PYPROJECT.format(name=WHEEL_NAME, packages=json.dumps(packages)))
    wheels = STAGE / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--wheel-dir", str(wheels), str(source)], check=True)
    return next(wheels.glob("*.whl"))


def notebook_for_the_browser(source: Path, dest: Path, language: str) -> None:
    notebook = json.loads(source.read_text(encoding="utf-8"))
    notebook.setdefault("metadata", {})["kernelspec"] = KERNELSPEC
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            lines = [STAND_IN[language] if line == "import torch" else line for line in text.split("\n")]
            cell["source"] = "\n".join(lines)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _names_from_autograder(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {alias.asname or alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "autograder"
            for alias in node.names}


def _uses(source: str, names: set[str]) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return any(isinstance(node, ast.Name) and node.id in names for node in ast.walk(tree))


def exercise_for_the_browser(source: Path, dest: Path, language: str) -> None:
    """The exercise as in the repository, but the first checking cell says where the checks run, and
    the self-check (the last cell) is the practice self-check."""
    notebook_for_the_browser(source, dest, language)
    notebook = json.loads(dest.read_text(encoding="utf-8"))
    binder = BINDER + source.relative_to(REPO).as_posix()
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    imported = set().union(*(_names_from_autograder(cell["source"]) for cell in code))
    told = False
    for cell in code:
        if _names_from_autograder(cell["source"]) or _uses(cell["source"], imported):
            cell["source"] = NOT_CHECKED_HERE.format(binder=binder, lang=language) if not told else SEE_ABOVE
            told = True
    if told and code[-1]["source"] == SEE_ABOVE:  # the self-check, the notebook's last cell
        code[-1]["source"] = PRACTICE.format(exercise=source.stem, lang=language)
    dest.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def contents() -> Path:
    """The files the site opens: course/, course/zh/ (with its exercises) and exercises/, as the
    repository lays them out."""
    files = STAGE / "files"
    shutil.rmtree(files, ignore_errors=True)
    for notebook in chapters():
        relative = notebook.relative_to(REPO)
        notebook_for_the_browser(notebook, files / relative, "zh" if relative.parts[1] == "zh" else "en")
    for notebook in sorted((REPO / "exercises").glob("*/*.ipynb")):
        exercise_for_the_browser(notebook, files / notebook.relative_to(REPO), "en")
    for notebook in sorted((REPO / "course" / "zh" / "exercises").glob("*/*.ipynb")):
        exercise_for_the_browser(notebook, files / notebook.relative_to(REPO), "zh")
    shutil.copy2(REPO / "exercises" / "README.md", files / "exercises" / "README.md")
    return files


def lite_dir(packages: list[str]) -> Path:
    """``jupyter lite build``'s input: its settings, Pyodide in static/pyodide, the widgets' JavaScript."""
    lite = STAGE / "lite-dir"
    labextensions = STAGE / "labextensions"
    shutil.rmtree(labextensions, ignore_errors=True)
    for name in versions.LABEXTENSIONS:
        shutil.copytree(REPO / ".venv" / "share" / "jupyter" / "labextensions" / name, labextensions / name)
    settings = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Clone or detach?",
            # window.jupyterapp, as `make lab` gives it too: what the browser test drives
            "exposeAppInBrowser": True,
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    "loadPyodideOptions": {"packages": packages},
                    "disablePyPIFallback": True,
                },
            },
        },
    }
    (lite / "static").mkdir(parents=True, exist_ok=True)
    (lite / "jupyter-lite.json").write_text(json.dumps(settings, indent=1))
    (lite / "jupyter_lite_config.json").write_text(json.dumps({
        "LiteBuildConfig": {"ignore_sys_prefix": ["federated_extensions"], "no_sourcemaps": True},
        "FederatedExtensionAddon": {"extra_labextensions_path": [str(labextensions)]},
    }, indent=1))
    return lite


def build() -> Path:
    wheel = learner_wheel()
    lite = STAGE / "lite-dir"
    shutil.rmtree(lite, ignore_errors=True)
    packages = relock(lite / "static" / "pyodide", {WHEEL_NAME: (wheel, ["ipywidgets", "anywidget", "polib"])})
    lite_dir(packages)
    files = contents()
    shutil.rmtree(OUT, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", str(lite),
                    "--contents", str(files), "--output-dir", str(OUT)], check=True, cwd=lite)
    return OUT / "index.html"

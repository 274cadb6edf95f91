"""The README is the newcomer's front door: its links, badge and commands must work."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()


def test_binder_badge_opens_the_course_index():
    badges = re.findall(r"\(https://mybinder\.org/v2/gh/[^)]+\)", README)
    assert badges, "no Binder badge"
    url = urlparse(badges[0][1:-1])
    urlpath = parse_qs(url.query)["urlpath"][0]
    assert urlpath == "lab/tree/course/00_index.ipynb"
    assert (REPO / urlpath.removeprefix("lab/tree/")).exists()


def test_every_relative_link_and_image_exists():
    targets = re.findall(r"\]\(([^)#\s]+)\)", README)
    local = [t for t in targets if "://" not in t]
    missing = [t for t in local if not (REPO / t).exists()]
    assert local and not missing, f"README links to missing files: {missing}"


def test_the_screenshot_is_a_real_png():
    image = REPO / "docs" / "images" / "memory-diagram.png"
    assert f"]({image.relative_to(REPO)})" in README
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_two_commands_are_the_makefile_targets():
    makefile = (REPO / "Makefile").read_text()
    for target in ("lab", "test", "bench", "torch-plan"):
        assert f"make {target}" in README
        assert re.search(rf"^{target}:", makefile, re.M), f"Makefile has no {target} target"
    # make lab runs the learner's lab, which opens the course index
    assert "-m coursebook.lab" in makefile.split("\nlab:", 1)[1].split("\n\n")[0]
    from coursebook.lab import INDEX  # noqa: PLC0415

    assert INDEX == "/lab/tree/workspace/course/00_index.ipynb"
    assert "workspace/" in README


def test_ci_runs_the_differential_suite_once_per_cpu_kernel_family_then_no_numpy():
    """make test runs it under the processor's own (vectorised) kernels, make test-differential
    once more under the portable ones; each family once; then reftorch's tests without numpy."""
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert "make test" in ci
    assert ci[-2:] == ["make test-differential", "make test-no-numpy"]
    assert "tests/run_without_numpy.py" in (REPO / "Makefile").read_text().split("\ntest-no-numpy:", 1)[1]
    makefile = (REPO / "Makefile").read_text()
    recipe = makefile.split("\ntest-differential:", 1)[1].split("\n\n")[0]
    capabilities = re.search(r"^DIFFERENTIAL_CAPABILITIES \?= (.*)$", makefile, re.M).group(1).split()
    assert capabilities == ["default"], capabilities
    assert "ATEN_CPU_CAPABILITY=$$capability" in recipe and "tests/differential" in recipe


def test_make_test_fast_runs_the_unit_tier():
    makefile = (REPO / "Makefile").read_text()
    recipe = makefile.split("\ntest-fast:", 1)[1].split("\n\n")[0]
    assert "-m unit" in recipe
    assert "make test-fast" in README


def test_the_instructor_commands_exist():
    from autograder.cli import build_parser  # noqa: PLC0415

    commands = set(build_parser()._subparsers._group_actions[0].choices)
    used = set(re.findall(r"python -m autograder (\w+)", README))
    assert used and used <= commands, f"README uses commands the CLI lacks: {used - commands}"


def test_the_self_check_command_checks_the_learners_own_copy():
    """Both READMEs and both index chapters tell the learner to self-check the copy `make lab`
    opened in workspace/ (the one they worked in), in their language: not the blank release, which
    always scores 0."""
    import nbformat  # noqa: PLC0415

    from coursebook.workspace import WORKSPACE, sources  # noqa: PLC0415

    def text_of(name):
        if name.endswith(".ipynb"):
            return "\n".join(c.source for c in nbformat.read(REPO / name, as_version=4).cells)
        return (REPO / name).read_text()

    copies = {f"{WORKSPACE}/{path.as_posix()}" for path in sources(REPO)}
    for name, expected_folder in (("README.md", "exercises/"), ("README.zh.md", "course/zh/exercises/"),
                                  ("course/00_index.ipynb", "exercises/"),
                                  ("course/zh/00_index.ipynb", "course/zh/exercises/")):
        text = text_of(name)
        checked = re.findall(r"python -m autograder check (\S+\.ipynb)", text)
        assert checked, f"{name} gives no self-check command"
        for path in checked:
            assert path in copies, f"{name} self-checks {path}, not a notebook make lab copies into {WORKSPACE}/"
            assert path.startswith(f"{WORKSPACE}/{expected_folder}"), f"{name} self-checks {path}"

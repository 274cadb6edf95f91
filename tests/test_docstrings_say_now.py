"""Docstrings say what the code does and why, now: no issue numbers and no dated figures in the code
(they go to docs/decisions/ and to commit messages; docs/decisions/0015)."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CODE = [REPO / "src", REPO / "autograder", REPO / "book", REPO / "lite"]
HISTORY = re.compile(r"\(issues? #?\d+(?: and \d+)*\)|\bissue #?\d+\b|\d+(?:\.\d+)? ?ms (?:→|->) ?\d")


def test_no_issue_number_or_before_and_after_figure_in_our_code():
    found = [f"{path.relative_to(REPO)}:{n}: {line.strip()}"
             for folder in CODE for path in sorted(folder.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if HISTORY.search(line)]
    assert not found, "history in the code (move it to docs/decisions/ or the commit message):\n" + "\n".join(found)

"""Where the course notebooks are (shared by the tests in this folder)."""

from pathlib import Path

COURSE = Path(__file__).resolve().parents[2] / "course"
NOTEBOOKS = sorted(COURSE.glob("*.ipynb"))
# numbered chapters, e.g. 08_clone.ipynb; the index is 00
CHAPTERS = [p for p in NOTEBOOKS if p.name[:2].isdigit()]

# the Chinese chapters, generated from NOTEBOOKS and course/locale/zh/ (coursebook.translate)
ZH_NOTEBOOKS = [COURSE / "zh" / p.name for p in NOTEBOOKS]

"""What the course's code prints to the learner speaks the learner's language (issue 27).

The messages are format strings wrapped in ``_()`` (coursebook.language); their
Chinese is src/coursebook/locale/zh/coursebook.po. A wrapped message with no
translation, or an entry whose English is no longer in the code, fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import polib

from coursebook.build_it import check
from coursebook.build_it.registry import pieces
from coursebook.language import LANGUAGE_VARIABLE, LOCALE, language

SOURCE = Path(__file__).resolve().parents[2] / "src" / "coursebook"
CATALOG = LOCALE / "zh" / "coursebook.po"


def wrapped_messages() -> dict[str, str]:
    """{message: file} for every ``_("...")`` with a literal message in src/coursebook."""
    found = {}
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found[node.args[0].value] = path.relative_to(SOURCE).as_posix()
    return found


def misconceptions() -> set[str]:
    return {case.misconception for piece in pieces() for case in piece.cases}


def test_every_wrapped_message_has_a_chinese_translation():
    catalog = {e.msgid: e.msgstr for e in polib.pofile(str(CATALOG)) if "fuzzy" not in e.flags}
    messages = wrapped_messages()
    assert len(messages) >= 8
    missing = [f"{where}: {message!r}" for message, where in messages.items() if not catalog.get(message)]
    assert not missing, "messages with no Chinese in coursebook.po:\n" + "\n".join(missing)


def test_every_catalog_entry_is_a_message_the_code_still_prints():
    known = set(wrapped_messages()) | misconceptions()
    unused = [e.msgid for e in polib.pofile(str(CATALOG)) if e.msgid not in known]
    assert not unused, f"coursebook.po holds English the code no longer prints: {unused}"


def test_a_translated_message_keeps_the_placeholders_of_its_english():
    import string

    def fields(text):
        return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)

    wrong = [e.msgid for e in polib.pofile(str(CATALOG)) if e.msgstr and fields(e.msgid) != fields(e.msgstr)]
    assert not wrong, wrong


def _not_written(shape, strides):
    raise NotImplementedError


def _always_dense(shape, strides):
    return True


def test_the_build_it_check_speaks_chinese_when_the_learner_chose_it(monkeypatch, tmp_path):
    monkeypatch.setenv("COURSEBOOK_PROGRESS", str(tmp_path / "progress.json"))
    monkeypatch.setenv(LANGUAGE_VARIABLE, "zh")
    assert language() == "zh"
    text = check("is_non_overlapping_and_dense", _not_written).text()
    assert "还没有写" in text and "NotImplementedError" in text, text
    text = check("is_non_overlapping_and_dense", _always_dense).text()
    assert "个用例中有" in text and "实际得到 True" in text, text
    monkeypatch.setenv(LANGUAGE_VARIABLE, "en")
    assert "is not written yet" in check("is_non_overlapping_and_dense", _not_written).text()

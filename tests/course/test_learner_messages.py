"""What the course's code shows the learner speaks the learner's language (issues 27 and 36).

Every string the course's code puts on screen (the build-it checks, the
prediction widget and its verdicts, the cross-check table, the memory diagrams'
labels, narration and controls, the reveal boxes, the index's table and button)
is a format string wrapped in ``_()``, or English kept as data and marked
``N_()`` where it is written (coursebook.language); the data the code shows
through ``_()`` (the misconception models' names, beliefs and refutations, the
build-it cases' misconceptions, the pieces' summaries) is listed from the
objects themselves. Their Chinese is src/coursebook/locale/zh/coursebook.po.
A shown string with no translation, or an entry whose English is no longer
shown, fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import polib

from coursebook.build_it import check
from coursebook.build_it.registry import pieces
from coursebook.language import LANGUAGE_VARIABLE, LOCALE, language, use

SOURCE = Path(__file__).resolve().parents[2] / "src"
PACKAGES = ("coursebook", "memdiagram")      # the learner's side that shows text
MARKS = ("_", "N_")
CATALOG = LOCALE / "zh" / "coursebook.po"


def marked_messages(root: Path = SOURCE) -> dict[str, str]:
    """{message: file} for every ``_("...")`` and ``N_("...")`` with a literal message (a gettext
    extraction, with Python's own parser) in the packages of ``root``."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKS
                        and node.args and isinstance(node.args[0], ast.Constant)
                        and isinstance(node.args[0].value, str)):
                    found[node.args[0].value] = path.relative_to(root).as_posix()
    return found


def wrapped_messages() -> dict[str, str]:
    return marked_messages()


def misconceptions() -> set[str]:
    return {case.misconception for piece in pieces() for case in piece.cases}


def shown_data() -> dict[str, str]:
    """{English: where} of the data the code shows through ``_()``: not literals at the call."""
    from coursebook.predict.models import MODELS

    found = {case.misconception: f"build-it case of {piece.name}" for piece in pieces() for case in piece.cases}
    found.update({piece.summary: f"summary of {piece.name}" for piece in pieces() if piece.summary})
    for model in MODELS:
        for text in (model.name, model.belief, model.refutation):
            found[text] = f"misconception model {model.name!r}"
    return found


def shown_strings() -> dict[str, str]:
    """Every string the course's code shows on screen, with where it comes from."""
    return {**marked_messages(), **shown_data()}


def untranslated(strings: dict[str, str], catalog_path: Path = CATALOG) -> list[str]:
    catalog = {e.msgid: e.msgstr for e in polib.pofile(str(catalog_path))
               if "fuzzy" not in e.flags and not e.obsolete}
    return [f"{where}: {message!r}" for message, where in strings.items() if not catalog.get(message)]


def test_every_string_shown_on_screen_has_a_chinese_translation():
    strings = shown_strings()
    assert len(strings) >= 300, len(strings)   # the widgets, the diagrams, the checks: all found
    missing = untranslated(strings)
    assert not missing, "strings shown with no Chinese in coursebook.po:\n" + "\n".join(missing)


def test_a_new_untranslated_string_fails_the_catalog_test(tmp_path):
    # a copy of the sources with one more message shown, as a change that forgot the catalog would add
    for package in PACKAGES:
        for path in (SOURCE / package).rglob("*.py"):
            target = tmp_path / path.relative_to(SOURCE)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    widget = tmp_path / "coursebook" / "predict" / "__init__.py"
    widget.write_text(widget.read_text(encoding="utf-8")
                      + '\n\ndef hint():\n    return _("Look again at the second line.")\n', encoding="utf-8")
    missing = untranslated({**marked_messages(tmp_path), **shown_data()})
    assert missing == ["coursebook/predict/__init__.py: 'Look again at the second line.'"], missing


def test_every_catalog_entry_is_a_string_the_code_still_shows():
    known = set(shown_strings())
    unused = [e.msgid for e in polib.pofile(str(CATALOG)) if e.msgid not in known]
    assert not unused, f"coursebook.po holds English the code no longer shows: {unused}"


def test_the_notebook_chooses_the_language_and_the_variable_overrides_it(monkeypatch):
    monkeypatch.delenv(LANGUAGE_VARIABLE, raising=False)
    try:
        assert language() == "en"
        use("zh")   # what a Chinese chapter's first cell says
        assert language() == "zh"
        monkeypatch.setenv(LANGUAGE_VARIABLE, "en")
        assert language() == "en"
        monkeypatch.delenv(LANGUAGE_VARIABLE)
        assert language() == "zh"
    finally:
        use("en")


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


def test_the_code_catalog_renders_the_glossary_terms_as_the_chapters_do():
    from coursebook.translate.glossary import inconsistencies, load_glossary

    glossary = Path(__file__).resolve().parents[2] / "course" / "locale" / "zh" / "glossary.toml"
    found = inconsistencies(polib.pofile(str(CATALOG)), load_glossary(glossary))
    assert not found, "inconsistent terms in coursebook.po:\n" + "\n".join(found)

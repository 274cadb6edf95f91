"""The "find your error" page says exactly what torch says, and sends the learner somewhere real.

course/errors.toml lists every error message and warning the course
explains, each with a small program; course/23_find_your_error.ipynb is
built from it (``python -m coursebook.error_page``). Here we check:

* the committed page is exactly what the TOML file builds;
* each entry's program, run on torch 2.13, raises (or warns) exactly the
  entry's message, and nothing else;
* reftorch fails in the same way, except where an entry is marked torch-only
  (and then it must still differ, so the mark cannot outlive the gap);
* every "explained in" link names a chapter of the course, and a section
  heading that exists in it.
"""

from __future__ import annotations

import re

import nbformat
import pytest

from coursebook import error_page
from course_paths import COURSE
from crosscheck.harness import import_reftorch, load_torch, run
from stored import stored_notebook

# The course's chapter files after the issue-11 restructuring. Chapters that
# are not in this branch yet are accepted by name; once they are all present
# the name check can read course/ instead.
# every chapter of the course: links on the page must name one of them
FINAL_CHAPTERS = sorted(p.name for p in COURSE.glob("[0-9][0-9]_*.ipynb"))

DATA = error_page.load()
ENTRIES = DATA["error"]
FIELDS = {"id", "group", "title", "kind", "message", "setup", "trigger", "cause", "fix", "see"}
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _ids(entry):
    return entry["id"]


def _observed(entry, trace):
    """What the program ended in: (kind, message) of its one warning or its exception."""
    if error_page.is_warning(entry):
        assert trace.exception is None, f"{entry['id']}: the program raised {trace.exception}"
        return trace.warnings
    assert not trace.warnings, f"{entry['id']}: the program also warned {trace.warnings}"
    return trace.exception


def _expected(entry, device_name=None):
    message = entry["message"]
    if device_name is not None:
        message = message.replace("cuda:0", device_name)
    kind_and_message = (entry["kind"], message)
    return [kind_and_message] if error_page.is_warning(entry) else kind_and_message


def test_entries_are_complete_unique_and_grouped():
    ids = [e["id"] for e in ENTRIES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    groups = [g["name"] for g in DATA["group"]]
    for entry in ENTRIES:
        missing = FIELDS - set(entry)
        assert not missing, f"{entry.get('id')}: missing {missing}"
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry["id"]), entry["id"]
        assert entry["group"] in groups, f"{entry['id']}: unknown group {entry['group']!r}"
        assert entry["trigger"].strip(), f"{entry['id']}: nothing triggers the message"
        for field in ("cause", "fix"):
            assert len(entry[field].split()) >= 5, f"{entry['id']}: the {field} says too little"
        assert entry["see"], f"{entry['id']}: no link to the section that explains it"
        assert entry.get("device", "cuda") == "cuda"
    assert all(any(e["group"] == g for e in ENTRIES) for g in groups), "a group without entries"


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids)
def test_torch_says_exactly_the_message(entry):
    # A GPU entry runs on torch's "meta" device, whose message differs only in the device name.
    device_name = "meta" if entry.get("device") == "cuda" else None
    trace = run(error_page.torch_program(entry), load_torch())
    assert _observed(entry, trace) == _expected(entry, device_name)


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids)
def test_reftorch_fails_the_same_way_unless_marked_torch_only(entry):
    program = error_page.torch_program(entry)
    if entry.get("device") == "cuda":
        program = error_page._text(entry["setup"]) + "\n" + error_page._text(entry["trigger"])
    trace = run(program, import_reftorch())
    if "torch_only" in entry:
        assert trace.exception != _expected(entry) and trace.warnings != _expected(entry), (
            f"{entry['id']}: reftorch now reproduces it; drop torch_only so the page replays it"
        )
    else:
        assert _observed(entry, trace) == _expected(entry)


def test_the_page_is_built_from_errors_toml():
    committed = stored_notebook(error_page.PAGE)  # git's copy: a learner may have run and saved the page
    built = error_page.build(DATA)

    def shape(nb):
        return [(c.cell_type, c.get("id"), c.source, c.metadata.get("tags", [])) for c in nb.cells]

    assert shape(committed) == shape(built), (
        "course/23_find_your_error.ipynb is not what course/errors.toml builds: "
        "run `python -m coursebook.error_page`"
    )


def test_each_entry_cell_is_replayed_on_reftorch_unless_it_cannot_be():
    for entry in ENTRIES:
        source = error_page.page_code(entry)
        replayed = source.startswith("%%key\n")
        assert replayed == ("torch_only" not in entry and entry.get("device") != "cuda"), entry["id"]
        assert error_page._text(entry["trigger"]).split("\n")[0].strip() in source.replace("reftorch.", "torch.")


def _headings(chapter):
    nb = nbformat.read(COURSE / chapter, as_version=4)
    return {
        m.group(1).strip()
        for c in nb.cells
        if c.cell_type == "markdown"
        for m in re.finditer(r"^#+ (.+)$", c.source, flags=re.M)
    }


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids)
def test_every_link_leads_to_a_chapter_and_a_section_that_exist(entry):
    for chapter, section in entry["see"]:
        assert chapter in FINAL_CHAPTERS, f"{entry['id']}: {chapter} is not a chapter of the course"
        assert chapter in DATA["chapters"], f"{entry['id']}: {chapter} has no title in [chapters]"
        if section:
            assert (COURSE / chapter).exists(), f"{entry['id']}: links a section of missing {chapter}"
            assert section in _headings(chapter), f"{entry['id']}: {chapter} has no heading {section!r}"


def test_every_relative_link_on_the_page_resolves():
    text = "\n".join(c.source for c in error_page.build(DATA).cells if c.cell_type == "markdown")
    targets = LINK.findall(text)
    assert targets
    broken = [t for t in targets if t not in FINAL_CHAPTERS and not (COURSE / t).exists()]
    assert not broken, broken
    assert set(DATA["chapters"]) <= set(FINAL_CHAPTERS)

"""``collect`` against hostile and unlucky inboxes: it refuses what is unsafe and loses nothing.

A course with the fixture assignment and the real ``clone`` and ``detach``
assignments (which share the ``self-check`` cell ids, as every real one does).
Each test builds its own inbox and collects it with the real collector; the
forged-notes test then grades, writes feedback and exports with real
nbgrader, kernels and gradebook.
"""

import copy
import csv
import datetime
import html
import json
import os
import re
import stat
import unicodedata
import zipfile

import nbformat
import pytest

from autograder.term.collect import NOTES_FILE, collect
from autograder.term.export import export_csv
from autograder.term.feedback import generate_feedback
from autograder.grade import autograde
from autograder.term.inbox import Limits
from autograder.pipeline.notes import csv_text, notes_markdown
from synthetic_course import FIXTURES, REPO, make_course, read, student_notebook, write_submission
from synthetic_course import messages as notes_of

CORRECT = "def make_copy(t):\n    return t.detach().clone()"
ODD_NAME = "<img src=z onerror=alert(4)>.ipynb"  # a notebook name is the student's text too
HUGE_ERROR = "def make_copy(t):\n    raise ValueError('x' * 3_000_000)"


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("hostile"))
    return make_course(root, {"fixture": os.path.join(FIXTURES, "fixture"),
                              "clone": os.path.join(REPO, "solutions", "clone"),
                              "detach": os.path.join(REPO, "solutions", "detach")})


@pytest.fixture
def inbox(tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def submitted(config, *parts):
    return os.path.join(config.CourseDirectory.root, "autograder", "state", "submitted", *parts)


def write_zip(path, members, when=(2024, 5, 1, 12, 0, 0)):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return path


def fixture_nb(config, **kw):
    return nbformat.writes(student_notebook(config, "fixture", **kw))


def reasons(report):
    return {entry: reason for entry, reason in report.rejected}


# -- who: ids, collisions, the roster ---------------------------------------------------------

def test_unicode_names_are_distinct_ids_and_cjk_names_are_accepted(config, inbox):
    for name in ("Zoë", "Zoé", "李雷", "Ana María"):
        write_zip(str(inbox / (name + ".zip")), {"fixture.ipynb": fixture_nb(config)})
    report = collect(config, str(inbox))
    assert not report.rejected, report.lines()
    assert sorted(s for s, _, _ in report.collected) == sorted(["Zoë", "Zoé", "李雷", "Ana_María"])
    for student in ("Zoë", "Zoé", "李雷", "Ana_María"):
        assert os.path.isfile(submitted(config, student, "fixture", "fixture.ipynb"))


def test_a_collision_is_an_error_naming_both_entries_and_replaces_nothing(config, inbox):
    write_zip(str(inbox / "dana.zip"), {"fixture.ipynb": fixture_nb(config)})
    write_submission(str(inbox / "dana"), student_notebook(config, "fixture"), "fixture.ipynb")
    write_zip(str(inbox / "Eve.zip"), {"fixture.ipynb": fixture_nb(config)})
    write_zip(str(inbox / "eve.zip"), {"fixture.ipynb": fixture_nb(config)})
    decomposed = unicodedata.normalize("NFD", "Zoë_x")  # the same name, typed on a Mac
    write_zip(str(inbox / ("Zoë_x.zip")), {"fixture.ipynb": fixture_nb(config)})
    write_zip(str(inbox / (decomposed + ".zip")), {"fixture.ipynb": fixture_nb(config)})
    report = collect(config, str(inbox))
    why = reasons(report)
    assert not report.collected, report.lines()
    assert "collides with 'dana.zip'" in why["dana"] and "collides with 'dana'" in why["dana.zip"]
    assert "collides with 'eve.zip'" in why["Eve.zip"] and "collides with 'Eve.zip'" in why["eve.zip"]
    assert len([e for e in why if "Zo" in e]) == 2
    for student in ("dana", "Eve", "eve", "Zoë_x"):
        assert not os.path.exists(submitted(config, student))


def test_a_name_colliding_with_an_earlier_submission_only_by_case_is_refused(config, inbox, tmp_path):
    first = tmp_path / "first"
    first.mkdir()
    write_zip(str(first / "Frank.zip"), {"fixture.ipynb": fixture_nb(config, solved="all")})
    assert collect(config, str(first)).collected
    before = open(submitted(config, "Frank", "fixture", "fixture.ipynb"), "rb").read()
    write_zip(str(inbox / "frank.zip"), {"fixture.ipynb": fixture_nb(config)})
    report = collect(config, str(inbox))
    assert "collides with the earlier submission folder 'Frank'" in reasons(report)["frank.zip"]
    assert open(submitted(config, "Frank", "fixture", "fixture.ipynb"), "rb").read() == before
    assert not os.path.exists(submitted(config, "frank"))


def test_with_a_roster_ids_come_from_the_roster(config, inbox, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,first_name,last_name,email\nasmith,Alice,Smith,alice@uni.example\n"
                      "bob42,Bob,Jones,bob@uni.example\n")
    write_zip(str(inbox / "Smith, Alice.zip"), {"fixture.ipynb": fixture_nb(config)})
    write_zip(str(inbox / "bob@uni.example.zip"), {"fixture.ipynb": fixture_nb(config)})
    write_zip(str(inbox / "mallory.zip"), {"fixture.ipynb": fixture_nb(config)})
    report = collect(config, str(inbox), roster=str(roster))
    assert sorted(s for s, _, _ in report.collected) == ["asmith", "bob42"]
    assert reasons(report) == {"mallory.zip": "not on the roster"}


# -- what: links, bombs, sizes ------------------------------------------------------------------

def test_symbolic_and_hard_links_and_fifos_are_refused_not_followed(config, inbox, tmp_path):
    secret = tmp_path / "secret.ipynb"
    secret.write_text(fixture_nb(config, solved="all"))  # someone else's work
    (inbox / "gina").mkdir()
    os.symlink(secret, inbox / "gina" / "fixture.ipynb")
    os.symlink(tmp_path, inbox / "hank")  # the entry itself is a link to a folder
    (inbox / "ivan").mkdir()
    os.link(secret, inbox / "ivan" / "fixture.ipynb")
    (inbox / "jill").mkdir()
    os.mkfifo(inbox / "jill" / "fixture.ipynb")  # reading it would hang
    link = zipfile.ZipInfo("fixture.ipynb")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(inbox / "kate.zip", "w") as archive:
        archive.writestr(link, str(secret))
    report = collect(config, str(inbox))
    why = reasons(report)
    assert not report.collected, report.lines()
    assert "symbolic link" in why["gina: fixture.ipynb"]
    assert "symbolic link" in why["hank"]
    assert "hard link" in why["ivan: fixture.ipynb"]
    assert "not a regular file" in why["jill: fixture.ipynb"]
    assert "symbolic link" in why["kate.zip: fixture.ipynb"]
    for student in ("gina", "hank", "ivan", "jill", "kate"):
        assert not os.path.exists(submitted(config, student))


def test_a_zip_bomb_is_refused_before_anything_is_extracted(config, inbox):
    bomb = inbox / "bomber.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("fixture.ipynb", "w", force_zip64=True) as member:
            chunk = b"\0" * 2 ** 20
            for _ in range(512):
                member.write(chunk)
    assert os.path.getsize(bomb) < 1_000_000  # about 514 KB that unpack to 512 MiB
    many = {"f%04d.txt" % i: "" for i in range(1001)}
    many["fixture.ipynb"] = fixture_nb(config)
    write_zip(str(inbox / "crowded.zip"), many)
    report = collect(config, str(inbox))
    why = reasons(report)
    assert "would unpack to 536870912 bytes, over the limit of 104857600 (a zip bomb?)" in why["bomber.zip"]
    assert "1002 files, over the limit of 1000" in why["crowded.zip"]
    assert not report.collected and not os.path.exists(submitted(config, "bomber"))


def test_zip_slip_oversized_and_overlong_notebooks_are_refused(config, inbox):
    write_zip(str(inbox / "slip.zip"), {"../../fixture.ipynb": fixture_nb(config)})
    big = student_notebook(config, "fixture", replace={"make_copy": CORRECT + "\n# " + "x" * 300_000})
    write_submission(str(inbox / "big"), big, "fixture.ipynb")
    long = student_notebook(config, "fixture", solved="all")
    long.cells += [nbformat.v4.new_code_cell("pass") for _ in range(20)]
    write_submission(str(inbox / "long"), long, "fixture.ipynb")
    report = collect(config, str(inbox), limits=Limits(max_notebook_bytes=200_000, max_cells=20))
    why = reasons(report)
    assert "unsafe path in zip: '../../fixture.ipynb'" in why["slip.zip"]
    assert "over the limit of 200000" in why["big: fixture.ipynb"]
    assert "28 cells, over the limit of 20" in why["long: fixture.ipynb"]
    assert not report.collected


# -- when: timestamps -----------------------------------------------------------------------------

def _stamp(config, student):
    with open(submitted(config, student, "fixture", "timestamp.txt")) as f:
        return f.read()


def test_timestamps_come_from_the_inbox_not_from_backdated_zip_members(config, inbox):
    path = write_zip(str(inbox / "late.zip"), {"fixture.ipynb": fixture_nb(config)},
                     when=(2001, 1, 1, 0, 0, 0))
    handed_in = datetime.datetime(2025, 3, 2, 8, 30, tzinfo=datetime.timezone.utc).timestamp()
    os.utime(path, (handed_in, handed_in))
    assert collect(config, str(inbox)).collected
    assert _stamp(config, "late") == "2025-03-02 08:30:00.000000 UTC"


def test_a_manifest_gives_the_times_and_lists_every_entry(config, inbox, tmp_path):
    write_zip(str(inbox / "mona.zip"), {"fixture.ipynb": fixture_nb(config)}, when=(2001, 1, 1, 0, 0, 0))
    write_zip(str(inbox / "ned.zip"), {"fixture.ipynb": fixture_nb(config)})
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("file,student,timestamp\nmona.zip,,2025-03-01T23:59:00+01:00\n"
                        "olga.zip,olga,2025-03-01T12:00:00\n")
    report = collect(config, str(inbox), manifest=str(manifest))
    assert [s for s, _, _ in report.collected] == ["mona"]
    assert _stamp(config, "mona") == "2025-03-01 22:59:00.000000 UTC"
    assert reasons(report) == {"ned.zip": "not in the manifest",
                               "olga.zip": "in the manifest but not in the inbox"}


# -- which assignment: two notebooks in one entry, renamed notebooks ------------------------------

def _release(config, assignment):
    return nbformat.writes(read(config, "exercises", assignment))


def test_two_notebooks_for_one_assignment_are_reported_never_misfiled(config, inbox):
    detach = _release(config, "detach")
    old = nbformat.writes(student_notebook(config, "clone"))
    new = nbformat.writes(student_notebook(config, "clone", solved="all"))
    members = {"clone.ipynb": old, "detach.ipynb": detach}
    with zipfile.ZipFile(inbox / "pat.zip", "w") as archive:
        for name, data in members.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2025, 1, 1, 9, 0, 0)), data)
        archive.writestr(zipfile.ZipInfo("clone (1).ipynb", date_time=(2025, 1, 2, 9, 0, 0)), new)
    report = collect(config, str(inbox))
    assert report.collected == [("pat", "detach", "")]
    assert ("2 notebooks for clone ('clone.ipynb', 'clone (1).ipynb'); choose with --pick newest "
            "or --pick ask") == reasons(report)["pat.zip"]
    with open(submitted(config, "pat", "detach", "detach.ipynb")) as f:
        assert f.read() == detach  # the renamed clone was not filed as detach

    report = collect(config, str(inbox), pick="newest")
    assert sorted(a for _, a, _ in report.collected) == ["clone", "detach"]
    with open(submitted(config, "pat", "clone", "clone.ipynb")) as f:
        assert f.read() == new
    with open(submitted(config, "pat", "clone", NOTES_FILE)) as f:
        assert "the newest, 'clone (1).ipynb', was graded" in json.load(f)[1]

    asked = []
    report = collect(config, str(inbox), pick="ask",
                     ask=lambda entry, a, names: asked.append((entry, a, names)) or 0)
    assert asked == [("pat.zip", "clone", ["clone.ipynb", "clone (1).ipynb"])]
    with open(submitted(config, "pat", "clone", "clone.ipynb")) as f:
        assert f.read() == old


def test_renamed_notebooks_match_only_on_cell_ids_unique_to_one_assignment(config, inbox):
    only_shared = nbformat.v4.new_notebook(cells=[
        c for c in read(config, "exercises", "clone").cells
        if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("self-check")])
    for cell in only_shared.cells:
        cell.id = cell.id[::-1]  # the shared grade ids stay, the notebook cell ids differ
    write_zip(str(inbox / "quinn.zip"), {"Untitled.ipynb": _release(config, "detach"),
                                         "Untitled1.ipynb": nbformat.writes(only_shared)})
    report = collect(config, str(inbox))
    assert report.collected == [("quinn", "detach", "renamed from 'Untitled.ipynb'")]
    assert report.notes == [("quinn.zip", "'Untitled1.ipynb' was not matched to any assignment; "
                                          "not collected")]


# -- never trusted: forged notes and metadata, shown escaped ---------------------------------------

@pytest.fixture(scope="module")
def forged(config, tmp_path_factory, needs_sandbox):
    inbox = tmp_path_factory.mktemp("forged-inbox")
    nb = student_notebook(config, "fixture", replace={"make_copy": CORRECT})
    nb.metadata["autograder"] = {"messages": ["<img src=x onerror=alert(1)> instructor approved: 100%"]}
    fake_notes = nbformat.v4.new_markdown_cell("**Autograder notes**\n\n- <img src=y onerror=alert(2)>",
                                               metadata={"autograder_notes": True})
    nb.cells.insert(0, fake_notes)
    nb.cells.append(nbformat.v4.new_code_cell("<script>alert(3)</script>"))
    write_zip(str(inbox / "rita.zip"), {
        "fixture.ipynb": nbformat.writes(nb),
        NOTES_FILE: json.dumps(["instructor approved: full marks"]),
        "helper.py": "print('never imported')"})
    odd = student_notebook(config, "fixture", replace={"make_copy": CORRECT})
    write_zip(str(inbox / "sam.zip"), {ODD_NAME: nbformat.writes(odd)})
    huge = student_notebook(config, "fixture", replace={"make_copy": HUGE_ERROR})
    write_zip(str(inbox / "tom.zip"), {"fixture.ipynb": nbformat.writes(huge)})
    report = collect(config, str(inbox), "fixture")
    assert sorted(s for s, _, _ in report.collected) == ["rita", "sam", "tom"], report.lines()
    run = autograde(config, "fixture", ["rita", "sam", "tom"], workers=1, progress=False)
    assert run.graded == ["rita", "sam", "tom"] and not run.failed
    assert generate_feedback(config, ["fixture"]) == {"fixture": True}
    table = os.path.join(config.CourseDirectory.root, "grades.csv")
    export_csv(config, table)
    with open(table, encoding="utf-8") as f:
        rows = {r["student_id"]: r for r in csv.DictReader(f) if r["assignment"] == "fixture"}
    pages = {}
    for student in ("rita", "sam", "tom"):
        folder = os.path.join(config.CourseDirectory.root, "autograder", "state", "feedback", student, "fixture")
        assert os.listdir(folder) == ["fixture.html"]
        with open(os.path.join(folder, "fixture.html"), encoding="utf-8") as f:
            pages[student] = f.read()
    return rows, pages


def _text(page):
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_forged_notes_and_metadata_never_reach_the_student_or_the_csv(config, forged):
    rows, pages = forged
    text = notes_of(config, "rita", "fixture")
    assert "instructor approved" not in text and "onerror" not in text
    assert "instructor approved" not in rows["rita"]["messages"]
    assert "instructor approved" not in _text(pages["rita"]) and "onerror" not in pages["rita"]
    assert "the notebook carried autograder metadata of its own; it was removed" in text
    assert "left out: collect_notes.json, helper.py" in text
    assert float(rows["rita"]["score"]) == 5  # the forgery gained nothing and cost nothing


def test_student_text_quoted_in_notes_is_shown_escaped(config, forged):
    rows, pages = forged
    assert "<script>alert(3)</script>" not in pages["rita"]
    assert "cell 10 ('<script>alert(3)</script>')" in _text(pages["rita"])
    assert "<img src=z" not in pages["sam"]
    assert "submitted under another name ('%s')" % ODD_NAME in _text(pages["sam"])
    assert "'%s'" % ODD_NAME in rows["sam"]["messages"]


def test_notes_are_plain_markdown_and_csv_fields_never_formulas():
    shown = notes_markdown(["[click](javascript:alert(1)) <img src=x> *bold* `code`\n# heading"])
    assert "<img" not in shown and "](" not in shown and "\n#" not in shown
    assert shown.endswith(r"\[click\]\(javascript\:alert\(1\)\) &lt;img src\=x&gt; \*bold\* \`code\` "
                          r"\# heading")
    assert csv_text("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")"
    assert csv_text("-1+2") == "'-1+2" and csv_text("fine") == "fine" and csv_text(3.5) == 3.5


def test_a_huge_error_is_cut_as_it_arrives_and_still_scores_zero(config, forged):
    rows, pages = forged
    assert float(rows["tom"]["score"]) == 0
    graded = os.path.join(config.CourseDirectory.root, "autograder", "state", "autograded", "tom", "fixture",
                          "fixture.ipynb")
    assert os.path.getsize(graded) < 300_000  # four 3 MB errors, each with a traceback, uncut
    errors = [o for c in nbformat.read(graded, as_version=4).cells for o in c.get("outputs", [])
              if o.output_type == "error"]
    assert len(errors) == 4 and {o.ename for o in errors} == {"ValueError"}
    assert all("cut by the autograder: 3000000 characters" in o.evalue for o in errors)
    assert "ValueError" in _text(pages["tom"])


def test_truncation_keeps_an_errors_name_and_a_results_number():
    from autograder.pipeline.output_budget import OutputBudget
    from autograder.pipeline.truncate import TruncateOutputs

    cell = nbformat.v4.new_code_cell("", outputs=[
        nbformat.v4.new_output("error", ename="E" * 500, evalue="v" * 50_000,
                               traceback=["line %d " % i + "t" * 5_000 for i in range(100)]),
        nbformat.v4.new_output("execute_result", execution_count=1, data={
            "text/plain": "0." + "5" * 20_000, "text/html": "<b>" * 10_000, "image/png": "A" * 20_000}),
        nbformat.v4.new_output("execute_result", execution_count=1, data={"text/plain": "y" * 20_000})])
    cutter = TruncateOutputs(budget=OutputBudget(max_chars=1_000, max_rich_chars=5_000))  # a plot under 5_000 would stay
    cutter.truncate_cell(cell)
    once = copy.deepcopy(cell)
    assert cutter.truncate_cell(cell) == once  # as each cell ends, then again after the run
    error, number, text = cell.outputs
    assert error.output_type == "error" and error.ename.startswith("E" * 200) and len(error.ename) < 300
    assert len(error.evalue) < 1_100 and sum(map(len, error.traceback)) < 2_500
    assert number.data == {"text/plain": "0.5555555555555556"}  # same partial credit
    assert text.data["text/plain"].startswith("y" * 1_000) and len(text.data["text/plain"]) < 1_100


# -- any file: deep nesting, malformed JSON, terminal escapes in names ------------------------------

def test_a_deeply_nested_notebook_is_reported_and_skipped_and_the_rest_of_the_class_is_collected(
        config, inbox):
    deep_lists = "[" * 100_000 + "]" * 100_000  # json.loads raises RecursionError
    nested = json.loads(fixture_nb(config))
    value = {}
    nested["metadata"]["deep"] = value
    for _ in range(200):  # parses, but is no notebook: nbformat and nbgrader recurse on it
        value["x"] = value = {}
    write_zip(str(inbox / "una.zip"), {"fixture.ipynb": deep_lists})
    (inbox / "vic").mkdir()
    (inbox / "vic" / "fixture.ipynb").write_text(json.dumps(nested))
    (inbox / "vic" / "clone.ipynb").write_text(nbformat.writes(student_notebook(config, "clone")))
    write_zip(str(inbox / "wes.zip"), {"fixture.ipynb": fixture_nb(config)})
    write_zip(str(inbox / "xia.zip"), {"fixture.ipynb": "{not json"})
    report = collect(config, str(inbox))
    assert sorted((s, a) for s, a, _ in report.collected) == [("vic", "clone"), ("wes", "fixture")], \
        report.lines()
    said = reasons(report)
    assert "not valid JSON" in said["xia.zip: fixture.ipynb"]
    assert "deeper than 64 levels" in said["una.zip: fixture.ipynb"]
    assert "deeper than 64 levels" in said["vic: fixture.ipynb"]
    assert not os.path.exists(submitted(config, "una"))
    assert not os.path.exists(submitted(config, "vic", "fixture"))


def test_a_malformed_notebook_is_reported_and_skipped_and_the_good_one_beside_it_collected(config, inbox, request):
    write_zip(str(inbox / "yan.zip"), {"fixture.ipynb": "{\"cells\": [" * 3})
    write_zip(str(inbox / "yaz.zip"), {"fixture.ipynb": "[1, 2]"})
    write_zip(str(inbox / "zed.zip"), {"fixture.ipynb": fixture_nb(config, replace={"make_copy": CORRECT})})
    report = collect(config, str(inbox), "fixture")
    assert sorted(s for s, _, _ in report.collected) == ["zed"], report.lines()
    said = "\n".join(report.lines())
    assert "yan.zip: fixture.ipynb" in said and "not valid JSON" in said, said
    assert "yaz.zip: fixture.ipynb" in said and "not a notebook" in said, said
    assert not os.path.exists(submitted(config, "yan")) and not os.path.exists(submitted(config, "yaz"))
    request.getfixturevalue("needs_sandbox")  # collecting needs no sandbox; grading the good one does
    run = autograde(config, "fixture", ["zed"], workers=1, progress=False)
    assert run.graded == ["zed"] and not run.failed, run.failed
    from synthetic_course import scores
    assert sum(scores(config, "fixture")["zed"].values()) == 5


def test_file_names_with_terminal_escape_codes_are_printed_escaped(config, inbox):
    import subprocess
    import sys

    odd = "\x1b]0;owned\x07\x1b[2J\u202eevil"
    (inbox / (odd + ".zip")).write_bytes(b"not a zip")
    write_zip(str(inbox / "ada.zip"), {odd + ".ipynb": fixture_nb(config), "notes\x1b[31m.txt": "x"})
    shown = subprocess.run([sys.executable, "-m", "autograder", "--root", config.CourseDirectory.root,
                            "collect", str(inbox)], capture_output=True, timeout=300)
    out = shown.stdout.decode("utf-8")
    assert b"\x1b" not in shown.stdout and b"\x07" not in shown.stdout and "\u202e" not in out, out
    assert "skipped \\x1b]0;owned\\x07\\x1b[2J\\u202eevil.zip: not a usable zip file" in out, out
    assert "collected 1 submission(s), skipped 1" in out, out

"""Honest accidents are graded fairly: correct notebooks a careless student mangled score full marks.

A course with the tiny fixture assignment and the real ``clone`` assignment.
Each careless student hands in a *correct* notebook after an accident:
duplicated cells, deleted cells (tests included), all nbgrader metadata lost
(a copy through another editor), even cell ids lost, cells added, points
"raised" in the metadata.  The whole class is collected from an inbox and
graded through the command line (``python -m autograder collect`` and
``autograde``: real nbgrader, real kernels, real gradebook); every one must get
full marks, with a note naming what was repaired.  The learner's self-check
must say the same of the same notebooks, with the release's points, and must
stop a loop that swallows the interrupt.  Finally, a notebook whose grading
raises anyway gets 0 with a reason, feedback, and a kept traceback.
"""

import base64
import copy
import functools
import html
import json
import os
import re
import shutil
import subprocess

import nbformat
import pytest
from nbgrader.coursedir import CourseDirectory
from nbgrader.converters import Autograde
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.course import course_config
from autograder.kernels.grading_kernels import stop_zygote
from autograder.pipeline.failsafe import LOG_FILE
from autograder.term.feedback import generate_feedback
from autograder.learner.learner_check import check
from synthetic_course import (run_cli, FIXTURES, REPO, grade_id, make_course, read, scores, student_notebook,
                              write_submission)
from synthetic_course import messages as notes_of

LOOP_IGNORING_INTERRUPTS = ("import time\nwhile True:\n    try:\n        time.sleep(0.1)\n"
                            "    except KeyboardInterrupt:\n        pass")


cli = run_cli


def max_points(config, assignment, folder="solutions"):
    return sum(c.metadata["nbgrader"]["points"] for c in read(config, folder, assignment).cells
               if c.metadata.get("nbgrader", {}).get("grade"))


def _copy_of(cell, new_id):
    twin = copy.deepcopy(cell)
    twin["id"] = new_id
    return twin


def _index(nb, gid):
    return [grade_id(c) for c in nb.cells].index(gid)


def strip_metadata(nb, ids=True):
    """What a notebook looks like after an editor that keeps no nbgrader metadata."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        cell.metadata = {}
        if not ids:
            cell.pop("id", None)
    if not ids:
        nb.nbformat_minor = 4
    return nb


def careless_fixture_notebooks(config):
    good = student_notebook(config, "fixture", solved="all")
    out = {"Zoë": good}  # the same correct notebook, under a Unicode name

    nb = student_notebook(config, "fixture")  # duplicates: the answer written in the copy
    at = _index(nb, "make_copy")
    solved = _copy_of(good.cells[at], "c0ffee01")
    nb.cells.insert(at + 1, solved)
    at_test = _index(nb, "test_values")
    nb.cells.insert(at_test + 1, _copy_of(nb.cells[at_test], "c0ffee02"))
    nb.cells.append(_copy_of(nb.cells[0], "c0ffee03"))
    out["duplicated"] = nb

    nb = copy.deepcopy(good)  # tests and a locked markdown cell deleted
    nb.cells = [c for c in nb.cells if grade_id(c) not in ("test_values", "test_reftorch", "intro")]
    out["deleted"] = nb

    out["stripped"] = strip_metadata(good)
    out["stripped_no_ids"] = strip_metadata(good, ids=False)

    nb = copy.deepcopy(good)  # a scratch cell and a note of their own
    nb.cells.insert(_index(nb, "test_values"), nbformat.v4.new_code_cell("print(make_copy)"))
    nb.cells.append(nbformat.v4.new_markdown_cell("My notes: clone() keeps the graph."))
    out["added_cells"] = nb

    nb = copy.deepcopy(good)  # claims 100 points for a 1-point test
    nb.cells[_index(nb, "test_values")].metadata["nbgrader"]["points"] = 100
    out["claims_points"] = nb
    out.update(file_variants(good))
    return out


def file_variants(nb):
    """``{student: bytes}``: one correct notebook saved the ways other tools save it.

    Each opens in JupyterLab without complaint (its server's contents manager reads it; checked
    below), except ``bom``, which only other editors write (the server refuses it) and which is
    graded all the same.
    """
    plain = json.loads(nbformat.writes(nb))
    out = {"bom": b"\xef\xbb\xbf" + json.dumps(plain, indent=1).encode(),
           "crlf": json.dumps(plain, indent=1).replace("\n", "\r\n").encode(),
           "one_line": json.dumps(plain, ensure_ascii=False, separators=(",", ":")).encode()}
    as_string = copy.deepcopy(plain)
    for cell in as_string["cells"]:
        cell["source"] = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    out["source_string"] = json.dumps(as_string).encode()
    as_lines = copy.deepcopy(plain)
    for cell in as_lines["cells"]:
        cell["source"] = "".join(cell["source"]).splitlines(True)
    out["source_lines"] = json.dumps(as_lines, indent=4).encode()
    for minor in (0, 2, 4):  # before 4.5 cells had no ids
        old = copy.deepcopy(plain)
        old["nbformat_minor"] = minor
        for cell in old["cells"]:
            cell.pop("id", None)
        out["minor%d" % minor] = json.dumps(old).encode()
    bare = copy.deepcopy(plain)  # no kernelspec, language_info or attachments
    bare["metadata"] = {}
    for cell in bare["cells"]:
        cell.pop("attachments", None)
    out["no_optional_fields"] = json.dumps(bare).encode()
    return out


def careless_clone_notebooks(config):
    good = student_notebook(config, "clone", solved="all")
    nb = strip_metadata(good, ids=False)  # no metadata, no ids: matched by text and position
    try_cell = [i for i, c in enumerate(good.cells) if not c.metadata.get("nbgrader")][0]
    nb.cells[try_cell].source += "\nprint('my own experiment')"
    out = {"clone_stripped": nb}

    nb = copy.deepcopy(good)  # answer duplicated, a test and its heading deleted
    at = _index(nb, "clone-solution")
    nb.cells.insert(at, _copy_of(nb.cells[at], "c0ffee04"))
    nb.cells = [c for c in nb.cells if grade_id(c) not in ("clone-strides", "clone-strides-md")]
    out["clone_mixed"] = nb
    return out


# -- notebooks from other tools: each a correct notebook, saved as another tool saves it -------------

# a screenshot pasted into a markdown cell: about 400 KB of base64, twice the text an exercise may hold
SCREENSHOT = base64.b64encode(bytes(range(256)) * 1200).decode()
PRINTOUT_BYTES = 21 * 2 ** 20   # a printout over the 20 MiB limit: the file is, the graded notebook is not


def _plain(nb):
    return json.loads(nbformat.writes(nb))


def _colab(data, keep_nbgrader=True):
    """What Colab makes of a notebook: nbformat 4.0 without cell ids, its own ids and output ids in
    each cell's metadata, its notebook metadata, the outputs of a run; a screenshot pasted into a
    new text cell (a data URI), and another the JupyterLab way (a cell attachment)."""
    data = copy.deepcopy(data)
    data["nbformat_minor"] = 0
    data["metadata"] = {"colab": {"provenance": [], "toc_visible": True},
                        "kernelspec": {"name": "python3", "display_name": "Python 3"},
                        "language_info": {"name": "python"}, "accelerator": "GPU"}
    for n, cell in enumerate(data["cells"]):
        cell.pop("id", None)
        meta = cell["metadata"] if keep_nbgrader else {}
        meta["id"] = "Zq%06dXy" % n
        if cell["cell_type"] == "code":
            meta["colab"] = {"base_uri": "https://localhost:8080/"}
            meta["outputId"] = "9f1c%04d-5a1e-4c1b-8b1e-2f1e5b7d%04d" % (n, n)
            cell["execution_count"] = n + 1
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["ran\n"]}]
        cell["metadata"] = meta
    first_answer = next(n for n, c in enumerate(data["cells"]) if c["cell_type"] == "code") + 1
    data["cells"][first_answer:first_answer] = [
        {"cell_type": "markdown", "metadata": {"id": "shot1"},
         "source": ["What I saw:\n", "![image.png](data:image/png;base64,%s)" % SCREENSHOT]},
        {"cell_type": "markdown", "metadata": {"id": "shot2"},
         "attachments": {"image.png": {"image/png": SCREENSHOT}}, "source": ["![image.png](attachment:image.png)"]}]
    return data


def _windows(data):
    """What an older JupyterLab on Windows saved: nbformat 4.4 (no cell ids), every line of every
    cell ending in \\r\\n, and the file's own lines too."""
    data = copy.deepcopy(data)
    data["nbformat_minor"] = min(data.get("nbformat_minor", 4), 4)
    for cell in data["cells"]:
        cell.pop("id", None)
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        cell["source"] = [line.replace("\n", "\r\n") for line in text.splitlines(True)]
    return json.dumps(data, indent=1).replace("\n", "\r\n").encode()


def _printout(data):
    """A run that printed more than 20 MiB into the first code cell's output."""
    data = copy.deepcopy(data)
    cell = next(c for c in data["cells"] if c["cell_type"] == "code")
    line = "0.1234567 " * 9 + "\n"
    cell["outputs"] = [{"output_type": "stream", "name": "stdout",
                        "text": line * (PRINTOUT_BYTES // len(line) + 1)}]
    return data


def _minor4(data):
    data = copy.deepcopy(data)
    data["nbformat_minor"] = 4
    for cell in data["cells"]:
        cell.pop("id", None)
    return json.dumps(data).encode()


def other_tools(nb, prefix):
    """``{student: bytes}``: the correct notebook ``nb`` as other tools save it (see TWINS)."""
    plain = _plain(nb)
    return {prefix + "_colab": json.dumps(_colab(plain)).encode(),
            prefix + "_printout": json.dumps(_printout(plain)).encode(),
            prefix + "_windows": _windows(plain),
            prefix + "_minor4": _minor4(plain),
            prefix + "_windows_colab": _windows(_printout(_colab(plain, keep_nbgrader=False)))}


# what each of them may be told, besides nothing: every note must be true (no locked cell was edited)
ADDED = "cells you added are not part of the assignment and were not run"
LEFT_OUT = "with its outputs and embedded images; they were left out"
LOST = "lost its nbgrader metadata"
TOLD = {"_colab": {ADDED}, "_printout": {LEFT_OUT}, "_windows": set(), "_minor4": set(),
        "_windows_colab": {ADDED, LEFT_OUT, LOST}}


def careless_bank(config):
    """``{assignment: {student: bytes}}``; every student's clean twin is the solved release."""
    out = {}
    for assignment, prefix in (("fixture", "fx"), ("clone", "cl")):
        out[assignment] = other_tools(student_notebook(config, assignment, solved="all"), prefix)
    nb = student_notebook(config, "clone", solved="all")   # a half-typed line in the "try it" cell
    try_cell = [c for c in nb.cells if c.cell_type == "code" and not c.metadata.get("nbgrader")][0]
    try_cell.source += "\nprint(b.shape"
    out["clone"]["cl_try_typo"] = nbformat.writes(nb).encode()
    return out


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("careless"))
    config = make_course(root, {"fixture": os.path.join(FIXTURES, "fixture"),
                                "clone": os.path.join(REPO, "solutions", "clone")})
    return config, root


@pytest.fixture(scope="module")
def notebooks(course):
    config, _ = course
    bank = careless_bank(config)
    return {"fixture": dict(careless_fixture_notebooks(config), **bank["fixture"]),
            "clone": dict(careless_clone_notebooks(config), **bank["clone"])}


@pytest.fixture(scope="module")
def graded(course, notebooks, tmp_path_factory, needs_sandbox):
    config, root = course
    inbox = str(tmp_path_factory.mktemp("inbox"))
    for assignment, group in notebooks.items():
        for student, nb in group.items():
            write_submission(os.path.join(inbox, student), nb, assignment + ".ipynb")
    collected = cli(root, "collect", inbox).stdout
    assert "skipped 0" in collected, collected
    out = cli(root, "autograde", "--workers", "2", "--no-progress").stdout
    return {a: scores(config, a) for a in notebooks}, out


def test_every_careless_notebook_scores_full_marks_in_the_grader(course, notebooks, graded):
    config, _ = course
    table, output = graded
    for assignment, group in notebooks.items():
        full = max_points(config, assignment)
        for student in group:
            got = table[assignment][student]
            assert sum(got.values()) == full, (assignment, student, got, output)
            assert len(got) == sum(1 for c in read(config, "solutions", assignment).cells
                                   if c.metadata.get("nbgrader", {}).get("grade"))


def test_every_notebook_file_jupyterlab_opens_is_collected_and_graded_with_full_marks(course, notebooks,
                                                                                     graded, tmp_path):
    from jupyter_server.services.contents.filemanager import FileContentsManager

    config, _ = course
    table, output = graded
    variants = file_variants(student_notebook(config, "fixture", solved="all"))
    contents = FileContentsManager(root_dir=str(tmp_path))
    for student, data in variants.items():
        (tmp_path / (student + ".ipynb")).write_bytes(data)
        if student != "bom":  # JupyterLab's server opens it, and says nothing about it
            assert "message" not in contents.get(student + ".ipynb") or \
                not contents.get(student + ".ipynb")["message"], student
        assert sum(table["fixture"][student].values()) == 5, (student, table["fixture"][student], output)
        assert notes_of(config, student, "fixture") == "", (student, notes_of(config, student, "fixture"))


def test_each_repair_is_named_in_a_note(course, graded):
    config, _ = course
    assert notes_of(config, "Zoë", "fixture") == ""
    text = notes_of(config, "duplicated", "fixture")
    assert "answer cell make_copy appeared 2 times" in text
    assert "locked cell test_values appeared 2 times" in text
    text = notes_of(config, "deleted", "fixture")
    assert "test cell test_values was missing" in text and "test cell test_reftorch was missing" in text
    assert "the cell intro was missing" in text
    for student in ("stripped", "stripped_no_ids"):
        assert "lost its nbgrader metadata" in notes_of(config, student, "fixture")
    text = notes_of(config, "added_cells", "fixture")
    assert "cells you added are not part of the assignment" in text
    assert "'print(make_copy)'" in text and "'My notes: clone() keeps the graph.'" in text
    assert "points of cell test_values were changed" in notes_of(config, "claims_points", "fixture")
    assert "lost its nbgrader metadata" in notes_of(config, "clone_stripped", "clone")
    text = notes_of(config, "clone_mixed", "clone")
    assert "test cell clone-strides was missing" in text and "clone-solution appeared 2 times" in text


def _suffix(student):
    return next(s for s in sorted(TOLD, key=len, reverse=True) if student.endswith(s))


def test_notebooks_from_other_tools_are_graded_with_true_notes(course, notebooks, graded):
    """The bank of honest careless notebooks: the same score as the solved release (full marks,
    checked above), and no note but what is true of each (no locked cell was edited)."""
    config, _ = course
    bank = careless_bank(config)
    for assignment, group in bank.items():
        for student in group:
            text = notes_of(config, student, assignment)
            assert "edited" not in text and "changed" not in text, (student, text)
            told = {part for part in (ADDED, LEFT_OUT, LOST) if part in text}
            if student == "cl_try_typo":
                assert re.search(r"your code is not valid Python: .* \(cell \d+, line \d+: `print\(b.shape`\)",
                                 text), text
                assert "rule" not in text and "no test needs what it defines" in text, text
                continue
            assert told == TOLD[_suffix(student)], (student, text)
            if LEFT_OUT in text:
                assert "MiB with its outputs" in text, text


def test_a_big_printout_is_stored_as_graded_and_a_screenshot_never_reaches_the_graded_notebook(course, graded):
    config, root = course
    state = os.path.join(root, "autograder", "state")
    stored = os.path.join(state, "submitted", "cl_printout", "clone", "clone.ipynb")
    assert os.path.getsize(stored) < 2 ** 20
    graded_nb = nbformat.read(os.path.join(state, "autograded", "cl_colab", "clone", "clone.ipynb"), 4)
    text = nbformat.writes(graded_nb)
    assert SCREENSHOT[:1000] not in text and "attachment:image.png" not in text


def test_claimed_points_do_not_raise_the_maximum(course, graded):
    config, _ = course
    from nbgrader.api import Gradebook

    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        sub = gb.find_submission("fixture", "claims_points")
        assert sub.max_score == max_points(config, "fixture") == 5


def test_feedback_is_written_for_every_careless_student(course, notebooks, graded):
    config, root = course
    cli(root, "feedback", "fixture")
    for student in notebooks["fixture"]:
        folder = os.path.join(root, "autograder", "state", "feedback", student, "fixture")
        assert os.listdir(folder) == ["fixture.html"], (student, os.listdir(folder))


# -- the learner's self-check ---------------------------------------------------------------
# Most self-checks here fork their sandboxed kernel from a zygote of this process, as the lab's
# check button does (``autograder.learner.check_extension``): what they compare is the rebuilt
# notebook's score, the same from a warm kernel as from a cold one. The checks of the loop, the
# time limit and the release edited in place, and the command's, start cold, as
# ``python -m autograder check`` does.


@pytest.fixture(scope="module")
def warm_check():
    """``check`` with ``warm=True``; this process's zygotes are closed after the module."""
    yield functools.partial(check, warm=True)
    stop_zygote()


def _visible_points(config, assignment):
    return max_points(config, assignment, folder="exercises")


@pytest.mark.parametrize("assignment,student", [
    ("fixture", "duplicated"), ("fixture", "deleted"), ("fixture", "stripped_no_ids"),
    ("fixture", "claims_points"), ("clone", "clone_stripped"), ("clone", "clone_mixed")])
def test_the_self_check_agrees_with_the_grader(course, notebooks, warm_check, assignment, student, tmp_path):
    config, root = course
    path = write_submission(str(tmp_path), notebooks[assignment][student], "%s.ipynb" % assignment)
    result = warm_check(path, root=root)
    full = _visible_points(config, assignment)
    assert result.all_passed, result.format()
    assert (result.score, result.max_score) == (full, full), result.format()
    assert "Score: %g/%g  (all tests pass)" % (full, full) in result.format()


BANK_STUDENTS = [("fixture", "fx" + s) for s in TOLD] + [("clone", "cl" + s) for s in TOLD] + [
    ("clone", "cl_try_typo")]


@pytest.fixture(scope="module")
def twins(course, warm_check, tmp_path_factory):
    """The self-check of each assignment's clean twin (the solved release), once."""
    config, root = course
    folder = str(tmp_path_factory.mktemp("twins"))
    return {a: warm_check(write_submission(os.path.join(folder, a), student_notebook(config, a, solved="all"),
                                      "%s.ipynb" % a), root=root) for a in ("fixture", "clone")}


@pytest.mark.parametrize("assignment,student", BANK_STUDENTS)
def test_the_self_check_gives_each_notebook_from_another_tool_its_clean_twins_score(
        course, notebooks, twins, warm_check, assignment, student, tmp_path):
    config, root = course
    twin = twins[assignment]
    path = write_submission(str(tmp_path), notebooks[assignment][student], "%s.ipynb" % assignment)
    result = warm_check(path, root=root)
    assert (result.score, result.max_score) == (twin.score, twin.max_score) == (
        _visible_points(config, assignment),) * 2, result.format()
    assert result.all_passed and not result.problems, result.format()
    assert "edited" not in result.format(), result.format()
    if student.endswith(("_windows", "_minor4")):
        assert result.notes == twin.notes == [], result.format()


def test_the_self_check_command_caps_claimed_points(course, notebooks, tmp_path):
    config, root = course
    path = write_submission(str(tmp_path), notebooks["fixture"]["claims_points"], "fixture.ipynb")
    result = cli(root, "check", path)
    assert "Score: 5/5  (all tests pass)" in result.stdout, result.stdout
    assert "the points of cell test_values were changed" in result.stdout


def test_the_self_check_of_a_release_edited_in_place_uses_the_committed_copy(course, notebooks,
                                                                              tmp_path):
    """A learner works in exercises/ itself: the pristine release is git's committed copy."""
    config, root = course
    learner = tmp_path / "repo"
    shutil.copytree(os.path.join(root, "exercises"), learner / "exercises")
    git = ["git", "-c", "user.name=learner", "-c", "user.email=l@example.org"]
    subprocess.run(git + ["init", "-q", str(learner)], check=True)
    subprocess.run(git + ["add", "exercises"], cwd=learner, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "release"], cwd=learner, check=True)
    in_place = str(learner / "exercises" / "fixture" / "fixture.ipynb")
    nbformat.write(notebooks["fixture"]["deleted"], in_place)
    result = check(in_place, root=str(learner))
    assert result.all_passed and result.score == 5, result.format()
    assert "test cell test_values was missing" in result.format()


def test_the_self_check_stops_a_loop_that_swallows_the_interrupt(course, tmp_path):
    config, root = course
    nb = student_notebook(config, "fixture", replace={"make_copy": LOOP_IGNORING_INTERRUPTS})
    path = write_submission(str(tmp_path), nb, "fixture.ipynb")
    result = cli(root, "check", path, "--timeout", "2", check_status=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "cell 3 did not stop when interrupted after 2 s" in result.stdout
    assert "tests after that point did not run" in result.stdout
    assert "Score: 0/5" in result.stdout


def test_the_self_check_stops_a_notebook_past_its_time_limit(course, tmp_path):
    config, root = course
    slow = "import time\ntime.sleep(30)\n\ndef make_copy(t):\n    return t.detach().clone()"
    path = write_submission(str(tmp_path), student_notebook(config, "fixture", replace={"make_copy": slow}),
                            "fixture.ipynb")
    result = check(path, root=root, timeout=60, notebook_timeout=3)
    assert not result.all_passed
    assert "the notebook ran longer than 3 s" in result.format()


# -- when grading fails anyway ----------------------------------------------------------------

class ExplodesOnMarkedAnswers(NbGraderPreprocessor):
    """Stands for a grader bug: raises on any notebook whose answer mentions EXPLODE."""

    def preprocess(self, nb, resources):
        if any("EXPLODE" in c.source for c in nb.cells):
            raise RuntimeError("a grader bug triggered by this notebook")
        return nb, resources


@pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")  # nbgrader's own autoflush notices
def test_a_notebook_whose_grading_raises_gets_zero_feedback_and_a_kept_traceback(course):
    config, root = course
    student = "unlucky"
    nb = student_notebook(config, "fixture", replace={
        "make_copy": "def make_copy(t):\n    return t.detach().clone()  # EXPLODE"})
    write_submission(os.path.join(root, "autograder", "state", "submitted", student, "fixture"), nb,
                     "fixture.ipynb")
    graded_config = course_config(root)
    graded_config.Autograde.sanitize_preprocessors = (
        list(graded_config.Autograde.sanitize_preprocessors) + [ExplodesOnMarkedAnswers])
    graded_config.CourseDirectory.assignment_id = "fixture"
    graded_config.CourseDirectory.student_id = student
    converter = Autograde(coursedir=CourseDirectory(config=graded_config), config=graded_config)
    converter.force = True
    converter.start()  # plain nbgrader, as `nbgrader autograde` runs it: no exception escapes

    assert scores(config, "fixture")[student] == {"test_values": 0, "test_new_memory": 0,
                                                  "test_warning_is_not_an_error": 0, "test_reftorch": 0}
    folder = os.path.join(root, "autograder", "state", "autograded", student, "fixture")
    with open(os.path.join(folder, LOG_FILE)) as f:
        log = f.read()
    assert "student unlucky, assignment fixture" in log
    assert "RuntimeError: a grader bug triggered by this notebook" in log and "Traceback" in log
    assert "the autograder failed on this notebook (RuntimeError)" in notes_of(config, student, "fixture")

    assert generate_feedback(config, ["fixture"], student) == {"fixture": True}
    feedback = os.path.join(root, "autograder", "state", "feedback", student, "fixture")
    assert os.listdir(feedback) == ["fixture.html"]  # the log and messages.json stay private
    with open(os.path.join(feedback, "fixture.html")) as f:
        page = html.unescape(re.sub(r"<[^>]+>", "", f.read()))
    assert "the autograder failed on this notebook (RuntimeError)" in page
    assert "grader bug" not in page  # the traceback is for the instructor only


def test_a_student_not_graded_at_all_still_gets_a_feedback_page(course):
    config, root = course
    folder = os.path.join(root, "autograder", "state", "autograded", "crashed", "fixture")
    os.makedirs(folder)
    with open(os.path.join(folder, "messages.json"), "w") as f:
        json.dump(["not graded, 0 points: the grading process crashed (<b>MemoryError</b>)"], f)
    generate_feedback(config, ["fixture"], "crashed")
    with open(os.path.join(root, "autograder", "state", "feedback", "crashed", "fixture", "fixture.html")) as f:
        page = f.read()
    assert "the grading process crashed (&lt;b&gt;MemoryError&lt;/b&gt;)" in page
    assert "<b>MemoryError" not in page


def test_the_hubs_submit_check_takes_a_big_printout_and_refuses_a_notebook_too_big_as_graded(course, tmp_path):
    from autograder.hub.submit import problems

    config, _ = course
    good = _plain(student_notebook(config, "fixture", solved="all"))
    (tmp_path / "fixture.ipynb").write_bytes(json.dumps(_printout(good)).encode())
    assert os.path.getsize(tmp_path / "fixture.ipynb") > 20 * 2 ** 20
    assert problems(str(tmp_path)) == []
    text = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("x" * (21 * 2 ** 20))])
    nbformat.write(text, str(tmp_path / "fixture.ipynb"))
    [problem] = problems(str(tmp_path))
    assert "fixture.ipynb is too large to grade" in problem and "without its outputs" in problem, problem

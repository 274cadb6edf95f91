"""The rules checked before a notebook runs (calls-the-op, and syntax errors reported as such): each
catches what it is for, names the rule and the line, charges the right tests, and never rejects honest
code (the references, the honest answers of the bank, the untouched releases, and every wrong answer:
those must lose points to the checks, not to a rule). Exploring breaks no rule: every assignment is
judged (autograder.judge), so what the old allowlist refused (private names, getattr, imports, magics,
writes to modules) costs nothing here. The op called by a name built at run time meets the witness's
stub of the piece (test_judge_attacks, test_witness_stubs).
"""

import nbformat
import pytest

from autograder.pipeline.static_rules import EXERCISES, RULES, find_violations
from exercise_mutants import BANK, RELEASE
from nbgrader_course import ASSIGNMENTS, EXERCISES as RELEASES, SOLUTIONS, read_notebook
from stored import stored_notebook


def notebook(assignment, cells=None, appended=None):
    """The source notebook with ``cells`` ({grade_id: code}) swapped in and ``appended`` cells."""
    nb = read_notebook(SOLUTIONS / assignment / f"{assignment}.ipynb", drop_self_check=False)
    if cells == RELEASE:
        release = stored_notebook(RELEASES / assignment / f"{assignment}.ipynb")
        cells = {c.metadata["nbgrader"]["grade_id"]: c.source for c in release.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cells and gid in cells:
            cell.source = cells[gid]
    for code in appended or ():
        nb.cells.insert(4, nbformat.v4.new_code_cell(code))
    return nb


def found(assignment, cells=None, appended=None):
    """The violations, as the grader finds them."""
    return [(v.rule, v.line, v.code.strip(), tests) for v, tests in
            find_violations(notebook(assignment, cells, appended), assignment)]


HONEST = [e for e in BANK if e.kind in ("honest", "wrong", "stub")]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_assignment_has_rules_and_its_reference_breaks_none(assignment):
    assert assignment in EXERCISES
    assert found(assignment) == []


@pytest.mark.parametrize("entry", HONEST, ids=[e.name for e in HONEST])
def test_no_honest_attempt_breaks_a_rule(entry):
    cells = entry.cells if entry.cells == RELEASE else {k: v for k, v in entry.cells.items() if k != "+end"}
    assert found(entry.assignment, cells) == []


CLONE = "def my_clone(self, *, memory_format=torch.preserve_format):\n"
CLONE_TESTS = ["clone-memory", "clone-metadata", "clone-strides", "clone-graph", "clone-no-grad", "clone-version"]


@pytest.mark.parametrize("code, line", [
    (CLONE + "    return self.clone()\n", 2),
    (CLONE + "    return torch.clone(self)\n", 2),
    (CLONE + "    make = getattr(self, 'clone')\n    return make()\n", 2),
    (CLONE + "    return self.__getattribute__('clone')()\n", 2),
    (CLONE + "    import operator\n    return operator.methodcaller('clone')(self)\n", 3),
    (CLONE + "    return torch._clone.clone(self)\n", 2),
])
def test_calls_the_op_names_itself_and_the_line_however_the_name_is_handed_over(code, line):
    violations = found("clone", {"clone-solution": code})
    assert [(r, n) for r, n, _, _ in violations] == [("calls-the-op", line)], violations
    [(_, _, text, tests)] = violations
    assert text == code.splitlines()[line - 1].strip()
    assert tests == CLONE_TESTS, "a violation in my_clone costs every test of my_clone"
    assert set(RULES) == {"calls-the-op"}


@pytest.mark.parametrize("code", [
    # what the allowlist refused: no rule now (a wrong answer loses its points to the checks)
    CLONE + "    return getattr(self, 'cl' + 'one')()\n",
    "import sys\n" + CLONE + "    return self\n",
    "from importlib import import_module\n" + CLONE + "    return self\n",
    CLONE + "    import torch as real\n    return self\n",
    "%%time\n" + CLONE + "    return self\n",
    "!ls\n" + CLONE + "    return self\n",
    CLONE + "    setattr(torch.Tensor, 'stride', None)\n    return self\n",
    CLONE + "    vars(torch)['clone'] = None\n    return self\n",
    CLONE + "    Liar = type('Liar', (type(self),), {})\n    return self\n",
    CLONE + "    g = my_clone.__globals__\n    return self\n",
    CLONE + "    return eval('self')\n",
    CLONE + "    return __import__('copy').copy(self)\n",
    CLONE + "    text = open('clone.ipynb').read()\n    return self\n",
    CLONE + "    get_ipython().showtraceback = print\n    return self\n",
    CLONE + "    self.__class__ = object\n    return self\n",
    # exploring
    CLONE + "    import sys\n    print(sys.version, self._version)\n    return self\n",
    "from reftorch.primitives import *\n" + CLONE + "    return self\n",
    CLONE + "    match self.dim():\n        case _:\n            return self\n",
])
def test_what_is_not_the_op_breaks_no_rule(code):
    """Every assignment is judged (autograder.judge): only calls-the-op and syntax errors remain."""
    assert found("clone", {"clone-solution": code}) == []


def test_new_tensor_and_copy_into_keep_calls_the_op_and_let_exploring_pass():
    """The op by any name costs the tests that call it; reading a private attribute or a star
    import costs nothing."""
    head = "def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):\n"
    for body in ("    return self.new_tensor(data)\n", "    return getattr(self, 'new_tensor')(data)\n"):
        assert [r for r, *_ in found("new_tensor", {"new-tensor-solution": head + body})] == ["calls-the-op"], body
    for body in ("    return self.copy_(src)\n", "    return self.__getattribute__('copy_')(src)\n"):
        assert [r for r, *_ in found("copy_into", {"copy-solution": "def my_copy_(self, src):\n" + body})] \
            == ["calls-the-op"], body
    exploring = ("from reftorch.primitives import *\n\n\ndef my_copy_(self, src):\n"
                 "    print(self._version)\n    return self\n")
    assert found("copy_into", {"copy-solution": exploring}) == []


def test_a_helper_is_held_to_the_rule_of_the_function_that_calls_it():
    code = "def helper(t):\n    return t.clone()\n\n\n" + CLONE + "    return helper(self)\n"
    assert [(r, n) for r, n, _, _ in found("clone", {"clone-solution": code})] == [("calls-the-op", 2)]
    unused = "def helper(t):\n    return t.clone()\n\n\n" + CLONE + "    return self\n"
    assert found("clone", {"clone-solution": unused}) == []


def test_a_violation_costs_only_the_tests_of_its_exercise():
    detach = found("detach", {"detach-solution": "def my_detach(self):\n    return self.detach()\n"})
    assert detach == [("calls-the-op", 2, "return self.detach()",
                       ["detach-memory", "detach-metadata", "detach-graph", "detach-version"])]
    data = found("detach", {"data-solution": "def my_data(self):\n    return self.data\n"})
    assert data == [("calls-the-op", 2, "return self.data", ["data-alias", "data-version"])]
    shared = found("new_tensor", {"new-tensor-solution": "import copy\n\ndef copy_as(data, dtype, device, rg):\n"
                                                         "    return torch.tensor(data)\n\n"
                                                         "def my_new_tensor(self, data, **kw):\n"
                                                         "    return copy_as(data, None, None, False)\n"})
    assert {tuple(t) for *_, t in shared} == {("new-tensor-copy", "new-tensor-dtype", "new-tensor-graph",
                                               "tensor-from-tensor")}


def test_imports_at_the_top_level_of_a_cell_cost_nothing():
    assert found("python_copy", appended=["import copy as c\nimport os\n"]) == []


def test_scratch_work_and_local_names_are_not_mistaken_for_modules():
    scratch = ["input = torch.ones(2)\ninput.note = 'mine'\n", "copy = torch.ones(3)\ncopy.tags = [1]\n",
               "import numpy as np\nimport math, itertools\nx = np.arange(3)\n"]
    assert found("clone", appended=scratch) == []
    own_copy = "def my_deepcopy(self, memo):\n    copy = self\n    copy.note = 1\n    return copy\n"
    assert found("python_copy", {"deepcopy-solution": own_copy}) == []


def test_the_op_on_other_objects_is_not_the_op():
    honest = ("def my_copy(self):\n    new = tensor_on(self.untyped_storage(), self.shape, self.stride(),\n"
              "                    self.storage_offset(), dtype=self.dtype)\n"
              "    new.__dict__.update(copy.copy(self.__dict__))\n    return new\n")
    assert found("python_copy", {"copy-solution": honest}) == []
    cheat = "def my_copy(self):\n    return copy.copy(self)\n"
    assert [r for r, *_ in found("python_copy", {"copy-solution": cheat})] == ["calls-the-op"]


def test_an_assignment_without_rules_is_graded_without_them():
    nb = notebook("clone", {"clone-solution": CLONE + "    return self.clone()\n"})
    assert find_violations(nb, "some-other-assignment") == []


def test_a_syntax_error_is_reported_as_one_and_costs_only_the_tests_that_need_its_cell():
    typo = CLONE + "    return self\n\nprint(my_clone(torch.ones(2))\n"
    [(violation, tests)] = find_violations(notebook("clone", {"clone-solution": typo}), "clone")
    assert violation.ename() == "SyntaxError" and tests == CLONE_TESTS
    assert violation.text().startswith("'(' was never closed (clone-solution, line 4: `print(")
    assert "rule" not in violation.text() and "misconception" not in violation.text()
    assert "your code is not valid Python" in violation.message(tests)
    assert "these tests need what it defines and score 0: clone-memory" in violation.message(tests)
    # a typo in scratch work costs nothing: nothing the tests use is defined there
    [(scratch, tests)] = find_violations(notebook("clone", appended=["x = torch.ones(2\n"]), "clone")
    assert scratch.ename() == "SyntaxError" and tests == []
    # a magic is IPython syntax, not a syntax error: the kernel runs it
    assert found("clone", appended=["%timeit 1\n"]) == []


SLICE = "def my_slice(t, dim, start, stop, step):\n"


@pytest.mark.parametrize("code", [SLICE + "    import sys\n    print(sys.version, t._version)\n    return t\n",
                                  "from reftorch.primitives import *\n" + SLICE + "    return t\n",
                                  SLICE + "    match dim:\n        case _:\n            return t\n"])
def test_strides_and_views_lets_exploring_pass(code):
    assert found("strides_and_views", {"sv-views-solution": code}) == []


def test_strides_and_views_keeps_calls_the_op():
    for body in ("    return t[(slice(None),) * dim + (slice(start, stop, step),)]\n",
                 "    return t.narrow(dim, start, stop - start)\n",
                 "    return getattr(t, 'as_strided')(t.shape, t.stride())\n"):
        assert [r for r, *_ in found("strides_and_views", {"sv-views-solution": SLICE + body})] \
            == ["calls-the-op"], body


def test_python_copy_keeps_only_calls_the_op():
    """Patching the kernel's copy module or reading a private name breaks no rule (it reaches
    nothing the judge uses); calling the protocol still does."""
    patched = "copy.deepcopy = lambda x, memo=None: x\n\n\ndef my_deepcopy(self, memo):\n    return self\n"
    private = "def my_deepcopy(self, memo):\n    return torch._python_copy.__deepcopy__(self, memo)\n"
    assert found("python_copy", {"deepcopy-solution": patched}) == []
    assert [r for r, *_ in found("python_copy", {"deepcopy-solution": private})] == ["calls-the-op"]


@pytest.mark.parametrize("source, broken", [
    ("a = !ls\nb = 1", None),              # IPython syntax anywhere in a line is IPython's to run
    ("x = 1\nx?", None),
    ("%time x = 1\ny = (", "y = ("),       # a real error after a magic line is still found
])
def test_ipython_syntax_is_no_syntax_error_and_does_not_hide_one(source, broken):
    from autograder.pipeline.static_rules import syntax_violations

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    assert [v.code for v in syntax_violations(nb, 0)] == ([broken] if broken else [])

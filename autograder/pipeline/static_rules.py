"""The exercises' rules, checked on the learner's code before it runs: "calls-the-op", and syntax errors.

The checks compare what a learner's function *does* with torch; they cannot
see *how* it does it. So before anything runs, the functions a learner
implements are held to the exercise's rule:

``calls-the-op``      the function being implemented (and every helper it calls)
                      does not use the operation it implements (``.clone`` inside
                      ``my_clone``; ``copy.copy`` inside ``my_copy``; ...), by
                      name or with the name handed to ``getattr``,
                      ``__getattribute__``, ``operator.methodcaller``:
                      ``my_detach_clone`` may call ``.clone``, ``my_clone`` may not.

Nothing else is refused: the verdict is the judge's (``autograder.judge``), so
exploring (``b._version``, ``help()``, a plot, a star import, ``match``, a magic)
costs nothing. Calling the op in a way this rule cannot see (a name built at run
time) meets the witness's stub of the piece (``autograder.witness.stubs``).

A cell Python cannot parse at all (a plain syntax error, not IPython syntax)
is reported as the ``SyntaxError`` it is, with no misconception tag, and costs
only the tests that use what the cell would have defined (its top-level
``def``, ``class`` and assignments, found by their lines, when no other cell
defines them): a typo in a "try it" cell costs nothing, one in an answer cell
costs the tests of that answer.

A ``calls-the-op`` violation scores 0 on the tests of that exercise: the tests
that call the function it sits in, directly or through other functions of the
notebook. The test's output then starts with an error that names the rule and
the line, and the notebook's ``messages.json`` says which tests it cost.
Honest code never meets this rule: every reference solution and several
hand-written correct variants per exercise pass it (``tests/exercises/``).

Two nbgrader preprocessors carry this out, registered in ``nbgrader_config.py``:
``CheckRules`` before ``GuardedExecute`` (the analysis; it also writes the
messages) and ``ScoreRuleViolations`` after it (it puts the error first in each
affected test cell, where nbgrader's ``determine_grade`` reads it first).

Rules apply to the assignments listed in ``EXERCISES``; any other assignment is
graded without them. The rules are the grader's, never read from the submitted notebook.
"""

import ast
import re
from dataclasses import dataclass

from nbconvert.preprocessors import Preprocessor
from nbformat.v4 import new_output
from traitlets import Bool

from .learner_code import (GlobalNames, cell_name, is_learner_cell, is_test_cell, local_names,
                           nbgrader_metadata, parse_cell, reachable, referenced_names, top_level_functions)

TAG_LINE = "misconception: "   # the same marker as the checks' messages (autograder.checks._observe)

RULES = {
    "calls-the-op": "use only the building blocks: the function may not call the operation it implements",
}

# Not a rule: a cell that Python itself cannot parse (and that is no IPython syntax). It is
# reported as Python reports it, with no misconception tag.
SYNTAX_ERROR = "syntax-error"


@dataclass(frozen=True)
class Implements:
    """The rule ``calls-the-op`` for one function: what it may not use.

    ``attributes``: attribute names (``clone`` catches ``self.clone()``,
    ``torch.clone(self)``, ``getattr(self, "clone")``); ``calls``: dotted
    functions (``copy.copy``); ``calls_on_self``: dotted functions that may
    not be applied to the function's first parameter; ``indexes_self``: the
    function may not index its first parameter (``t[1:]`` inside ``my_slice``).
    """
    function: str
    attributes: tuple = ()
    calls: tuple = ()
    calls_on_self: tuple = ()
    indexes_self: bool = False


_COPY_PROTOCOL = ("__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__")
# the clone exercise's strides are computed from size and stride, not read off a tensor torch makes
_STRIDE_HELPERS = ("preserve_format_strides", "contiguous_strides", "dense_strides_like", "empty", "empty_like",
                   "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "new_empty", "clone", "contiguous",
                   "stride")
_STRIDE_FUNCTIONS = ("reftorch.primitives.preserve_format_strides", "reftorch.primitives.contiguous_strides")

EXERCISES = {
    "clone": (Implements("my_clone", ("clone", "preserve_format_strides", "contiguous_strides", "dense_strides_like",
                                      "empty_like"), calls=_STRIDE_FUNCTIONS),
              Implements("my_contiguous_strides", _STRIDE_HELPERS, calls=_STRIDE_FUNCTIONS),
              Implements("my_preserve_format_strides", _STRIDE_HELPERS, calls=_STRIDE_FUNCTIONS)),
    "detach": (Implements("my_detach", ("detach", "detach_")),
               Implements("my_detach_clone", ("detach", "detach_", "clone")),
               Implements("my_data", ("data",))),
    "new_tensor": (Implements("my_new_tensor", ("new_tensor", "tensor", "as_tensor")),
                   Implements("copy_as", ("new_tensor", "tensor", "as_tensor")),
                   Implements("my_tensor", ("new_tensor", "tensor", "as_tensor"))),
    "copy_into": (Implements("my_copy_", ("copy_", "check_inplace_allowed"),
                             calls=("reftorch.primitives.check_inplace_allowed",)),),
    "python_copy": (Implements("my_copy", _COPY_PROTOCOL, calls_on_self=("copy.copy", "copy.deepcopy")),
                    Implements("my_deepcopy", _COPY_PROTOCOL, calls_on_self=("copy.deepcopy", "copy.copy"))),
    "model_snapshot": (),
    "strides_and_views": (
        Implements("my_contiguous_strides", ("empty", "zeros", "ones", "stride", "contiguous_strides", "new_empty")),
        Implements("my_storage_positions", ("as_strided", "element_positions")),
        Implements("my_slice", ("narrow", "select", "__getitem__", "as_strided", "unfold", "split", "chunk"),
                   indexes_self=True),
        Implements("my_transpose", ("t", "T", "mT", "transpose", "transpose_", "permute", "swapaxes", "swapdims",
                                    "movedim", "as_strided")),
        Implements("my_expand", ("expand", "expand_as", "broadcast_to", "as_strided"))),
    "numpy_bridge": (
        Implements("my_from_numpy", ("from_numpy", "as_tensor", "asarray", "frombuffer")),
        Implements("my_as_tensor", ("as_tensor", "asarray", "from_numpy", "frombuffer")),
        Implements("my_numpy", ("numpy", "__array__"), calls_on_self=("numpy.asarray", "numpy.array"))),
    "save_and_load": (
        Implements("my_saved_bytes", ("save", "load", "getvalue", "getbuffer")),
        Implements("my_rebuild", ("load", "save", "_rebuild_tensor_v2"))),
    "target_network": (
        Implements("update_target", ("deepcopy", "make_target"), calls=("copy.deepcopy", "make_target")),),
}

@dataclass(frozen=True)
class Violation:
    rule: str
    cell: int           # index of the cell in the notebook
    cell_name: str      # its grade_id, or "cell N"
    line: int           # line within the cell
    code: str           # that line
    detail: str
    function: str = ""  # the function it sits in ("" at the top level of a cell)

    def where(self):
        return f"{self.cell_name}, line {self.line}: `{self.code.strip()}`"

    def ename(self):
        """The error a test it costs shows: Python's own for a syntax error, else the rule's."""
        return "SyntaxError" if self.rule == SYNTAX_ERROR else "RuleBroken"

    def message(self, tests):
        """What ``messages.json`` says of it, with the tests it costs."""
        if self.rule == SYNTAX_ERROR:
            cost = ("so it did not run; these tests need what it defines and score 0: " + ", ".join(tests)
                    if tests else "so it did not run (no test needs what it defines)")
            return f"your code is not valid Python: {self.detail} ({self.where()}), {cost}"
        cost = ("these tests score 0: " + ", ".join(tests)) if tests else "no test uses that code"
        return (f"your code breaks the exercise's rule \"{RULES[self.rule]}\" "
                f"({self.detail}; {self.where()}); {cost}")

    def text(self):
        if self.rule == SYNTAX_ERROR:
            return f"{self.detail} ({self.where()})"
        inside = f" in {self.function}" if self.function else ""
        return (f"rule broken: {RULES[self.rule]} ({self.detail}{inside}; {self.where()})\n"
                f"    {TAG_LINE}rules/{self.rule}")


def syntax_violations(nb, index):
    """A learner cell Python cannot parse once IPython has turned its own syntax (magics, shell
    lines, help requests) into Python, as the kernel does before running it."""
    from IPython.core.inputtransformer2 import TransformerManager

    source = nb.cells[index].get("source", "")
    try:
        ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None) or 1
        lines = source.splitlines()
        code = lines[line - 1] if 0 < line <= len(lines) else ""
        return [Violation(SYNTAX_ERROR, index, cell_name(nb, index), line, code,
                          getattr(error, "msg", None) or str(error))]
    return []


def _op_violations(nb, functions, reach, implements, names):
    """``calls-the-op``: each implemented function and every helper it reaches."""
    found = []
    for rule in implements:
        if rule.function not in functions:
            continue
        first_param = None
        _, defined = functions[rule.function]
        if isinstance(defined, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            params = defined.args.posonlyargs + defined.args.args
            first_param = params[0].arg if params else None
        for helper in sorted(reach[rule.function]):
            index, node = functions[helper]
            lines = nb.cells[index].get("source", "").splitlines()
            local = local_names(node) if not isinstance(node, ast.ClassDef) else set()
            for child in ast.walk(node):
                hit = None
                if isinstance(child, ast.Attribute) and child.attr in rule.attributes:
                    hit = f".{child.attr}"
                elif isinstance(child, ast.Call):
                    func = child.func
                    if isinstance(func, ast.Name) and func.id in ("getattr", "hasattr") and len(child.args) >= 2 \
                            and isinstance(child.args[1], ast.Constant) and child.args[1].value in rule.attributes:
                        hit = f"getattr(..., {child.args[1].value!r})"
                    elif any(isinstance(a, ast.Constant) and a.value in rule.attributes for a in child.args):
                        # the name handed to a call: __getattribute__, operator.attrgetter, methodcaller
                        hit = "the name %r" % next(a.value for a in child.args if isinstance(a, ast.Constant)
                                                   and a.value in rule.attributes)
                    path = names.resolve(func, local) if isinstance(func, (ast.Name, ast.Attribute)) else None
                    if path in rule.calls:
                        hit = path
                    elif path in rule.calls_on_self and child.args and isinstance(child.args[0], ast.Name) \
                            and child.args[0].id == first_param and helper == rule.function:
                        hit = f"{path}({first_param}, ...)"
                if rule.indexes_self and isinstance(child, ast.Subscript) and helper == rule.function \
                        and isinstance(child.value, ast.Name) and child.value.id == first_param:
                    hit = f"{first_param}[...]"
                if hit:
                    line = getattr(child, "lineno", 1)
                    code = lines[line - 1] if 0 < line <= len(lines) else ""
                    found.append(Violation("calls-the-op", index, cell_name(nb, index), line, code,
                                           f"{rule.function} uses {hit}", helper if helper != rule.function
                                           else rule.function))
    return found


def find_violations(nb, assignment):
    """Every rule the learner's code breaks (syntax errors and ``calls-the-op``), and the test cells
    each violation costs.

    Returns ``[(violation, [test grade_id, ...]), ...]``; empty for an
    assignment without rules (not in ``EXERCISES``).
    """
    if assignment not in EXERCISES:
        return []
    trees = {}
    for index, cell in enumerate(nb.cells):
        if cell.get("cell_type") == "code":
            tree = parse_cell(cell)
            if tree is not None:
                trees[index] = tree
    learner = {i: t for i, t in trees.items() if is_learner_cell(nb.cells[i])}
    every_learner_cell = [i for i, c in enumerate(nb.cells) if is_learner_cell(c)]
    names = GlobalNames([trees[i] for i in sorted(trees)])
    functions = top_level_functions(learner)
    reach = reachable(functions)
    implements = EXERCISES[assignment]
    violations = []
    for index in every_learner_cell:
        violations += syntax_violations(nb, index)
    violations += _op_violations(nb, functions, reach, implements, names)
    tests = [(i, nbgrader_metadata(c).get("grade_id"), referenced_names(trees[i]) if i in trees else set())
             for i, c in enumerate(nb.cells) if is_test_cell(c)]
    out, seen = [], set()
    for violation in violations:
        key = (violation.rule, violation.cell, violation.line, violation.detail)
        if key in seen:
            continue
        seen.add(key)
        if violation.rule == SYNTAX_ERROR:
            missing = defined_by_lines(nb.cells[violation.cell].get("source", "")) - names.bound
            users = missing | {name for name, reached in reach.items()
                               if any(referenced_names(functions[m][1]) & missing for m in reached)}
            costs = [gid for i, gid, used in tests if used & users]
        elif violation.function and violation.function in functions:
            users = {name for name, reached in reach.items() if violation.function in reached}
            costs = [gid for i, gid, used in tests if used & users]
        else:
            costs = [gid for i, gid, used in tests if i > violation.cell]
        out.append((violation, costs))
    return out


def defined_by_lines(source):
    """The names a cell Python cannot parse would define at its top level, read off its lines
    (``def f``, ``class C``, ``x = ...``, ``a, b = ...`` at the start of a line)."""
    names = set()
    for line in source.splitlines() if isinstance(source, str) else []:
        found = _DEFINES.match(line)
        if found:
            names |= {n.strip() for n in (found.group(1) or found.group(2) or found.group(3)).split(",")}
    return {n for n in names if n.isidentifier()}


_DEFINES = re.compile(r"(?:async\s+)?def\s+(\w+)|class\s+(\w+)|((?:\w+\s*,\s*)*\w+)\s*(?::[^=]*)?=(?!=)")


# --- the preprocessors ------------------------------------------------------------

RESOURCE_KEY = "autograder_rule_violations"


class CheckRules(Preprocessor):
    """Before the notebook runs: find rule violations; record messages and the tests they cost."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off by default

    def preprocess(self, nb, resources):
        assignment = (resources or {}).get("nbgrader", {}).get("assignment")
        found = find_violations(nb, assignment)
        costs = {}
        messages = nb.metadata.setdefault("autograder", {}).setdefault("messages", [])
        for violation, tests in found:
            for test in tests:
                costs.setdefault(test, (violation.ename(), violation.text()))
            messages.append(violation.message(tests))
        if not messages:
            nb.metadata["autograder"].pop("messages")
        if not nb.metadata["autograder"]:
            nb.metadata.pop("autograder")
        resources[RESOURCE_KEY] = costs
        return nb, resources


def fail_first(cell, ename, evalue):
    """Put an error output *first* in ``cell``: nbgrader's determine_grade reads outputs in order
    and stops at the first error or execute_result, so the cell scores 0 whatever it printed."""
    cell.setdefault("outputs", []).insert(
        0, new_output("error", ename=ename, evalue=evalue, traceback=["%s: %s" % (ename, evalue)]))


class ScoreRuleViolations(Preprocessor):
    """After the notebook ran: every test a violation costs starts with an error naming the rule
    (or, for a cell that is not Python, the syntax error)."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off by default

    def preprocess(self, nb, resources):
        costs = (resources or {}).get(RESOURCE_KEY) or {}
        for cell in nb.cells:
            if is_test_cell(cell) and nbgrader_metadata(cell).get("grade_id") in costs:
                fail_first(cell, *costs[nbgrader_metadata(cell)["grade_id"]])
        return nb, resources

"""Only the building blocks: each exercise's rules, checked on the learner's code before it runs.

The checks compare what a learner's function *does* with torch; they cannot
see *how* it does it. ``my_clone`` that returns ``self.clone()`` behaves
perfectly, and so would a notebook that patches torch so that torch agrees
with a wrong answer. So before anything runs, the syntax tree of every cell
the learner wrote (solution cells, and cells they added) is checked against
the exercise's rules:

``calls-the-op``      the function being implemented (and every helper it calls)
                      does not use the operation it implements (``.clone`` inside
                      ``my_clone``; ``copy.copy`` inside ``my_copy``; ...);
``imports``           only the allowed modules are imported;
``patches``           no assignment (``=``, ``del``, ``setattr``) to attributes of
                      modules, of objects imported from them (classes, functions),
                      of builtins, or of a class reached through ``type(...)``,
                      ``__class__`` or ``super()``;
``subclasses-tensor`` no class derived from ``Tensor`` or ``Parameter`` (nor
                      ``type(name, bases, ...)``, nor assigning ``__class__``);
``forbidden-name``    no ``sys``, ``gc``, ``ctypes``, ``inspect``, ``importlib``,
                      ``builtins``, ``__import__``, ``eval``, ``exec``, ``compile``,
                      ``globals``, nor the attributes ``__code__``, ``__globals__``
                      and their kin, in any spelling the tree shows
                      (``getattr(f, "__globals__")`` included);
``private-reftorch``  no reftorch internals reached through the module
                      (``torch._clone``): only the primitives are building blocks.

A violation scores 0 on the tests of that exercise: the tests that call the
function it sits in, directly or through other functions of the notebook (or,
for code at the top level of a cell, every test after that cell). The test's
output then starts with an error that names the rule and the line, and the
notebook's ``messages.json`` says which tests it cost. Honest code never meets
these rules: every reference solution and several hand-written correct
variants per exercise pass them (``tests/exercises/``).

Two nbgrader preprocessors carry this out, registered in ``nbgrader_config.py``:
``CheckRules`` before ``GuardedExecute`` (the analysis; it also writes the
messages) and ``ScoreRuleViolations`` after it (it puts the error first in each
affected test cell, where nbgrader's ``determine_grade`` reads it first).

Rules apply to the assignments listed in ``EXERCISES``; any other assignment
is graded without them. The rules are the grader's, never read from the
submitted notebook.
"""

import ast
import builtins
from dataclasses import dataclass

from nbconvert.preprocessors import Preprocessor
from nbformat.v4 import new_output
from traitlets import Bool

from .learner_code import (GlobalNames, cell_name, is_learner_cell, is_test_cell, local_names,
                           nbgrader_metadata, parse_cell, reachable, referenced_names, top_level_functions)

TAG_LINE = "misconception: "   # the same marker as the checks' messages (autograder.checks._observe)


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

ALLOWED_IMPORTS = ("reftorch", "reftorch.primitives", "reftorch.nn", "reftorch.optim", "copy", "warnings",
                   "math", "numbers", "itertools", "functools", "operator", "collections", "dataclasses",
                   "typing", "numpy")
FORBIDDEN_NAMES = ("sys", "gc", "ctypes", "inspect", "importlib", "builtins", "__builtins__", "__import__",
                   "eval", "exec", "compile", "globals", "breakpoint")
FORBIDDEN_ATTRIBUTES = ("__code__", "__globals__", "__closure__", "__builtins__", "__subclasses__",
                        "__bases__", "__mro__", "__func__", "__self__", "__loader__", "__spec__",
                        "f_globals", "f_locals", "f_back", "f_builtins", "gi_frame", "tb_frame",
                        "ctypes", "sys", "gc", "inspect", "importlib", "builtins")
_ATTRIBUTE_FUNCTIONS = ("getattr", "setattr", "delattr", "hasattr")

RULES = {
    "calls-the-op": "use only the building blocks: the function may not call the operation it implements",
    "imports": "import only the allowed modules",
    "patches": "do not assign to attributes of modules, classes or builtins",
    "subclasses-tensor": "do not subclass Tensor",
    "forbidden-name": "do not use sys, gc, ctypes, inspect, importlib, builtins, eval/exec or code internals",
    "private-reftorch": "use reftorch's public names and the primitives, not its internals",
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

    def text(self):
        inside = f" in {self.function}" if self.function else ""
        return (f"rule broken: {RULES[self.rule]} ({self.detail}{inside}; {self.where()})\n"
                f"    {TAG_LINE}rules/{self.rule}")


# --- the rules ------------------------------------------------------------------

class _Checker:
    """Walks one learner cell and collects its violations."""

    def __init__(self, nb, index, tree, names, implements_by_function):
        self.nb, self.index, self.tree, self.names = nb, index, tree, names
        self.lines = nb.cells[index].get("source", "").splitlines()
        self.implements = implements_by_function
        self.found = []

    def add(self, rule, node, detail, function):
        line = getattr(node, "lineno", 1)
        code = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        self.found.append(Violation(rule, self.index, cell_name(self.nb, self.index), line, code, detail,
                                    function))

    def run(self):
        for node in self.tree.body:
            self.visit_statement(node, "", set())
        return self.found

    def visit_statement(self, node, function, local):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = set(local) | local_names(node)
            for decorator in node.decorator_list:
                self.check(decorator, function or node.name, local)
            for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                self.check(default, function or node.name, local)
            for statement in node.body:
                self.visit_statement(statement, function or node.name, inner)
            return
        if isinstance(node, ast.ClassDef):
            # a class body runs where the class is defined: at the top level, it runs with the cell
            # (its methods are charged to the class: any test after the cell may use them)
            self.check_class(node, function, local)
            for statement in node.body:
                self.visit_statement(statement, function or f"class {node.name}", local)
            return
        self.check(node, function, local)

    def check(self, node, function, local):
        for child in ast.walk(node):
            if isinstance(child, ast.Lambda):
                local = set(local) | local_names(child)
            self.check_node(child, function, local)

    def check_class(self, node, function, local):
        for base in node.bases + [k.value for k in node.keywords]:
            if self._tensor_like(base, local):
                self.add("subclasses-tensor", node, f"class {node.name} derives from "
                         f"{ast.unparse(base)}", function)

    def _tensor_like(self, node, local):
        for child in ast.walk(node):
            if isinstance(child, ast.Name) and child.id.endswith(("Tensor", "Parameter")):
                return True
            if isinstance(child, ast.Attribute) and child.attr.endswith(("Tensor", "Parameter", "__class__")):
                return True
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "type":
                return True
        return False

    def check_node(self, node, function, local):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                ("." * node.level) + (node.module or "")]
            for module in modules:
                if module not in ALLOWED_IMPORTS:
                    self.add("imports", node, f"imports {module}; allowed: {', '.join(ALLOWED_IMPORTS)}",
                             function)
        elif isinstance(node, ast.Name):
            if node.id in FORBIDDEN_NAMES and node.id not in local:
                self.add("forbidden-name", node, f"uses {node.id}", function)
        elif isinstance(node, ast.Attribute):
            if node.attr in FORBIDDEN_ATTRIBUTES:
                self.add("forbidden-name", node, f"uses .{node.attr}", function)
            path = self.names.resolve(node.value, local)
            if node.attr.startswith("_") and not node.attr.startswith("__") and path and \
                    path.split(".")[0] == "reftorch":
                self.add("private-reftorch", node, f"reaches into {path}.{node.attr}", function)
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                self.check_patch(node, node.value, node.attr, function, local)
        elif isinstance(node, ast.Call):
            self.check_call(node, function, local)

    def check_patch(self, node, target, attribute, function, local):
        if attribute == "__class__":
            self.add("subclasses-tensor", node, "assigns __class__", function)
            return
        path = self.names.resolve(target, local)
        if path:
            self.add("patches", node, f"assigns {path}.{attribute}", function)
            return
        root = target
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            if isinstance(root, ast.Attribute) and root.attr == "__class__":
                self.add("patches", node, f"assigns an attribute of a class ({ast.unparse(target)})", function)
                return
            root = root.value
        if isinstance(root, ast.Call) and isinstance(root.func, ast.Name) and root.func.id in ("type", "super"):
            self.add("patches", node, f"assigns an attribute of a class ({ast.unparse(target)})", function)
        elif isinstance(root, ast.Name) and root is target and root.id in vars(builtins) \
                and root.id not in local and root.id not in self.names.bound:
            self.add("patches", node, f"assigns builtins.{root.id}.{attribute}", function)

    def check_call(self, node, function, local):
        func = node.func
        if isinstance(func, ast.Name) and func.id not in local:
            if func.id == "type" and len(node.args) == 3:
                self.add("subclasses-tensor", node, "builds a class with type(name, bases, namespace)", function)
            if func.id in _ATTRIBUTE_FUNCTIONS and len(node.args) >= 2:
                name = node.args[1]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    if name.value in FORBIDDEN_ATTRIBUTES:
                        self.add("forbidden-name", node, f"uses .{name.value}", function)
                    if func.id in ("setattr", "delattr"):
                        self.check_patch(node, node.args[0], name.value, function, local)
                elif func.id in ("setattr", "delattr"):
                    self.check_patch(node, node.args[0], "<computed name>", function, local)


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
    """Every rule the learner's code breaks, and the test cells each violation costs.

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
    names = GlobalNames([trees[i] for i in sorted(trees)])
    functions = top_level_functions(learner)
    reach = reachable(functions)
    implements = EXERCISES[assignment]
    violations = []
    for index, tree in sorted(learner.items()):
        violations += _Checker(nb, index, tree, names, implements).run()
    violations += _op_violations(nb, functions, reach, implements, names)
    tests = [(i, nbgrader_metadata(c).get("grade_id"), referenced_names(trees[i]) if i in trees else set())
             for i, c in enumerate(nb.cells) if is_test_cell(c)]
    out, seen = [], set()
    for violation in violations:
        key = (violation.rule, violation.cell, violation.line, violation.detail)
        if key in seen:
            continue
        seen.add(key)
        if violation.function and violation.function in functions:
            users = {name for name, reached in reach.items() if violation.function in reached}
            costs = [gid for i, gid, used in tests if used & users]
        else:
            costs = [gid for i, gid, used in tests if i > violation.cell]
        out.append((violation, costs))
    return out


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
                costs.setdefault(test, violation.text())
            cost = ("these tests score 0: " + ", ".join(tests)) if tests else "no test uses that code"
            messages.append(f"your code breaks the exercise's rule \"{RULES[violation.rule]}\" "
                            f"({violation.detail}; {violation.where()}); {cost}")
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
    """After the notebook ran: every test a violation costs starts with an error naming the rule."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off by default

    def preprocess(self, nb, resources):
        costs = (resources or {}).get(RESOURCE_KEY) or {}
        for cell in nb.cells:
            if is_test_cell(cell) and nbgrader_metadata(cell).get("grade_id") in costs:
                fail_first(cell, "RuleBroken", costs[nbgrader_metadata(cell)["grade_id"]])
        return nb, resources

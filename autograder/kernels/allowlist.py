"""The allowlist: what a learner's cell may use, enforced by RestrictedPython when it is graded.

Every solution cell (and every cell a learner added) of an assignment listed in
:data:`POLICIES` is compiled with RestrictedPython (``compile_restricted_exec``)
under :class:`CellPolicy`, a subclass of its ``RestrictingNodeTransformer``, and
runs with the guards of :class:`Guards`.  What a cell may use is declared, not
what it may not:

* plain Python (no IPython syntax: a magic or a ``!`` line is not Python; a
  cell that is not Python at all is reported as the ``SyntaxError`` it is, not
  as a broken rule: :data:`SYNTAX_ERROR`);
* the modules of the assignment's ``imports``, and of a module only the names
  :data:`MODULE_NAMES` lists (every public name for reftorch's own modules);
* the builtins of :data:`BUILTINS` (no ``getattr``/``setattr``/``delattr``/
  ``vars``/``globals``/``locals``/``eval``/``exec``/``compile``/``__import__``/
  ``open``, and ``type`` with one argument that is not a class);
* no name or attribute that starts with ``_``, except the learner's own
  private names (``_helper``), the few attributes an assignment declares
  (``_version``, ``_base``, an instance's ``__dict__``), and, on an object of
  a class the learner wrote, its private attributes through a method's
  parameters (``self._count``, ``other._count``) and the
  special methods of :data:`LEARNER_DUNDERS` through ``super()``
  (``super().__init__(...)``), checked at run time;
* plain Python of every kind a learner writes for these exercises
  (``nonlocal``, ``isinstance(x, type)``, dataclasses, f-strings, ``with``,
  comprehensions, ``*args``: ``tests/autograder/test_allowlist_honest_python.py``);
* no attribute or item write on a module, a class or a function the learner
  did not create, nor on an object the checks hold (captured before the first
  learner cell); no in-place method on such an object;
* classes derive only from ``object``, an exception, or the learner's classes.

The rules hold at compile time (:func:`compile_cell`, which the grader also runs
on its side before anything runs, ``autograder.pipeline.static_rules``) and at run time
(the guards).  A refusal at run time raises :class:`RuleBroken` *and* is
recorded in this module (:data:`VIOLATIONS`): catching the error does not undo
it; the grader reads the record after every test cell and gives that test, and
every later one, 0 with the rule and the line.

How the restriction reaches the kernel: the grader (``autograder.kernels.execute``) and
the self-check (``autograder.learner.learner_check``) send the kernel, in place of a
learner cell's text, one line that calls :func:`run_cell` with that text (the
notebook keeps the learner's text).  The learner's notebook is untouched and
runs as plain Python in JupyterLab.  A learner cannot undo this: the
transformation happens in the grader's process, and the cell runs in a
namespace of its own (:class:`Namespace`) whose builtins are :data:`BUILTINS`,
so nothing of IPython (``get_ipython``, ``In``, ``Out``, hooks) or of this
module is reachable from it.  (An IPython ``ast_transformers`` entry would run
inside the kernel, where the code it restricts could in principle reach the
shell that holds it; it would also have to tell learner cells from test cells.)
"""

import ast
import builtins
import dataclasses
import inspect
import operator
import os
import string
import tempfile
import types

from RestrictedPython import compile_restricted_exec, safe_builtins
from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence
from RestrictedPython.transformer import ALLOWED_FUNC_NAMES, RestrictingNodeTransformer, copy_locations

TAG_LINE = "misconception: "   # the same marker as the checks' messages (autograder.checks._observe)

RULES = {
    "plain-python": "write plain Python: no IPython magics or shell lines, nothing the allowlist leaves out",
    "private-name": "use no name or attribute that starts with _ (except your own names)",
    "forbidden-builtin": ("do not use getattr, setattr, delattr, vars, globals, locals, eval, exec, compile, "
                          "__import__, open, get_ipython, IPython's In/Out or type with three arguments"),
    "imports": "import only the modules the exercise lists",
    "module-attribute": "use only the names the exercise allows from a module",
    "writes": "do not change modules, classes, functions or objects you did not create",
    "subclasses": "derive classes only from object, an exception or your own classes",
    "calls-the-op": "use only the building blocks: the function may not call the operation it implements",
}

# Not a rule: a cell that Python itself cannot parse (and that is no IPython syntax). It is
# reported as Python reports it, with no misconception tag, and costs only the tests that need
# what the cell would have defined (autograder.pipeline.static_rules).
SYNTAX_ERROR = "syntax-error"

PUBLIC = "every public name"   # MODULE_NAMES value: every name that does not start with "_"

# What each module offers a learner's cell. reftorch's own modules offer their public names
# (only reftorch's own functions, classes and plain values; see Guards.module_attribute).
MODULE_NAMES = {
    "reftorch": PUBLIC, "reftorch.primitives": PUBLIC, "reftorch.nn": PUBLIC, "reftorch.optim": PUBLIC,
    "reftorch.autograd": PUBLIC,
    "copy": {"copy", "deepcopy", "Error"},
    "warnings": {"warn", "catch_warnings", "simplefilter"},
    "math": PUBLIC, "numbers": PUBLIC, "itertools": PUBLIC,
    # not attrgetter/methodcaller: they read any attribute, past the guard
    "operator": {"add", "sub", "mul", "truediv", "floordiv", "mod", "neg", "index", "eq", "ne", "lt", "le", "gt",
                 "ge", "itemgetter", "not_", "and_", "or_", "xor"},
    "functools": {"partial", "reduce", "wraps", "lru_cache", "cache", "total_ordering"},
    "collections": {"namedtuple", "OrderedDict", "defaultdict", "Counter", "deque"},
    "dataclasses": {"dataclass", "field", "fields", "replace", "astuple", "asdict"},
    # not get_type_hints: it evaluates annotations written as strings
    "typing": {"Any", "Callable", "Dict", "Iterable", "Iterator", "List", "Mapping", "NamedTuple", "Optional",
               "Sequence", "Set", "Tuple", "Union", "TYPE_CHECKING"},
    "io": {"BytesIO"},
    "numpy": {"array", "asarray", "arange", "zeros", "ones", "empty", "ndarray", "dtype", "float16",
              "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_", "complex64",
              "complex128", "prod", "shares_memory", "may_share_memory", "array_equal", "ascontiguousarray",
              "asfortranarray", "frombuffer", "broadcast_to", "newaxis"},
}

BASE_IMPORTS = ("reftorch", "reftorch.primitives", "reftorch.nn", "reftorch.optim", "copy", "warnings", "math",
                "numbers", "itertools", "functools", "operator", "collections", "dataclasses", "typing", "numpy")


@dataclasses.dataclass(frozen=True)
class Policy:
    """What one assignment's cells may use beyond plain Python."""
    imports: tuple = BASE_IMPORTS
    private_attributes: frozenset = frozenset()   # attributes starting with "_" that may be read

    def module_names(self, module):
        return MODULE_NAMES.get(module, frozenset())


POLICIES = {
    # a wrong answer copies a tensor's Python attributes: reading an instance's __dict__ is allowed
    "clone": Policy(private_attributes=frozenset({"__dict__"})),
    "detach": Policy(private_attributes=frozenset({"_version"})),
    "new_tensor": Policy(private_attributes=frozenset({"__dict__"})),
    "copy_into": Policy(private_attributes=frozenset({"_version", "_base"})),
    "python_copy": Policy(private_attributes=frozenset({"__dict__", "_version_counter"})),
    "model_snapshot": Policy(),
    "strides_and_views": Policy(),
    "numpy_bridge": Policy(imports=BASE_IMPORTS + ("numpy",)),
    "save_and_load": Policy(imports=BASE_IMPORTS + ("io",)),
    "target_network": Policy(),
}

FORBIDDEN_BUILTINS = frozenset({"__import__", "getattr", "setattr", "delattr", "vars", "globals", "locals", "eval", "exec",
                                "compile", "open", "breakpoint", "get_ipython", "In", "Out"})
# not builtins of a learner's cell either (a learner may name a variable so): IPython's and the REPL's
_NOT_SHARED = frozenset({"input", "help", "dir", "memoryview", "exit", "quit", "display"})
# names RestrictedPython's code uses for its guards (a learner may not bind or read them)
_RESERVED = frozenset({"_print"})


# Special methods a learner's own class may define (beyond RestrictedPython's ALLOWED_FUNC_NAMES),
# and reach on ``super()`` of it: plain Python for a class of one's own.  Not __getattr__,
# __getattribute__, __setattr__, __delattr__, __get__, __set__, __class_getitem__, __init_subclass__,
# __set_name__, __reduce__...: they change how attributes, classes or pickling work.
LEARNER_DUNDERS = frozenset({
    "__init__", "__post_init__", "__repr__", "__str__", "__len__", "__iter__", "__next__", "__getitem__",
    "__setitem__", "__contains__", "__hash__", "__bool__", "__call__", "__enter__", "__exit__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__radd__", "__sub__",
    "__rsub__", "__mul__", "__rmul__", "__truediv__", "__neg__", "__matmul__", "__copy__", "__deepcopy__",
}) | ALLOWED_FUNC_NAMES


def learner_private(name):
    """A learner's own private name (``_helper``): one leading underscore, not a guard's name."""
    return (name.startswith("_") and not name.startswith("__") and not name.endswith("_")
            and name not in _RESERVED and not name[1:].isdigit())


@dataclasses.dataclass(frozen=True)
class Violation:
    rule: str
    cell: str        # the cell's grade_id, or "cell N"
    line: int
    code: str        # that line of the cell
    detail: str

    def where(self):
        return f"{self.cell}, line {self.line}: `{self.code.strip()}`"

    def text(self):
        if self.rule == SYNTAX_ERROR:
            return f"{self.detail} ({self.where()})"
        return (f"rule broken: {RULES[self.rule]} ({self.detail}; {self.where()})\n"
                f"    {TAG_LINE}rules/{self.rule}")


class RuleBroken(Exception):
    """Raised by a guard; the refusal is recorded in VIOLATIONS whether or not it is caught."""


# --- compile time --------------------------------------------------------------------

class CellPolicy(RestrictingNodeTransformer):
    """RestrictedPython's transformer with the course's rules (subclassed, its public extension API).

    ``policy`` and ``found`` are set on a subclass per compilation (:func:`compile_cell`);
    ``found`` collects ``(line, rule, detail)``.
    """

    policy = Policy()
    found = None

    def error(self, node, info):
        rule = "plain-python"
        if "starts with \"_\"" in info:
            rule = "private-name"
        self.found.append((getattr(node, "lineno", 1), rule, info))
        super().error(node, info)

    def refuse(self, node, rule, detail):
        self.found.append((getattr(node, "lineno", 1), rule, detail))
        self.errors.append(f"Line {getattr(node, 'lineno', 1)}: {detail}")

    def check_name(self, node, name, allow_magic_methods=False):
        if name is None:
            return
        if name in FORBIDDEN_BUILTINS:
            self.refuse(node, "forbidden-builtin", f"uses {name}")
            return
        if learner_private(name):
            return
        if allow_magic_methods and name in LEARNER_DUNDERS and node.col_offset != 0:
            return   # __init__, __eq__, __repr__... as methods of the learner's own classes
        if name.startswith("_") and name != "_":
            self.refuse(node, "private-name", f'"{name}" starts with "_"')
            return
        super().check_name(node, name, allow_magic_methods)

    def visit_Nonlocal(self, node):
        """``nonlocal n`` in a nested function: plain Python, it rebinds a name of the enclosing one."""
        for name in node.names:
            self.check_name(node, name)
        return node

    # the parameters of each method being compiled (``self``, ``other``), innermost last: only
    # through them may a private attribute (``self._count``) be named; the guard then checks at run
    # time that the object is of a class the learner wrote
    def _owners(self):
        if not hasattr(self, "owner_stack"):
            self.owner_stack = [("module", frozenset())]
        return self.owner_stack

    def visit_ClassDef(self, node):
        self._owners().append(("class", frozenset()))
        try:
            return super().visit_ClassDef(node)
        finally:
            self._owners().pop()

    def visit_FunctionDef(self, node):
        kind, names = self._owners()[-1]
        if kind == "class":   # a method: its parameters (self, other) may hold the learner's objects
            arguments = node.args
            names = names | {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}
        self._owners().append(("function", names))
        try:
            return super().visit_FunctionDef(node)
        finally:
            self._owners().pop()

    def _own_private(self, node):
        """``self._count`` (or ``other._count``) inside a method of the learner's class."""
        return (learner_private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in self._owners()[-1][1])

    def _guarded_attribute(self, node, write_guard):
        """``obj.name`` read through ``_getattr_(obj, "name")``, or written through ``write_guard(obj).name``
        (the ``_`` check of the name is skipped: the caller has decided it is allowed)."""
        node = self.node_contents_visit(node)
        if isinstance(node.ctx, ast.Load):
            new = ast.Call(func=ast.Name("_getattr_", ast.Load()), args=[node.value, ast.Constant(node.attr)],
                           keywords=[])
            copy_locations(new, node)
            return new
        write = ast.Call(func=ast.Name(write_guard, ast.Load()), args=[node.value], keywords=[])
        copy_locations(write, node.value)
        node.value = write
        return node

    def visit_Attribute(self, node):
        if (self._own_private(node) or (node.attr in LEARNER_DUNDERS and _calls_super(node.value))) \
                and node.attr not in self.policy.private_attributes:
            # the learner's own private attribute (self._count), or super().__init__: allowed at run
            # time only on an object of a class the learner wrote (Guards.getattr_, write_own_)
            return self._guarded_attribute(node, "_write_own_")
        if node.attr in self.policy.private_attributes:
            # declared by the assignment: guarded like any attribute, the "_" check skipped
            return self._guarded_attribute(node, "_write_")
        return super().visit_Attribute(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "type" and len(node.args) + len(node.keywords) != 1:
            self.refuse(node, "forbidden-builtin", "type() with more than one argument builds a class")
        return super().visit_Call(node)

    def visit_AnnAssign(self, node):
        """``size: Tuple[int, ...] = ()`` (a dataclass field, an annotated name): plain Python."""
        if not isinstance(node.target, ast.Name):
            self.refuse(node, "plain-python", "an annotation on an attribute or an item")
            return node
        self.check_name(node, node.target.id)
        return self.node_contents_visit(node)

    def visit_AugAssign(self, node):
        """``a.b += c`` and ``a[k] += c`` (plain Python that RestrictedPython refuses): the target's
        object goes through the write guard, as for ``a.b = c``."""
        if isinstance(node.target, (ast.Attribute, ast.Subscript)):
            target = node.target
            guard = "_write_"
            if isinstance(target, ast.Attribute) and target.attr.startswith("_") \
                    and target.attr not in self.policy.private_attributes:
                if self._own_private(target):
                    guard = "_write_own_"   # self._count += 1 on the learner's own object
                else:
                    self.refuse(node, "private-name", f'"{target.attr}" starts with "_"')
            target.value = self.visit(target.value)
            if isinstance(target, ast.Subscript):
                target.slice = self.visit(target.slice)
            write = ast.Call(func=ast.Name(guard, ast.Load()), args=[target.value], keywords=[])
            copy_locations(write, target.value)
            target.value = write
            node.value = self.visit(node.value)
            return node
        return super().visit_AugAssign(node)

    def check_import_names(self, node):
        for alias in node.names:
            if any(part.startswith("_") for part in alias.name.split(".")):
                self.refuse(node, "private-name", f'imports "{alias.name}", which starts with "_"')
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        if isinstance(node, ast.ImportFrom) and node.level:
            modules = ["." * node.level + (node.module or "")]
        for module in modules:
            if module not in self.policy.imports:
                self.refuse(node, "imports", f"imports {module}; allowed: {', '.join(self.policy.imports)}")
        if isinstance(node, ast.ImportFrom) and node.module in self.policy.imports:
            allowed = self.policy.module_names(node.module)
            for alias in node.names:
                if allowed is not PUBLIC and alias.name not in allowed and not _is_submodule(node.module, alias.name,
                                                                                              self.policy):
                    self.refuse(node, "module-attribute", f"takes {alias.name} from {node.module}")
        return super().check_import_names(node)


def _calls_super(node):
    """``super()`` or ``super(Class, self)``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _is_submodule(module, name, policy):
    return f"{module}.{name}" in policy.imports


def looks_like_ipython(source, line):
    lines = source.splitlines()
    text = lines[line - 1].lstrip() if 0 < line <= len(lines) else ""
    return text.startswith(("%", "!")) or text.rstrip().endswith("?")


def compile_cell(source, assignment, name):
    """``(code or None, [Violation])``: the cell compiled under the assignment's policy."""
    policy = POLICIES.get(assignment, Policy())
    found = []
    transformer = type("AssignmentPolicy", (CellPolicy,), {"policy": policy, "found": found})
    lines = source.splitlines()
    try:
        ast.parse(source)
    except SyntaxError as error:
        line = error.lineno or 1
        ipython = looks_like_ipython(source, line)
        rule = "plain-python" if ipython else SYNTAX_ERROR
        detail = "IPython syntax (a magic or a shell line) is not Python" if ipython else error.msg
        code = lines[line - 1] if 0 < line <= len(lines) else ""
        return None, [Violation(rule, name, line, code, detail)]
    result = compile_restricted_exec(source, filename=f"<learner cell {name}>", policy=transformer)
    violations, seen = [], set()
    for line, rule, detail in found:
        if (line, rule, detail) in seen:
            continue
        seen.add((line, rule, detail))
        code = lines[line - 1] if 0 < line <= len(lines) else ""
        violations.append(Violation(rule, name, line, code, detail))
    if result.errors and not violations:
        violations.append(Violation("plain-python", name, 1, lines[0] if lines else "", "; ".join(result.errors)))
    return (None if violations else result.code), violations


# --- run time ------------------------------------------------------------------------

VIOLATIONS = []   # every refusal at run time, as Violation objects (read by the grader)
_trusted_ids = set()   # objects the checks hold, captured before the first learner cell
_trusted_keep = []     # (keeps them alive, so their ids stay theirs)
_learner_classes = set()
_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
                       "add", "discard", "sort", "reverse", "fill", "resize", "put", "itemset", "setflags",
                       "write", "seek", "truncate", "tofile", "dump", "byteswap", "partition"})
_UNSAFE_STRING_METHODS = frozenset({"format", "format_map"})   # "{0.__globals__}".format(f)


def _where():
    """``(cell name, line, code)`` of the innermost learner frame on the stack."""
    frame = inspect.currentframe()
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith("<learner cell "):
            name = filename[len("<learner cell "):-1]
            return name, frame.f_lineno, _SOURCES.get(name, [])
        frame = frame.f_back
    return "?", 0, []


_SOURCES = {}   # cell name -> its lines, for messages


def refuse(rule, detail):
    name, line, lines = _where()
    code = lines[line - 1] if 0 < line <= len(lines) else ""
    violation = Violation(rule, name, line, code, detail)
    VIOLATIONS.append(violation)
    raise RuleBroken(violation.text())


def _learner_made(obj):
    return id(obj) in _learner_classes


def _is_trusted(obj):
    return id(obj) in _trusted_ids


def capture_trusted(roots):
    """Record every object reachable (three levels of containers deep) from ``roots``'s values:
    lists, dicts, sets, tensors and arrays the checks hold may then not be written by a learner."""
    todo = [(value, 0) for value in roots]
    while todo:
        value, depth = todo.pop()
        if id(value) in _trusted_ids or isinstance(value, (str, bytes, int, float, bool, type(None))):
            continue
        if isinstance(value, (types.ModuleType, types.FunctionType, type)):
            continue   # handled by kind in the write guard
        _trusted_ids.add(id(value))
        _trusted_keep.append(value)
        if depth < 3:
            if isinstance(value, dict):
                todo.extend((v, depth + 1) for v in list(value.values()))
            elif isinstance(value, (list, tuple, set, frozenset)):
                todo.extend((v, depth + 1) for v in list(value))


def _fields(template):
    """Every field name of a format string, those nested in format specs included."""
    for _, field, spec, _ in string.Formatter().parse(template):
        if field is not None:
            yield field
        if spec and "{" in spec:
            yield from _fields(spec)


def _checked_format(template, method):
    """``str.format`` whose fields may index (``{0[1]}``) but not read attributes (``{0.__globals__}``)."""
    for field in _fields(template):
        if "." in field:
            refuse("forbidden-builtin", f"str.format reads the attribute {field!r}")
    return method


class Guards:
    """The guard functions RestrictedPython's code calls, for one assignment's policy."""

    def __init__(self, policy, namespace):
        self.policy = policy
        self.namespace = namespace

    # attribute reads
    def getattr_(self, obj, name, *default):
        if not isinstance(name, str):
            refuse("private-name", "an attribute name that is not a string")
        if name.startswith("_") and name not in self.policy.private_attributes \
                and not _own_attribute(obj, name):
            refuse("private-name", f'reads .{name}')
        if name == "__dict__" and isinstance(obj, (types.ModuleType, type, types.FunctionType,
                                                   types.BuiltinFunctionType)):
            refuse("private-name", "reads the __dict__ of a module, class or function")
        if isinstance(obj, types.ModuleType):
            return self.module_attribute(obj, name)
        if isinstance(obj, str) and name in _UNSAFE_STRING_METHODS:
            return _checked_format(obj, getattr(obj, name))
        if _is_trusted(obj) and (name in _MUTATORS or (name.endswith("_") and not name.startswith("_"))):
            refuse("writes", f"calls .{name} on an object the checks hold")
        value = getattr(obj, name, *default)
        if isinstance(value, types.ModuleType) and value.__name__ not in self.policy.imports:
            refuse("module-attribute", f"reaches the module {value.__name__} through .{name}")
        return value

    def module_attribute(self, module, name):
        if name.startswith("_"):
            refuse("private-name", f"reads {module.__name__}.{name}")
        allowed = self.policy.module_names(module.__name__)
        if module.__name__ not in self.policy.imports and not module.__name__.startswith("reftorch"):
            refuse("module-attribute", f"uses the module {module.__name__}, which the exercise does not list")
        value = getattr(module, name)
        if allowed is PUBLIC:
            if module.__name__.startswith("reftorch"):
                if isinstance(value, types.ModuleType):
                    if not value.__name__.startswith("reftorch"):
                        refuse("module-attribute", f"reaches the module {value.__name__} through "
                                                   f"{module.__name__}.{name}")
                    return value
                owner = getattr(value, "__module__", None) if callable(value) else None
                if callable(value) and not (isinstance(owner, str) and owner.startswith("reftorch")):
                    refuse("module-attribute", f"{module.__name__}.{name} is not one of reftorch's own names")
            elif isinstance(value, types.ModuleType):
                refuse("module-attribute", f"reaches the module {value.__name__} through {module.__name__}.{name}")
            return value
        if name not in allowed:
            refuse("module-attribute", f"uses {module.__name__}.{name}; allowed: {', '.join(sorted(allowed))}")
        return value

    # writes
    def write_(self, obj):
        if isinstance(obj, types.ModuleType):
            refuse("writes", f"changes the module {obj.__name__}")
        if isinstance(obj, type) and not _learner_made(obj):
            refuse("writes", f"changes the class {obj.__name__}, which you did not create")
        if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
            if not (isinstance(obj, types.FunctionType) and obj.__globals__ is self.namespace):
                refuse("writes", "changes a function you did not write")
        if _is_trusted(obj):
            refuse("writes", "changes an object the checks hold")
        return obj

    def write_own_(self, obj):
        """The write guard of a private attribute (``self._count = 0``): the learner's own objects only."""
        if not (_learner_made(obj) or _learner_made(type(obj))):
            refuse("private-name", "writes a private attribute of an object you did not create")
        return self.write_(obj)

    # classes
    def define_class(self, name, bases, namespace):
        for base in bases:
            if base is object or _learner_made(base) or (isinstance(base, type) and issubclass(base, Exception)
                                                          and base.__module__ == "builtins"):
                continue
            refuse("subclasses", f"class {name} derives from {getattr(base, '__name__', base)!s}")
        cls = type(name, bases, namespace)
        _learner_classes.add(id(cls))
        _trusted_keep.append(cls)
        return cls

    def type_(self, *args, **kwargs):
        if len(args) != 1 or kwargs:
            refuse("forbidden-builtin", "type() with more than one argument builds a class")
        if isinstance(args[0], type):
            refuse("forbidden-builtin", "type() of a class gives its metaclass, which builds classes")
        return type(args[0])

    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level or name not in self.policy.imports:
            refuse("imports", f"imports {name}; allowed: {', '.join(self.policy.imports)}")
        module = __import__(name, globals, locals, fromlist, 0)
        if fromlist:
            for item in fromlist:
                if f"{name}.{item}" not in self.policy.imports:
                    self.module_attribute(module, item)
        else:
            top = name.split(".")[0]
            if top not in self.policy.imports:
                refuse("imports", f"imports {top}")
        return module

    def inplacevar_(self, op, x, y):
        return _INPLACE[op](x, y)

    def apply_(self, function, *args, **kwargs):
        return function(*args, **kwargs)

    def getitem_(self, obj, key):
        return obj[key]

    def builtins(self):
        allowed = {name: value for name, value in safe_builtins.items()
                   if name not in ("setattr", "delattr", "_getattr_") and not name.startswith("__")}
        for name in ("min", "max", "sum", "all", "any", "enumerate", "map", "filter", "reversed", "sorted",
                     "zip", "list", "dict", "set", "frozenset", "tuple", "iter", "next", "object",
                     "staticmethod", "classmethod", "property", "super", "bytes", "format", "hasattr",
                     "StopAsyncIteration", "ExceptionGroup", "NotImplemented", "Ellipsis"):
            if hasattr(builtins, name):
                allowed[name] = getattr(builtins, name)
        allowed["hasattr"] = lambda obj, name: _hasattr(self, obj, name)
        guard = self.type_   # one bound method: the learner's `type`
        allowed["isinstance"] = lambda obj, cls: isinstance(obj, _real_type(cls, guard))
        allowed["issubclass"] = lambda cls, parent: issubclass(cls, _real_type(parent, guard))
        allowed["bytearray"] = bytearray
        allowed["type"] = guard
        allowed["__import__"] = self.import_
        allowed["__build_class__"] = builtins.__build_class__
        return allowed


def _own_attribute(obj, name):
    """A private attribute (``_count``) of an object or class the learner made, or a special method
    (``__init__``) reached through ``super()`` inside the learner's own class."""
    if learner_private(name):
        return _learner_made(obj) or _learner_made(type(obj))
    if type(obj) is super and name in LEARNER_DUNDERS:
        return _learner_made(obj.__thisclass__)
    return False


def _real_type(cls, guard):
    """``type`` as the learner's cell sees it is a guard; ``isinstance(x, type)`` means the class."""
    if cls is guard:
        return type
    if isinstance(cls, tuple):
        return tuple(_real_type(c, guard) for c in cls)
    return cls


def _hasattr(guards, obj, name):
    try:
        guards.getattr_(obj, name)
    except AttributeError:
        return False
    return True


_INPLACE = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
            "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "<<=": operator.ilshift,
            ">>=": operator.irshift, "&=": operator.iand, "^=": operator.ixor, "|=": operator.ior,
            "@=": operator.imatmul}


class _Printer:
    """RestrictedPython's ``_print_``: ``print(...)`` in a learner's cell prints on stdout."""

    def __init__(self, _getattr_=None):
        pass

    def _call_print(self, *objects, **kwargs):
        kwargs.pop("file", None)
        print(*objects, **kwargs)

    def __call__(self):
        return ""


# --- the learner's namespace in a kernel ----------------------------------------------

class Namespace:
    """The globals of a kernel's learner cells, kept beside IPython's ``user_ns``.

    Before each learner cell, the public names the other cells bound (imports,
    constants, check functions) are copied in from ``user_ns``; IPython's own
    names (``In``, ``Out``, ``get_ipython``, ``exit``...) and every name that
    starts with ``_`` (``_i3`` holds a cell's source) are not.  After it, the
    public names the cell bound are copied back for the test cells.
    """

    def __init__(self, assignment, user_ns, hidden):
        self.policy = POLICIES.get(assignment, Policy())
        self.user_ns = user_ns
        self.hidden = set(hidden)
        self.globals = {}
        self.guards = Guards(self.policy, self.globals)
        self.globals.update({
            "__builtins__": self.guards.builtins(), "__name__": "__main__", "__metaclass__": self.guards.define_class,
            "_getattr_": self.guards.getattr_, "_write_": self.guards.write_, "_getitem_": self.guards.getitem_,
            "_write_own_": self.guards.write_own_,
            "_getiter_": iter, "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
            "_unpack_sequence_": guarded_unpack_sequence, "_apply_": self.guards.apply_,
            "_inplacevar_": self.guards.inplacevar_, "_print_": _Printer,
        })
        self.guard_names = set(self.globals)
        self.mine = set()   # names learner cells bound

    def shared(self):
        return {name: value for name, value in self.user_ns.items()
                if not name.startswith("_") and name not in self.hidden and name not in FORBIDDEN_BUILTINS
                and (name not in _NOT_SHARED or name in self.mine)}

    def bind(self, values):
        self.globals.update(values)
        self.user_ns.update(values)
        self.mine.update(values)

    def run(self, code):
        for name, value in self.shared().items():
            if name not in self.mine or self.user_ns.get(name) is not self.globals.get(name):
                self.globals[name] = value
        before = {name: self.globals.get(name) for name in self.globals}
        try:
            exec(code, self.globals)
        finally:
            for name, value in list(self.globals.items()):
                if name in self.guard_names:
                    continue
                if name not in before or before[name] is not value:
                    self.mine.add(name)
                    if not name.startswith("_"):
                        self.user_ns[name] = value


_namespaces = {}


def run_cell(source, assignment, name):
    """Compile one learner cell under its assignment's policy and run it (called in the kernel)."""
    from IPython import get_ipython
    shell = get_ipython()
    if assignment not in _namespaces:
        capture_trusted([v for k, v in shell.user_ns.items() if not k.startswith("_")])
        _namespaces[assignment] = Namespace(assignment, shell.user_ns, shell.user_ns_hidden)
    _SOURCES[name] = source.splitlines()
    code, violations = compile_cell(source, assignment, name)
    if not violations:
        _namespaces[assignment].run(code)
        return
    if violations[0].rule == SYNTAX_ERROR:   # Python's own error, as Python reports it
        compile(source, f"<learner cell {name}>", "exec")
    # The grader found them too, before the notebook ran (autograder.pipeline.static_rules), and charges
    # them to the tests of the functions they sit in: the rest of the cell runs, and each function
    # that breaks a rule is bound to one that raises the rule's error.
    code, refused = compile_without(source, assignment, name, violations)
    if code is not None:
        _namespaces[assignment].run(code)
        _namespaces[assignment].bind({function: _refusing(text) for function, text in refused.items()})
    raise RuleBroken(violations[0].text())


def _refusing(text):
    def refused(*args, **kwargs):
        raise RuleBroken(text)
    return refused


def compile_without(source, assignment, name, violations):
    """``(code or None, {function: message})``: the cell without its top-level statements that break
    a rule; the functions and classes among them, with the message of their first violation."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None, {}
    keep, refused = [], {}
    for statement in tree.body:
        first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
        last = statement.end_lineno or statement.lineno
        broken = [v for v in violations if first <= v.line <= last]
        if not broken:
            keep.append(statement)
        elif isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
            refused[statement.name] = broken[0].text()
    policy = POLICIES.get(assignment, Policy())
    transformer = type("AssignmentPolicy", (CellPolicy,), {"policy": policy, "found": []})
    result = compile_restricted_exec(ast.Module(body=keep, type_ignores=[]), filename=f"<learner cell {name}>",
                                     policy=transformer)
    return (None if result.errors else result.code), refused


def wrapped(source, assignment, name):
    """The line the grader sends to the kernel in place of a learner cell."""
    return ("__import__('autograder.kernels.allowlist').kernels.allowlist.run_cell(%r, %r, %r)"
            % (source, assignment, name))


# The grader reads the run-time refusals after each test cell (through user_expressions).
VIOLATIONS_EXPRESSION = ("[v.text() for v in __import__('sys').modules['autograder.kernels.allowlist'].VIOLATIONS] "
                         "if 'autograder.kernels.allowlist' in __import__('sys').modules else []")


# --- the grader's side (also the self-check's) ---------------------------------------

def empty_kernel_folder(assignment):
    """A new empty folder named after the assignment, where a grading (or self-check) kernel starts:
    the notebook and its hidden tests are not there, and its path says nothing of who runs it."""
    parent = tempfile.mkdtemp(prefix="autograder-kernel-")
    folder = os.path.join(parent, assignment or "notebook")
    os.mkdir(folder)
    return folder


def learner_source(nb, index, assignment):
    """What the kernel is sent for cell ``index``: a learner cell of an assignment with an allowlist
    goes through ``autograder.kernels.allowlist.run_cell``; any other cell as it is."""
    from ..pipeline.learner_code import cell_name, is_learner_cell   # the grader's side only (not in the sandbox)

    cell = nb.cells[index]
    if assignment in POLICIES and is_learner_cell(cell):
        return wrapped(cell.source, assignment, cell_name(nb, index))
    return cell.source

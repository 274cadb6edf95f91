"""What the learner's code defines and uses, read from its syntax tree (nothing runs).

The static rules (``autograder.pipeline.static_rules``) need a few facts about a
notebook's code before it runs: which cells the learner wrote, what each
top-level name stands for (``torch`` is the module ``reftorch``, ``tensor_on``
is ``reftorch.primitives.tensor_on``), which names a function binds locally
(they shadow the globals), which functions the learner defines and which of
them each one calls, directly or not. This module answers those questions and
nothing else.
"""

import ast


# --- which cells are the learner's ---------------------------------------------

def nbgrader_metadata(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def is_learner_cell(cell):
    """Code the learner wrote: solution cells, and cells without nbgrader metadata (added or scratch)."""
    meta = nbgrader_metadata(cell)
    return cell.get("cell_type") == "code" and (not meta or meta.get("solution") or not meta.get("locked")) \
        and not (meta.get("grade") and not meta.get("solution"))


def is_test_cell(cell):
    meta = nbgrader_metadata(cell)
    return cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution")


def cells_of_test_code(nb):
    """Indices of the cells that hold test code, in notebook order: the grader and the self-check
    run every other cell first, then these, so no learner cell runs after test code reached the
    kernel (a cell of the learner's that comes after the tests runs before them).

    Test code is every test cell, and every instructor code cell (locked, not the learner's) from
    the first test cell or the first instructor cell that imports the checks on: the import of the
    check functions, the self-check's call at the end.  The instructor's set-up cells above
    (``import reftorch as torch``) keep their place."""
    cells = nb.cells
    starts = [i for i, cell in enumerate(cells) if is_test_cell(cell) or (
        cell.get("cell_type") == "code" and not is_learner_cell(cell)
        and "autograder.checks" in cell.get("source", ""))]
    if not starts:
        return []
    first = starts[0]
    return [i for i, cell in enumerate(cells) if cell.get("cell_type") == "code" and (
        is_test_cell(cell) or (i >= first and not is_learner_cell(cell)))]


def grading_order(nb):
    """The order in which the grader and the self-check send a notebook's code cells to the kernel:
    every cell but the test code (:func:`cells_of_test_code`) in notebook order, then the test code."""
    last = cells_of_test_code(nb)
    deferred = set(last)
    return [i for i, cell in enumerate(nb.cells)
            if cell.get("cell_type") == "code" and i not in deferred] + last


def parse_cell(cell):
    try:
        return ast.parse(cell.get("source", ""))
    except (SyntaxError, ValueError):
        return None   # it will fail when it runs; nothing to check


def cell_name(nb, index):
    return nbgrader_metadata(nb.cells[index]).get("grade_id") or f"cell {index}"


# --- names: what the notebook's global names are bound to ----------------------

class GlobalNames:
    """What each top-level name of the notebook stands for, as far as the tree tells.

    ``dotted[name]`` is the dotted path of an imported module or object
    (``torch`` -> ``reftorch``, ``tensor_on`` -> ``reftorch.primitives.tensor_on``),
    kept only for names that are never bound to anything else at the top level
    (aliases of such names count as imports too).
    """

    def __init__(self, trees):
        dotted, other = {}, set()
        for tree in trees:
            for node in tree.body:
                self._collect(node, dotted, other)
        self.dotted = {name: path for name, path in dotted.items() if name not in other}
        self.bound = set(dotted) | other   # every name the notebook binds at the top level

    def _collect(self, node, dotted, other):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    dotted[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    dotted[top] = top
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                dotted[alias.asname or alias.name] = f"{node.module or ''}.{alias.name}"
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            for target in targets:
                for name in bound_names(target):
                    path = self._resolve_with(value, dotted) if isinstance(target, ast.Name) else None
                    if path and not isinstance(node, ast.AugAssign):
                        dotted.setdefault(name, path)
                        if dotted[name] != path:
                            other.add(name)
                    else:
                        other.add(name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            other.add(node.name)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.If, ast.While, ast.Try)):
            for child in ast.walk(node):
                for target in targets_of(child):
                    other.update(bound_names(target))
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    self._collect(child, dotted, other)

    @staticmethod
    def _resolve_with(node, dotted):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in dotted:
            return ".".join([dotted[node.id]] + parts[::-1])
        return None

    def resolve(self, node, local):
        """The dotted path of ``node`` if it names an imported module or object (not shadowed)."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in local:
            return None
        return self._resolve_with(node, self.dotted)


def bound_names(target):
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in bound_names(t)]
    if isinstance(target, ast.Starred):
        return bound_names(target.value)
    return []


def targets_of(node):
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    if isinstance(node, ast.NamedExpr):
        return [node.target]
    return []


def local_names(function):
    """Names bound inside a function (its parameters included): they shadow the globals."""
    names = set()
    if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = function.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if arg is not None:
                names.add(arg.arg)
    body = function.body if isinstance(function.body, list) else [function.body]
    global_names = set()
    for statement in body:
        for node in ast.walk(statement):
            for target in targets_of(node):
                names.update(bound_names(target))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            if isinstance(node, ast.Global):
                global_names.update(node.names)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update(a.asname or a.name.split(".")[0] for a in node.names)
            if isinstance(node, ast.ExceptHandler) and node.name:
                names.add(node.name)
    return names - global_names


def top_level_functions(trees_by_cell):
    """Every function (or class) the learner defines at a cell's top level: name -> (cell, node)."""
    found = {}
    for index, tree in trees_by_cell.items():
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found[node.name] = (index, node)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
                for target in node.targets:
                    for name in bound_names(target):
                        found[name] = (index, node.value)
    return found


def referenced_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def reachable(functions):
    """name -> every learner function it reaches through calls (itself included)."""
    calls = {name: referenced_names(node) & set(functions) for name, (_, node) in functions.items()}
    reach = {}
    for name in functions:
        seen, todo = set(), [name]
        while todo:
            current = todo.pop()
            if current not in seen:
                seen.add(current)
                todo.extend(calls[current])
        reach[name] = seen
    return reach

"""The grader and the course code use other packages through their public API only.

Any minor release of nbgrader, nbclient or jupyter_client may rename a private
(underscore) method or change a module global. This test reads every module
of ``autograder/``, ``src/`` and ``book/`` and lists:

* a method of ours that **overrides** an underscore method of another
  package's class (nbclient's ``_async_cleanup_kernel``, say);
* a **call or use** of another package's underscore name: ``super()._x()`` or
  ``self._x()`` resolving to another package's class, ``nbgrader_module._x``,
  ``SomeImportedClass._x``;
* an **assignment to an attribute of another package's module**
  (``nbgrader.api.create_engine = ...``), ``setattr`` on one included.

Calls are found in the syntax tree (``ast``); which class a method comes from
is read from the imported classes' MRO.  Each test can fail: the last ones run
the same finder on scratch modules that break each rule.
"""

import ast
import importlib
import importlib.util
import inspect
import os
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OURS = ("autograder", "reftorch", "crosscheck", "coursebook", "memdiagram", "warmkernels", "book")
# Configuration files traitlets executes (get_config() exists only there), not modules.
NOT_MODULES = {"autograder/nbgrader_config.py", "autograder/jupyter_server_config.py", "autograder/__main__.py",
               "book/conf.py"}

# Names with an underscore that their package documents as public.
DOCUMENTED = {
    "os._exit": "documented: exit without cleanup, for a forked child",
    "sys._getframe": "documented in the sys module",
}
# Attributes of a library module that the library documents as ours to set.
SETTABLE = {
    "warnings.showwarning": "documented: 'You may replace this function' (kernel_setup: warnings on stdout)",
    "sys.argv": "the launcher's own argv, set before it becomes the kernel (kernel_launch)",
}
def _ours(module_name):
    return (module_name or "").split(".")[0] in OURS


def _private(name):
    """An underscore name that is not a dunder nor IPython's display protocol (_repr_*_, _ipython_*_)."""
    if name.startswith("__") and name.endswith("__"):
        return False
    if name.endswith("_") and name.startswith(("_repr_", "_ipython_")):
        return False
    return name.startswith("_")


def source_files():
    """Every .py file of autograder/, src/ and book/ (relative paths), the course state and configs left out."""
    found = []
    for top in ("autograder", "src", "book"):
        for folder, dirs, files in os.walk(os.path.join(REPO, top)):
            dirs[:] = [d for d in dirs if d not in ("state", "__pycache__", "templates")
                       and not d.endswith(".egg-info")]
            found += [os.path.relpath(os.path.join(folder, f), REPO) for f in files if f.endswith(".py")]
    # a package's __main__ runs its command when imported
    return sorted(f for f in found if f not in NOT_MODULES and not f.endswith("__main__.py"))


def _imported_names(tree):
    """{local name: dotted name it is bound to} for every import of the file."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    names[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = node.module + "." + alias.name
    return names


def _dotted(node):
    """'a.b.c' for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _is_super_call(node):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super")


def static_findings(path, text):
    """What the syntax tree alone shows: underscore names of imported packages used, their
    module attributes assigned; plus (class name, method, name) for self./super() uses to resolve."""
    tree = ast.parse(text, path)
    imported = _imported_names(tree)
    findings, to_resolve = [], []

    def external(root):
        target = imported.get(root)
        return target is not None and not _ours(target) and target.split(".")[0] != "__future__"

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            dotted = _dotted(node)
            if dotted:
                root = dotted.split(".")[0]
                full = imported.get(root, root) + dotted[len(root):]
                if external(root) and full not in DOCUMENTED:
                    findings.append("%s:%d: uses %s, a private name of another package"
                                    % (path, node.lineno, full))
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            dotted = _dotted(target) if isinstance(target, ast.Attribute) else None
            root = dotted.split(".")[0] if dotted else None
            if dotted and external(root) and imported[root] + dotted[len(root):] not in SETTABLE:
                findings.append("%s:%d: assigns %s, an attribute of another package"
                                % (path, node.lineno, imported[root] + dotted[len(root):]))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                and node.args and _dotted(node.args[0]) and external(_dotted(node.args[0]).split(".")[0])):
            findings.append("%s:%d: setattr on %s, another package's object"
                            % (path, node.lineno, _dotted(node.args[0])))
    for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
        if not [b for b in cls.bases if _dotted(b) not in ("object", "Exception", "ValueError",
                                                               "RuntimeError", "TypeError")]:
            continue  # nothing inherited from another package's class
        for node in cls.body:  # what the class body defines: methods and assigned names
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(node.name):
                to_resolve.append(("defines", cls.name, node.name, node.lineno))
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and _private(target.id):
                        to_resolve.append(("defines", cls.name, target.id, node.lineno))
        for node in ast.walk(cls):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    to_resolve.append(("self", cls.name, node.attr, node.lineno))
                elif _is_super_call(node.value):
                    to_resolve.append(("super", cls.name, node.attr, node.lineno))
    return findings, to_resolve


def _load(path):
    """The module of ``path``: by its package name when it is one of ours, else from the file."""
    relative = os.path.relpath(os.path.abspath(path), REPO)
    if not relative.startswith(".."):
        parts = relative[:-3].split(os.sep)
        if parts[0] == "src":
            parts = parts[1:]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return importlib.import_module(".".join(parts))
    spec = importlib.util.spec_from_file_location("scratch_%d" % abs(hash(path)), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def resolved_findings(path, module, to_resolve):
    """Overrides of another package's underscore methods, and self./super() uses that land there."""
    findings = []
    classes = {name: obj for name, obj in vars(module).items()
               if inspect.isclass(obj) and obj.__module__ == module.__name__}
    for how, class_name, name, line in to_resolve:
        cls = classes.get(class_name)
        if cls is None:
            continue
        for base in cls.__mro__[0 if how == "self" else 1:]:
            if name in vars(base):
                if not _ours(base.__module__):
                    what = "overrides" if how == "defines" else "uses"
                    findings.append("%s:%d: %s %s %s.%s.%s, a private method of another package"
                                    % (path, line, class_name, what, base.__module__, base.__qualname__, name))
                break
    return findings


def findings_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found, to_resolve = static_findings(path, text)
    if to_resolve:  # only a module with a class built on another one is imported
        found += resolved_findings(path, _load(path), to_resolve)
    return found


@pytest.fixture(scope="module")
def everything():
    found = {}
    for relative in source_files():
        found[relative] = findings_of(os.path.join(REPO, relative))
    return found


def test_the_finder_reads_every_module_of_the_grader_and_the_course(everything):
    assert "autograder/kernels/execute.py" in everything
    assert "src/reftorch/__init__.py" in everything
    assert len(everything) > 80


def test_nothing_overrides_calls_or_patches_another_packages_private_api(everything):
    found = [line for lines in everything.values() for line in lines]
    assert found == [], "private API of another package used:\n" + "\n".join(found)


def _scratch(tmp_path, text):
    path = tmp_path / ("scratch_%d.py" % len(list(tmp_path.iterdir())))
    path.write_text(textwrap.dedent(text))
    return str(path)


# name -> (a scratch module, what each of its findings says, in order)
CAUGHT = {
    "an_override_of_nbclients_private_cleanup": ("""
        from nbclient import NotebookClient

        class Client(NotebookClient):
            async def _async_cleanup_kernel(self):
                await super()._async_cleanup_kernel()
        """, ["overrides nbclient.client.NotebookClient._async_cleanup_kernel",
              "uses nbclient.client.NotebookClient._async_cleanup_kernel"]),
    "a_call_of_nbgraders_private_method": ("""
        from nbgrader.preprocessors import ClearHiddenTests

        class Hide(ClearHiddenTests):
            def preprocess_cell(self, cell, resources, index):
                self._remove_hidden_test_region(cell)
                return cell, resources
        """, ["ClearHiddenTests._remove_hidden_test_region"]),
    "a_monkeypatch_of_a_library_global": ("""
        import nbgrader.api
        import jupyter_client.manager as manager

        nbgrader.api.create_engine = lambda *a, **k: None
        setattr(manager, "KernelManager", object)
        """, ["assigns nbgrader.api.create_engine", "setattr on manager"]),
    "a_private_module_function_of_another_package": ("""
        import nbformat

        def read(text):
            return nbformat._private_helper(text)
        """, ["nbformat._private_helper"]),
}


@pytest.mark.parametrize("case", CAUGHT)
def test_the_finder_catches(tmp_path, case):
    program, expected = CAUGHT[case]
    found = findings_of(_scratch(tmp_path, program))
    assert len(found) == len(expected) and all(e in f for e, f in zip(expected, found)), found

"""The grader's layout keeps its dependency rules (autograder/README.md, "Layout").

Every module of ``autograder/`` is parsed (``ast``, nothing imported) and each
of its imports resolved to a module name; then:

* the learner's side (``autograder.learner``) never imports the instructor's
  term (``autograder.term``) nor the engine;
* the witness (``autograder.witness``), the code that runs inside the student's
  kernel of a judged assignment, imports nothing of the grader but itself;
* the judge (``autograder.judge``) imports only the witness's plain parts;
* the checks (``autograder.checks``), which still run inside the student's kernel
  for the assignments not judged yet, import nothing of the grader but themselves,
  the witness's inputs and observations, and the judge's names: never the kernels;
* nothing imports the engine (``autograder.engine``, and ``grade``, its
  front: plan the tasks, write the results) but the command line
  (``autograder.cli``) and the engine itself;
* the pipeline and the kernels never import the term or the learner's side;
* the class on a hub (``autograder.hub``) is the term's deployment: only the
  command line imports it, and the learner's side, the pipeline and the kernels
  never do;
* the LMS's services (``autograder.lti``) build on the term: only the command
  line and the hub's LTI login import them.
"""

import ast
import os
import textwrap

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(REPO, "autograder")

ENGINE_MODULES = {"autograder.grade"}


SUB_PACKAGES = ("kernels", "pipeline", "term", "learner", "checks", "hub", "lti", "judge", "witness")


def part_of(module):
    """The sub-package a module belongs to: kernels, pipeline, term, learner, checks, engine, cli, base."""
    parts = module.split(".")
    if module in ENGINE_MODULES or parts[:2] == ["autograder", "engine"]:
        return "engine"
    if len(parts) >= 2 and parts[1] in SUB_PACKAGES:
        return parts[1]
    if module in ("autograder.cli", "autograder.__main__"):
        return "cli"
    return "base"


# (importer's part, imported part) pairs that are refused, with the rule's words
RULES = {
    ("learner", "term"): "the learner side never imports the instructor's term",
    ("learner", "engine"): "the learner side never imports the engine",
    ("checks", "kernels"): "checks never import kernels",
    ("pipeline", "term"): "the pipeline never imports the instructor's term",
    ("pipeline", "learner"): "the pipeline never imports the learner's self-check",
    ("kernels", "term"): "the kernels never import the instructor's term",
    ("kernels", "learner"): "the kernels never import the learner's self-check",
    ("learner", "hub"): "the learner side never imports the hub's deployment",
    ("pipeline", "hub"): "the pipeline never imports the hub's deployment",
    ("kernels", "hub"): "the kernels never import the hub's deployment",
    ("term", "hub"): "the term never imports the hub's deployment (the command line does)",
    ("learner", "lti"): "the learner side never imports the LMS's services",
    ("pipeline", "lti"): "the pipeline never imports the LMS's services",
    ("kernels", "lti"): "the kernels never import the LMS's services",
    ("term", "lti"): "the term never imports the LMS's services (the command line does)",
}


def modules(package_dir):
    """{module name: path} for every .py file of the package (the course-state folder excluded)."""
    found = {}
    base = os.path.dirname(package_dir)
    for folder, dirs, files in os.walk(package_dir):
        dirs[:] = [d for d in dirs if d not in ("state", "templates", "__pycache__")]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, base)[:-3].replace(os.sep, ".")
                found[dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
    return found


def imports_of(module, path, known):
    """Every (line, module) this file imports, relative imports resolved; ``from p import m``
    counts as importing ``p.m`` when that is a module."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = module if path.endswith("__init__.py") else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            found.append((node.lineno, target))
            for alias in node.names:
                if target + "." + alias.name in known:
                    found.append((node.lineno, target + "." + alias.name))
    return found


def violations(package_dir):
    """Every import that breaks a rule, as 'file:line: importer imports imported (rule)'."""
    known = modules(package_dir)
    problems, seen = [], set()
    for module, path in sorted(known.items()):
        mine = part_of(module)
        for line, imported in imports_of(module, path, known):
            if not imported.startswith("autograder"):
                continue
            theirs = part_of(imported)
            rule = RULES.get((mine, theirs))
            if mine == "checks" and theirs not in ("checks", "witness", "judge") and imported != "autograder":
                rule = rule or "checks import nothing of the grader but themselves, the witness and the judge"
            if mine == "witness" and theirs != "witness":
                rule = rule or "the witness imports nothing of the grader but itself"
            if mine == "judge" and theirs not in ("judge", "witness"):
                rule = rule or "the judge imports nothing of the grader but itself and the witness"
            if theirs == "engine" and mine not in ("engine", "cli"):
                rule = "nothing imports the engine but the command line"
            if rule and (path, line, rule) not in seen:
                seen.add((path, line, rule))
                problems.append("%s:%d: %s imports %s (%s)"
                                % (os.path.relpath(path, REPO), line, module, imported, rule))
    return problems


def test_every_module_of_the_grader_keeps_the_dependency_rules():
    assert len(modules(PACKAGE)) > 40, "the checker found too few modules: is autograder/ where it was?"
    assert violations(PACKAGE) == []


def test_every_module_belongs_to_a_named_sub_package():
    loose = sorted(m for m in modules(PACKAGE) if part_of(m) == "base"
                   and m not in ("autograder", "autograder.course", "autograder.nbgrader_config",
                                 "autograder.jupyter_server_config"))
    assert loose == [], "modules outside the layout of autograder/README.md: %s" % loose


def _scratch_package(tmp_path, files):
    """A copy of the package's shape in tmp_path with the given extra modules."""
    package = tmp_path / "autograder"
    for sub in ("", "learner", "term", "checks", "kernels", "pipeline"):
        (package / sub).mkdir(parents=True, exist_ok=True)
        (package / sub / "__init__.py").write_text("")
    for name in ("collect.py",):
        (package / "term" / name).write_text("")
    (package / "kernels" / "sandbox.py").write_text("")
    (package / "grade.py").write_text("")
    for relative, text in files.items():
        (package / relative).write_text(textwrap.dedent(text))
    return str(package)


def test_a_learner_module_that_imports_the_term_is_found(tmp_path):
    package = _scratch_package(tmp_path, {"learner/scratch.py": "from ..term import collect\n"})
    found = violations(package)
    assert len(found) == 1 and "the learner side never imports the instructor's term" in found[0], found


def test_a_check_that_imports_a_kernel_module_is_found(tmp_path):
    package = _scratch_package(tmp_path, {"checks/scratch.py": "import autograder.kernels.sandbox\n"})
    found = violations(package)
    assert found and "checks never import kernels" in found[0], found


def test_a_term_module_that_imports_the_engine_is_found(tmp_path):
    package = _scratch_package(tmp_path, {"term/scratch.py": "def f():\n    from ..grade import x\n"})
    found = violations(package)
    assert found and "nothing imports the engine but the command line" in found[0], found


def test_the_command_line_may_import_the_engine(tmp_path):
    package = _scratch_package(tmp_path, {"cli.py": "from .grade import autograde_all\n"})
    assert violations(package) == []

"""The witness's reftorch: a copy in which the pieces an exercise asks for are stubs that say so.

A judged assignment asks the student to build some of reftorch's pieces
(``clone``, ``detach``, ``.data``). The kernel that runs the student's code
must not hold reftorch's own version of them, in memory or on disk, or a
student could call it by a name built at run time, or read it. So the grader
builds, once per assignment, a copy of the reftorch package in which each
piece of :data:`PIECES` keeps its signature and docstring but its body is one
line, ``raise NotImplementedError(...)``, saying the piece is the student's to
build (as the course's build-it stubs are "not written yet"). Everything else
in the copy is reftorch as written.

The witness kernel imports reftorch from that copy (``setup.install``), and its
sandbox binds the copy both at its own path and over reftorch's folder
(``autograder.kernels.sandbox``): nothing the kernel can open holds the pieces.
Whatever in reftorch calls a piece (``contiguous()`` of a non-contiguous tensor
clones, ``torch.tensor(t)`` detaches) meets the stub too: it is the same code.
Why each assignment's list is what it is: docs/decisions/0009-the-judge-and-the-witness.md.

This module runs in the grader (it reads reftorch's source); it imports only the
standard library.
"""

import ast
import atexit
import compileall
import fcntl
import importlib.util
import os
import shutil
import stat
import tempfile
import threading

# assignment -> {reftorch module: ((function, what the student calls it), ...)}
PIECES = {
    "clone": {"reftorch._clone": (("clone", "clone()"),)},
    # its third exercise is detach().clone(), and t.clone() under no_grad is that by another name
    "detach": {"reftorch._detach": (("detach", "detach()"), ("_get_data", ".data")),
               "reftorch._clone": (("clone", "clone()"),)},
    # copy.copy(t) is pickle's __reduce_ex__; copy.deepcopy(t) is __deepcopy__
    "python_copy": {"reftorch._python_copy": (("__reduce_ex__", "copy.copy(t)"), ("__deepcopy__", "copy.deepcopy(t)"))},
    "copy_into": {"reftorch._copy_": (("copy_", "copy_()"),)},
    # both torch.tensor(t) and t.new_tensor(t) of a tensor t copy through copy_construct
    "new_tensor": {"reftorch._creation": (("copy_construct", "new_tensor(t)"),)},
    # the exercise's building blocks (array_memory, elements_of) sit below from_numpy and numpy()
    "numpy_bridge": {"reftorch._convert": (("from_numpy", "from_numpy()"), ("as_tensor", "as_tensor()"),
                                           ("numpy", "numpy()"))},
    # the views' geometry; the witness lays its inputs out with tensor_on (witness.views.Strided). The
    # strides helpers stay: every tensor is laid out and read with them (empty(size).stride() hands them out)
    "strides_and_views": {"reftorch._views": (("slice_geometry", "t[start:stop:step]"),
                                              ("transpose_geometry", "transpose()"),
                                              ("infer_expand_geometry", "expand()"))},
}

# Judged assignments whose kernel still has reftorch as written, and why in one line: the witness
# needs their pieces to build its inputs or to observe, or the pieces are not reftorch's.
NOT_STUBBED = {
    "save_and_load": "the witness reads back what my_save_compact wrote with reftorch.load, whose rebuild"
                     " step (_rebuild_tensor_v2) is what my_rebuild builds; reading it back with my_rebuild"
                     " would cost a wrong my_rebuild the save test too. reftorch.save stays either way:"
                     " it is my_save_compact's building block, not a piece to build",
    "model_snapshot": "its pieces are the student's own functions over state_dict, not reftorch's",
    "target_network": "its pieces are the student's own functions over Parameters, not reftorch's",
}

MESSAGE = "{0} is yours to build in this exercise: in the grading kernel, reftorch's {0} is a stub"


def stub_source(source, pieces):
    """``source`` (a module's text) with the body of each top-level function in ``pieces``
    (``((name, shown as), ...)``) replaced by its docstring, if any, and one ``raise``."""
    shown = dict(pieces)
    lines = source.splitlines(keepends=True)
    found = [node for node in ast.parse(source).body
             if isinstance(node, ast.FunctionDef) and node.name in shown]
    missing = set(shown) - {node.name for node in found}
    if missing:
        raise LookupError("reftorch has no function %s to stub" % ", ".join(sorted(missing)))
    for node in sorted(found, key=lambda n: n.lineno, reverse=True):   # bottom up: line numbers hold
        first = node.body[0]
        indent = " " * first.col_offset
        start = first.end_lineno if ast.get_docstring(node, clean=False) is not None else first.lineno - 1
        stub = "%sraise NotImplementedError(%r)\n" % (indent, MESSAGE.format(shown[node.name]))
        lines[start:node.end_lineno] = [stub]
    return "".join(lines)


def _reftorch_folder():
    spec = importlib.util.find_spec("reftorch")   # finds the folder without importing it
    return spec.submodule_search_locations[0]


_built = {}   # assignment -> the folder holding its copy (this process's)
_building = threading.Lock()   # the grader's workers may ask at once


def build(assignment):
    """The folder whose ``reftorch`` is the copy for ``assignment``, made once per process
    (``None`` for an assignment that asks for none of reftorch's pieces)."""
    if assignment not in PIECES:
        return None
    with _building:
        if assignment not in _built or not os.path.isdir(_built[assignment]):
            _built[assignment] = _copy(assignment)
        return _built[assignment]


def _remove(folder, owner):
    """At exit, the copy goes with the process that made it (not with a process forked from it)."""
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


PREFIX = "autograder-reftorch-"
IN_USE = ".in-use"   # in each copy: locked (shared) by the process that made it and the processes it forks
_held = []           # this process's open, locked IN_USE files


def _sweep():
    """Remove the copies nobody holds: their maker was killed before its exit handlers ran. A lock,
    not a pid, says so, since it is let go however the holder ends. Only this user's folders; one
    whose lock file is not there yet is being made."""
    root = tempfile.gettempdir()
    for name in os.listdir(root):
        path = os.path.join(root, name)
        try:
            info = os.lstat(path)   # a symbolic link is not a copy
            if not name.startswith(PREFIX) or not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                continue
            fd = os.open(os.path.join(path, IN_USE), os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(path, ignore_errors=True)
        except OSError:   # held: in use
            pass
        finally:
            os.close(fd)


def _copy(assignment):
    _sweep()
    folder = os.path.realpath(tempfile.mkdtemp(prefix="%s%s-" % (PREFIX, assignment)))   # bound as named
    fd = os.open(os.path.join(folder, IN_USE), os.O_CREAT | os.O_RDONLY, 0o644)
    fcntl.flock(fd, fcntl.LOCK_SH)
    _held.append(fd)
    atexit.register(_remove, folder, os.getpid())
    os.chmod(folder, 0o755)   # a sandboxed kernel runs as a uid of its own
    copy = os.path.join(folder, "reftorch")
    shutil.copytree(_reftorch_folder(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    for module, pieces in PIECES[assignment].items():
        path = os.path.join(folder, *module.split(".")) + ".py"
        with open(path, encoding="utf-8") as f:
            source = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(stub_source(source, pieces))
    # compiled now: the kernels that import it may not write there
    compileall.compile_dir(copy, quiet=2, workers=1)
    return folder

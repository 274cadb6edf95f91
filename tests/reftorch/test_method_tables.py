"""A strided tensor's methods are the lessons' functions themselves; sparse tensors reach theirs by layout.

The strided table is ``_tensor_methods._METHODS`` with ``_more_methods._METHODS``:
what a learner looks up on ``Tensor``, what ``show_source`` and ``inspect`` show, and what a traceback
passes through must be the function of the module that explains the
operation, with no layout wrapper in between. Until a sparse tensor exists,
``Tensor``'s attributes are those functions themselves (a fresh interpreter
checks it); ``reftorch.sparse``, imported with the first sparse tensor,
installs one table per layout, and a sparse tensor runs its own version, or
refuses.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import traceback
import warnings
from pathlib import Path

import pytest

import reftorch
from coursebook import show_source
from reftorch import _more_methods, _sparse_copies, _sparse_csr, _tensor_methods

STRIDED = {name: f for name, f in {**_tensor_methods._METHODS, **_more_methods._METHODS}.items()
           if inspect.isfunction(f)}


def _fresh(program):
    """What ``program`` prints in a fresh interpreter (no other test has made a sparse tensor)."""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
                          cwd=Path(reftorch.__file__).parents[1])
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.e2e  # a fresh interpreter of its own
def test_a_plain_import_of_reftorch_has_no_sparse_layouts_and_plain_methods():
    printed = _fresh(
        "import sys, types, reftorch\n"
        "from reftorch import _tensor_methods\n"
        "print('reftorch.sparse' in sys.modules, any(n.startswith('reftorch._sparse') for n in sys.modules))\n"
        "print(all(vars(reftorch.Tensor)[n] is f for n, f in _tensor_methods._METHODS.items()))\n"
        "t = reftorch.ones(2, 2)\n"
        "print(type(t.clone) is types.MethodType and t.clone.__func__ is reftorch._clone.clone)\n"
        "print(t.layout, t.is_sparse, t.to_dense() is t)\n"
        "print('reftorch.sparse' in sys.modules, type(vars(reftorch.Tensor)['clone']).__name__)\n"
        "print(t.to_sparse().layout, reftorch.Tensor.to_sparse.__module__)\n")
    assert printed == ["False", "False", "True", "True", "torch.strided", "False", "True",
                       # to_dense on a strided tensor imports the sparse layouts: one table per layout from then on
                       "True", "ByLayout", "torch.sparse_coo", "reftorch._sparse_convert"]


@pytest.mark.e2e  # a fresh interpreter of its own
def test_sparse_coo_tensor_imports_the_sparse_layouts_as_it_makes_the_first_one():
    printed = _fresh("import sys, reftorch\n"
                     "s = reftorch.sparse_coo_tensor([[0]], [1.0], (2,))\n"
                     "print('reftorch.sparse' in sys.modules, s.layout, s.clone().layout, type(s) is reftorch.Tensor)\n")
    assert printed == ["True", "torch.sparse_coo", "torch.sparse_coo", "True"]


def _sparse():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return reftorch.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))


@pytest.mark.parametrize("name", sorted(STRIDED))
def test_a_tensor_method_looked_up_on_the_class_is_the_lessons_function_not_a_wrapper(name):
    function = STRIDED[name]
    method = getattr(reftorch.Tensor, name)
    assert method is function, (
        f"Tensor.{name} is {method!r}, not {function.__module__}.{function.__qualname__}: a learner "
        f"reading Tensor.{name} reads a wrapper, not the lesson")
    # inspect.getsourcefile does not unwrap: it names the file the learner would open
    assert inspect.getsourcefile(method) == inspect.getsourcefile(function)


def test_show_source_of_a_tensor_method_shows_the_dense_implementation():
    for name, lesson in (("clone", reftorch._clone.clone), ("exp", reftorch._unary.exp),
                         ("__iadd__", reftorch._inplace.__iadd__), ("view", reftorch._views.view)):
        shown = show_source(getattr(reftorch.Tensor, name))
        assert shown.name == f"{lesson.__module__}.{lesson.__qualname__}"
        assert shown.text == inspect.getsource(lesson)
        assert shown.file == f"reftorch/{Path(inspect.getsourcefile(inspect.unwrap(lesson))).name}"


def test_a_strided_tensor_calls_the_lessons_function_itself():
    t = reftorch.ones(2, 3)
    # by module and name, not identity: other tests in the same process may reload a lesson's module
    def where(function):
        return function.__module__, function.__qualname__

    assert where(t.clone.__func__) == ("reftorch._clone", "clone")
    assert where(t.__iadd__.__func__) == ("reftorch._inplace", "__iadd__")
    assert where(type(t).data.fget) == where(reftorch._detach.data.fget)  # the property the strided table holds


def test_an_error_inside_a_dense_method_has_no_layout_frame_between_the_learners_line_and_the_lesson():
    t = reftorch.ones(2, 3)
    with pytest.raises(RuntimeError) as raised:
        t.view(5)  # the learner's line: a shape that does not fit
    frames = traceback.extract_tb(raised.tb)
    assert frames[0].name == inspect.currentframe().f_code.co_name
    assert (Path(frames[1].filename).name, frames[1].name) == ("_views.py", "view"), (
        "the frame after the learner's line is not the lesson's view(): "
        + " -> ".join(f"{Path(f.filename).name}:{f.name}" for f in frames))
    assert not [f for f in frames if Path(f.filename).name == "sparse.py"]


def test_a_sparse_tensor_reaches_its_own_layouts_versions():
    s = _sparse()
    assert s.clone.__func__ is _sparse_copies.clone
    assert s.detach.__func__ is _sparse_copies.detach
    assert s.data._storage is not None and s.data.is_sparse
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = s.to_sparse_csr()
    assert c.clone.__func__ is _sparse_csr.clone
    assert type(s) is reftorch.Tensor and type(c) is reftorch.Tensor  # as in torch: one class, many layouts
    with pytest.raises(NotImplementedError, match=r"reftorch does not implement exp\(\) for sparse tensors"):
        s.exp()
    with pytest.raises(NotImplementedError, match=r"reftorch does not implement view\(\) for sparse CSR tensors"):
        c.view(4)


def test_a_strided_tensor_given_a_sparse_argument_gets_torchs_errors_or_reftorchs_limit():
    s, t = _sparse(), reftorch.ones(2, 2)
    with pytest.raises(RuntimeError, match="copy_\\(\\) between dense and sparse Tensors is not implemented"):
        t.copy_(s)
    with pytest.raises(RuntimeError, match="incompatible tensor type"):
        t.data = s
    with pytest.raises(NotImplementedError, match="a sparse tensor has no such memory"):
        t + s
    assert t.untyped_storage() is not None and not t.is_sparse  # t is unchanged by the refusals
    assert t.tolist() == [[1.0, 1.0], [1.0, 1.0]]



def test_each_method_that_makes_the_first_sparse_tensor_is_replaced_by_the_layouts_own():
    """The first call of ``t.to_sparse()`` imports ``reftorch.sparse`` and calls ``t.to_sparse`` again:
    that must reach the method ``reftorch.sparse`` installed, never the first one."""
    from reftorch import sparse

    assert set(reftorch._SPARSE_METHODS) <= set(sparse.LAYOUT_METHODS)
    for name in reftorch._SPARSE_METHODS:
        assert getattr(reftorch.Tensor, name) is sparse.STRIDED_VERSIONS[name] is sparse.LAYOUT_METHODS[name], name

"""Chapter 12's piece: what ``as_tensor`` decides, share or copy.

``torch.as_tensor(data, dtype, device)`` shares ``data``'s memory whenever
nothing has to change, and copies only when you ask for a dtype (or device)
the data does not have.  Each case builds its data twice, for torch and for
reftorch, and compares what came back: the very same object? the data's
memory? which dtype, which numbers, which history?
"""

import numpy as np
from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._convert

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _address(data):
    if isinstance(data, np.ndarray):
        return data.__array_interface__["data"][0]
    if hasattr(data, "data_ptr"):
        return data.data_ptr()
    return None


def _what_came_back(result, data):
    address = _address(data)
    node = result.grad_fn
    return {
        "the same object as data": result is data,
        "on data's memory": None if address is None else result.data_ptr() == address,
        "dtype": str(result.dtype),
        "values": result.tolist(),
        "grad_fn": None if node is None else type(node).__name__,
    }


def _case(label, make_args, misconception):
    def on_torch():
        data, *dtype_device = make_args(torch)
        return _what_came_back(torch.as_tensor(data, **dict(zip(("dtype", "device"), dtype_device))), data)

    return Case(label, lambda: make_args(reftorch), misconception, expected=on_torch,
                observe=lambda result, args: _what_came_back(result, args[0]))


def _array(mod, dtype=np.float32):
    return (np.array([1.0, 2.0, 3.0], dtype=dtype),)


_SHARES = "as_tensor shares when nothing needs converting: no copy, the array's own memory"


def _always_copies(data, dtype=None, device=None):
    if isinstance(data, reftorch.Tensor):
        return data.to(dtype or data.dtype, copy=True)
    return reftorch.tensor(data, dtype=dtype)


def _ignores_dtype(data, dtype=None, device=None):
    if isinstance(data, np.ndarray):
        return reftorch.from_numpy(data)
    return reftorch._convert.as_tensor(data, dtype, device)


def _tensor_becomes_new_object(data, dtype=None, device=None):
    if isinstance(data, reftorch.Tensor) and dtype in (None, data.dtype):
        return data.detach()
    return reftorch._convert.as_tensor(data, dtype, device)


register(Piece(
    name="as_tensor",
    chapter="12",
    reference=reftorch._convert.as_tensor,
    summary="share the data's memory when nothing changes, copy when a dtype or device does",
    cases=[
        _case("(float32 array)", _array, _SHARES),
        _case("(float64 array)", lambda mod: _array(mod, np.float64),
              _SHARES + " (a float64 array gives a float64 tensor)"),
        _case("(float32 array, dtype=float64)", lambda mod: _array(mod) + (mod.float64,),
              "a dtype the array does not have needs new memory: as_tensor copies, and converts"),
        _case("(int64 array, dtype=int64)", lambda mod: (np.array([1, 2]), mod.int64),
              _SHARES + ", also when the dtype you ask for is the one it has"),
        _case("(a tensor that requires grad)", lambda mod: (mod.tensor([1.0, 2.0], requires_grad=True),),
              "as_tensor of a tensor with nothing to change returns the very same object, "
              "history and requires_grad included"),
        _case("(a tensor that requires grad, dtype=float32)",
              lambda mod: (mod.tensor([1.0, 2.0], requires_grad=True), mod.float32),
              "asking for the dtype the tensor already has changes nothing: the very same object, "
              "not a copy"),
        _case("(float32 array, device='cpu:0')", lambda mod: _array(mod) + (None, "cpu:0"),
              "a device with an index ('cpu:0') is not the array's device ('cpu'): torch copies, "
              "as names_an_index tells"),
        _case("(a tensor, dtype=float64)",
              lambda mod: (mod.tensor([1.0, 2.0], requires_grad=True), mod.float64),
              "a new dtype means a copy, and the copy stays in the graph (ToCopyBackward0)"),
        _case("([1.0, 2.0])", lambda mod: ([1.0, 2.0],),
              "a list has no tensor memory to share: as_tensor builds a new tensor, as torch.tensor does"),
    ],
    wrong=[Wrong(_always_copies, "shares when nothing needs converting", breaks="as_tensor          tensor"),
           Wrong(_ignores_dtype, "a dtype the array does not have"),
           Wrong(_tensor_becomes_new_object, "the very same object")],
))

"""numpy arrays and numbers where torch meets them: as an operand, inside ``tensor(data)``'s lists,
and named in an error message."""

import pytest

from crosscheck.harness import assert_same

pytest.importorskip("numpy", reason="numpy is not installed: the numpy bridge (reftorch's optional extra) is untested")


def test_an_operator_with_a_numpy_array_is_computed_by_numpy_and_wrapped_into_a_tensor():
    assert_same(
        """
        import numpy as np
        t, i, a = torch.tensor([1.0, 2.0]), torch.tensor([1, 2], dtype=torch.int32), np.array([10.0, 20.0])
        cases = {
            "t + a": lambda: t + a, "a + t": lambda: a + t, "t - a": lambda: t - a, "a - t": lambda: a - t,
            "t * a": lambda: t * a, "t / a": lambda: t / a, "a / t": lambda: a / t, "t ** a": lambda: t ** a,
            "a ** t": lambda: a ** t, "t @ a": lambda: t @ a, "a @ t": lambda: a @ t, "t // a": lambda: t // a,
            "t % a": lambda: t % a, "t == a": lambda: t == a, "a == t": lambda: a == t, "t != a": lambda: t != a,
            "t < a": lambda: t < a, "t @ None": lambda: t @ None, "None / t": lambda: None / t,
            "i + int16": lambda: i + np.array([1, 2], dtype=np.int16), "i + f32": lambda: i + np.float32([1.5, 2]),
            "i + 0-d": lambda: i + np.array(3), "i + column": lambda: i + np.array([[1], [2]]),
            "t + 0-d": lambda: t + np.array(1.5), "bool * bool": lambda: torch.tensor([True, False]) * np.array([True, True]),
            "f32 == 0-d": lambda: torch.tensor([0.1]) == np.array(0.1), "f32 == 1-d": lambda: torch.tensor([0.1]) == np.array([0.1]),
            "== column": lambda: t == np.array([[1.0], [2.0]]), "== strings": lambda: t == np.array(["a", "b"]),
            "== too long": lambda: t == np.array([1, 2, 3]),
            "grad + a": lambda: torch.ones(2, requires_grad=True) + a, "grad == a": lambda: torch.ones(2, requires_grad=True) == a,
            "t.__matmul__(a)": lambda: t.__matmul__(a), "t.__rtruediv__(a)": lambda: t.__rtruediv__(a),
            "t.__eq__(a)": lambda: t.__eq__(a), "t.__ne__(a)": lambda: t.__ne__(a),
        }
        results = {}
        for name, compute in cases.items():
            try:
                results[name] = compute()
            except (TypeError, RuntimeError) as error:
                print(name, "->", type(error).__name__, error)
            else:
                print(name, "->", type(results[name]).__name__, results[name])
        wrapped = results["t + a"]
        wrapped[0] = 100.0  # the result has memory of its own (numpy's result array), version 0
        print(t, wrapped._version, wrapped.numpy().flags.writeable)
        """
    )


def test_a_method_refuses_what_its_operator_hands_on():
    assert_same(
        """
        import numpy as np
        t = torch.tensor([1.0, 2.0])
        for name in ("add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge"):
            for other in (np.array([1.0, 2.0]), None, "x", [1.0, 2.0], (1, 2.0)):
                try:
                    print(name, getattr(t, name)(other))
                except TypeError as error:
                    print(name, "TypeError:", error)
        for name in ("__add__", "__radd__", "__sub__", "__mul__", "__rmul__", "__truediv__", "__pow__", "__rpow__",
                     "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
            print(name, getattr(t, name)(None), getattr(t, name)(np.array(["a", "b"])))
        """
    )


def test_tensor_reads_numpy_arrays_inside_lists_as_levels_of_the_data():
    assert_same(
        """
        import warnings
        import numpy as np
        datas = [
            "[np.array([1.0])]", "[np.array([1.0, 2.0]), np.array([3.0, 4.0])]", "[np.array(1.0), np.array(2.0)]",
            "[np.array([1], dtype=np.int16), np.array([2], dtype=np.int16)]", "[np.array([1], dtype=np.int16), [2]]",
            "[[2], np.array([1], dtype=np.int16)]", "[np.array([1.0]), 2.0]", "[2, np.array(1)]",
            "[np.array([1, 2]), torch.tensor([3, 4])]", "[torch.tensor([3, 4]), np.array([1, 2])]",
            "[np.array([1, 2]), np.array([3])]", "[np.array([[1, 2]]), np.array([[3, 4]])]",
            "[np.array([True]), np.array([False])]", "[np.array([1.0], dtype=np.float32), [2.0]]",
            "[np.array([1, 2])[::-1]]", "[np.array([1.0, 2.0])[::2]]", "[np.array([1, 2], dtype='>i4')]",
            "[np.array([])]", "[np.zeros((0, 2))]", "[np.int64(1), np.array([2])]", "[[np.array(1.0)], [2.0]]",
            "([np.array([1.5])],)", "[np.array([1, 2], dtype=np.int16), np.array([3.0, 4.0], dtype=np.float32)]",
            "[np.array([300]), np.array([1], dtype=np.uint8)]", "[np.array(['a'])]", "['a']", "'a'", "[[1], 'a']",
        ]
        made = {}
        for data in datas:
            for dtype in (None, torch.float64, torch.int8, torch.uint8, torch.bool):
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")  # the once-per-process warning: tests/reftorch/test_warning_locations.py
                        made[data, dtype] = t = torch.tensor(eval(data), dtype=dtype)
                    print(data, dtype, "->", t.dtype, tuple(t.shape), t.tolist())
                except (TypeError, ValueError, RuntimeError) as error:
                    print(data, dtype, "->", type(error).__name__, error)
        """
    )


def test_numpy_bools_and_numbers_inside_lists_convert_as_torch_converts_them():
    assert_same(
        """
        import numpy as np
        leaves = ["np.bool_(True)", "np.int64(3)", "np.int8(-3)", "np.uint8(200)", "np.float32(1.5)",
                  "np.float64(1.5)", "np.float16(2.5)", "True", "2", "2.5", "2 ** 63", "-2 ** 63 - 1", "300",
                  "np.array(7)", "np.array([7])", "torch.tensor(1.5)", "torch.tensor(4)", "torch.tensor([1.5])",
                  "torch.tensor(True)", "torch.tensor([1, 2])", "None"]
        for leaf in leaves:
            for dtype in (None, torch.float32, torch.float16, torch.int64, torch.int8, torch.uint8, torch.bool):
                for data in (f"[{leaf}, 1]", f"[{leaf}]"):
                    try:
                        t = torch.tensor(eval(data), dtype=dtype)
                        print(data, dtype, "->", t.dtype, t.tolist())
                    except (TypeError, ValueError, RuntimeError) as error:
                        print(data, dtype, "->", type(error).__name__, error)
        for one in (torch.tensor([1.0, 2.0]), torch.tensor([[3]])):
            for convert in (float, int):
                try:
                    print(convert(one))
                except (ValueError, RuntimeError) as error:
                    print(type(error).__name__, error)
        """
    )


def test_error_messages_name_numpy_types_as_torch_does():
    assert_same(
        """
        import numpy as np
        a, t = np.array([1.0, 2.0]), torch.ones(2)

        def set_data():
            torch.ones(2).data = a

        def set_grad():
            torch.ones(2).grad = a

        calls = {
            "copy_": lambda: torch.ones(2).copy_(a), "matmul": lambda: t.matmul(a), ".grad =": set_grad,
            ".data =": set_data, "equal": lambda: torch.equal(t, a), "t.equal": lambda: t.equal(a),
            "isclose": lambda: torch.isclose(t, a), "allclose": lambda: torch.allclose(t, a),
            "isclose rtol": lambda: torch.isclose(t, t, rtol=np.array(1.0)),
            "allclose equal_nan": lambda: torch.allclose(t, t, equal_nan=np.array(True)),
            "full fill_value": lambda: torch.full((2,), a), "full size": lambda: torch.full(a, 1.0),
            "arange end": lambda: torch.arange(a), "arange two": lambda: torch.arange(0, a),
            "arange dtype": lambda: torch.arange(0, 3, 1, torch.float64),
            "view": lambda: t.view(np.array([1.0, 2.0])), "view float32": lambda: t.view(np.float32(2)),
            "reshape": lambda: t.reshape((np.float64(2),)), "transpose": lambda: torch.ones(2, 2).transpose(np.float32(0), 1),
            "argmax": lambda: t.argmax(dim=np.float32(0)), "sum": lambda: t.sum(np.float32(0)),
            "dtype": lambda: torch.tensor([1], dtype=np.dtype("float32")),
            "as_tensor dtype": lambda: torch.as_tensor([1], dtype=np.dtype("float32")),
            "zeros": lambda: torch.zeros(np.float32(2)), "zeros list": lambda: torch.zeros([2, np.float32(2)]),
            "index": lambda: t[np.float64(1.0)], "index bool": lambda: t[np.bool_(True)],
            "is_inference": lambda: torch.is_inference(a), "index_select": lambda: torch.index_select(a, 0, torch.tensor([0])),
            "from_numpy": lambda: torch.from_numpy(np.float32(1)), "numpy force": lambda: t.numpy(force=np.bool_(True)),
            "asarray copy": lambda: torch.asarray([1.0], copy=np.bool_(True)), "device": lambda: torch.device(np.array(1)),
            "to": lambda: t.to(a), "expand": lambda: t.expand(np.float32(2)), "new_ones": lambda: t.new_ones(np.float32(2)),
            "UntypedStorage": lambda: torch.UntypedStorage(np.float32(2)),
            "as_strided": lambda: t.as_strided((np.float32(2),), (1,)), "squeeze": lambda: t.squeeze(np.float32(0)),
            "unsqueeze": lambda: t.unsqueeze(np.float32(0)), "split": lambda: t.split(np.float32(1)),
            "chunk": lambda: t.chunk(np.float32(2)), "permute": lambda: t.permute(np.float32(0)),
            "index_put_": lambda: t.index_put_((torch.tensor([0]),), a), "lerp": lambda: t.lerp(a, 0.5),
            "is_contiguous": lambda: t.is_contiguous(memory_format=a), "tensor data": lambda: torch.tensor([[1], None]),
        }
        for name, call in calls.items():
            try:
                call()
                print(name, "-> no error")
            except (TypeError, RuntimeError, IndexError, ValueError) as error:
                print(name, "->", type(error).__name__, error)
        """
    )

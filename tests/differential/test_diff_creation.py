"""Creating tensors: factories, *_like, new_*, from_numpy/numpy."""

import pytest

from crosscheck.harness import assert_same, assert_same_as_gpu
from diff_programs import program


def test_tensor_infers_dtype_from_nested_lists_scalars_and_bools():
    assert_same(
        """
        f = torch.tensor([[1.0, 2.0], [3.0, 4.5]])
        i = torch.tensor([[1, 2], [3, 4]])
        b = torch.tensor([True, False])
        mixed = torch.tensor([1, 2.5])
        mixed_bool_int = torch.tensor([True, 2])
        s = torch.tensor(3)
        sf = torch.tensor(3.25)
        sb = torch.tensor(False)
        empty = torch.tensor([])
        print(f.dtype, i.dtype, b.dtype, mixed.dtype, mixed_bool_int.dtype)
        print(s.dtype, sf.dtype, sb.dtype, empty.dtype, empty.shape)
        print(f, i, b, mixed, mixed_bool_int, s, sf, sb, empty)
        """
    )


def test_tensor_with_explicit_dtype_and_requires_grad():
    assert_same(
        """
        d = torch.tensor([1, 2], dtype=torch.float64)
        l = torch.tensor([1.9, -1.9], dtype=torch.int64)
        b = torch.tensor([0.0, 0.5], dtype=torch.bool)
        g = torch.tensor([1.0, 2.0], requires_grad=True)
        print(d, l, b, g)
        """
    )


def test_tensor_from_a_tensor_copies_and_warns():
    assert_same(
        """
        src = torch.tensor([1.0, 2.0], requires_grad=True)
        t = torch.tensor(src)
        print(t, t.requires_grad, t.is_leaf)
        print(t.data_ptr() == src.data_ptr())
        plain = torch.tensor([3.0])
        t2 = torch.tensor(plain, dtype=torch.float64)
        print(t2)
        """
    )


def test_factories_zeros_ones_full():
    assert_same(
        """
        z = torch.zeros(2, 3)
        z2 = torch.zeros((2, 3), dtype=torch.int64)
        o = torch.ones(3)
        o2 = torch.ones([2, 2], dtype=torch.bool)
        f = torch.full((2, 2), 7.0)
        fi = torch.full((3,), 7)
        fb = torch.full((2,), True)
        g = torch.ones(2, requires_grad=True)
        s = torch.zeros(())
        print(z, z2, o, o2, f, fi, fb, g, s)
        print(z.shape, f.dtype, fi.dtype, fb.dtype, s.shape)
        """
    )


def test_empty_has_the_right_metadata():
    assert_same(
        """
        e = torch.empty(2, 3)
        e2 = torch.empty((4,), dtype=torch.int64)
        e3 = torch.empty(3, requires_grad=True)
        print(e.shape, e.stride(), e.dtype, e2.dtype, e3.requires_grad, e3.is_leaf)
        """,
        ignore_values=["e", "e2", "e3"],
    )


def test_arange_forms_and_dtypes():
    assert_same(
        """
        a = torch.arange(5)
        b = torch.arange(2, 8)
        c = torch.arange(0, 10, 3)
        d = torch.arange(5.0)
        e = torch.arange(0, 1, 0.25)
        f = torch.arange(4, dtype=torch.float64)
        print(a, b, c, d, e, f)
        print(a.dtype, d.dtype, e.dtype)
        """
    )


def test_like_factories_keep_shape_dtype_but_not_strides_or_grad():
    assert_same(
        """
        src = torch.tensor([[1, 2, 3], [4, 5, 6]]).t()
        z = torch.zeros_like(src)
        o = torch.ones_like(src, dtype=torch.float64)
        f = torch.full_like(src, 9)
        e = torch.empty_like(src)
        g = torch.ones(2, requires_grad=True)
        zg = torch.zeros_like(g)
        og = torch.ones_like(g, requires_grad=True)
        print(z, o, f, zg, og)
        print(z.stride(), o.stride(), f.stride(), e.stride(), e.shape, e.dtype)
        """,
        ignore_values=["e"],
    )


def test_new_factories_take_dtype_and_device_from_the_source():
    assert_same(
        """
        src = torch.tensor([1, 2, 3])
        nt = src.new_tensor([4.7, 5.2])
        nz = src.new_zeros(2, 2)
        no = src.new_ones((3,), dtype=torch.float64)
        ne = src.new_empty(2)
        f = torch.ones(2, dtype=torch.float64, requires_grad=True)
        nf = f.new_tensor([1, 2])
        nfg = f.new_tensor([1, 2], requires_grad=True)
        print(nt, nz, no, nf, nfg)
        print(ne.shape, ne.dtype, nf.requires_grad)
        """,
        ignore_values=["ne"],
    )


def test_new_tensor_of_a_tensor_copies_detached_and_warns():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a.new_tensor(a)
        print(b, b.requires_grad, b.data_ptr() == a.data_ptr())
        """
    )


@pytest.mark.parametrize("call", [
    "base.new_tensor([1, 2], None)",
    "base.new_tensor([1], [2], [3])",
    "base.new_tensor()",
    "base.new_tensor([1], data=[2])",
    "base.new_tensor([1], pin_memory=False)",
    "base.new_tensor([1], layout=torch.strided)",
    "base.new_tensor([1], dtype='float')",
])
def test_new_tensor_argument_errors(call):
    assert_same(f"base = torch.zeros(2)\n{call}\n", raises="TypeError")


def test_new_tensor_takes_data_by_keyword():
    assert_same("""
base = torch.zeros(2)
print(base.new_tensor(data=[1, 2]), base.new_tensor(data=[3], dtype=torch.int64))
""")


def test_new_tensor_on_a_cuda_tensor_lands_on_cuda_unless_told_otherwise():
    assert_same_as_gpu(
        """
        a = torch.tensor([1.0, 2.0], device="cuda")
        b = a.new_tensor([3.0])
        c = a.new_zeros(2)
        d = a.new_tensor([3.0], device="cpu")
        print(b)
        print(c)
        print(d)
        """,
        expect_cuda=["a", "b", "c"],
    )


def test_from_numpy_and_numpy_share_memory():
    assert_same(
        """
        import numpy as np
        arr = np.array([1.0, 2.0, 3.0])
        t = torch.from_numpy(arr)
        print(t, t.dtype)
        arr[0] = 100.0
        print(t)
        t[1] = -5.0
        print(arr)
        n = t.numpy()
        n[2] = 42.0
        print(t, t._version)
        ints = torch.from_numpy(np.array([1, 2], dtype=np.int64))
        print(ints, ints.dtype)
        back = torch.tensor([1.5, 2.5]).numpy()
        print(back, back.dtype)
        """
    )


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "uint8", "bool"])
def test_from_numpy_of_an_empty_array_keeps_numpys_strides_in_elements(dtype):
    """An array with no elements still has strides; torch copies them (bytes / itemsize).
    Misconception: an empty tensor has no layout, so its strides are all 0."""
    assert_same(
        f"""
        import numpy as np
        kind = np.{dtype}
        arrays = [
            np.zeros((0,), kind), np.zeros((0, 3), kind), np.empty((3, 0), kind),
            np.arange(0).astype(kind).reshape(0, 3), np.zeros((3, 4), kind)[:0], np.zeros((3, 4), kind)[:, :0],
            np.zeros((2, 3, 4), kind)[:, :0], np.zeros((4, 5), kind).T[:, :0], np.zeros((3, 4), kind, order="F")[:0],
            np.zeros((4, 6), kind)[::2, 1:1], np.array([], kind).reshape(2, 0, 1),
        ]
        for a in arrays:
            t = torch.from_numpy(a)
            print(tuple(t.shape), t.stride(), t.dtype, t.is_contiguous(), t.storage_offset(),
                  t.untyped_storage().nbytes(), t.numpy().strides == a.strides, t.contiguous().stride())
        """
    )


def test_factories_accept_a_device():
    assert_same_as_gpu(
        """
        z = torch.zeros(2, device="cuda")
        o = torch.ones(2, 2, device="cuda", dtype=torch.int64)
        f = torch.full((2,), 1.5, device="cuda")
        a = torch.arange(3, device="cuda")
        zl = torch.zeros_like(f)
        print(z)
        print(o)
        print(f)
        print(a)
        print(zl)
        """,
        expect_cuda=["z", "o", "f", "a", "zl"],
    )


def test_arange_with_negative_and_fractional_steps():
    assert_same(
        """
        down = torch.arange(5, 0, -1)
        tenths = torch.arange(0, 1, 0.1)
        back = torch.arange(1.0, -1.0, -0.5)
        print(down, tenths, back, tenths.shape)
        """
    )


def test_arange_counts_bools_on_meta_only():
    # torch's cpu kernel has no bool version; its meta kernel counts nothing, so it takes any dtype
    assert_same(
        """
        for args in ((3,), (0,), (0, 2.5, 0.5), (0, -3), (0, 3, 0)):
            for device in ("meta", "cpu"):
                try:
                    t = torch.arange(*args, dtype=torch.bool, device=device)
                    print(args, device, t.shape, t.dtype, t.device)
                except Exception as e:
                    print(args, device, type(e).__name__, e)
        """
    )


def test_bool_mixed_with_float_infers_float32():
    assert_same(
        """
        a = torch.tensor([True, 2.5])
        b = torch.tensor([[False], [True]])
        print(a, a.dtype, b.dtype, b.shape)
        """
    )


def test_an_empty_list_inside_another_list_is_the_default_float_dtype():
    assert_same(
        """
        for data in ([[], [1]], [[], [True]], [[[]], [[1]]], [[], []]):
            t = torch.tensor(data)
            print(t.dtype, t.shape)
        try:
            torch.tensor([1, []])
        except TypeError as err:
            print("TypeError:", err)
        """
    )


def test_copying_a_meta_tensor_into_real_memory_is_refused():
    assert_same(
        """
        m = torch.zeros(2, dtype=torch.int64, device="meta")
        print(torch.tensor(m).device, torch.zeros(1, device="meta").new_tensor(m).device)
        for make in (lambda: torch.zeros(1).new_tensor(m), lambda: torch.tensor(m, device="cpu")):
            try:
                make()
            except NotImplementedError as err:
                print("NotImplementedError:", err)
        """
    )


def test_creation_functions_take_their_options_by_keyword_only_as_torch_does():
    assert_same(
        """
        t = torch.ones(2)
        calls = {
            "new_tensor(data, dtype)": lambda: t.new_tensor([1, 2], torch.float64),
            "new_tensor(data, dtype, device)": lambda: t.new_tensor([1, 2], torch.float64, "cpu"),
            "tensor(data, dtype)": lambda: torch.tensor([1, 2], torch.float64),
            "as_tensor(data, dtype)": lambda: torch.as_tensor([1, 2], torch.float64),
            "as_tensor(data, dtype, device)": lambda: torch.as_tensor([1, 2], torch.float64, "cpu"),
            "as_tensor(data, dtype=)": lambda: torch.as_tensor([1, 2], dtype=torch.float64),
            "asarray(obj, dtype)": lambda: torch.asarray([1, 2], torch.float64),
            "new_zeros(2, dtype)": lambda: t.new_zeros(2, torch.float64),
            "new_zeros((2,), dtype)": lambda: t.new_zeros((2,), torch.float64),
            "new_empty((2,), dtype)": lambda: t.new_empty((2,), torch.float64),
            "new_ones(2, 'a')": lambda: t.new_ones(2, "a"),
            "zeros(2, dtype)": lambda: torch.zeros(2, torch.float64),
            "full((2,), 1, dtype)": lambda: torch.full((2,), 1, torch.float64),
            "zeros_like(t, dtype)": lambda: torch.zeros_like(t, torch.float64),
            "full_like(t, 1, dtype)": lambda: torch.full_like(t, 1, torch.float64),
            "rand(2, dtype)": lambda: torch.rand(2, torch.float64),
        }
        made = {}
        for name, call in calls.items():
            try:
                made[name] = call()
                print(name, "->", made[name].dtype)
            except TypeError as error:
                print(name, "->", type(error).__name__, error)
        """
    )


def test_the_new_tensor_reftorch_shows_takes_dtype_by_keyword_only():
    """``reftorch._creation.new_tensor``, the function chapter 10 shows, refuses a positional dtype as
    torch's ``new_tensor`` does (a TypeError), and takes it by keyword as torch does."""
    import torch

    import reftorch

    with pytest.raises(TypeError):
        torch.ones(2).new_tensor([1, 2], torch.float64)
    data = reftorch.tensor([3, 4])  # the lesson function is given a tensor, or (numbers, shape)
    with pytest.raises(TypeError, match="positional"):
        reftorch._creation.new_tensor(reftorch.ones(2), data, reftorch.float64)
    made = reftorch._creation.new_tensor(reftorch.ones(2), data, dtype=reftorch.float64)
    assert str(made.dtype) == str(torch.ones(2).new_tensor([3, 4], dtype=torch.float64).dtype)


def test_requires_grad_of_tensor_and_new_tensor_must_be_a_bool():
    """Chapter 10 shows ``new_tensor`` and ``_from_data``: torch's parser takes only ``True`` or
    ``False`` for ``requires_grad`` (not 1, None, numpy's bool or a tensor), and reads ``dtype`` first."""
    assert_same(
        """
        import numpy as np

        t = torch.ones(2)
        for make in (lambda **k: torch.tensor([1.0, 2.0], **k), lambda **k: t.new_tensor([1.0, 2.0], **k),
                     lambda **k: torch.tensor([1, 2], **k)):
            for keywords in ({"requires_grad": 1}, {"requires_grad": 0}, {"requires_grad": None},
                             {"requires_grad": 1.0}, {"requires_grad": np.bool_(True)},
                             {"requires_grad": torch.tensor(True)}, {"requires_grad": True},
                             {"requires_grad": False}, {"dtype": "x", "requires_grad": 1}):
                try:
                    r = make(**keywords)
                    print(keywords, r.dtype, r.requires_grad)
                except (TypeError, RuntimeError) as error:
                    print(keywords, type(error).__name__, error)
        """
    )


def test_requires_grad_of_the_factories_must_be_a_bool_or_none():
    """The chapters' leaves come from ``ones``/``zeros`` with ``requires_grad=True``: torch's parser
    refuses 1 and a tensor there, and (unlike ``tensor()``) takes None as False."""
    assert_same(
        """
        makers = (lambda **k: torch.ones(2, **k), lambda **k: torch.zeros(2, **k), lambda **k: torch.full((1,), 1.0, **k),
                  lambda **k: torch.empty(1, **k), lambda **k: torch.zeros_like(torch.ones(2), **k))
        for make in makers:
            for keywords in ({"requires_grad": 1}, {"requires_grad": None}, {"requires_grad": torch.tensor(True)},
                             {"requires_grad": True}, {"dtype": "x", "requires_grad": 1}):
                try:
                    print(keywords, make(**keywords).requires_grad)
                except TypeError as error:
                    print(keywords, "TypeError", error)
        """
    )


def test_a_range_is_read_as_a_sequence_and_bytes_are_refused():
    """torch reads any Python sequence; a range is the one a learner writes (``torch.tensor(range(3))``)."""
    assert_same(
        """
        print(torch.tensor(range(3)), torch.tensor([range(2), range(2)]), torch.tensor([range(2), [1.5, 2]]))
        print(torch.tensor(range(0)), torch.tensor(range(0)).dtype, torch.tensor([range(0), range(0)]).shape)
        print(torch.as_tensor(range(3)), torch.as_tensor(range(3), dtype=torch.bool), torch.ones(1).new_tensor(range(2)))
        for data in ([1, range(2)], b"ab", [b"a"]):
            try:
                torch.tensor(data)
            except (TypeError, ValueError) as e:
                print(type(e).__name__, e)
        """
    )


def test_arange_reads_its_bounds_as_torch_reads_them_an_integer_one_in_int64():
    assert_same(
        """
        for args, dtype in (((2 ** 63, 2 ** 63 + 2), None), ((2 ** 63, 2 ** 63), None), ((2 ** 64,), None),
                            ((-2 ** 63 - 1, 0), None), ((0, 2 ** 62, 2 ** 61), None), ((130,), torch.int8),
                            ((-1, 3), torch.uint8), ((2, 2 ** 63, 2 ** 62), torch.float64), ((0.5, 2 ** 64), None)):
            try:
                print(args, torch.arange(*args, dtype=dtype))
            except (OverflowError, RuntimeError) as error:
                print(args, type(error).__name__, error)
        """
    )


def test_the_size_of_a_factory_can_be_given_by_keyword_and_cannot_be_left_out():
    """torch's parser names the argument ``size``: ``zeros(size=(2, 3))`` is ``zeros(2, 3)``, and
    ``ones()`` is a missing argument, not a 0-d tensor (that is ``ones(())``)."""
    assert_same(
        """
        t = torch.ones(2)
        makers = {"zeros": torch.zeros, "ones": torch.ones, "empty": torch.empty,
                  "new_zeros": t.new_zeros, "new_ones": t.new_ones, "new_empty": t.new_empty}
        for name, make in makers.items():
            for args, keywords in (((), {"size": (2, 3)}), ((), {"size": [2]}), ((), {"size": torch.Size([1, 2])}),
                                   ((), {"size": (), "dtype": torch.int64}), ((), {}), ((), {"dtype": torch.int64}),
                                   ((), {"size": 2}), ((), {"size": None}), ((), {"size": (2.0,)}),
                                   ((), {"size": (2, 2.0)}), ((2,), {"size": (2,)}), (((),), {})):
                try:
                    r = make(*args, **keywords)
                    print(name, args, keywords, r.shape, r.dtype)
                except TypeError as error:
                    print(name, args, keywords, "TypeError", error)
        """,
        ignore_values=["r"],  # the last one made is new_empty's: not initialised
    )


def test_every_like_factory_names_itself_in_its_refusals():
    assert_same(
        """
        t = torch.ones(2)
        for make in (torch.zeros_like, torch.ones_like, torch.empty_like, lambda t, **k: torch.full_like(t, 3, **k)):
            for keywords in ({"dtype": "x"}, {"requires_grad": 1}, {"dtype": 3, "requires_grad": True}):
                try:
                    make(t, **keywords)
                except TypeError as error:
                    print(keywords, error)
        """
    )


def test_from_numpy_takes_exactly_one_array_by_position():
    """``torch.from_numpy`` is a C function: it counts its arguments itself and takes no keyword."""
    assert_same(
        """
        import numpy as np

        a = np.ones(2)
        for args, keywords in (((a, 1), {}), ((), {}), ((a, a, 3), {}), ((), {"array": a}), ((a,), {"warn": False})):
            try:
                torch.from_numpy(*args, **keywords)
            except TypeError as error:
                print(len(args), sorted(keywords), error)
        shared = torch.from_numpy(a)
        """
    )


def test_a_factory_looks_for_its_size_before_it_refuses_an_unknown_keyword():
    """``zeros(shape=(2,))`` is missing "size" in torch (its parser binds what it needs first);
    ``full`` names every required argument from the first one missing on; ``rand()`` and
    ``randn()`` have no size to leave out (torch lists its two signatures), and take it by keyword."""
    assert_same(program("""
        a = torch.ones(2)
        for name in ("zeros", "ones", "empty", "rand", "randn"):
            for args, kw in (((), {"shape": (2,)}), ((), {}), ((), {"size": (2,)}), ((2,), {"bogus": 1}),
                             ((), {"shape": (2,), "bogus": 1}), ((), {"size": (2,), "shape": (2,)}),
                             ((), {"dtype": torch.int64}), ((), {"size": 2}), ((2,), {"size": 2}),
                             ((2, 3.0), {}), ((None,), {}), ((2, 3), {"dtype": torch.float64})):
                attempt(lambda: (name, args, kw, getattr(torch, name)(*args, **kw).shape))
        for args, kw in (((), {"shape": (2,), "fill_value": 1}), ((), {}), ((), {"size": (2,)}),
                         ((), {"fill_value": 1}), (((2,),), {}), (((2,), 1), {"bogus": 1}), (((2,),), {"value": 1}),
                         ((2, 1), {}), (((2,), 1, 1), {}), (((2,),), {"size": (2,)}),
                         ((), {"size": (2,), "fill_value": 7})):
            attempt(lambda: (args, kw, torch.full(*args, **kw)))
            attempt(lambda: (args, kw, a.new_full(*args, **kw)))
        for name in ("new_zeros", "new_ones", "new_empty"):
            for args, kw in (((), {"shape": (2,)}), ((), {}), ((), {"size": (2,)}), ((2,), {"bogus": 1})):
                attempt(lambda: (name, args, kw, getattr(a, name)(*args, **kw).shape))
        for name in ("zeros_like", "ones_like", "empty_like"):
            for args, kw in (((), {}), ((), {"input": a}), ((a,), {"bogus": 1}), ((), {"other": a}), ((a, a), {}),
                             ((a,), {"input": a}), ((), {"input": a, "dtype": torch.int64})):
                attempt(lambda: (name, args, kw, getattr(torch, name)(*args, **kw).shape))
        for args, kw in (((a,), {}), ((), {"input": a, "fill_value": 2}), ((a, 2, 3), {}), ((a, 2), {"bogus": 1})):
            attempt(lambda: (args, kw, torch.full_like(*args, **kw)))
        """))


def test_arange_takes_its_bounds_by_keyword_and_has_no_bool_kernel():
    assert_same(program("""
        for f in (lambda: torch.arange(end=3), lambda: torch.arange(start=1, end=4, step=2), lambda: torch.arange(1, end=4),
                  lambda: torch.arange(end=4, step=2), lambda: torch.arange(start=1), lambda: torch.arange(1, start=2),
                  lambda: torch.arange(3, foo=1), lambda: torch.arange(3, dtype=torch.bool),
                  lambda: torch.arange(0, dtype=torch.bool), lambda: torch.arange(end=2.5, dtype=torch.float64),
                  lambda: torch.arange(1, 2, step=0.5)):
            attempt(f)
        """))


def test_empty_lays_out_memory_as_its_memory_format_says_and_like_factories_need_a_tensor():
    assert_same(program("""
        for f in (lambda: torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride(),
                  lambda: torch.empty(2, 3, 4, 5, 6, memory_format=torch.channels_last_3d).stride(),
                  lambda: torch.empty(2, memory_format=torch.contiguous_format).stride(),
                  lambda: torch.empty(2, memory_format=None).shape, lambda: torch.empty(2, memory_format=torch.preserve_format),
                  lambda: torch.empty(2, memory_format=torch.channels_last), lambda: torch.empty(2, memory_format=1),
                  lambda: torch.empty((2, 1, 1, 2), memory_format=torch.channels_last, requires_grad=True).stride(),
                  lambda: torch.zeros_like(None), lambda: torch.ones_like([1]), lambda: torch.full_like(1.0, 2),
                  lambda: torch.empty_like("x"), lambda: torch.zeros_like(input=2)):
            attempt(f)
        """))

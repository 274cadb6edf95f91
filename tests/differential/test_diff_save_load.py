"""torch.save and torch.load: what a saved file holds, and what loading gives back.

Each program saves (to an io.BytesIO, a path or an open file) and loads again;
the harness compares the loaded tensors' values, metadata, storage sharing and
version counters with torch's. Where a program prints ``len(...)`` of a saved
file, reftorch's file must have exactly the length of torch's: it is laid out
byte for byte as torch's writer lays it out.
"""

import textwrap

import pytest

from crosscheck.harness import assert_same, assert_same_as_gpu
from diff_programs import LINEAR_MODEL

ROUND_TRIP = """
import io
def round_trip(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    print(len(buffer.getvalue()))
    buffer.seek(0)
    return torch.load(buffer)
"""


def with_round_trip(body: str) -> str:
    """``body`` (dedented) after ``round_trip(obj)``, which saves ``obj`` to a buffer, prints the
    file's length and loads it back."""
    return ROUND_TRIP + textwrap.dedent(body)


SAVED = """
import io
def saved(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer
def loaded(buffer, **options):
    buffer.seek(0)
    return torch.load(buffer, **options)
"""


def with_saved(body: str) -> str:
    """``body`` (dedented) after ``saved(obj)``, a buffer holding ``obj``, and ``loaded(buffer,
    **options)``, what ``torch.load`` reads from its start."""
    return SAVED + textwrap.dedent(body)


# ---- one record per storage, not per tensor ----------------------------------


def test_views_saved_together_share_one_new_storage_after_loading():
    assert_same(
        """
        import io
        a = torch.arange(6.)
        views = [a, a[2:4], a.detach(), a.view(2, 3).t()]
        buffer = io.BytesIO()
        torch.save(views, buffer)
        print(len(buffer.getvalue()), buffer.tell())
        buffer.seek(0)
        la, ls, ld, lt = torch.load(buffer)
        print(la.untyped_storage().data_ptr() == ls.untyped_storage().data_ptr() == lt.untyped_storage().data_ptr())
        print(la.untyped_storage().data_ptr() == a.untyped_storage().data_ptr())
        print(ls.storage_offset(), ls.stride(), lt.stride(), lt.untyped_storage().nbytes())
        la[3] = 100.0
        print(ls, lt, a)
        """
    )


def test_loaded_tensors_share_memory_but_not_version_counters_and_are_not_views():
    assert_same(
        """
        import io
        a = torch.arange(4.)
        v = a[1:3]
        buffer = io.BytesIO()
        torch.save({"a": a, "v": v}, buffer)
        buffer.seek(0)
        loaded = torch.load(buffer)
        la, lv = loaded["a"], loaded["v"]
        print(la._version, lv._version, lv._is_view(), lv._base is None)
        la.add_(1)
        print(la._version, lv._version, lv)
        """
    )


def test_a_saved_slice_writes_its_whole_storage_and_a_clone_writes_only_itself():
    assert_same(
        """
        import io
        big = torch.arange(1000.)
        part = big[10:12]
        whole, compact = io.BytesIO(), io.BytesIO()
        torch.save(part, whole)
        torch.save(part.clone(), compact)
        print(len(whole.getvalue()), len(compact.getvalue()))
        whole.seek(0)
        compact.seek(0)
        ls, lc = torch.load(whole), torch.load(compact)
        print(ls, ls.storage_offset(), ls.stride(), ls.untyped_storage().nbytes())
        print(lc, lc.storage_offset(), lc.stride(), lc.untyped_storage().nbytes())
        """
    )


def test_a_strided_view_keeps_its_strides_and_offset_into_the_whole_storage():
    assert_same(
        with_round_trip(
            """
            grid = torch.arange(12.).view(3, 4)
            column = grid[:, 1]
            stepped = grid[1:, ::2]
            lc, ls = round_trip([column, stepped])
            print(lc, lc.stride(), lc.storage_offset(), lc.is_contiguous())
            print(ls, ls.stride(), ls.storage_offset(), ls.untyped_storage().nbytes())
            """
        )
    )


def test_an_expanded_tensor_saves_its_small_storage_and_keeps_stride_zero():
    assert_same(
        """
        import io
        buffer = io.BytesIO()
        buffer.write(b"header")
        e = torch.tensor([1.0, 2.0]).expand(3, 2)
        torch.save(e, buffer)
        print(buffer.tell())
        buffer.seek(6)
        le = torch.load(buffer)
        print(le, le.stride(), le.untyped_storage().nbytes())
        buffer.seek(6)
        again = torch.load(buffer)
        print(again.untyped_storage().data_ptr() == le.untyped_storage().data_ptr())
        """
    )


def test_a_meta_tensor_is_saved_as_metadata_alone_with_no_storage_record():
    assert_same(with_round_trip(
        """
        base = torch.empty(2, 3, device="meta")
        note = torch.empty(3, device="meta", requires_grad=True)
        note.tag = "hi"
        back = round_trip({"row": base[1:], "again": base[1:], "p": torch.nn.Parameter(torch.empty(2, device="meta")),
                           "note": note, "real": torch.arange(3.0)})
        for name, t in back.items():
            print(name, type(t).__name__, t.device, t.shape, t.stride(), t.storage_offset(), t.requires_grad,
                  t.untyped_storage().nbytes(), t._version, getattr(t, "tag", None))
        print(back["row"].untyped_storage() is back["again"].untyped_storage())
        """
    ))


def test_two_dtypes_on_the_same_bytes_are_refused_and_on_no_bytes_are_saved():
    assert_same(with_round_trip(
        """
        import numpy as np
        x = torch.arange(4.0)
        as_ints = torch.zeros(0, dtype=torch.int32).set_(x.untyped_storage())
        array = np.arange(3.0)
        for pair in ([x, as_ints], [torch.from_numpy(array), torch.from_numpy(array.view(np.int64))]):
            try:
                round_trip(pair)
            except RuntimeError as err:
                print("RuntimeError:", err)
        e = torch.zeros(0)
        back = round_trip([e, torch.zeros(0, dtype=torch.int32).set_(e.untyped_storage())])
        print([t.dtype for t in back], back[0].untyped_storage() is back[1].untyped_storage())
        """
    ))


def test_the_same_tensor_saved_twice_is_one_object_after_loading():
    assert_same(
        with_round_trip(
            """
            t = torch.ones(3)
            first, second, third = round_trip([t, t, t.detach()])
            print(first is second, first is third)
            """
        )
    )


def test_tensors_saved_in_separate_calls_do_not_share_after_loading():
    assert_same(
        """
        import io
        a = torch.arange(4.)
        one, two = io.BytesIO(), io.BytesIO()
        torch.save(a, one)
        torch.save(a[1:], two)
        one.seek(0)
        two.seek(0)
        la, lv = torch.load(one), torch.load(two)
        print(la.untyped_storage().data_ptr() == lv.untyped_storage().data_ptr(), lv.storage_offset())
        """
    )


# ---- what a tensor brings along: dtype, requires_grad, attributes -------------


@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool"]
)
def test_every_dtype_round_trips_with_its_file_length(dtype):
    assert_same(
        with_round_trip(
            f"""
            values = torch.tensor([[0, 1, 2], [3, 4, 5]]).to(torch.{dtype})
            scalar = torch.tensor(7).to(torch.{dtype})
            empty = torch.zeros(0, 2, dtype=torch.{dtype})
            loaded = round_trip([values, values.t(), scalar, empty])
            for t in loaded:
                print(t, t.dtype, t.stride(), t.untyped_storage().nbytes())
            """
        )
    )


def test_a_non_leaf_is_loaded_as_a_leaf_that_requires_grad_and_grad_is_not_saved():
    assert_same(
        with_round_trip(
            """
            a = torch.tensor([1.0, 2.0], requires_grad=True)
            y = a * 2
            (y.sum()).backward()
            view = a[1:]
            loaded = round_trip({"a": a, "y": y, "view": view})
            for name, t in loaded.items():
                print(name, t.requires_grad, t.is_leaf, t.grad_fn, t.grad)
            """
        )
    )


def test_parameters_come_back_as_parameters_with_their_requires_grad():
    assert_same(
        with_round_trip(
            """
            p = torch.nn.Parameter(torch.ones(3))
            frozen = torch.nn.Parameter(torch.zeros(2), requires_grad=False)
            loaded = round_trip([p, p.detach(), p, frozen])
            lp, ld, again, lf = loaded
            print(type(lp).__name__, type(ld).__name__, type(lf).__name__, lp is again)
            print(lp.requires_grad, lf.requires_grad, lp._version)
            print(lp)
            """
        )
    )


def test_python_attributes_of_tensors_and_parameters_are_saved():
    assert_same(
        with_round_trip(
            """
            t = torch.ones(2)
            t.note = "hello"
            p = torch.nn.Parameter(torch.zeros(2))
            p.tag = 3
            lt, lp = round_trip([t, p])
            print(lt.note, lp.tag, type(lp).__name__, lp.requires_grad)
            """
        )
    )


# ---- containers, state_dicts, whole models ------------------------------------


def test_nested_containers_keep_their_types_and_plain_values():
    assert_same(
        with_round_trip(
            """
            w = torch.arange(4.)
            obj = {
                "step": 7, "name": "run-1", "lr": 0.5, "done": False, "nothing": None,
                "pair": (w, w[1:]), "items": [1, "two", [w.view(2, 2)]],
                "more": {"bytes": b"ab", "set": {1, 2}, "complex": 1 + 2j},
            }
            loaded = round_trip(obj)
            print(loaded["step"], loaded["name"], loaded["lr"], loaded["done"], loaded["nothing"])
            print(type(loaded["pair"]).__name__, type(loaded["items"]).__name__, loaded["items"][:2])
            print(loaded["more"], loaded["items"][2][0].stride())
            pair = loaded["pair"]
            print(pair[0].untyped_storage().data_ptr() == loaded["items"][2][0].untyped_storage().data_ptr())
            """
        )
    )


def test_dtypes_sizes_and_devices_are_allowed_by_weights_only():
    assert_same(
        with_round_trip(
            """
            print(round_trip([torch.float64, torch.int64, torch.Size([2, 3]), torch.device("cpu")]))
            """
        )
    )


def test_a_state_dict_loads_as_an_ordered_dict_sharing_with_a_parameter_saved_alongside():
    assert_same(
        """
        import io
        from collections import OrderedDict
        model = torch.nn.Linear(2, 3)
        with torch.no_grad():
            model.weight.copy_(torch.arange(6.).view(3, 2))
            model.bias.copy_(torch.tensor([1.0, 2.0, 3.0]))
        buffer = io.BytesIO()
        torch.save({"state": model.state_dict(), "weight": model.weight}, buffer)
        buffer.seek(0)
        loaded = torch.load(buffer)
        state, weight = loaded["state"], loaded["weight"]
        print(type(state).__name__, list(state), type(weight).__name__, weight.requires_grad)
        print(state["weight"].untyped_storage().data_ptr() == weight.untyped_storage().data_ptr())
        other = torch.nn.Linear(2, 3)
        print(other.load_state_dict(state))
        print(other.weight, other.bias)
        """
    )


def test_a_hand_built_ordered_dict_round_trips_with_torchs_file_length():
    assert_same(
        with_round_trip(
            """
            from collections import OrderedDict
            state = OrderedDict(weight=torch.ones(2, 2), bias=torch.zeros(2))
            print(round_trip(state))
            """
        )
    )


def test_a_whole_model_is_refused_by_default_and_loads_with_weights_only_false():
    assert_same(
        LINEAR_MODEL + with_saved("""
        buffer = saved(model)
        try:
            loaded(buffer)
        except Exception as error:
            print(type(error).__name__, str(error)[:60])
        copy = loaded(buffer, weights_only=False)
        print(copy, copy is model, copy.weight is model.weight)
        print(copy.weight.untyped_storage().data_ptr() == model.weight.untyped_storage().data_ptr())
        """)
    )


# ---- weights_only ------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["slice(1, 2)", "range(3)", "fractions.Fraction(1, 3)", "numpy.zeros(2)", "datetime.date(2024, 1, 2)"]
)
def test_weights_only_refuses_other_globals_with_torchs_message(value):
    assert_same(
        with_saved(f"""
        import fractions, datetime, numpy
        loaded(saved({{"x": torch.ones(1), "value": {value}}}))
        """),
        raises="UnpicklingError",
    )


@pytest.mark.parametrize("value", ["slice(1, 2)", "fractions.Fraction(1, 3)", "datetime.date(2024, 1, 2)"])
def test_weights_only_false_or_safe_globals_load_them(value):
    assert_same(
        with_saved(f"""
        import fractions, datetime
        buffer = saved({{"x": torch.ones(1), "value": {value}}})
        print(loaded(buffer, weights_only=False))
        with torch.serialization.safe_globals([type({value})]):
            print(loaded(buffer))
        loaded(buffer)
        """),
        raises="UnpicklingError",
    )


def test_add_safe_globals_allows_a_class_until_cleared():
    assert_same(
        with_saved("""
        import fractions
        buffer = saved([fractions.Fraction(2, 3)])
        torch.serialization.add_safe_globals([fractions.Fraction])
        print(loaded(buffer))
        torch.serialization.clear_safe_globals()
        loaded(buffer)
        """),
        raises="UnpicklingError",
    )


def test_weights_only_blocks_the_os_module_even_when_allowed():
    assert_same(
        with_saved("""
        import os
        buffer = saved(os.getcwd)
        with torch.serialization.safe_globals([os.getcwd]):
            loaded(buffer)
        """),
        raises="UnpicklingError",
    )


# ---- where the file is: paths and file objects ------------------------------------


def test_str_and_pathlib_paths_and_open_files(tmp_path):
    folder = str(tmp_path)
    assert_same(
        f"""
        import os, pathlib
        folder = {folder!r}
        t = torch.arange(5.)
        torch.save(t[1:3], os.path.join(folder, "slice.pt"))
        torch.save([t], pathlib.Path(folder) / "model.weights.pth")
        with open(os.path.join(folder, "handle.pt"), "wb") as handle:
            torch.save({{"t": t}}, handle)
        print(sorted(os.listdir(folder)))
        print([os.path.getsize(os.path.join(folder, name)) for name in sorted(os.listdir(folder))])
        loaded_slice = torch.load(os.path.join(folder, "slice.pt"))
        loaded_list = torch.load(pathlib.Path(folder) / "model.weights.pth")
        with open(os.path.join(folder, "handle.pt"), "rb") as handle:
            loaded_dict = torch.load(handle)
        print(loaded_slice, loaded_slice.storage_offset(), loaded_list, loaded_dict)
        """
    )


def test_saving_into_a_missing_directory_is_refused(tmp_path):
    target = str(tmp_path / "missing" / "x.pt")
    assert_same(f"torch.save(torch.ones(1), {target!r})", raises="RuntimeError")


def test_loading_a_missing_file_raises_file_not_found(tmp_path):
    target = str(tmp_path / "nothing.pt")
    assert_same(f"torch.load({target!r})", raises="FileNotFoundError")


def test_save_refuses_something_that_is_neither_a_path_nor_writable():
    assert_same("torch.save(torch.ones(1), 3)", raises="AttributeError")


def test_loading_an_empty_buffer_raises_eof_error():
    assert_same("import io\ntorch.load(io.BytesIO())", raises="EOFError")


@pytest.mark.parametrize("cut", ["[:-30]", "[:100]", "[:10]"])
def test_loading_a_truncated_file_raises_torchs_message(cut):
    assert_same(
        f"""
        import io
        buffer = io.BytesIO()
        torch.save(torch.ones(3), buffer)
        torch.load(io.BytesIO(buffer.getvalue(){cut}))
        """,
        raises="RuntimeError",
    )


def test_a_failed_save_still_ends_the_archive():
    assert_same(
        """
        import io
        buffer = io.BytesIO()
        try:
            torch.save([torch.ones(2), lambda x: x], buffer)
        except Exception as error:
            print(type(error).__name__, error)
        print(len(buffer.getvalue()))
        """
    )


# ---- map_location and the simulated GPU --------------------------------------------


def test_a_cuda_tensor_loads_back_on_cuda_sharing_its_views():
    assert_same_as_gpu(
        """
        import io
        x = torch.arange(4., device="cuda")
        buffer = io.BytesIO()
        torch.save([x, x[1:]], buffer)
        buffer.seek(0)
        lx, lv = torch.load(buffer)
        print(lx, lv.storage_offset())
        print(lx.untyped_storage().data_ptr() == lv.untyped_storage().data_ptr())
        """,
        expect_cuda=["x", "lx", "lv"],
    )


@pytest.mark.parametrize(
    "where", ['"cpu"', 'torch.device("cpu")', '{"cuda:0": "cpu"}', "lambda storage, location: storage"]
)
def test_map_location_moves_a_cuda_tensor_to_the_cpu(where):
    assert_same_as_gpu(
        f"""
        import io
        x = torch.arange(4., device="cuda")
        buffer = io.BytesIO()
        torch.save({{"x": x, "tail": x[2:]}}, buffer)
        buffer.seek(0)
        loaded = torch.load(buffer, map_location={where})
        print(loaded["x"], loaded["tail"].storage_offset())
        """,
        expect_cuda=["x"],
    )


@pytest.mark.parametrize("where", ['"meta"', 'torch.device("meta")', '{"cpu": "meta"}'])
def test_map_location_meta_keeps_the_metadata_and_the_sharing_and_drops_the_numbers(where):
    assert_same(with_saved(f"""
        a = torch.arange(6.).view(2, 3)
        loaded_ = loaded(saved({{"a": a, "v": a[:, 1:], "i": torch.tensor([1, 2])}}), map_location={where})
        la, lv, li = loaded_["a"], loaded_["v"], loaded_["i"]
        print(la.device, lv.storage_offset(), lv.stride(), lv._base is None, li.dtype)
        print(la.untyped_storage().nbytes(), lv.untyped_storage().nbytes(), la._version)
        lv.add_(1)
        print(la._version, lv._version)
        la.tolist()
        """), raises="NotImplementedError")


def test_map_location_to_an_unknown_place_is_refused():
    assert_same(
        """
        import io
        buffer = io.BytesIO()
        torch.save(torch.ones(2), buffer)
        buffer.seek(0)
        torch.load(buffer, map_location="gpu")
        """,
        raises="RuntimeError",
    )


def test_saving_a_tensor_with_hooks_warns_once_per_hook_and_loads_none():
    # The file holds no functions: torch warns for each hook of each tensor
    # pickled (a tensor met twice is pickled once), never for a Parameter's.
    assert_same("""
import io

def double(g):
    return g * 2

t = torch.ones(2, requires_grad=True)
t.register_hook(double)
t.register_hook(lambda g: g + 1)
y = t * 3
y.register_hook(double)
p = torch.nn.Parameter(torch.ones(2))
p.register_hook(double)
gone = torch.ones(1, requires_grad=True)
gone.register_hook(double).remove()
buf = io.BytesIO()
torch.save({"t": t, "again": [t], "y": y, "p": p, "gone": gone}, buf)
buf.seek(0)
back = torch.load(buf)
print(back["t"]._backward_hooks, back["p"]._backward_hooks, back["y"]._backward_hooks)
print(back["t"] is back["again"][0], back["y"].requires_grad, back["y"].is_leaf)
back["t"].sum().backward()
print(back["t"].grad)
""")


def test_loading_inside_inference_mode_gives_inference_tensors_without_counters():
    # torch rebuilds each tensor on an empty one with set_(): inside inference_mode that
    # empty tensor is an inference tensor, so the write is not counted and there is no counter.
    assert_same(with_saved("""
        t = torch.ones(3, requires_grad=True)
        buffer = saved({"t": t, "v": t[1:], "p": torch.nn.Parameter(torch.zeros(2)),
                        "m": torch.ones(2, device="meta")})
        with torch.inference_mode():
            back = loaded(buffer)
        for name, x in back.items():
            print(name, type(x).__name__, x.is_inference(), x.requires_grad, x.is_leaf)
        print(back["t"].untyped_storage().data_ptr() == back["v"].untyped_storage().data_ptr())
        back["t"]._version
    """), raises="RuntimeError")


def test_save_takes_torchs_pickle_protocols_2_and_3_and_refuses_others_saying_why():
    """torch writes any protocol (its weights-only loader reads protocol 2 without a warning, 3 with
    one, and refuses 4 and 5); reftorch writes protocols 2 and 3, the same pickle as torch's, and
    says why for another."""
    import io
    import zipfile

    import torch

    import reftorch

    for protocol in (2, 3):
        assert_same(
            f"""
            import io
            import warnings

            a = torch.arange(6.0).reshape(2, 3)
            buffer = io.BytesIO()
            torch.save({{"a": a, "row": a[1], "size": a.size(), "dtype": a.dtype}}, buffer, pickle_protocol={protocol})
            buffer.seek(0)
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                back = torch.load(buffer)
            print([str(w.message) for w in seen], back["row"], back["size"], back["dtype"])
            """
        )
        pickles = []
        for module in (torch, reftorch):
            buffer = io.BytesIO()
            module.save({"a": module.arange(3.0), "b": [1, 2.5]}, buffer, pickle_protocol=protocol)
            pickles.append(zipfile.ZipFile(buffer).read("archive/data.pkl"))
        assert pickles[0] == pickles[1], f"protocol {protocol}: reftorch's pickle is not torch's"
    for protocol in (4, 5):
        buffer = io.BytesIO()
        torch.save(torch.ones(2), buffer, pickle_protocol=protocol)
        buffer.seek(0)
        assert torch.load(buffer, weights_only=False).tolist() == [1.0, 1.0]
        with pytest.raises(NotImplementedError, match="reftorch saves with pickle protocol 2 .* or 3 only"):
            reftorch.save(reftorch.ones(2), io.BytesIO(), pickle_protocol=protocol)


def test_a_bare_untyped_storage_is_saved_as_torchs_storage_record_and_loads_as_bytes():
    # torch saves a bare UntypedStorage by reference (torch.storage.UntypedStorage, its byte count),
    # with its bytes as a record, and loads it, weights only, as a uint8 TypedStorage.
    assert_same(with_round_trip(
        """
        import zipfile
        x = torch.arange(3.0)
        s = x.untyped_storage()
        buffer = io.BytesIO()
        torch.save(s, buffer)
        archive = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
        print(archive.read("archive/data.pkl"), archive.read("archive/data/0") == bytes(x.numpy()))
        back = round_trip(s)
        print(type(back).__name__, back.dtype)
        pair = round_trip([s, torch.ones(2).untyped_storage(), s])
        print(type(pair).__name__, pair[0] is pair[2], [p.dtype for p in pair])
        try:
            torch.save([x, s], io.BytesIO())
        except RuntimeError as err:
            print("RuntimeError:", err)
        """
    ))


def test_a_loaded_storage_is_a_typed_storage_read_element_by_element():
    # torch.load gives a storage back as a TypedStorage: elements of its dtype, its own errors
    assert_same(with_round_trip(
        """
        import copy
        import pickle

        def attempt(label, f):
            try:
                print(label, "ok", repr(f()))
            except Exception as e:
                print(label, type(e).__name__, "|", e)

        x = torch.tensor([1, 2, 250], dtype=torch.uint8)
        lx, s = round_trip([x, x.untyped_storage()])
        print(type(s).__name__, repr(s), str(s) == repr(s))
        print(s.dtype, s.device, s.size(), len(s), s.nbytes(), s.element_size(), s.tolist(), list(s), s.is_shared())
        print(type(s.untyped()).__name__, s.untyped() is s.untyped(), s.untyped().nbytes())
        print(s.data_ptr() == lx.untyped_storage().data_ptr() == s.untyped().data_ptr(), lx.untyped_storage() is s.untyped())
        for index in (0, -1, 2, 3, -4, True, slice(1, 2), "a", 1.0):
            attempt(f"s[{index!r}]", lambda: s[index])
        s[0] = 7
        print(lx, lx._version, s.tolist())
        s[1:3] = 9
        print(lx, s.fill_(4) is s, lx)
        attempt("s[5] = 1", lambda: s.__setitem__(5, 1))
        attempt("s['a'] = 1", lambda: s.__setitem__("a", 1))
        for name, c in (("copy", copy.copy(s)), ("deepcopy", copy.deepcopy(s)), ("pickle", pickle.loads(pickle.dumps(s)))):
            print(name, type(c).__name__, c.dtype, c.tolist(), c.data_ptr() != s.data_ptr())
        again = round_trip(s)
        print(type(again).__name__, again.dtype, again.tolist())
        empty = round_trip(torch.zeros(0).untyped_storage())
        print(repr(empty), len(empty))
        """
    ))

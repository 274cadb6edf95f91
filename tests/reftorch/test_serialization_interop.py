"""Files cross between torch and reftorch: each loads what the other saved.

torch is the referee of its own format. For each object below, the file
reftorch writes is loaded by torch and must give exactly what torch gives for
the file torch writes (values, dtypes, strides, storage offsets, storage
sharing, requires_grad, types); and the file torch writes, loaded by reftorch,
must give what reftorch gives for its own file. Beyond that, the two files
must be the same bytes, except the 40-digit serialization id torch derives
from its C++ hash.
"""

import io
import pickle
import re
import zipfile
from collections import OrderedDict

import pytest
import torch

import reftorch
from reftorch import primitives

# ---- the objects: each builder takes the module (torch or reftorch) ---------------


def views_of_one_base(m):
    a = m.arange(12.)
    return [a, a[2:5], a.detach(), a.view(3, 4).t(), a.view(3, 4)[1:, ::2]]


def a_slice_of_a_big_tensor(m):
    return m.arange(1000.)[10:12]


def its_clone(m):
    return m.arange(1000.)[10:12].clone()


def every_dtype(m):
    return {
        "float32": m.tensor([[1.5, -2.0], [0.0, 3.25]]),
        "float64": m.tensor([1.0, 2.0], dtype=m.float64),
        "int64": m.tensor([[1, 2, 3]]).t(),
        "bool": m.tensor([True, False, True])[::2],
        "scalar": m.tensor(4.0),
        "empty": m.zeros(0, 3),
    }


def requires_grad_and_non_leaves(m):
    a = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return {"leaf": a, "non_leaf": a * 2, "view": a[1:], "detached": a.detach()}


def parameters(m):
    p = m.nn.Parameter(m.ones(2, 2))
    frozen = m.nn.Parameter(m.zeros(3), requires_grad=False)
    return [p, p.detach(), p, frozen, p[0]]


def linear_state_dict(m):
    model = m.nn.Linear(3, 2)
    with m.no_grad():
        model.weight.copy_(m.arange(6.).view(2, 3))
        model.bias.copy_(m.tensor([-1.0, 1.0]))
    return model.state_dict()


def nested_containers(m):
    w = m.arange(4.)
    return {
        "step": 3, "name": "run", "lr": 0.25, "flags": (True, None),
        "weights": OrderedDict(w=w, tail=w[2:]), "history": [[w.view(2, 2)], ("x", 1)],
        "meta": [m.float64, m.Size([2, 2]), m.device("cpu"), {1, 2}, b"raw", 1 + 1j],
    }


def tensor_with_attributes(m):
    t = m.ones(2)
    t.note = "kept"
    p = m.nn.Parameter(m.zeros(1))
    p.tag = 7
    return [t, p]


# Each dtype reftorch has, with its extreme values, as a base and a strided view of it.
DTYPE_VALUES = {
    "float16": [-65504.0, -1.5, 0.0, 6.1e-05, 3.25, 65504.0],
    "float32": [-3.4e38, -1.5, 0.0, 1e-45, 3.25, 3.4e38],
    "float64": [-1.7e308, -1.5, 0.0, 5e-324, 3.25, 1.7e308],
    "uint8": [0, 1, 2, 127, 128, 255],
    "int8": [-128, -1, 0, 1, 2, 127],
    "int16": [-32768, -1, 0, 1, 2, 32767],
    "int32": [-2147483648, -1, 0, 1, 2, 2147483647],
    "int64": [-9223372036854775808, -1, 0, 1, 2, 9223372036854775807],
    "bool": [True, False, False, True, True, False],
}


def _one_dtype(name):
    def build(m):
        dtype = getattr(m, name)
        base = m.tensor(DTYPE_VALUES[name], dtype=dtype)
        return {"base": base, "view": base.view(2, 3).t()[1:], "scalar": base[5].clone(),
                "empty": m.zeros(0, 2, dtype=dtype)}
    build.__name__ = f"a_{name}_tensor_and_its_view"
    return build


BUILDERS = [
    views_of_one_base, a_slice_of_a_big_tensor, its_clone, every_dtype, requires_grad_and_non_leaves,
    parameters, linear_state_dict, nested_containers, tensor_with_attributes,
    *(_one_dtype(name) for name in DTYPE_VALUES),
]


def test_every_dtype_reftorch_has_is_in_the_round_trip():
    assert sorted(DTYPE_VALUES) == sorted(d._name for d in reftorch._dtype._ALL)


# ---- describing what was loaded, the same way for both modules -----------------


def describe(obj, m, storages=None):
    """Everything observable about a loaded object, with storages numbered in the
    order they are first met (equal numbers: shared storage)."""
    storages = {} if storages is None else storages
    if isinstance(obj, m.Tensor):
        ptr = obj.untyped_storage().data_ptr()
        number = storages.setdefault(ptr, len(storages)) if ptr else "empty"
        return {
            "type": type(obj).__name__, "values": obj.tolist(), "dtype": str(obj.dtype),
            "shape": tuple(obj.shape), "stride": tuple(obj.stride()), "offset": obj.storage_offset(),
            "storage": number, "nbytes": obj.untyped_storage().nbytes(), "device": str(obj.device),
            "requires_grad": obj.requires_grad, "is_leaf": obj.is_leaf, "grad_fn": obj.grad_fn,
            "_version": obj._version, "attributes": dict(obj.__dict__),
        }
    if isinstance(obj, dict):
        return (type(obj).__name__, [(k, describe(v, m, storages)) for k, v in obj.items()])
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [describe(v, m, storages) for v in obj])
    if isinstance(obj, (m.dtype, m.device, m.Size)):
        return ("torch object", repr(obj))
    return ("value", type(obj).__name__, repr(obj))


def saved(m, obj):
    buffer = io.BytesIO()
    m.save(obj, buffer)
    return buffer.getvalue()


def loaded(m, data, **kwargs):
    return m.load(io.BytesIO(data), **kwargs)


# ---- both directions --------------------------------------------------------------


@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: b.__name__)
def test_torch_loads_reftorchs_file_as_it_loads_its_own(build):
    from_reftorch = loaded(torch, saved(reftorch, build(reftorch)))
    from_torch = loaded(torch, saved(torch, build(torch)))
    assert describe(from_reftorch, torch) == describe(from_torch, torch)


@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: b.__name__)
def test_reftorch_loads_torchs_file_as_torch_does(build):
    from_torch = loaded(reftorch, saved(torch, build(torch)))
    by_torch = loaded(torch, saved(torch, build(torch)))
    assert describe(from_torch, reftorch) == describe(by_torch, torch)


@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: b.__name__)
def test_reftorchs_file_is_torchs_file_but_for_the_serialization_id(build):
    ours, theirs = saved(reftorch, build(reftorch)), saved(torch, build(torch))
    assert len(ours) == len(theirs)
    assert _records(ours) == _records(theirs)
    id_record = zipfile.ZipFile(io.BytesIO(theirs)).getinfo("archive/.data/serialization_id")
    assert ours[: id_record.header_offset] == theirs[: id_record.header_offset]


def _records(data):
    archive = zipfile.ZipFile(io.BytesIO(data))
    return [
        (i.filename, i.header_offset, i.file_size, i.flag_bits, i.extra,
         None if i.filename.endswith("serialization_id") else archive.read(i))
        for i in archive.infolist()
    ]


def test_every_storage_record_starts_at_a_multiple_of_64_bytes():
    data = saved(reftorch, views_of_one_base(reftorch) + [reftorch.ones(3, dtype=reftorch.bool)])
    archive = zipfile.ZipFile(io.BytesIO(data))
    for info in archive.infolist():
        start = info.header_offset + 30 + len(info.filename) + _local_extra_length(data, info)
        assert start % 64 == 0, info.filename
        assert data[start:start + info.file_size] == archive.read(info)
    assert re.fullmatch(rb"\d{40}", archive.read("archive/.data/serialization_id"))


def _local_extra_length(data, info):
    return int.from_bytes(data[info.header_offset + 28:info.header_offset + 30], "little")


def test_a_path_names_the_folder_inside_the_zip(tmp_path):
    for m in (torch, reftorch):
        (tmp_path / m.__name__).mkdir()
        for name in ("model.v2.pt", "weights", "modèle.pt"):
            m.save(m.ones(1), tmp_path / m.__name__ / name)
    for name, folder in (("model.v2.pt", "model.v2"), ("weights", "weights"), ("modèle.pt", "archive")):
        ours, theirs = (tmp_path / "reftorch" / name).read_bytes(), (tmp_path / "torch" / name).read_bytes()
        assert zipfile.ZipFile(io.BytesIO(ours)).namelist()[0] == f"{folder}/data.pkl"
        assert _records(ours) == _records(theirs)


# ---- models through state_dicts ----------------------------------------------------


def test_a_torch_linear_state_dict_loads_into_a_reftorch_linear_and_back(tmp_path):
    source = torch.nn.Linear(3, 2)
    torch.save(source.state_dict(), tmp_path / "torch.pt")
    target = reftorch.nn.Linear(3, 2)
    target.load_state_dict(reftorch.load(tmp_path / "torch.pt"))
    assert target.weight.tolist() == source.weight.tolist()
    assert target.bias.tolist() == source.bias.tolist()
    reftorch.save(target.state_dict(), tmp_path / "reftorch.pt")
    back = torch.nn.Linear(3, 2)
    back.load_state_dict(torch.load(tmp_path / "reftorch.pt"))
    assert torch.equal(back.weight, source.weight) and torch.equal(back.bias, source.bias)


# ---- the simulated GPU ----------------------------------------------------------------


def test_a_reftorch_cuda_tensor_needs_map_location_on_torchs_cpu_build():
    x = reftorch.arange(4., device="cuda")
    data = saved(reftorch, [x, x[1:]])
    with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
        loaded(torch, data)
    lx, lv = loaded(torch, data, map_location="cpu")
    assert lx.tolist() == [0.0, 1.0, 2.0, 3.0] and lv.storage_offset() == 1
    assert lx.untyped_storage().data_ptr() == lv.untyped_storage().data_ptr()
    rx, rv = loaded(reftorch, data)
    assert str(rx.device) == "cuda:0" and rx.untyped_storage().data_ptr() == rv.untyped_storage().data_ptr()


def test_a_storage_on_a_second_gpu_is_refused_as_on_a_one_gpu_machine():
    data = _with_pickle(saved(torch, torch.ones(2)),
                        lambda p: p.replace(b"X\x03\x00\x00\x00cpu", b"X\x06\x00\x00\x00cuda:1"))
    with pytest.raises(RuntimeError, match=r"CUDA device 1 but torch.cuda.device_count\(\) is 1"):
        loaded(reftorch, data)
    assert loaded(reftorch, data, map_location={"cuda:1": "cpu"}).tolist() == [1.0, 1.0]


def _with_pickle(data, edit):
    """A copy of a saved file whose data.pkl went through ``edit``."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            content = source.read(info)
            target.writestr(info.filename, edit(content) if info.filename.endswith("data.pkl") else content)
    return buffer.getvalue()


# ---- what reftorch refuses, and how -----------------------------------------------


def test_weights_only_refuses_a_whole_model_with_torchs_leading_text():
    messages = []
    for m in (torch, reftorch):
        with pytest.raises(pickle.UnpicklingError) as caught:
            loaded(m, saved(m, m.nn.Linear(2, 2)))
        messages.append(str(caught.value))
    torch_text, reftorch_text = messages
    assert torch_text.replace("torch.nn.modules.linear.Linear", "<Linear>") == \
        reftorch_text.replace("reftorch.nn.linear.Linear", "<Linear>")


def test_reftorch_refuses_a_torch_model_file_even_when_trusted_without_importing_torch_classes():
    data = saved(torch, torch.nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match="reftorch.load cannot rebuild torch.nn.modules.linear.Linear"):
        loaded(reftorch, data, weights_only=False)


def test_a_dtype_reftorch_lacks_is_a_clear_limit_not_a_safety_refusal():
    data = saved(torch, torch.ones(2, dtype=torch.complex64))
    assert loaded(torch, data).dtype == torch.complex64  # torch's weights_only allows it
    with pytest.raises(RuntimeError, match="reftorch.load cannot rebuild torch.ComplexFloatStorage"):
        loaded(reftorch, data)


def test_one_storage_saved_as_two_dtypes_is_refused_with_torchs_message():
    a = torch.ones(2)
    with pytest.raises(RuntimeError) as torch_error:
        torch.save([a, a.view(torch.int32)], io.BytesIO())
    storage = primitives.allocate(2, reftorch.float32)
    floats = primitives.tensor_on(storage, (2,), (1,), dtype=reftorch.float32)
    longs = primitives.tensor_on(storage, (1,), (1,), dtype=reftorch.int64)
    with pytest.raises(RuntimeError) as reftorch_error:
        reftorch.save([floats, longs], io.BytesIO())
    assert str(reftorch_error.value) == str(torch_error.value)


@pytest.mark.parametrize(
    ("size", "stride", "offset", "message"),
    [
        ((5,), (1,), 0, "reaches past its storage of 16 bytes"),
        ((2,), (4,), 0, "reaches past its storage of 16 bytes"),
        ((2,), (3,), 1, "reaches past its storage of 16 bytes"),
        ((2,), (1,), 3, "reaches past its storage of 16 bytes"),
        ((2,), (1,), -1, "invalid storage offset -1"),
        ((2,), (1, 1), 0, r"unequal size length \(1\) and stride length \(2\)"),
    ],
)
def test_a_file_whose_layout_leaves_its_storage_is_refused(size, stride, offset, message):
    """A damaged or hand-made file must not make reftorch read outside a storage."""
    data = _with_pickle(saved(torch, torch.arange(4.)), lambda _: _tensor_pickle(offset, size, stride))
    with pytest.raises(RuntimeError, match=message):
        loaded(reftorch, data)


def _tensor_pickle(offset, size, stride):
    """A hand-written pickle: rebuild a tensor on storage "0" (4 floats) with this layout."""
    def value(v):
        return pickle.dumps(v, protocol=2)[2:-1]  # one value's opcodes, without PROTO and STOP

    reference = b"(" + value("storage") + b"ctorch\nFloatStorage\n" + value("0") + value("cpu") + value(4) + b"tQ"
    return (b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n(" + reference + value(offset) + value(tuple(size))
            + value(tuple(stride)) + b"\x89ccollections\nOrderedDict\n)RtR.")


def test_the_hand_written_pickle_is_a_valid_file_when_its_layout_fits():
    data = _with_pickle(saved(torch, torch.arange(4.)), lambda _: _tensor_pickle(1, (3,), (1,)))
    assert loaded(torch, data).tolist() == loaded(reftorch, data).tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    ("pickled", "error", "message"),
    [
        # a dtype where the storage class belongs
        (b"\x80\x02(X\x07\x00\x00\x00storagectorch\nfloat32\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpuK\x04tQ.",
         pickle.UnpicklingError, "is not a storage class"),
        # a tuple where the storage belongs
        (b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n(K\x01\x85K\x00K\x01\x85K\x01\x85\x89NtR.",
         RuntimeError, "must be rebuilt on a storage, not on tuple"),
    ],
)
def test_a_pickle_that_misuses_allowed_names_is_refused_with_a_message(pickled, error, message):
    data = _with_pickle(saved(torch, torch.arange(4.)), lambda _: pickled)
    with pytest.raises(error, match=message):
        loaded(reftorch, data)


def test_a_record_of_the_wrong_size_is_refused():
    data = saved(torch, torch.arange(4.))
    short = _with_record(data, "archive/data/0", b"\x00" * 8)
    with pytest.raises(RuntimeError, match="does not hold 16 bytes"):
        loaded(reftorch, short)


def _with_record(data, name, content):
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            target.writestr(info.filename, content if info.filename == name else source.read(info))
    return buffer.getvalue()


def test_a_zip_without_a_pickle_is_refused_with_torchs_message():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/version", "3\n")
    for m in (torch, reftorch):
        with pytest.raises(RuntimeError, match="PytorchStreamReader failed locating file data.pkl: file not found"):
            loaded(m, buffer.getvalue())


def test_a_file_that_is_not_a_zip_is_refused_naming_the_limit():
    with pytest.raises(pickle.UnpicklingError, match="reads only the zip format"):
        loaded(reftorch, b"plain text, not a checkpoint")

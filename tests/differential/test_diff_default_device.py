"""set_default_device: which calls follow the default device, which keep their input's,
and the meta device the course uses as a second device (it has metadata and no numbers).

Every program resets the default device in ``finally``, and deletes its meta
tensors before it ends: a meta tensor has no numbers for the harness to observe.
"""

import pytest

from crosscheck.harness import assert_same


def test_factories_and_torch_tensor_follow_the_default_device_and_the_rest_keep_their_inputs():
    assert_same(
        """
        import copy
        import warnings
        t = torch.ones(2)
        print(torch.get_default_device())
        torch.set_default_device("meta")
        try:
            print(torch.get_default_device())
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                moved = torch.tensor(t)
            print([str(w.message)[:40] for w in caught])
            made = [torch.zeros(2), torch.ones(2, 3), torch.full((2,), 1.0), torch.empty(1),
                    torch.arange(3), torch.tensor([1.0]), torch.rand(2), torch.randn(2)]
            kept = [torch.ones_like(t), torch.zeros_like(t), t.new_tensor([1.0]), t.new_zeros(2),
                    t.clone(), copy.deepcopy(t), t * 2]
            named = [torch.zeros(2, device="cpu"), torch.tensor(t, device="cpu")]
            print(t.device, moved.device)
            print([m.device.type for m in made], [k.device.type for k in kept], [n.device.type for n in named])
            layer = torch.nn.Linear(2, 1)
            print(layer.weight.device, layer.weight.shape, layer.weight.requires_grad)
        finally:
            torch.set_default_device(None)
        print(torch.get_default_device(), torch.zeros(1).device)
        del moved, made, layer
        """
    )


def test_the_default_device_can_be_set_to_cpu_or_a_device_object_and_bad_names_are_refused():
    assert_same(
        """
        for choice in ["cpu", torch.device("meta"), "meta:0", "cpu"]:
            torch.set_default_device(choice)
            print(repr(torch.get_default_device()), torch.ones(1).device)
        torch.set_default_device(None)
        for bad in ["nonsense", 3]:
            try:
                torch.set_default_device(bad)
            except RuntimeError as err:
                print("RuntimeError:", err)
            finally:
                torch.set_default_device(None)
        print(repr(torch.get_default_device()))
        """
    )


def test_a_meta_tensor_has_metadata_and_a_graph_but_no_numbers():
    assert_same(
        """
        m = torch.ones(2, 3, device="meta", requires_grad=True)
        y = (m * 2).t()
        print(m.shape, m.stride(), m.dtype, m.device, m.data_ptr(), m.untyped_storage().data_ptr())
        print(y.shape, y.stride(), y.grad_fn, y.requires_grad, y.is_leaf)
        print(repr(m))
        print(repr(y))
        print(repr(torch.zeros(0, device="meta")), repr(torch.tensor(2.0, device="meta")))
        print(repr(torch.zeros(2, dtype=torch.int64, device="meta")), repr(torch.zeros(2).to("meta")))
        print(repr(torch.zeros(1, device="meta").copy_(torch.ones(1))))
        del m, y
        """
    )


def test_a_meta_tensor_may_be_written_in_place_where_its_elements_would_overlap():
    # torch checks no overlap for a meta tensor: it has no memory; a cpu tensor is still refused
    assert_same(
        """
        a = torch.ones(3, device="meta")
        same = lambda m: a if m.device.type == "meta" else torch.ones(3)  # an operand on m's device
        writes = {
            "expanded add_": lambda m: m.expand(3).add_(1),
            "expanded mul_": lambda m: m.expand(3).mul_(same(m)),
            "expanded fill_(tensor)": lambda m: m.expand(3).fill_(torch.tensor(2.0, device=m.device)),
            "expanded lerp_": lambda m: m.expand(3).lerp_(same(m), 0.5),
            "expanded addcmul_": lambda m: m.expand(3).addcmul_(same(m), same(m)),
        }
        for name, write in writes.items():
            for m in (torch.ones(1, device="meta"), torch.ones(1)):
                try:
                    print(name, m.device, write(m).shape, m.shape)
                except RuntimeError as err:
                    print(name, m.device, "RuntimeError:", err)
        for name, write in (("add_", lambda: a[1:].add_(a[:2])), ("addcdiv_", lambda: a[1:].addcdiv_(a[:2], a[:2]))):
            print("partly overlapping", name, write().shape)
        del a, m
        """
    )


def test_add_sub_mul_div_with_a_meta_operand_run_torchs_meta_kernel_and_write_nothing():
    # torch runs the meta kernel when any operand is meta, a cpu destination too: its own checks
    # (no alpha, no bool subtraction, no overlap), its own words, and the numbers stay as they were
    assert_same(
        """
        import numpy as np

        def attempt(label, f):
            try:
                r = f()
                print(label, "ok", r.device, r.dtype, tuple(r.shape), r._version, r.tolist() if r.device.type == "cpu" else "")
            except Exception as e:
                print(label, type(e).__name__, "|", e)

        dtypes = {"i": torch.int64, "f": torch.float32, "b": torch.bool, "d": torch.float64}
        numbers = {"i": 2, "f": 2.5, "b": True, "d": 2.5}
        for op in ("add_", "sub_", "mul_", "div_"):
            for devices in (("cpu", "meta"), ("meta", "cpu"), ("meta", "meta"), ("meta", None)):
                for s in "ifb":
                    for o in "ifbd":
                        for shape in ((3,), (2,), (2, 3), ()):
                            if devices[1] is None and shape != ():
                                continue
                            def f():
                                self = torch.tensor([0, 1, 2], dtype=dtypes[s], device=devices[0])
                                other = numbers[o] if devices[1] is None else torch.ones(shape, dtype=dtypes[o], device=devices[1])
                                return getattr(self, op)(other)
                            attempt(f"{op} {devices} {s}<-{o}{shape}", f)
        m = lambda *size, **kw: torch.ones(*size, device="meta", **kw)
        attempt("alpha 2.5 into int", lambda: m(3, dtype=torch.int64).add_(m(3, dtype=torch.int64), alpha=2.5))
        attempt("alpha True", lambda: torch.arange(3.0).sub_(m(3), alpha=True))
        attempt("int8 + 300", lambda: m(3, dtype=torch.int8).add_(300))
        attempt("numpy bool", lambda: m(3, dtype=torch.int64).add_(np.bool_(True)))
        attempt("numpy int", lambda: m(3, dtype=torch.bool).add_(np.int64(1)))
        attempt("(2, 3) <- (4, 3)", lambda: m(2, 3).add_(m(4, 3)))
        attempt("(3, 1) <- (2, 4)", lambda: m(3, 1).mul_(m(2, 4)))
        attempt("(2, 3) <- (5, 1, 3)", lambda: m(2, 3).div_(m(5, 1, 3)))
        attempt("int /= 2", lambda: m(3, dtype=torch.int64).__itruediv__(2))
        attempt("bool -= True", lambda: m(3, dtype=torch.bool).__isub__(True))
        base = torch.arange(3.0)
        attempt("expanded cpu *= meta", lambda: base[:1].expand(3).mul_(m(3)))
        print(base.tolist(), base._version)
        x = torch.ones(3, requires_grad=True)
        y = x * 2
        y.add_(m(3, requires_grad=True), alpha=2)
        print(y.grad_fn.name(), [type(n).__name__ for n, _ in y.grad_fn.next_functions], y.tolist(), y._version)
        attempt("leaf", lambda: torch.ones(3, requires_grad=True).mul_(m(3)))
        v = torch.zeros(4)
        attempt("view", lambda: v[1:3].div_(m(2, requires_grad=True)))
        print(v.grad_fn.name(), v._version)
        """
    )


def test_the_other_in_place_ops_with_a_meta_operand_check_shapes_then_one_device():
    # torch runs their Python references: shapes that broadcast (in its words), then one device
    # (a 0-d cpu tensor may join any; floor_divide_ moves a divisor to a meta dividend), before
    # any overlap or dtype check; a cpu destination is never written from meta (lerp_, addcmul_
    # and addcdiv_ have meta kernels of their own)
    assert_same(
        """
        def attempt(label, f):
            try:
                r = f()
                print(label, "ok", r.device, tuple(r.shape), r._version, r.tolist() if r.device.type == "cpu" else "")
            except Exception as e:
                print(label, type(e).__name__, "|", e)

        ops = {
            "pow_": lambda s, o: s.pow_(o), "remainder_": lambda s, o: s.remainder_(o), "fmod_": lambda s, o: s.fmod_(o),
            "floor_divide_": lambda s, o: s.floor_divide_(o), "//=": lambda s, o: s.__ifloordiv__(o),
            "**=": lambda s, o: s.__ipow__(o), "%=": lambda s, o: s.__imod__(o),
            "bitwise_or_": lambda s, o: s.long().bitwise_or_(o.long()), "<<=": lambda s, o: s.long().__ilshift__(o.long()),
            "clamp_": lambda s, o: s.clamp_(o), "clamp_(max=)": lambda s, o: s.clamp_(max=o),
        }
        selves = {"cpu": lambda: torch.ones(3), "expanded cpu": lambda: torch.ones(1).expand(3),
                  "meta": lambda: torch.ones(3, device="meta"), "0-d cpu": lambda: torch.ones(()),
                  "int cpu": lambda: torch.ones(3, dtype=torch.int64)}
        others = {"meta": lambda: torch.ones(3, device="meta"), "0-d meta": lambda: torch.ones((), device="meta"),
                  "cpu": lambda: torch.ones(3), "0-d cpu": lambda: torch.ones(()),
                  "meta (2,)": lambda: torch.ones(2, device="meta"), "cpu (2,)": lambda: torch.ones(2)}
        for name, op in ops.items():
            for s, make_self in selves.items():
                for o, make_other in others.items():
                    if ("meta" in s or "meta" in o) and (s != "0-d cpu" or o == "0-d meta"):  # (torch resizes a 0-d out, warning)
                        attempt(f"{name} {s} <- {o}", lambda: op(make_self(), make_other()))
        """
    )


@pytest.mark.parametrize("statement, error", [
    ("m.tolist()", "NotImplementedError"),
    ("m.item()", "RuntimeError"),
    ("float(m)", "RuntimeError"),
    ("m.cpu()", "NotImplementedError"),
    ("torch.zeros(1).copy_(m)", "NotImplementedError"),
    ("m.numpy()", "TypeError"),
    ("m + torch.ones(1)", "RuntimeError"),
    ("torch.ones(1) + m", "RuntimeError"),
])
def test_reading_the_numbers_of_a_meta_tensor_or_mixing_it_with_cpu_raises_torchs_error(statement, error):
    assert_same(
        f"""
        m = torch.ones(1, device="meta")
        try:
            {statement}
        finally:
            del m
        """,
        raises=error,
    )


def test_as_tensor_follows_the_default_device_and_from_numpy_does_not():
    """Chapter 12: ``as_tensor`` shares unless a dtype, a device or a default device set with
    ``set_default_device`` asks for something else; ``from_numpy`` always shares, on the CPU."""
    assert_same(
        """
        import numpy as np
        arr = np.arange(3.0)
        t = torch.ones(2)
        torch.set_default_device("cpu")
        try:
            print(torch.as_tensor(t) is t, torch.as_tensor(arr).data_ptr() == arr.__array_interface__["data"][0])
        finally:
            torch.set_default_device(None)
        torch.set_default_device("meta")
        try:
            moved = [torch.as_tensor(arr), torch.as_tensor(t), torch.as_tensor([1.0, 2.0])]
            kept = [torch.as_tensor(t, device="cpu"), torch.from_numpy(arr)]
            print([m.device.type for m in moved], [k.device.type for k in kept], kept[0] is t)
        finally:
            torch.set_default_device(None)
        del moved
        """
    )


def test_a_list_index_follows_the_indexed_tensor_not_the_default_device():
    """torch makes a list (or numpy array) index on the indexed tensor's device, so a default
    device of meta or cuda does not touch ``x[[0, 2]]`` for a cpu ``x``."""
    assert_same(
        """
        import numpy as np

        x = torch.arange(4.0, device="cpu")
        for default in ("meta", "cuda"):
            torch.set_default_device(default)
            try:
                picked, masked, from_array = x[[0, 2]], x[[True, False, True, False]], x[np.array([1, 3])]
                x[[0, 2]] = 5.0
                print(default, picked, masked, from_array, x, x._version)
            finally:
                torch.set_default_device(None)
        """
    )

"""Odd inputs, run on torch and on reftorch: the same printout, or the same error."""

import textwrap

from crosscheck.harness import assert_same
from diff_programs import EXP_SAVING_ITS_OUTPUT


def test_in_place_and_matmul_operators_answer_not_implemented_for_what_is_not_an_operand():
    assert_same(
        """
        class Thing:
            pass

        t = torch.tensor([1.0, 2.0])
        for name in ("__iadd__", "__isub__", "__imul__", "__itruediv__", "__matmul__"):
            for other in (None, "a", Thing(), [1.0, 2.0], (1.0,)):
                result = getattr(t, name)(other)
                print(name, type(other).__name__, result is NotImplemented)
        for other in (None, "a", [1.0]):
            try:
                t += other
            except TypeError as error:
                print("TypeError:", error)
            try:
                t @ other
            except TypeError as error:
                print("TypeError:", error)
        print(t, t._version)
        """
    )


def test_expand_on_0d_and_1d_tensors_with_no_negative_and_overflowing_sizes():
    assert_same(
        """
        for t in (torch.tensor(3.0), torch.tensor([5.0]), torch.ones(2, 1)):
            for sizes in ((), ((),), (-1,), (-1, 0), (0, -1), (-1, -1), (0,), (2,), (-1, 2), (2, -1),
                          (-2,), (-2, 0), (0, 0), (-1, 1), (3, -1, 0), (2 ** 62, 4), (2 ** 40, 2 ** 40)):
                try:
                    e = t.expand(*sizes)
                    print(sizes, tuple(e.shape), e.stride(), e.storage_offset(), e.numel())
                except (RuntimeError, TypeError) as error:
                    print(sizes, type(error).__name__, error)
            for keywords in ({"size": ()}, {"size": (2, -1)}, {"size": 2}, {"size": None}):
                try:
                    print(keywords, tuple(t.expand(**keywords).shape))
                except (RuntimeError, TypeError) as error:
                    print(keywords, type(error).__name__, error)
        try:
            torch.tensor([5.0]).expand(2, size=(2,))
        except TypeError as error:
            print(error)
        print(torch.tensor([5.0]).expand(3, implicit=True).stride())
        for implicit in (1, None, "yes"):  # torch's parser takes a bool only, before it reads the sizes
            for call in (lambda: torch.ones(1).expand(3, implicit=implicit),
                         lambda: torch.ones(1).expand(3, 2.5, implicit=implicit)):
                try:
                    call()
                except TypeError as error:
                    print(error)
        """
    )


def _outcome(function, *args):
    try:
        return tuple(function(*args))
    except (RuntimeError, ValueError, TypeError) as error:
        return type(error).__name__


def test_broadcast_shapes_refuses_a_negative_size_as_torch_does():
    """Chapter 23's reference (``reftorch._shapes.broadcast_shapes``) next to ``torch.broadcast_shapes``:
    the shape, or the kind of error (the texts differ: reftorch's is the one a tensor operation gives)."""
    import torch

    import reftorch._shapes

    for shapes in (((-1,), (2,)), ((2,), (-1,)), ((-1,),), ((-2, 3),), ((1,), (-1,)), ((-1,), (-1,)),
                   ((0,), (-1,)), ((3,), (2,)), ((1, -1), (1,)), ((2,), (-3, 2)), ((), (2, 2)), ((0,), (1,))):
        assert _outcome(reftorch._shapes.broadcast_shapes, *shapes) == _outcome(torch.broadcast_shapes, *shapes), shapes


def test_saving_one_memory_as_two_dtypes_is_refused_unless_it_has_no_bytes():
    assert_same(
        """
        import io

        def as_int32(t):
            return torch.tensor([], dtype=torch.int32).set_(t.untyped_storage())

        a, e = torch.arange(4.0), torch.zeros(0)
        for label, tensors in (("a and a as int32", [a, as_int32(a)]), ("a as int32 alone", [as_int32(a)]),
                               ("a[1:] and a as int32", [a[1:], as_int32(a)]),
                               ("two empty, two dtypes", [e, as_int32(e)])):
            try:
                torch.save(tensors, io.BytesIO())
                print(label, "saved")
            except RuntimeError as error:
                print(label, "RuntimeError:", error)
        """
    )


def _entries_or_error(function, tensors):
    try:
        return function(tensors)
    except RuntimeError as error:
        return str(error)


def test_the_chapter_14_reference_refuses_what_torch_save_refuses():
    """``storages_written`` (chapter 14's reference) next to a real torch file, for tensors that read one
    memory as two dtypes: torch.save refuses them, unless the memory has no bytes."""
    import torch

    import reftorch
    from coursebook.build_it.pieces_14 import _entries_of_a_real_file, storages_written

    def lists(module):
        def as_int32(t):
            return module.tensor([], dtype=module.int32).set_(t.untyped_storage())
        a, e = module.arange(4.0), module.zeros(0)
        return ([a, as_int32(a)], [as_int32(a)], [a[1:], as_int32(a), a], [e, as_int32(e)])

    for theirs, yours in zip(lists(torch), lists(reftorch)):
        assert _entries_or_error(storages_written, yours) == _entries_or_error(_entries_of_a_real_file, theirs)


def test_a_saved_output_comes_back_as_a_new_tensor_on_its_memory_and_a_saved_input_as_itself():
    assert_same(EXP_SAVING_ITS_OUTPUT + textwrap.dedent(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        for source in (x, x * 1):
            y = Exp.apply(source)
            out, a = y.grad_fn.saved_tensors
            print(repr(y.grad_fn).split(" at ")[0], y.grad_fn.name())
            print(out is y, a is source, out.untyped_storage() is y.untyped_storage(), out._base)
            print(out.grad_fn is y.grad_fn, out.requires_grad, out.is_leaf, out.output_nr, out._version)
            with torch.no_grad():
                out.mul_(1)
            print(y._version, out._version)
            try:
                y.sum().backward()
            except RuntimeError as error:
                print("RuntimeError:", error)

        class WritesAfterSaving(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                b = a * 2
                ctx.save_for_backward(b)
                b.add_(1)
                return a * 3

            @staticmethod
            def backward(ctx, grad):
                (b,) = ctx.saved_tensors
                return grad * b

        y = WritesAfterSaving.apply(x)
        print(y.grad_fn.saved_tensors)
        y.sum().backward()
        print(x.grad)
        """
    ))


def test_saved_tensors_after_the_backward_raises_even_when_nothing_or_only_none_was_saved():
    assert_same(
        """
        class Saves(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, what):
                ctx.reads = what.endswith("read")
                ctx.save_for_backward(*{"a": (a,), "None": (None,)}.get(what, ()))
                return a * 2

            @staticmethod
            def backward(ctx, grad):
                if ctx.reads:
                    print("read in backward:", ctx.saved_tensors)
                return grad * 2, None

        for what in ("a", "None", "nothing", "nothing, read"):
            x = torch.tensor([1.0, 2.0], requires_grad=True)
            y = Saves.apply(x, what)
            y.sum().backward(retain_graph=True)
            print(what, "retained:", y.grad_fn.saved_tensors)
            y.sum().backward()
            for label, after in (("freed:", lambda: y.grad_fn.saved_tensors), ("again:", lambda: y.sum().backward())):
                try:
                    print(what, label, after(), x.grad)
                except RuntimeError as error:
                    print(what, label, "RuntimeError:", error)
        """
    )


def test_copy_from_the_very_same_elements_or_into_meta_refuses_no_overlap():
    assert_same(
        """
        def attempt(label, make):
            base = torch.arange(4.0)
            try:
                e, f = make(base)
                result = e.copy_(f)
                print(label, result is e, base.tolist(), e._version, base._version)
            except (RuntimeError, NotImplementedError) as error:
                print(label, type(error).__name__, error)

        attempt("e.copy_(e), e expanded", lambda b: (b[:2].expand(3, 2),) * 2)
        attempt("the same expand twice", lambda b: (b[:2].expand(3, 2), b[:2].expand(3, 2)))
        attempt("another dtype", lambda b: (b[:2].expand(3, 2), b[:2].expand(3, 2).double()))
        attempt("shifted", lambda b: (b[:2].expand(3, 2), b[1:3].expand(3, 2)))
        attempt("broadcast source", lambda b: (b[:2].expand(3, 2), b[:2]))
        attempt("b[:3] from b[1:]", lambda b: (b[:3], b[1:]))
        attempt("a transpose of itself", lambda b: (b.view(2, 2), b.view(2, 2).t()))
        attempt("b[::2] from b[::2]", lambda b: (b[::2], b[::2]))
        attempt("b[::2] from b[1::2]", lambda b: (b[::2], b[1::2]))
        attempt("a view of a leaf that requires grad", lambda b: (torch.ones(2, requires_grad=True).expand(3, 2),) * 2)
        m = torch.empty(2, device="meta").expand(3, 2)
        attempt("meta from itself", lambda b: (m, m))
        attempt("meta from cpu", lambda b: (m, torch.ones(3, 2)))
        attempt("meta from a wrong shape", lambda b: (m, torch.ones(4)))
        attempt("expanded cpu from meta", lambda b: (b[:2].expand(3, 2), torch.ones(3, 2, device="meta")))
        x = torch.ones(2, requires_grad=True)
        e = (x * 1).expand(3, 2)
        e.copy_(e)
        print(e._version, type(e.grad_fn).__name__, e._base.grad_fn.name())
        """
    )


def test_a_parameter_copy_starts_its_own_counter_at_0_and_an_inference_one_stays_inference():
    assert_same(
        """
        import copy

        p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        with torch.no_grad():
            p.add_(1)
        frozen = torch.nn.Parameter(torch.ones(2), requires_grad=False)
        frozen.note = "kept"
        strided = torch.nn.Parameter(torch.ones(2, 3).t())
        for name, param in (("written", p), ("frozen", frozen), ("transposed", strided)):
            for kind in (copy.copy, copy.deepcopy):
                c = kind(param)
                print(name, kind.__name__, type(c).__name__, param._version, c._version, c.requires_grad,
                      c.stride(), c.untyped_storage() is param.untyped_storage(), getattr(c, "note", None))
            c = copy.copy(param)
            with torch.no_grad():
                c.mul_(1)
            print(name, "after a write through the copy", param._version, c._version)
        with torch.inference_mode():
            made_inside = torch.nn.Parameter(torch.ones(2))
            print(made_inside.requires_grad, made_inside.is_inference())
        for attempt in (lambda: torch.nn.Parameter(made_inside.data), lambda: copy.copy(made_inside),
                        lambda: torch.nn.Parameter(made_inside.data, requires_grad=False)):
            try:
                made = attempt()
                print(made.requires_grad, made.is_inference())
            except RuntimeError as error:
                print("RuntimeError:", error)
        """
    )


def test_tensor_type_names_or_converts_and_module_type_converts_every_parameter_and_buffer():
    assert_same(
        """
        t = torch.ones(2, requires_grad=True)
        for target in (None, torch.float64, torch.float32, "torch.DoubleTensor", "torch.FloatTensor",
                       "torch.LongTensor", "torch.Tensor", "torch.BoolTensor", "torch.float64", "double", 3):
            try:
                r = t.type(target)
                print(repr(target), r if isinstance(r, str) else (r.dtype, r is t, r.requires_grad, r.is_leaf))
            except (TypeError, ValueError) as error:
                print(repr(target), type(error).__name__, error)
        model = torch.nn.Linear(2, 2)
        with torch.no_grad():
            model.weight.fill_(0.5)
            model.bias.fill_(0.25)
        model.register_buffer("count", torch.tensor(3))
        weight = model.weight
        print(model.type(torch.float64) is model, model.weight is weight, model.weight.dtype, model.count.dtype)
        model.type("torch.FloatTensor")
        print(model.weight.dtype, model.bias.dtype, model.count.dtype, model.weight._version)
        try:
            model.type(torch.int64)
        except RuntimeError as error:
            print("RuntimeError:", error)
        """
    )


def test_int_arguments_take_numpy_integers_and_refuse_a_leading_bool_as_torch_does():
    """Chapter 03 shows ``transpose``, ``view``, ``reshape`` and ``expand``: torch's parser takes a
    numpy integer wherever it takes an int, refuses ``True`` as one, except after the first
    element of a list of sizes (there it counts as 1)."""
    assert_same(
        """
        import numpy as np

        x = torch.arange(6.0).reshape(2, 3)
        cases = (("transpose", (np.int64(1), 0)), ("transpose", (True, 0)), ("transpose", (0, False)),
                 ("transpose", (torch.tensor(True), 0)), ("transpose", (torch.tensor(1), 0)),
                 ("view", (np.int64(6),)), ("view", ((np.int64(2), 3),)), ("view", (2, True)),
                 ("view", ((np.int32(2), True),)), ("view", ((2, 3.0),)), ("reshape", (np.int32(6),)),
                 ("reshape", ((True, 6),)), ("reshape", (3, np.int64(2))), ("permute", (np.int64(1), 0)),
                 ("permute", (True, False)), ("expand", (np.int64(2), 3)), ("expand", (2, True)),
                 ("unsqueeze", (np.int64(0),)), ("unsqueeze", (True,)), ("chunk", (np.int64(2),)),
                 ("unbind", (np.int64(0),)), ("unbind", (False,)), ("flatten", (np.int64(0),)))
        for name, args in cases:
            try:
                result = getattr(x, name)(*args)
                shapes = [tuple(p.shape) for p in result] if isinstance(result, tuple) else tuple(result.shape)
                print(name, args, shapes)
            except (RuntimeError, TypeError) as error:
                print(name, args, type(error).__name__, error)
        """
    )


def test_a_zero_slice_step_gets_pythons_words_and_a_negative_one_torchs():
    """Chapter 03 shows ``Tensor.__getitem__``: ``x[::0]`` is Python's "slice step cannot be zero"
    on torch, ``x[::-1]`` torch's own "step must be greater than zero"."""
    assert_same(
        """
        x = torch.arange(6.0).reshape(2, 3)
        for t, key in ((x, slice(None, None, 0)), (x, (0, slice(None, None, 0))), (x, slice(None, None, -1)),
                       (x, (slice(None), slice(1, None, 0))), (torch.tensor(1.0), slice(None, None, 0)),
                       (torch.zeros(0), slice(None, None, 0)), (x, (None, slice(0, 1, 0)))):
            try:
                print(t[key].shape)
            except (ValueError, IndexError) as error:
                print(type(error).__name__, error)
        """
    )

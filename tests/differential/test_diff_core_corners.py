"""Corners of the core reading path that waited for room in the core: a backward that gives no
gradient, a grad mode used bare as a decorator, pickling a tensor (and views pickled together),
writing a view a custom Function returned, a graph freed with its last tensor, Python copies of a meta tensor,
and the order of torch's checks on what backward is given."""

import textwrap

from crosscheck.harness import assert_same
from diff_programs import EXP_SAVING_ITS_OUTPUT, HALVE, attempt_source


def test_a_function_whose_backward_gives_none_for_an_input_sends_that_input_no_gradient():
    assert_same(HALVE + textwrap.dedent(
        """
        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        Halve.apply(a * 3, b).sum().backward()
        print(a.grad, b.grad, b.grad._version)
        c = torch.ones(2, requires_grad=True)
        (Halve.apply(c, c) + c).sum().backward()
        print(c.grad)
        d = torch.ones(2, requires_grad=True)
        print(torch.autograd.grad(Halve.apply(d, b).sum(), d, allow_unused=True))
        try:
            torch.autograd.grad(Halve.apply(d, b).sum(), d)
        except RuntimeError as err:
            print("RuntimeError:", err)
        """
    ))


def test_no_grad_and_enable_grad_decorate_a_function_without_parentheses():
    assert_same(
        """
        @torch.no_grad
        def doubled(x):
            "Twice x."
            return x * 2

        @torch.enable_grad
        def tripled(x):
            return x * 3

        x = torch.ones(2, requires_grad=True)
        print(doubled(x).requires_grad, doubled.__name__, doubled.__doc__, torch.is_grad_enabled())
        with torch.no_grad():
            print(tripled(x).requires_grad, torch.is_grad_enabled())
        """
    )


def test_pickle_round_trips_a_tensor_onto_new_memory():
    assert_same(
        """
        import copy
        import pickle
        a = torch.arange(6.0).reshape(2, 3).t()
        a.requires_grad_()
        a.note = "kept"
        b = pickle.loads(pickle.dumps(a))
        print(b, b.stride(), b._version, b.requires_grad, b.is_leaf, b.grad_fn, b.note)
        print(b.untyped_storage().data_ptr() == a.untyped_storage().data_ptr())
        s = a.untyped_storage()
        copied = copy.copy(s)
        print(copied is s, copied.data_ptr() == s.data_ptr(), copied.nbytes(), copied.device)
        """
    )


def test_views_pickled_together_come_back_on_storages_of_their_own_and_saved_together_share_one():
    """Each tensor's recipe carries a storage object of its own (torch's TypedStorage), so pickle writes
    the bytes once per tensor; torch.save writes them once per storage."""
    assert_same(
        """
        import copy
        import io
        import pickle
        x = torch.arange(6.0)
        for name, (a, b) in (("pickle", pickle.loads(pickle.dumps((x, x[2:])))),
                             ("same object twice", pickle.loads(pickle.dumps((x, x))))):
            a[3] = 100.0
            print(name, a is b, a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(), b,
                  b.storage_offset(), b.untyped_storage().nbytes())
        buffer = io.BytesIO()
        torch.save((x, x[2:]), buffer)
        buffer.seek(0)
        a, b = torch.load(buffer)
        print(a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
        shallow = copy.copy(x[2:])
        print(shallow.untyped_storage() is x.untyped_storage(), shallow.storage_offset())
        """
    )


def test_a_view_a_custom_function_returns_refuses_an_in_place_write_with_torchs_custom_function_text():
    assert_same(attempt_source() + textwrap.dedent(
        """
        class Tail(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x[1:]

            @staticmethod
            def backward(ctx, grad):
                return torch.zeros(1).new_tensor([0.0] + grad.tolist())

        class Same(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad

        a = torch.ones(3, requires_grad=True) * 1
        for function in (Tail, Same):
            v = function.apply(a)
            print(function.__name__, v._base is a, v.grad_fn.name())
            attempt(lambda: v.mul_(2))
            attempt(lambda: v[0:1].mul_(2))
            a.detach().add_(1)  # through the base: the view notices when its grad_fn is read
            attempt(lambda: v.grad_fn)
        with torch.no_grad():
            v = Tail.apply(a)
        attempt(lambda: v.mul_(2))
        """
    ))


def test_a_graph_that_saved_its_output_is_freed_with_the_last_tensor_that_leads_to_it():
    # A saved tensor holds neither its node nor, for the node's own output, the node as grad_fn:
    # without a reference cycle the output's memory goes as soon as nothing leads to the graph.
    assert_same(EXP_SAVING_ITS_OUTPUT + textwrap.dedent(
        """
        import gc
        import weakref

        gc.disable()
        try:
            for name, make in (("exp", lambda x: x.exp()), ("sigmoid", lambda x: x.sigmoid()),
                               ("x * x", lambda x: x * x), ("x ** 2", lambda x: x ** 2),
                               ("Exp", lambda x: Exp.apply(x)), ("exp().sum()", lambda x: x.exp().sum())):
                x = torch.ones(2, requires_grad=True)
                y = make(x)
                memory = weakref.ref(y.untyped_storage())
                del y
                print(name, memory() is None)
        finally:
            gc.enable()
        """
    ))


def test_copies_of_a_meta_tensor_are_made_from_its_metadata_alone():
    assert_same(
        """
        import copy
        import pickle
        m = torch.ones(2, 3, device="meta").t()[1:]
        m.requires_grad_()
        m.note = [1]
        for name, made in (("copy", copy.copy(m)), ("deepcopy", copy.deepcopy(m)),
                           ("pickle", pickle.loads(pickle.dumps(m)))):
            print(name, made.shape, made.stride(), made.storage_offset(), made._version, made.requires_grad,
                  made.is_leaf, made.untyped_storage().nbytes(), made.untyped_storage() is m.untyped_storage(),
                  made.note, made.note is m.note, made.device)
        """
    )


def test_backward_checks_the_gradients_given_before_it_asks_whether_outputs_require_grad():
    assert_same(
        """
        x = torch.ones(3, requires_grad=True)
        attempts = [lambda: torch.ones(3).backward(torch.ones(2)),
                    lambda: torch.autograd.grad(torch.ones(3), x, torch.ones(2)),
                    lambda: torch.autograd.backward([torch.ones(2), x * 2]),
                    lambda: torch.autograd.grad(torch.ones(1).sum(), torch.ones(3)),
                    lambda: torch.autograd.grad((x * 2).sum(), torch.ones(3))]
        for attempt in attempts:
            try:
                attempt()
            except RuntimeError as err:
                print("RuntimeError:", err)
        """
    )


def test_backward_through_a_copy_onto_meta_cannot_copy_the_gradient_out_of_meta():
    """Chapter 11's ``CopyBackwards`` and chapter 12's ``ToCopyBackward0`` move the gradient back to
    the source's device: a meta gradient has no numbers to move, so torch refuses, and the source's
    ``.grad`` stays None."""
    assert_same(attempt_source("None") + textwrap.dedent(
        """
        w = torch.ones(3, requires_grad=True)
        attempt(lambda: w.to("meta").sum().backward())
        dst, src = torch.zeros(3, device="meta"), torch.ones(3, requires_grad=True)
        dst.copy_(src)
        attempt(lambda: dst.sum().backward())
        print(w.grad, src.grad)
        on_meta = torch.ones(3, device="meta", requires_grad=True)
        dst = torch.zeros(3, device="meta")
        dst.copy_(on_meta)
        dst.sum().backward()
        print(on_meta.grad.device, on_meta.grad.shape)
        """
    ))


def test_the_engine_refuses_a_gradient_that_does_not_fit_the_shape_its_tensor_was_made_with():
    """Chapter 09's ``.data`` setter on a non-leaf: the node that made ``y`` recorded ``y``'s size
    then, and every gradient sent to it must fit that size (torch's ``validate_outputs``)."""
    assert_same(attempt_source("None") + textwrap.dedent(
        """
        for shape, make, new in (((3,), lambda x: x * 2, (4,)), ((2, 3), lambda x: x.t() * 1, (3,)),
                                 ((2, 3), lambda x: x * 1, (3,)), ((3,), lambda x: x * 1, (2, 3))):
            x = torch.ones(*shape, requires_grad=True)
            y = make(x)
            y.data = torch.zeros(*new)
            attempt(lambda: y.sum().backward())
            print(x.grad)
        x = torch.ones(3, requires_grad=True)
        y = x * 1
        y.data = torch.zeros(3, dtype=torch.float64)
        (y * 3).sum().backward()
        print(x.grad, x.grad.dtype)
        a, b = torch.ones(4, requires_grad=True).split(2)
        b.data = torch.zeros(3)
        attempt(lambda: b.sum().backward())
        """
    ))


def test_a_leaf_given_new_data_takes_the_gradient_its_graph_was_built_for():
    """Chapter 09's ``.data`` setter on a leaf, then backward: ``AccumulateGrad`` recorded the leaf's
    size and dtype when a graph first reached it, and keeps them while a graph holds it; a later
    gradient is added into ``.grad`` in place (``+=``), which refuses another size."""
    assert_same(
        """
        x = torch.ones(2, requires_grad=True)
        y = (x * 2).sum()
        x.data = torch.zeros(3)
        y.backward()
        print(x.grad, x.grad.stride(), x.grad._version)
        x = torch.ones(2, requires_grad=True)
        y = (x * 2).sum()
        x.data = torch.zeros(2, dtype=torch.float64)
        y.backward()
        (x * 2).sum().backward()
        print(x.grad, x.grad.dtype)
        x = torch.ones(2, requires_grad=True)
        (x * 2).sum().backward()
        x.data = torch.zeros(3)
        try:
            (x * 3).sum().backward()
        except RuntimeError as error:
            print("RuntimeError:", error)
        print(x.grad)
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        x.data = torch.zeros(3)
        y.backward(torch.ones(2))
        try:
            (x * 3).sum().backward()
        except RuntimeError as error:
            print("RuntimeError:", error)
        print(x.grad)
        try:
            y.data = torch.zeros(3)
            y.backward(torch.ones(3))
        except RuntimeError as error:
            print("RuntimeError:", error)
        x = torch.ones(3, requires_grad=True)
        x.backward(torch.ones(3, dtype=torch.float64))
        print(x.grad.dtype, x.grad._version)
        """
    )


def test_a_custom_backward_no_gradient_reached_is_called_with_zeros():
    """torch materializes the gradients of a custom Function (``set_materialize_grads``, on by
    default): when the node after it gave None, ``backward`` still runs, on zeros, and its inputs get
    what it returns."""
    assert_same(HALVE + textwrap.dedent(
        """
        class Double(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.factor = 2
                return x * ctx.factor

            @staticmethod
            def backward(ctx, grad):
                print("Double.backward got", grad, grad.dtype)
                return grad * ctx.factor + 1

        x, y = torch.ones(2, dtype=torch.float64, requires_grad=True), torch.ones(2, requires_grad=True)
        Halve.apply(Double.apply(x), y).sum().backward()
        print(x.grad, y.grad)
        print(torch.autograd.grad(Halve.apply(Double.apply(x), y).sum(), y))
        """
    ))

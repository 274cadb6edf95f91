"""The core's writes and layouts as torch 2.13's: in-place writes between partly overlapping views
go element by element, ``tensor(array)`` keeps a dense array's layout, the gradient of
``as_strided``, ``detach``'s refusals of arguments, a custom Function recorded under
``enable_grad`` inside ``inference_mode``, ``as_strided`` on meta memory, hooks on graph nodes."""

import textwrap

from crosscheck.harness import assert_same
from diff_programs import program


def test_a_custom_function_is_recorded_under_enable_grad_inside_inference_mode():
    assert_same(program(
        """
        class Double(torch.autograd.Function):
            forward = staticmethod(lambda ctx, x: x * 2)
            backward = staticmethod(lambda ctx, grad: grad * 2)

        class Same(torch.autograd.Function):
            forward = staticmethod(lambda ctx, x: x)
            backward = staticmethod(lambda ctx, grad: grad)

        class SavesItsOutput(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = x.exp()
                ctx.save_for_backward(out)
                return out

            backward = staticmethod(lambda ctx, grad: grad * ctx.saved_tensors[0])

        x = torch.ones(2, requires_grad=True)
        with torch.inference_mode():
            with torch.enable_grad():
                y = Double.apply(x)  # an inference tensor with a grad_fn
                print(y.grad_fn.name(), y.requires_grad, y.is_leaf, y.is_inference())
                attempt(lambda: y.sum().backward())  # sum() of an inference tensor is not recorded
                same = Same.apply(x)  # a view of a normal tensor: a normal tensor
                print(same.grad_fn.name(), same.is_inference(), same._version)
                xi = torch.ones(2, requires_grad=True)
                print(Double.apply(xi).grad_fn.name())
                attempt(lambda: SavesItsOutput.apply(x))  # an inference tensor cannot be saved
                print(Double.apply(torch.ones(2)).grad_fn)
            print(Double.apply(x).grad_fn)  # no grad mode: nothing recorded
        (y * 1).sum().backward()  # the number makes autograd see the op
        print(x.grad)
        attempt(lambda: same.add_(1))
        """
    ))


def test_an_inplace_write_between_partly_overlapping_views_goes_element_by_element():
    """torch refuses only when both views are dense; otherwise its loop writes one element at a
    time (TensorIterator's order: the destination's smallest stride innermost), so an element read
    after it was written is read as written."""
    assert_same(program(
        """
        for op in ["copy_", "add_", "mul_", "sub_", "pow_"]:
            b = torch.arange(8.0)
            getattr(b[4:7], op)(b[1:7:2])  # element 2 reads slot 5, written by element 1
            print(op, b, b._version)
        b = torch.arange(8.0)
        b[4:7].sub_(b[1:7:2], alpha=2)
        print(b)
        b = torch.arange(8.0)
        b[4:7] += b[1:7:2]
        print(b)
        b = torch.arange(8.0)
        b[1:7:2].add_(b[3])  # a 0-d tensor is read again for each element
        print(b)
        b = torch.arange(8.0)
        b[2:8:2].copy_(b[1:4])
        print(b)
        b = torch.arange(8.0)
        b[4:7].copy_(b[5].expand(3))
        print(b)
        b = torch.arange(8.0)
        b[1:7:2].copy_(b[4:7])  # no element is read after it was written: as if read first
        print(b)
        b = torch.arange(16.0)
        b.as_strided((2, 3), (1, 4), 2).copy_(b.as_strided((2, 3), (4, 1), 0))  # dim 0 runs fastest
        print(b)
        b = torch.arange(16.0)
        b.as_strided((2, 3), (4, 1), 1).copy_(b.as_strided((2, 3), (1, 4), 0))
        print(b)
        b = torch.arange(8.0)
        b[4:7] = b[1:7:2]  # __setitem__ copies with copy_
        b[1:7:2].lerp_(b[2:5], 0.5)
        b[1:7:2].addcmul_(b[2:5], b[2:5])
        print(b)
        b = torch.arange(8)
        b[4:7].add_(b[1:7:2])  # integers too
        print(b)
        b = torch.arange(16.0).reshape(4, 4)
        b.t()[1:, ::2].copy_(b[:3, 1::2])
        print(b)
        b = torch.arange(8.0)
        attempt(lambda: b[2:5].copy_(b[0:3]))  # both dense: refused
        attempt(lambda: b[2:5].add_(b[0:3]))
        x = torch.arange(8.0, requires_grad=True)
        y = x * 1
        y[4:7].copy_(y[1:7:2])
        y.sum().backward()
        print(y, x.grad)
        """
    ))


def test_tensor_of_an_array_keeps_a_dense_arrays_layout():
    """torch reads an array with from_numpy, then copies it as ``to(copy=True)`` does: a dense
    layout (Fortran order, a transpose) is kept, another is packed in its memory order."""
    assert_same(program(
        """
        import numpy as np
        a = np.arange(6.0).reshape(2, 3)
        arrays = [np.asfortranarray(a), a.T, a, np.arange(12.0).reshape(3, 4)[:, ::2],
                  np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1), np.asfortranarray(np.arange(6).reshape(2, 3)),
                  np.broadcast_to(np.arange(3.0), (2, 3)), np.arange(3.0).reshape(3, 1).T, np.zeros((0, 3)).T]
        for array in arrays:
            t = torch.tensor(array)
            n = torch.ones(1).new_tensor(array)
            g = torch.tensor(array, dtype=torch.float32, requires_grad=True)
            s = torch.as_tensor(array, dtype=torch.float32)
            print(t.stride(), t.dtype, t._version, n.stride(), n.dtype, g.stride(), s.stride(), t.tolist())
        frozen = np.asfortranarray(a)
        frozen.flags.writeable = False
        print(torch.tensor(frozen).stride())  # no warning: the copy is writable
        attempt(lambda: torch.tensor(np.arange(3.0)[::-1]))
        """
    ))


def test_the_gradient_of_as_strided_is_a_view_of_a_buffer_written_once_or_twice():
    """torch's as_strided_backward writes the gradient into a zeroed buffer (version 1) and divides
    it by how often an overlapping input reads each slot (version 2); the input's gradient is that
    buffer in the input's layout, from the lower of the two offsets."""
    assert_same(program(
        """
        for geometry in [((2,), (1,)), ((2, 2), (1, 1)), ((2,), (2,), 1), ((3,), (1,), 1), ((4,), (1,)), ((0,), (1,))]:
            m = torch.ones(4, requires_grad=True)
            m.as_strided(*geometry).sum().backward()
            print(m.grad, m.grad._version, m.grad.stride(), m.grad.storage_offset())
            m.as_strided(*geometry).sum().backward()
            print(m.grad, m.grad._version)
        x = torch.ones(2, requires_grad=True)
        e = x.expand(2, 2)  # reads each slot twice
        e.as_strided((2,), (1,)).sum().backward()
        print(x.grad, x.grad._version)
        g = torch.autograd.grad(e.as_strided((2,), (1,)).sum(), e)[0]
        print(g, g._version, g.stride(), g.untyped_storage().nbytes())
        mt = torch.ones(3, 2, requires_grad=True).t()
        for geometry in [((0,), (1,)), ((2, 0), (1, 1)), ((2,), (1,))]:  # nothing to scatter: torch's zeros
            g = torch.autograd.grad(mt.as_strided(*geometry).sum(), mt)[0]
            print(g, g.stride(), g._version, g._is_view(), g.untyped_storage().nbytes())
        m = torch.ones(8)[2:6].detach().requires_grad_()
        m.as_strided((2,), (1,), 3).sum().backward()
        print(m.grad, m.grad.storage_offset(), m.grad.untyped_storage().nbytes())
        b = torch.ones(4, requires_grad=True).clone()
        v = b[1:3]
        b.mul_(2)  # v's node is renewed: AsStridedBackward0
        g = torch.autograd.grad(v.sum(), b)[0]
        print(v.grad_fn.name(), g, g._version)
        """
    ))


def test_detach_and_detach_take_no_arguments_as_torchs_c_methods():
    assert_same(program(
        """
        t = torch.ones(2, requires_grad=True)
        for call in [lambda: t.detach(1), lambda: t.detach_(1), lambda: t.detach(x=1), lambda: t.detach_(x=1),
                     lambda: t.detach(None), lambda: t.detach(1, 2), lambda: t.detach(1, x=2),
                     lambda: torch.Tensor.detach(t, 1)]:
            attempt(call)
        print(t.detach().requires_grad, t.detach_() is t)
        """
    ))


def test_a_graph_node_takes_pre_hooks_and_hooks_as_torchs():
    """``grad_fn.register_prehook(fn)``: ``fn(grad_outputs)`` after the tensor hooks and retain_grad;
    ``grad_fn.register_hook(fn)``: ``fn(grad_inputs, grad_outputs)``; a tuple returned replaces them."""
    assert_same(program(
        """
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        z = y * 3
        h1 = y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print("post", grad_inputs, grad_outputs))
        h2 = y.grad_fn.register_prehook(lambda grad_outputs: print("pre", grad_outputs))
        y.register_hook(lambda grad: print("tensor hook", grad))
        y.retain_grad()
        h3 = y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        z.sum().backward(retain_graph=True)
        print(x.grad, y.grad)
        h3.remove()
        h4 = y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] + 1, grad_inputs[1]))
        z.sum().backward(retain_graph=True)
        print(x.grad)
        for h in (h1, h2, h4):
            h.remove()
        h5 = y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0],))
        attempt(lambda: z.sum().backward(retain_graph=True))
        h5.remove()
        h6 = y.grad_fn.register_prehook(lambda grad_outputs: 5)
        attempt(lambda: z.sum().backward(retain_graph=True))
        h6.remove()
        accumulate = y.grad_fn.next_functions[0][0]
        accumulate.register_prehook(lambda grad_outputs: print("AccumulateGrad pre", grad_outputs))
        accumulate.register_hook(lambda grad_inputs, grad_outputs: print("AccumulateGrad post", grad_inputs, grad_outputs))
        z.sum().backward()
        print(x.grad)
        a, b = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
        s = a * b
        s.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print("two inputs", grad_inputs, grad_outputs))
        s.sum().backward()
        """
    ))

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

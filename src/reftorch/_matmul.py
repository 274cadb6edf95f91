"""Matrix products: ``a @ b`` for vectors and matrices.

torch picks the operation from the number of dimensions, and the graph shows
which one ran:

    1-D @ 1-D -> dot  (DotBackward0)       2-D @ 2-D -> mm (MmBackward0)
    2-D @ 1-D -> mv   (MvBackward0)        1-D @ 2-D -> unsqueeze, mm, squeeze
"""

from . import _messages
from ._dtype import bool as bool_, no_kernel, promote_types
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from ._version_counter import bump
from ._view_backward import SqueezeBackward4
from .autograd.graph import Node, any_requires_grad


def column_major(x):
    """Whether a matrix is laid out column by column, as ``w.t()`` of a row-major ``w`` is."""
    return x.dim() == 2 and x._stride[0] == 1 and x._stride[1] == x._size[0]


def product_grad(values, x, was_column_major):
    """A matrix product's gradient for its input ``x``: new memory, row-major, or column-major
    if ``x`` was when the product ran (torch then computes it transposed, so a Linear's
    ``weight.t()`` gets a gradient whose ``.t()`` is row-major like the weight)."""
    strides = (1, x._size[0]) if was_column_major else None
    return Tensor._from_values(values, x._size, x._dtype, x.device, strides)


def _mm(x, y):
    """The numbers of ``x @ y`` for two matrices, row by row."""
    return _products(x._read(), y._read(), *x._size, y._size[1])


def _products(a, b, n, k, m):
    """Row-major numbers of an (n, k) matrix times a (k, m) one. Each sum is formed
    in float64 and rounded once when stored (float16 products too: torch adds them
    up in float32 and rounds once at the end)."""
    return [sum(a[i * k + p] * b[p * m + j] for p in range(k)) for i in range(n) for j in range(m)]


class _ProductBackward(Node):
    """d(a @ b)/da = grad @ b^T and d(a @ b)/db = a^T @ grad."""

    def __init__(self, a, b):
        super().__init__(a, b)
        self.a, self.b = a, b
        self.layouts = (column_major(a), column_major(b))
        self.saved_b = self.save(b) if self.needs_input_grad(0) else None
        self.saved_a = self.save(a) if self.needs_input_grad(1) else None

    def apply(self, grad):
        grads = [None, None]
        if self.saved_b is not None:
            grads[0] = product_grad(self.grad_a(grad, self.saved_b.unpack()), self.a, self.layouts[0])
        if self.saved_a is not None:
            grads[1] = product_grad(self.grad_b(grad, self.saved_a.unpack()), self.b, self.layouts[1])
        return tuple(grads)


class MmBackward0(_ProductBackward):
    grad_a = staticmethod(lambda g, b: _mm(g, b.t()))
    grad_b = staticmethod(lambda g, a: _mm(a.t(), g))


class MvBackward0(_ProductBackward):
    grad_a = staticmethod(lambda g, b: _mm(g.unsqueeze(1), b.unsqueeze(0)))  # the outer product
    grad_b = staticmethod(lambda g, a: _mm(a.t(), g.unsqueeze(1)))


class DotBackward0(_ProductBackward):
    grad_a = staticmethod(lambda g, b: [g.item() * x for x in b._read()])
    grad_b = staticmethod(lambda g, a: [g.item() * x for x in a._read()])


def _product(a, b, node_class):
    n, k = a._size if a.dim() == 2 else (1, a._size[0])  # a vector is one row on the left,
    m = b._size[1] if b.dim() == 2 else 1                  # one column on the right
    size = a._size[:1] * (a.dim() == 2) + b._size[1:] * (b.dim() == 2)  # without the vectors' dimensions
    out = Tensor._from_values(_products(a._read(), b._read(), n, k, m), size, a._dtype, a.device)
    if any_requires_grad(a, b):
        out._set_grad_fn(node_class(a, b))
    return out


def _check_kernel(kernel, dtype):
    """torch multiplies no bool matrices: its kernel (``dot``, ``addmm_impl_cpu_`` ...) refuses them."""
    if dtype is bool_:
        raise no_kernel(kernel, bool_)


def matmul(self, other):
    if not isinstance(other, Tensor):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='matmul', name='other', position=1, expected='Tensor', got=_messages.type_name(other)
        ))
    if self.dim() == 0 or other.dim() == 0:
        raise RuntimeError(
            _messages.MATMUL_0D.format(self.dim(), other.dim())
        )
    if self.device != other.device:
        raise RuntimeError(
            _messages.DEVICES_DIFFER.format(self.device, other.device)
        )
    shapes = (self.dim(), other.dim())
    if shapes == (1, 1):
        if self._size != other._size:
            raise RuntimeError(
                _messages.DOT_SIZES.format(self._size[0], other._size[0])
            )
        if self.dtype is not other.dtype:
            raise RuntimeError(
                _messages.DOT_DTYPES.format(self.dtype._short_name, other.dtype._short_name)
            )
        _check_kernel("dot", self.dtype)
        return plain_kernel_writes(_product(self, other, DotBackward0), (self, other))
    if shapes == (2, 2):
        if self._size[1] != other._size[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({self._size[0]}x{self._size[1]} and "
                f"{other._size[0]}x{other._size[1]})"
            )
        if self.dtype is not other.dtype:
            raise RuntimeError(
                f"expected m1 and m2 to have the same dtype, but got: {_c_name(self.dtype)} != {_c_name(other.dtype)}"
            )
        _check_kernel("addmm_impl_cpu_", self.dtype)
        return _product(self, other, MmBackward0)
    if shapes == (2, 1):
        if self._size[1] != other._size[0]:
            raise RuntimeError(
                f"size mismatch, got input ({self._size[0]}), mat ({self._size[0]}x{self._size[1]}), vec ({other._size[0]})"
            )
        if self.dtype is not other.dtype:
            result = promote_types(self.dtype, other.dtype)._short_name
            raise RuntimeError(
                _messages.ADDMV_DTYPES.format(result, self.dtype._short_name, other.dtype._short_name)
            )
        _check_kernel("addmv_impl_cpu", self.dtype)
        return plain_kernel_writes(_product(self, other, MvBackward0), (self, other))
    if shapes == (1, 2):
        # torch: mm(v.unsqueeze(0), m), then squeeze_(0) in place on the result,
        # which bumps its version and records SqueezeBackward4.
        result = matmul(self.unsqueeze(0), other)
        node = SqueezeBackward4(result) if any_requires_grad(result) else None
        result._size, result._stride = result._size[1:], result._stride[1:]
        bump(result)
        if node is not None:
            result._set_grad_fn(node)
        return result
    raise RuntimeError(
        _messages.MATMUL_DIMS_UNSUPPORTED.format(self.dim(), other.dim())
    )


def _c_name(dtype):
    """The C++ type name torch's mm error shows for a dtype."""
    return {
        "torch.float16": "c10::Half", "torch.float32": "float", "torch.float64": "double",
        "torch.uint8": "unsigned char", "torch.int8": "signed char", "torch.int16": "short int",
        "torch.int32": "int", "torch.int64": "long int", "torch.bool": "bool",
    }[str(dtype)]


def __matmul__(self, other):
    """``a @ b`` is ``matmul``, except that its TypeError becomes NotImplemented (torch's wrapper
    does the same), so Python raises its own "unsupported operand type(s) for @"."""
    try:
        return matmul(self, other)
    except TypeError:
        return NotImplemented

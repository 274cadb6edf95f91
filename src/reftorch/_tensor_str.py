"""How a tensor becomes text: the layout of ``repr(t)`` and ``print(t)``.

This module reproduces, in its own words, what torch 2.13 does in
``torch/_tensor_str.py`` for ordinary (strided, dense, real) tensors. The
printed text is built in three steps.

1. Choose one number format for the whole tensor (``_Formatter``).
   Every element is printed in the same style and padded on the left to the
   same width, so the columns of a matrix line up. For floating tensors the
   style is decided by the non-zero finite values only (nan, inf and zeros
   never change it):

   * integer mode: all of them are whole numbers, so print ``1.`` and ``10.``
     (the trailing dot says "this is a float");
   * scientific mode: the largest is more than 1000 times the smallest, or
     larger than 1e8, or the smallest is below 1e-4: print ``1.0000e+05``;
   * otherwise four decimals: ``0.5000``.

   Integers and bools are printed as Python prints them (``7``, ``True``).

2. Lay the elements out (``_tensor_str``). A 1-d row is ``[a, b, c]``, broken
   into several lines when it would pass column 80. A tensor of higher
   dimension is a list of its sub-tensors separated by a comma, a newline
   and one more blank line for every dimension above 2, each line indented to
   sit under the opening bracket above it. A tensor with more than 1000
   elements is summarised: in every dimension only the first and last three
   entries are shown, with ``...`` between them.

3. Add what the numbers cannot show (``_add_suffixes``): the device when it is
   not the CPU, the dtype when it cannot be guessed from the numbers, and how
   the tensor takes part in autograd (``grad_fn=<...>`` or
   ``requires_grad=True``). A suffix that would pass column 80 starts a new
   line, indented under the ``(`` of ``tensor(``.

A sparse COO tensor (``_sparse_str``) shows no grid of numbers. It prints
its two dense tensors, ``indices=tensor(...)`` and, on the next line,
``values=tensor(...)`` (each laid out as in step 2, an empty one with its
size), then always on a new line the device, ``size=``, ``nnz=`` (how many
entries it stores), the dtype, ``layout=torch.sparse_coo`` and the autograd
suffix, wrapped as in step 3. A sparse CSR tensor (``_sparse_csr_str``) shows
``crow_indices=``, ``col_indices=`` and ``values=`` the same way, and its
suffixes follow on the same line while they fit.

The same function prints a real ``torch.Tensor`` and a reftorch tensor,
because it only asks the tensor questions both can answer: ``dim()``,
``numel()``, ``shape``, ``tolist()``, ``dtype``, ``device``, ``grad_fn`` and
``requires_grad`` (and, for a sparse one, ``_indices()``, ``_values()`` and
``_nnz()``).
"""

import math

from . import _meta
from ._dtype import get_default_dtype

# torch's default print options (torch.set_printoptions changes them in torch).
PRECISION = 4  # digits after the decimal point
THRESHOLD = 1000  # more elements than this are summarised with "..."
EDGEITEMS = 3  # entries kept at each end of a summarised dimension
LINEWIDTH = 80  # column at which rows and suffixes wrap


def _edges(entries, summarize):
    """The entries a print shows: all, or only the first and last EDGEITEMS."""
    if summarize and len(entries) > 2 * EDGEITEMS:
        return entries[:EDGEITEMS] + entries[-EDGEITEMS:]
    return entries


def _shown_values(data, dim, summarize):
    """Flatten the nested lists of ``tolist()`` into the values that get printed."""
    if dim == 0:
        return [data]
    values = []
    for entry in _edges(data, summarize):
        values.extend(_shown_values(entry, dim - 1, summarize))
    return values


class _Formatter:
    """One number format, and one width, shared by every element of a tensor."""

    def __init__(self, values, floating_dtype):
        self.floating_dtype = floating_dtype
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        if not floating_dtype:
            for value in values:
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = [v for v in values if math.isfinite(v) and v != 0]
        if not nonzero_finite:
            return  # only zeros, nan and inf: keep integer mode and width 1

        self.int_mode = all(v == math.ceil(v) for v in nonzero_finite)
        largest = max(abs(v) for v in nonzero_finite)
        smallest = min(abs(v) for v in nonzero_finite)
        self.sci_mode = (
            largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        )
        for value in nonzero_finite:
            self.max_width = max(self.max_width, len(self._unpadded(value)))

    def width(self):
        """How many characters every formatted element takes."""
        return self.max_width

    def _unpadded(self, value):
        """The text of one element before it is padded to the common width."""
        if not self.floating_dtype:
            return f"{value}"
        if self.sci_mode:
            return f"{value:.{PRECISION}e}"
        if self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
            return text
        return f"{value:.{PRECISION}f}"

    def format(self, value):
        """The text of one element, padded on the left to the common width."""
        return self._unpadded(value).rjust(self.max_width)


def _scalar_str(value, formatter):
    """A 0-d tensor is just its one formatted value."""
    return formatter.format(value)


def _vector_str(values, indent, summarize, formatter):
    """A 1-d row: ``[a, b, c]``, wrapped so no line passes LINEWIDTH."""
    element_length = formatter.width() + 2  # the element, a comma and a space
    elements_per_line = max(1, math.floor((LINEWIDTH - indent) / element_length))

    if summarize and len(values) > 2 * EDGEITEMS:
        data = (
            [formatter.format(v) for v in values[:EDGEITEMS]]
            + [" ..."]
            + [formatter.format(v) for v in values[-EDGEITEMS:]]
        )
    else:
        data = [formatter.format(v) for v in values]

    lines = [
        ", ".join(data[start : start + elements_per_line])
        for start in range(0, len(data), elements_per_line)
    ]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(data, dim, indent, summarize, formatter):
    """Lay out nested lists of values; ``indent`` is the column of the ``[``."""
    if dim == 0:
        return _scalar_str(data, formatter)
    if dim == 1:
        return _vector_str(data, indent, summarize, formatter)

    def sub_str(entry):
        return _tensor_str_with_formatter(entry, dim - 1, indent + 1, summarize, formatter)

    if summarize and len(data) > 2 * EDGEITEMS:
        slices = (
            [sub_str(entry) for entry in data[:EDGEITEMS]]
            + ["..."]
            + [sub_str(entry) for entry in data[-EDGEITEMS:]]
        )
    else:
        slices = [sub_str(entry) for entry in data]

    # A 2-d tensor puts its rows on consecutive lines; every further dimension
    # adds one blank line between its blocks.
    separator = "," + "\n" * (dim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _tensor_str(self, indent):
    """The bracketed numbers of a non-empty tensor, starting at column ``indent``."""
    dim = self.dim()
    summarize = self.numel() > THRESHOLD
    data = self.tolist()
    formatter = _Formatter(
        _shown_values(data, dim, summarize), self.dtype.is_floating_point
    )
    return _tensor_str_with_formatter(data, dim, indent, summarize, formatter)


def _add_suffixes(tensor_str, suffixes, indent, force_newline=False):
    """Append ``, suffix`` pieces and the closing ``)``, wrapping at LINEWIDTH.

    ``force_newline`` puts the first suffix on a new line whatever its length.
    """
    pieces = [tensor_str]
    # torch counts two characters more than the last line really has;
    # keeping its arithmetic keeps its line breaks.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > LINEWIDTH:
            pieces.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            pieces.append(", " + suffix)
            last_line_len += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)


def _grad_fn_name(grad_fn):
    """The name torch shows in ``grad_fn=<...>``: the class of the graph node."""
    name = type(grad_fn).__name__
    if name == "CppFunction":  # nodes written in C++ carry their name instead
        name = grad_fn.name().rsplit("::", 1)[-1]
    return name


def _autograd_suffix(self):
    try:
        grad_fn_name = None if self.grad_fn is None else _grad_fn_name(self.grad_fn)
    except RuntimeError:
        # A view whose history cannot be rebuilt (see autograd.creation_meta).
        grad_fn_name = "Invalid"
    if grad_fn_name is not None:
        return ["grad_fn=<" + grad_fn_name + ">"]
    if self.requires_grad:
        return ["requires_grad=True"]
    return []


def _part_str(name, part, indent):
    """``indices=tensor(...)`` or ``values=tensor(...)`` inside a sparse tensor's text."""
    prefix = name + "=tensor("
    if part.numel() == 0:
        return prefix + "[], size=" + str(tuple(part.shape)) + ")"
    return prefix + _tensor_str(part, indent + len(prefix)) + ")"


def _sparse_suffixes(self):
    """What follows a sparse tensor's parts: device, size, nnz, dtype, layout, autograd state."""
    suffixes = []
    if self.device.type != "cpu":
        suffixes.append("device='" + str(self.device) + "'")
    suffixes += ["size=" + str(tuple(self.shape)), "nnz=" + str(self._nnz())]
    if str(self.dtype) not in (str(get_default_dtype()), "torch.int64", "torch.bool"):
        suffixes.append("dtype=" + str(self.dtype))
    suffixes.append("layout=" + str(self.layout))
    return suffixes + _autograd_suffix(self)


def _sparse_str(self):
    """A sparse COO tensor: its indices and values, one under the other, then
    its size and nnz (always on a new line), dtype, layout and autograd state."""
    prefix = "tensor("
    indent = len(prefix)
    suffixes = _sparse_suffixes(self)
    tensor_str = (
        _part_str("indices", self._indices().detach(), indent)
        + ",\n" + " " * indent
        + _part_str("values", self._values().detach(), indent)
    )
    return _add_suffixes(prefix + tensor_str, suffixes, indent, force_newline=True)


def _sparse_csr_str(self):
    """A sparse CSR tensor: crow_indices, col_indices and values one under the
    other, then size, nnz, dtype, layout and autograd state (wrapped, not forced
    onto a new line as for COO)."""
    prefix = "tensor("
    indent = len(prefix)
    suffixes = _sparse_suffixes(self)
    parts = (("crow_indices", self.crow_indices()), ("col_indices", self.col_indices()), ("values", self.values()))
    tensor_str = (",\n" + " " * indent).join(_part_str(name, part.detach(), indent) for name, part in parts)
    return _add_suffixes(prefix + tensor_str, suffixes, indent)


def _str(self):
    """The text of ``repr(t)``, exactly as torch 2.13 prints a tensor."""
    if getattr(self, "is_sparse", False):  # an object with no layout prints as strided
        return _sparse_str(self)
    if str(getattr(self, "layout", "")) == "torch.sparse_csr":
        return _sparse_csr_str(self)
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []

    if self.device.type != "cpu":
        suffixes.append("device='" + str(self.device) + "'")

    dtype_name = str(self.dtype)
    default_name = str(get_default_dtype())
    if self.device.type == "meta":
        suffixes += _meta.meta_suffixes(self, default_name)
        tensor_str = "..."
    elif self.numel() == 0:
        # No numbers to look at: say the shape (unless it is (0,)) and the dtype.
        if self.dim() != 1:
            suffixes.append("size=" + str(tuple(self.shape)))
        if dtype_name != default_name:
            suffixes.append("dtype=" + dtype_name)
        tensor_str = "[]"
    else:
        # int64 and bool show in the numbers (7, True); a float with a
        # non-default dtype does not.
        if dtype_name not in (default_name, "torch.int64", "torch.bool"):
            suffixes.append("dtype=" + dtype_name)
        tensor_str = _tensor_str(self, indent)

    suffixes += _autograd_suffix(self)
    return _add_suffixes(prefix + tensor_str, suffixes, indent)

"""Torch's long error and warning texts, kept out of the lesson modules.

A lesson module says *when* torch refuses something; the exact words torch
uses live here, so the reader of ``_views`` or ``_inplace`` sees the rule and
not a paragraph of text. Every text is checked word for word against torch
2.13 by the differential suite. Texts with blanks are ``str.format`` templates.
"""

# --- storage and layout (memory safety) ---------------------------------------

# --- comparing and converting (numpy, as_tensor, dtypes) ----------------------

# --- autograd modes (no_grad, inference_mode) ----------------------------------

# --- views: multi-output views, as_strided, in-place metadata ops -------------

# --- advanced indexing ---------------------------------------------------------

# a[[0, slice(None)]]: a list holding slices, lists, tensors, None or ... is
# read as a tuple, with this warning (torch names one of two source lines).
NON_TUPLE_SEQUENCE_INDEX = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
    "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[torch.tensor(seq)], which will result either in an error or "
    "a different result (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:{line}.)"
)
INVALID_INDEX = (
    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
    "indices (got {})"
)
INVALID_0_DIM_INDEX = (
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
    "to convert a 0-dim tensor to a number"
)
INDEX_DTYPE = "tensors used as indices must be long, int, byte or bool tensors"
UINT8_INDEX = (
    "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)"
)
MASK_SHAPE = (
    "The shape of the mask {mask} at index {mask_dim} does not match the shape of the indexed "
    "tensor {shape} at index {dim}"
)
INDICES_NOT_BROADCASTABLE = "shape mismatch: indexing tensors could not be broadcast together with shapes {}"
INDICES_DEVICE = "indices should be either on cpu or on the same device as the indexed tensor ({})"
VALUE_NOT_BROADCASTABLE = (
    "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}"
)
INDEX_PUT_DTYPE = (
    "Index put requires the source and destination dtypes match, got {} for the destination and "
    "{} for the source."
)
INDEX_PUT_EXPANDED = (
    "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[indices] = "
    "tensor (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:976.)"
)
MASKED_FILL_EXPANDED = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = "
    "scalar (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:2450.)"
)

# --- saving and loading --------------------------------------------------------

# --- nn, optim and hooks -------------------------------------------------------

# --- sparse COO ----------------------------------------------------------------

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

# --- saving and loading --------------------------------------------------------

# --- nn, optim and hooks -------------------------------------------------------

# --- sparse COO ----------------------------------------------------------------

SPARSE_INVARIANTS_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur "
    "when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)"
)
SPARSE_NO_STORAGE = "Cannot access storage of SparseTensorImpl"
SPARSE_NO_DATA_POINTER = "Cannot access data pointer of Tensor that doesn't have storage"
SPARSE_TO_NUMPY = "can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first."
SPARSE_UNCOALESCED = "Cannot get {what} on an uncoalesced tensor, please call .coalesce() first"
SPARSE_COPY_DENSE = (
    "copy_() between dense and sparse Tensors is not implemented! Found self type = {self} and "
    "src type = {src}"
)
SPARSE_SET_DATA = (
    "Attempted to call `variable.set_data(tensor)`, but `variable` and `tensor` have incompatible "
    "tensor type."
)
SPARSE_ADD_DENSE = "add(sparse, dense) is not supported. Use add(dense, sparse) instead."
SPARSE_COO_TENSOR_SIGNATURES = (
    "sparse_coo_tensor() received an invalid combination of arguments - got ({got}), but expected "
    "one of:\n"
    " * (object indices, object values, *, torch.dtype dtype = None, torch.device device = None, "
    "bool pin_memory = False, bool requires_grad = False, bool check_invariants = None, "
    "bool is_coalesced = None)\n"
    " * (object indices, object values, tuple of ints size, *, torch.dtype dtype = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False, "
    "bool check_invariants = None, bool is_coalesced = None)\n"
    " * (tuple of ints size, *, torch.dtype dtype = None, torch.device device = None, "
    "bool requires_grad = False, bool check_invariants = None)\n"
)
SPARSE_RESIZE = (
    "{what} on a non-empty sparse tensor is not supported.\nYou could try the following options:\n"
    "1. If you need an empty sparse tensor of this size, call `x = torch.sparse_coo_tensor(size)`.\n"
    "2. If you need to resize this tensor, you have the following options:\n"
    "    1. For both sparse and dense dimensions, keep the number of them constant and the size of "
    "them non-shrinking, and then try the same call again.\n"
    "    2. Or, create a new sparse tensor with the correct indices and values from this sparse "
    "tensor."
)
SPARSE_LEN_SIZE = (
    "'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {size}, sparse_dim = "
    "{sparse_dim}, dense_dim = {dense_dim}"
)

# reftorch's own limits (torch can do more with sparse tensors).
SPARSE_UNSUPPORTED = (
    "reftorch does not implement {name}() for sparse tensors. reftorch's sparse COO tensors "
    "support only what the course shows: sparse_coo_tensor, to_sparse, to_dense, coalesce, "
    "indices/values, clone, detach, .data, zero_, add_ and copy_ between sparse tensors, to(), "
    "copy.deepcopy and printing. Call .to_dense() first to use {name}()."
)
SPARSE_NEEDS_MEMORY = (
    "reftorch's {where}() reads the numbers in a tensor's memory, and a sparse tensor has no such "
    "memory: reftorch does not implement this operation for sparse tensors. reftorch's sparse COO "
    "tensors support only what the course shows: sparse_coo_tensor, to_sparse, to_dense, "
    "coalesce, indices/values, clone, detach, .data, zero_, add_ and copy_ between sparse "
    "tensors, to(), copy.deepcopy and printing. Call .to_dense() first."
)
SPARSE_ONLY = (
    "Could not run 'aten::{op}' with arguments from the 'CPU' backend: it runs on sparse "
    "tensors only. (torch goes on to list the backends it has for '{op}'; reftorch does not.)"
)
SPARSE_TO_SPARSE_ARGS = (
    "reftorch implements to_sparse() without arguments only: a sparse COO tensor whose every "
    "dimension is sparse."
)
SPARSE_OUT_OF_BOUNDS = (
    "reftorch refuses to read a sparse tensor whose indices lie outside its size: index {index} "
    "in dim {dim} is out of bounds for size {size}. (torch does not check this unless "
    "check_invariants=True, and reads or writes outside the memory of the result.)"
)
SPARSE_BACKWARD = (
    "reftorch does not implement backward through sparse tensors: the gradient would be a sparse "
    "tensor. Use torch for sparse gradients."
)

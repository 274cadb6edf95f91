"""Torch's long error and warning texts, kept out of the lesson modules.

A lesson module says *when* torch refuses something; the exact words torch
uses live here, so the reader of ``_views`` or ``_inplace`` sees the rule and
not a paragraph of text. Every text is checked word for word against torch
2.13 by the differential suite. Texts with blanks are ``str.format`` templates.
"""

# --- storage and layout (memory safety) ---------------------------------------

# A layout that reaches past the end of its storage (torch's checkInBoundsForStorage).
OUT_OF_BOUNDS = (
    "setStorage: sizes {sizes}, strides {strides}, storage offset {offset}, and itemsize {itemsize} "
    "requiring a storage size of {needed} are out of bounds for storage of size {available}"
)
STORAGE_SIZE_OVERFLOW = "Storage size calculation overflowed with sizes={sizes} and strides={strides}"
STORAGE_SIZE_OVERFLOW_0D = "Storage size calculation overflowed with sizes=[]"
NUMEL_OVERFLOW = "numel: integer multiplication overflow"
INVALID_STORAGE_OFFSET = "Tensor: invalid storage offset {}"
SIZE_STRIDE_LENGTHS = "unequal size length ({}) and stride length ({})"
# as_strided words two of them its own way.
AS_STRIDED_LENGTHS = "mismatch in length of strides and shape"
AS_STRIDED_NEGATIVE_STRIDES = "as_strided: Negative strides are not supported at the moment, got strides: {}"
# torch's allocator, given a negative byte count (printed as an unsigned number).
NEGATIVE_ALLOCATION = (
    "[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have been "
    "called with negative number: {}"
)
NUMPY_STRIDES_NOT_MULTIPLE = (
    "given numpy array strides not a multiple of the element byte size. Copy the numpy array to "
    "reallocate the memory."
)
NUMPY_NEGATIVE_STRIDES = (
    "At least one stride in the given numpy array is negative, and tensors with negative strides are "
    "not currently supported. (You can probably work around this by making a copy of your array  with "
    "array.copy().) "
)
# reftorch's own texts: the second line of defence and the primitives' argument checks.
LAYOUT_NOT_INTS = "{name} must be a sequence of ints, but found element of type {type} at pos {pos}"
CORRUPT_LAYOUT = (
    "reftorch refuses to read or write this tensor: its metadata (sizes {sizes}, strides {strides}, "
    "storage offset {offset}) does not describe elements inside its storage: {why}. "
    "Was its metadata changed by hand?"
)
PRIMITIVE_ARGUMENT = "{fn}(): argument '{name}' must be {expected}, not {got}"

# --- comparing and converting (numpy, as_tensor, dtypes) ----------------------

NUMPY_DTYPE_UNSUPPORTED = (
    "can't convert np.ndarray of type numpy.{}. The only supported types are: float64, float32, "
    "float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool."
)
NUMPY_NOT_WRITABLE = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
    "means writing to this tensor will result in undefined behavior. You may want to copy the array to "
    "protect its data or make it writable before converting it to a tensor. This type of warning will "
    "be suppressed for the rest of this program. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:213.)"
)
NUMPY_BYTE_ORDER = (
    "given numpy array has byte order different from the native byte order. Conversion between byte "
    "orders is currently not supported."
)
NUMPY_OF_CUDA = (
    "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
)
NUMPY_OF_REQUIRES_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
ASARRAY_REQUIRES_GRAD = (
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. Pass "
    "requires_grad=False explicitly to get the old behavior and silence this warning. (Triggered "
    "internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1737.)"
)
ALIAS_NUMPY_SCALAR = "can't alias NumPy scalars. Either remove copy=False or transform it in a ndarray. "
SCALAR_OVERFLOW = "value cannot be converted to type {} without overflow"
EQUAL_DEVICES = "Cannot compare two tensors on different devices. Got: {} and {}"
NUMPY_DTYPE_NOT_IN_REFTORCH = (
    "reftorch has no dtype for numpy.{} (torch has one); reftorch knows float64, float32, float16, "
    "int64, int32, int16, int8, uint8 and bool."
)

# --- autograd modes (no_grad, inference_mode) ----------------------------------

# --- views: multi-output views, as_strided, in-place metadata ops -------------

# --- advanced indexing ---------------------------------------------------------

# --- saving and loading --------------------------------------------------------

# --- nn, optim and hooks -------------------------------------------------------

# --- sparse COO ----------------------------------------------------------------

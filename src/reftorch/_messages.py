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

# --- autograd modes (no_grad, inference_mode) ----------------------------------

# --- views: multi-output views, as_strided, in-place metadata ops -------------

# --- advanced indexing ---------------------------------------------------------

# --- saving and loading --------------------------------------------------------

# --- nn, optim and hooks -------------------------------------------------------

# --- sparse COO ----------------------------------------------------------------

"""Torch's long error and warning texts, kept out of the lesson modules.

The texts the core reading path raises are in ``_core_messages`` (and named
here too); this module holds the rest, read by the modules beyond the core.

A lesson module says *when* torch refuses something; the exact words torch
uses live here, so the reader of ``_views`` or ``_inplace`` sees the rule and
not a paragraph of text. So does the wording of torch's argument parser
(``ARGUMENT_TYPE``, ``INVALID_ARGUMENTS`` and the signatures it lists). The
rules for printing a tensor are in ``_tensor_str``. Every text is checked
word for word against torch 2.13 by the differential suite. Texts with blanks
are ``str.format`` templates; the few functions at the end put together texts
that torch builds from parts.
"""

from ._core_messages import (  # noqa: F401  (the core's texts, kept in _core_messages)
    BACKWARD_NO_GRAD, BACKWARD_TWICE, BROADCAST_SIZES, CORRUPT_LAYOUT,
    DEEPCOPY_NON_LEAF, DETACH_VIEW_INPLACE, DEVICE_SIGNATURES,
    DEVICE_TYPES, DEVICE_UNKNOWN_TYPE, DIM_OUT_OF_RANGE, GRAD_UNUSED,
    HOOK_NOT_SERIALIZED, INFERENCE_INPLACE, INFERENCE_NO_VERSION,
    INFERENCE_REQUIRES_GRAD, INFERENCE_SAVED, INPLACE_OVERLAP, INTERNAL_OVERLAP, INVALID_ARGUMENTS,
    LEAF_INPLACE, MEMORY_FORMAT_RANK, META_NO_DATA, MOVE_BOTH,
    MULTI_OUTPUT_HINT, NEGATIVE_ALLOCATION, NON_LEAF_GRAD, NOT_FLOAT_REQUIRES_GRAD,
    OUT_OF_BOUNDS, REQUIRES_GRAD_NON_LEAF, REQUIRES_GRAD_NON_LEAF_HINT, SET_DATA_INCOMPATIBLE,
    REQUIRES_GRAD_NOT_FLOAT, SAVED_TENSOR_MODIFIED,
    VIEW_CREATED_IN_INFERENCE, VIEW_CREATED_IN_NO_GRAD, VIEW_MODIFIED,
    VIEW_MODIFIED_INDIRECTLY, VIEW_OF_LEAF_INPLACE, VIEW_OF_MULTI_OUTPUT, saved_tensor_modified, type_name,
)

NO_CREATE_GRAPH = "reftorch does not build graphs of gradients (create_graph=True)"
GRAD_SHAPE_MISMATCH = (
    "Mismatch in shape: grad_output[{i}] has a shape of {grad} and output[{i}] has a shape "
    "of {output}."
)
OUT_NOT_DIFFERENTIABLE = ("{op}(): functions with out=... arguments don't support automatic differentiation, but one "
                          "of the arguments requires grad.")
REQUIRES_GRAD_NOT_BOOL = "requires_grad_(): argument 'requires_grad'{where} must be bool, not {got}"
CONTIGUOUS_PRESERVE = "preserve memory format is unsupported by the contiguous operator"
LAYOUT_NOT_INTS = "{name} must be a sequence of ints, but found element of type {type} at pos {pos}"
COPY_CONSTRUCT = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than {}(sourceTensor)."
)

# --- a caller's metadata on a storage (_layout_checks) ---------------------------
STORAGE_SIZE_OVERFLOW = "Storage size calculation overflowed with sizes={sizes} and strides={strides}"
STORAGE_SIZE_OVERFLOW_0D = "Storage size calculation overflowed with sizes=[]"
NUMEL_OVERFLOW = "numel: integer multiplication overflow"
INVALID_STORAGE_OFFSET = "Tensor: invalid storage offset {}"
SIZE_STRIDE_LENGTHS = "unequal size length ({}) and stride length ({})"
STORAGE_SIZE_OVERFLOW_CONTIGUOUS = "Storage size calculation overflowed with sizes={sizes}"

# --- the devices reftorch simulates (_default_device.as_device) ------------------
DEVICE_NOT_SIMULATED = "Could not run an operation on device '{}': reftorch only simulates cpu and cuda"
CUDA_INVALID_ORDINAL = "CUDA error: invalid device ordinal\nreftorch simulates exactly one GPU, cuda:0."

# --- the tensor and autograd (the core) ------------------------------------------

GRAD_NOT_A_TENSOR = "assigned grad expected to be a Tensor or None but got grad of type {}"
GRAD_DTYPE = (
    "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient must "
    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
    "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging "
    "the dtypes of a tensor and its gradient may break downstream systems that assume they match."
)
CPP_TYPE_NAMES = {  # the C++ type names that torch's GRAD_DTYPE prints
    "float16": "c10::Half", "float32": "float", "float64": "double", "uint8": "unsigned char",
    "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int", "bool": "bool",
}
GRAD_DEVICE = (
    "attempting to assign a gradient with device type '{}' to a tensor with device type '{}'. "
    "Please ensure that the gradient and the tensor are on the same device"
)
GRAD_SIZE = (
    "attempting to assign a gradient of size '{}' to a tensor of size '{}'. Please ensure that "
    "the gradient and the tensor are the same size"
)


BOOL_AMBIGUOUS = "Boolean value of Tensor with more than one value is ambiguous"
NOT_AN_INDEX = "only integer tensors of a single element can be converted to an index"

# --- torch's argument parser ---------------------------------------------------

ARGUMENT_TYPE = "{fn}(): argument '{name}' (position {position}) must be {expected}, not {got}"
ARGUMENT_ELEMENT_TYPE = (
    "{fn}(): argument '{name}' (position {position}) must be tuple of ints, but found "
    "element of type {got} at pos {pos}"
)
ARGUMENT_UNPACK = (
    "{fn}(): argument '{name}' failed to unpack the object at pos {pos} with error \"type "
    'must be tuple of ints,but got {got}"'
)
POSITIONAL_COUNT = "{op}() takes from {low} to {high} positional arguments but {given} were given"

DID_NOT_MATCH = "      didn't match because some of the arguments have invalid types: (!{got}!)\n"
ARGUMENTS_MARKED = "      didn't match because some of the arguments have invalid types: ({})\n"
KEYWORDS_INCORRECT = "      didn't match because some of the keywords were incorrect: {}\n"
# Signatures, as the parser lists them.
VIEW_SIGNATURES = (" * (torch.dtype dtype)\n", " * (tuple of ints size)\n")
REDUCTION_SIGNATURES = (
    " * (*, torch.dtype dtype = None)\n"
    " * (tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)\n"
)
RAND_SIGNATURES = (
    " * (tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
)
ARANGE_SIGNATURES = (
    " * (Number end, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (Number start, Number end, *, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (Number start, Number end, Number step = 1, *, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n"
)
TO_SIGNATURES = (
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format "
    "memory_format = None)\n"
)

# --- storage and layout (memory safety) ---------------------------------------

# as_strided words two of them its own way.
AS_STRIDED_LENGTHS = "mismatch in length of strides and shape"
AS_STRIDED_NEGATIVE_STRIDES = "as_strided: Negative strides are not supported at the moment, got strides: {}"
NUMPY_STRIDES_NOT_MULTIPLE = (
    "given numpy array strides not a multiple of the element byte size. Copy the numpy array to "
    "reallocate the memory."
)
NUMPY_NEGATIVE_STRIDES = (
    "At least one stride in the given numpy array is negative, and tensors with negative strides are "
    "not currently supported. (You can probably work around this by making a copy of your array  with "
    "array.copy().) "
)
PRIMITIVE_ARGUMENT = "{fn}(): argument '{name}' must be {expected}, not {got}"

# --- devices ------------------------------------------------------------------


# --- arithmetic, reductions, matmul ---------------------------------------------

DEVICES_DIFFER = "Expected all tensors to be on the same device, but found at least two devices, {} and {}!"
BOOL_SUBTRACTION_BOTH = (
    "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
    "`logical_xor()` operator instead."
)
BOOL_SUBTRACTION_ONE = (
    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
    "to invert a mask, use the `~` or `logical_not()` operator instead."
)
MATMUL_DIMS_UNSUPPORTED = "reftorch's matmul supports 1-D and 2-D tensors only; got {}-D and {}-D"
MATMUL_0D = "both arguments to matmul need to be at least 1D, but they are {}D and {}D"
DOT_SIZES = (
    "inconsistent tensor size, expected tensor [{0}] and src [{1}] to have the same number "
    "of elements, but got {0} and {1} elements respectively"
)
DOT_DTYPES = "dot : expected both vectors to have same dtype, but found {} and {}"
ADDMV_DTYPES = "addmv input tensors must have the same dtype, but got {}, {}, and {}"
BOOL_NEGATION = (
    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
    "invert a mask, use the `~` or `logical_not()` operator instead."
)
ALPHA_BOOL = "Boolean alpha only supported for Boolean results."
ALPHA_INTEGRAL = "For integral input tensors, argument alpha must not be a floating point number."
MEAN_DTYPE = (
    "mean(): could not infer output dtype. {} dtype must be either a floating point or "
    "complex dtype. Got: {}"
)

# --- in-place writes -------------------------------------------------------------

INPLACE_RESULT_CAST = "result type Float can't be cast to the desired output type {}"
RESULT_CAST = "result type {} can't be cast to the desired output type {}"
ADDCDIV_INTEGER_DIVISION = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
    "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value "
    "* torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
    "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value "
    "* tensor1 / tensor2), for all dtypes."
)
FILL_VALUE_DIM = "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions."

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
SCALAR_OF_REQUIRES_GRAD = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)"
)
LIST_OF_ARRAYS = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the "
    "list to a single numpy.ndarray with numpy.array() before converting to a tensor. (Triggered "
    "internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:252.)"
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
# Python's own texts, when torch reads an int too large for a C integer (_dtype.check_scalar_int)
INT_TOO_BIG = "int too big to convert"
NEGATIVE_INT_UNSIGNED = "can't convert negative int to unsigned"
UNPACK_LONG_OVERFLOW = "Overflow when unpacking long long"  # t[i] = n reads n as an int64 only
EQUAL_DEVICES = "Cannot compare two tensors on different devices. Got: {} and {}"
NO_COMPLEX_NUMBER = "reftorch has no complex dtypes, so it cannot compute with the complex number {!r} (torch has them)"
NO_COMPLEX_DTYPE = "reftorch has no complex dtypes: torch.{} is one of torch's"
PYTHON_COMPLEX_DTYPE = "reftorch has no complex dtypes: torch reads Python's complex as torch.complex128"
NO_WIDE_UNSIGNED_DTYPE = (
    "reftorch has no dtype torch.{} (torch has one, with few kernels); reftorch knows float64, float32, "
    "float16, int64, int32, int16, int8, uint8 and bool."
)
NUMPY_DTYPE_NOT_IN_REFTORCH = (
    "reftorch has no dtype for numpy.{} (torch has one); reftorch knows float64, float32, float16, "
    "int64, int32, int16, int8, uint8 and bool."
)

# --- autograd modes (no_grad, inference_mode) ----------------------------------


# --- views: view, expand, select, split, as_strided, in-place metadata ops ---

SQUEEZE_SIGNATURES = (" * ()\n", " * (int dim)\n", " * (tuple of ints dim)\n")
# (signature, whether it takes at most one argument)
SET_SIGNATURES = (
    (" * ()\n", True),
    (" * (torch.Storage source)\n", True),
    (" * (torch.Storage source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n", False),
    (" * (Tensor source)\n", True),
    (" * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n", False),
)

NARROW_START_RANGE = "start out of range (expected to be in range of [{low}, {high}], but got {start})"
STORAGE_SLICE_STEP = "Trying to slice with a step of {}, but only a step of 1 is supported"
SPLIT_NEGATIVE = "split expects split_size be non-negative, but got split_size={}"
SPLIT_ZERO = "split_size can only be 0 if dimension size is 0, but got dimension size of {}"
SPLIT_SIZES_NEGATIVE = (
    "split_with_sizes expects split_sizes have only non-negative entries, but got "
    "split_sizes={}"
)
SPLIT_SIZES_SUM = (
    "split_with_sizes expects split_sizes to sum exactly to {total} (input tensor's size at "
    "dimension {dim}), but got split_sizes={sizes}"
)
VIEW_NOT_COMPATIBLE = (
    "view size is not compatible with input tensor's size and stride (at least one dimension "
    "spans across two contiguous subspaces). Use .reshape(...) instead."
)
FLATTEN_DIMS = "flatten() has invalid args: start_dim cannot come after end_dim"
PERMUTE_DIMS = (
    "permute(sparse_coo): number of dimensions in the tensor input does not match the length "
    "of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = "
    "{}"
)
SELECT_OUT_OF_RANGE = "select(): index {index} out of range for tensor of size {size} at dimension {dim}"
EXPAND_TOO_FEW_SIZES = (
    "expand({type}{{[{size}]}}, size=[{sizes}]): the number of sizes provided (%d) must be "
    "greater or equal to the number of dimensions in the tensor (%d)"
)
EXPAND_LEADING = "The expanded size of the tensor ({}) isn't allowed in a leading, non-existing dimension {}"
EXPAND_MISMATCH = (
    "The expanded size of the tensor ({size}) must match the existing size ({existing}) at "
    "non-singleton dimension {dim}.  Target sizes: [{target}].  Tensor sizes: [{actual}]"
)
SPLIT_SIZES_TYPE = "split_with_sizes(): argument 'split_sizes' (position {position}) must be tuple of ints"

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
TOO_MANY_INDICES = "too many indices for tensor of dimension {}"
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

MASKED_FILL_UINT8_MASK = "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
INDEX_PUT_BAD_GRAD = (
    "Function IndexPutBackward0 returned an invalid gradient at index 1 - got {got} but "
    "expected shape compatible with {expected}"
)
INDEX_SELECT_SCALAR_INDEX = "index_select(): Index to scalar can have only 1 value, got {} value(s)"

# --- saving and loading --------------------------------------------------------

SAVE_BAD_FILE = "expected 'f' to be string, path, or a file-like object with a 'write' attribute"
SAVE_MIXED_DTYPES = (
    "Cannot save multiple tensors or storages that view the same data as different types"
)
ZIP_READ_FAILED = (
    "PytorchStreamReader failed {what}: {why}. This is an internal miniz error. If you are "
    "seeing this error, there is a high likelihood that your checkpoint file is corrupted. This "
    "can happen if the checkpoint was not saved properly, was transferred incorrectly, or the "
    "file was modified after saving."
)
LOAD_UNKNOWN_LOCATION = (
    "don't know how to restore data location of torch.storage.UntypedStorage (tagged with {location})"
)
LOAD_NO_SUCH_CUDA_DEVICE = (
    "Attempting to deserialize object on CUDA device {index} but torch.cuda.device_count() is 1. "
    "Please use torch.load with map_location to map your storages to an existing device."
)
# torch.load(weights_only=True) refusing a file: the unpickler's reason, then
# torch's advice around it (torch.serialization.load, _get_wo_message).
WEIGHTS_ONLY_UNSUPPORTED_GLOBAL = (
    "Unsupported global: GLOBAL {name} was not an allowed global by default. Please use "
    "`torch.serialization.add_safe_globals([{name}])` or the "
    "`torch.serialization.safe_globals([{name}])` context manager to allowlist this global if "
    "you trust this class/function."
)
WEIGHTS_ONLY_BLOCKED_MODULE = (
    "Trying to load unsupported GLOBAL {name} whose module {module} is blocked."
)
UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source."
)
WEIGHTS_ONLY_FAILED_GLOBAL = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, "
    "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
    "\n\t(1) " + UNSAFE_MESSAGE + "\n\t(2) Alternatively, to load with `weights_only=True` please "
    "check the recommended steps in the following error message.\n\tWeightsUnpickler error: {reason}"
)
WEIGHTS_ONLY_FAILED_BLOCKED = "Weights only load failed. " + UNSAFE_MESSAGE + "\n\n\n{reason}"
WEIGHTS_ONLY_FAILED_OTHER = (
    "Weights only load failed. " + UNSAFE_MESSAGE + "\nPlease file an issue with the following so "
    "that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: "
    "\n\n{reason}"
)
WEIGHTS_ONLY_DOCS = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)

TYPED_STORAGE_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only "
    "storage class. This should only matter to you if you are using storages directly.  To access "
    "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()"
)
TYPED_STORAGE_INDEX = "can't index a <class 'torch.storage.TypedStorage'> with {}"
LOAD_NOT_A_STORAGE = "reftorch.load: a tensor must be rebuilt on a storage, not on {}"
LOAD_PAST_STORAGE = (
    "reftorch.load: a tensor of size {size}, stride {stride} and storage offset {offset} "
    "reaches past its storage of {nbytes} bytes in this file (torch would grow the storage; "
    "reftorch refuses such a file)"
)
LOAD_UNSUPPORTED_TYPE = (
    "reftorch.load cannot rebuild {name}: reftorch loads tensors of dtypes {dtypes}, "
    "Parameters, dtypes, sizes and devices"
)
LOAD_NOT_A_ZIP = (
    "reftorch.load reads only the zip format torch.save writes (since torch 1.6); this file "
    "does not start like a zip archive"
)

# --- nn, optim and hooks -------------------------------------------------------

# C++ names torch's kernels use for dtypes in "expected dtype ..." messages.
CPP_TYPE_NAMES = {
    "float16": "c10::Half", "float32": "float", "float64": "double", "bool": "bool",
    "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
}
LERP_DTYPE = "expected dtype {expected} for `{argument}` but got dtype {got}"
INVERT_FLOAT = "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
NOT_IMPLEMENTED_FOR = '"{kernel}" not implemented for \'{dtype}\''
NO_BACKWARD = (
    "reftorch records no backward for {op}: call it under torch.no_grad(), as optimizers do"
)

HOOK_NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"
HOOK_NOT_A_TENSOR = "expected Variable, but hook returned '{type}'"
HOOK_CHANGED_TYPE = "hook '{name}' has changed the type of value (was {was} got {got})"
HOOK_CHANGED_SIZE = "hook '{name}' has changed the size of value"
NODE_HOOK_NOT_A_TUPLE = "expected tuple, but hook returned '{type}'"
NODE_HOOK_COUNT = "hook '{name}' has returned an incorrect number of values (got {got}, but expected {expected})"

ARGMAX_BOOL = "{op}(): does not support bool input"
ARGMAX_EMPTY = "{op}(): Expected reduction dim to be specified for input.numel() == 0."
ARGMAX_EMPTY_DIM = "{op}(): Expected reduction dim {dim} to have non-zero size."
MEMORY_FORMAT_ARGUMENT = "{fn}(): argument 'memory_format' must be torch.memory_format, not {got}"
TO_MEMORY_FORMAT = "reftorch: to(memory_format=...) is implemented for a tensor only; use clone(memory_format=...)"
KEYWORD_ONLY = "{fn}() takes 0 positional arguments but {given} given"
META_ITEM = "Tensor.item() cannot be called on meta tensors"
META_DEVICE_MIX = "Tensor on device {got} is not on the expected device {expected}!"
FLOOR_DIVIDE_DEVICE = (
    "Expected divisor (b) to be on the same device ({dividend}) as dividend (a), but it is found on {divisor}!"
)
CROSS_DEVICE_COPY = "Attempting to copy from device {got} to device {expected}, but cross-device copies are not allowed!"
META_PROMOTION_INT = (
    "Promotion of int.add/sub_(float) in in-place ops are not possible due to element size change."
)
META_PROMOTION_BOOL = (
    "Promotion of bool.add/sub_(others) in in-place ops are not possible due to element size change."
)
META_DIV_CAST = "result type {got} can't be cast to the desired output type {expected}"
META_OUTPUT_SHAPE = "output with shape {shape} doesn't match the broadcast shape {broadcast}"
META_BROADCAST = (
    "Attempting to broadcast a dimension of length {length} at {dim}! Mismatching argument at index "
    "{index} had {shape}; but expected shape should be broadcastable to {common}"
)
MODULE_NO_FORWARD = 'Module [{name}] is missing the required "forward" function'
MODULE_PRE_HOOK_RESULT = (
    "forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got {got}."
)
MODULE_ALWAYS_CALL_HOOK_RAISED = (
    "module forward hook with ``always_call=True`` raised an exception that was silenced as "
    "another error was raised in forward: {err}"
)

STATE_DICT_POSITIONAL = (
    "Positional args are being deprecated, use kwargs instead. Refer to "
    "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict for details."
)
MODULE_TO_DTYPE = (
    "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
)
MODULE_TO_FROM_META = (
    "{refused} Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() when moving module "
    "from meta to a different device."
)

BATCH_NORM_ONE_VALUE = "Expected more than 1 value per channel when training, got input size {size}"
BATCH_NORM_MIXED_NOT_FLOAT = "mixed dtype (CPU): expect parameter to have scalar type of Float"
BATCH_NORM_MIXED_NOT_HALF = "mixed dtype (CPU): all inputs must share same datatype."

OPTIMIZER_SET_OF_PARAMS = (
    "optimizer parameters need to be organized in ordered collections, but the ordering of tensors "
    "in sets will change between runs. Please use a list instead."
)
OPTIMIZER_DUPLICATE_PARAMS = (
    "optimizer contains a parameter group with duplicate parameters; in future, this will cause an "
    "error; see github.com/pytorch/pytorch/issues/40967 for more information"
)
OPTIMIZER_UNSUPPORTED = (
    "reftorch's {optimizer} implements torch's single-tensor step only: {flag}=True is not supported"
)

BATCH_NORM_REPR = (
    "{num_features}, eps={eps}, momentum={momentum}, affine={affine}, bias={bias}, "
    "track_running_stats={track_running_stats}"
)
LINEAR_0D = "both arguments to linear need to be at least 1D, but they are 0D and {}D"
MODULE_BUFFER_TYPE = "cannot assign '{type}' object to buffer '{name}' (torch Tensor or None required)"
MODULE_PARAMETER_TYPE = (
    "cannot assign '{type}' object to parameter '{name}' (torch.nn.Parameter or None "
    "required)"
)
MODULE_NON_LEAF_PARAMETER = (
    "Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
    "explicitly. To express '{name}' as a function of another Tensor, compute the value in "
    "the forward() method."
)
MODULE_ASSIGN_PARAMETER = "cannot assign '{type}' as parameter '{name}' (torch.nn.Parameter or None expected)"
MODULE_ASSIGN_MODULE = "cannot assign '{type}' as child module '{name}' (torch.nn.Module or None expected)"
MODULE_ASSIGN_BUFFER = (
    "cannot assign '{type}' as buffer '{name}' (torch.nn.Buffer, torch.Tensor or None "
    "expected)"
)
LOAD_STATE_DICT_NOT_TENSOR = (
    'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like object '
    "from checkpoint but received {type}"
)
LOAD_STATE_DICT_SIZE = (
    "size mismatch for {key}: copying a param with shape {got} from checkpoint, the shape in "
    "current model is {expected}."
)
LOAD_STATE_DICT_INTO_META = (
    "for {key}: copying from a non-meta parameter in the checkpoint to a meta parameter in the "
    "current model, which is a no-op. (Did you mean to pass `assign=True` to assign items in the "
    "state dictionary to their corresponding key in the module instead of copying them in place?)"
)
LOAD_STATE_DICT_COPY_FAILED = (
    'While copying the parameter named "{key}", whose dimensions in the model are {model} '
    "and whose dimensions in the checkpoint are {checkpoint}, an exception occurred : {args}."
)
OPTIMIZER_PARAMS_TYPE = (
    "params argument given to the optimizer should be an iterable of Tensors or dicts, but "
    "got {}"
)
OPTIMIZER_GROUP_SIZE = (
    "loaded state dict contains a parameter group that doesn't match the size of optimizer's "
    "group"
)
OPTIMIZER_PARAM_NAMES = "all optimizer params should be with/without names. Some param names are missing"
OPTIMIZER_NOT_TENSOR = "optimizer can only optimize Tensors, but one of the params is {}"
OPTIMIZER_GROUP_NAMES = (
    "all optimizer param groups should be with/without names. cannot add param group {} to "
    "the optimizer"
)


# --- sparse COO ----------------------------------------------------------------

SPARSE_INVARIANTS_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur "
    "when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)"
)
SPARSE_NO_STORAGE = "Cannot access storage of SparseTensorImpl"
SPARSE_CSR_NO_STORAGE = "Cannot access storage of SparseCsrTensorImpl"
SPARSE_CSR_TO_NUMPY = "can't convert SparseCsr layout tensor to numpy. Use Tensor.to_dense() first."
NO_STRIDES = "Sparse CSR tensors do not have strides"
SPARSE_CSR_BETA = (
    "Sparse CSR tensor support is in beta state. If you miss a functionality in the sparse tensor "
    "support, please submit a feature request to https://github.com/pytorch/pytorch/issues. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/SparseCsrTensorImpl.cpp:49.)"
)
SPARSE_CSR_ONLY_MATRICES = (
    "reftorch converts only a matrix (a 2-D strided or COO tensor) to sparse CSR, with "
    "to_sparse_csr() and no arguments; torch also converts batches and dense dimensions."
)
SPARSE_CSR_UNSUPPORTED = (
    "reftorch does not implement {name}() for sparse CSR tensors. reftorch's CSR tensors support "
    "only what the course shows: to_sparse_csr, crow_indices/col_indices/values, clone, detach, "
    "to_dense and printing. Call .to_dense() first to use {name}()."
)
SPARSE_NO_DATA_POINTER = "Cannot access data pointer of Tensor that doesn't have storage"
SPARSE_TO_NUMPY = "can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first."
SPARSE_UNCOALESCED = "Cannot get {what} on an uncoalesced tensor, please call .coalesce() first"
SPARSE_COPY_DENSE = (
    "copy_() between dense and sparse Tensors is not implemented! Found self type = {self} and "
    "src type = {src}"
)
SPARSE_CSR_COPY_INTO_STRIDED = "copy_sparse_compressed_ expected sparse compressed tensor layout but got Strided"
SPARSE_SET_DATA = SET_DATA_INCOMPATIBLE  # any two kinds of tensor (TensorImpl types)
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

SPARSE_NNZ_MISMATCH = (
    "indices and values must have same nnz, but got nnz from indices: {}, nnz from values: {}"
)
SPARSE_SIZE_INCONSISTENT = (
    "size is inconsistent with indices: for dim {dim}, size is {size} but found index {index}"
)
SPARSE_ADD_SIZES = "add: expected sizes of 'self' and 'other' to match, but {} != {}"
SPARSE_ADD_DENSITY = (
    "add: expected 'self' and 'other' to have same density, but 'self' has {} sparse "
    "dimensions while 'other' has {} sparse dimensions"
)

# reftorch's own limits (torch can do more with sparse tensors).
SPARSE_UNSUPPORTED = (
    "reftorch does not implement {name}() for sparse tensors. reftorch's sparse COO tensors "
    "support only what the course shows: sparse_coo_tensor, to_sparse, to_dense, coalesce, "
    "indices/values, clone, detach, .data, zero_, add_ and copy_ between sparse tensors, to(), "
    "copy.deepcopy and printing. Call .to_dense() first to use {name}()."
)
SPARSE_NEEDS_MEMORY = (
    "reftorch's strided code reads the numbers in a tensor's memory, and a sparse tensor has no such "
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


def invalid_combination(op, got, overloads):
    """torch's argument-parser TypeError when no overload of ``op`` matches.

    ``got``: the type names of the arguments as passed (``"weight=str"`` for a
    keyword); ``overloads``: ``(signature, marked)`` pairs, where ``marked`` is
    the argument list with mismatches shown as ``!str!``, or None when the
    number of arguments already rules the overload out.
    """
    lines = [f"{op}() received an invalid combination of arguments - got ({', '.join(got)}), but expected one of:"]
    for signature, marked in overloads:
        lines.append(f" * ({signature})")
        if marked is not None:
            lines.append(f"      didn't match because some of the arguments have invalid types: ({', '.join(marked)})")
    return "\n".join(lines) + "\n"
FUNCTION_FORWARD_MISSING = "You must implement the forward function for custom autograd.Function."
FUNCTION_BACKWARD_MISSING = (
    "You must implement either the backward or vjp method for your custom autograd.Function to use it "
    "with backward mode AD."
)
FUNCTION_SAVE_NOT_TENSOR = "save_for_backward can only save variables, but argument {index} is of type {type}"
FUNCTION_GRADIENT_COUNT = "function {name} returned an incorrect number of gradients (expected {expected}, got {got})"
FUNCTION_GRADIENT_FOR_NUMBER = (
    "function {name} returned a gradient different than None at position {position}, but the "
    "corresponding forward input was not a Variable"
)
FUNCTION_GRADIENT_DEVICE = "Function {name} returned an invalid gradient at index {index} - expected device {expected} but got {got}"
FUNCTION_ONE_OUTPUT = (
    "reftorch's autograd.Function takes one tensor output: {name}.forward returned a tuple "
    "(torch gives every tensor in it the node)"
)
FUNCTION_INSTANTIATED = (
    "{} should not be instantiated. Methods on autograd functions are all static, so you should invoke "
    "them on the class itself. Instantiating an autograd function will raise an error in a future "
    "version of PyTorch."
)
FUNCTION_UNSUPPORTED = "reftorch's autograd.Function has no {what} (one output, inputs not written in place)"

# reftorch.overrides (the course's use_mine), not torch's
NOT_OVERRIDABLE = "{} is not marked overridable in reftorch: see reftorch._overrides"

# Reading through a bool mask that lives on the meta device (chapter 04's ``index``).
META_MASK_READ = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a correct "
    "data-independent implementation does not exist. This implementation returns a fake value, assuming "
    "all elements of the tensor are non-zero. To enable this registration, please set "
    "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True."
)

# ``torch.from_numpy`` is a C function: it counts its arguments itself.
FROM_NUMPY_COUNT = "torch._VariableFunctionsClass.from_numpy() takes exactly one argument ({} given)"
FROM_NUMPY_KEYWORDS = "torch._VariableFunctionsClass.from_numpy() takes no keyword arguments"

# ``view``/``reshape`` of an empty tensor into a shape with a 0 and a -1 (``_shapes.infer_size``).
RESHAPE_AMBIGUOUS = (
    "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 "
    "can be any value and is ambiguous"
)
HOOK_REPLACES_NONE = "can't replace a None gradient with a non-None value"
PICKLE_PROTOCOL = (
    "reftorch saves with pickle protocol 2 (torch's default) or 3 only (got {}): it names torch's functions "
    "in the file by rewriting the GLOBAL records of those protocols, which protocols 4 and 5 write another way "
    "(and torch.load's default, weights_only=True, refuses protocols 4 and 5)"
)
LOAD_PROTOCOL = (
    "Detected pickle protocol {} in the checkpoint, which was not the default pickle protocol used by "
    "`torch.load` (2). The weights_only Unpickler might not support all instructions implemented by this "
    "protocol, please file an issue for adding support if you encounter this."
)
META_EQUAL = (
    "aten::equal: attempted to run this operator with Meta tensors, but there was no fake impl or Meta "
    "kernel registered. You may have run into this message while using an operator with PT2 compilation "
    "APIs (torch.compile/torch.export); in order to use this operator with those APIs you'll need to add "
    "a fake impl. Please see the following for next steps:  "
    "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html"
)
COPY_ARGUMENTS = (
    "copy_() received an invalid combination of arguments - got ({}), but expected (Tensor other, bool "
    "non_blocking = False)"
)
COPY_NO_ARGUMENTS = COPY_ARGUMENTS.format("")
ARGUMENT_TYPE_BY_KEYWORD = "{fn}(): argument '{name}' must be {expected}, not {got}"

REPEAT_DIMS = "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"

# ``add``/``sub`` (``_alpha_first``): torch's deprecated ``(alpha, other)`` form, and its parser's texts.
ALPHA_FIRST_DEPRECATED = (
    "This overload of {op} is deprecated:\n\t{op}({old})\nConsider using one of the following signatures "
    "instead:\n\t{op}({new}) (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)"
)
ALPHA_FIRST_METHOD = ("Number alpha, Tensor other", "Tensor other, *, Number alpha = 1")
ALPHA_FIRST_FUNCTION = ("Tensor input, Number alpha, Tensor other, *, Tensor out = None",
                        "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None")
ALPHA_FIRST_NO_ARGUMENTS = (
    "{op}() received an invalid combination of arguments - got (), but expected (Tensor other, *, Number alpha = 1)"
)
UNRECOGNIZED_KEYWORDS = "{op}() received an invalid combination of arguments - got unrecognized keyword arguments: {names}"
CLAMP_SIGNATURES = " * (Tensor min = None, Tensor max = None)\n * (Number min = None, Number max = None)\n"
TWO_ARGUMENT_SIGNATURES = " * (Tensor input, {} other, *, Tensor out = None)\n"  # torch.fmod(2, t) and the like

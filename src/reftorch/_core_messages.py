"""Torch's texts for what the core refuses or warns about, one constant each, so that a lesson
shows the rule, not the text (all other texts: ``_messages``)."""

import re

NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered "
    "internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)
REQUIRES_GRAD_NON_LEAF = "you can only change requires_grad flags of leaf variables."
REQUIRES_GRAD_NON_LEAF_HINT = (" If you want to use a computed variable in a subgraph that doesn't require "
                               "differentiation use var_no_grad = var.detach().")
NOT_FLOAT_REQUIRES_GRAD = "Only Tensors of floating point and complex dtype can require gradients"
OUTPUT_SHAPE = "output with shape {} doesn't match the broadcast shape {}"
BROADCAST_SIZES = ("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
                   "dimension {}")
DIM_NOT_INT = "{op}(): argument 'dim' (position 1) must be int, not {got}"
DIM_OUT_OF_RANGE = "Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
BACKWARD_NO_GRAD = "element {} of tensors does not require grad and does not have a grad_fn"
GRAD_UNUSED = ("The differentiated Tensor at index {} appears to not have been used in the graph. Set "
               "allow_unused=True if this is the desired behavior.")
SAVED_TENSOR_MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [{kind} {sizes}]{where} is at version {version}; expected version {expected} "
    "instead. Hint: enable anomaly detection to find the operation that failed to compute "
    "its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
GRAD_MODE_NOT_BOOL = "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {}"
REQUIRES_GRAD_NOT_FLOAT = "only Tensors of floating point and complex dtype can require gradients"
BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)
SET_DATA_NOT_FLOAT = "data set to a tensor that requires gradients must be floating point or complex dtype"
SET_DATA_INCOMPATIBLE = ("Attempted to call `variable.set_data(tensor)`, but `variable` and `tensor` "
                         "have incompatible tensor type.")
DETACH_VIEW_INPLACE = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)
DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
    "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
    "because of a torch.nn.utils.weight_norm usage, see "
    "https://github.com/pytorch/pytorch/pull/103001"
)
INVALID_ARGUMENTS = "{op}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
DEVICE_SIGNATURES = (
    " * (torch.device device)\n"
    "      didn't match because some of the arguments have invalid types: (!{got}!)\n"
    " * (str type, int index = -1)\n"
)
OUT_OF_BOUNDS = (
    "setStorage: sizes {sizes}, strides {strides}, storage offset {offset}, and itemsize {itemsize} "
    "requiring a storage size of {needed} are out of bounds for storage of size {available}"
)
STORAGE_NOT_A_SEQUENCE = "torch.UntypedStorage(): Expected a sequence type, but got {}"
STORAGE_ITEM_NOT_INT = ("torch.UntypedStorage(): tried to construct a storage from a sequence ({}), but one of the "
                        "items was of type {} instead of int")
NEGATIVE_ALLOCATION = (
    "[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have been "
    "called with negative number: {}"
)
# reftorch's own texts
CORRUPT_LAYOUT = (
    "reftorch refuses to read or write this tensor: its metadata (sizes {sizes}, strides {strides}, "
    "storage offset {offset}) does not describe elements inside its storage: {why}. "
    "Was its metadata changed by hand?"
)
DEVICE_TYPES = (
    "cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
    "vulkan, mps, meta, hpu, mtia, privateuseone"
)
DEVICE_UNKNOWN_TYPE = "Expected one of {types} device type at start of device string: {text}"
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
INPLACE_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor "
    "refer to a single memory location. Please clone() the tensor before performing the "
    "operation."
)
INFERENCE_NO_VERSION = "Inference tensors do not track version counter."
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed."
    "You can make a clone to get a normal tensor before doing inplace update."
    "See https://github.com/pytorch/rfcs/pull/17 for more details."
)
INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
# A view that may not be written in place, in parts (``view_history.check_view_write``).
VIEW_MODIFIED = "is being"
VIEW_MODIFIED_INDIRECTLY = "its base or another view of its base has been"
VIEW_CREATED_IN_NO_GRAD = "{who} no_grad mode and {modified} modified inplace with grad mode enabled."
VIEW_CREATED_IN_INFERENCE = "{who} inference mode and {modified} modified inplace in normal mode."
VIEW_OF_MULTI_OUTPUT = "Output {output_nr} of {op} is a view and {modified} modified inplace."
MOVE_BOTH = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the {block} block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
)
MULTI_OUTPUT_HINT = (
    " This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one."
)
CUSTOM_FUNCTION_HINT = (
    " This view was created inside a custom Function (or because an input was returned as-is) and the "
    "autograd logic to handle view+inplace would override the custom backward associated with the custom "
    "Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the "
    "output of the custom Function."
)
HOOK_NOT_SERIALIZED = (
    "backward hook {hook} on tensor will not be serialized.  If this is expected, you can "
    "decorate the function with @torch.utils.hooks.unserializable_hook to suppress this warning"
)
MEMORY_FORMAT_RANK = "required rank {rank} tensor to use {name} format"
META_NO_DATA = "Cannot copy out of meta tensor; no data!"


def saved_tensor_modified(tensor, node_name, saved_version):
    """``SAVED_TENSOR_MODIFIED`` for ``tensor``, an output of ``node_name`` (None for a leaf),
    which torch shortens (``MulBackward0`` -> ``Mul``, ``FillBackward2`` -> ``Fill2``, ``OpBackward`` -> ``Op``)."""
    where = ""
    if node_name is not None:
        short = re.sub(r"Backward(\d*)$", lambda m: "" if m.group(1) in ("", "0") else m.group(1), node_name)
        where = f", which is output 0 of {short},"
    sizes = "[" + ", ".join(str(n) for n in tensor.shape) + "]"
    kind = f"{tensor.device.type.upper()}BoolType" if str(tensor.dtype) == "torch.bool" else tensor.type()
    return SAVED_TENSOR_MODIFIED.format(kind=kind, sizes=sizes, where=where, version=tensor._version,
                                        expected=saved_version)

GRADIENT_SHAPE = "invalid gradient at index {index} - got {got} but expected shape compatible with {expected}"

def type_name(value):
    """A value's type as torch's texts name it, CPython's ``tp_name``: numpy's with its module."""
    kind = type(value)
    return f"{kind.__module__}.{kind.__name__}" if kind.__module__.startswith("numpy") else kind.__name__

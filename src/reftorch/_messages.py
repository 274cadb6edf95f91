"""Torch's long error and warning texts, kept out of the lesson modules.

A lesson module says *when* torch refuses something; the exact words torch
uses live here, so the reader of ``_views`` or ``_inplace`` sees the rule and
not a paragraph of text. Every text is checked word for word against torch
2.13 by the differential suite. Texts with blanks are ``str.format`` templates.
"""

# --- storage and layout (memory safety) ---------------------------------------

# --- comparing and converting (numpy, as_tensor, dtypes) ----------------------

# --- autograd modes (no_grad, inference_mode) ----------------------------------

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

# A view that may not be written in place: torch builds the message from parts.
# {who} is "A view was created in" or "Output 0 of Slice is a view of a view which
# was created in"; {modified} is "is being" (the view itself is written) or "its
# base or another view of its base has been" (found later, when reading grad_fn).
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

# --- views: multi-output views, as_strided, in-place metadata ops -------------

# torch's argument parser, for a call that matches none of an op's signatures.
# Each signature is listed; with a single argument, the ones taking one (or
# none) say why that argument did not fit.
INVALID_ARGUMENTS = "{op}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
DID_NOT_MATCH = "      didn't match because some of the arguments have invalid types: (!{got}!)\n"
SQUEEZE_SIGNATURES = (" * ()\n", " * (int dim)\n", " * (tuple of ints dim)\n")
# (signature, whether it takes at most one argument)
SET_SIGNATURES = (
    (" * ()\n", True),
    (" * (torch.Storage source)\n", True),
    (" * (torch.Storage source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n", False),
    (" * (Tensor source)\n", True),
    (" * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n", False),
)

# --- advanced indexing ---------------------------------------------------------

# --- saving and loading --------------------------------------------------------

# --- nn, optim and hooks -------------------------------------------------------

# --- sparse COO ----------------------------------------------------------------

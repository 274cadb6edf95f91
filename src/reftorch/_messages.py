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

# C++ names torch's kernels use for dtypes in "expected dtype ..." messages.
CPP_TYPE_NAMES = {
    "float16": "c10::Half", "float32": "float", "float64": "double", "bool": "bool",
    "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
}
LERP_DTYPE = "expected dtype {expected} for `{argument}` but got dtype {got}"
NOT_IMPLEMENTED_FOR = '"{kernel}" not implemented for \'{dtype}\''
NO_BACKWARD = (
    "reftorch records no backward for {op}: call it under torch.no_grad(), as optimizers do"
)

HOOK_NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"
HOOK_NOT_A_TENSOR = "expected Variable, but hook returned '{type}'"
HOOK_CHANGED_TYPE = "hook '{name}' has changed the type of value (was {was} got {got})"
HOOK_CHANGED_SIZE = "hook '{name}' has changed the size of value"
HOOK_NOT_SERIALIZED = (
    "backward hook {hook} on tensor will not be serialized.  If this is expected, you can "
    "decorate the function with @torch.utils.hooks.unserializable_hook to suppress this warning"
)

MODULE_NO_FORWARD = 'Module [{name}] is missing the required "forward" function'

STATE_DICT_POSITIONAL = (
    "Positional args are being deprecated, use kwargs instead. Refer to "
    "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict for details."
)
MODULE_TO_DTYPE = (
    "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
)

BATCH_NORM_ONE_VALUE = "Expected more than 1 value per channel when training, got input size {size}"

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

# --- sparse COO ----------------------------------------------------------------

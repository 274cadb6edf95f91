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

# --- nn, optim and hooks -------------------------------------------------------

# --- sparse COO ----------------------------------------------------------------

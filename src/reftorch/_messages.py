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

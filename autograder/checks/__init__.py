"""Checks used by the exercise notebooks' test cells.

One module per operation (``clone``, ``detach``, ``detach_clone``, ``data``,
``new_tensor``, ``copy_into``, ``python_copy``, ``model_snapshot``) or topic
(``strides_and_views``, ``numpy_bridge``, ``save_and_load``, ``target_network``), built on:

``_battery``   the inputs: twin tensors built the same in torch and reftorch
``_variants``  the hidden inputs drawn for each student
``_readers``   how a result is read: torch's API for torch, reftorch's own functions
               (never the object's methods) for the learner's result
``_observe``   what an operation does to a case, and the comparison that names the
               misconception behind the first difference (and its tag)
``_facts``     a story played in torch and in reftorch, its facts compared in order
"""


def use_variant(seed):
    """Draw this kernel's hidden inputs from ``seed`` (``"<student>/<assignment>"``).

    The grader calls it, before the notebook's first cell, through a silent request
    (``autograder.kernels.execute``), for an assignment whose tests run in the kernel.
    Returns the seed now in use."""
    from ..witness.variants import use_seed

    return use_seed(seed)

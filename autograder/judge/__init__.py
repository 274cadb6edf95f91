"""The judge: test cells run in the grader's process, against torch, never in the student's kernel.

See autograder/README.md ("Who decides a grade") for the design; in short:
``connection`` is the line to the student's kernel (the witness, ``autograder.witness``),
``learner`` the learner's functions as names the witness is asked about, and
``test_cell`` one test cell run here.
"""

# The assignments graded this way: all of the course's. Any other assignment runs its tests in the
# kernel, as stock nbgrader does (autograder.kernels.execute), in the sandbox, with nothing to guard
# its verdict.
JUDGED_ASSIGNMENTS = ("clone", "detach", "strides_and_views", "python_copy", "save_and_load", "numpy_bridge",
                      "model_snapshot", "target_network", "new_tensor", "copy_into")

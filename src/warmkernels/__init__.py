"""Warm kernels: IPython kernels forked from a process that imported once, started through one provisioner.

* :mod:`warmkernels.zygote` runs in the zygote: it imports what every kernel needs, then forks
  one child per kernel asked for;
* :mod:`warmkernels.process` is the owner's end of the zygote's pipe, and a forked kernel followed
  through a pidfd;
* :mod:`warmkernels.provisioner` is jupyter_client's kernel provisioner that asks a zygote for
  each kernel (``warm-kernel`` in the ``jupyter_client.kernel_provisioners`` entry point group);
* :mod:`warmkernels.frozen_imports` imports with the garbage collector paused and then freezes
  what was imported: how a zygote, and any other long-lived process of ours, imports.

What a kernel imports and how its child becomes a kernel is the caller's: the course's
(``coursebook.warm_kernels``) forks plain kernels, the grader's (``autograder.kernels``) forks
a launcher that enters a sandbox first.
"""

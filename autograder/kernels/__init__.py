"""Kernels and their sandbox: bubblewrap, control groups, seccomp, the launcher, the warm zygote,
the kernel manager and provisioner, the guarded executor, and the code that runs inside a kernel
that runs its own tests (``kernel_setup``). See autograder/README.md.
"""

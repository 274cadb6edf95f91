"""Kernels and their sandbox: bubblewrap, control groups, seccomp, the launcher, the warm zygote,
the kernel manager and provisioner, the guarded executor, and the code that runs inside a kernel
(``kernel_setup``, ``allowlist``). See autograder/README.md.
"""

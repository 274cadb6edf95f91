"""The course tests' warm kernels: ``coursebook.warm_kernels`` (the book's build forks its kernels the same way)."""

from coursebook.warm_kernels import (  # noqa: F401
    PRELOAD,
    ForkedKernel,
    WarmKernelManager,
    WarmProvisioner,
    Zygote,
    running_zygote,
    start_zygote,
    stop_zygote,
    zygote_main,
)

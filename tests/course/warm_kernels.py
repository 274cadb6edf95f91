"""The course tests' warm kernels: ``coursebook.warm_kernels`` (the book's build forks its kernels the same way),
through the ``warmkernels`` provisioner."""

from coursebook.warm_kernels import (  # noqa: F401
    PRELOAD,
    WarmKernelManager,
    running_zygote,
    start_zygote,
    stop_zygote,
    zygote_main,
)
from warmkernels.process import ForkedKernel, Zygote  # noqa: F401
from warmkernels.provisioner import WarmProvisioner  # noqa: F401

"""The one provisioner of warm kernels: jupyter_client's local provisioner, with the kernel forked by a zygote.

``WarmProvisioner`` is registered with jupyter_client under the name
``warm-kernel`` (the ``jupyter_client.kernel_provisioners`` entry point group,
``pyproject.toml``), and a kernel spec names it in ``metadata.kernel_provisioner``
(:class:`WarmKernelSpecManager`): jupyter_client's provisioner factory then
makes it for every kernel its manager starts.  Everything else is
jupyter_client's: the connection file, the ports or sockets, the client,
shutdown and restart.

What it asks its kernel manager (the ``parent``) for is a zygote,
``parent.zygote()`` (a :class:`warmkernels.process.Zygote`), and it sends it the
kernel's ipykernel arguments (from ``-f`` on), environment and folder.  A
grader that runs each kernel in a sandbox builds on it: it overrides
:meth:`WarmProvisioner.start`, adds its sandbox to the request, and follows the
kernel its own way.
"""

import os

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.provisioning import KernelProvisionerFactory, LocalProvisioner

from .process import ForkedKernel

PROVISIONER_NAME = "warm-kernel"


class WarmProvisioner(LocalProvisioner):
    """Starts each kernel by asking the manager's zygote to fork it (see the module docstring)."""

    kernel = None

    def start(self, request):
        """Start the kernel of ``request`` (``{"argv", "env", "cwd"}``); return it, followed."""
        request["env"] = dict(request["env"], JPY_PARENT_PID=str(os.getpid()))  # as jupyter_client's launcher
        return ForkedKernel(self.parent.zygote().launch(request))

    async def launch_kernel(self, cmd, **kwargs):
        if "ipykernel_launcher" not in cmd or "-f" not in cmd:
            raise ValueError("warm kernels are IPython kernels (python -m ipykernel_launcher -f ...), not %r" % cmd)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        self.kernel = self.process = self.start({"argv": cmd[cmd.index("-f"):], "env": kwargs["env"], "cwd": cwd})
        self.pid = self.pgid = self.kernel.pid  # the kernel leads a process group of its own
        self.cwd = cwd
        return self.connection_info

    async def cleanup(self, restart=False):
        if self.kernel is not None:
            self.kernel.close()
            self.kernel = None
        await super().cleanup(restart=restart)


class WarmKernelSpecManager(KernelSpecManager):
    """The installed kernel specs, each naming :attr:`provisioner_name` in ``metadata.kernel_provisioner``."""

    provisioner_name = PROVISIONER_NAME

    def get_kernel_spec(self, kernel_name):
        spec = super().get_kernel_spec(kernel_name)
        spec.metadata = dict(spec.metadata or {},
                             kernel_provisioner={"provisioner_name": self.provisioner_name, "config": {}})
        return spec


def require_provisioner(manager):
    """Raise a clear error when the provisioner ``manager``'s kernel spec names is not installed."""
    if not KernelProvisionerFactory.instance(parent=manager.parent).is_provisioner_available(manager.kernel_spec):
        name = manager.kernel_spec.metadata["kernel_provisioner"]["provisioner_name"]
        raise RuntimeError("these kernels need the %r kernel provisioner, registered when the course is "
                           "installed (`make venv`, or `pip install -e .`)" % name)

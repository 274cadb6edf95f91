"""Every warm kernel comes through one provisioner (src/warmkernels), and its zygote loses no kernel.

The zygote here is a real one (``warmkernels.zygote.serve``) with a launch of its own, so the
protocol, the error reply, the pidfd and the clean-up run as they do under the course's and the
grader's zygotes, without a kernel's imports.
"""

import sys
from importlib.metadata import entry_points

import pytest

from warmkernels.process import ForkedKernel, Zygote
from warmkernels.provisioner import PROVISIONER_NAME, WarmProvisioner

pytestmark = pytest.mark.e2e  # a zygote is a process of its own

RECIPE = """
import os, sys, time
from warmkernels.frozen_imports import import_frozen
from warmkernels.zygote import die_with_parent, serve

def launch(request, report):
    if request.get("refuse"):
        raise RuntimeError("refused before the kernel existed")
    os.setsid()
    report(os.getpid())
    time.sleep(600)

die_with_parent()
import_frozen(["json"])
serve(launch)
"""


@pytest.fixture
def zygote(tmp_path):
    recipe = tmp_path / "recipe.py"
    recipe.write_text(RECIPE)
    zygote = Zygote([sys.executable, str(recipe)])
    yield zygote
    zygote.close(timeout=30)


def test_a_failed_launch_is_told_to_the_owner_and_the_zygote_serves_on(zygote):
    with pytest.raises(RuntimeError, match="could not start a kernel: .*failed before starting a kernel"):
        zygote.launch({"refuse": True})
    kernel = ForkedKernel(zygote.launch({}))
    assert kernel.poll() is None, "the zygote did not fork a kernel after a failed launch"
    kernel.kill()
    assert kernel.wait(timeout=30) == 0


def test_no_kernel_outlives_its_zygotes_pipe(zygote):
    kernels = [ForkedKernel(zygote.launch({})) for _ in range(2)]
    assert [k.poll() for k in kernels] == [None, None]
    zygote.close(timeout=30)
    assert [k.wait(timeout=30) for k in kernels] == [0, 0], "a kernel outlived its zygote"


def test_the_grader_and_the_course_start_warm_kernels_through_one_provisioner():
    found = {e.name: e.load() for e in entry_points(group="jupyter_client.kernel_provisioners")}
    assert found[PROVISIONER_NAME] is WarmProvisioner
    assert issubclass(found["autograder-sandbox"], WarmProvisioner), found["autograder-sandbox"].__mro__
    from coursebook.warm_kernels import WarmKernelManager

    spec = WarmKernelManager(kernel_name="python3").kernel_spec
    assert spec.metadata["kernel_provisioner"]["provisioner_name"] == PROVISIONER_NAME

"""An unsandboxed check's kernel keeps its connection file, and so the judge's sockets, in a folder of
its own: in a hub's shared /tmp, a folder one student made must not refuse the next student's check."""

import os
import stat
import tempfile


from autograder.judge.connection import witness_folder
from autograder.kernels.grading_kernels import TolerantKernelManager


def test_the_kernels_folder_is_its_own_and_goes_with_it():
    import asyncio

    async def run():
        km = TolerantKernelManager(kernel_name="python3")
        await km.start_kernel()
        try:
            folder = os.path.dirname(km.connection_file)
            assert folder != tempfile.gettempdir() and folder == km.private_folder
            info = os.stat(folder)
            assert stat.S_IMODE(info.st_mode) & 0o777 == 0o700 and info.st_uid == os.getuid()
            witness = witness_folder(folder)   # where the judge's sockets go: inside it
            assert os.path.dirname(witness) == folder
        finally:
            await km.shutdown_kernel(now=True)
        return folder

    folder = asyncio.run(run())
    assert not os.path.exists(folder)

"""The judge's end of the line to one witness: a Unix socket in the kernel's own folder.

The grader makes the socket before it asks the kernel to :func:`serve
<autograder.witness.serve.serve>`, waits for the kernel to connect, then asks and
reads answers, each within the time left for the test cell. A witness that does
not connect, does not answer in time, closes the line or sends more than a
message may hold fails the test it was asked for, with a plain reason
(:class:`WitnessGone`); it cannot make the judge wait longer or read more.
"""

import os
import secrets
import socket
import time

from ..witness.wire import Garbled, pack, receive



# Where a witness kernel finds the judge's socket, inside its sandbox (autograder.kernels.sandbox).
WITNESS_DIR_INSIDE = "/witness"


def witness_folder(kernel_dir):
    """The host folder of the judge's sockets for the kernel of ``kernel_dir`` (made if missing)."""
    folder = os.path.join(kernel_dir, "witness")
    os.makedirs(folder, mode=0o755, exist_ok=True)
    os.chmod(folder, 0o755)
    return folder


class WitnessGone(BaseException):
    """The witness did not connect, did not answer in time, or closed the line (a BaseException:
    see ``learner.WitnessFailed``)."""


class Witness:
    """One test cell's conversation with the kernel (``with Witness(folder) as w: ...``)."""

    def __init__(self, folder, seconds):
        self.name = "witness-%s.sock" % secrets.token_hex(8)   # folders may be shared (unsandboxed)
        self.path = os.path.join(folder, self.name)
        self.deadline = time.monotonic() + seconds
        self.seconds = seconds
        self.asked = 0
        if os.path.lexists(self.path):
            os.unlink(self.path)
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.path)
        os.chmod(self.path, 0o666)   # the kernel runs as a uid of its own
        self._listener.listen(1)
        self._sock = None

    def _left(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise WitnessGone("the test ran longer than %s s" % self.seconds)
        return left

    def connect(self):
        """Wait for the kernel to connect."""
        self._listener.settimeout(self._left())
        try:
            self._sock, _ = self._listener.accept()
        except (socket.timeout, OSError):
            raise WitnessGone("the kernel did not answer the grader (it was busy or stopped)") from None
        finally:
            self._listener.close()

    def ask(self, request):
        """Send one request and return the reply (parsed JSON, not yet checked)."""
        if self._sock is None:
            self.connect()
        self.asked += 1
        try:
            self._sock.settimeout(self._left())
            self._sock.sendall(pack(request))
            self._sock.settimeout(self._left())
            return receive(self._sock)
        except socket.timeout:
            raise WitnessGone("the test ran longer than %s s" % self.seconds) from None
        except (EOFError, OSError):
            raise WitnessGone("the kernel stopped answering (it died, or its code closed the line)") from None
        except Garbled as error:
            raise WitnessGone("the kernel's answer was not plain data: %s" % error) from None

    def close(self):
        """Tell the witness it is done (if it still listens) and close the line."""
        if self._sock is not None:
            try:
                self._sock.settimeout(1)
                self._sock.sendall(pack({"done": None}))
            except OSError:
                pass
            self._sock.close()
            self._sock = None
        else:
            self._listener.close()
        if os.path.lexists(self.path):
            os.unlink(self.path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

"""What the book's and the Lite site's tests share: building with only loopback, serving a folder.

Both sites are static folders that must be built without the network and then
work from any plain web server; the tests prove the first with ``unshare -n``
and the second with the standard library's HTTP server on 127.0.0.1.
"""

import contextlib
import functools
import http.server
import shutil
import socket
import subprocess
import threading


def loopback_only() -> list[str] | None:
    """The command prefix that runs a command with only loopback (``unshare -n``), if this machine can."""
    if not (shutil.which("unshare") and shutil.which("ip")):
        return None
    prefix = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"]
    if subprocess.run(prefix + ["true"], capture_output=True).returncode != 0:
        return None
    return prefix


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serving(folder):
    """The base URL (ending in ``/``) of an HTTP server on 127.0.0.1 whose root is ``folder``."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def local_only_context(browser, server, width):
    """A new browser context whose requests may reach only ``server``, and the list of the URLs it
    asked for elsewhere (each of them failed).

    Every address but 127.0.0.1 goes through a proxy that is not there (a port bound on loopback
    and never listened on), so a request to any other host fails in Chromium itself, unresolved
    and unsent; the context's ``request`` event records it. Chromium's HTTP cache stays on, as in a
    reader's browser: intercepting every request (``context.route``) would switch it off and make
    each request a round trip to this process."""
    refusing = socket.socket()
    refusing.bind(("127.0.0.1", 0))
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  proxy={"server": f"http://127.0.0.1:{refusing.getsockname()[1]}",
                                         "bypass": "127.0.0.1"})
    context.on("close", lambda _context: refusing.close())
    elsewhere = []

    def record(request):
        if not request.url.startswith((server, "blob:", "data:")):  # blob: and data: reach no host
            elsewhere.append(request.url)

    context.on("request", record)
    return context, elsewhere

"""The JupyterLite site (`make lite`): its size, and how long chapter 01 takes to show its first diagram.

Builds the site as `make lite` does (the download step is skipped for what
`.lite-cache/` holds), then prints:

* the size of `_build/lite/` on disk, and the bytes the server sent while
  chapter 01 opened and ran to its first diagram (a browser's first visit, no
  cache);
* the seconds from opening chapter 01 in headless Chromium to its first
  stepping diagram on screen: the page, Pyodide and its wheels, the kernel,
  then Run all up to the diagram's cell.

Targets (issue 35): under 100 MB transferred for the first chapter, under 20 s
to the first diagram. On a shared machine the clock says little; the figures
are printed, never asserted.
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "_build" / "lite"
CHAPTER = "course/01_reading_memory_diagrams.ipynb"
TARGET_MB, TARGET_SECONDS = 100, 20


class _Counting(http.server.SimpleHTTPRequestHandler):
    sent = 0

    def log_message(self, *args):
        pass

    def copyfile(self, source, outputfile):
        start = source.tell()
        super().copyfile(source, outputfile)
        type(self).sent += source.tell() - start


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> int:
    for step in ("download", "build"):
        run = subprocess.run([sys.executable, "-m", "lite", step], cwd=REPO, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr[-3000:])
            return 1
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Counting, directory=str(SITE)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    server = f"http://127.0.0.1:{httpd.server_address[1]}/"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        started = time.perf_counter()
        page.goto(f"{server}lab/index.html?path={CHAPTER}")
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                               " && window.jupyterapp.shell.currentWidget.sessionContext"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
                               " === 'idle'", timeout=600_000, polling=250)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.locator(".md-widget").first.wait_for(timeout=600_000)
        seconds = time.perf_counter() - started
        browser.close()
    httpd.shutdown()
    print(f"Lite site: {_size(SITE) / 1e6:.1f} MB on disk; chapter 01 transferred "
          f"{_Counting.sent / 1e6:.1f} MB (target under {TARGET_MB} MB)")
    print(f"chapter 01, opened to its first diagram: {seconds:.1f} s in headless Chromium "
          f"(target under {TARGET_SECONDS} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

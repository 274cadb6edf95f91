"""Saving a diagram: SVG as text, PNG through a headless Chromium.

SVG needs nothing: it is the text the renderer made. Turning SVG into PNG
needs something that can draw SVG. Nothing on PyPI does that without a system
library (cairosvg needs the Cairo C library, which pip cannot install), so
PNG export drives the headless Chromium that the browser tests use, through
Playwright. It looks for ``$MEMDIAGRAM_CHROMIUM``, then ``/usr/bin/chromium``,
and says clearly what is missing when it cannot find a browser.
"""

import os
import pathlib
import shutil

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def chromium_path():
    """The Chromium executable to use, or None."""
    for candidate in (os.environ.get("MEMDIAGRAM_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def save_svg(svg, path):
    path = pathlib.Path(path)
    path.write_text(svg, encoding="utf-8")
    return path


def save_png(svg, path, scale=2):
    """Rasterise ``svg`` with headless Chromium into ``path`` (``scale`` pixels per unit)."""
    executable = chromium_path()
    if executable is None:
        raise RuntimeError(
            "PNG export needs a Chromium browser and none was found (looked at $MEMDIAGRAM_CHROMIUM "
            "and /usr/bin/chromium). Install one (Debian: apt-get install chromium) or use save_svg()."
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise RuntimeError("PNG export needs the playwright Python package (pip install playwright)") from None
    path = pathlib.Path(path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(device_scale_factor=scale)
            page.set_content(f"<html><body style='margin:0;background:#fff'>{svg}</body></html>")
            page.locator("svg").first.screenshot(path=str(path))
        finally:
            browser.close()
    return path

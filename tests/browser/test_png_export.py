"""PNG export drives headless Chromium (the only rasteriser pip can give us without Cairo)."""

import pytest
import reftorch
from PIL import Image

from memdiagram import show, step_through

pytestmark = pytest.mark.browser


def test_png_export(tmp_path, needs_chromium):
    a = reftorch.ones(2, 2)
    path = show(a=a, t=a.t()).save_png(tmp_path / "d.png", scale=1)
    with Image.open(path) as image:
        assert image.format == "PNG" and image.width > 600 and image.height > 200
    film = step_through(["a = torch.ones(2)", "b = a[1:]"], torch=reftorch).save_png(tmp_path / "f.png")
    with Image.open(film) as image:
        assert image.height > 2 * 200


def test_png_export_says_what_is_missing(tmp_path, monkeypatch):
    from memdiagram import _export

    monkeypatch.setattr(_export, "chromium_path", lambda: None)
    with pytest.raises(RuntimeError, match="PNG export needs a Chromium browser"):
        show(a=reftorch.ones(1)).save_png(tmp_path / "x.png")

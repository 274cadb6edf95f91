"""The English and the Chinese lab (``make lab``, ``make lab LANG=zh``) are two labs: neither
restores the other's tabs (and so starts the other's kernels)."""

from __future__ import annotations

from coursebook.lab import lab_command
from coursebook.workspace import WORKSPACE


def _option(command, name):
    values = [a.split("=", 1)[1] for a in command if a.startswith(f"--{name}=")]
    assert len(values) == 1, (name, command)
    return values[0]


def test_each_language_restores_only_its_own_workspace(tmp_path):
    english = lab_command(8888, "t", tmp_path, language="en")
    chinese = lab_command(8888, "t", tmp_path, language="zh")
    places = {_option(c, "LabApp.workspaces_dir") for c in (english, chinese)}
    assert len(places) == 2, f"both labs keep their open tabs in {places}"
    for place in places:  # in the learner's git-ignored folder, not ~/.jupyter shared by every lab
        assert place.startswith(str(tmp_path / WORKSPACE) + "/"), place

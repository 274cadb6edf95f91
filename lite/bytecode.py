"""Bytecode for what the site's kernel imports, compiled by the site's own Pyodide when it is built.

Pyodide writes no bytecode (``sys.dont_write_bytecode``), and neither its
standard library (``python_stdlib.zip``) nor the pure-Python wheels from PyPI
nor the learner's wheel carry any: without it every kernel compiles, in
WebAssembly, each module it imports (IPython's, the widgets', the course's, the
standard library's) at each start. Here Pyodide itself runs under Node (the
``pyodide.asm.wasm`` the site ships, so the bytecode has its interpreter's magic
number), with the site's Pyodide folder mounted, and :func:`add_bytecode` puts a
``.pyc`` beside every ``.py`` of each wheel (in ``__pycache__``, where the
import system looks) and of the standard library's zip (beside its ``.py``, where
``zipimport`` looks). Each is an *unchecked hash* ``.pyc``: Python loads it
without reading the source, which stays for tracebacks. Nothing is fetched: the
step runs offline with the rest of the build (docs/decisions/0072).
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

# Pyodide under Node: load it from the folder, mount the folder at the same path, run the program.
NODE = """
const [folder, program] = process.argv.slice(1);
const { loadPyodide } = await import(folder + "/pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: folder + "/" });
pyodide.FS.mkdirTree(folder);
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, folder);
pyodide.runPython(program);
"""
STANDARD_LIBRARY = "python_stdlib.zip"
AS_MOUNTED = "/lib/python314.zip"   # where Pyodide puts its standard library's zip (on sys.path)


def _pyc(source: bytes, filename: str) -> bytes | None:
    """``source`` compiled as an import compiles it, as an unchecked-hash ``.pyc``; None if it
    does not compile (a file the wheel ships that is not meant to be imported)."""
    import importlib.util
    import marshal

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError:
        return None
    # PEP 552's header: the magic number, flags 0b01 (hash-based, not checked), the source's hash
    unchecked_hash = (1).to_bytes(4, "little")
    return importlib.util.MAGIC_NUMBER + unchecked_hash + importlib.util.source_hash(source) + marshal.dumps(code)


def _in_pycache(name: str) -> str:
    folder, _, module = name.rpartition("/")
    return f"{folder}/__pycache__/{module[:-3]}.{sys.implementation.cache_tag}.pyc".lstrip("/")


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def _with_bytecode(archive: Path, pyc_name, filename) -> None:
    """Rewrite ``archive`` with a ``.pyc`` for each ``.py``, named by ``pyc_name(name)`` and compiled
    as the file ``filename(name)``; a wheel's RECORD lists them."""
    partial = archive.with_name(archive.name + ".partial")
    with zipfile.ZipFile(archive) as old, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as new:
        record, added = None, []
        for info in old.infolist():
            data = old.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                record = (info, data.decode())
                continue
            new.writestr(info, data)
            if info.filename.endswith(".py") and pyc_name(info.filename) not in old.NameToInfo:
                compiled = _pyc(data, filename(info.filename))
                if compiled is not None:
                    added.append((zipfile.ZipInfo(pyc_name(info.filename), info.date_time), compiled))
        for info, data in added:
            new.writestr(info, data, zipfile.ZIP_DEFLATED)
        if record:
            lines = record[1] + "".join(_record_line(info.filename, data) for info, data in added)
            new.writestr(record[0], lines)
    partial.replace(archive)


def add_bytecode(folder: Path) -> None:
    """In Pyodide: bytecode into every wheel of ``folder`` and into its standard library's zip."""
    import site

    packages = site.getsitepackages()[0]
    for wheel in sorted(folder.glob("*.whl")):
        _with_bytecode(wheel, _in_pycache, lambda name: f"{packages}/{name}")
    _with_bytecode(folder / STANDARD_LIBRARY, lambda name: name[:-3] + ".pyc", lambda name: f"{AS_MOUNTED}/{name}")


def compile_in_pyodide(folder: Path) -> None:
    """:func:`add_bytecode` over Pyodide's folder ``folder``, run by that Pyodide under Node."""
    program = Path(__file__).read_text(encoding="utf-8") + f"\nadd_bytecode(Path({str(folder)!r}))\n"
    subprocess.run(["node", "--input-type=module", "-e", NODE, str(folder), program], check=True)

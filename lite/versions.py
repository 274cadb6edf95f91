"""What the site is made of, pinned: Pyodide from npm, and the pure-Python wheels it loads from PyPI.

jupyterlite-pyodide-kernel 0.8.6 is built for Pyodide 314.0.6 (its kernel
speaks to that ``pyodide.mjs``).  The wheels are those Pyodide's own lock file
names for the kernel (IPython and what it needs, micropip), at the lock's
versions, plus what the chapters import that Pyodide does not ship: the
widgets (ipywidgets, anywidget and theirs) and polib (the Chinese catalogs).
Their versions are the ones ``make venv`` installs, so the widgets' JavaScript
that the site takes from ``.venv`` matches the Python side.
"""

PYODIDE = "314.0.6"
JUPYTERLITE = ["jupyterlite-core==0.8.6", "jupyterlite-pyodide-kernel==0.8.6"]

# the kernel's own needs, as Pyodide's lock names them (their dependencies come along)
FROM_THE_LOCK = ["micropip", "ipython", "jedi"]
# not in Pyodide's lock: name, version, what it needs (lock names)
EXTRA = {
    "prompt-toolkit": ("3.0.53", ["wcwidth"]),
    "comm": ("0.2.3", []),
    "jupyterlab-widgets": ("3.0.17", []),
    "ipywidgets": ("8.1.9", ["comm", "ipython", "traitlets", "jupyterlab-widgets"]),
    "typing-extensions": ("4.16.0", []),
    "psygnal": ("0.16.1", []),
    "anywidget": ("0.11.0", ["ipywidgets", "psygnal", "typing-extensions"]),
    "polib": ("1.2.0", []),
}
# the widgets' JavaScript, from .venv/share/jupyter/labextensions
LABEXTENSIONS = ["@jupyter-widgets/jupyterlab-manager", "anywidget", "@jupyterlite/pyodide-kernel-extension"]

"""Cheats that try to earn marks without the work: one per route issue 21 lists, and four more.

Each cheat is one student of the ``clone`` assignment who hands in the reference
solution with one cell changed (``graded_bank.student_notebook``) and a lazy
``my_clone`` that returns its input. ``fails`` names every test the cheat tried
to fake, each with the rule of the allowlist that used to refuse the route (the
allowlist is gone: every assignment is judged, ``autograder.judge``). What stops
them now: the verdict is computed in the judge, so whatever a route reaches in
the kernel, the lazy ``my_clone`` is observed returning its input and scores 0
on every test that calls it (``test_hostile_cheats``); the other tests keep their
points.
"""

from dataclasses import dataclass

from graded_bank import CLONE_BODY  # the tests put tests/exercises on sys.path

SOLUTION = "clone-solution"
ALL = ("clone-layout", "clone-memory", "clone-metadata", "clone-strides", "clone-graph", "clone-no-grad",
       "clone-version")
MY_CLONE = ALL[1:]   # the tests that call my_clone: a rule broken at compile time costs these
# A rule broken at run time costs every test from then on: the notebook's demonstration cell after
# the solution calls my_clone before the first test (clone-layout) runs, so that is ALL of them.

HEAD = "def my_clone(self, *, memory_format=torch.preserve_format):\n"
HONEST = HEAD + CLONE_BODY


def lazy(first_lines):
    """my_clone that does ``first_lines`` and returns the source itself (a wrong answer that a cheat
    would need to pass)."""
    return HEAD + first_lines + "    return self\n"


def lazy_after(module_lines, first_lines=""):
    """``module_lines`` at the top of the cell, then a lazy my_clone that does ``first_lines``."""
    return module_lines + "\n\n\n" + lazy(first_lines)


@dataclass(frozen=True)
class Cheat:
    name: str
    route: str
    code: str      # the clone-solution cell
    fails: dict    # test -> the rule tag its error names


def every(tests, tag):
    return {test: tag for test in tests}


CHEATS = [
    # the routes issue 21 names
    Cheat("computed-names", "computed names (getattr with a name built at run time)",
          lazy("    real = getattr(torch, 'sy' + 's')\n    return getattr(self, 'enolc'[::-1])()\n"),
          every(MY_CLONE, "rules/forbidden-builtin")),
    Cheat("getattribute", "t.__getattribute__('clone')",
          lazy("    return self.__getattribute__('clone')()\n"), every(MY_CLONE, "rules/private-name")),
    Cheat("aliased-import", "the forbidden library helper through an aliased import",
          "from reftorch.primitives import preserve_format_strides as layout\n\n\n"
          + HONEST.replace("my_preserve_format_strides(", "layout("),
          every(MY_CLONE, "rules/calls-the-op")),
    Cheat("setattr-through-alias", "writing an attribute of a module or class through an alias",
          lazy("    holder = [torch.Tensor][0]\n    holder.storage_offset = lambda t: 0\n"),
          every(ALL, "rules/writes")),
    Cheat("rewrites-test-data", "rewriting the checks' own test data in place",
          lazy("    data = check_clone_layout.__globals__['LAYOUTS']\n    data.clear()\n"),
          every(MY_CLONE, "rules/private-name")),
    Cheat("calls-the-reference", "calling the checks' reference recipe",
          "from autograder.checks import clone as reference\n\n\n" + HONEST,
          every(ALL, "rules/imports")),
    Cheat("ipython-hooks", "IPython hooks that make a failing test end without an error",
          lazy_after("get_ipython().set_custom_exc((Exception,), lambda *args, **kwargs: None)"),
          every(ALL, "rules/forbidden-builtin")),
    Cheat("magic-first-line", "a magic first line that hid the cell from the static rules",
          "%%capture\n" + lazy(""), every(ALL, "rules/plain-python")),
    Cheat("reads-the-notebook", "reading the notebook (hidden tests included) from the kernel's folder",
          lazy("    text = open('clone.ipynb').read()\n"), every(MY_CLONE, "rules/forbidden-builtin")),
    Cheat("reads-the-notebook-with-numpy", "reading the notebook through numpy's file reader",
          lazy_after("import numpy as np", "    raw = np.fromfile('clone.ipynb', dtype=np.uint8)\n"),
          every(ALL, "rules/module-attribute")),
    Cheat("non-number-result", "a displayhook that prints a non-number as the test's result",
          lazy_after("import sys\nsys.displayhook = lambda value: print('passed')"),
          every(ALL, "rules/imports")),
    Cheat("fakes-the-tamper-check", "the tamper check's answer faked",
          lazy_after("import autograder.kernels.kernel_setup as tripwire\ntripwire.tampering = lambda: []"),
          every(ALL, "rules/imports")),
    Cheat("monkeypatches-reftorch", "reftorch's Tensor patched so that a shared result looks like a copy",
          lazy_after("import reftorch\nreftorch.Tensor.requires_grad = property(lambda self: False)\n"
                     "reftorch.Tensor.data_ptr = lambda self: id(self)"),
          every(MY_CLONE, "integrity/tampering")),
    Cheat("monkeypatches-builtins", "a builtin the checks use replaced",
          lazy_after("import builtins\nbuiltins.abs = lambda x: 0"), every(MY_CLONE, "integrity/tampering")),
    Cheat("reads-hidden-tests-from-history", "the hidden tests read back from IPython's input history",
          lazy("    seen = In[-1]\n"), every(MY_CLONE, "rules/forbidden-builtin")),
    # routes of our own
    Cheat("format-string-walk", "str.format walking to __globals__ (no attribute syntax for the compiler to see)",
          lazy("    leak = '{0.__globals__}'.format(check_clone_memory)\n"),
          every(ALL, "rules/forbidden-builtin")),
    Cheat("operator-attrgetter", "operator.attrgetter reading a private attribute past the guard",
          lazy_after("import operator", "    code = operator.attrgetter('__globals__')(check_clone_memory)\n"),
          every(ALL, "rules/module-attribute")),
    Cheat("generator-frame", "a generator's frame, then the caller's globals",
          lazy("    frame = (x for x in ()).gi_frame\n"), every(MY_CLONE, "rules/plain-python")),
    Cheat("metaclass-from-type", "the metaclass reached with type(type(x)) builds a lying subclass",
          lazy("    maker = type(type(self))\n    Liar = maker('Liar', (type(self),), {})\n"),
          every(ALL, "rules/forbidden-builtin")),
]

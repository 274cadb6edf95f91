"""The tripwire (autograder/kernels/kernel_setup.py) sees every replacement issue 13 lists, and (issue 21) a
constant of the checks rewritten in place: it fingerprints contents, not only ids.

A fresh Python process installs the fingerprint as a grading kernel does, then
makes one replacement at a time, asks ``tampering()`` and the seal what they
see, and undoes it. (In a process of its own: ``install`` reroutes warnings and
the replacements must not leak into this one.) Under real grading, the bank's
cheats check the same end to end (test_mutants.py).
"""

import json
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent('''
    import copy, json, sys
    import autograder.kernels.kernel_setup as k
    k.install()
    seal = eval(k.SEAL_EXPRESSION)
    import torch, reftorch
    import autograder.checks._observe as observe
    results = {"clean": k.tampering()}

    def attempt(name, do, undo):
        do()
        found, now = eval(k.TAMPERING_EXPRESSION)
        results[name] = {"found": found, "seal changed": now != seal}
        undo()

    shadow = lambda t, **kw: t
    attempt("shadow torch.Tensor.clone (inherited from TensorBase)",
            lambda: setattr(torch.Tensor, "clone", shadow), lambda: delattr(torch.Tensor, "clone"))
    attempt("shadow torch.Tensor.data",
            lambda: setattr(torch.Tensor, "data", property(lambda t: t)), lambda: delattr(torch.Tensor, "data"))
    old = reftorch.Tensor.stride
    attempt("replace reftorch.Tensor.stride",
            lambda: setattr(reftorch.Tensor, "stride", lambda t: (1,)), lambda: setattr(reftorch.Tensor, "stride", old))
    attempt("add reftorch.Tensor.__getattr__",
            lambda: setattr(reftorch.Tensor, "__getattr__", lambda t, n: 0), lambda: delattr(reftorch.Tensor, "__getattr__"))
    old_deepcopy = copy.deepcopy
    attempt("replace copy.deepcopy",
            lambda: setattr(copy, "deepcopy", lambda x, memo=None: x), lambda: setattr(copy, "deepcopy", old_deepcopy))
    code = observe.expect_same.__code__
    attempt("swap the code of expect_same",
            lambda: setattr(observe.expect_same, "__code__", (lambda *a, **kw: None).__code__),
            lambda: setattr(observe.expect_same, "__code__", code))
    import autograder.checks.clone as clone_checks
    attempt("rewrite the checks' data in place (same object, new contents)",
            lambda: clone_checks.MISCONCEPTIONS.__setitem__("extra", None),
            lambda: clone_checks.MISCONCEPTIONS.pop("extra"))
    old_tampering = k.tampering
    attempt("replace the tripwire", lambda: setattr(k, "tampering", lambda: []),
            lambda: setattr(k, "tampering", old_tampering))
    saved = dict(k._fingerprint)
    attempt("empty the fingerprint", k._fingerprint.clear, lambda: k._fingerprint.update(saved))
    copy.copy(torch.ones(2)), copy.copy(reftorch.ones(2))   # copyreg caches __slotnames__ on the classes
    results["after copying tensors"] = k.tampering()
    print(json.dumps(results))
''')


@pytest.fixture(scope="module")
def seen():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_nothing_is_reported_when_nothing_was_replaced(seen):
    assert seen["clean"] == []
    assert seen["after copying tensors"] == [], "a cache Python fills in is not tampering"


@pytest.mark.parametrize("attempt, names", [
    ("shadow torch.Tensor.clone (inherited from TensorBase)", "torch.Tensor.clone was replaced"),
    ("shadow torch.Tensor.data", "torch.Tensor.data was replaced"),
    ("replace reftorch.Tensor.stride", "reftorch.Tensor.stride was replaced"),
    ("add reftorch.Tensor.__getattr__", "reftorch.Tensor.__getattr__ was added"),
    ("replace copy.deepcopy", "copy.deepcopy was replaced"),
    ("swap the code of expect_same", "autograder.checks._observe.expect_same.__code__ was replaced"),
    ("empty the fingerprint", "autograder.kernels.kernel_setup._fingerprint was emptied"),
    ("rewrite the checks' data in place (same object, new contents)",
     "autograder.checks.clone.MISCONCEPTIONS was changed in place"),
])
def test_each_replacement_is_named(seen, attempt, names):
    assert names in seen[attempt]["found"], seen[attempt]


def test_a_replaced_tripwire_reports_nothing_but_breaks_the_seal(seen):
    assert seen["replace the tripwire"] == {"found": [], "seal changed": True}
    assert seen["empty the fingerprint"]["seal changed"]
    for attempt, result in seen.items():
        if attempt not in ("clean", "after copying tensors", "replace the tripwire", "empty the fingerprint"):
            assert not result["seal changed"], attempt

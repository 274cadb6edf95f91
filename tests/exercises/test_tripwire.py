"""The tripwire (autograder/kernels/kernel_setup.py) sees every replacement issue 13 lists, and (issue 21) a
constant of the checks rewritten in place: it fingerprints contents, not only ids.

A fresh Python process installs the tripwire as a grading kernel does and reads, as the grader
does (``autograder.kernels.execute``), the report, its digest and the seal before anything
changed. Then it makes one replacement at a time, reads the digest and the seal again, compares
the report now with the first one (``differences``: the grader's verdict), and undoes it. (In a
process of its own: ``install`` reroutes warnings and the replacements must not leak into this
one.) The digest must move whenever the report names something: the grader reads the report only
then. Under real grading, the bank's cheats check the same end to end (test_mutants.py).
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
    first, first_digest, seal = eval(k.REPORT_EXPRESSION)
    first = json.loads(first)
    import torch, reftorch
    import autograder.checks._observe as observe

    def look():  # as the grader does: the report is compared only while the seal holds
        digest, now_seal = eval(k.DIGEST_EXPRESSION)
        report, _, _ = eval(k.REPORT_EXPRESSION)
        found = k.differences(first, json.loads(report)) if now_seal == seal else ["the seal broke"]
        return {"found": found, "seal changed": now_seal != seal, "digest changed": digest != first_digest}

    results = {"clean": look()}

    def attempt(name, do, undo):
        do()
        results[name] = look()
        undo()

    shadow = lambda t, **kw: t
    attempt("shadow torch.Tensor.clone (inherited from TensorBase)",
            lambda: setattr(torch.Tensor, "clone", shadow), lambda: delattr(torch.Tensor, "clone"))
    attempt("shadow torch.Tensor.data",
            lambda: setattr(torch.Tensor, "data", property(lambda t: t)), lambda: delattr(torch.Tensor, "data"))
    old = reftorch.Tensor.__dict__["stride"]   # the descriptor itself (a layout table reads it)
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
    defaults = observe.expect_same.__defaults__
    attempt("change the defaults of expect_same",
            lambda: setattr(observe.expect_same, "__defaults__", (None, "lenient")),
            lambda: setattr(observe.expect_same, "__defaults__", defaults))
    # the first watched function that closes over something: swap what its first cell holds
    label, name, cell = next((label, name, value.__closure__[0])
                             for label, names, values in k._namespaces()
                             for name, value in zip(names, values)
                             if type(value) is type(look) and value.__closure__
                             and not label.startswith("autograder.kernels"))
    results["closure"] = label + "." + name + ".__closure__[0] was replaced"
    held = cell.cell_contents
    attempt("swap what a closure cell holds", lambda: setattr(cell, "cell_contents", object()),
            lambda: setattr(cell, "cell_contents", held))
    attempt("install a trace function", lambda: sys.settrace(lambda *a: None), lambda: sys.settrace(None))
    real_reftorch = sys.modules["reftorch"]
    attempt("put another module in sys.modules['reftorch']",
            lambda: sys.modules.__setitem__("reftorch", type(sys)("reftorch")),
            lambda: sys.modules.__setitem__("reftorch", real_reftorch))
    import autograder.checks.clone as clone_checks
    attempt("rewrite the checks' data in place (same object, new contents)",
            lambda: clone_checks.MISCONCEPTIONS.__setitem__("extra", None),
            lambda: clone_checks.MISCONCEPTIONS.pop("extra"))
    table = clone_checks.MISCONCEPTIONS
    first_key = next(key for key, value in table.items() if type(value) is type(look))  # a function
    entry = table[first_key]
    attempt("put another function in the checks' table of misconceptions",
            lambda: table.__setitem__(first_key, lambda *a, **kw: None),
            lambda: table.__setitem__(first_key, entry))
    where = k.WATCHED.index("copy")
    attempt("stop watching the copy module (the tripwire's list rewritten in place)",
            lambda: k.WATCHED.remove("copy"), lambda: k.WATCHED.insert(where, "copy"))
    saved_report, saved_digest = eval(k.REPORT_EXPRESSION)[:2]
    old_report, old_digest = k.report, k.fingerprint_digest
    attempt("replace the tripwire with one that answers a saved report",
            lambda: setattr(k, "report", lambda: saved_report), lambda: setattr(k, "report", old_report))
    attempt("replace the digest with one that answers a saved digest",
            lambda: setattr(k, "fingerprint_digest", lambda: saved_digest),
            lambda: setattr(k, "fingerprint_digest", old_digest))
    report_code = k.report.__code__
    attempt("swap the code of the tripwire",
            lambda: setattr(k.report, "__code__", (lambda: "{}").__code__),
            lambda: setattr(k.report, "__code__", report_code))
    copy.copy(torch.ones(2)), copy.copy(reftorch.ones(2))   # copyreg caches __slotnames__ on the classes
    results["after copying tensors"] = look()
    torch.tensor(torch.ones(2))    # warns: the warnings module fills a __warningregistry__ in torch
    results["after a warning"] = look()
    print(json.dumps(results))
''')


@pytest.fixture(scope="module")
def seen():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_nothing_is_reported_when_nothing_was_replaced(seen):
    nothing = {"found": [], "seal changed": False, "digest changed": False}
    assert seen["clean"] == nothing
    assert seen["after copying tensors"] == nothing, "a cache Python fills in is not tampering"
    assert seen["after a warning"] == nothing, "the registry of warnings shown is not tampering"


@pytest.mark.parametrize("attempt, names", [
    ("shadow torch.Tensor.clone (inherited from TensorBase)", "torch.Tensor.clone was replaced"),
    ("shadow torch.Tensor.data", "torch.Tensor.data was replaced"),
    ("replace reftorch.Tensor.stride", "reftorch.Tensor.stride was replaced"),
    ("add reftorch.Tensor.__getattr__", "reftorch.Tensor.__getattr__ was added"),
    ("replace copy.deepcopy", "copy.deepcopy was replaced"),
    ("swap the code of expect_same", "autograder.checks._observe.expect_same.__code__ was replaced"),
    ("rewrite the checks' data in place (same object, new contents)",
     "autograder.checks.clone.MISCONCEPTIONS was changed in place"),
    ("put another function in the checks' table of misconceptions",
     "autograder.checks.clone.MISCONCEPTIONS was changed in place"),
    ("stop watching the copy module (the tripwire's list rewritten in place)", "copy.Error was deleted"),
    ("change the defaults of expect_same", "autograder.checks._observe.expect_same.__defaults__ was replaced"),
    ("swap what a closure cell holds", None),   # the name is found in the script: seen["closure"]
    ("install a trace function", "sys.gettrace() was replaced"),
    ("put another module in sys.modules['reftorch']", "reftorch.Tensor was deleted"),  # what the grader names first
])
def test_each_replacement_is_named_and_moves_the_digest(seen, attempt, names):
    names = names or seen["closure"]
    assert names in seen[attempt]["found"], seen[attempt]
    assert seen[attempt]["digest changed"], "the grader reads the report only when the digest moves"


@pytest.mark.parametrize("attempt", [
    "replace the tripwire with one that answers a saved report",
    "replace the digest with one that answers a saved digest",
    "swap the code of the tripwire",
])
def test_a_replaced_tripwire_breaks_the_seal(seen, attempt):
    assert seen[attempt]["seal changed"], seen[attempt]


def test_the_seal_holds_while_the_tripwire_is_intact(seen):
    for attempt, result in seen.items():
        if "tripwire" not in attempt and "digest" not in attempt and attempt != "closure":
            assert not result["seal changed"], attempt

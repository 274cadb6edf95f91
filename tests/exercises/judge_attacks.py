"""Attacks on a judged assignment from inside the student's kernel, by category (clone; save_and_load's stories).

Each attack is the solution cell of a student whose ``my_clone`` is wrong (``return self``: the
belief that ``b = a`` already copies) plus code that tries to change the verdict without
computing torch's answers. Whatever the attack reaches is collected in ``FOUND``; when
``my_clone`` runs (always inside the judge's questions) and ``FOUND`` holds anything, it raises
an error that carries it, so it shows in that test's output. The honest twin is the same
``return self`` without the attack: an attack gains nothing when its score is no higher than the
twin's and nothing was found.
"""


def liar(base, shown=None):
    """The source of ``class Always(base)``: a value equal to everything, hashed as 0, shown as
    ``shown`` (an object whose comparison, hash and repr lie)."""
    text = ("class Always(%s):\n    def __eq__(self, other):\n        return True\n\n"
            "    def __ne__(self, other):\n        return False\n\n    def __hash__(self):\n        return 0\n"
            % base)
    if shown is not None:
        text += "\n    def __repr__(self):\n        return %r\n" % shown
    return text + "\n\n"


HEAD = "def my_clone(self, *, memory_format=torch.preserve_format):\n"


def fake_driver(modules, kinds, answer):
    """The attack that replaces the witness's driver with ``serve``: each call connects to the
    judge's socket and lies in one of ``kinds`` ways, by ``answer`` (code that reads ``kind``)."""
    return (f"\nimport {modules}\nimport autograder.witness.serve as serving\nFOUND = []\n_count = [0]\n\n\n"
            "def serve(path, namespace):\n    _count[0] += 1\n    sock = socket.socket(socket.AF_UNIX)\n"
            f"    sock.connect(path)\n    kind = _count[0] % {kinds}\n" + answer
            + "    sock.close()\n\n\nserving.serve = serve\n")


def frame_walk(head, needles, answer, gap="\n\n", note=""):
    """The frame-walking attack: from inside the learner's function (``head``, its def line, then
    ``return answer``), every frame up the stack is searched for the names ``needles`` and for
    strings holding the hidden tests' code."""
    return ("\nimport sys\nFOUND = []\n" + gap + head + """    frame = sys._getframe()
    while frame is not None:
        names = set(frame.f_globals) | set(frame.f_locals)
        for needle in (""" + needles + """):
            if needle in names:
                FOUND.append(needle + " in " + frame.f_code.co_name)
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
""" + note + """            if isinstance(value, str) and ("batt" + "ery=" in value or "HIDDEN" + " TESTS" in value):
                FOUND.append("test code in " + frame.f_code.co_name)
        frame = frame.f_back
    if FOUND:
        raise RuntimeError("FOUND " + repr(sorted(set(FOUND)))[:2000])
    return """ + answer + "\n")

# what every attack's my_clone does: the wrong answer, or a report of what the attack reached
WRONG = HEAD + """    if FOUND:
        raise RuntimeError("FOUND " + repr(FOUND)[:2000])
    return self
"""

TWIN = "FOUND = []\n\n\n" + WRONG

ATTACKS = {
    # reflection through library helpers: the real getter/setter, module tables, the gc
    "reflection": """
import functools, gc, importlib, operator, sys
FOUND = []
for name in ("torch", "autograder.checks", "autograder.checks.clone", "autograder.judge",
             "autograder.kernels.kernel_setup"):
    try:
        module = importlib.import_module(name)
        if operator.attrgetter("__file__")(module) or hasattr(module, "Tensor"):
            FOUND.append("imported " + name)
    except Exception:
        pass
FOUND += [name for name in list(sys.modules) if name.startswith(("torch.", "autograder.checks", "autograder.judge"))]
for obj in gc.get_objects():
    try:
        if callable(obj) and functools.reduce(getattr, ["__name__"], obj) in (
                "expect_same", "check_clone_memory", "run_test_cell"):
            FOUND.append("object " + obj.__name__)
    except Exception:
        pass
""",
    # deserialisation: pickle and marshal reaching for the checks, torch and the judge
    "deserialisation": """
import marshal, pickle
FOUND = []
for module, name in (("autograder.checks.clone", "check_clone_memory"), ("torch", "Tensor"),
                     ("autograder.judge.test_cell", "run_test_cell"), ("autograder.checks._observe", "expect_same")):
    payload = b"c" + module.encode() + b"\\n" + name.encode() + b"\\n."
    try:
        FOUND.append("unpickled %r" % (pickle.loads(payload),))
    except Exception:
        pass
code = marshal.loads(marshal.dumps(compile("import torch; torch.ones(1)", "<x>", "exec")))
try:
    exec(code, {})
    FOUND.append("torch ran")
except Exception:
    pass
""",
    # frame walking: from inside my_clone, look for the test's code, torch's answers, the checks
    "frames": frame_walk(HEAD, '"theirs", "expect_same", "check_clone_memory", "torch_op", "misconceptions"',
                         "self", gap="\n", note="            # (needles made here: the attack's own text sits in "
                                                 "IPython's input history)\n"),
    # IPython hooks and display machinery: swallow errors, print a pass, clear outputs
    "ipython": """
import sys
from IPython import get_ipython
from IPython.display import display, clear_output
FOUND = []
ip = get_ipython()
ip.set_custom_exc((BaseException,), lambda shell, etype, evalue, tb, tb_offset=None: None)
ip.showtraceback = lambda *args, **kwargs: None
ip.events.register("post_run_cell", lambda result: clear_output())
ip.events.register("pre_run_cell", lambda info: display("all tests passed"))
sys.excepthook = lambda *args: None
sys.displayhook = lambda value: None
sys.stderr = sys.stdout
""",
    # objects whose comparison, hash or repr lies, handed back by the learner's functions
    "lying_objects": """
FOUND = []


""" + liar("tuple", "(3, 1)") + """def my_contiguous_strides(size):
    return Always((99,))


def my_preserve_format_strides(size, stride):
    return Always((99,))
""",
    # the driver replaced wholesale: the judge gets garbage, silence, lies of the wrong shape
    "driver": fake_driver("json, socket, struct, time", 4, """\
    if kind == 0:      # a message far over the limit
        sock.sendall(struct.pack(">I", 1 << 30) + b"x" * 65536)
    elif kind == 1:    # plain JSON of the wrong shape
        body = json.dumps({"seen": {"d": [["raised", {"t": []}]]}, "value": "everything passes"}).encode()
        sock.sendall(struct.pack(">I", len(body)) + body)
    elif kind == 2:    # silence: the judge waits no longer than the test's time
        time.sleep(3600)
    else:              # a reply that parses, claiming everything torch might say
        body = json.dumps({"seen": {"d": [["raised", None], ["same_object", False], ["shares_memory", False]]}}).encode()
        sock.sendall(struct.pack(">I", len(body)) + body)
"""),
}

# the clone-layout test's twin for the lying objects: strides functions that return wrong tuples
LAYOUT_TWIN = """
def my_contiguous_strides(size):
    return (99,)


def my_preserve_format_strides(size, stride):
    return (99,)
"""


def cells(attack):
    """The solution cells of the student who makes ``attack`` (``None``: the honest twin)."""
    if attack is None:
        return {"clone-solution": TWIN}
    if attack == "lying_objects":
        return {"clone-solution": ATTACKS[attack] + "\n\n" + WRONG, "clone-layout-solution": ""}
    if attack == "frames":
        return {"clone-solution": ATTACKS[attack]}
    return {"clone-solution": ATTACKS[attack] + "\n\n" + WRONG}


def layout_twin_cells():
    return {"clone-solution": TWIN, "clone-layout-solution": LAYOUT_TWIN}


# --- the same attacks on strides_and_views (judged too) ----------------------------------------
# The student's my_slice returns its input (the belief that a slice is the tensor itself); the
# other views are the reference's (its own my_slice renamed out of the way). The reflection,
# deserialisation, IPython and driver attacks run as the views cell's top-level code, the frame
# walk inside my_slice, and the lying objects come back from my_contiguous_strides.

SLICE_HEAD = "def my_slice(t, dim, start, stop, step):\n"
SLICE_WRONG = SLICE_HEAD + """    if FOUND:
        raise RuntimeError("FOUND " + repr(FOUND)[:2000])
    return t
"""


def views_cells(attack, views_reference):
    """The solution cells of the strides_and_views student who makes ``attack`` (``None``: the
    honest twin); ``views_reference`` is the reference's views cell."""
    others = views_reference.replace(SLICE_HEAD, "def _reference_slice(t, dim, start, stop, step):\n")
    twin = "FOUND = []\n\n\n" + others + "\n\n" + SLICE_WRONG
    if attack is None:
        return {"sv-views-solution": twin}
    if attack == "lying_objects":
        return {"sv-strides-solution": ATTACKS[attack], "sv-views-solution": twin}
    if attack == "frames":
        frames = ATTACKS[attack].replace(HEAD, SLICE_HEAD).replace("    return self\n", "    return t\n")
        return {"sv-views-solution": others + "\n\n" + frames}
    return {"sv-views-solution": ATTACKS[attack] + "\n\n" + others + "\n\n" + SLICE_WRONG}


def views_layout_twin_cells(views_reference):
    """The lying objects' twin: my_contiguous_strides returns a plain wrong tuple."""
    return dict(views_cells(None, views_reference),
                **{"sv-strides-solution": "def my_contiguous_strides(size):\n    return (99,)\n"})


# --- the same categories against a judged story (save_and_load): the witness plays the story -------

# the wrong answer: one storage counted once per tensor (tensors saved together share a record)
SL_WRONG = """def my_saved_bytes(tensors):
    if FOUND:
        raise RuntimeError("FOUND " + repr(FOUND)[:2000])
    return sum(t.untyped_storage().nbytes() for t in tensors)
"""

SL_TWIN = "FOUND = []\n\n\n" + SL_WRONG

SL_ATTACKS = {
    "reflection": ATTACKS["reflection"].replace('"autograder.checks.clone", ', '"autograder.checks.save_and_load", '),
    "deserialisation": ATTACKS["deserialisation"].replace(
        '("autograder.checks.clone", "check_clone_memory")', '("autograder.checks.save_and_load", "check_saved_bytes")'),
    # frame walking from inside the learner's function, while the witness plays the story
    "frames": frame_walk("def my_saved_bytes(tensors):\n",
                         '"theirs", "play_both", "run_both", "check_saved_bytes", "torch_side"',
                         "sum(t.untyped_storage().nbytes() for t in tensors)"),
    "ipython": ATTACKS["ipython"],
    # an answer that equals every number
    "lying_objects": """
FOUND = []


""" + liar("int") + """def my_saved_bytes(tensors):
    return Always(0)
""",
    # the driver replaced: facts of the wrong shape, a fact told twice, facts that are no plain data
    "driver": fake_driver("json, socket, struct", 3, """\
    if kind == 0:      # facts of the wrong shape
        told = {"d": [["facts", {"d": [["bytes of numbers in the file", 48]]}]]}
    elif kind == 1:    # one fact told twice, the second time as torch might say it
        told = {"d": [["facts", [["bytes of numbers in the file", 1], ["bytes of numbers in the file", 48]]]]}
    else:              # a fact that is an opaque object, equal to nothing torch says
        told = {"d": [["facts", [["bytes of numbers in the file", {"o": "an Always"}]]]]}
    length = struct.unpack(">I", sock.recv(4, socket.MSG_WAITALL))[0]
    sock.recv(length, socket.MSG_WAITALL)   # the judge's question, read, so that the lie is the answer
    body = json.dumps({"told": told}).encode()
    sock.sendall(struct.pack(">I", len(body)) + body)
    sock.recv(4)   # the judge's "done"
"""),
}


def sl_cells(attack):
    """The save_and_load solution cells of the student who makes ``attack`` (``None``: the twin)."""
    if attack is None:
        return {"sl-bytes-solution": SL_TWIN}
    if attack in ("frames", "lying_objects"):
        return {"sl-bytes-solution": SL_ATTACKS[attack]}
    return {"sl-bytes-solution": SL_ATTACKS[attack] + "\n\n" + SL_WRONG}


# ---- the same categories against a second judged assignment, new_tensor -------------------------
# Its inputs are two tensors (the data and self) and its calls carry keywords (dtype=, device=,
# requires_grad=): the witness rebuilds both from descriptions (autograder.witness.owned).
# The wrong answer: my_new_tensor returns the data itself; my_tensor stays right (2 points).

# the reference's helper, as the bank's new_tensor answers have it
NT_COPY_AS = """
def copy_as(data, dtype, device, requires_grad):
    strides = preserve_format_strides(data.shape, data.stride())
    copy = tensor_on(allocate(data.numel(), dtype, device), data.shape, strides, 0, dtype=dtype)
    copy_elements(copy, data)
    if requires_grad:
        copy.requires_grad_()
    return copy
"""
NT_HEAD = "def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):\n"
NT_WRONG = NT_COPY_AS + "\n\n" + NT_HEAD + """    if FOUND:
        raise RuntimeError("FOUND " + repr(FOUND)[:2000])
    return data
"""
NT_TWIN = "FOUND = []\n\n\n" + NT_WRONG

NT_ATTACKS = {
    "reflection": ATTACKS["reflection"].replace("autograder.checks.clone", "autograder.checks.new_tensor")
                                         .replace('"check_clone_memory"', '"check_new_tensor_copy"'),
    "deserialisation": ATTACKS["deserialisation"].replace(
        '("autograder.checks.clone", "check_clone_memory")', '("autograder.checks.new_tensor", "check_new_tensor_copy")'),
    "frames": ATTACKS["frames"].replace("def my_clone(self, *, memory_format=torch.preserve_format):\n", NT_HEAD)
                               .replace('"check_clone_memory"', '"check_new_tensor_copy"')
                               .replace("    return self\n", "    return data\n"),
    "ipython": ATTACKS["ipython"],
    # a result whose comparison, hash and repr lie, in place of a tensor
    "lying_objects": """
FOUND = []


""" + liar("tuple", "tensor([1., 2., 3.])") + """def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    return Always((99,))
""",
    "driver": ATTACKS["driver"],
}


def new_tensor_cells(attack):
    """The solution cells of the new_tensor student who makes ``attack`` (``None``: the honest twin)."""
    if attack is None:
        return {"new-tensor-solution": NT_TWIN}
    if attack == "frames":
        return {"new-tensor-solution": NT_COPY_AS + "\n\n" + NT_ATTACKS[attack]}
    if attack == "lying_objects":
        return {"new-tensor-solution": NT_COPY_AS + "\n\n" + NT_ATTACKS[attack]}
    return {"new-tensor-solution": NT_ATTACKS[attack] + "\n\n" + NT_WRONG}

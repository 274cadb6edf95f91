"""Compare what an operation does in torch with what the learner's version does.

The observations themselves (the four questions, the version counter, what was
raised and warned) are made by ``autograder.witness.observe``: here on torch,
and, when a notebook is graded, in the student's kernel (the witness) on the
learner's reftorch function, which answers with plain data the judge checks
(``autograder.judge``). Called with a plain Python function (the tests, the
course), the learner's side is observed here too.

``expect_same(...)`` compares a chosen list of those fields between torch's
run and yours, case by case, and raises an ``AssertionError`` whose message
names the misconception behind the first difference, shows the input and both
values, and ends with a stable tag (``misconception: clone/shares-memory``) that
the instructor's report counts. Every warning is caught, so nothing reaches
stderr (nbgrader gives 0 to a cell that writes to stderr).

Every message is written in the language the judge speaks for the notebook
(``autograder.judge.language``): the misconception's name and explanation from
the catalog by its tag, each line of evidence as ``_(N_("template")).format(...)``;
the tag itself stays as it is, on the last line.
"""

from collections import OrderedDict
from typing import NamedTuple

import reftorch
import torch  # noqa: F401  (torch's side of every comparison; reader(torch))

from ..judge.language import N_, _, gettext, language, misconception as named_in, tag_line
from ..judge.learner import ask_witness, ask_witness_all, is_learners
from ..witness import battery as _battery, pairs as _pairs, variants as _variants
from ..witness.observe import clean, is_stub, observe as _observe, where  # noqa: F401  (re-exported)
from ..witness.views import ViewCase
from ._readers import ReftorchReader, reader, type_name


class Misconception(NamedTuple):
    """A belief a failure shows, with the stable tag the instructor's report counts. ``fields``
    are the values ``text`` names (the op's name), put into the catalog's explanation in another
    language as they are put into ``text`` in English."""
    tag: str
    text: str
    fields: tuple = ()


M = Misconception


def by_torch(yes, no):
    """A field's misconception told by torch's value alone: ``yes`` when it is true, else ``no``."""
    return lambda theirs, yours, context: yes if theirs else no


def not_written(topic, op_name):
    return M(f"{topic}/not-written",
             f"your {op_name} is not written yet: it still raises NotImplementedError (replace "
             "`raise NotImplementedError()` with your code)", (op_name,))


class CheckFailure(AssertionError):
    """The AssertionError a check raises, shown in a notebook as its message alone.

    IPython shows the lines ``_render_traceback_`` returns in place of the
    traceback (its public protocol for exceptions that know how to show
    themselves): the message says what to fix, and the frames would all be the
    checks' own. It is named AssertionError, as nbgrader, the self-check and the
    class report read it; points and messages are unchanged.
    """

    def _render_traceback_(self):
        first, *rest = str(self).splitlines() or [""]
        return ["AssertionError: " + first, *rest]


CheckFailure.__name__ = CheckFailure.__qualname__ = "AssertionError"


def failure(misconception, lines):
    """The AssertionError a check raises: the belief, the evidence (``lines``, already in the
    language spoken), the tag. In another language than English the belief is the catalog's
    name and explanation of the tag."""
    lang = language()
    head = misconception.text
    if lang != "en":
        named = named_in(misconception.tag, lang)
        if named and misconception.fields:
            named = (named[0], named[1].format(*misconception.fields))
        head = (gettext(N_("Misconception \u201c{0}\u201d: {1}"), lang).format(*named) if named else
                gettext(N_("Misconception {0}: {1}"), lang).format(misconception.tag, misconception.text))
    text = "\n".join([head] + ["    " + line for line in lines] + ["    " + tag_line(misconception.tag, lang)])
    return CheckFailure(text)


def yours_raised(error_name, error_text):
    """The evidence line of the learner's exception (its text as raised, in its own words)."""
    return _(N_("yours raised {0}: {1}")).format(error_name, error_text)


ON_THE_GPU = ", on the GPU (cuda:0)"


def case_label(case):
    """``case.label()`` in the language spoken: a battery case's name from the catalog, with the
    GPU and no_grad said in it too. A label of other parts stays as the witness writes it."""
    if language() == "en" or not isinstance(case, (_battery.Case, _pairs.CopyCase)):
        return case.label()
    spec = getattr(getattr(case, "recipe", None), "__self__", None)
    if isinstance(spec, _variants.TensorSpec):   # variants.tensor_cases: "drawn input #<n> (<spec>)"
        text = _(N_("drawn input #{0} ({1})")).format(case.name[len("drawn input #"):].partition(" ")[0],
                                                      spec.label())
    else:   # a name that ends in the GPU says it through the template, as one that does not
        text = _(case.name.removesuffix(ON_THE_GPU))
    if getattr(case, "on", "cpu") == "cuda" and "GPU" not in text:
        text = _(N_("{0}, on the GPU (cuda:0)")).format(text)
    text = text if case.grad_mode else _(N_("{0}, inside no_grad")).format(text)
    return text + f", arguments {case.args}" if isinstance(case, ViewCase) and case.args else text


def describe_input(t, role=""):
    """A reftorch input, in numbers: size, stride, offset, dtype, device, autograd state (after
    ``role: `` when it has one)."""
    R = ReftorchReader
    if not R.is_tensor(t):
        return (role + ": " if role else "") + type_name(t)
    values = (R.size(t), R.stride(t), R.storage_offset(t), R.dtype(t), R.device(t), R.requires_grad(t),
              _(N_("leaf")) if R.is_leaf(t) else _(N_("grad_fn {0}")).format(R.node_name(R.grad_fn(t))))
    if role:
        return _(N_("{0}: size {1}, stride {2}, offset {3}, {4}, {5}, requires_grad={6}, {7}")).format(role, *values)
    return _(N_("size {0}, stride {1}, offset {2}, {3}, {4}, requires_grad={5}, {6}")).format(*values)


# --- observing ----------------------------------------------------------------

def observe(module, case, op, device_of="source"):
    """torch's run (or a learner's function run here, outside any grading) of ``op`` on ``case``
    (``autograder.witness.observe``)."""
    return _observe(module, reader(module), case, op, device_of)


# torch's observations, kept for the judge's process (a grading worker grades one student after
# another): torch answers a case the same way for every student, so each (case, op) is run once.
# A case drawn for a student is a new object each time and is never found again: it is not kept.
TORCH_SEEN_LIMIT = 2048
_torch_seen = OrderedDict()


def _op_key(op):
    """``op`` as a key that is the same for every student, or None: a function by its code, its
    defaults and what it closes over (a check makes its lambda anew on every call), anything
    else as itself; None when a part of it cannot be hashed."""
    code = getattr(op, "__code__", None)
    try:
        if code is None:
            hash(op)
            return op
        cells = tuple(cell.cell_contents for cell in op.__closure__ or ())
        key = (code, cells, op.__defaults__, tuple(sorted((op.__kwdefaults__ or {}).items())))
        hash(key)
        return key
    except (TypeError, ValueError):   # an unhashable part, an empty cell
        return None


def _drawn(case):
    """Whether ``case``, or the case or owner it wraps (new_tensor's ``witness.owned``), was drawn
    for this student (``_variants``): then it is not kept."""
    recipes = (getattr(case, name, None) for name in ("recipe", "dst", "src"))
    if any(isinstance(getattr(recipe, "__self__", None), _variants.TensorSpec) for recipe in recipes):
        return True
    if getattr(getattr(case, "owner", None), "spec", None) is not None:
        return True
    return hasattr(case, "case") and _drawn(case.case)


def observe_torch(case, op, device_of="source"):
    """torch's run of ``op`` on ``case`` (:func:`observe`), made once per grading process for
    a fixed case. The observation is shared: it is read, never changed."""
    op_key = _op_key(op)
    if op_key is None or _drawn(case):
        return observe(torch, case, op, device_of)
    key = (case, op_key, device_of)
    try:
        seen = _torch_seen[key]
    except TypeError:   # an unhashable case
        return observe(torch, case, op, device_of)
    except KeyError:
        seen = _torch_seen[key] = observe(torch, case, op, device_of)
        if len(_torch_seen) > TORCH_SEEN_LIMIT:
            _torch_seen.popitem(last=False)
    _torch_seen.move_to_end(key)
    return seen


def observe_yours(case, op, device_of="source"):
    """The learner's run: asked of the witness when ``op`` is the learner's (the judge grades),
    else run here on reftorch (a test calling the check with a plain function)."""
    if is_learners(op):
        return _with_input(ask_witness(case, op, device_of), case)
    return observe(reftorch, case, op, device_of)


def _with_input(seen, case):
    seen["_case"] = case   # its twin is built only when a message asks (input_of, docs/decisions/0079)
    return seen


def input_of(seen):
    """The learner's input for the run ``seen`` observed, as a reftorch tensor: for a run the witness
    answered, the judge builds its own twin of the case, the first time a message asks."""
    case = seen.pop("_case", None)
    if case is not None:
        seen["_input"] = case.build(reftorch)[0]
    return seen.get("_input")


def observe_all_yours(cases, op, device_of="source"):
    """:func:`observe_yours` for each case, as functions called in turn: the witness is asked about
    every case in one round trip (its answers checked one by one, as each is used)."""
    if is_learners(op):
        return [lambda seen=seen, case=case: _with_input(seen(), case)
                for seen, case in zip(ask_witness_all(cases, op, device_of), cases)]
    return [lambda case=case: observe(reftorch, case, op, device_of) for case in cases]


def battery(cases, salt="cases", **drawn):
    """``"basic"`` or ``"full"`` (the named batteries of ``_battery``; ``"full"`` adds the
    inputs drawn for this student, see ``_variants``), ``"drawn"`` (only those), or a
    tuple of cases.

    The visible tests (``"basic"``) run every fixed case, so that the self-check meets every
    kind of input the grader does: the hidden tests (``"drawn"``, run only after the visible
    line passed) ask only the inputs drawn for the student, which vary the numbers, shapes and
    combinations, never the kinds (docs/decisions/0075)."""
    if cases == "basic":
        return _battery.FULL
    if cases == "full":
        return _battery.FULL + _variants.tensor_cases(salt, **drawn)
    if cases == "drawn":
        return _variants.tensor_cases(salt, **drawn)
    return tuple(cases)


def choose(battery, basic, full, drawn=()):
    """The cases of a named battery: ``"basic"`` the visible ones, ``"full"`` the hidden ones
    plus those drawn for this student, ``"drawn"`` only the drawn ones (the property tests).

    ``basic`` (a few cases, one for each belief an exercise names) comes first; the visible
    battery then runs every fixed case of ``full`` as well, so the self-check fails a learner
    exactly when the grader's fixed cases do (see ``battery``)."""
    if battery == "basic":
        return tuple(basic) + tuple(c for c in full if c not in tuple(basic))
    if battery == "drawn":
        return tuple(drawn)
    return tuple(full) + tuple(drawn)


def _where_of(yours):
    """The learner's line that raised: as the witness described it, or from the exception here."""
    if "_where" in yours:
        return yours["_where"]
    error = yours.get("_error")
    return where(error) if error is not None else ""


def _show(value):
    return repr(value)


def _pick(entry, theirs, yours, context):
    return entry(theirs, yours, context) if callable(entry) else entry


def expect_same(op_name, cases, torch_op, your_op, fields, misconceptions, topic=None,
                device_of="source"):
    """For each case, compare ``fields`` of torch's run with yours.

    ``misconceptions`` maps a field to a ``Misconception`` (or to a function of
    torch's value, yours and both observations that returns one). What was
    raised, and whether a tensor was returned, are always compared first: if
    torch raises, yours must raise the same error; if both raise, the field
    ``after_refusal`` (when asked for) compares what the inputs look like.
    """
    topic = topic or op_name
    cases = battery(cases, op_name)
    for case, yours_of in zip(cases, observe_all_yours(cases, your_op, device_of)):
        theirs = observe_torch(case, torch_op, device_of)
        yours = yours_of()
        context = {"theirs": theirs, "yours": yours, "case": case}
        error = yours.get("_error")
        if theirs["raised"] != yours["raised"]:
            if yours.get("_stub") or (error is not None and is_stub(error)):
                raise failure(not_written(topic, op_name), _evidence(case))
            if theirs["raised"] is None:
                what = _pick(misconceptions.get("raised_unexpectedly")
                             or M(f"{topic}/raises", f"your {op_name} raised where torch's does not"),
                             theirs["raised"], yours["raised"], context)
                detail = [yours_raised(yours["raised"][0], f"{yours['raised'][1]}{_where_of(yours)}")]
            else:
                what = _pick(misconceptions.get("raised")
                             or M(f"{topic}/raises", f"torch's {op_name} raises an error here and yours "
                                  "does not (or raises another one)"),
                             theirs["raised"], yours["raised"], context)
                detail = [_(N_("torch raises {0}: {1}")).format(theirs["raised"][0], theirs["raised"][1]),
                          yours_raised(yours["raised"][0], f"{yours['raised'][1]}{_where_of(yours)}")
                          if yours["raised"] else _(N_("yours raised nothing"))]
            raise failure(what, _evidence(case, *detail))
        if theirs["raised"] is not None:
            if "after_refusal" in fields and theirs["after_refusal"] != yours.get("after_refusal"):
                what = _pick(misconceptions["after_refusal"], theirs["after_refusal"],
                             yours.get("after_refusal"), context)
                raise failure(what, _evidence(
                    case, _(N_("both raise {0}: {1}")).format(theirs["raised"][0], theirs["raised"][1]),
                    _(N_("the inputs afterwards: torch's {0}, yours {1}")).format(
                        _show(theirs["after_refusal"]), _show(yours.get("after_refusal")))))
            continue
        if "not_a_tensor" in yours:
            raise failure(M(f"{topic}/not-a-tensor",
                            f"your {op_name} returned {yours['not_a_tensor']}"), _evidence(case))
        if yours.get("returned") != theirs["returned"]:
            raise failure(M(f"{topic}/not-a-tensor",
                            f"your {op_name} returned a {yours.get('returned')}, where torch's returns a "
                            f"{theirs['returned']}"), _evidence(case))
        for field in fields:
            if field == "after_refusal":
                continue
            if theirs.get(field) != yours.get(field):
                what = _pick(misconceptions[field], theirs.get(field), yours.get(field), context)
                for cause in ("returns_an_argument", "same_object"):
                    if cause in misconceptions and cause in theirs and theirs[cause] != yours.get(cause):
                        # the data shows the cause of every other difference: the wrong object came back
                        what = _pick(misconceptions[cause], theirs[cause], yours.get(cause), context)
                        break
                raise failure(what, _evidence(
                    case, _(N_("{0}: torch's {1} gives {2}, yours gives {3}")).format(
                        field, op_name, _show(theirs.get(field)), _show(yours.get(field)))))


def _evidence(case, *lines):
    """The lines under a failure's first line: the input (a fresh reftorch twin, described in
    numbers: the run may have changed the one it used), then ``lines``."""
    source, _leaves, args = case.build(reftorch)
    tensors = [source] + [a for a in args if ReftorchReader.is_tensor(a)]
    roles = getattr(case, "roles", ("",) * len(tensors))
    described = ["       " + describe_input(t, role) for role, t in zip(roles, tensors)]
    return [_(N_("input: {0}")).format(case_label(case))] + described + list(lines)

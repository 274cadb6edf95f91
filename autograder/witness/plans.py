"""The judge's requests, turned into inputs and calls on the learner's functions.

A request names everything as data:

* an input (a *case*): ``{"named": "TRANSPOSED"}``, one of the fixed inputs of
  ``battery``, or ``{"spec": {...}, "grad_mode": ..., "on": ..., "name": ...}``,
  an input drawn for this student (``variants.TensorSpec``'s fields: dtype,
  shape, layout, values...), rebuilt here from its numbers;
* ``{"annotated": {"base": <a drawn case>, "extra": [...]}}``: that input with
  a gradient and Python attributes (``copies``);
* ``{"view": {"base": <a case>, "args": [...]}}``: a case's tensor detached,
  with the arguments of a view (``views``);
* an input of several tensors: ``{"copy": ...}`` (``pairs``: copy_'s dst and
  src), ``{"with_owner": ...}`` and ``{"moved": ...}`` (``owned``: new_tensor's
  data and self, a call that asks for ``device=``);
* a call: ``{"function": "my_clone", "args": [...], "kwargs": {...}}``, where
  an argument is ``{"source": null}`` (the case's input), ``{"argument": i}``
  (the case's i-th extra argument), ``{"input": <a case>}`` (a fresh tensor
  of that case), ``{"reftorch": "contiguous_format"}`` (a
  public name of reftorch), ``{"dtype_of": "source"}`` (the input's dtype) or
  plain data (``wire``); a call with
  ``"through": "copy.deepcopy"`` uses the learner's function as the tensor's
  ``__deepcopy__`` in ``copy.deepcopy(source)`` (``copies.THROUGH``).

The learner's function is looked up by name in the notebook's namespace when
the request arrives, so the judge always calls what the notebook defines now.
"""

import reftorch

from . import battery, copies, variants, views
from . import owned, pairs   # inputs of several tensors (new_tensor, copy_)
from .wire import decode

NAMED = {name: case for name, case in vars(battery).items() if isinstance(case, battery.Case)}


class BadPlan(ValueError):
    """A request the witness cannot act on (a name that does not exist, a malformed call)."""


def case_of(description):
    if "view" in description:   # a battery case's tensor detached, with a view's arguments
        return views.case_of(description["view"], case_of)
    if "annotated" in description:   # a drawn case with a gradient and Python attributes
        return copies.case_of(description["annotated"], case_of)
    if "copy" in description:   # copy_'s two tensors (pairs.CopyCase)
        return pairs.case_of(description)
    if "with_owner" in description or "moved" in description:   # new_tensor's data and self (owned)
        return owned.case_of(description, case_of)
    if "named" in description:
        try:
            return NAMED[description["named"]]
        except (KeyError, TypeError):
            raise BadPlan("no fixed input is called %r" % (description["named"],)) from None
    spec = variants.TensorSpec.from_fields(decode(description["spec"]))
    return battery.Case(str(description["name"]), spec.build, bool(description["grad_mode"]),
                        str(description["on"]))


def function_of(namespace, name):
    try:
        return namespace[name]
    except KeyError:
        raise BadPlan("the notebook defines no %r (run the cell that defines it)" % name) from None


def _argument(value, source, args):
    if isinstance(value, dict) and len(value) == 1:
        (tag, inner), = value.items()
        if tag == "source":
            return source
        if tag == "argument":
            return args[inner]
        if tag == "input":   # a fresh tensor of the input described (a case), for a call on it
            return case_of(inner).build(reftorch)[0]
        if tag == "dtype_of" and inner == "source":   # new_tensor(data, dtype=data.dtype)
            return source.dtype
        if tag == "reftorch":
            if not isinstance(inner, str) or inner.startswith("_") or not hasattr(reftorch, inner):
                raise BadPlan("reftorch has no public %r" % (inner,))
            return getattr(reftorch, inner)
    return decode(value)


def call_of(namespace, description):
    """``op(source, *args)`` that calls the learner's function as ``description`` says."""
    function = function_of(namespace, description["function"])
    if "through" in description:   # the learner's function used by a protocol (copy.deepcopy ...)
        if description["through"] not in copies.THROUGH:
            raise BadPlan("no protocol is called %r" % (description["through"],))
        return copies.THROUGH[description["through"]](function)
    arguments, keywords = description.get("args", [{"source": None}]), description.get("kwargs", {})

    def op(source, *args):
        return function(*[_argument(a, source, args) for a in arguments],
                        **{k: _argument(v, source, args) for k, v in keywords.items()})
    return op

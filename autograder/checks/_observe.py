"""Watch a copy operation answer the four questions, in torch and in your reftorch code.

``observe(module, case, op)`` builds the case's input with ``module`` (torch or
reftorch), runs ``op`` on it, and writes down everything a learner could check:

1. object      is the result the very same Python object as the source?
2. metadata    size, stride, storage offset, dtype, device, requires_grad, is_leaf, is it a view?
3. memory      does the result share the source's storage? Which numbers does it hold?
               (and its ``.grad`` and plain Python attributes, for the copy module's ops)
4. history     grad_fn's name, where its next_functions lead, the leaves' gradients after backward
   + version   the result's version right after the op, and whether it shares the
               source's version counter (write into the source, watch the result's version)
   + what the op raised and warned.

``expect_same(...)`` compares a chosen list of those fields between torch's
run and yours, case by case, and raises an ``AssertionError`` whose message
names the misconception behind the first difference. Every warning is caught,
so nothing reaches stderr (nbgrader gives 0 to a cell that writes to stderr).
"""

import re
import warnings

_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*\)\s*$", re.S)


def clean(message):
    """An error or warning text without torch's C++ source location."""
    return _TRIGGERED.sub("", str(message)).strip()


def _node_name(node):
    return None if node is None else node.name()


def _edge(node, source, leaves):
    """Where one entry of next_functions leads, in words that mean the same in both modules."""
    if node is None:
        return "nothing (None)"
    if source is not None and node is getattr(source, "grad_fn", None):
        return "the source's grad_fn"
    variable = getattr(node, "variable", None)
    if variable is not None:
        for i, leaf in enumerate(leaves):
            if variable is leaf:
                return f"AccumulateGrad of input leaf #{i}"
        return "AccumulateGrad of a tensor that is not an input"
    return _node_name(node)


def _storage_ptr(t):
    return t.untyped_storage().data_ptr()


def observe(module, case, op):
    """Run ``op(source, *args)`` on a fresh input from ``case`` and record what happened."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        source, leaves, args = case.build(module)
        seen = {}
        caught.clear()
        with module.set_grad_enabled(case.grad_mode):
            try:
                result = op(source, *args)
            except Exception as error:  # what the op raised is one of the observations
                seen["raised"] = (type(error).__name__, clean(error))
                result = None
        seen["warnings"] = tuple((w.category.__name__, clean(w.message)) for w in caught)
        if "raised" in seen:
            return seen
        seen["raised"] = None
        seen["returned"] = type(result).__name__
        if not isinstance(result, module.Tensor):
            return seen
        seen["same_object"] = result is source
        seen["size"] = tuple(result.shape)
        seen["stride"] = tuple(result.stride())
        seen["storage_offset"] = result.storage_offset()
        seen["dtype"] = str(result.dtype)
        seen["device"] = str(result.device)
        seen["requires_grad"] = result.requires_grad
        seen["is_leaf"] = result.is_leaf
        seen["is_view"] = result._base is not None
        seen["values"] = result.tolist()
        seen["grad"] = None if not result.is_leaf or result.grad is None else result.grad.tolist()
        seen["grad_shares_memory"] = (
            seen["grad"] is not None and source.is_leaf and source.grad is not None
            and _storage_ptr(result.grad) == _storage_ptr(source.grad)
        )
        seen["attributes"] = {k: v for k, v in vars(result).items() if isinstance(v, (str, int, float))}
        seen["shares_memory"] = _storage_ptr(result) == _storage_ptr(source)
        seen["version"] = result._version
        seen["source_version"] = source._version
        node = result.grad_fn
        seen["grad_fn"] = _node_name(node)
        seen["next_functions"] = (
            tuple(_edge(n, source, leaves) for n, _ in node.next_functions) if node is not None else ()
        )
        seen["gradient"] = _gradients(module, result, leaves)
        before = result._version
        with module.no_grad():
            source.zero_()
        seen["shares_version_counter"] = result._version != before
        return seen


def _gradients(module, result, leaves):
    """Backward through ``(result * w).sum()`` with w = 1, 2, 3...; each leaf's ``.grad`` after it."""
    if not result.requires_grad:
        return "no backward: the result does not require grad"
    try:
        weights = module.arange(1, result.numel() + 1, dtype=result.dtype).reshape(result.shape)
        (result * weights).sum().backward()
    except Exception as error:
        return f"backward raised {type(error).__name__}: {clean(error)}"
    return tuple(None if leaf.grad is None else leaf.grad.tolist() for leaf in leaves)


def battery(cases):
    """``"basic"`` or ``"full"`` (the named batteries of ``_battery``), or a tuple of cases."""
    from . import _battery

    if isinstance(cases, str):
        return {"basic": _battery.BASIC, "full": _battery.FULL}[cases]
    return tuple(cases)


def _show(value):
    return repr(value)


def describe_difference(op_name, case, field, theirs, yours, misconception):
    if callable(misconception):
        misconception = misconception(theirs, yours)
    return (
        f"{misconception}\n"
        f"    input: {case.label()}\n"
        f"    {field}: torch's {op_name} gives {_show(theirs)}, yours gives {_show(yours)}"
    )


def expect_same(op_name, cases, torch_op, your_op, fields, misconceptions):
    """For each case, compare ``fields`` of torch's run with yours.

    ``misconceptions`` maps a field to the sentence shown when it differs (or to
    a function of torch's value and yours that returns the sentence). What
    was raised, and whether a tensor was returned, are always compared first:
    if torch raises, yours must raise the same error.
    """
    import reftorch
    import torch

    cases = battery(cases)
    for case in cases:
        theirs = observe(torch, case, torch_op)
        yours = observe(reftorch, case, your_op)
        if theirs["raised"] != yours["raised"]:
            if theirs["raised"] is None:
                what = misconceptions.get("raised_unexpectedly", "your function raised where torch does not")
                detail = f"yours raised {yours['raised'][0]}: {yours['raised'][1]}"
            else:
                what = misconceptions.get("raised", "torch raises an error here and yours does not (or raises another one)")
                detail = f"torch raises {theirs['raised'][0]}: {theirs['raised'][1]}\n    yours: {yours['raised']}"
            raise AssertionError(f"{what}\n    input: {case.label()}\n    {detail}")
        if theirs["raised"] is not None:
            continue
        if yours["returned"] != "Tensor" and theirs["returned"] == "Tensor":
            raise AssertionError(
                f"your {op_name} returned {yours['returned']}, not a tensor\n    input: {case.label()}"
            )
        for field in fields:
            if theirs.get(field) != yours.get(field):
                raise AssertionError(
                    describe_difference(op_name, case, field, theirs.get(field), yours.get(field),
                                        misconceptions[field])
                )


def expect_error(action, error_type, message, misconception):
    """Run ``action()``; it must raise ``error_type`` with ``message`` (torch's words)."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:
            action()
        except error_type as error:
            if clean(error) != clean(message):
                raise AssertionError(
                    f"{misconception}\n    expected the message: {message}\n    yours said: {clean(error)}"
                ) from None
            return
        except Exception as error:
            raise AssertionError(
                f"{misconception}\n    expected {error_type.__name__}: {message}\n"
                f"    yours raised {type(error).__name__}: {clean(error)}"
            ) from None
    raise AssertionError(f"{misconception}\n    expected {error_type.__name__}: {message}\n    yours raised nothing")

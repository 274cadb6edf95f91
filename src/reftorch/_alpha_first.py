"""The arguments of ``add``, ``sub``, ``add_`` and ``sub_``: ``(other, *, alpha=1)``, or torch's
deprecated ``(alpha, other)`` form, ``a.add_(2, b)`` for ``a + 2 * b``.

torch still computes the old form, and warns once per process, at the first deprecated call of
any operation. Only argument binding happens here: no tensor is read or written.
"""

from ._numpy_objects import is_number
from ._tensor import Tensor
from ._warn import warn

SIGNATURE = "(Tensor other, *, Number alpha = 1)"
DEPRECATED = ("This overload of {op} is deprecated:\n\t{op}({old})\nConsider using one of the following signatures "
              "instead:\n\t{op}({new}) (Triggered internally at "
              "/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)")
METHOD = ("Number alpha, Tensor other", "Tensor other, *, Number alpha = 1")
FUNCTION = ("Tensor input, Number alpha, Tensor other, *, Tensor out = None",  # torch.add(a, 2, b)
            "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None")
_warned = []  # torch's warning is a once-per-process one


def other_and_alpha(op, args, keywords, signatures=METHOD):
    """``(other, alpha)`` as torch's parser binds ``op``'s arguments (``signatures``: the old and the
    new one the warning names)."""
    unknown = set(keywords) - {"other", "alpha"}
    if unknown:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(unknown))}'")
    given = list(args) + ([keywords["other"]] if "other" in keywords else [])
    if not given:
        raise TypeError(f"{op}() received an invalid combination of arguments - got (), but expected {SIGNATURE}")
    if len(given) == 1:
        return given[0], keywords.get("alpha", 1)
    if len(given) > 2:
        raise TypeError(f"{op}() takes 2 positional arguments but {len(given) + 1} were given")
    alpha, other = given
    if "alpha" in keywords:
        raise TypeError(f"{op}() received an invalid combination of arguments - got unrecognized keyword arguments: alpha")
    if not is_number(alpha) or not (is_number(other) or isinstance(other, Tensor)):
        raise TypeError(f"{op}() takes 1 positional argument but 2 were given")
    if not _warned:
        _warned.append(op)
        warn(DEPRECATED.format(op=op, old=signatures[0], new=signatures[1]))
    return other, alpha

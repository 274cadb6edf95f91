"""The arguments of ``add``, ``sub``, ``add_`` and ``sub_``: ``(other, *, alpha=1)``, or torch's
deprecated ``(alpha, other)`` form, ``a.add_(2, b)`` for ``a + 2 * b``.

torch still computes the old form, and warns once per process, at the first deprecated call of
any operation. Only argument binding happens here: no tensor is read or written.
"""

import numbers

from . import _messages
from ._arguments import check_keywords
from ._messages import ALPHA_FIRST_FUNCTION as FUNCTION, ALPHA_FIRST_METHOD as METHOD, type_name
from ._numpy_objects import is_number
from ._tensor import Tensor
from ._warn import warn

_warned = []  # torch's warning is a once-per-process one


def other_and_alpha(op, args, keywords, signatures=METHOD):
    """``(other, alpha)`` as torch's parser binds ``op``'s arguments (``signatures``: the old and the
    new one the warning names)."""
    check_keywords(op, set(keywords) - {"other", "alpha"})
    given = list(args) + ([keywords["other"]] if "other" in keywords else [])
    if not given:
        raise TypeError(_messages.ALPHA_FIRST_NO_ARGUMENTS.format(op=op))
    if len(given) == 1:
        alpha = keywords.get("alpha", 1)
        # torch's parser reads a 0-d tensor as a number; a complex one is refused by name, later
        if not (is_number(alpha) or isinstance(alpha, (numbers.Complex, Tensor))):
            raise TypeError(_messages.ARGUMENT_TYPE_BY_KEYWORD.format(
                fn=op, name="alpha", expected="Number", got=type_name(alpha)))
        return given[0], alpha
    if len(given) > 2:
        raise TypeError(f"{op}() takes 2 positional arguments but {len(given) + 1} were given")
    alpha, other = given
    if "alpha" in keywords:
        raise TypeError(_messages.UNRECOGNIZED_KEYWORDS.format(op=op, names="alpha"))
    if not is_number(alpha) or not (is_number(other) or isinstance(other, Tensor)):
        raise TypeError(f"{op}() takes 1 positional argument but 2 were given")
    if not _warned:
        _warned.append(op)
        warn(_messages.ALPHA_FIRST_DEPRECATED.format(op=op, old=signatures[0], new=signatures[1]))
    return other, alpha

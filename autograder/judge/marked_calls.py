"""A call of a learner's function on a case's tensors, in any order, with keywords: as data.

``call(my_copy_, SOURCE, argument(0))`` is ``lambda dst, src: my_copy_(dst, src)``;
``call(my_new_tensor, argument(0), SOURCE, dtype=DTYPE_OF_SOURCE)`` is
``lambda data, owner: my_new_tensor(owner, data, dtype=data.dtype)``. When the
function is the learner's (:class:`~autograder.judge.learner.LearnerFunction`),
``expect_same`` sends :meth:`Call.plan` to the witness, which makes the same
call there (``witness.plans.call_of``); a plain Python function (the tests, the
course) is called here.
"""

from ..witness.wire import encode
from .learner import Reftorch, WithKeywords


class _Marker:
    def __init__(self, name, data):
        self.name, self.data = name, data

    def __repr__(self):
        return self.name


SOURCE = _Marker("SOURCE", {"source": None})                        # the case's input (dst, data)
DTYPE_OF_SOURCE = _Marker("DTYPE_OF_SOURCE", {"dtype_of": "source"})   # its dtype


class Argument:
    """The case's ``index``-th extra argument (copy_'s src, new_tensor's self)."""

    def __init__(self, index):
        self.index = index


def argument(index):
    return Argument(index)


class Call(WithKeywords):
    """``lambda source, *args: function(*arguments, **keywords)``, each argument a marker or a value."""

    def __init__(self, function, arguments, keywords):
        super().__init__(function, keywords)
        self.arguments = tuple(arguments)

    def __call__(self, source, *args):
        import reftorch

        def value(v):
            if v is SOURCE:
                return source
            if v is DTYPE_OF_SOURCE:
                return source.dtype
            if isinstance(v, Argument):
                return args[v.index]
            if isinstance(v, Reftorch):
                return getattr(reftorch, v.name)
            return v
        return self.function(*[value(a) for a in self.arguments],
                             **{k: value(v) for k, v in self.keywords.items()})

    def plan(self):
        def data(v):
            if isinstance(v, _Marker):
                return v.data
            if isinstance(v, Argument):
                return {"argument": v.index}
            if isinstance(v, Reftorch):
                return {"reftorch": v.name}
            return encode(v)
        return self.function.plan([data(a) for a in self.arguments], {k: data(v) for k, v in self.keywords.items()})


def call(function, *arguments, **keywords):
    """``function(*arguments, **keywords)`` for each case: ``SOURCE``, ``argument(i)``, ``DTYPE_OF_SOURCE``,
    ``Reftorch("name")`` or plain values."""
    return Call(function, arguments, keywords)

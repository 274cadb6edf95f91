"""What crosses between the judge and the witness: plain data, and nothing else.

One message is a 4-byte big-endian length and that many bytes of JSON. Values
keep the Python types an observation is made of: ``None``, ``bool``, ``int``,
``float`` (``nan`` and ``inf`` included), ``str``, ``list``, ``tuple``
(``{"t": [...]}``) and ``dict`` (``{"d": [[key, value], ...]}``, any plain
key). Anything else is sent as what it is, ``{"o": "a Foo"}``, and read back as
an :class:`Opaque`, which equals only another opaque of the same kind.

:func:`decode` is the judge's gate: it accepts only that shape, at most
:data:`MAX_DEPTH` deep and :data:`MAX_ITEMS` values in all, and raises
:class:`Garbled` (with a plain reason) on anything else.
"""

import json
import math
import struct

MAX_MESSAGE = 16 << 20   # bytes in one message
MAX_DEPTH = 40
MAX_ITEMS = 1_000_000
_LENGTH = struct.Struct(">I")


class Garbled(ValueError):
    """A message that is not plain data of the expected shape."""


class Opaque:
    """An object the witness could only name (``"a Foo"``): equal to another of the same name."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return type(other) is Opaque and other.text == self.text

    def __hash__(self):
        return hash(("opaque", self.text))

    def __repr__(self):
        return "<%s>" % self.text


def encode(value, depth=0):
    """``value`` as JSON-ready data (see the module docstring)."""
    if depth > MAX_DEPTH:
        return {"o": "a structure nested too deep"}
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if math.isfinite(value) else {"f": repr(value)}
    if kind is list:
        return [encode(v, depth + 1) for v in value]
    if kind is tuple:
        return {"t": [encode(v, depth + 1) for v in value]}
    if kind is dict:
        return {"d": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if kind is Opaque:
        return {"o": value.text}
    return {"o": "a " + kind.__name__}


class _Budget:
    def __init__(self):
        self.items = 0

    def take(self):
        self.items += 1
        if self.items > MAX_ITEMS:
            raise Garbled("more than %d values" % MAX_ITEMS)


def decode(data, depth=0, budget=None):
    """The value :func:`encode` made, from parsed JSON; :class:`Garbled` for anything else."""
    budget = budget or _Budget()
    budget.take()
    if depth > MAX_DEPTH:
        raise Garbled("nested deeper than %d" % MAX_DEPTH)
    kind = type(data)
    if data is None or kind in (bool, int, str, float):
        return data
    if kind is list:
        return [decode(v, depth + 1, budget) for v in data]
    if kind is dict and len(data) == 1:
        (tag, inner), = data.items()
        if tag == "t" and type(inner) is list:
            return tuple(decode(v, depth + 1, budget) for v in inner)
        if tag == "d" and type(inner) is list:
            out = {}
            for pair in inner:
                if type(pair) is not list or len(pair) != 2:
                    raise Garbled("a dict entry that is not a [key, value] pair")
                key = decode(pair[0], depth + 1, budget)
                try:
                    out[key] = decode(pair[1], depth + 1, budget)
                except TypeError:
                    raise Garbled("a dict key that cannot be a key") from None
            return out
        if tag == "f" and inner in ("nan", "inf", "-inf"):
            return float(inner)
        if tag == "o" and type(inner) is str and len(inner) <= 200:
            return Opaque(inner)
    raise Garbled("a value of an unknown shape")


def pack(message):
    """One message as bytes: length, then JSON."""
    body = json.dumps(message, separators=(",", ":"), allow_nan=False).encode()
    return _LENGTH.pack(len(body)) + body


def _receive_exactly(sock, n):
    chunks = []
    while n:
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            raise EOFError("the other side closed the connection")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def receive(sock):
    """One message from ``sock`` as parsed JSON (not yet :func:`decode`-d)."""
    (length,) = _LENGTH.unpack(_receive_exactly(sock, _LENGTH.size))
    if length > MAX_MESSAGE:
        raise Garbled("a message of %d bytes (at most %d)" % (length, MAX_MESSAGE))
    body = _receive_exactly(sock, length)
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise Garbled("not JSON: %s" % type(error).__name__) from None


def _refuse_constant(name):
    raise Garbled("a bare %s (floats that are not finite travel as {\"f\": ...})" % name)

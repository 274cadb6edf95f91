"""The witness: the student's kernel answering the judge's questions about the learner's functions.

When the grader reaches a test cell, it does not send the cell to the kernel. It
sends one line that calls :func:`serve` with the path of a socket the judge
listens on. The kernel connects and answers requests until the judge says it is
done:

* ``{"observe": {"case": ..., "call": ..., "device_of": ...}}``: build the input,
  call the learner's function on it, and answer what happened
  (``observe.observe`` on reftorch, as plain data);
* ``{"observe_all": [observe, ...]}``: the same for several inputs in one
  round trip, answered as ``{"each": [reply, ...]}`` in order, each reply what
  its ``observe`` alone would have answered;
* ``{"call": {...}}``: call a learner's function on plain arguments (the strides
  of a layout, say) and answer its value, or what it raised;
* ``{"story": {"name": ..., "arguments": ..., "functions": {role: name}}}``: play
  a story on reftorch with the learner's functions (``stories.answer``) and answer
  its facts, or what the learner's function raised at which step;
* ``{"done": null}``: return to the notebook.

Everything here runs next to the learner's code, which can replace any of it:
the judge believes nothing it is told, it only compares it with torch. What the
learner's code prints while the judge asks goes to the cell that runs
:func:`serve`; the grader shows it, as plain text, at the top of the test cell.
"""

import socket
import traceback
import warnings

import reftorch

from . import plans, stories
from .observe import clean, is_stub, observe, plain_observations, where
from .readers import ReftorchReader
from .wire import Garbled, decode, encode, pack, receive


def _raised(error):
    """What the learner's function raised, as the judge reads it."""
    return {"raised": {"type": type(error).__name__, "message": clean(error)[:20_000],
                       "where": where(error)[:2_000], "stub": is_stub(error)}}


def answer(namespace, request):
    """The reply to one request (a dict, before :func:`wire.encode` of its values)."""
    if "observe_all" in request:
        return {"each": [_answer_one(namespace, {"observe": asked}) for asked in request["observe_all"]]}
    if "observe" in request:
        asked = request["observe"]
        case = plans.case_of(asked["case"])
        op = plans.call_of(namespace, asked["call"])
        seen = observe(reftorch, ReftorchReader, case, op, asked.get("device_of", "source"))
        return {"seen": encode(plain_observations(seen))}
    if "call" in request:
        op = plans.call_of(namespace, request["call"])
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            try:
                value = op(None)
            except Exception as error:  # what the learner's function raised is the answer
                return _raised(error)
        return {"value": encode(value)}
    if "story" in request:
        return {"told": encode(_story(namespace, request["story"]))}
    raise plans.BadPlan("an unknown request")


def _answer_one(namespace, request):
    """:func:`answer`, or why the witness could not (refused, or failed itself)."""
    try:
        return answer(namespace, request)
    except plans.BadPlan as error:
        return {"refused": str(error)}
    except Exception as error:  # a failure of the witness itself: say what, the judge decides
        return {"failed": "%s: %s" % (type(error).__name__, error),
                "trace": traceback.format_exc(limit=4)[-4000:]}


def _story(namespace, asked):
    """A story's facts, or the step at which the learner's function raised and what it raised."""
    try:
        return {"facts": stories.answer(namespace, dict(asked, arguments=decode(asked["arguments"])),
                                        plans.function_of)}
    except stories.LearnerRaised as raised:
        return dict(_raised(raised.error), step=str(raised.step))
    except stories.UnknownStory as error:
        raise plans.BadPlan(str(error)) from None


def serve(path, namespace):
    """Answer the judge on the socket at ``path`` until it is done; ``namespace`` is the notebook's."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        while True:
            try:
                request = receive(sock)
            except (EOFError, Garbled):
                return
            if not isinstance(request, dict) or "done" in request:
                return
            sock.sendall(pack(_answer_one(namespace, request)))

"""A story asked of the witness: the learner's side of a scenario, played in the student's kernel.

``autograder.witness.stories`` holds the stories (save a view and load it back,
train a model and restore it...). The judge plays torch's side itself; for the
learner's side it sends the story's name, its arguments as plain data and the
learner's functions by name, and reads back the facts: an ordered list of
``[fact, value]`` pairs of plain data, or what the learner's function raised and
at which step. Anything else ends the test (:class:`WitnessFailed`).
"""

from ..witness.stories import LearnerRaised as StepRaised
from ..witness.wire import Opaque, encode
from .learner import WitnessFailed, decoded, raised


def _plain(value, depth=0):
    """Only the plain data a story's facts are made of: no opaque object anywhere."""
    if isinstance(value, Opaque):
        return False
    if isinstance(value, (list, tuple)):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return True


def facts_of(told):
    """The facts of a decoded ``{"facts": [[fact, value], ...]}`` (a dict in their order)."""
    pairs = told.get("facts")
    if not isinstance(pairs, list) or len(pairs) > 10_000:
        raise WitnessFailed("the witness's facts are not a list of [fact, value] pairs")
    facts = {}
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            raise WitnessFailed("the witness's facts are not a list of [fact, value] pairs")
        if pair[0] in facts:
            raise WitnessFailed("the witness told the fact %r twice" % pair[0][:200])
        if not _plain(pair[1]):
            raise WitnessFailed("the witness's fact %r is not plain data" % pair[0][:200])
        facts[pair[0]] = pair[1]
    return facts


def ask_story(name, arguments, functions):
    """The learner's facts of the story ``name`` on ``arguments``; ``functions``: {role:
    LearnerFunction}. What the learner's function raised is raised here as the story's
    ``LearnerRaised(step, error)``."""
    witness = next(iter(functions.values())).witness
    reply = witness.ask({"story": {"name": name, "arguments": encode(arguments),
                                   "functions": {role: f.name for role, f in functions.items()}}})
    told = decoded(reply, "told", "facts")
    if not isinstance(told, dict):
        raise WitnessFailed("the witness's answer does not have the shape of a story's facts")
    if "raised" in told:
        if not isinstance(told.get("step"), str):
            raise WitnessFailed("the witness did not say at which step the learner's function raised")
        raise StepRaised(told["step"][:200], raised(told["raised"]))
    return facts_of(told)


__all__ = ["ask_story", "facts_of"]

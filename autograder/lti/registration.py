"""The tool's registration with one LMS course: where the services are, and the tool's key.

``<state>/lti.json`` holds what the LMS shows when the course's tool is
registered (every key is required)::

    {
      "issuer": "https://lms.example.edu",
      "client_id": "10000000000001",
      "deployment_id": "1",
      "token_url": "https://lms.example.edu/login/oauth2/token",
      "memberships_url": "https://lms.example.edu/api/lti/courses/7/names_and_roles",
      "lineitems_url": "https://lms.example.edu/api/lti/courses/7/line_items"
    }

``memberships_url`` and ``lineitems_url`` are the course's NRPS and AGS
endpoints: every launch from the course carries them (the claims
``.../lti-nrps/claim/namesroleservice`` and ``.../lti-ags/claim/endpoint``).

The tool's private key is ``<state>/lti_tool_key.pem`` (mode 0600), made on
first use. The LMS needs its public half: ``python -m autograder lti-key``
prints it as a JSON Web Key Set, to paste into the tool's registration.
"""

import dataclasses
import json
import os

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from ..course import CourseError, state_dir

REGISTRATION_FILE = "lti.json"
KEY_FILE = "lti_tool_key.pem"
KEY_ID = "autograder-tool-key"


@dataclasses.dataclass(frozen=True)
class Registration:
    issuer: str
    client_id: str
    deployment_id: str
    token_url: str
    memberships_url: str
    lineitems_url: str


def load(config):
    """The course's :class:`Registration`, read from ``<state>/lti.json``."""
    path = state_dir(config, REGISTRATION_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            given = json.load(f)
    except FileNotFoundError:
        raise CourseError("no LTI registration: write %s (autograder/README.md, \"A course in an "
                          "LMS\", lists its keys)" % path) from None
    except ValueError as error:
        raise CourseError("%s is not valid JSON: %s" % (path, error)) from None
    keys = [field.name for field in dataclasses.fields(Registration)]
    missing = [key for key in keys if not isinstance(given.get(key), str) or not given[key]]
    if missing:
        raise CourseError("%s lacks %s" % (path, ", ".join(missing)))
    return Registration(**{key: given[key] for key in keys})


def private_key(config):
    """The tool's RSA private key, made (2048 bits, file mode 0600) the first time it is asked for."""
    path = state_dir(config, KEY_FILE)
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as f:
            f.write(pem)
    with open(path, "rb") as f:
        return serialization.load_pem_private_key(f.read(), password=None)


def public_jwks(config):
    """The tool's public key as a JSON Web Key Set (what the LMS checks the tool's tokens with)."""
    public = jwt.algorithms.RSAAlgorithm.to_jwk(private_key(config).public_key(), as_dict=True)
    public.update(kid=KEY_ID, alg="RS256", use="sig")
    return {"keys": [public]}

"""Which fixtures a collected test asks for, the ones it will get through ``request.getfixturevalue`` too.

A test parametrized with a fixture's name (``@pytest.mark.parametrize("executed", ["executed_notebooks"])``)
and calling ``request.getfixturevalue(executed)`` does not list that fixture among its
``fixturenames``; tests/conftest.py must still put it in the group that sets the fixture up, and
tests/course/conftest.py must still mark it ``runs_chapters``.
"""


def asked_for(item) -> set:
    """The fixtures ``item`` asks for: by name, or by a string parameter naming one."""
    spec = getattr(item, "callspec", None)
    named = {value for value in (spec.params.values() if spec else ()) if isinstance(value, str)}
    return set(getattr(item, "fixturenames", ())) | named

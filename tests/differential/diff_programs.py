"""Program text that several differential test files put in front of their cases.

Imported as ``diff_programs`` (pytest puts this folder on ``sys.path`` for the
tests in it).
"""

import textwrap


def attempt_source(shown: str = "result") -> str:
    """Source of ``attempt(f)``: calls ``f()`` and prints the exception it raised (class | message),
    or ``ok`` and ``shown``, an expression of its ``result``."""
    return f"""
def attempt(f):
    try:
        result = f()
    except Exception as e:
        print(type(e).__name__, "|", e)
    else:
        print("ok", {shown})
"""


def program(body: str) -> str:
    """``body`` (dedented) after ``attempt``, which prints ``ok`` and the result itself."""
    return attempt_source() + textwrap.dedent(body)


def shows(body):
    """A program that prints ``repr`` or the exception of each line of ``body``."""
    lines = []
    for line in textwrap.dedent(body).strip().splitlines():
        lines.append(f"try:\n    print({line!r}, '->', repr({line}))\n"
                     f"except Exception as e:\n    print({line!r}, '!!', type(e).__name__, e)")
    return "\n".join(lines)

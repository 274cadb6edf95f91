"""A small JSON record in the course-state folder: read forgivingly, written whole and private.

What collect learnt from the exchange, and what was sent to an LMS, are such
records. Reading one that is missing, unreadable or not a JSON object gives
``{}``; writing goes through a temporary file (mode 0600: it names students)
that replaces the record in one step, so a crash never leaves half a record.
"""

import json
import os


def read_record(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def write_record(path, record):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)

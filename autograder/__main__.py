"""``python -m autograder ...``: see ``autograder.cli``."""

import sys

from .cli import main

sys.exit(main())

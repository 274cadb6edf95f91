"""``python -m autograder ...``: see ``autograder.cli``.

The command's modules (nbgrader, dask, Jupyter's) are frozen once it is done, so the
interpreter's exit does not walk them (``warmkernels.frozen_imports``).
"""

import sys

from warmkernels.frozen_imports import run_frozen

from .cli import main

sys.exit(run_frozen(main))

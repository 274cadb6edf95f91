"""A learner's first sparse tensor is not tampering.

``reftorch.sparse`` installs the sparse layouts' method tables on ``reftorch.Tensor`` when it is
first imported, which a plain ``import reftorch`` does not do. The grading kernel's tripwire
(``autograder.kernels.kernel_setup``) fingerprints ``reftorch.Tensor``'s methods before the first
cell; if the tables arrived only with a learner's ``to_sparse()``, every method would read as
replaced and the notebook would score 0. So the tripwire imports ``reftorch.sparse`` with the
other trusted modules, and a learner's sparse tensor leaves the fingerprint as it was.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import json
import autograder.kernels.kernel_setup as tripwire
tripwire.install()
before, digest = json.loads(tripwire.report()), tripwire.fingerprint_digest()
import reftorch
s = reftorch.ones(2, 2).to_sparse()
print(s.clone().layout, s.detach().is_sparse)
print(tripwire.differences(before, json.loads(tripwire.report())), tripwire.fingerprint_digest() == digest)
"""


def test_a_learners_first_sparse_tensor_changes_nothing_the_tripwire_watches():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["torch.sparse_coo True", "[] True"], done.stdout

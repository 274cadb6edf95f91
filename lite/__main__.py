"""``python -m lite download`` (online: npm and PyPI only), ``python -m lite build`` (offline)."""

import argparse

from lite import download, site

parser = argparse.ArgumentParser(prog="python -m lite", description=__doc__)
parser.add_argument("step", choices=["download", "build"])
step = parser.parse_args().step
if step == "download":
    download.main()
else:
    print(site.build())

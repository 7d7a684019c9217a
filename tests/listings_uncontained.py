"""The command line, with a chapter's listings run as the user's processes whatever the
machine allows: what an author gets where there is no sandbox, for the tests of what a
listing can still do there (tests/audit/test_listing_sandbox.py).

    python -P tests/listings_uncontained.py audit FILE … --run-listings

The audit's call of the runner is replaced in this process only (a script of its own, one
thread, whose forked workers inherit the replacement).
"""

from __future__ import annotations

import functools
import sys

import proofs.audit
from proofs import cli
from proofs.audit.listings import run_listings

if __name__ == "__main__":
    proofs.audit.run_listings = functools.partial(run_listings, contain=False)
    sys.exit(cli.main(sys.argv[1:]))

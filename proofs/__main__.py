"""`python -m proofs …`: the same as the `proofs` console script."""

import sys

from proofs.cli import main

sys.exit(main())

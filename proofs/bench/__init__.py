"""The readers' bench: `proofs check` judges a reader's own softmax, LayerNorm, attention,
blocks and counts with the clauses of the chapters' elements, each against the exact
value (mpmath) within a bound any backward-stable implementation meets, the reader's code
contained in the listings' sandbox. Modules:

functions   the functions a reader writes, by the package's names and signatures
harness     the script that imports the reader's file and answers calls (in the sandbox)
wire        the messages between the judge and the harness, read strictly
session     the reader's file running: calls and their replies
tolerances  the bounds of any implementation of the definitions' steps
reading     a reply read as an array and compared, every failure in one line
results     the verdict on one clause, with its witness
clauses     a clause: its cases (Hypothesis), its judge, its known slips; the driver
*_clauses   the clauses of each family of functions, in the chapters' order
judging     every clause that takes one of them, run on a file in one contained session
answers     a reader's numeric answers to the counting exercises
testing     the clauses as pytest tests: `from proofs.bench import judge`
pytest_plugin  `pytest --proofs-check=FILE.py` (an entry point, inactive without the option)
slips       a known slip and what recognises it
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`judge` (proofs.bench.testing), imported on first use: pytest and Hypothesis load
    only when a test asks for it."""
    if name == "judge":
        from proofs.bench.testing import judge

        return judge
    raise AttributeError(name)

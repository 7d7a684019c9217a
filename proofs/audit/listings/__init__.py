"""Run a chapter's own listings, as a reader would, and compare what they print with
what the chapter prints.

Nothing runs unless `run_listings` is called. The listings of one chapter run in the
order of the text, each in its own process (`sys.executable`, a clean environment:
PATH, HOME and TMPDIR inside the directory, PYTHONHASHSEED=0, one BLAS/OpenMP thread),
all in one fresh temporary directory that is removed afterwards (on an error or a
KeyboardInterrupt too), each with a wall-clock time limit, an address-space limit and a
limit on the bytes of output read.

File names: a listing is saved under the name the text gives it, else as
`listing_<line>.py`. A `name.py` in the listing's leading comments or in the paragraph
just before it is the listing's own name (「次のコードを kv_cache.py として保存します」)
unless the listing imports `name`: then the text speaks of an earlier file
(「attention.py は前のコード」), which is the latest earlier listing, not yet named, that
defines what the import takes from it. Listings of `earlier_chapters` are saved under
the names their text gives them (「attention.py は第 3 章のコード」), never run.

Output: line by line (aligned, so that a missing or extra line is one mismatch at its
line), token by token (so that columns aligned with spaces do not matter): words
exactly, numbers at the chapter's printed precision (0.8420 stands for ±0.00005), and
numbers both printed and produced below ROUNDOFF as "within a few units of roundoff"
(see ROUNDOFF).
"""

from proofs.audit.listings.comparing import (
    ROUNDOFF,
    OutputComparison,
    agree,
    compare_output,
    compare_run,
)
from proofs.audit.listings.naming import file_names
from proofs.audit.listings.running import ListingRun, run_listings

__all__ = [
    "ROUNDOFF",
    "ListingRun",
    "OutputComparison",
    "agree",
    "compare_output",
    "compare_run",
    "file_names",
    "run_listings",
]

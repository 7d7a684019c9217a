"""Run a chapter's own listings, as a reader would, and compare what they print with
what the chapter prints.

Nothing runs unless `run_listings` is called. The listings of one chapter run in the
order of the text, each in its own process, all in one folder, under one supervisor
(`supervisor.py`): in a sandbox of their own where the machine allows it (`sandbox.py`,
`bubblewrap.py`: no network, no process of the machine, nothing of it but /usr and the
Python installation, read-only, a folder of limited size on a tmpfs), else as the user's
processes in a temporary folder removed afterwards. Either way each has a wall-clock time
limit, an address-space limit, a limit on the bytes of output read and on the size of a
file, all of them a time limit and a limit on their folder's size, and a clean
environment (HOME and TMPDIR inside the folder, PYTHONHASHSEED=0, one BLAS/OpenMP
thread); whatever a listing starts ends with it, and what it says of itself (its error
record, what it prints) is data, read strictly and shown escaped (`record.py`).

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

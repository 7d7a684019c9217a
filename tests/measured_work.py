"""The work (profile events, Python's and built-ins' calls and returns) and the peak
traced memory of evaluating TeX members, measured in a process of its own.

Measured apart from the suite's process on purpose: there, hundreds of earlier tests
leave functions specialised and threads waiting, and CPython 3.11.7 was seen to spin
forever in the first call made after `sys.setprofile` (both xdist workers, every full
run); a fresh interpreter counts only the evaluation's own work.

    python -P tests/measured_work.py < cases.json

reads a JSON list of [reading, tex] ("arithmetic": TexArithmetic(tex, {}).evaluate(),
"symbolic": evaluate(tex, {}, False) with SymPy already used and the caches cleared) and
prints a JSON list of [events, peak bytes, whether NotNumeric was raised], one per case.
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from collections.abc import Callable


def measured(run: Callable[[], object]) -> tuple[int, int, bool]:
    from proofs.tex.arithmetic import NotNumeric

    events = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal events
        events += 1

    raised = False
    tracemalloc.start()
    sys.setprofile(count)
    try:
        run()
    except NotNumeric:
        raised = True
    finally:
        sys.setprofile(None)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return events, peak, raised


def main() -> None:
    from proofs.tex import arithmetic
    from proofs.tex.arithmetic import TexArithmetic, evaluate

    evaluate("d/d", {}, False)  # SymPy's first use in a process, which costs 10^5 events
    out = []
    for reading, tex in json.load(sys.stdin):
        arithmetic._kept_tree.cache_clear()
        arithmetic._kept_outcome.cache_clear()
        arithmetic._cancelling_symbols.cache_clear()
        if reading == "arithmetic":
            out.append(measured(lambda tex=tex: TexArithmetic(tex, {}).evaluate()))
        else:
            out.append(measured(lambda tex=tex: evaluate(tex, {}, False)))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

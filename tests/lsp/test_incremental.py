"""The editor's audit of each version equals an audit of that text in a fresh process,
byte for byte in its JSON: what the audits of earlier versions decided (the relations,
the checks of examples and of changed claims, the reports kept by text) is reused only
where it is what a fresh audit would decide. Hypothesis makes the versions: a seed
chapter edited a character at a time (inserted or deleted anywhere), each version
audited by one Auditor in turn, the last one after an audit of it was stopped halfway (as
a newer version stops it, at a moment Hypothesis picks): what the stopped audit was
computing must leave no trace. The last versions are then audited afresh, each in a
process forked from one that has audited nothing (tests/lsp/fresh_audit.py). The time a
check took, which its detail prints ("passed in 0.03 s"), is the one difference allowed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from places import SEEDS

pytest.importorskip("lsprotocol", reason="needs the editor extra: pip install '.[editor]'")
from proofs.audit.reports.report import Report  # noqa: E402
from proofs.lsp.incremental import Auditor, path_of  # noqa: E402
from proofs.lsp.scheduler import Job, run_stoppable  # noqa: E402
from proofs.lsp.store import Store  # noqa: E402

URI = "file:///chapters/block.txt"
FRESH = Path(__file__).with_name("fresh_audit.py")
TYPED = "0123456789.,=$ x{}\\\n例"  # what an author types: digits, TeX, a line break
_SECONDS = re.compile(r"in \d+\.\d\d s")


@cache
def chapter() -> str:
    path = SEEDS / "002_1f7cf506cffefce0.txt"
    if not path.is_file():
        pytest.skip(f"{path} is not here: the edits are of the block chapter")
    return path.read_text(encoding="utf-8")


def shown(report: Report) -> str:
    """The report's JSON, the checks' times aside."""
    return _SECONDS.sub("in … s", json.dumps(report.to_dict(), ensure_ascii=False))


def fresh(texts: list[str]) -> list[str]:
    asked = json.dumps([[path_of(URI), t] for t in texts])
    done = subprocess.run(
        [sys.executable, str(FRESH)], input=asked, capture_output=True, text=True, check=True
    )
    return [_SECONDS.sub("in … s", said) for said in json.loads(done.stdout)]


edits = st.lists(
    st.tuples(st.floats(0, 1, exclude_max=True), st.sampled_from(TYPED) | st.none()),
    min_size=1,
    max_size=3,
)


def stopped(job: Job, after: float) -> None:
    """Audit the job's version (with an Auditor of its own) and stop it `after` seconds."""
    timer = threading.Timer(after, job.stop, ["superseded"])
    timer.start()
    try:
        run_stoppable(job, Auditor().analyse)
    finally:
        timer.cancel()
        timer.join()


def test_the_editors_audit_of_each_version_equals_a_fresh_audit():
    auditor, store = Auditor(), Store()
    cases: list[tuple[str, str]] = []

    @settings(max_examples=3, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(edits=edits, stop_after=st.floats(0, 0.3))
    def edited(edits, stop_after):
        snapshot = store.open(URI, 0, chapter())
        auditor.analyse(snapshot)
        for version, (where, typed) in enumerate(edits, 1):
            at = int(where * len(snapshot.text))
            text = snapshot.text[:at] + (typed or "") + snapshot.text[at + (typed is None) :]
            snapshot = store.change(URI, version, [text])
            if version == len(edits):
                stopped(Job(snapshot), stop_after)
            analysis = auditor.analyse(snapshot)
        if analysis.report is not None:
            cases.append((snapshot.text, shown(analysis.report)))

    edited()
    assert cases
    texts = [text for text, _ in cases]
    assert [said for _, said in cases] == fresh(texts)

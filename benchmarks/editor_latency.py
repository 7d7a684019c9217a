"""The language server's latency and memory, as an editor meets them, beside their goals.

The server runs as an editor starts it (`python -m proofs lsp`, over pipes) and is sent
what an author's editor sends, on a copy of the block chapter (rendered text, 70 kB):

- **start**: from the process's start to its answer to `initialize`, and from `didOpen`
  to the first diagnostics (goal: ≤ 3 s), the chapter's first audit;
- **edits**: --edits one-character edits (a digit, a letter or a TeX character inserted
  at a random place, or a character deleted), each sent when the diagnostics of the one
  before have arrived, from `didChange` to the diagnostics of that version, the server's
  debounce included (goal: median ≤ 250 ms, 95th percentile ≤ 500 ms);
- **memory**: the server's resident memory every 50 of --soak more such edits (goal: flat,
  ≤ 300 MB);
- **where an audit spends its time**: the checks the first audit in this process runs,
  the slowest three; the audit of an edited version after one of the original, rule by
  rule (proofs.lsp.guard.RULES), and what is left of it when only the report of the same
  text is kept;
- **a long line**: with --long-line N, the audit in this process of the small rendered
  sample with one line of N equalities appended (`$0 = 0$、$1 = 1$、…`), for each N.

Times are printed, never asserted; the load average at the start and the end says how
shared the machine was. Needs the editor extra (pygls, lsprotocol). Run from the
repository root:

    python -m benchmarks.editor_latency [--edits 20] [--soak 500] [--seed 1] [--long-line N ...]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from proofs.book.locations import CHECKOUT_SEEDS

CHAPTER = CHECKOUT_SEEDS / "002_1f7cf506cffefce0.txt"
URI = "file:///chapters/block.txt"
TYPED = "0123456789abcxyz.,=+$\\{}"


def resident_mb(pid: int) -> float:
    """The process's resident memory in MB (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_edit(text: str, rng: random.Random) -> tuple[types.Range, str, str]:
    """A random one-character edit of the text: its range, its new text, the text after."""
    lines = text.split("\n")
    line = rng.randrange(len(lines))
    column = rng.randrange(len(lines[line]) + 1)
    delete = rng.random() < 0.3 and column < len(lines[line])
    typed = "" if delete else rng.choice(TYPED)
    start = types.Position(line, column)
    end = types.Position(line, column + delete)
    lines[line] = lines[line][:column] + typed + lines[line][column + delete :]
    return types.Range(start, end), typed, "\n".join(lines)


class Editor:
    """A client that records when each version's diagnostics arrive."""

    def __init__(self) -> None:
        self.client = LanguageClient("editor-latency", "1")
        self.arrived: dict[int, float] = {}
        self.event = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: types.PublishDiagnosticsParams) -> None:
            if params.uri == URI and params.version is not None:
                self.arrived[params.version] = time.perf_counter()
                self.event.set()

        @self.client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create(params: types.WorkDoneProgressCreateParams) -> None:
            return None

        @self.client.feature(types.PROGRESS)
        def progress(params: types.ProgressParams) -> None:
            return None

    async def version(self, version: int) -> float:
        """The time the diagnostics of `version` arrived (waiting for them)."""
        while version not in self.arrived:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 300)
        return self.arrived[version]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(edits: int, soak: int, seed: int) -> None:
    text = CHAPTER.read_text(encoding="utf-8")
    editor = Editor()
    started = time.perf_counter()
    await editor.client.start_io(sys.executable, "-m", "proofs", "lsp")
    capabilities = types.ClientCapabilities(
        window=types.WindowClientCapabilities(work_done_progress=True)
    )
    await editor.client.initialize_async(types.InitializeParams(capabilities=capabilities))
    editor.client.initialized(types.InitializedParams())
    answered = time.perf_counter()
    print(f"start: initialize answered {answered - started:.2f} s after the process started")
    opened = time.perf_counter()
    editor.client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(URI, "plaintext", 1, text))
    )
    first = await editor.version(1) - opened
    print(f"       first diagnostics {first:.2f} s after didOpen (goal <= 3 s)")
    rng = random.Random(seed)
    version, waits = 1, []
    pid = editor.client._server.pid  # type: ignore[union-attr]
    memory = [(0, resident_mb(pid))]
    for k in range(edits + soak):
        where, typed, text = one_edit(text, rng)
        version += 1
        sent = time.perf_counter()
        editor.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version, URI),
                [types.TextDocumentContentChangePartial(range=where, text=typed)],
            )
        )
        arrived = await editor.version(version)
        if k < edits:
            waits.append(arrived - sent)
        elif (k - edits + 1) % 50 == 0:
            memory.append((k - edits + 1, resident_mb(pid)))
    median, p95 = statistics.median(waits), percentile(waits, 0.95)
    print(
        f"edits: {len(waits)} one-character edits, didChange to diagnostics: median "
        f"{1000 * median:.0f} ms (goal <= 250), 95th percentile {1000 * p95:.0f} ms "
        f"(goal <= 500), slowest {1000 * max(waits):.0f} ms"
    )
    if soak:
        shown = ", ".join(f"{n}: {mb:.0f}" for n, mb in memory)
        print(f"memory: resident MB after N edits: {shown} (goal: flat, <= 300 MB)")
    await editor.client.shutdown_async(None)
    editor.client.exit(None)
    await editor.client.stop()


def by_rule(seed: int) -> None:
    """The audit of an edited version in this process, after the original's, rule by rule."""
    import proofs.audit
    from proofs.book.profiles import load_profile
    from proofs.book.registry import load_all
    from proofs.lsp.guard import RULES
    from proofs.lsp.incremental import Auditor
    from proofs.lsp.store import Store

    load_profile()
    load_all()
    checks: list[tuple[float, str]] = []
    run_check = proofs.audit.rules.claims.run_check

    def timed_check(element, _run=run_check):
        start = time.perf_counter()
        try:
            return _run(element)
        finally:
            checks.append((time.perf_counter() - start, element.id))

    proofs.audit.rules.claims.run_check = timed_check  # type: ignore[assignment]
    spent = dict.fromkeys(RULES, 0.0)
    for name in RULES:
        rule = getattr(proofs.audit, name)

        def timed(*args, _rule=rule, _name=name, **kwargs):
            start = time.perf_counter()
            try:
                return _rule(*args, **kwargs)
            finally:
                spent[_name] += time.perf_counter() - start

        setattr(proofs.audit, name, timed)
    text = CHAPTER.read_text(encoding="utf-8")
    auditor, store = Auditor(), Store()
    cold = auditor.analyse(store.open(URI, 1, text)).seconds
    first_checks = sorted(checks, reverse=True)
    rng = random.Random(seed)
    spent = dict.fromkeys(RULES, 0.0)
    times, rounds, edited = [], 20, text
    for version in range(2, rounds + 2):
        _, _, edited = one_edit(text, rng)
        times.append(auditor.analyse(store.open(URI, version, edited)).seconds)
    again = auditor.analyse(store.open(URI, 99, edited)).seconds
    print(
        f"audit in this process: the first {cold:.2f} s; after an edit, median "
        f"{1000 * statistics.median(times):.0f} ms; a text audited before "
        f"{1000 * again:.1f} ms"
    )
    slowest = ", ".join(f"{name} {seconds:.2f} s" for seconds, name in first_checks[:3])
    print(
        f"  the first ran {len(first_checks)} checks in "
        f"{sum(t for t, _ in first_checks):.2f} s; the slowest: {slowest}"
    )
    print("  by rule, per edited version (ms):")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1])[:10]:
        print(f"    {name:24} {1000 * seconds / rounds:6.1f}")


def long_lines(counts: list[int]) -> None:
    """The audit in this process of the small sample with one line of N equalities."""
    from proofs.audit import audit_document
    from proofs.reader import parse

    sample = Path(__file__).resolve().parents[1] / "tests" / "samples" / "chapter.txt"
    text = sample.read_text(encoding="utf-8")
    for count in counts:
        line = "、".join(f"${k} = {k}$" for k in range(count))
        document = parse(f"{text}\n{line}\n", "long.txt")
        start = time.perf_counter()
        audit_document(document)
        print(f"a line of {count} equalities: audited in {time.perf_counter() - start:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--soak", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long-line", type=int, nargs="*", default=[], metavar="N")
    args = parser.parse_args()
    if not CHAPTER.is_file():
        raise SystemExit(f"{CHAPTER}: not here; the benchmark edits the block chapter")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    by_rule(args.seed)
    asyncio.run(measure(args.edits, args.soak, args.seed))
    long_lines(args.long_line)
    print(f"at the end: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

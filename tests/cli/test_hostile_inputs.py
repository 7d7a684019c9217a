"""What a chapter, or a careless command line, can do to the package: a catalogue of
cases over new-chapter, the audit and its baseline, sync, figures, verify and the
output streams. Each case states the exit code, the one line that says why (on stderr
for a refusal, in the report for a finding), and that every file it was given is
unchanged unless it asked for that file to be written. docs/hostile-inputs.md is the
catalogue as a table, regenerated from CASES (`python tests/cli/test_hostile_inputs.py`)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from proofs import cli

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
ATTENTION = SEEDS / "000_ce182fefa314a82b.txt"
BLOCK = SEEDS / "002_1f7cf506cffefce0.txt"
TABLE = ROOT / "docs" / "hostile-inputs.md"
PROGRESS = re.compile(r"\[\d+/\d+\] ")  # verify's progress lines, not its message

SMALL = """\
# 見本の章：三つ目

## 1. 定義

<Definition id="def-sample" title="見本">

$f(x) := 2x$ と定める。

</Definition>
"""
# SMALL with an id of the self-attention chapter, by which the audit knows the chapter
KNOWN = SMALL.replace("def-sample", "def-softmax")


@dataclass(frozen=True)
class Case:
    """One input and the package's answer to it. `files`: the files the case is given,
    by name in its folder (text, or a callable that makes the file at a path); `command`
    with {dir} for that folder; `out`: the stream the message is on ("err" for one line
    on stderr, "out" for a line of the report); `writes`: the files it may change or
    create; `stdout`: "closed" or "full" to run with standard output so."""

    surface: str
    name: str
    command: tuple[str, ...]
    code: int
    message: str
    files: dict[str, str | Callable[[Path], None]] = field(default_factory=dict)
    out: str = "err"
    writes: tuple[str, ...] = ()
    stdout: str = ""


def seed(path: Path, *edits: tuple[str, str]) -> Callable[[Path], None]:
    """A copy of a seed chapter with each (old, new) replaced once."""

    def make(target: Path) -> None:
        text = path.read_text(encoding="utf-8")
        for old, new in edits:
            assert old in text, old
            text = text.replace(old, new, 1)
        target.write_text(text, encoding="utf-8")

    make.seed = path  # type: ignore[attr-defined]  # what the case needs to be run
    return make


def fifo(target: Path) -> None:
    os.mkfifo(target)


def folder(target: Path) -> None:
    target.mkdir()


def raw(data: bytes) -> Callable[[Path], None]:
    return lambda target: target.write_bytes(data)


def report_of(*elements: dict) -> str:
    return json.dumps({"elements": list(elements)})


SOFTMAX = {
    "id": "def-softmax",
    "number": "定義 2.2",
    "chapter": "self-attention",
    "result": "passed",
    "findings": [],
}
DEEP = "[" * 100_000 + "]" * 100_000
JACOBIAN_END = "\\le 1 - \\max_k \\sigma_k$。\n\n</Proposition>"  # 命題 3.2's last lines
PARAMETERS = "$$\n4d^2 + 4d\n$$"
ROW = "| 64 | 1,048,576 | 524,288 | 1,572,864 | | |"
HEADER = (
    "| $n$ | $4nd^2$ | $2n^2d$ | 合計 | $2n^2d$ の前の行との比 | 合計の前の行との比 |\n"
    "|---|---|---|---|---|---|"
)
ROWS = "\n".join(
    [
        ROW,
        "| 128 | 2,097,152 | 2,097,152 | 4,194,304 | 4.00 | 2.67 |",
        "| 256 | 4,194,304 | 8,388,608 | 12,582,912 | 4.00 | 3.00 |",
        "| 512 | 8,388,608 | 33,554,432 | 41,943,040 | 4.00 | 3.33 |",
        "| 1024 | 16,777,216 | 134,217,728 | 150,994,944 | 4.00 | 3.60 |",
    ]
)
WORDS = "\tエンコーダの層\tデコーダの層（エンコーダ・デコーダ型）\tデコーダのみのモデルの層"


LUA_WRITE = r"\directlua{io.open('/tmp/x','w'):write('x')}"  # writes under plain lualatex
NOT_MATH = "\\%s is not a command of the edition's math"


def hostile_title(title: str) -> Callable[[Path], None]:
    return lambda target: target.write_text(SMALL.replace("三つ目", title), encoding="utf-8")


CASES = [
    # new-chapter: chapter text becomes data in the Python it writes, never code
    Case(
        "new-chapter",
        "title-with-triple-quotes-and-code",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        0,
        "wrote {dir}/third with 1 unchecked elements",
        {"c.mdx": hostile_title('"""; import os; os.system("touch HACKED") #')},
        writes=("third",),
    ),
    Case(
        "new-chapter",
        "title-with-tex",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        0,
        "wrote {dir}/third",
        {"c.mdx": hostile_title(r"$\xi$ と \underline{x} \N{y}")},
        writes=("third",),
    ),
    Case(
        "new-chapter",
        "title-with-a-trailing-backslash",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        0,
        "wrote {dir}/third",
        {"c.mdx": hostile_title("終わり\\")},
        writes=("third",),
    ),
    Case(
        "new-chapter",
        "key-upper-case",
        ("new-chapter", "{dir}/c.mdx", "--key", "KV", "--out", "{dir}"),
        2,
        "--key must be lower-case words joined by - or _, got 'KV'",
        {"c.mdx": SMALL},
    ),
    Case(
        "new-chapter",
        "key-a-python-keyword",
        ("new-chapter", "{dir}/c.mdx", "--key", "import", "--out", "{dir}"),
        2,
        "gives the Python keyword 'import' as package name",
        {"c.mdx": SMALL},
    ),
    Case(
        "new-chapter",
        "key-empty",
        ("new-chapter", "{dir}/c.mdx", "--key", "", "--out", "{dir}"),
        2,
        "--key must be lower-case",
        {"c.mdx": SMALL},
    ),
    Case(
        "new-chapter",
        "package-exists",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "{dir}/third: exists; choose another --out or --key",
        {"c.mdx": SMALL, "third": folder},
    ),
    Case(
        "new-chapter",
        "out-is-a-file",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}/c.mdx"),
        2,
        "new-chapter:",
        {"c.mdx": SMALL},
    ),
    Case(
        "new-chapter",
        "id-starting-with-a-digit",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "c.mdx:5: the id '1st' of 定義 1.1 cannot name a check",
        {"c.mdx": SMALL.replace("def-sample", "1st")},
    ),
    Case(
        "new-chapter",
        "id-a-python-keyword",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "c.mdx:5: the id 'class' of 定義 1.1 cannot name a check",
        {"c.mdx": SMALL.replace("def-sample", "class")},
    ),
    Case(
        "new-chapter",
        "id-twice",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "c.mdx:11: id 'def-sample' is the id of line 5",
        {"c.mdx": SMALL + '\n<Lemma id="def-sample" title="x">\n\nA.\n\n</Lemma>\n'},
    ),
    Case(
        "new-chapter",
        "id-of-another-chapter",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "c.mdx:5: id 'def-softmax' is registered by another chapter",
        {"c.mdx": SMALL.replace("def-sample", "def-softmax")},
    ),
    Case(
        "new-chapter",
        "chapter-missing",
        ("new-chapter", "{dir}/absent.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "absent.mdx: no such file",
    ),
    Case(
        "new-chapter",
        "chapter-a-fifo",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "c.mdx: not a regular file, expected a chapter file",
        {"c.mdx": fifo},
    ),
    Case(
        "new-chapter",
        "chapter-not-utf8",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "c.mdx:1: not UTF-8 text (byte 2)",
        {"c.mdx": raw(b"# \xff\n")},
    ),
    Case(
        "new-chapter",
        "chapter-neither-form",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--out", "{dir}"),
        2,
        "neither form of chapter",
        {"c.mdx": "# T\n\nprose only\n"},
    ),
    # the audit's baseline: written only where asked, never over an input
    Case(
        "audit-baseline",
        "write-over-the-chapter",
        ("audit", "{dir}/b.txt", "--write-baseline", "{dir}/b.txt"),
        2,
        "{dir}/b.txt: is {dir}/b.txt, an input of this command",
        {"b.txt": seed(BLOCK)},
    ),
    Case(
        "audit-baseline",
        "write-over-the-chapter-with-force",
        ("audit", "{dir}/b.txt", "--write-baseline", "{dir}/b.txt", "--force"),
        2,
        "an input of this command",
        {"b.txt": seed(BLOCK)},
    ),
    Case(
        "audit-baseline",
        "write-over-a-link-to-the-chapter",
        ("audit", "{dir}/b.txt", "--write-baseline", "{dir}/link.json", "--force"),
        2,
        "an input of this command",
        {"b.txt": seed(BLOCK), "link.json": lambda t: t.symlink_to(t.parent / "b.txt")},
    ),
    Case(
        "audit-baseline",
        "write-over-an-existing-file",
        ("audit", "{dir}/b.txt", "--write-baseline", "{dir}/old.json"),
        2,
        "{dir}/old.json: exists; pass --force to replace it",
        {"b.txt": seed(BLOCK), "old.json": '{"accepted": []}'},
    ),
    Case(
        "audit-baseline",
        "write-with-force",
        ("audit", "{dir}/b.txt", "--write-baseline", "{dir}/old.json", "--force"),
        0,
        "wrote 2 accepted mismatches to {dir}/old.json",
        {"b.txt": seed(BLOCK), "old.json": '{"accepted": []}'},
        writes=("old.json",),
    ),
    Case(
        "audit-baseline",
        "write-into-a-missing-folder",
        ("audit", "{dir}/b.txt", "--write-baseline", "{dir}/no/b.json"),
        2,
        "directory {dir}/no does not exist",
        {"b.txt": seed(BLOCK)},
    ),
    Case(
        "audit-baseline",
        "read-missing",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/none.json"),
        2,
        "none.json: no such file, expected a baseline file",
        {"b.txt": seed(BLOCK)},
    ),
    Case(
        "audit-baseline",
        "read-a-folder",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/f"),
        2,
        "f: is a directory, expected a baseline file",
        {"b.txt": seed(BLOCK), "f": folder},
    ),
    Case(
        "audit-baseline",
        "read-a-fifo",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/p"),
        2,
        "p: not a regular file, expected a baseline file",
        {"b.txt": seed(BLOCK), "p": fifo},
    ),
    Case(
        "audit-baseline",
        "read-not-json",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/x.json"),
        2,
        "x.json:1: not JSON",
        {"b.txt": seed(BLOCK), "x.json": "{accepted"},
    ),
    Case(
        "audit-baseline",
        "read-nested-too-deep",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/x.json"),
        2,
        "x.json: JSON nested too deeply, expected a baseline file",
        {"b.txt": seed(BLOCK), "x.json": DEEP},
    ),
    Case(
        "audit-baseline",
        "read-a-string-for-the-list",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/x.json"),
        2,
        'x.json: expected {"accepted": [...]}',
        {"b.txt": seed(BLOCK), "x.json": '{"accepted": "all"}'},
    ),
    Case(
        "audit-baseline",
        "read-an-entry-of-numbers",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/x.json"),
        2,
        'x.json: expected {"accepted": [...]}',
        {
            "b.txt": seed(BLOCK),
            "x.json": json.dumps(
                {"accepted": [{"chapter": 1, "section": 2, "element": 3, "found": 4}]}
            ),
        },
    ),
    Case(
        "audit-baseline",
        "read-a-list",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/x.json"),
        2,
        'x.json: expected {"accepted": [...]}',
        {"b.txt": seed(BLOCK), "x.json": "[]"},
    ),
    Case(
        "audit-baseline",
        "read-latin1",
        ("audit", "{dir}/b.txt", "--baseline", "{dir}/x.json"),
        2,
        "x.json: not UTF-8 text",
        {"b.txt": seed(BLOCK), "x.json": raw(b'{"\xe9": 1}')},
    ),
    # the audit of a chapter: structure defects are findings at their line
    Case(
        "audit",
        "element-never-closed",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        'c.mdx:5:1: structure: <Definition id="def-softmax" title="見本"> — <Definition> is '
        "never closed with </Definition>",
        {"c.mdx": KNOWN.replace("</Definition>\n", "")},
        out="out",
    ),
    Case(
        "audit",
        "element-closed-by-the-next",
        ("audit", "{dir}/a.mdx", "--quiet"),
        1,
        "<Proposition> is not closed before <Proof> at line",
        {"a.mdx": seed(ATTENTION, (JACOBIAN_END, JACOBIAN_END.removesuffix("</Proposition>")))},
        out="out",
    ),
    Case(
        "audit",
        "closing-tag-of-nothing",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        "</Definition> closes no element",
        {"c.mdx": KNOWN + "\n</Definition>\n"},
        out="out",
    ),
    Case(
        "audit",
        "closed-by-another-kind",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        "<Definition> is not closed before </Lemma> at line 9",
        {"c.mdx": KNOWN.replace("</Definition>", "</Lemma>")},
        out="out",
    ),
    Case(
        "audit",
        "dollar-without-its-pair",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        "$ has no closing $ on its line",
        {"c.mdx": KNOWN.replace("$ と定める", " と定める")},
        out="out",
    ),
    Case(
        "audit",
        "display-math-never-closed",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        "$$ is not closed before the file ends",
        {"c.mdx": KNOWN + "\n$$\nx = 1\n"},
        out="out",
    ),
    Case(
        "audit",
        "table-with-a-column-more",
        ("audit", "{dir}/a.mdx", "--quiet"),
        1,
        "the table has 7 columns, the regenerated attention-complexity table 6",
        {
            "a.mdx": seed(
                ATTENTION,
                (HEADER, HEADER.replace("比 |\n", "比 | 余り |\n") + "---|"),
                *((r, r + " 1 |") for r in ROWS.split("\n")),
            )
        },
        out="out",
    ),
    Case(
        "audit",
        "table-with-a-column-less",
        ("audit", "{dir}/a.mdx", "--quiet"),
        1,
        "without its 合計の前の行との比",
        {
            "a.mdx": seed(
                ATTENTION,
                *((r, r.rsplit("|", 2)[0] + "|") for r in (HEADER + "\n" + ROWS).split("\n")),
            )
        },
        out="out",
    ),
    Case(
        "audit",
        "table-header-without-rows",
        ("audit", "{dir}/a.mdx", "--quiet"),
        1,
        "the table has a header and no rows; the regenerated attention-complexity table has 5",
        {"a.mdx": seed(ATTENTION, (ROWS + "\n", ""))},
        out="out",
    ),
    Case(
        "audit",
        "table-of-words-without-rows",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        "the table has a header and no rows",
        {"c.mdx": KNOWN + "\n| a | b |\n|---|---|\n"},
        out="out",
    ),
    Case(
        "audit",
        "count-polynomial-factored",
        ("audit", "{dir}/a.mdx", "--quiet"),
        0,
        "a.mdx: 0 mismatches",
        {"a.mdx": seed(ATTENTION, (PARAMETERS, "$$\n4d(d + 1)\n$$"))},
        out="out",
    ),
    Case(
        "audit",
        "count-polynomial-garbled",
        ("audit", "{dir}/a.mdx", "--quiet"),
        1,
        "a.mdx:537:1: claim: $4d^2 + 4d$ — 命題 7.1 prop-attention-parameters: the check proves "
        "$4d^2 + 4d$, which the chapter no longer states (closest: $x^{{$)",
        {"a.mdx": seed(ATTENTION, (PARAMETERS, "$$\nx^{{\n$$"))},
        out="out",
    ),
    Case(
        "audit",
        "count-polynomial-wrong",
        ("audit", "{dir}/a.mdx", "--quiet"),
        1,
        "the check fails on the chapter's $4d^2 + 5d$",
        {"a.mdx": seed(ATTENTION, (PARAMETERS, "$$\n4d^2 + 5d\n$$"))},
        out="out",
    ),
    Case(
        "audit",
        "row-with-a-cell-more",
        ("audit", "{dir}/c.mdx"),
        2,
        "c.mdx:13: table row has 3 cells, its header has 2",
        {"c.mdx": KNOWN + "\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n"},
    ),
    Case(
        "audit",
        "code-fence-never-closed",
        ("audit", "{dir}/c.mdx"),
        2,
        "c.mdx:11: code fence ``` is never closed",
        {"c.mdx": SMALL + "\n```python\nx = 1\n"},
    ),
    Case(
        "audit",
        "element-without-id",
        ("audit", "{dir}/c.mdx"),
        2,
        "c.mdx:5: <Definition> has no id",
        {"c.mdx": SMALL.replace(' id="def-sample"', "")},
    ),
    Case(
        "audit",
        "chapter-a-fifo",
        ("audit", "{dir}/c.mdx"),
        2,
        "c.mdx: not a regular file, expected a chapter file",
        {"c.mdx": fifo},
    ),
    Case(
        "audit",
        "chapter-a-device",
        ("audit", "/dev/zero"),
        2,
        "/dev/zero: not a regular file, expected a chapter file",
    ),
    Case(
        "audit",
        "chapter-a-folder",
        ("audit", "{dir}/f"),
        2,
        "f: is a directory, expected a chapter file",
        {"f": folder},
    ),
    Case(
        "audit",
        "chapter-empty",
        ("audit", "{dir}/c.mdx"),
        2,
        "c.mdx:1: empty file",
        {"c.mdx": "\n\n"},
    ),
    Case(
        "audit",
        "chapter-larger-than-any",
        ("audit", "{dir}/c.mdx"),
        2,
        "c.mdx: larger than 16 MiB",
        {"c.mdx": lambda t: t.write_bytes(b"x" * (16 * 2**20 + 1))},
    ),
    Case(
        "audit",
        "stdout-closed",
        ("audit", "{dir}/b.txt"),
        2,
        "cannot write to standard output (standard output is closed)",
        {"b.txt": seed(BLOCK)},
        stdout="closed",
    ),
    Case(
        "audit",
        "stdout-full",
        ("audit", "{dir}/b.txt", "--json"),
        2,
        "cannot write to standard output (No space left on device)",
        {"b.txt": seed(BLOCK)},
        stdout="full",
    ),
    # sync: in sync only when the audit has nothing to say of its regions and structure
    Case(
        "sync",
        "pristine",
        ("sync", "{dir}/b.txt"),
        0,
        "{dir}/b.txt: in sync",
        {"b.txt": seed(BLOCK)},
    ),
    Case(
        "sync",
        "a-table-cell-drifted",
        ("sync", "{dir}/b.txt"),
        1,
        "would rewrite {dir}/b.txt: 1 region drifted",
        {"b.txt": seed(BLOCK, ("38,597,376", "38,597,377"))},
    ),
    Case(
        "sync",
        "write-a-drifted-cell",
        ("sync", "{dir}/b.txt", "--write"),
        0,
        "rewrote {dir}/b.txt: 1 region drifted",
        {"b.txt": seed(BLOCK, ("38,597,376", "38,597,377"))},
        writes=("b.txt",),
    ),
    Case(
        "sync",
        "element-never-closed",
        ("sync", "{dir}/a.mdx"),
        1,
        "not in sync, 1 problem to fix by hand: line 110: <Proposition> is not closed",
        {"a.mdx": seed(ATTENTION, (JACOBIAN_END, JACOBIAN_END.removesuffix("</Proposition>")))},
    ),
    Case(
        "sync",
        "element-never-closed-with-write",
        ("sync", "{dir}/a.mdx", "--write"),
        1,
        "not in sync, 1 problem to fix by hand",
        {"a.mdx": seed(ATTENTION, (JACOBIAN_END, JACOBIAN_END.removesuffix("</Proposition>")))},
    ),
    Case(
        "sync",
        "dollar-without-its-pair",
        ("sync", "{dir}/c.mdx"),
        1,
        "not in sync, 1 problem to fix by hand: line 7: $ has no closing $ on its line",
        {"c.mdx": SMALL.replace("$ と定める", " と定める")},
    ),
    Case(
        "sync",
        "unpaired-dollar-in-a-seed",
        ("sync", "{dir}/b.txt"),
        1,
        "$ has no closing $ on its line",
        {"b.txt": seed(BLOCK, ("$\\sigma = 1.8708$", "$\\sigma = 1.8708"))},
    ),
    Case(
        "sync",
        "table-with-a-column-more",
        ("sync", "{dir}/a.mdx"),
        1,
        "would rewrite {dir}/a.mdx: 1 region drifted: table attention-complexity (line 581)",
        {
            "a.mdx": seed(
                ATTENTION,
                (HEADER, HEADER.replace("比 |\n", "比 | 余り |\n") + "---|"),
                *((r, r + " 1 |") for r in ROWS.split("\n")),
            )
        },
    ),
    Case(
        "sync",
        "table-header-without-rows",
        ("sync", "{dir}/a.mdx"),
        1,
        "1 region drifted: table attention-complexity (line 581)",
        {"a.mdx": seed(ATTENTION, (ROWS + "\n", ""))},
    ),
    Case(
        "sync",
        "table-of-words-without-rows",
        ("sync", "{dir}/b.txt"),
        1,
        "the table has a header and no rows",
        {"b.txt": seed(BLOCK, (WORDS, WORDS + "\n"), ("\n注意 8.2", "\n\n注意 8.2"))},
    ),
    Case(
        "sync", "chapter-a-fifo", ("sync", "{dir}/c.mdx"), 2, "not a regular file", {"c.mdx": fifo}
    ),
    Case("sync", "chapter-a-folder", ("sync", "{dir}/f"), 2, "f: is a directory", {"f": folder}),
    Case(
        "sync",
        "chapter-not-utf8",
        ("sync", "{dir}/c.mdx"),
        2,
        "not UTF-8 text",
        {"c.mdx": raw(b"# \xff\n")},
    ),
    Case(
        "sync",
        "diff-to-a-full-stream",
        ("sync", "{dir}/b.txt"),
        2,
        "cannot write to standard output (No space left on device)",
        {"b.txt": seed(BLOCK, ("38,597,376", "38,597,377"))},
        stdout="full",
    ),
    # figures: a report is checked before anything is drawn; outputs never over inputs
    Case(
        "figures",
        "results-nested-too-deep",
        ("figures", "map", "--results", "{dir}/r.json", "--out", "{dir}"),
        2,
        "r.json: JSON nested too deeply, expected a report of verify --json",
        {"r.json": DEEP},
    ),
    Case(
        "figures",
        "results-not-json",
        ("figures", "map", "--results", "{dir}/r.json", "--out", "{dir}"),
        2,
        "r.json:1: not JSON",
        {"r.json": "{"},
    ),
    Case(
        "figures",
        "results-numbers-for-strings",
        ("figures", "map", "--results", "{dir}/r.json", "--out", "{dir}"),
        2,
        "not a report of verify --json",
        {"r.json": report_of({**SOFTMAX, "number": 3})},
    ),
    Case(
        "figures",
        "results-findings-not-a-list",
        ("figures", "map", "--results", "{dir}/r.json", "--out", "{dir}"),
        2,
        "not a report of verify --json",
        {"r.json": report_of({**SOFTMAX, "findings": 1})},
    ),
    Case(
        "figures",
        "results-chapter-a-list",
        ("figures", "map", "--results", "{dir}/r.json", "--out", "{dir}"),
        2,
        "not a report of verify --json",
        {"r.json": report_of({**SOFTMAX, "chapter": ["x"]})},
    ),
    Case(
        "figures",
        "results-of-the-other-chapter",
        (
            "figures",
            "map",
            "--chapter",
            "transformer-block",
            "--results",
            "{dir}/r.json",
            "--out",
            "{dir}",
        ),
        2,
        "the report has no element of chapter transformer-block",
        {"r.json": report_of(SOFTMAX)},
    ),
    Case(
        "figures",
        "results-an-unknown-result",
        (
            "figures",
            "map",
            "--chapter",
            "self-attention",
            "--results",
            "{dir}/r.json",
            "--out",
            "{dir}",
        ),
        2,
        "result must be one of",
        {"r.json": report_of({**SOFTMAX, "result": "bogus"})},
    ),
    Case(
        "figures",
        "results-a-fifo",
        ("figures", "map", "--results", "{dir}/r.json", "--out", "{dir}"),
        2,
        "r.json: not a regular file",
        {"r.json": fifo},
    ),
    Case(
        "figures",
        "results-a-folder",
        ("figures", "map", "--results", "{dir}/r", "--out", "{dir}"),
        2,
        "r: is a directory",
        {"r": folder},
    ),
    Case(
        "figures",
        "results-missing",
        ("figures", "map", "--results", "{dir}/r.json", "--out", "{dir}"),
        2,
        "r.json: no such file",
    ),
    Case(
        "figures",
        "output-over-the-results",
        (
            "figures",
            "map",
            "--chapter",
            "self-attention",
            "--results",
            "{dir}/map-self-attention.svg",
            "--out",
            "{dir}",
            "--force",
        ),
        2,
        "an input of this command",
        {"map-self-attention.svg": report_of(SOFTMAX)},
    ),
    Case(
        "figures",
        "output-exists",
        ("figures", "gelu", "--out", "{dir}"),
        2,
        "gelu.svg: exists; pass --force to replace it",
        {"gelu.svg": "<svg/>"},
    ),
    Case(
        "figures",
        "out-a-file",
        ("figures", "gelu", "--out", "{dir}/f"),
        2,
        "f: is not a directory",
        {"f": "x"},
    ),
    Case(
        "figures",
        "unknown-figure",
        ("figures", "gleu", "--out", "{dir}"),
        2,
        "unknown figure 'gleu'; nearest: gelu",
    ),
    Case(
        "figures",
        "unknown-chapter",
        ("figures", "map", "--chapter", "kv", "--out", "{dir}"),
        2,
        "no chapter 'kv'",
    ),
    # verify and the other commands' streams
    Case("verify", "jobs-zero", ("verify", "def-softmax", "--jobs", "0"), 2, "argument --jobs"),
    Case(
        "verify", "jobs-negative", ("verify", "def-softmax", "--jobs", "-3"), 2, "argument --jobs"
    ),
    Case(
        "verify",
        "jobs-not-a-number",
        ("verify", "def-softmax", "--jobs", "many"),
        2,
        "argument --jobs",
    ),
    Case(
        "verify",
        "unknown-id",
        ("verify", "def-sofmax"),
        2,
        "no element matches 'def-sofmax'; nearest: def-softmax",
    ),
    Case(
        "verify",
        "unknown-profile",
        ("verify", "def-softmax", "--profile", "fast"),
        2,
        "argument --profile",
    ),
    Case(
        "verify",
        "json-to-a-closed-stdout",
        ("verify", "def-softmax", "--json"),
        2,
        "cannot write to standard output (standard output is closed)",
        stdout="closed",
    ),
    Case(
        "verify",
        "json-to-a-full-stream",
        ("verify", "def-softmax", "--json"),
        2,
        "cannot write to standard output (No space left on device)",
        stdout="full",
    ),
    Case(
        "tables",
        "list-to-a-full-stream",
        ("tables", "--list"),
        2,
        "cannot write to standard output (No space left on device)",
        stdout="full",
    ),
    Case(
        "tables",
        "out-exists",
        ("tables", "attention-complexity", "--out", "{dir}/t.md"),
        2,
        "t.md: exists; pass --force to replace it",
        {"t.md": "kept"},
    ),
    Case(
        "latex",
        "out-exists",
        ("latex", "--out", "{dir}/f.tex"),
        2,
        "f.tex: exists; pass --force to replace it",
        {"f.tex": "kept"},
    ),
    Case(
        "latex",
        "out-under-a-file",
        ("latex", "--out", "{dir}/f.tex/x.tex", "--force"),
        2,
        "directory {dir}/f.tex does not exist",
        {"f.tex": "kept"},
    ),
    # the print edition: a chapter's text reaches the LaTeX as data, a formula only through
    # the allow-list of the chapters' math; what is not printed as written is said, by line
    *(
        Case(
            "latex",
            name,
            ("latex", "--chapter", "{dir}/c.mdx", "--out", "{dir}/c.tex"),
            0,
            message,
            {"c.mdx": SMALL.replace(old, new)},
            writes=("c.tex",),
        )
        for name, old, new, message in [
            (
                "directlua-in-a-formula",
                "$f(x) := 2x$",
                LUA_WRITE.join("$$"),
                f"{{dir}}/c.mdx:7: ${LUA_WRITE}$ is printed as text: {NOT_MATH % 'directlua'}",
            ),
            (
                "directlua-in-the-title",
                "三つ目",
                LUA_WRITE,
                "wrote {dir}/c.tex",
            ),
            (
                "directlua-in-a-formula-of-the-title",
                "三つ目",
                LUA_WRITE.join("$$"),
                f"{{dir}}/c.mdx:1: ${LUA_WRITE}$ is printed as text: {NOT_MATH % 'directlua'}",
            ),
            (
                "directlua-in-a-formula-of-an-element-title",
                'title="見本"',
                f'title="${LUA_WRITE}$"',
                f"{{dir}}/c.mdx:5: ${LUA_WRITE}$ is printed as text: {NOT_MATH % 'directlua'}",
            ),
            (
                "directlua-in-a-table-cell",
                "</Definition>\n",
                f"</Definition>\n\n| a | b |\n|---|---|\n| {LUA_WRITE} | ${LUA_WRITE}$ |\n",
                f"{{dir}}/c.mdx:13: ${LUA_WRITE}$ is printed as text: {NOT_MATH % 'directlua'}",
            ),
            (
                "caret-notation-in-a-formula",
                "$f(x) := 2x$",
                "$^^5cinput{/etc/hostname}$",
                "c.mdx:7: $^^5cinput{/etc/hostname}$ is printed as text: ^^, TeX's caret "
                "notation for a character",
            ),
            (
                "input-if-file-exists-in-a-formula",
                "$f(x) := 2x$",
                r"$\InputIfFileExists{/etc/hostname}{}{}$",
                NOT_MATH % "InputIfFileExists",
            ),
            ("enddocument-in-a-formula", "2x$", r"2x \enddocument$", NOT_MATH % "enddocument"),
            ("endinput-in-a-formula", "2x$", r"2x \endinput$", NOT_MATH % "endinput"),
            (
                "begincsname-in-a-formula",
                "2x$",
                r"2x \begincsname enddocument\endcsname$",
                NOT_MATH % "begincsname",
            ),
            (
                "del-in-prose",
                "と定める",
                "と\x7f定める",
                "c.mdx:7: U+007F: no glyph, printed as code point",
            ),
            (
                "nul-in-prose",
                "と定める",
                "と\x00定める",
                "c.mdx:7: U+0000: no glyph, printed as code point",
            ),
            (
                "escape-and-bidi-override-in-the-title",
                "三つ目",
                "\x1b[2J\u202e",
                "c.mdx:1: U+001B, U+202E: no glyph, printed as code point",
            ),
        ]
    ),
    Case(
        "latex",
        "line-longer-than-tex-reads",
        ("latex", "--chapter", "{dir}/c.mdx", "--out", "{dir}/c.tex"),
        2,
        "c.mdx:7: a line of 250,014 characters; the print edition sets lines of up to 5,000",
        {"c.mdx": SMALL.replace("と定める", "\\" * 250_000)},
    ),
]


def digests(folder: Path) -> dict[str, str]:
    """Every entry of the folder by name: a file's SHA-256, a link's target, a FIFO or a
    folder by kind (a FIFO is never opened)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            out[name] = f"-> {os.readlink(path)}"
        elif path.is_fifo():
            out[name] = "fifo"
        elif path.is_dir():
            out[name] = "folder"
        else:
            out[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def prepare(case: Case, folder: Path) -> None:
    """Make the case's files in `folder`."""
    for name, content in case.files.items():
        target = folder / name
        if callable(content):
            content(target)
        else:
            target.write_text(content, encoding="utf-8")


def run(case: Case, folder: Path, monkeypatch, capsys) -> tuple[int, str, str]:
    """The case's command in-process, in `folder` as the working directory."""
    monkeypatch.chdir(folder)
    arguments = [a.replace("{dir}", str(folder)) for a in case.command]
    if case.stdout == "closed":
        monkeypatch.setattr(sys, "stdout", None)
    elif case.stdout == "full":
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(open("/dev/full", "wb")))
    code = cli.main(arguments)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("case", CASES, ids=[f"{c.surface}-{c.name}" for c in CASES])
def test_each_case_is_answered_in_one_line_and_leaves_its_inputs(
    case, tmp_path, monkeypatch, capsys
):
    needs = [getattr(f, "seed", None) for f in case.files.values()]
    needs += [ATTENTION, BLOCK] if "map" in case.command else []  # maps find the chapters
    missing = [path for path in needs if path is not None and not path.is_file()]
    if missing:
        pytest.skip(f"{missing[0]} is not here: the case needs the seed chapters")
    prepare(case, tmp_path)
    before = digests(tmp_path)
    code, out, err = run(case, tmp_path, monkeypatch, capsys)
    message = case.message.replace("{dir}", str(tmp_path))
    assert code == case.code, (code, out[-2000:], err)
    if case.out == "err" and code == 2:
        lines = [line for line in err.strip().splitlines() if not PROGRESS.match(line)]
        assert len(lines) == 1 and message in lines[0], err
    else:
        assert message in (out if case.out == "out" else err), (out[-3000:], err)

    def given(name: str) -> bool:
        return name.split("/")[0] not in case.writes

    after = digests(tmp_path)
    assert {n: d for n, d in after.items() if given(n)} == {
        n: d for n, d in before.items() if given(n)
    }
    assert not (tmp_path / "HACKED").exists() and not (tmp_path / ".hypothesis").exists()


def test_the_catalogue_has_eighty_cases_over_every_surface():
    surfaces = {c.surface for c in CASES}
    assert (
        len(CASES) >= 80
        and {"new-chapter", "audit", "audit-baseline", "sync", "figures", "verify"} <= surfaces
    )
    assert len({(c.surface, c.name) for c in CASES}) == len(CASES)


def table() -> str:
    """The catalogue as the Markdown table of docs/hostile-inputs.md."""
    lines = [
        "# What a chapter or a command line can do to the package",
        "",
        "Each row is a case of `tests/cli/test_hostile_inputs.py`, which runs it and checks the",
        "exit code, the message, and that every file the command was given is unchanged",
        "(unless the command was asked to write it). Exit codes: 0 done, 1 a finding (a",
        "mismatch, a drift, a structure defect), 2 refused with one line on stderr. This",
        "page is generated from the tests: `python tests/cli/test_hostile_inputs.py`.",
        "",
        "| surface | case | command | exit | says |",
        "|---|---|---|---|---|",
    ]
    for c in CASES:
        command = " ".join(a if a else "''" for a in c.command).replace("{dir}/", "")
        command = command.replace("{dir}", ".")
        stream = {"closed": " >&-", "full": " > /dev/full"}.get(c.stdout, "")
        said = c.message.replace("{dir}/", "").replace("|", "\\|")
        lines.append(f"| {c.surface} | {c.name} | `proofs {command}{stream}` | {c.code} | {said} |")
    return "\n".join(lines) + "\n"


def test_the_docs_table_is_the_catalogue():
    assert TABLE.read_text(encoding="utf-8") == table()


if __name__ == "__main__":
    TABLE.write_text(table(), encoding="utf-8")

"""What a chapter, or a careless command line, can do to the package: a catalogue of
cases over new-chapter, the audit and its baseline, sync, figures, verify, the output
streams and the cache folder. Each case states the exit code, the one line that says
why (on stderr for a refusal, in the report for a finding), and that every file it was
given is unchanged unless it asked for that file to be written. docs/hostile-inputs.md is the
catalogue as a table, regenerated from CASES (`python tests/cli/test_hostile_inputs.py`)."""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import pickle
import re
import shlex
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cache.remembered import kept_in
from cache.seal import FORMAT, sealed, unsealed
from cache.secret import key_file, secret
from proofs.audit.listings.running import DISK, MEMORY
from proofs.audit.listings.sandbox import why_not_contained
from proofs.chapters.self_attention import tables as sa_tables
from proofs.typeset.shown import shortened, visible

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
    create; `stdout`: "closed" or "full" to run with standard output so; `environ`: the
    variables set (None: unset) for the command; `cache`: the command keeps its derivations
    in the user's cache folder CACHE of the case (its files make it), in a process of its
    own, so that 例 4.5's table is read from there, not from a memory of it."""

    surface: str
    name: str
    command: tuple[str, ...]
    code: int
    message: str
    files: dict[str, str | Callable[[Path], None]] = field(default_factory=dict)
    out: str = "err"
    writes: tuple[str, ...] = ()
    stdout: str = ""
    environ: dict[str, str | None] = field(default_factory=dict)
    cache: bool = False


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


def seed_without(path: Path, start: str) -> Callable[[Path], None]:
    """A copy of a seed chapter without its first line that starts with `start`."""

    def make(target: Path) -> None:
        lines = path.read_text(encoding="utf-8").split("\n")
        at = next(k for k, line in enumerate(lines) if line.startswith(start))
        target.write_text("\n".join(lines[:at] + lines[at + 1 :]), encoding="utf-8")

    make.seed = path  # type: ignore[attr-defined]
    return make


def link(to: str) -> Callable[[Path], None]:
    """A symbolic link to `to` (relative to the link's folder)."""
    return lambda target: target.symlink_to(to)


def hard_link(to: str) -> Callable[[Path], None]:
    """A hard link to the file `to` of the case's folder."""
    return lambda target: os.link(target.parent.parent / to, target)


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


def kept(dims: tuple[int, ...], change: Callable[[Path, bytes], None]) -> Callable[[Path], None]:
    """A derivations folder holding 例 4.5's table at `dims` (the other settings the
    command's defaults) as a run keeps it, then change(path, bytes) done to each entry."""

    def make(target: Path) -> None:
        target.mkdir()
        settings = inspect.signature(sa_tables.scaling_table).parameters
        others = (settings[name].default for name in ("pairs", "trials", "keys", "seed"))
        with kept_in(target):
            sa_tables._scaling_table.__wrapped__(dims, *others)
        for path in sorted(target.rglob("*.json")):
            change(path, path.read_bytes())

    make.seed = ATTENTION if dims == CHAPTER_DIMS else None  # type: ignore[attr-defined]
    return make


class Planted:
    """Pickled, a file that would make the file HACKED beside the cache folder if loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def pickled(path: Path, data: bytes) -> None:
    """The entry replaced by a pickle that runs code, and one at the earlier format's place."""
    planted = pickle.dumps(Planted(path.parents[3] / "HACKED"))
    path.write_bytes(planted)
    path.with_suffix(".pickle").write_bytes(planted)


def changed_variance(data: bytes) -> bytes:
    """An entry's bytes with its first variance (4.00 printed) made 9.99, the first line kept."""
    variance = json.loads(data.partition(b"\n")[2])["value"][0][1]
    changed = data.replace(f"[[4,{variance!r},".encode(), b"[[4,9.99,", 1)
    assert changed != data
    return changed


def old_digest(path: Path, data: bytes) -> None:
    """The first variance changed, the digest left as it was."""
    path.write_bytes(changed_variance(data))


def plain_digest(path: Path, data: bytes) -> None:
    """The first variance changed, and the digest made again as a plain SHA-256."""
    body = changed_variance(data).partition(b"\n")[2]
    path.write_bytes(FORMAT + hashlib.sha256(FORMAT + body).hexdigest().encode() + b"\n" + body)


def wrong_type(path: Path, data: bytes) -> None:
    """The value replaced by text, sealed under the user's own key (a bug's entry, say)."""
    key = secret(key_file())
    assert key is not None
    entry = json.loads(unsealed(data, key) or b"")
    path.write_bytes(sealed(json.dumps({**entry, "value": "4.00"}).encode(), key))


def fifo_entry(path: Path, data: bytes) -> None:
    path.unlink()
    os.mkfifo(path)


def users_folder(target: Path) -> None:
    """A folder of the user's that holds what the cleanup of other versions would remove
    were it the cache's own: a version's folder, a kind's folder, an entry's file."""
    (target / "0123456789abcdef" / "scaling_table").mkdir(parents=True)
    (target / "0123456789abcdef" / "scaling_table" / f"{'0' * 64}.json").write_text("mine")
    (target / "notes.txt").write_text("mine")


def linked_version(target: Path) -> None:
    """A derivations folder whose only version's folder is a link to the user's folder."""
    target.mkdir()
    (target / "fedcba9876543210").symlink_to(target.parents[2] / "mine")


CHAPTER_DIMS = (4, 16, 64, 256, 1024)  # 例 4.5's d_k, which sync asks the table for
CACHE = "xdg/transformer-proofs/derivations"  # a case's derivations, XDG_CACHE_HOME its xdg


LUA_WRITE = r"\directlua{io.open('/tmp/x','w'):write('x')}"  # writes under plain lualatex
NOT_MATH = "\\%s is not a command of the edition's math"


def hostile_title(title: str) -> Callable[[Path], None]:
    return lambda target: target.write_text(SMALL.replace("三つ目", title), encoding="utf-8")


def listings(*codes: tuple[str, str | None]) -> Callable[[Path], None]:
    """SMALL with these listings, each (code, the line the chapter prints for it or None);
    {file} in a code is the chapter file's own path. The case needs the listings' sandbox."""

    def make(target: Path) -> None:
        text = SMALL
        for code, printed in codes:
            text += f"\n```python\n{code.replace('{file}', repr(str(target)))}\n```\n"
            text += f"\n```text\n{printed}\n```\n" if printed is not None else ""
        target.write_text(text, encoding="utf-8")

    make.contained = True  # type: ignore[attr-defined]  # what the case needs to be run
    return make


RUN = ("audit", "{dir}/c.mdx", "--run-listings", "--quiet")
RAN = "c.mdx: 0 errors, 0 warnings, 1 not checkable, 2 confirmed"  # the listing and the next one
NEXT = ("print('next')", "next")
FORGED = "exited with status 1 (its error record could not be read)"


def forges(record: str) -> tuple[str, None]:
    """A listing that writes `record` where its bootstrap writes its error record."""
    return f"import os, sys\nos.write(3, {record.encode()!r})\nsys.exit(1)", None


def unclosed_titled(title: str) -> str:
    """KNOWN with its element never closed and titled `title`: the structure finding
    quotes the opening tag, title and all."""
    return KNOWN.replace("</Definition>\n", "").replace('title="見本"', f'title="{title}"')


NOT_UTF8 = os.fsdecode(b"b\xff.txt")  # a file name with a byte that is not UTF-8
NAMED_COMMAND = "b\n::error::forged.txt"  # a file name: a line break, a workflow command
UNCLOSED = SMALL.replace("</Definition>\n", "")  # a chapter no package registers
# its one mismatch, as audit --write-baseline records it, and an entry it does not find
UNCLOSED_ENTRY = {
    "chapter": "",
    "code": "STR001",
    "element": "def-sample",
    "found": '<Definition id="def-sample" title="見本">',
}
STALE_ENTRY = {"chapter": "", "code": "EQ001", "element": "", "found": "1 = 2"}
BLOCK_STATEMENT_7_1 = "位置ごとの MLP と層正規化は行ごとに働く写像である。"
BLOCK_TOP = "\n\n0. この記事の要点"


READER_HEAD = "import numpy as np\n\n"  # a reader's file for `check`


def baseline(*entries: dict) -> str:
    return json.dumps({"accepted": list(entries)}, ensure_ascii=False)


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
        'c.mdx:5:1: error[STR001]: structure: <Definition id="def-softmax" title="見本"> — '
        "<Definition> is never closed with </Definition>",
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
        "a.mdx: 0 errors, 0 warnings",
        {"a.mdx": seed(ATTENTION, (PARAMETERS, "$$\n4d(d + 1)\n$$"))},
        out="out",
    ),
    Case(
        "audit",
        "count-polynomial-garbled",  # the claim the check reads is not located: not checkable
        ("audit", "{dir}/a.mdx", "--quiet"),
        0,
        "a.mdx: 0 errors, 0 warnings, 5 not checkable",
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
    # audit --run-listings: listings written by an adversary (a pull request's), run in
    # their sandbox (tests/audit/test_listing_sandbox.py has the cases without one)
    Case(
        "audit-listings",
        "reads-its-parents-environment",
        RUN,
        1,
        "raised PermissionError: [Errno 13] Permission denied: '/proc/1/environ'",
        {"c.mdx": listings(("import os\nopen(f'/proc/{os.getppid()}/environ').read()", None))},
        out="out",
    ),
    Case(
        "audit-listings",
        "kills-its-parent",
        RUN,
        0,
        RAN,
        {"c.mdx": listings(("import os\nos.kill(os.getppid(), 9)\nprint('alive')", "alive"), NEXT)},
        out="out",
    ),
    Case(
        "audit-listings",
        "stops-its-parent",
        RUN,
        0,
        RAN,
        {
            "c.mdx": listings(
                ("import os\nos.kill(os.getppid(), 19)\nprint('alive')", "alive"), NEXT
            )
        },
        out="out",
    ),
    Case(
        "audit-listings",
        "kills-every-process-it-may",
        RUN,
        0,
        RAN,
        {
            "c.mdx": listings(
                ("import os\ntry: os.kill(-1, 9)\nexcept OSError: print('alive')", "alive"), NEXT
            )
        },
        out="out",
    ),
    Case(
        "audit-listings",
        "leaves-a-process-in-a-new-session",
        RUN,
        0,
        RAN,
        {
            "c.mdx": listings(
                (
                    "import subprocess, sys\nforever = [sys.executable, '-c', 'while True: pass']"
                    "\nsubprocess.Popen(forever, start_new_session=True)\nprint('left it')",
                    "left it",
                ),
                NEXT,
            )
        },
        out="out",
    ),
    Case(
        "audit-listings",
        "forges-an-error-record-not-json",
        RUN,
        1,
        FORGED,
        {"c.mdx": listings(forges("{"))},
        out="out",
    ),
    Case(
        "audit-listings",
        "forges-an-error-record-without-its-fields",
        RUN,
        1,
        FORGED,
        {"c.mdx": listings(forges('{"type": "ValueError"}'))},
        out="out",
    ),
    Case(
        "audit-listings",
        "forges-an-error-record-with-a-line-break",
        RUN,
        1,
        FORGED,
        {
            "c.mdx": listings(
                forges(
                    '{"type": "X\\n::error::forged", "memory": false, "message": "", '
                    '"module": null, "frames": []}'
                )
            )
        },
        out="out",
    ),
    Case(
        "audit-listings",
        "raises-with-control-characters",
        RUN,
        1,
        "raised ValueError: a\\x1b[2Kb\\u202e (line 1 of the listing, line 12 of the chapter)",
        {"c.mdx": listings(("raise ValueError('a\\x1b[2Kb\\u202e')", None))},
        out="out",
    ),
    Case(
        "audit-listings",
        "leaves-a-folder-where-the-record-was",
        RUN,
        1,
        "the listing does not run: exited with status 1",
        {"c.mdx": listings(("import os, sys\nos.mkdir('.listing-error.json')\nsys.exit(1)", None))},
        out="out",
    ),
    Case(
        "audit-listings",
        "looks-for-the-network",
        RUN,
        1,
        "the chapter prints eth0, the listing prints lo",
        {
            "c.mdx": listings(
                ("import socket\nprint('up:', *[n for _, n in socket.if_nameindex()])", "up: eth0")
            )
        },
        out="out",
    ),
    Case(
        "audit-listings",
        "reads-the-chapters-folder",
        RUN,
        1,
        "the chapter prints True, the listing prints False",
        {"c.mdx": listings(("import os\nprint('seen:', os.path.exists({file}))", "seen: True"))},
        out="out",
    ),
    Case(
        "audit-listings",
        "writes-in-the-working-directory",
        RUN,
        1,
        "raised FileNotFoundError: [Errno 2] No such file or directory: '{dir}/HACKED'",
        {"c.mdx": listings(("open({file}.replace('c.mdx', 'HACKED'), 'w')", None))},
        out="out",
    ),
    Case(
        "audit-listings",
        "fills-the-disk",
        RUN,
        1,
        "raised OSError: [Errno 28] No space left on device",
        {
            "c.mdx": listings(
                ("for k in range(9):\n    open(f'{k}', 'wb').write(bytes(60 << 20))", None)
            )
        },
        out="out",
    ),
    Case(
        "audit-listings",
        "writes-a-file-past-64-mib",
        RUN,
        1,
        "raised OSError: [Errno 27] File too large",
        {"c.mdx": listings(("open('big', 'wb').write(bytes(65 << 20))", None))},
        out="out",
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
    # the site of an audit: written into a folder, never through a link, every name shown
    Case(
        "audit-site",
        "a-page-is-a-link-to-a-file-outside",
        ("audit", "{dir}/b.txt", "--html", "{dir}/site", "--quiet"),
        1,
        "wrote 2 pages; open {dir}/site/index.html",
        {
            "b.txt": seed(BLOCK),
            "victim": "kept",
            "site": folder,
            "site/index.html": link("../victim"),
        },
        writes=("site",),
    ),
    Case(
        "audit-site",
        "a-page-is-a-hard-link-to-a-file-outside",
        ("audit", "{dir}/b.txt", "--html", "{dir}/site", "--quiet"),
        1,
        "wrote 2 pages; open {dir}/site/index.html",
        {
            "b.txt": seed(BLOCK),
            "victim": "kept",
            "site": folder,
            "site/b.html": hard_link("victim"),
        },
        writes=("site",),
    ),
    Case(
        "audit-site",
        "the-folder-is-a-link",
        ("audit", "{dir}/b.txt", "--html", "{dir}/site"),
        2,
        "{dir}/site: is a symbolic link (to elsewhere); the site is written only into a folder "
        "itself: give its path",
        {"b.txt": seed(BLOCK), "elsewhere": folder, "site": link("elsewhere")},
    ),
    Case(
        "audit-site",
        "a-chapter-named-with-a-byte-not-utf8",
        ("audit", f"{{dir}}/{NOT_UTF8}", "--html", "{dir}/site", "--quiet"),
        1,
        "{dir}/b\\xff.txt:114:1: error[CHK001]: check: 例 3.2 ex-layer-norm-scale",
        {NOT_UTF8: seed(BLOCK)},
        out="out",
        writes=("site",),
    ),
    # reports: every name and every piece of chapter text escaped for its format
    Case(
        "reports",
        "a-name-with-a-line-break-in-github-annotations",
        ("audit", f"{{dir}}/{NAMED_COMMAND}", "--format", "github"),
        1,
        "::error file={dir}/b\\n%3A%3Aerror%3A%3Aforged.txt,line=114,col=1,title=CHK001 "
        "check mismatched::例 3.2",
        {NAMED_COMMAND: seed(BLOCK)},
        out="out",
    ),
    Case(
        "reports",
        "a-name-with-a-line-break-in-the-text-report",
        ("audit", f"{{dir}}/{NAMED_COMMAND}", "--quiet"),
        1,
        "{dir}/b\\n::error::forged.txt:114:1: error[CHK001]: check:",
        {NAMED_COMMAND: seed(BLOCK)},
        out="out",
    ),
    Case(
        "reports",
        "a-name-starting-with-a-workflow-command",
        ("audit", "::error::forged.txt", "--quiet"),
        1,
        "\\x3a:error::forged.txt:114:1: error[CHK001]: check:",
        {"::error::forged.txt": seed(BLOCK)},
        out="out",
    ),
    Case(
        "reports",
        "a-name-with-a-byte-not-utf8-in-json",
        ("audit", f"{{dir}}/{NOT_UTF8}", "--json"),
        1,
        '"path": "{dir}/b\\udcff.txt"',
        {NOT_UTF8: seed(BLOCK)},
        out="out",
    ),
    Case(
        "reports",
        "a-name-with-a-line-break-in-sync-annotations",
        ("sync", f"{{dir}}/{NAMED_COMMAND}", "--format", "github"),
        1,
        "::error file={dir}/b\\n%3A%3Aerror%3A%3Aforged.txt,line=241,title=sync%3A table drifted",
        {NAMED_COMMAND: seed(BLOCK, ("38,597,376", "38,597,377"))},
        out="out",
    ),
    Case(
        "reports",
        "a-name-with-a-line-break-in-the-sync-diff",
        ("sync", f"{{dir}}/{NAMED_COMMAND}"),
        1,
        "--- {dir}/b\\n::error::forged.txt",
        {NAMED_COMMAND: seed(BLOCK, ("38,597,376", "38,597,377"))},
        out="out",
    ),
    Case(
        "reports",
        "chapter-text-with-terminal-escape-sequences",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        'structure: <Definition id="def-softmax" title="見本\\x1b[2J\\x1b]0;x\\x07"> — '
        "<Definition> is never closed",
        {"c.mdx": unclosed_titled("見本\x1b[2J\x1b]0;x\x07")},
        out="out",
    ),
    Case(
        "reports",
        "chapter-text-with-a-bidirectional-override",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        'title="見本\\u202e\\u2066">',
        {"c.mdx": unclosed_titled("見本\u202e\u2066")},
        out="out",
    ),
    Case(
        "reports",
        "chapter-text-with-a-workflow-command-of-the-old-form",
        ("audit", "{dir}/c.mdx", "--quiet"),
        1,
        'title="##\\x5berror]forged">',
        {"c.mdx": unclosed_titled("##[error]forged")},
        out="out",
    ),
    Case(
        "reports",
        "chapter-text-with-escape-sequences-in-github-annotations",
        ("audit", "{dir}/c.mdx", "--format", "github"),
        1,
        'title="見本\\x1b[2J">',
        {"c.mdx": unclosed_titled("見本\x1b[2J")},
        out="out",
    ),
    Case(
        "reports",
        "chapter-text-with-escape-sequences-in-json",
        ("audit", "{dir}/c.mdx", "--json"),
        1,
        'title=\\"見本\\u001b[2J\\u202e\\"',
        {"c.mdx": unclosed_titled("見本\x1b[2J\u202e")},
        out="out",
    ),
    # --format github against a baseline: accepted mismatches are notices, new ones errors
    Case(
        "audit-github",
        "an-accepted-mismatch-is-a-notice",
        ("audit", "{dir}/c.mdx", "--baseline", "{dir}/base.json", "--format", "github"),
        0,
        "::notice file={dir}/c.mdx,line=5,col=1,title=STR001 structure mismatched (accepted by the "
        "baseline)::",
        {"c.mdx": UNCLOSED, "base.json": baseline(UNCLOSED_ENTRY)},
        out="out",
    ),
    Case(
        "audit-github",
        "a-new-mismatch-is-an-error",
        ("audit", "{dir}/c.mdx", "--baseline", "{dir}/base.json", "--format", "github"),
        1,
        "::error file={dir}/c.mdx,line=5,col=1,title=STR001 structure mismatched::",
        {"c.mdx": UNCLOSED, "base.json": baseline()},
        out="out",
    ),
    Case(
        "audit-github",
        "a-stale-entry-is-a-warning",
        ("audit", "{dir}/c.mdx", "--baseline", "{dir}/base.json", "--format", "github"),
        0,
        "::warning file={dir}/base.json,title=baseline entry stale::[EQ001] (outside the "
        "elements): 1 = 2 — no longer found in {dir}/c.mdx",
        {"c.mdx": UNCLOSED, "base.json": baseline(UNCLOSED_ENTRY, STALE_ENTRY)},
        out="out",
    ),
    Case(
        "audit-github",
        "the-counts-of-the-baseline",
        ("audit", "{dir}/c.mdx", "--baseline", "{dir}/base.json", "--format", "github"),
        0,
        "::notice file={dir}/base.json,title=baseline::baseline {dir}/base.json: 1 accepted, "
        "0 new, 1 stale",
        {"c.mdx": UNCLOSED, "base.json": baseline(UNCLOSED_ENTRY, STALE_ENTRY)},
        out="out",
    ),
    # small edits of a chapter: a report, never a crash
    Case(
        "audit",
        "a-paragraph-deleted-the-statement-of-a-claim",
        ("audit", "{dir}/b.txt", "--quiet"),
        1,
        "b.txt:283:1: error[CLM003]: claim: $i \\ne j$ — 命題 7.1 prop-row-wise-maps: the check "
        "proves $i \\ne j$, which the chapter no longer states",
        {"b.txt": seed_without(BLOCK, BLOCK_STATEMENT_7_1)},
        out="out",
    ),
    Case(
        "audit",
        "a-stray-opening-tag",
        ("audit", "{dir}/b.txt", "--quiet"),
        1,
        'b.txt:2:1: error[STR001]: structure: <Definition id="d" title="t"> — <Definition> is '
        "never closed",
        {"b.txt": seed(BLOCK, (BLOCK_TOP, '\n<Definition id="d" title="t">' + BLOCK_TOP))},
        out="out",
    ),
    # settings: one that cannot be read is refused in one line naming where it is
    Case(
        "settings",
        "pyproject-tool-not-a-table",
        ("audit", "{dir}/c.mdx"),
        2,
        "{dir}/pyproject.toml: tool: expected a table ([tool]), got 5",
        {"pyproject.toml": "tool = 5\n", "c.mdx": KNOWN},
    ),
    Case(
        "settings",
        "pyproject-tool-proofs-not-a-table",
        ("audit", "{dir}/c.mdx"),
        2,
        "{dir}/pyproject.toml: tool.proofs: expected a table ([tool.proofs]), got [1]",
        {"pyproject.toml": "[tool]\nproofs = [1]\n", "c.mdx": KNOWN},
    ),
    Case(
        "settings",
        "pyproject-chapters-a-number",
        ("figures", "map", "--out", "{dir}/out"),
        2,
        "{dir}/pyproject.toml: [tool.proofs] chapters: expected a folder name or a list of "
        "them, got 5",
        {"pyproject.toml": "[tool.proofs]\nchapters = 5\n"},
    ),
    Case(
        "settings",
        "pyproject-chapters-no-folder",
        ("figures", "map", "--out", "{dir}/out"),
        2,
        "{dir}/pyproject.toml: [tool.proofs] chapters: 'nowhere': no such folder; expected a "
        "folder of chapter files",
        {"pyproject.toml": '[tool.proofs]\nchapters = ["nowhere"]\n'},
    ),
    Case(
        "settings",
        "pyproject-run-listings-a-string",
        ("audit", "{dir}/c.mdx"),
        2,
        "{dir}/pyproject.toml: [tool.proofs] run-listings: expected true or false, got 'yes'",
        {"pyproject.toml": '[tool.proofs]\nrun-listings = "yes"\n', "c.mdx": KNOWN},
    ),
    Case(
        "settings",
        "pyproject-a-key-misspelt",
        ("audit", "{dir}/c.mdx"),
        2,
        "{dir}/pyproject.toml: [tool.proofs] chapter: not a setting; did you mean chapters? (the "
        "settings are chapters, run-listings, select, ignore, per-file-ignores, baseline)",
        {"pyproject.toml": '[tool.proofs]\nchapter = "."\n', "c.mdx": KNOWN},
    ),
    Case(
        "settings",
        "pyproject-baseline-not-a-file-name",
        ("audit", "{dir}/c.mdx"),
        2,
        "{dir}/pyproject.toml: [tool.proofs] baseline: expected a file name, got 3",
        {"pyproject.toml": "[tool.proofs]\nbaseline = 3\n", "c.mdx": KNOWN},
    ),
    Case(
        "settings",
        "pyproject-not-toml",
        ("audit", "{dir}/c.mdx"),
        2,
        "{dir}/pyproject.toml: not TOML (",
        {"pyproject.toml": "[tool.proofs\n", "c.mdx": KNOWN},
    ),
    Case(
        "settings",
        "pyproject-not-utf8",
        ("audit", "{dir}/c.mdx"),
        2,
        "{dir}/pyproject.toml: not UTF-8 text (byte 26)",
        {"pyproject.toml": raw(b"[tool.proofs]\nchapters = '\xff'\n"), "c.mdx": KNOWN},
    ),
    Case(
        "settings",
        "variable-a-name-too-long",
        ("figures", "map", "--out", "{dir}/out"),
        2,
        "x…: cannot be examined (File name too long)",
        environ={"TRANSFORMER_PROOFS_CHAPTERS": "x" * 5000},
    ),
    Case(
        "settings",
        "variable-no-folder",
        ("figures", "map", "--out", "{dir}/out"),
        2,
        "TRANSFORMER_PROOFS_CHAPTERS: '{dir}/nowhere': no such folder; expected a folder of "
        "chapter files",
        environ={"TRANSFORMER_PROOFS_CHAPTERS": "{dir}/nowhere"},
    ),
    Case(
        "settings",
        "variable-a-file",
        ("figures", "map", "--out", "{dir}/out"),
        2,
        "TRANSFORMER_PROOFS_CHAPTERS: '{dir}/f': not a folder; expected a folder of chapter files",
        {"f": "x"},
        environ={"TRANSFORMER_PROOFS_CHAPTERS": "{dir}/f"},
    ),
    Case(
        "settings",
        "chapters-option-no-folder",
        ("figures", "map", "--chapters", "{dir}/nowhere", "--out", "{dir}/out"),
        2,
        "--chapters {dir}/nowhere: no such folder; expected a folder of chapter files",
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
    # the cache folder: an entry is data, sealed with a key kept elsewhere; never code, never
    # believed when changed, and the folder is never left through a link
    Case(
        "cache",
        "planted-pickle-never-runs",
        ("tables", "scaling", "--dims", "4", "16"),
        0,
        "| 4 | 4.00 | 1.001 |",
        {CACHE: kept((4, 16), pickled)},
        out="out",
        writes=(CACHE.split("/")[0],),
        cache=True,
    ),
    Case(
        "cache",
        "changed-value-under-its-digest",
        ("sync", "{dir}/a.mdx", "--write"),
        0,
        "{dir}/a.mdx: in sync (2 tables, 22 output lines, 1 figure regenerated",
        {"a.mdx": seed(ATTENTION), CACHE: kept(CHAPTER_DIMS, old_digest)},
        writes=(CACHE.split("/")[0],),
        cache=True,
    ),
    Case(
        "cache",
        "changed-value-plain-sha256-digest",
        ("tables", "scaling", "--dims", "4", "16"),
        0,
        "| 4 | 4.00 | 1.001 |",
        {CACHE: kept((4, 16), plain_digest)},
        out="out",
        writes=(CACHE.split("/")[0],),
        cache=True,
    ),
    Case(
        "cache",
        "value-of-the-wrong-type",
        ("tables", "scaling", "--dims", "4", "16"),
        0,
        "| 4 | 4.00 | 1.001 |",
        {CACHE: kept((4, 16), wrong_type)},
        out="out",
        writes=(CACHE.split("/")[0],),
        cache=True,
    ),
    Case(
        "cache",
        "fifo-for-an-entry",
        ("tables", "scaling", "--dims", "4", "16"),
        0,
        "| 4 | 4.00 | 1.001 |",
        {CACHE: kept((4, 16), fifo_entry)},
        out="out",
        writes=(CACHE.split("/")[0],),
        cache=True,
    ),
    Case(
        "cache",
        "linked-derivations-folder",
        ("tables", "scaling", "--dims", "4"),
        0,
        "| 4 | 4.00 | 1.001 |",
        {"mine": users_folder, CACHE: lambda t: t.symlink_to(t.parents[2] / "mine")},
        out="out",
        cache=True,
    ),
    Case(
        "cache",
        "linked-version-folder",
        ("tables", "scaling", "--dims", "4"),
        0,
        "| 4 | 4.00 | 1.001 |",
        {"mine": users_folder, CACHE: linked_version},
        out="out",
        writes=(CACHE.split("/")[0],),
        cache=True,
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

# a second author: a package of checks written outside a checkout, a reader's edition, sync
# of what a chapter's own text computes
CASES += [
    Case(
        "new-chapter",
        "package-over-an-existing-folder",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--package", "{dir}/pkg"),
        2,
        "new-chapter: {dir}/pkg: exists; choose another --package folder",
        {"c.mdx": SMALL, "pkg/keep.txt": "the author's file\n"},
    ),
    Case(
        "new-chapter",
        "package-over-the-chapter-file",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--package", "{dir}/c.mdx"),
        2,
        "new-chapter: {dir}/c.mdx: exists; choose another --package folder",
        {"c.mdx": SMALL},
    ),
    Case(
        "new-chapter",
        "package-and-out-together",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--package", "p", "--out", "o"),
        2,
        "argument --out: not allowed with argument --package",
        {"c.mdx": SMALL},
    ),
    Case(
        "new-chapter",
        "package-of-a-title-breaking-toml",
        ("new-chapter", "{dir}/c.mdx", "--key", "third", "--package", "{dir}/pkg"),
        0,
        "wrote {dir}/pkg with 1 unchecked elements; install it with pip install -e {dir}/pkg",
        {"c.mdx": hostile_title('" [tool.proofs] chapters = "/" \\ \u2028 \x7f')},
        writes=("pkg",),
    ),
    Case(
        "latex",
        "marks-of-no-language",
        ("latex", "--chapter", "{dir}/c.mdx", "--marks", "xx"),
        2,
        "argument --marks: invalid choice: 'xx' (choose from 'none', 'ja', 'en')",
        {"c.mdx": SMALL},
    ),
    Case(
        "latex",
        "marks-without-a-chapter",
        ("latex", "--marks", "ja"),
        2,
        "latex: --marks sets the print edition of --chapter FILE, not given",
    ),
    Case(
        "sync",
        "run-listings-restores-an-output-line",
        ("sync", "{dir}/c.mdx", "--run-listings", "--write"),
        0,
        "rewrote {dir}/c.mdx: 1 region drifted: output line 16",
        {"c.mdx": listings(("print(6 * 7, 2 ** 0.5)", "41 1.4142"))},
        writes=("c.mdx",),
    ),
    Case(
        "sync",
        "run-listings-leaves-a-line-in-other-words",
        ("sync", "{dir}/c.mdx", "--run-listings", "--write"),
        0,
        "c.mdx: in sync (0 tables, 0 output lines, 0 figures regenerated; 1 left alone)",
        {"c.mdx": listings(("print('answer', 42)", "the answer is 41"))},
    ),
]

# proofs flops: a configuration's sizes, the conventions' names, a run's figures
CASES += [
    Case(
        "flops",
        "non-integer-size",
        ("flops", "--d", "7.5", "--layers", "2", "--heads", "2", "--context", "8", "--vocab", "9"),
        2,
        "argument --d: expected an integer >= 1, got '7.5'",
    ),
    Case(
        "flops",
        "negative-size",
        ("flops", "--model", "gpt2", "--layers", "-12"),
        2,
        "argument --layers: expected an integer >= 1, got '-12'",
    ),
    Case(
        "flops",
        "heads-not-dividing-d",
        ("flops", "--model", "gpt2", "--heads", "7"),
        2,
        "flops: --heads must divide --d, got d = 768 and 7 heads",
    ),
    Case(
        "flops",
        "unknown-convention",
        ("flops", "--model", "gpt2", "--convention", "chinchila"),
        2,
        "flops: unknown convention 'chinchila'; nearest: chinchilla",
    ),
    Case(
        "flops",
        "unknown-model",
        ("flops", "--model", "gpt-2"),
        2,
        "flops: unknown model 'gpt-2'; nearest: gpt2",
    ),
    Case(
        "flops",
        "zero-peak",
        ("flops", "--model", "gpt2", "--tokens", "1024", "--seconds", "1", "--peak", "0"),
        2,
        "argument --peak: expected a finite number > 0, got '0'",
    ),
    Case(
        "flops",
        "mfu-without-seconds",
        ("flops", "--model", "gpt2", "--tokens", "1024", "--peak", "312e12"),
        2,
        "flops: an MFU needs --tokens, --seconds and --peak (missing --seconds)",
    ),
    # a reader's file for the bench: run contained, every way it can go wrong told in one
    # line naming the function (a refusal on stderr, a failure in the report)
    *(
        Case(
            "check",
            name,
            ("check", "{dir}/solution.py", "--element", "def-softmax"),
            code,
            message,
            {"solution.py": READER_HEAD + body},
            out="out" if code == 1 else "err",
        )
        for name, body, code, message in (
            (
                "does-not-import",
                "def softmax(z)\n    return z\n",
                2,
                "did not import: raised SyntaxError",
            ),
            (
                "raises-on-import",
                "raise RuntimeError('no softmax today')\n",
                2,
                "did not import: raised RuntimeError: no softmax today",
            ),
            (
                "defines-none",
                "def soft_max(z):\n    return z\n",
                2,
                "solution.py defines none of the functions the bench judges",
            ),
            (
                "raises",
                "def softmax(z):\n    raise ValueError('not yet')\n",
                1,
                "softmax raised ValueError: not yet (line 4 of solution.py)",
            ),
            (
                "loops",
                "def softmax(z):\n    while True:\n        pass\n",
                1,
                "softmax ran past its 10 s; stopped",
            ),
            (
                "prints-megabytes",
                "def softmax(z):\n    print('x' * 2**21)\n    return z\n",
                1,
                "softmax printed more than 1 MiB in one call; stopped",
            ),
            (
                "wrong-shape",
                "def softmax(z):\n    return np.exp(z)[..., :-1]\n",
                1,
                "softmax returned shape (2,) for z of shape (3,); expected (3,)",
            ),
            (
                "wrong-type",
                "def softmax(z):\n    return 'softmax'\n",
                1,
                "softmax returned a str, not an array of shape (3,)",
            ),
            (
                "mutates-its-input",
                "def softmax(z):\n    z -= z.max()\n    np.exp(z, out=z)\n    z /= z.sum()\n"
                "    return z\n",
                1,
                "softmax changed its argument 0 in place; z of shape (3,) must not",
            ),
            (
                "returns-nan",
                "def softmax(z):\n    return z * np.nan\n",
                1,
                "softmax returned NaN at index (0,) for z of shape (3,)",
            ),
            (
                "float16",
                "def softmax(z):\n    e = np.exp(z - z.max()).astype(np.float16)\n"
                "    return e / e.sum()\n",
                1,
                "softmax returned float16 for z of shape (3,): it computes in a precision below",
            ),
        )
    ),
    Case(
        "check",
        "unknown-function",
        ("check", "{dir}/solution.py:softmx"),
        2,
        "check: softmx: not a function the bench judges; expected one of softmax,",
        {"solution.py": READER_HEAD + "def softmax(z):\n    return z\n"},
    ),
    Case(
        "check",
        "not-a-python-file",
        ("check", "{dir}/solution.txt"),
        2,
        "solution.txt: expected a Python file (.py)",
        {"solution.txt": "def softmax(z):\n    return z\n"},
    ),
    Case(
        "check",
        "answers-not-toml",
        ("check", "--answers", "{dir}/answers.toml"),
        2,
        "check --answers: {dir}/answers.toml: not TOML",
        {"answers.toml": "[[parameters]\nd = 64\n"},
    ),
    Case(
        "check",
        "answers-unknown-key",
        ("check", "--answers", "{dir}/answers.toml"),
        2,
        "[[parameters]] number 1: unknown key 'layers'",
        {"answers.toml": "[[parameters]]\nlayers = 4\nanswer = 1\n"},
    ),
    Case(
        "check",
        "answers-not-a-count",
        ("check", "--answers", "{dir}/answers.toml"),
        2,
        "[[multiplications]] number 1: n must be a whole number >= 1, got -3",
        {"answers.toml": "[[multiplications]]\nd = 4\nd_ff = 16\nn = -3\nanswer = 1\n"},
    ),
]


@functools.cache
def no_sandbox() -> str:
    """Why this machine runs no sandbox for listings ("" when it does)."""
    return why_not_contained(MEMORY, DISK)


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
        target.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(target)
        else:
            target.write_text(content, encoding="utf-8")


def run(case: Case, folder: Path) -> tuple[int, str, str]:
    """The case's command with `folder` as the working directory (tests/command_worker.py:
    the test process never moves)."""
    from commands import run_in  # tests/, on pytest's path (not the table's, run as a script)

    arguments = [a.replace("{dir}", str(folder)) for a in case.command]
    environ = {
        k: v if v is None else v.replace("{dir}", str(folder)) for k, v in case.environ.items()
    }
    if case.cache:
        environ["XDG_CACHE_HOME"] = str(folder / CACHE.split("/")[0])
    return run_in(folder, *arguments, environ=environ, stdout=case.stdout, fresh=case.cache)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.surface}-{c.name}" for c in CASES])
def test_each_case_is_answered_in_one_line_and_leaves_its_inputs(case, tmp_path):
    needs = [getattr(f, "seed", None) for f in case.files.values()]
    needs += [ATTENTION, BLOCK] if "map" in case.command else []  # maps find the chapters
    missing = [path for path in needs if path is not None and not path.is_file()]
    if missing:
        pytest.skip(f"{missing[0]} is not here: the case needs the seed chapters")
    if any(getattr(f, "contained", False) for f in case.files.values()) and no_sandbox():
        pytest.skip(f"the machine allows no sandbox for listings: {no_sandbox()}")
    prepare(case, tmp_path)
    before = digests(tmp_path)
    code, out, err = run(case, tmp_path)
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
    annotations = "github" in case.command
    assert shown_as_it_is(err) and shown_as_it_is(out, annotations), (out[-3000:], err)


def shown_as_it_is(stream: str, annotations: bool = False) -> bool:
    """Whether a stream holds nothing a terminal acts on or a CI runner takes for a command:
    no control character but TAB and the line breaks, no format character (a
    bidirectional override), no lone surrogate, no `##[`, and no line starting with `::`
    (after spaces) but, in `annotations`, the workflow commands of --format github."""
    hidden = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    for line in stream.split("\n"):
        if any(ch != "\t" and unicodedata.category(ch) in hidden for ch in line):
            return False
        if "##[" in line:
            return False
        if line.lstrip().startswith("::") and not (
            annotations and re.match(r"::(error|warning|notice) file=", line)
        ):
            return False
    return True


@pytest.mark.parametrize(
    "stream",
    ["a\x1bb", "a\u202eb", "a\udcffb", "x ##[error]y", "::error::x", "  ::warning::x", "a\rb"],
)
def test_a_stream_with_what_a_terminal_or_a_runner_acts_on_is_caught(stream):
    assert not shown_as_it_is(stream) and shown_as_it_is("a\tb\n第 1 章　x")


def test_the_catalogue_has_eighty_cases_over_every_surface():
    surfaces = {c.surface for c in CASES}
    assert (
        len(CASES) >= 80
        and {"new-chapter", "audit", "audit-baseline", "sync", "figures", "verify"} <= surfaces
    )
    assert len({(c.surface, c.name) for c in CASES}) == len(CASES)


def here(text: str) -> str:
    """A case's argument as the docs show it: {dir} the current directory."""
    return text.replace("{dir}/", "").replace("{dir}", ".")


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
        words = [shlex.quote(here(visible(a))) for a in c.command]
        variables = [f"{k}={shortened(here(v), 20)}" for k, v in c.environ.items() if v]
        command = " ".join([*variables, "proofs", *words])
        stream = {"closed": " >&-", "full": " > /dev/full"}.get(c.stdout, "")
        said = c.message.replace("{dir}/", "").replace("|", "\\|")
        lines.append(f"| {c.surface} | {c.name} | `{command}{stream}` | {c.code} | {said} |")
    return "\n".join(lines) + "\n"


def test_the_docs_table_is_the_catalogue():
    assert TABLE.read_text(encoding="utf-8") == table()


if __name__ == "__main__":
    TABLE.write_text(table(), encoding="utf-8")

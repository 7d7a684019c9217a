"""A chapter's own listings, run as a reader would (in the order of the text, one
process each, in one folder, under time, memory and output limits; in a sandbox where the
machine allows it, which tests/audit/test_listing_sandbox.py tests as an adversary), and
what they print compared with what the chapter prints: line by line, words exactly,
numbers at the printed precision, rounding errors as rounding errors.

Small chapters written here show each rule; then the seeds' and the corpus's listings
reproduce every printed line, and each "listing output" slip of the corpus is a
mismatch at its line.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest
from places import CORPUS, SEEDS

from proofs.audit import audit_document
from proofs.audit.listings import (
    ROUNDOFF,
    ListingRun,
    OutputComparison,
    agree,
    compare_output,
    compare_run,
    file_names,
    run_listings,
)
from proofs.audit.rules.outputs import audit_outputs, with_runs
from proofs.reader import parse, read_chapter
from proofs.reader.records import Listing

ATTENTION = SEEDS / "000_ce182fefa314a82b.txt"  # 自己注意, MDX
BLOCK = SEEDS / "002_1f7cf506cffefce0.txt"  # Transformer ブロック, rendered text

FENCE = "```"

MDX = f"""# 見本：実装

## 1. 実装

<Definition id="def-shift" title="ずらし">

$f(x) := x + 1$ と定める。

</Definition>

次のコードを shift.py として保存します。

{FENCE}python
# Python 3.11
import math

def shift(x):
    return x + 1

if __name__ == "__main__":
    print("shift(1) =", shift(1))
    print("e =  %.4f" % math.e)
{FENCE}

{FENCE}text
shift(1) = 2
e = 2.7183
{FENCE}

表は次のコードの出力です。

{FENCE}python
# Python 3.11。shift.py は前のコード
from shift import shift

print("  t   f(t)/3")
for t in (1, 2):
    print("%3d %8.4f" % (t, shift(t) / 3))
{FENCE}

{FENCE}text
t f(t)/3
  1   0.6667
  2   1.0000
{FENCE}
"""

RENDERED = """見本：実装

命題 1.1（半分）

$h(1) = 0.5$ である。

1. 実装

次のコードを halves.py として保存します。

# Python 3.11
def half(x):
    return x / 2

if __name__ == "__main__":
    print("half", half(1.0))

half 0.5

続いて、halves.py を使います。

# Python 3.11。halves.py は前のコード
import halves

print("quarter %.4f   eighth %.4f" % (halves.half(0.5), halves.half(0.25)))

quarter 0.2500   eighth 0.1250

以上です。
"""


@pytest.fixture
def scratch(tmp_path):
    """Where the runner makes its folder when the listings run as the user's processes
    (contained, it writes nothing on the machine): empty again afterwards."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    yield folder
    assert list(folder.iterdir()) == [], "left in the scratch folder"


# ---- small chapters ------------------------------------------------------------------


def test_an_mdx_listing_prints_what_the_chapter_prints_and_a_later_one_imports_it(scratch):
    document = parse(MDX, "sample.mdx")
    assert file_names(document) == {14: "shift.py", 33: "listing_33.py"}
    runs = run_listings(document, scratch=scratch)
    assert [(r.file, r.problem) for r in runs] == [("shift.py", ""), ("listing_33.py", "")]
    found = [c for run in runs for c in compare_run(run)]
    assert [(c.line, c.status) for c in found] == [
        (26, "confirmed"),
        (27, "confirmed"),
        (42, "confirmed"),
        (43, "confirmed"),
        (44, "confirmed"),
    ]
    # columns aligned with spaces do not matter: "t f(t)/3" against "  t   f(t)/3"
    assert found[2].printed == "t f(t)/3" and found[2].produced == "  t   f(t)/3"


def test_a_rendered_listing_is_imported_by_the_name_the_text_gives_it(scratch):
    document = parse(RENDERED, "sample.txt")
    assert document.form == "rendered text"
    assert list(file_names(document).values()) == ["halves.py", "listing_22.py"]
    runs = run_listings(document, scratch=scratch)
    assert all(run.ran for run in runs), [run.problem for run in runs]
    found = [c for run in runs for c in compare_run(run)]
    assert [(c.line, c.status) for c in found] == [(18, "confirmed"), (27, "confirmed")]


def test_one_slip_in_a_printed_number_is_a_mismatch_at_its_line(scratch):
    slipped = MDX.replace("  2   1.0000", "  2   1.0001")
    runs = run_listings(parse(slipped, "sample.mdx"), scratch=scratch)
    found = [c for run in runs for c in compare_run(run)]
    wrong = [c for c in found if c.status == "mismatched"]
    assert [(c.line, c.detail) for c in wrong] == [
        (44, "the chapter prints 1.0001, the listing prints 1.0000")
    ]


def test_a_listing_without_printed_output_still_runs_for_the_next_one(scratch):
    text = MDX.replace(f"{FENCE}text\nshift(1) = 2\ne = 2.7183\n{FENCE}\n", "")
    runs = run_listings(parse(text, "sample.mdx"), scratch=scratch)
    assert [run.ran for run in runs] == [True, True]
    assert compare_run(runs[0]) == []
    assert all(c.status == "confirmed" for c in compare_run(runs[1]))


HOSTILE = f"""# 見本：暴れるコード

<Definition id="def-hostile" title="暴れる">

本文。

</Definition>

{FENCE}python
import sys
while True:
    sys.stdout.write("x" * 65536)
{FENCE}

{FENCE}python
import numpy as np
block = np.ones((2**26, 8))
print(block.sum())
{FENCE}

{FENCE}python
import os
print("home inside:", os.path.expanduser("~").startswith(os.getcwd()))
open("left.txt", "w").write("x")
ratio = 1 / (len("abc") - 3)
{FENCE}

{FENCE}python
print("after all that: fine")
{FENCE}

{FENCE}text
after all that: fine
{FENCE}
"""


@pytest.fixture(scope="module", params=[None, False], ids=["where-allowed", "not-contained"])
def hostile(request, tmp_path_factory):
    """The hostile chapter run once (256 MiB and 64 KiB per listing) in a sandbox where the
    machine allows one, and once as the user's processes: the runs by the listing's line,
    and what was left in the scratch folder (nothing)."""
    scratch = tmp_path_factory.mktemp("scratch")
    document = parse(HOSTILE, "hostile.mdx")
    runs = run_listings(
        document, memory=256 * 2**20, output_limit=65536, contain=request.param, scratch=scratch
    )
    return {run.listing.line: run for run in runs}, list(scratch.iterdir())


def test_a_listing_that_loops_forever_is_stopped_at_the_time_limit(scratch):
    text = HOSTILE.split(f"{FENCE}python")[0] + f"{FENCE}python\nwhile True:\n    pass\n{FENCE}\n"
    (run,) = run_listings(parse(text, "loop.mdx"), timeout=1.0, scratch=scratch)
    assert run.problem == "stopped after 1 s"
    assert run.seconds >= 1.0  # stopped by the limit, not before it
    assert run.limited  # another machine, or more time, might see it to its end


def test_a_listing_that_prints_gigabytes_is_stopped_at_the_output_limit(hostile):
    run = hostile[0][10]
    assert run.problem == "printed more than 64 KiB; stopped"
    assert len(run.stdout) == 65536


def test_a_listing_that_allocates_too_much_is_stopped_at_the_memory_limit(hostile):
    run = hostile[0][16]
    assert run.problem == (
        "exceeded its 256 MiB of memory (MemoryError at line 2 of the listing, "
        "line 17 of the chapter)"
    )


def test_a_listing_that_raises_names_the_exception_and_its_line(hostile):
    run = hostile[0][22]
    assert run.stdout == "home inside: True\n"
    assert run.problem == (
        "raised ZeroDivisionError: division by zero (line 4 of the listing, line 25 of the chapter)"
    )
    assert "\n" not in run.problem


def test_only_a_listing_stopped_at_a_limit_is_limited(hostile):
    runs = hostile[0]
    # output, memory: limits of the sandbox; an exception, and a run to the end: its own
    assert [runs[line].limited for line in (10, 16, 22, 29)] == [True, True, False, False]


def test_the_listings_after_a_failing_one_still_run(hostile):
    run = hostile[0][29]
    assert run.ran and [c.status for c in compare_run(run)] == ["confirmed"]


def test_nothing_is_left_behind_even_by_listings_that_were_stopped(hostile):
    runs, left = hostile
    assert [run.ran for run in runs.values()] == [False, False, False, True]
    assert left == []


def test_the_limits_are_checked():
    document = parse(MDX, "sample.mdx")
    with pytest.raises(ValueError, match="^timeout: expected a positive number"):
        run_listings(document, timeout=0)
    with pytest.raises(ValueError, match="^memory: expected at least 64 MiB, got 1000$"):
        run_listings(document, memory=1000)
    with pytest.raises(ValueError, match="^total_timeout: expected a positive number"):
        run_listings(document, total_timeout=float("inf"))
    with pytest.raises(ValueError, match="^disk: expected at least 1 MiB, got 4096$"):
        run_listings(document, disk=4096)
    with pytest.raises(TypeError, match="^document: expected a Document, got str$"):
        run_listings("sample.mdx")  # type: ignore[arg-type]


# ---- comparing -----------------------------------------------------------------------


def test_rounding_level_numbers_agree_and_a_real_difference_does_not():
    assert agree("2.2e-16", "1.1e-16") == (True, True)
    assert agree("0.0e+00", "4.4e-16") == (True, True)
    assert agree("2.4e-15", "2.4e-05") == (False, False)
    assert agree("0.8420", "0.842049") == (True, False)
    assert agree("0.8420", "0.84206") == (False, False)
    assert agree("3.300e-4", "0.00033") == (True, False)
    assert agree("768", "786") == (False, False)
    assert ROUNDOFF == 1e-9
    listing = Listing(1, ("...",), 5, ("max diff 2.4e-15", "rows: 2.2e-16"))
    found = compare_output(listing, "max diff 2.4e-05\nrows: 1.1e-16\n")
    assert [(c.status, c.roundoff) for c in found] == [("mismatched", False), ("confirmed", True)]
    assert found[0].detail == "the chapter prints 2.4e-15, the listing prints 2.4e-05"
    assert (
        found[1].detail
        == "at rounding level: the chapter prints 2.2e-16, the listing prints 1.1e-16"
    )


def test_a_missing_or_an_extra_line_is_one_mismatch_at_its_line():
    listing = Listing(1, ("...",), 10, ("a 1", "b 2", "c 3"))
    missing = compare_output(listing, "a 1\nc 3\n", problem="stopped after 30 s")
    assert [(c.line, c.status) for c in missing] == [
        (10, "confirmed"),
        (11, "mismatched"),
        (12, "confirmed"),
    ]
    assert missing[1].detail == "the listing does not print this line: it stopped after 30 s"
    # stopped at a limit of its sandbox: what it did not print, it might have printed
    stopped = compare_output(listing, "a 1\nb 2\n", "stopped after 30 s", limited=True)
    assert [(c.line, c.status) for c in stopped] == [
        (10, "confirmed"),
        (11, "confirmed"),
        (12, "not checkable"),
    ]
    assert stopped[2].detail == "the listing does not print this line: it stopped after 30 s"
    # a line cut off as it was stopped is one it did not print; one it printed whole and
    # wrong is a mismatch still
    cut = compare_output(listing, "a 9\nb 2\nc", "stopped after 30 s", limited=True)
    assert [(c.line, c.status) for c in cut] == [
        (10, "mismatched"),
        (11, "confirmed"),
        (12, "not checkable"),
    ]
    extra = compare_output(listing, "a 1\nb 2\nwarning\nc 3\n")
    assert [(c.line, c.status, c.produced) for c in extra if c.status != "confirmed"] == [
        (12, "mismatched", "warning")
    ]
    assert compare_output(Listing(1, ("...",), None, ()), "anything") == []


def test_words_compare_exactly_and_aligned_columns_do_not_matter():
    listing = Listing(1, ("...",), 3, ("LN(x)      = [-1.069  0.     1.6036]", "ok: True"))
    found = compare_output(listing, "LN(x) = [ -1.069 0. 1.6036 ]\nok: False\n")
    assert [c.status for c in found] == ["confirmed", "mismatched"]
    detail = "the chapter prints True, the listing prints False"
    assert found[1] == OutputComparison(4, "ok: True", "ok: False", "mismatched", detail)
    listing = Listing(1, ("...",), 3, ("rows 1-4:  0.5",))
    (reworded,) = compare_output(listing, "rows 1-4: 0.5 (mean)")
    assert reworded.detail == (
        "the chapter prints 'rows 1-4: 0.5', the listing prints 'rows 1-4: 0.5 (mean)'"
    )


# ---- the seeds and the corpus --------------------------------------------------------


def seed(path: Path):
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    return read_chapter(path)


@pytest.fixture(scope="module")
def attention_runs():
    return run_listings(seed(ATTENTION))


def test_the_self_attention_listings_reproduce_their_22_printed_lines(attention_runs):
    assert [run.file for run in attention_runs] == [
        "attention.py",
        "listing_689.py",
        "listing_789.py",
    ]
    assert all(run.ran for run in attention_runs), [run.problem for run in attention_runs]
    found = [c for run in attention_runs for c in compare_run(run)]
    assert len(found) == 22
    assert [c for c in found if c.status != "confirmed"] == []
    # only the lines printing measured rounding errors (differences that are 0 in exact
    # arithmetic, printed %.1e) may agree as rounding errors, whatever digits this BLAS
    # prints: 2.2e-16 and 1.1e-16 on lines 668 and 672 here
    rounding_errors = {668, 670, 672, 673}
    assert {c.line for c in found if c.roundoff} <= rounding_errors


def test_the_block_listings_need_attention_py_from_the_self_attention_chapter():
    document = seed(BLOCK)
    alone = run_listings(document)
    assert alone[0].problem == (
        "needs attention.py, which the text names but no listing before it gives: audit the "
        "chapter that has it first, in the same run (ModuleNotFoundError at line 4 of the "
        "listing, line 367 of the chapter)"
    )
    assert alone[0].wanting == "attention.py"
    runs = run_listings(document, earlier_chapters=[seed(ATTENTION)])
    assert [run.file for run in runs] == ["transformer.py", "listing_443.py"]
    found = [c for run in runs for c in compare_run(run)]
    assert len(found) == 14
    assert [c for c in found if c.status != "confirmed"] == []


def corpus_slips(category: str) -> list[tuple]:
    spec = importlib.util.spec_from_file_location("corpus_slips", CORPUS / "slips.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [edit for edit in module.SLIPS if edit[5] == category]


@pytest.mark.parametrize(
    ("name", "files", "printed_lines"),
    [
        ("inference.mdx", ["kv_cache.py", "listing_361.py"], 16),
        ("training.txt", ["listing_237.py"], 15),
    ],
)
def test_the_corpus_listings_reproduce_their_output_and_catch_each_slip(name, files, printed_lines):
    path = CORPUS / name
    runs = run_listings(read_chapter(path))
    assert [run.file for run in runs] == files
    assert all(run.ran for run in runs), [run.problem for run in runs]
    found = [c for run in runs for c in compare_run(run)]
    assert len(found) == printed_lines
    assert [c for c in found if c.status != "confirmed"] == []
    produced = {run.listing.code: run.stdout for run in runs}
    text = path.read_text(encoding="utf-8").split("\n")
    slips = [edit for edit in corpus_slips("listing output") if edit[1] == name]
    assert len(slips) == 8
    for slip_name, _, line, old, new, _, expected in slips:
        edited = list(text)
        edited[line - 1] = edited[line - 1].replace(old, new)
        document = parse("\n".join(edited), str(path))
        wrong = [
            c
            for listing in document.listings
            for c in compare_output(listing, produced[listing.code])
            if c.status == "mismatched"
        ]
        assert [c.line for c in wrong] == [expected or line], slip_name
        changed = next(b for a, b in zip(old.split(), new.split(), strict=True) if a != b)
        assert wrong[0].detail.startswith(f"the chapter prints {changed}, the listing prints")


WANTING = """\
# 試しの章

<Remark id="rem-x" title="x">

前の章のコード helper.py を使います。

</Remark>

```python
from helper import double
print(double(21))
```

```text
42
```
"""


def test_a_listing_that_needs_another_chapters_file_is_not_checkable_without_it():
    report = audit_document(parse(WANTING, "w.mdx"), run=True)
    outputs = [(f.line, f.code, str(f.status)) for f in report.findings if f.section == "output"]
    assert (10, "OUT002", "not checkable") in outputs
    assert report.mismatched == []


def test_a_listing_stopped_at_a_limit_leaves_what_it_did_not_print_undecided():
    document = parse(MDX, "sample.mdx")
    listing = document.listings[0]
    outputs = audit_outputs(document, "")
    stopped = ListingRun(listing, "shift.py", "shift(1) = 2\n", "stopped after 30 s", 30.0)
    for limited, status in ((True, "not checkable"), (False, "mismatched")):
        run = replace(stopped, limited=limited)
        found = {(f.line, f.code): str(f.status) for f in with_runs(outputs, document, [run])}
        assert found[listing.line, "OUT002"] == status  # the run itself
        first = listing.output_line
        assert found[first + 1, "OUT003"] == status  # e = 2.7183, never printed
        assert found[first, "OUT003"] == "confirmed"  # printed as the chapter prints it

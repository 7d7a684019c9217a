"""`sync` on a chapter no package knows: the table column its header's formula computes
and the output its listing prints, run, written back (tests/samples/unseen.mdx); nothing
else touched."""

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from commands import run
from places import SAMPLES

from proofs.audit import sync
from proofs.audit.listings import ListingRun
from proofs.audit.sync_computed import output_lines
from proofs.files import Changed
from proofs.reader import parse
from proofs.reader.records import Listing
from proofs.typeset.reprint import reprinted

UNSEEN = SAMPLES / "unseen.mdx"
TABLE_SLIP = ("| 3 | 0.0125 | |", "| 3 | 0.0152 | |")
LISTING_SLIP = ("t = 2: eta = 0.0250", "t = 2: eta = 0.0205")
EXPONENT_SLIP = ("sum = 1.87500e-01", "sum = 1.87050e-01")


def slipped(tmp_path: Path, *slips: tuple[str, str], crlf: bool = False) -> Path:
    text = UNSEEN.read_text(encoding="utf-8")
    for before, after in slips:
        assert text.count(before) == 1
        text = text.replace(before, after)
    path = tmp_path / "unseen.mdx"
    path.write_bytes(text.replace("\n", "\r\n").encode() if crlf else text.encode())
    return path


def test_sync_write_run_listings_restores_a_slipped_cell_and_output_line_byte_for_byte(
    capsys, tmp_path
):
    path = slipped(tmp_path, TABLE_SLIP, LISTING_SLIP, EXPONENT_SLIP)
    code, _, err = run(capsys, "sync", path, "--write", "--run-listings")
    assert code == 0, err
    assert path.read_bytes() == UNSEEN.read_bytes()
    assert "3 regions drifted: table (ステップ $t$ | 学習率 $\\eta_0 \\gamma^t$ | 備考)" in err
    assert run(capsys, "sync", path, "--run-listings")[0] == 0  # again: in sync


def test_sync_keeps_the_line_ends_of_an_unseen_chapter(capsys, tmp_path):
    path = slipped(tmp_path, TABLE_SLIP, LISTING_SLIP, crlf=True)
    assert run(capsys, "sync", path, "--write", "--run-listings")[0] == 0
    assert path.read_bytes() == UNSEEN.read_bytes().replace(b"\n", b"\r\n")


def test_sync_without_run_listings_runs_nothing_and_leaves_the_output(capsys, tmp_path):
    path = slipped(tmp_path, TABLE_SLIP, LISTING_SLIP)
    code, out, _ = run(capsys, "sync", path)
    assert code == 1
    assert "-| 3 | 0.0152 | |\n+| 3 | 0.0125 | |" in out
    assert "eta = 0.0205" not in out.replace(" t = 2: eta = 0.0205", "")
    assert run(capsys, "sync", path, "--write")[0] == 0
    assert LISTING_SLIP[1] in path.read_text(encoding="utf-8")


def test_the_pristine_unseen_chapter_is_in_sync(capsys):
    code, out, err = run(capsys, "sync", UNSEEN, "--run-listings")
    assert (code, out) == (0, "")
    assert "in sync (1 table, 5 output lines, 0 figures regenerated; 0 left alone)" in err


def test_sync_write_refuses_an_unseen_chapter_changed_since_it_was_read(tmp_path):
    path = slipped(tmp_path, TABLE_SLIP)
    result = sync.sync_file(path)
    path.write_text(path.read_text(encoding="utf-8") + "\n追記。\n", encoding="utf-8")
    with pytest.raises(Changed):
        result.write()
    assert "追記" in path.read_text(encoding="utf-8")


def produced(listing_line: int, output: tuple[str, ...], stdout: str) -> ListingRun:
    listing = Listing(listing_line, ("print()",), listing_line + 2, output)
    return ListingRun(listing, "listing.py", stdout, "", 0.0)


def test_an_output_line_in_other_words_or_another_count_of_numbers_is_left_alone():
    runs = [produced(1, ("a = 1.5", "b = 2 3", "c = 4"), "a = 1.7\nb = 2\nd = 5\n")]
    assert output_lines(runs) == {3: "a = 1.7"}


def test_two_rounding_errors_are_not_rewritten_whatever_their_digits():
    runs = [produced(1, ("err = 2.2e-16, x = 0.84",), "err = 1.1e-16, x = 0.86\n")]
    assert output_lines(runs) == {3: "err = 2.2e-16, x = 0.86"}


@pytest.mark.parametrize(
    ("value", "like", "written"),
    [
        (Fraction(1, 80), "0.0152", "0.0125"),
        (Fraction(1, 8), "0.1", "0.1"),  # half to even
        (Fraction(3, 16), "1.87050e-01", "1.87500e-01"),
        (Fraction(-3, 16000), "-1.8E-4", "-1.9E-4"),  # its exponent form kept
        (Fraction(7087872), "7,087,827", "7,087,872"),
        (Fraction(-1, 4), "−0.3", "−0.2"),
        (Fraction(5), "+4", "+5"),
    ],
)
def test_a_number_is_reprinted_in_the_form_of_the_one_it_replaces(value, like, written):
    assert reprinted(value, like) == written


def test_reprinted_refuses_what_is_no_printed_number():
    with pytest.raises(ValueError, match="like: expected a printed number, got 'abc'"):
        reprinted(Fraction(1), "abc")


def test_a_table_column_without_a_formula_is_left_alone(capsys, tmp_path):
    path = tmp_path / "words.mdx"
    shutil.copyfile(SAMPLES / "chapter.mdx", path)
    text = path.read_text(encoding="utf-8").replace("| 2 | 3 |", "| 2 | 4 |")
    path.write_text(text, encoding="utf-8")
    assert run(capsys, "sync", path, "--write")[0] == 0
    assert "| 2 | 4 |" in path.read_text(encoding="utf-8")
    assert parse(text, "w.mdx").tables

"""Every finding comes from the file audited: a number a check reads, written another
correct way (tests/correct_rewrites.py), is audited without a finding; a claim the
audit can no longer read or locate is not checkable, at its element, and the check is not
run on the package's copy of it. benchmarks/correct_rewrites.py audits every rewrite of
the two chapters; here a sample of each kind, and the chapters' one real slip fixed."""

from __future__ import annotations

import pytest
from correct_rewrites import Rewrite, mismatches, new_mismatches, rewrites
from places import SEEDS

from proofs.audit import Report, audit_document
from proofs.reader import Document, parse

FILES = {"sa": "000_ce182fefa314a82b.txt", "tb": "002_1f7cf506cffefce0.txt"}
PER_KIND = 2  # rewrites of each kind audited per chapter


def text_of(key: str) -> str:
    path = SEEDS / FILES[key]
    if not path.is_file():
        pytest.skip(f"{path} is not here: no chapter to rewrite")
    return path.read_text(encoding="utf-8")


def audited(text: str, key: str) -> Report:
    return audit_document(parse(text, FILES[key]))


def rewritten(text: str, rewrite: Rewrite, key: str) -> Report:
    return audited("\n".join(rewrite.apply(text.split("\n"))), key)


def sample(document: Document) -> list[Rewrite]:
    """The first PER_KIND rewrites of each kind, and the last one of each."""
    found = rewrites(document)
    kinds = sorted({r.kind for r in found})
    chosen = []
    for kind in kinds:
        of_kind = [r for r in found if r.kind == kind]
        chosen += [*of_kind[:PER_KIND], of_kind[-1]]
    return list(dict.fromkeys(chosen))


@pytest.mark.slow
@pytest.mark.parametrize("key", ["sa", "tb"])
def test_a_sample_of_each_kind_of_correct_rewrite_gets_no_finding(key):
    text = text_of(key)
    before = mismatches(audited(text, key))
    chosen = sample(parse(text, FILES[key]))
    assert {r.kind for r in chosen} >= {"grouping", "shorter"}
    false = {r.name: new_mismatches(rewritten(text, r, key), before, r) for r in chosen}
    assert {name: found for name, found in false.items() if found} == {}


def test_the_rewrites_cover_every_kind_and_the_chapters_one_slip():
    text = text_of("tb")
    found = rewrites(parse(text, FILES["tb"]))
    assert {r.kind for r in found} == {"grouping", "shorter", "longer", "constant", "rounding"}
    (fix,) = [r for r in found if r.kind == "rounding"]
    assert (fix.line, fix.old, fix.new) == (114, "1.1428", "1.1429")


def test_ex_layer_norm_scale_with_its_slip_fixed_everywhere_gets_no_finding():
    """1.1428 replaced by 1.1429, the correct rounding of 8/7: the check runs on the
    chapter's squares, not on its own transcription of them."""
    report = audited(text_of("tb").replace("1.1428", "1.1429"), "tb")
    assert report.mismatched == []
    (check,) = [
        f for f in report.findings if f.ref == "ex-layer-norm-scale" and f.section == "check"
    ]
    assert check.status == "confirmed"


def test_a_claim_the_reader_cannot_read_is_not_checkable_and_the_check_not_run():
    """3.5 written \\frac{7}{2}: the same value, which the printed-number reader of
    σ² does not read; a claim not checkable, never a mismatch."""
    text = text_of("tb").replace(r"(4 + 1 + 0 + 9) = 3.5$", r"(4 + 1 + 0 + 9) = \frac{7}{2}$")
    report = audited(text, "tb")
    of_it = [f for f in report.findings if f.ref == "ex-layer-norm-scale"]
    assert [f for f in of_it if f.status == "mismatched"] == []
    claim = next(f for f in of_it if f.section == "claim" and "3.5" in f.text)
    assert claim.status == "not checkable" and "cannot be read" in claim.detail
    check = next(f for f in of_it if f.section == "check")
    assert check.status == "not checkable" and check.detail.startswith("not run on the chapter")


def test_a_claim_no_longer_located_is_said_so_at_its_element():
    """σ = 1.8708 deleted: the check reads it and the chapter no longer states it; the
    check is not run on the package's 1.8708 in its place."""
    text = text_of("tb").replace(r"$\sigma = 1.8708$ なので、", "")
    report = audited(text, "tb")
    element = next(f for f in report.findings if f.ref == "ex-layer-norm-scale")
    claim = next(
        f for f in report.findings if f.section == "claim" and f.text == r"$\sigma = 1.8708$"
    )
    assert (claim.status, claim.line) == ("not checkable", element.line)
    assert "not located" in claim.detail
    check = next(
        f for f in report.findings if f.ref == "ex-layer-norm-scale" and f.section == "check"
    )
    assert check.status == "not checkable"

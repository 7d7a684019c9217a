"""Claims compared by what they say: a number in another of the chapter's notations is
the same claim, a changed digit, word or precision is not."""

from __future__ import annotations

import pytest

from proofs.audit.deciding.meaning import by_meaning, normalised
from proofs.book.claims import Claim, Located
from proofs.reader import parse

NOTATIONS = ["1,024", "1024", "1{,}024", "１０２４", "１，０２４", "$1\\,024$"]


@pytest.mark.parametrize("written", NOTATIONS)
def test_a_number_in_any_of_its_notations_reads_alike(written):
    assert normalised(f"文脈長は {written} です") == normalised("文脈長は 1,024 です")


@pytest.mark.parametrize("changed", ["1,042", "1.024", "10,24", "1,024.0", "1,0240"])
def test_another_number_or_precision_reads_otherwise(changed):
    assert normalised(f"文脈長は {changed}") != normalised("文脈長は 1,024")


def test_spacing_and_full_width_forms_are_not_words():
    assert normalised("半正定値 である。") == normalised("半正定値である")
    assert normalised(r"$h$ に依らない") == normalised("ｈに依らない")
    assert normalised("正定値である") != normalised("半正定値である")


CHAPTER = "第 9 章 試し\n\n3. 節\n\n例 3.1（数）\n\n語彙は {} で、文脈長は $n = {}$ です。\n"


def located(phrase: bool, text: str, vocabulary: str, length: str) -> Located:
    document = parse(CHAPTER.format(vocabulary, length), "chapter.txt")
    record = document.elements[0]
    claim = Claim(text, where="statement", phrase=phrase)
    return by_meaning(Located(claim, "missing", record.line, ""), document, record)


def test_a_phrase_claim_is_found_in_another_notation_and_not_when_changed():
    assert located(True, "語彙は 50,257", "50257", "1024").status == "found"
    assert located(True, "語彙は 50,257", "５０２５７", "1024").status == "found"
    assert located(True, "語彙は 50,257", "50,275", "1024").status == "missing"


def test_a_formula_claim_is_found_in_another_notation_and_not_when_changed():
    assert located(False, "n = 1024", "50,257", "1{,}024").status == "found"
    assert located(False, "n = 1024", "50,257", "1{,}042").status == "missing"


def table_claim(rows: str) -> Located:
    document = parse("第 9 章 試し\n\n3. 節\n\n例 3.1（表）\n\n$n$\t個数\n64\t1,048,576\n", "t.txt")
    record = document.elements[0]
    claim = Claim("$n$ | 個数\n64 | 1,048,576", where="statement", table=True)
    return by_meaning(Located(claim, "changed", 7, rows), document, record)


def test_a_table_claim_is_found_when_its_cells_say_the_same():
    assert table_claim("$n$ | 個数\n64 | 1048576").status == "found"
    assert table_claim("$n$ | 個数\n６４ | 1{,}048{,}576").status == "found"
    assert table_claim("$n$ | 個数\n64 | 1,048,567").status == "changed"

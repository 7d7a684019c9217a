"""What a chapter can make the audit pay is bounded by its size: the document's indexes,
the places of statements on their lines and the equalities' caches are built once, so the
work grows with the chapter, not with its square. Growth is shown by counting the work
done on a small chapter and on one four times as long (benchmarks/audit_scaling.py times
it); the indexes are checked against the plain scans they replace."""

from dataclasses import replace
from unittest import mock

import pytest
from places import SAMPLES

from proofs.audit.deciding import sentence
from proofs.audit.rules import restated
from proofs.audit.rules.equalities import Definitions, Settings, audit_equalities
from proofs.book.registry import load_all
from proofs.cli.verify import _runs
from proofs.reader import parse
from proofs.reader.math import Place, statement_lines, statement_places
from proofs.tex.tree import parse as parse_tex


class Counted(tuple):
    """A tuple that counts the items its iterations hand out."""

    handed = 0

    def __iter__(self):
        for item in super().__iter__():
            self.handed += 1
            yield item


def chapter(propositions: int) -> str:
    """A rendered chapter of propositions, each with two formulas stated and one proved."""
    lines = ["見本：長さ", "", "1. 節", ""]
    for k in range(1, propositions + 1):
        lines += [f"命題 1.{k}（値）", "", f"$f({k}) = {k} + 1$ かつ $g = {k}$ である。", ""]
        lines += [f"証明（命題 1.{k}）", "", f"$f({k}) = {k + 1}$。", "", "∎", ""]
    return "\n".join(lines)


def with_line(line: str) -> tuple:
    """A one-proposition chapter with one more line; the document and that line's number."""
    document = parse(chapter(1) + "\n" + line + "\n")
    return document, document.lines.index(line) + 1


def handed_out(propositions: int) -> int:
    """The formulas and elements the equalities' audit of the chapter iterates over."""
    document = parse(chapter(propositions))
    math, elements = Counted(document.math), Counted(document.elements)
    audit_equalities(replace(document, math=math, elements=elements))
    return math.handed + elements.handed


def test_the_equalities_audit_reads_each_formula_and_element_a_fixed_number_of_times():
    assert handed_out(40) == 4 * handed_out(10)


def test_math_in_reads_the_formulas_once_however_often_it_is_asked():
    document = parse(chapter(20))
    math = Counted(document.math)
    counted = replace(document, math=math)
    for element in counted.elements:
        assert element.proof is not None
        counted.math_in(*element.statement)
        counted.math_in(*element.proof)
    assert math.handed == len(document.math) == 60


def listed_items_matched(count: int) -> int:
    """How many times the audit of a line of `count` equalities 「$k = k$、…」 matches an
    item of a list of settings; every one of them is confirmed."""
    document, at = with_line("、".join(f"${k} = {k}$" for k in range(count)))
    listed = mock.Mock(wraps=sentence._LISTED)
    sentence._sentence.cache_clear()
    with mock.patch.object(sentence, "_LISTED", listed):
        found = audit_equalities(document)
    on_line = [f.status for f in found if f.line == at]
    assert on_line == ["confirmed"] * count
    return listed.match.call_count


def test_the_list_of_settings_after_each_formula_is_read_once_per_line():
    """The 「、$…$、$…$」 list after each formula of a line is the same list from where
    that formula stands: each item is matched once for the whole line, not once for each
    formula before it."""
    assert listed_items_matched(200) - listed_items_matched(50) == 150


def test_element_at_is_the_first_element_whose_span_holds_the_line():
    """The sample twice over: the second proof of each id is the one the reader keeps, so
    the first copy's spans run into the second's."""
    text = (SAMPLES / "chapter.mdx").read_text(encoding="utf-8")
    document = parse(text + "\n" + text)
    spans = [(e, e.line, (e.proof or e.statement)[1]) for e in document.elements]
    assert spans[1][2] > spans[4][1]  # overlapping
    for line in range(-1, len(document.lines) + 3):
        first = next((e for e, start, last in spans if start <= line <= last), None)
        assert document.element_at(line) is first


def test_math_in_and_element_are_the_plain_scans():
    text = (SAMPLES / "chapter.mdx").read_text(encoding="utf-8")
    document = parse(text + "\n" + text)
    for first in range(0, len(document.lines) + 2, 3):
        for last in range(first - 1, len(document.lines) + 2, 7):
            plain = tuple(m for m in document.math if first <= m.line <= last)
            assert document.math_in(first, last) == plain
    for e in document.elements:
        assert document.element(e.number) is next(
            x for x in document.elements if e.number in (x.id, x.number)
        )
        assert e.id is not None
        assert document.element(e.id) is next(x for x in document.elements if x.id == e.id)
    assert document.element("prop-none") is None


def test_statement_places_give_each_statement_its_column_and_its_formula_closing():
    lines = ["前 $a = 1, b = 2$ と $a = 1$ の後", "$$", "c = 3 \\\\", "  d = 4 $$ と $e = 5$"]
    document = parse("見本\n\n1. 節\n\n命題 1.1（値）\n\n" + "\n".join(lines) + "\n")
    at = document.lines.index(lines[0]) + 1
    assert statement_places(document.lines, document.math) == [
        Place(at, 3, "a = 1", 15),
        Place(at, 10, "b = 2", 15),
        Place(at, 20, "a = 1", 25),
        Place(at + 2, 0, "c = 3", None),
        Place(at + 3, 2, "d = 4", None),
        Place(at + 3, 14, "e = 5", 19),
    ]
    assert document.place(at, "a = 1") == Place(at, 3, "a = 1", 15)
    assert document.place(at, "e = 5") is None
    assert document.place(at + 3, "e = 5") == Place(at + 3, 14, "e = 5", 19)


def test_a_statement_is_the_hypothesis_its_own_formula_makes_not_an_earlier_text():
    """$x$ stands inside σ²(x) before it stands alone, followed by 「の成分」: the formula
    holding it is the one after which the sentence is read."""
    document, at = with_line(r"$\sigma^2(x) > 0$、すなわち $x$ の成分がすべて等しくはない")
    assert sentence.is_hypothesis(document, at, "x")
    assert not sentence.is_hypothesis(document, at, r"\sigma^2(x) > 0")


def test_the_condition_of_a_statement_is_the_last_hypothesis_before_its_formula():
    document, at = with_line(r"$i \ne j$ のとき $a_{ij} = 0$、$i = j$ のとき $a_{ii} = 1$")
    assert sentence.condition_of(document, at, "a_{ij} = 0") == (True, parse_tex(r"i \ne j"))
    assert sentence.condition_of(document, at, "a_{ii} = 1") == (True, parse_tex("i = j"))
    assert sentence.condition_of(document, at, r"i \ne j") == (False, None)


def test_a_display_statement_is_on_the_line_its_first_character_stands_on():
    """An aligned statement is not found as written (its & is dropped): its line is still
    the one it stands on."""
    assert statement_lines(10, "\n a &= 1 \\\\\n b &= 2") == [(10, "a = 1"), (11, "b = 2")]
    assert statement_lines(3, r"x = 1, \ldots, n \quad y") == [(3, r"x = 1, \ldots, n \quad y")]


def test_settings_keys_tell_apart_what_lines_set_and_share_what_they_set_alike():
    one, other, same = Settings(), Settings(), Settings()
    one.set("d", 2)
    other.set("d", 5)
    same.set("d", 2)
    assert one.key == same.key != other.key
    assert one.values == {"d": 2}


def test_a_line_s_settings_hold_for_that_line_only():
    text = chapter(1) + "\n$d = 2$ とし $d + 1 = 3$。\n$d = 5$ とし $d + 1 = 3$。\n"
    found = [f for f in audit_equalities(parse(text)) if "d + 1" in f.text]
    assert [f.status for f in found] == ["confirmed", "mismatched"]


def test_definitions_keys_are_equal_for_equal_definitions_in_any_order():
    first, second, third = Definitions(), Definitions(), Definitions()
    first.define("S", 1)
    first.define("a", 2)
    second.define("a", 2)
    second.define("S", 1)
    third.define("S", 2)
    third.define("a", 2)
    assert first.key == second.key != third.key
    assert first.key != Definitions().key


def test_verify_starts_no_more_workers_than_the_usable_cores():
    class Refused(Exception):
        pass

    started = []

    def pool(workers, **_):
        started.append(workers)
        raise Refused

    elements = list(load_all().values())[:6]
    with (
        mock.patch("proofs.cli.verify.cores", return_value=2),
        mock.patch("concurrent.futures.ProcessPoolExecutor", pool),
        pytest.raises(Refused),
    ):
        next(_runs(elements, "ci", 10_000))
    assert started == [2]


def numbers_chapter(rows: int) -> str:
    """A chapter of `rows` lines of equalities of their own numbers, a table of `rows` rows
    of four-digit decimals, and as many tuples in the prose restating them."""
    lines = [chapter(1)]
    lines += [f"${k} \\times 7 = {7 * k}$ です。" for k in range(1000, 1000 + rows)]
    lines += ["", "$n$\t$a$\t$b$\t$c$"]
    lines += [f"{k}\t0.{k}\t0.{k + 1}\t0.{k + 2}" for k in range(1000, 1000 + rows)]
    lines += [""] + [
        f"組は $(0.{k}, 0.{k + 1}, 0.{k + 2})$ です。" for k in range(1000, 1000 + rows)
    ]
    return "\n".join(lines) + "\n"


def restatement_work(rows: int) -> int:
    """How many roundings and comparisons of printed numbers the restatement rules make on
    numbers_chapter(rows)."""
    document = parse(numbers_chapter(rows))
    at, same = mock.Mock(wraps=restated._at), mock.Mock(wraps=restated._same)
    with mock.patch.object(restated, "_at", at), mock.patch.object(restated, "_same", same):
        restated.audit_restated(document)
        restated.audit_restated_tuples(document)
    return at.call_count + same.call_count


def test_the_restatement_rules_work_in_proportion_to_the_numbers_printed():
    """Looked up in indexes, not compared pair by pair: the work of 4n lines is that of n
    lines and three times what n more lines add (pair by pair it grew as the square)."""
    one, two, four = (restatement_work(n) for n in (50, 100, 200))
    assert four - one == 3 * (two - one)


def test_a_name_set_again_after_a_relation_used_it_takes_its_new_value():
    line = r"$b = 10$ では $\log b \approx 2.3026$、$b = 500$ では $\log b \approx {}$ です。"
    found = audit_equalities(parse(chapter(1) + "\n" + line.format("6.2146")))
    assert [f.status for f in found if "log" in f.text] == ["confirmed", "confirmed"]
    slipped = audit_equalities(parse(chapter(1) + "\n" + line.format("6.2145")))
    assert [f.status for f in slipped if "log" in f.text] == ["confirmed", "mismatched"]
    # set twice before any relation uses it, the name takes neither value
    both = Settings()
    both.set("d", 512)
    both.set("d", 768)
    assert both.values == {} and both.varying == {"d"}

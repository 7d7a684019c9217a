"""The chapter reader on small samples of both forms (tests/samples/), record by record,
and on the chapters themselves: the same records from either form."""

import pytest
from places import SAMPLES, SEEDS

from proofs.reader import ChapterInputError, parse, read_chapter
from proofs.reader.records import Element, Heading, Listing, Math, Ref, Table


@pytest.fixture(scope="module")
def mdx():
    return read_chapter(SAMPLES / "chapter.mdx")


@pytest.fixture(scope="module")
def rendered():
    return read_chapter(SAMPLES / "chapter.txt")


def test_mdx_sample_form_title_and_headings(mdx):
    assert (mdx.form, mdx.title) == ("MDX", "見本：二つの形")
    assert mdx.headings == (Heading(3, "1", "準備"), Heading(34, "2", "演習"))


def test_mdx_sample_elements_are_numbered_by_section(mdx):
    assert mdx.elements == (
        Element("definition", "定義 1.1", "def-shift", "ずらし", 5, (7, 13), None),
        Element(
            "proposition", "命題 1.2", "prop-shift-value", "ずらしの値", 17, (19, 19), (25, 25)
        ),
        Element("exercise", "演習 2.1", "exr-shift-two", "", 36, (38, 38), (42, 42), "易"),
    )


def test_mdx_sample_math_tables_listings_refs(mdx):
    assert mdx.math == (
        Math(7, r"x \in \mathbb{R}", False),
        Math(10, "\nf(x) := x + 1\n", True),
        Math(19, "f(0) = 1", False),
        Math(25, "f(0) = 0 + 1 = 1", False),
        Math(29, "x", False),
        Math(29, "f(x)", False),
        Math(38, "f(2)", False),
        Math(42, "f(2) = 3", False),
    )
    assert mdx.tables == (Table(29, (("$x$", "$f(x)$"), ("1", "2"), ("2", "3")), (29, 31, 32)),)
    assert mdx.listings == (Listing(48, ("print(1 + 1)",), 52, ("2",)),)
    assert mdx.refs == (
        Ref(25, "def-shift"),
        Ref(42, "mathematics/sample#def-other", "mathematics/sample"),
    )
    assert [r.external for r in mdx.refs] == [False, True]
    assert mdx.code == frozenset({47, 48, 49, 51, 52, 53})


def test_rendered_sample_reads_into_the_same_records(rendered):
    assert (rendered.form, rendered.title) == ("rendered text", "見本：二つの形")
    assert rendered.headings == (Heading(3, "1", "準備"), Heading(27, "2", "演習"))
    assert rendered.elements == (
        Element("definition", "定義 1.1", None, "ずらし", 5, (7, 11), None, "↗"),
        Element("proposition", "命題 1.2", None, "ずらしの値", 13, (15, 15), (19, 19), "✓"),
        Element("exercise", "演習 2.1", None, "", 29, (31, 31), (35, 35), "易"),
    )
    assert [m.tex for m in rendered.math] == [
        r"x \in \mathbb{R}",
        "f(x) := x + 1",
        "f(0) = 1",
        "f(0) = 0 + 1 = 1",
        "x",
        "f(x)",
        "f(2)",
        "f(2) = 3",
    ]
    assert rendered.tables == (
        Table(23, (("$x$", "$f(x)$"), ("1", "2"), ("2", "3")), (23, 24, 25)),
    )
    assert rendered.listings == (Listing(37, ("# Python 3.12", "print(1 + 1)", ""), 40, ("2",)),)
    assert rendered.refs == (Ref(19, "定義 1.1"), Ref(35, "定義 3.1", "別の章"))


def test_element_lookups(mdx):
    assert mdx.element("prop-shift-value") is mdx.elements[1]
    assert mdx.element("定義 1.1") is mdx.elements[0]
    assert mdx.element_at(25) is mdx.elements[1]
    assert mdx.element_at(28) is None
    assert [m.tex for m in mdx.math_in(17, 25)] == ["f(0) = 1", "f(0) = 0 + 1 = 1"]


def test_a_byte_order_mark_is_read_in_either_form():
    for name in ("chapter.mdx", "chapter.txt"):
        text = (SAMPLES / name).read_text(encoding="utf-8")
        assert parse("\ufeff" + text).elements == parse(text).elements


@pytest.mark.parametrize(
    "text, message",
    [
        ("# T\n\n<Lemma>\n\n</Lemma>\n", r"<text>:3: <Lemma> has no id"),
        ('# T\n\n<Lemma id="a">\n\n</Lemma>\n\n```python\nx = 1\n', r"<text>:7: code fence"),
        ("Just prose.\n", "neither form"),
    ],
    ids=["element-without-id", "unclosed-fence", "neither-form"],
)
def test_malformed_text_names_the_line(text, message):
    with pytest.raises(ChapterInputError, match=message):
        parse(text)


STRUCTURE = {  # id: (MDX text, the problems (line, message) the reader records)
    "unclosed-at-the-end": (
        '# T\n\n<Lemma id="lem-x">\n\nno end\n',
        [(3, "<Lemma> is never closed with </Lemma>")],
    ),
    "unclosed-before-the-next-element": (
        '# T\n\n<Lemma id="a">\n\nA.\n\n<Lemma id="b">\n\nB.\n\n</Lemma>\n',
        [(3, "<Lemma> is not closed before <Lemma> at line 7")],
    ),
    "closed-by-another-kind": (
        '# T\n\n<Lemma id="a">\n\nA.\n\n</Theorem>\n',
        [(3, "<Lemma> is not closed before </Theorem> at line 7")],
    ),
    "unclosed-before-its-proof": (
        '# T\n\n<Lemma id="a">\n\nA.\n\n<Proof of="a">\n\nP.\n\n</Proof>\n',
        [(3, "<Lemma> is not closed before <Proof> at line 7")],
    ),
    "closing-tag-of-nothing": (
        '# T\n\n<Lemma id="a">\n\nA.\n\n</Lemma>\n\n</Lemma>\n',
        [(9, "</Lemma> closes no element")],
    ),
    "unclosed-proof": (
        '# T\n\n<Lemma id="a">\n\nA.\n\n</Lemma>\n\n<Proof of="a">\n\nP.\n',
        [(9, "<Proof> is never closed with </Proof>")],
    ),
    "unpaired-dollar": (
        '# T\n\n<Lemma id="a">\n\n$x = 1 and $y$\n\n$z$\n\n</Lemma>\n',
        [(5, "$ has no closing $ on its line")],
    ),
    "display-open-across-a-paragraph": (
        '# T\n\n<Lemma id="a">\n\n$$\nx = 1\n\nprose $y$\n\n</Lemma>\n',
        [(5, "$$ is not closed before its paragraph ends")],
    ),
    "display-open-at-the-end": (
        '# T\n\n<Lemma id="a">\n\nA.\n\n</Lemma>\n\n$$x\n',
        [(9, "$$ is not closed before the file ends")],
    ),
}


@pytest.mark.parametrize("case", list(STRUCTURE))
def test_a_structure_defect_is_recorded_at_its_line_and_read_past(case):
    text, problems = STRUCTURE[case]
    document = parse(text)
    assert [(p.line, p.message) for p in document.problems] == problems
    assert [e.id for e in document.elements] == [
        e for e in ("a", "b", "lem-x") if f'id="{e}"' in text
    ]


def test_an_unclosed_element_ends_before_the_next_one():
    document = parse(STRUCTURE["unclosed-before-the-next-element"][0])
    assert [e.statement for e in document.elements] == [(5, 5), (9, 9)]


def test_dollars_pair_left_to_right_and_the_one_left_over_opens_nothing():
    document = parse(STRUCTURE["unpaired-dollar"][0])
    assert [(m.line, m.tex) for m in document.math] == [(5, "x = 1 and "), (7, "z")]


def test_the_samples_and_chapters_have_no_structure_problem(mdx, rendered):
    assert mdx.problems == rendered.problems == ()


@pytest.mark.parametrize("name", ["000_ce182fefa314a82b.txt", "002_1f7cf506cffefce0.txt"])
def test_the_chapters_read_with_every_element_numbered(name):
    path = SEEDS / name
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    document = read_chapter(path)
    numbers = [e.number for e in document.elements]
    assert len(numbers) == len(set(numbers)) == {"000": 26, "002": 21}[name[:3]]
    assert all(e.statement[0] <= e.statement[1] for e in document.elements)


def test_a_display_line_that_starts_with_a_bar_is_not_a_table():
    text = "\n".join(
        [
            "# 章",
            "",
            '<Proposition id="prop-a" title="a">',
            "",
            "$$",
            r"|\mathrm{fl}(x) - x| = 2^k t",
            "$$",
            "",
            "</Proposition>",
            "",
            "| $x$ | $y$ |",
            "|---|---|",
            "| 1 | 2 |",
        ]
    )
    document = parse(text, "c.mdx")
    assert [table.line for table in document.tables] == [11]


def test_a_list_of_references_takes_the_chapter_its_last_one_names():
    text = (
        "見本\n\n1. 節\n\n定義 1.1（値）\n\n$x := 1$ とする。\n\n"
        "推論の章で示しました（命題 3.2、命題 4.1［推論］）。定義 1.1 も見ます。\n"
    )
    document = parse(text, "c.txt")
    assert document.refs == (
        Ref(9, "命題 3.2", "推論"),
        Ref(9, "命題 4.1", "推論"),
        Ref(9, "定義 1.1"),
    )


def _rendered(*numbers: str) -> str:
    """A rendered chapter of two sections with an element per number: two in section 1,
    the rest in section 2."""
    lines = ["章", ""]
    for k, number in enumerate(numbers):
        if k in (0, 2):
            lines += [f"{k // 2 + 1}. 節 {k // 2 + 1}", ""]
        lines += [f"定義 {number}（名）", "", "ある定義。", ""]
    return "\n".join(lines)


def test_rendered_elements_may_be_numbered_by_section_or_through_the_chapter():
    assert parse(_rendered("1.1", "1.2", "2.1", "2.2")).problems == ()
    assert parse(_rendered("5.1", "5.2", "5.3", "5.4")).problems == ()  # chapter 5 through
    by_section = parse(_rendered("1.1", "1.2", "2.1", "2.3")).problems
    assert [p.message for p in by_section] == [
        "定義 2.3 is numbered out of sequence: the element before it makes it 定義 2.2"
    ]
    through = parse(_rendered("5.1", "5.2", "5.3", "5.5")).problems
    assert [p.message for p in through] == [
        "定義 5.5 is numbered out of sequence: the element before it makes it 定義 5.4"
    ]
    another = parse(_rendered("5.1", "5.2", "6.3", "5.4")).problems
    assert [p.message for p in another] == [
        "定義 6.3: the chapter numbers its elements 5.1, 5.2, … through its sections"
    ]


def test_a_kind_whose_first_element_is_numbered_1_numbers_on_its_own():
    """演習 32.1 after 例 32.22: the exercises have their own count, the others go on."""
    text = _rendered("5.1", "5.2", "5.3", "5.4") + "\n演習 5.1易\n\n問い。\n\n演習 5.2\n\n問い。\n"
    assert parse(text).problems == ()
    skipped = parse(text.replace("演習 5.2", "演習 5.3")).problems
    assert [p.message for p in skipped] == [
        "演習 5.3 is numbered out of sequence: the element before it makes it 演習 5.2"
    ]
    # a kind that starts where the count stands is counted with the others
    shared = parse(text.replace("演習 5.1易", "演習 5.5").replace("演習 5.2", "演習 5.7")).problems
    assert [p.message for p in shared] == [
        "演習 5.7 is numbered out of sequence: the element before it makes it 演習 5.6"
    ]


def test_a_rendered_listing_runs_over_a_docstring_of_prose_to_its_output():
    text = "\n".join(
        [
            "命題 1.1（和）",
            "",
            "ある命題。",
            "",
            "# Python 3.11",
            "def total(xs):",
            '    """xs の和を返す（命題 1.1）。',
            "    長さは問わない。",
            '    """',
            "    return sum(xs)",
            "",
            "print(total([1, 2]))",
            "",
            "3",
            "",
            "これで確かめました。",
        ]
    )
    (listing,) = parse(text).listings
    assert "    長さは問わない。" in listing.code and "print(total([1, 2]))" in listing.code
    assert listing.output == ("3",)

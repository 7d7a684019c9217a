"""The rendered-text form: `命題 3.3（title）✓` headings, `証明（命題 3.3）` … `∎`
proofs, `解答` solutions, `3. 層正規化の性質` section headings, TAB-separated
tables and listings that start at a `# Python` line and run to the next line of
prose (their last paragraph is the printed output).

A statement runs from its heading to the next boundary: a proof or solution
heading, another element, a section heading or a listing.
"""

from __future__ import annotations

import re
from collections import Counter

from proofs.reader.cells import cell_spans
from proofs.reader.records import LABELS, Element, Heading, Listing, Problem, Ref, Table

LABEL = "|".join(LABELS)
HEADING = re.compile(rf"^({LABEL}) (\d+\.\d+|[A-Z]\.\d+)(?:（([^）]*)）)?\s*(✓|↗|易|標準|難)?\s*$")
PROOF = re.compile(rf"^証明（(?:{LABEL}) (?:\d+\.\d+|[A-Z]\.\d+)）\s*$")
SOLUTION = "解答"
REFERENCES = "参考文献"
SECTION = re.compile(r"^(\d+(?:\.\d+)?)\. ([^$]{1,40})$")
REF = re.compile(rf"({LABEL}) ?(\d+\.\d+|[A-Z]\.\d+)(?:［([^］]+)］)?")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def detect(lines: list[str]) -> bool:
    """Whether the text has a rendered element heading."""
    return any(HEADING.match(line) for line in lines)


def is_prose(line: str) -> bool:
    """Japanese outside comments and string literals: a line of the text, not of code."""
    code = re.sub(r"(\"\"\"|\"|').*?\1", "", line)  # string literals
    code = code.split("#", 1)[0]  # a comment
    return bool(_JAPANESE.search(code))


_TRIPLE = re.compile(r"\"\"\"|'''")


def _outside_docstrings(line: str, quote: str | None) -> tuple[str, str | None]:
    """The line without what triple-quoted strings hold (one open before it when `quote`
    is its quotes), and the quotes of the one still open at its end."""
    kept: list[str] = []
    at = 0
    while True:
        if quote is not None:
            end = line.find(quote, at)
            if end < 0:
                return "".join(kept), quote
            at, quote = end + 3, None
        opening = _TRIPLE.search(line, at)
        if opening is None:
            return "".join([*kept, line[at:]]), None
        kept.append(line[at : opening.start()])
        at, quote = opening.end(), opening.group()


def listings(lines: list[str]) -> tuple[frozenset[int], list[Listing]]:
    """The 1-based code lines and the listings (code, then the printed output: the
    listing's last paragraph). A docstring's lines are code, whatever they say."""
    code: set[int] = set()
    out = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("# Python"):
            i += 1
            continue
        j, quote = i + 1, None
        while j < len(lines):
            outside, quote_after = _outside_docstrings(lines[j], quote)
            if is_prose(outside):
                break
            quote = quote_after
            j += 1
        end = j
        while end > i and not lines[end - 1].strip():
            end -= 1
        start = end
        while start > i and lines[start - 1].strip():
            start -= 1
        code.update(range(i + 1, j + 1))
        out.append(Listing(i + 1, tuple(lines[i:start]), start + 1, tuple(lines[start:end])))
        i = j
    return frozenset(code), out


def headings(lines: list[str], code: frozenset[int]) -> list[Heading]:
    """Section headings: a short numbered line standing alone, numbered upwards."""
    out: list[Heading] = []
    for i, line in enumerate(lines, 1):
        match = SECTION.match(line) if i not in code else None
        if match is None or (i > 1 and lines[i - 2].strip()):
            continue
        if i < len(lines) and lines[i].strip():
            continue
        number = match.group(1)
        if out and float(number.split(".")[0]) < float(out[-1].number.split(".")[0]):
            continue
        out.append(Heading(i, number, match.group(2).strip()))
    return out


def _boundaries(lines: list[str], sections: list[Heading]) -> list[int]:
    """Lines where a statement or a solution ends: headings of sections, elements, proofs
    and solutions, listings, the references, and the end of the file."""
    marks = {h.line for h in sections} | {len(lines) + 1}
    for i, line in enumerate(lines, 1):
        if (
            HEADING.match(line)
            or PROOF.match(line)
            or line.strip() in (SOLUTION, REFERENCES)
            or line.startswith("# Python")
        ):
            marks.add(i)
    return sorted(marks)


def elements(
    lines: list[str], code: frozenset[int], sections: list[Heading], problems: list[Problem]
) -> list[Element]:
    """Every element with its statement and its proof (証明 … ∎) or solution (解答). A
    proof that names another element than the one it follows, a proof with no ∎ before
    the next element, and an element numbered out of its section's sequence are Problems
    (the number of an element counts every kind of its section: 3.1, 3.2, …)."""
    stops = _boundaries(lines, sections)
    headings = [i for i, line in enumerate(lines, 1) if i not in code and HEADING.match(line)]
    out = []
    expected: dict[str, int] = {}  # section (or section and kind) -> its next number
    alone: dict[str, bool] = {}  # each kind seen: whether it numbers on its own
    chapter = _numbered_through(lines, headings, sections)
    for k, i in enumerate(headings):
        label, num, title, mark = HEADING.match(lines[i - 1]).groups()  # type: ignore[union-attr]
        _numbering(i, label, num, sections, expected, problems, chapter, alone)
        after = next(s for s in stops if s > i)
        statement = _trim(lines, i + 1, after - 1)
        proof = None
        if after <= len(lines):
            following = lines[after - 1]
            if PROOF.match(following) and num in following:
                stop = headings[k + 1] if k + 1 < len(headings) else len(lines) + 1
                end = next((j for j in range(after + 1, stop) if lines[j - 1].strip() == "∎"), None)
                if end is None:
                    where = (
                        f"{lines[stop - 1].split('（')[0]} at line {stop}"
                        if stop <= len(lines)
                        else "the end of the file"
                    )
                    problems.append(
                        Problem(after, f"{following.strip()} has no ∎ before {where}", "unclosed")
                    )
                    end = stop
                proof = _trim(lines, after + 1, end - 1)
            elif PROOF.match(following):
                problems.append(
                    Problem(
                        after,
                        f"{following.strip()} follows {label} {num}: it names another element",
                        "orphan",
                    )
                )
            elif following.strip() == SOLUTION:
                end = next(s for s in stops if s > after)
                proof = _trim(lines, after + 1, end - 1)
        out.append(
            Element(
                LABELS[label], f"{label} {num}", None, title or "", i, statement, proof, mark or ""
            )
        )
    return out


def _section_of(line: int, sections: list[Heading]) -> str | None:
    """The number of the section the line stands in; None before any section heading."""
    return next((h.number.split(".")[0] for h in reversed(sections) if h.line < line), None)


def _numbered_through(lines: list[str], headings: list[int], sections: list[Heading]) -> str | None:
    """The chapter's number when its elements are numbered through the chapter (定義 5.1
    … 演習 5.27 across its sections, as many books number them) rather than section by
    section: more of them carry one first number than carry their own section's; None
    otherwise."""
    numbers = []
    for i in headings:
        number = HEADING.match(lines[i - 1]).group(2)  # type: ignore[union-attr]
        within = _section_of(i, sections)
        if within is not None and number[0].isdigit():
            numbers.append((number.partition(".")[0], within))
    if not numbers:
        return None
    chapter, carried = Counter(first for first, _ in numbers).most_common(1)[0]
    own = sum(first == within for first, within in numbers)
    return chapter if carried > own else None


def _numbering(
    line: int,
    label: str,
    number: str,
    sections: list[Heading],
    expected: dict[str, int],
    problems: list[Problem],
    chapter: str | None,
    alone: dict[str, bool],
) -> None:
    """A Problem when the element's number is not the next one of the section it stands
    in, or of the chapter when `chapter` numbers its elements through its sections (an
    appendix's letter aside, which has no numbered heading to compare with, and an
    element before any section heading). A kind whose first element is numbered 1 where
    the others have gone past it (演習 32.1 after 例 32.22) numbers on its own, as many
    books number their exercises; `alone` keeps, for each kind seen, whether it does."""
    section, _, count = number.partition(".")
    within = _section_of(line, sections)
    if within is None:
        return  # before any section heading (an excerpt): nothing to count from
    if chapter is not None:
        within = chapter
    if section.isdigit() and section != within:
        said = (
            f"{label} {number} stands in section {within}"
            if chapter is None
            else f"{label} {number}: the chapter numbers its elements {chapter}.1, "
            f"{chapter}.2, … through its sections"
        )
        problems.append(Problem(line, said, "numbering"))
        expected[within] = expected.get(within, 1) + 1  # it takes its place there
        return
    if label not in alone:
        alone[label] = count == "1" and expected.get(section, 1) > 1
    key = f"{section} {label}" if alone[label] else section
    wanted = expected.get(key, 1)
    if count.isdigit() and int(count) != wanted:
        problems.append(
            Problem(
                line,
                f"{label} {number} is numbered out of sequence: the "
                f"element before it makes it {label} {section}.{wanted}",
                "numbering",
            )
        )
    expected[key] = int(count) + 1 if count.isdigit() else wanted


def _trim(lines: list[str], first: int, last: int) -> tuple[int, int]:
    while first < last and not lines[first - 1].strip():
        first += 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    return first, last


def tables(lines: list[str], code: frozenset[int]) -> list[Table]:
    """Runs of TAB-separated lines outside code."""
    out, rows, row_lines, row_spans = [], [], [], []
    for i, line in enumerate([*lines, ""], 1):
        if i not in code and "\t" in line:
            spans = cell_spans(line, "\t", outer=False)
            rows.append(tuple(line[a:b] for a, b in spans))
            row_lines.append(i)
            row_spans.append(spans)
            continue
        if rows:
            out.append(Table(row_lines[0], tuple(rows), tuple(row_lines), tuple(row_spans)))
            rows, row_lines, row_spans = [], [], []
    return out


def refs(lines: list[str], code: frozenset[int], own: str) -> list[Ref]:
    """Element numbers cited in the text (not headings): `命題 3.1` of this chapter,
    `命題 7.2［自己注意］` of another (its ［…］ naming this chapter makes it internal)."""
    out = []
    for i, line in enumerate(lines, 1):
        if i in code or HEADING.match(line) or PROOF.match(line):
            continue
        found = list(REF.finditer(line))
        chapters = [m.group(3) or "" for m in found]
        # 「命題 3.2、命題 4.1［推論とサンプリング］」: a list the last ［…］ names the chapter of
        for k in range(len(found) - 2, -1, -1):
            joined = _LISTED.fullmatch(line, found[k].end(), found[k + 1].start())
            if not chapters[k] and joined is not None:
                chapters[k] = chapters[k + 1]
        for match, chapter in zip(found, chapters, strict=True):
            out.append(
                Ref(i, f"{match.group(1)} {match.group(2)}", "" if chapter == own else chapter)
            )
    return out


_LISTED = re.compile(r"\s*[、,・と]\s*")  # between two references of one list

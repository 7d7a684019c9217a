"""The MDX form: `<Proposition id="…" title="…">` elements, `<Proof of="…">`,
`<Ref to="…" />`, ``` fences (a ```text fence right after code is its output),
`## 3. …` headings, pipe tables and `<Figure caption="…">`.

Element numbers are not printed in MDX; they follow the rendered form's rule:
the section number of the enclosing `##` heading (A for an appendix) and a
counter shared by every kind within that section.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from proofs.reader.cells import cell_spans
from proofs.reader.records import (
    ID_PREFIXES,
    LABELS,
    ChapterInputError,
    Comment,
    Element,
    Figure,
    Heading,
    Listing,
    Problem,
    Ref,
    Table,
)

KIND_OF_PREFIX = {prefix: kind for kind, prefix in ID_PREFIXES.items()}
TAGS = {  # MDX component -> the chapters' label
    "Definition": "定義",
    "Proposition": "命題",
    "Lemma": "補題",
    "Theorem": "定理",
    "Corollary": "系",
    "Example": "例",
    "Remark": "注意",
    "Exercise": "演習",
}
OPEN = re.compile(r"^<(" + "|".join(TAGS) + r")\b([^>]*)>\s*$")
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
HEADING = re.compile(r"^(#{2,3})\s+(?:(\d+(?:\.\d+)*)\.?|(Appendix)[^:：]*[:：]?)\s*(.*?)\s*$")
CLOSE = re.compile(r"^\s*</(" + "|".join(TAGS) + r")>\s*$")
PROOF = re.compile(r'^<Proof\s+of="([^"]*)"\s*>\s*$')
# what ends an element's or a proof's body when its closing tag is missing: the opening or
# closing tag of an element, a proof or a solution (a solution inside an exercise aside)
BOUNDARY = re.compile(r"^</?(" + "|".join([*TAGS, "Proof", "Solution"]) + r")\b")
REF = re.compile(r'<Ref\s+to="([^"]*)"\s*/>')
FENCE = re.compile(r"^```(\S*)\s*$")


def detect(lines: list[str]) -> bool:
    """Whether the text has an MDX element tag."""
    return any(OPEN.match(line) for line in lines)


def fences(lines: list[str], path: str) -> list[tuple[int, int, str]]:
    """(first line, closing line, language) of every ``` fence, 1-based."""
    out, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        if j == len(lines):
            raise ChapterInputError(f"{path}:{i + 1}: code fence ``` is never closed")
        out.append((i + 1, j + 1, opening.group(1)))
        i = j + 1
    return out


def listings(lines: list[str], spans: list[tuple[int, int, str]]) -> list[Listing]:
    """Each code fence with the ```text fence that follows it (blank lines between) as its
    output; a ```text fence with no code before it is an output of its own."""
    out: list[Listing] = []
    used: set[int] = set()
    for k, (start, end, language) in enumerate(spans):
        if language == "text":
            if start not in used:
                out.append(Listing(start, (), start + 1, tuple(lines[start : end - 1])))
            continue
        code = tuple(lines[start : end - 1])
        following = spans[k + 1] if k + 1 < len(spans) else None
        if (
            following is not None
            and following[2] == "text"
            and all(not lines[i].strip() for i in range(end, following[0] - 1))
        ):
            used.add(following[0])
            output = tuple(lines[following[0] : following[1] - 1])
            out.append(Listing(start + 1, code, following[0] + 1, output))
        else:
            out.append(Listing(start + 1, code, None, ()))
    return out


COMMENT = re.compile(r"\{/\*(.*?)\*/\}", re.S)


def comments(lines: list[str], code: frozenset[int]) -> tuple[list[str], list[Comment]]:
    """The lines with each comment `{/* … */}` outside code replaced by as many spaces
    (the columns of the rest kept; a comment over several lines blanked on each), and the
    comments. A `{/*` never closed is left as text."""
    read = ["" if i in code else line for i, line in enumerate(lines, 1)]
    text = "\n".join(read)
    found = []
    blanked = list(lines)
    starts = [0]  # where each line starts in `text`
    for line in read:
        starts.append(starts[-1] + len(line) + 1)
    for match in COMMENT.finditer(text):
        first = bisect_right(starts, match.start())
        last = bisect_right(starts, match.end() - 1)
        found.append(Comment(first, last, match.group(1).strip()))
        for k in range(first, last + 1):
            start = max(match.start() - starts[k - 1], 0)
            end = min(match.end() - starts[k - 1], len(lines[k - 1]))
            blanked[k - 1] = blanked[k - 1][:start] + " " * (end - start) + blanked[k - 1][end:]
    return blanked, found


def headings(lines: list[str], code: frozenset[int]) -> list[Heading]:
    out = []
    for i, line in enumerate(lines, 1):
        match = HEADING.match(line) if i not in code else None
        if match and (match.group(2) or match.group(3)):
            number = match.group(2) or "A"
            out.append(Heading(i, number, match.group(4)))
    return out


def elements(
    lines: list[str],
    code: frozenset[int],
    sections: list[Heading],
    path: str,
    problems: list[Problem],
) -> list[Element]:
    """Every element with its number, statement and proof (or solution) lines; an element
    whose closing tag is missing ends where the next element or proof opens, with a
    Problem."""
    out: list[Element] = []
    counters: dict[str, int] = {}
    proofs = _proofs(lines, code, problems)
    closes: set[int] = set()
    for i, line in enumerate(lines, 1):
        match = OPEN.match(line) if i not in code else None
        if match is None:
            continue
        tag, attributes = match.group(1), dict(ATTRIBUTE.findall(match.group(2)))
        if "id" not in attributes:
            raise ChapterInputError(f"{path}:{i}: <{tag}> has no id")
        close = _closing(lines, i, tag, code, problems)
        closes.add(close)
        section = _section_of(sections, i)
        counters[section] = counters.get(section, 0) + 1
        label = TAGS[tag]
        statement_end = close - 1
        solution = None
        for j in range(i + 1, close):
            if lines[j - 1].strip() == "<Solution>":
                solution_close = min(_closing(lines, j, "Solution", code, problems), close)
                solution = _trim(lines, j + 1, solution_close - 1)
                statement_end = j - 1
                break
        id_ = attributes["id"]
        out.append(
            Element(
                kind=LABELS[label],
                number=f"{label} {section}.{counters[section]}",
                id=id_,
                title=attributes.get("title", ""),
                line=i,
                statement=_trim(lines, min(i + 1, len(lines)), statement_end),  # a tag at the end
                proof=proofs[id_][1] if id_ in proofs else solution,
                mark=attributes.get("difficulty", ""),
            )
        )
    for j, line in enumerate(lines, 1):
        closing = CLOSE.match(line) if j not in code else None
        if closing is not None and j not in closes:
            problems.append(Problem(j, f"</{closing.group(1)}> closes no element", "stray"))
    ids = {e.id for e in out}
    for id_, (tag, _) in proofs.items():
        if id_ not in ids:
            problems.append(
                Problem(tag, f'<Proof of="{id_}"> proves no element of the chapter', "orphan")
            )
    for e in out:
        prefix = (e.id or "").split("-")[0]
        if prefix in KIND_OF_PREFIX and KIND_OF_PREFIX[prefix] != e.kind:
            problems.append(
                Problem(
                    e.line,
                    f"the id {e.id} says {KIND_OF_PREFIX[prefix]}, its tag {e.kind}",
                    "mislabelled",
                )
            )
    return out


def _section_of(sections: list[Heading], line: int) -> str:
    """The number of the top-level section holding the line (its integer part)."""
    number = "0"
    for heading in sections:
        if heading.line > line:
            break
        number = heading.number.split(".")[0]
    return number


def _closing(
    lines: list[str], start: int, tag: str, code: frozenset[int], problems: list[Problem]
) -> int:
    """The line of the `</tag>` closing the tag opened at `start`. Where an element or a
    proof opens first, or the file ends, that line (or one past the last) stands for it
    and a Problem says so: the body never runs into the next element."""
    for j in range(start + 1, len(lines) + 1):
        if j in code:
            continue
        text = lines[j - 1].strip()
        if text == f"</{tag}>":
            return j
        boundary = BOUNDARY.match(text)
        if boundary is not None and not (tag in TAGS and boundary.group(1) == "Solution"):
            problems.append(
                Problem(
                    start,
                    f"<{tag}> is not closed before {boundary.group(0)}> at line {j}",
                    "unclosed",
                )
            )
            return j
    problems.append(Problem(start, f"<{tag}> is never closed with </{tag}>", "unclosed"))
    return len(lines) + 1


def _trim(lines: list[str], first: int, last: int) -> tuple[int, int]:
    """The range without its leading and trailing blank lines (kept when all blank)."""
    while first < last and not lines[first - 1].strip():
        first += 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    return first, last


def _proofs(
    lines: list[str], code: frozenset[int], problems: list[Problem]
) -> dict[str, tuple[int, tuple[int, int]]]:
    """Each `<Proof of="id">` by the id it names: its tag's line and its body's lines."""
    out = {}
    for i, line in enumerate(lines, 1):
        match = PROOF.match(line) if i not in code else None
        if match:
            close = _closing(lines, i, "Proof", code, problems)
            out[match.group(1)] = (i, _trim(lines, i + 1, close - 1))
    return out


def tables(lines: list[str], code: frozenset[int]) -> list[Table]:
    """Pipe tables: rows of stripped cells, the `|---|` rule row dropped."""
    out, rows, row_lines, row_spans = [], [], [], []
    for i, line in enumerate([*lines, ""], 1):
        if i not in code and line.lstrip().startswith("|"):
            spans = cell_spans(line, "|", outer=True)
            cells = tuple(line[a:b] for a, b in spans)
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
                row_lines.append(i)
                row_spans.append(spans)
            continue
        if rows:
            out.append(Table(row_lines[0], tuple(rows), tuple(row_lines), tuple(row_spans)))
            rows, row_lines, row_spans = [], [], []
    return out


def figures(lines: list[str], code: frozenset[int], problems: list[Problem]) -> list[Figure]:
    out = []
    for i, line in enumerate(lines, 1):
        match = re.match(r'^<Figure\b[^>]*?caption="([^"]*)"[^>]*>\s*$', line)
        if match and i not in code:
            close = _closing(lines, i, "Figure", code, problems)
            out.append(Figure(i, close, match.group(1), "\n".join(lines[i : close - 1])))
    return out


def refs(lines: list[str], code: frozenset[int]) -> list[Ref]:
    out = []
    for i, line in enumerate(lines, 1):
        if i in code:
            continue
        for match in REF.finditer(line):
            target = match.group(1)
            chapter = target.split("#")[0] if "/" in target else ""
            out.append(Ref(i, target, chapter))
    return out

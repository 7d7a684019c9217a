"""Audit a chapter file against the package.

Reads a chapter in either form found among the seeds — MDX with
`<Proposition id="…">` elements, or rendered text with `命題 3.3（…）✓`
headings — and reports:

- every element, with the registered check that covers it ("no check" when a
  rendered number has none; an MDX id the registry does not know is bad input);
- every table, compared cell by cell with the package's regenerated table;
- every numeric equality of the prose and display math (`a = b = c`,
  `\\approx`), recomputed at the printed precision by `TexArithmetic`, a small
  evaluator of TeX arithmetic (no `eval`);
- every printed output line of the code listings, compared with the line the
  package prints for the same quantity (`proofs.tables`' listings and
  re-run experiments);
- the check of every example and exercise found (they are about printed
  numbers, and cheap): a check that fails, or that reports a finding (the
  chapter prints a wrong value while the statement holds), is a mismatch (a
  finding at the line printing the number it names). Each check runs once per
  process.

Printed precision: a decimal printed with k digits after the point stands for
the interval of half a unit in its last place around it; an integer in a
computation is exact, and an integer printed as the result of `\\approx` stands
for ±0.5 of its last digit. Both sides of an equality are evaluated as
intervals (mpmath's interval arithmetic) and agree when the intervals meet:
an equality is mismatched only when no choice of its printed inputs within
their rounding makes it hold. A confirmed equality that holds only thanks to
that rounding (√(1.1428 + 0.2857 + 0 + 2.5714) = √4) says so, with both sides
at face value. The chapter files are only ever read.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from proofs.registry import CheckRun, run_check
from proofs.tex_arithmetic import MAX_DIGITS, NotNumeric, TooLarge, Value, evaluate, gap, meet, show


class AuditInputError(ValueError):
    """The file cannot be audited: the message names the file and the line."""


@dataclass
class Finding:
    """One audited item: an element, a table cell, an equality, a printed line."""

    section: str  # one of SECTIONS
    line: int
    text: str
    status: str  # "confirmed" | "mismatched" | "not checkable"
    detail: str
    ref: str = ""  # the element id an element finding resolved to


SECTIONS = {  # section -> its name in the text report
    "element": "elements",
    "check": "examples and exercises",
    "table": "table cells",
    "equality": "equalities",
    "output": "printed output lines",
}


@dataclass
class Report:
    path: str
    form: str  # "MDX" | "rendered text"
    chapter: str
    findings: list[Finding] = field(default_factory=list)

    def of(self, status: str, section: str | None = None) -> list[Finding]:
        return [
            f
            for f in self.findings
            if f.status == status and (section is None or f.section == section)
        ]

    @property
    def mismatched(self) -> list[Finding]:
        return self.of("mismatched")

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "form": self.form,
            "chapter": self.chapter,
            "summary": self.summary(),
            "findings": [asdict(f) for f in self.findings],
        }

    def summary(self) -> dict:
        out = {}
        for section in SECTIONS:
            items = [f for f in self.findings if f.section == section]
            out[section] = {
                status: sum(f.status == status for f in items)
                for status in ("confirmed", "mismatched", "not checkable")
            }
        return out

    def to_text(self, quiet: bool = False) -> str:
        lines = [f"audit of {self.path} ({self.form}, chapter {self.chapter})"]
        for section, tally in self.summary().items():
            lines.append(
                f"  {SECTIONS[section]:22} {tally['confirmed']:4d} confirmed, "
                f"{tally['mismatched']:3d} mismatched, {tally['not checkable']:3d} not checkable"
            )
        headings = (
            ("elements", "element", None),
            ("confirmed", None, "confirmed"),
            ("mismatched", None, "mismatched"),
            ("not checkable", None, "not checkable"),
        )
        for title, section, status in headings:
            if quiet and title in ("elements", "confirmed"):
                continue
            if section == "element":
                items = [f for f in self.findings if f.section == "element"]
            else:
                items = [f for f in self.findings if f.section != "element" and f.status == status]
            lines.append("")
            lines.append(f"{title} ({len(items)}):")
            for f in items:
                lines.append(f"  line {f.line:4d}  [{f.section}] {f.text}  —  {f.detail}")
        return "\n".join(lines)


# Reading -------------------------------------------------------------------------

MDX_ELEMENT = re.compile(
    r"<(Definition|Proposition|Lemma|Theorem|Corollary|Example|Remark|Exercise)\s+"
    r'id="([^"]*)"(?:\s+title="([^"]*)")?'
)
RENDERED_HEADING = re.compile(
    r"^(定義|命題|補題|定理|系|例|注意|演習) (\d+\.\d+|[A-Z]\.\d+)"
    r"(（[^）]*）)?\s*(✓|↗|易|標準|難)?\s*$"
)


def read_chapter(path: Path) -> str:
    """The file's text; AuditInputError (file and line) when it cannot be audited."""
    if not path.exists():
        raise AuditInputError(f"{path}: no such file")
    if path.is_dir():
        raise AuditInputError(f"{path}: is a directory, expected a chapter file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise AuditInputError(f"{path}: cannot be read ({exc.strerror})") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise AuditInputError(f"{path}:{line}: not UTF-8 text (byte {exc.start})") from exc
    if not text.strip():
        raise AuditInputError(f"{path}:1: empty file, expected a chapter")
    return text


def detect_form(path: Path, lines: list[str]) -> str:
    text = "\n".join(lines)
    if MDX_ELEMENT.search(text):
        return "MDX"
    if any(RENDERED_HEADING.match(line) for line in lines):
        return "rendered text"
    raise AuditInputError(
        f"{path}:1: neither form of chapter: no <Proposition id=…> (MDX) element and no "
        "命題 3.3（…） heading (rendered text)"
    )


def detect_chapter(path: Path, lines: list[str], form: str) -> str:
    from proofs.registry import CHAPTERS

    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    title = lines[first].strip().lstrip("#").strip()
    for key, chapter in CHAPTERS.items():
        if title == chapter.title:
            return key
    if form == "MDX":
        return "(from the ids)"
    known = "; ".join(c.title for c in CHAPTERS.values())
    raise AuditInputError(
        f"{path}:{first + 1}: title {title!r} is not a known chapter's ({known}), so the "
        "element numbers cannot be resolved"
    )


def code_spans(lines: list[str], form: str) -> tuple[set[int], list[tuple[int, list[str]]]]:
    """0-based indices of code lines, and the printed-output blocks (start, lines).

    MDX: ``` fences; a ```text block is printed output. Rendered text: a
    listing starts at a `# Python` line and runs to the next line of prose
    (Japanese text not inside a comment or string); its last paragraph is the
    printed output.
    """
    code: set[int] = set()
    outputs: list[tuple[int, list[str]]] = []
    if form == "MDX":
        i = 0
        while i < len(lines):
            if lines[i].startswith("```"):
                kind = lines[i][3:].strip()
                j = i + 1
                while j < len(lines) and not lines[j].startswith("```"):
                    j += 1
                code.update(range(i, j + 1))
                if kind == "text":
                    outputs.append((i + 1, lines[i + 1 : j]))
                i = j + 1
            else:
                i += 1
        return code, outputs
    i = 0
    while i < len(lines):
        if lines[i].startswith("# Python"):
            j = i + 1
            while j < len(lines) and not _is_prose(lines[j]):
                j += 1
            end = j
            while end > i and not lines[end - 1].strip():
                end -= 1
            start = end
            while start > i and lines[start - 1].strip():
                start -= 1
            code.update(range(i, j))
            outputs.append((start, lines[start:end]))
            i = j
        else:
            i += 1
    return code, outputs


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _is_prose(line: str) -> bool:
    """Japanese outside comments and string literals: a line of the text, not of code."""
    code = re.sub(r"(\"\"\"|\"|').*?\1", "", line)  # string literals
    code = code.split("#", 1)[0]  # a comment
    return bool(_JAPANESE.search(code))


# Elements ------------------------------------------------------------------------


def audit_elements(path: Path, lines: list[str], form: str, chapter: str) -> list[Finding]:
    from proofs.registry import CHAPTERS, find, load_all, nearest_ids

    registry = load_all()
    findings = []
    for i, line in enumerate(lines):
        if form == "MDX":
            for match in MDX_ELEMENT.finditer(line):
                id_ = match.group(2)
                if id_ not in registry:
                    near = nearest_ids(id_)
                    hint = f" (nearest registered: {', '.join(near)})" if near else ""
                    raise AuditInputError(
                        f"{path}:{i + 1}: element id {id_!r} is not registered{hint}"
                    )
                e = registry[id_]
                findings.append(_element_finding(i + 1, f"{e.number} {id_}", e))
        else:
            match = RENDERED_HEADING.match(line)
            if not match:
                continue
            number = f"{match.group(1)} {match.group(2)}"
            found = find(f"{number}［{CHAPTERS[chapter].short}］")
            text = f"{number}{match.group(3) or ''}"
            if found:
                findings.append(_element_finding(i + 1, text, found[0]))
            else:
                findings.append(Finding("element", i + 1, text, "not checkable", "no check"))
    return findings


def _element_finding(line: int, text: str, e) -> Finding:
    detail = f"check {e.id} ({e.kind}; {', '.join(e.methods)})"
    return Finding("element", line, text, "confirmed", detail, ref=e.id)


# The checks of examples and exercises ----------------------------------------------

CHECKED_KINDS = ("example", "exercise")


@functools.cache
def _run_once(check: Callable[[], list[str]]) -> CheckRun:
    """A check's outcome, computed once per process (keyed by the check itself, so a
    check replaced in the registry runs afresh)."""
    return run_check(check)


def audit_checks(elements: list[Finding], lines: list[str]) -> list[Finding]:
    """Run the check of every example and exercise among the elements found; a failure
    or an error is reported at the element's line, each finding at the first line of
    the element's text that prints a number the finding names (else the element's)."""
    from proofs.registry import findings, load_all

    registry = load_all()
    starts = sorted(f.line for f in elements) + [len(lines) + 1]
    out = []
    for found in elements:
        e = registry.get(found.ref)
        if e is None or e.kind not in CHECKED_KINDS:
            continue
        run = _run_once(e.check)
        if run.result == "failed":
            outcomes = [("mismatched", f"the check fails: {run.message}", found.line)]
        elif run.result == "error":
            outcomes = [("not checkable", f"the check raised {run.message}", found.line)]
        elif slips := findings(list(run.evidence)):
            end = next(start for start in starts if start > found.line)
            outcomes = [("mismatched", m, _printed_at(m, lines, found.line, end)) for m in slips]
        else:
            outcomes = [("confirmed", f"the check passed in {run.seconds:.2f} s", found.line)]
        out += [
            Finding("check", line, f"{e.number} {e.id}", status, detail, ref=e.id)
            for status, detail, line in outcomes
        ]
    return out


def _printed_at(message: str, lines: list[str], start: int, end: int) -> int:
    """The first line in [start, end) (1-based) printing a decimal the message names."""
    for number in re.findall(r"\d+\.\d+", message):
        pattern = re.compile(rf"(?<![\d.]){re.escape(number)}(?![\d])")
        for line in range(start, end):
            if pattern.search(lines[line - 1]):
                return line
    return start


# Tables --------------------------------------------------------------------------


def _norm_cell(cell: str) -> str:
    """Cells compare without whitespace inside math and at the ends."""
    parts = cell.strip().split("$")
    return "$".join(re.sub(r"\s+", "", p) if i % 2 else p.strip() for i, p in enumerate(parts))


def find_tables(lines: list[str], form: str, code: set[int]) -> list[tuple[int, list[list[str]]]]:
    """(0-based first line, rows of cells) of every table outside code; the rule row
    of a pipe table is dropped."""
    tables = []
    i = 0
    while i < len(lines):
        is_row = (
            lines[i].lstrip().startswith("|") if form == "MDX" else "\t" in lines[i]
        ) and i not in code
        if not is_row:
            i += 1
            continue
        start = i
        rows = []
        while (
            i < len(lines)
            and i not in code
            and (lines[i].lstrip().startswith("|") if form == "MDX" else "\t" in lines[i])
        ):
            if form == "MDX":
                cells = lines[i].strip().strip("|").split("|")
                if all(re.fullmatch(r"\s*:?-+:?\s*", c) for c in cells):
                    i += 1
                    continue
            else:
                cells = lines[i].split("\t")
            rows.append([c.strip() for c in cells])
            i += 1
        tables.append((start, rows))
    return tables


def audit_tables(path: Path, lines: list[str], form: str, code: set[int]) -> list[Finding]:
    findings = []
    for start, rows in find_tables(lines, form, code):
        header = rows[0]
        for k, row in enumerate(rows[1:], 1):
            if len(row) != len(header):
                raise AuditInputError(
                    f"{path}:{_row_line(lines, start, k, form)}: table row has {len(row)} "
                    f"cells, its header has {len(header)}"
                )
        regenerated = _regenerate_matching(header, rows)
        if regenerated is None:
            findings.append(
                Finding(
                    "table",
                    start + 1,
                    " | ".join(header),
                    "not checkable",
                    "no regenerated table has these columns (a table of words, not of values)",
                )
            )
            continue
        findings.extend(_compare_table(lines, start, rows, regenerated, form))
    return findings


def _row_line(lines: list[str], start: int, k: int, form: str) -> int:
    """1-based line of body row k (the MDX rule row sits after the header)."""
    return start + k + (2 if form == "MDX" else 1)


def _regenerate_matching(header: list[str], rows: list[list[str]]):
    """The package's table with the same header, regenerated with the settings the
    chapter's own first column shows (the d_k values, the n values)."""
    from proofs import tables

    wanted = [_norm_cell(c) for c in header]
    firsts = [r[0] for r in rows[1:]]
    keyed = all(x.isdigit() for x in firsts) and firsts
    if wanted == [_norm_cell(c) for c in tables.SCALING_COLUMNS]:
        return tables.scaling_table(dims=tuple(int(x) for x in firsts)) if keyed else None
    if wanted == [_norm_cell(c) for c in tables.COMPLEXITY_COLUMNS]:
        return (
            tables.attention_complexity_table(ns=tuple(int(x) for x in firsts)) if keyed else None
        )
    if wanted == [_norm_cell(c) for c in tables.GPT2_COLUMNS]:
        return tables.gpt2_parameter_table()
    return None


def _compare_table(lines, start, rows, table, form) -> list[Finding]:
    findings = []
    body = rows[1:]
    title = f"{table.name} table"
    if len(body) != len(table.rows):
        findings.append(
            Finding(
                "table",
                start + 1,
                title,
                "mismatched",
                f"the chapter has {len(body)} rows, the regenerated table {len(table.rows)}",
            )
        )
    for k, (printed, ours) in enumerate(zip(body, table.rows, strict=False), 1):
        line = _row_line(lines, start, k, form)
        for column, (a, b) in enumerate(zip(printed, ours, strict=True)):
            label = f"{title}, row {k} ({printed[0]}), column {table.columns[column]}"
            if _norm_cell(a) == _norm_cell(b):
                findings.append(
                    Finding("table", line, f"{label}: {a}", "confirmed", "as regenerated")
                )
            else:
                findings.append(
                    Finding(
                        "table",
                        line,
                        f"{label}: {a or '(blank)'}",
                        "mismatched",
                        f"regenerated {b or '(blank)'}{_difference(a, b)}",
                    )
                )
    return findings


def _difference(a: str, b: str) -> str:
    try:
        x, y = float(a.replace(",", "")), float(b.replace(",", ""))
    except ValueError:
        return ""
    return f", off by {x - y:+.6g}"


# Equalities ----------------------------------------------------------------------


_RELATION = re.compile(
    r"(\\approx|\\simeq|:=|=|\\leq?|\\geq?|\\neq?|<|>|\\to|\\in|\\mapsto)(?![A-Za-z])"
)
_LITERAL = re.compile(
    r"\s*-?\s*\d+(?:\{,\}\d{3})*(?:\.\d+)?\s*(?:\\times\s*10\^\{?-?\d+\}?)?\s*(?:\\%)?\s*"
)
_BARE_SYMBOL = re.compile(r"\s*([A-Za-z])(?:_\{?\\?(?:mathrm\{)?([A-Za-z]+)\}?\}?)?\s*")
# a named quantity the text sets or states (σ = 1.8708, |V| = 10, z = (1, 2, 0.5)):
_NAMED = re.compile(
    r"\s*(?:\\boldsymbol\{[A-Za-z]\}'?|\\[A-Za-z]+|[A-Za-z]|\|[A-Za-z]\||\\\|\\boldsymbol\{[a-z]\}\\\|)"
    r"(?:_\{(?:[^{}]|\{[^{}]*\})*\}|_[A-Za-z0-9])?(?:\^\{(?:[^{}]|\{[^{}]*\})*\}|\^[0-9])?\s*"
)


def math_spans(lines: list[str], code: set[int]) -> list[tuple[int, str, int]]:
    """(1-based line, math text) for each $…$ and $$…$$ outside code."""
    text_lines = ["" if i in code else line for i, line in enumerate(lines)]
    text = "\n".join(text_lines)
    starts = [0]
    for line in text_lines:
        starts.append(starts[-1] + len(line) + 1)

    def line_of(offset: int) -> int:
        lo, hi = 0, len(starts) - 1
        while lo < hi - 1:
            mid = (lo + hi) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo

    spans = []
    for match in re.finditer(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", text, flags=re.S):
        body = match.group(1) if match.group(1) is not None else match.group(2)
        index = line_of(match.start())
        spans.append((index + 1, body))
    return spans


def _statements(math: str) -> list[str]:
    """Split a math span into statements: at \\\\, \\qquad/\\quad, \\text{…} and
    top-level commas; pmatrix bodies are kept whole."""
    math = re.sub(r"\\(begin|end)\{(aligned|align\*?|gathered|cases)\}", " ", math)
    pieces, depth, current, i = [], 0, "", 0
    while i < len(math):
        if math.startswith(r"\begin{pmatrix}", i):
            depth += 1
        if math.startswith(r"\end{pmatrix}", i):
            depth -= 1
        ch = math[i]
        if depth == 0 and (math.startswith(r"\\", i) or math.startswith(r"\qquad", i)):
            pieces.append(current)
            current = ""
            i += 2 if math.startswith(r"\\", i) else 6
            continue
        if depth == 0 and math.startswith(r"\text{", i):
            j, level = i + 6, 1
            while j < len(math) and level:
                level += math[j] == "{"
                level -= math[j] == "}"
                j += 1
            pieces.append(current)
            current = ""
            i = j
            continue
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == "\\" and i + 1 < len(math) and not math[i + 1].isalpha():
            current += math[i : i + 2]  # \, \; \! \  are spaces, not separators
            i += 2
            continue
        if depth == 0 and ch in ",;" and not math.startswith("{,}", i - 1):
            pieces.append(current)
            current = ""
        elif depth == 0 and ch == "&":
            pass
        else:
            current += ch
        i += 1
    pieces.append(current)
    return [p for p in pieces if p.strip()]


def audit_equalities(lines: list[str], code: set[int]) -> list[Finding]:
    """Every equality of the math outside code. A math span met again with the same
    bindings is audited once: its findings are reused at the new line."""
    findings = []
    bindings_by_line: dict[int, dict[str, int]] = {}
    audited: dict[tuple, tuple[list[Finding], dict[str, int]]] = {}
    for line, math in math_spans(lines, code):
        bindings = bindings_by_line.setdefault(line, {})
        key = (math, tuple(bindings.items()))
        if key in audited:
            found, bound = audited[key]
            bindings.update(bound)
            findings.extend(replace(f, line=line) for f in found)
            continue
        found = [f for s in _statements(math) for f in _audit_statement(line, s, bindings)]
        audited[key] = (found, dict(bindings))
        findings.extend(found)
    return findings


def _is_printed(member: str) -> bool:
    """A printed result: a number, or a tuple of numbers, with nothing computed."""
    bare = re.sub(r"(?<!\\)\\[,;:! ]", " ", member).strip()
    matrix = re.fullmatch(r"\\begin\{pmatrix\}(.*)\\end\{pmatrix\}", bare, flags=re.S)
    if matrix:
        pieces = re.split(r"&|\\\\", matrix.group(1))
    elif bare.startswith("(") and bare.endswith(")"):
        pieces = bare[1:-1].split(",")
    else:
        pieces = [bare]
    return all(_LITERAL.fullmatch(piece) for piece in pieces)


def _face_note(m1: str, m2: str, v1: Value, v2: Value, bindings: dict[str, int]) -> str:
    """How a confirmed equality holds: with the printed inputs at face value, or only
    within their rounding (then both face values are shown)."""
    f1, f2 = (evaluate(m, bindings, False, face=True) for m in (m1, m2))
    if _is_printed(m2):
        exact = meet(f1, v2)
    elif _is_printed(m1):
        exact = meet(v1, f2)
    else:
        exact = meet(f1, f2)
    if exact:
        return f"recomputed {show(f1)}"
    return (
        f"holds only within the rounding of the printed inputs: at face value the left "
        f"side is {show(f1)}, the right side {show(f2)}"
    )


def _split_relations(statement: str) -> tuple[list[str], list[str]]:
    """Members and the relations between them, splitting only outside braces."""
    members, relations, current, depth, i = [], [], "", 0, 0
    while i < len(statement):
        ch = statement[i]
        depth += ch in "{([" and not statement.startswith("\\{", i - 1)
        depth -= ch in "})]" and not statement.startswith("\\}", i - 1)
        match = _RELATION.match(statement, i) if depth == 0 else None
        if match:
            members.append(current)
            relations.append(match.group(1))
            current, i = "", match.end()
            continue
        current += ch
        i += 1
    members.append(current)
    return members, relations


def _audit_statement(line: int, statement: str, bindings: dict[str, int]) -> list[Finding]:
    members, relations = _split_relations(statement)
    # bindings: every member a bare symbol but one integer literal
    symbols = [_BARE_SYMBOL.fullmatch(m) for m in members]
    integers = [
        m
        for m in members
        if re.fullmatch(r"\s*\d+(?:\{,\}\d{3})*\s*", m) and sum(map(str.isdigit, m)) <= MAX_DIGITS
    ]
    if (
        relations
        and all(r == "=" for r in relations)
        and len(integers) == 1
        and sum(s is not None for s in symbols) == len(members) - 1
    ):
        value = int(integers[0].replace("{,}", ""))
        for s in symbols:
            if s is not None:
                bindings[s.group(1) + (f"_{s.group(2)}" if s.group(2) else "")] = value
        return []
    findings: list[Finding] = []
    # segments of members joined by = or \approx
    segment: list[tuple[str, str]] = [(members[0], "=")]
    segments = []
    for relation, member in zip(relations, members[1:], strict=True):
        if relation in ("=", r"\approx", r"\simeq"):
            segment.append((member, relation))
        else:
            segments.append(segment)
            segment = [(member, "=")]
    segments.append(segment)
    for seg in segments:
        if len(seg) < 2:
            continue
        text = "".join(
            (f" {'=' if r == '=' else '≈'} " if k else "") + m.strip()
            for k, (m, r) in enumerate(seg)
        )
        values: list[tuple[str, Value | None, str]] = []
        for k, (member, relation) in enumerate(seg):
            loose = _LITERAL.fullmatch(member) is not None and (
                relation in (r"\approx", r"\simeq")
                or (k + 1 < len(seg) and seg[k + 1][1] in (r"\approx", r"\simeq"))
            )
            try:
                values.append((member.strip(), evaluate(member, bindings, loose), ""))
            except TooLarge as why:  # not evaluated, whatever the other members are
                findings.append(Finding("equality", line, text, "not checkable", str(why)))
            except NotNumeric as why:
                values.append((member.strip(), None, str(why)))
        numeric = [(m, v) for m, v, _ in values if v is not None]
        if len(numeric) < 2:
            symbolic = [m for m, v, _ in values if v is None and m.strip()]
            if numeric and any(not _NAMED.fullmatch(m) for m in symbolic):
                reasons = sorted({w for _, v, w in values if v is None})
                findings.append(
                    Finding(
                        "equality",
                        line,
                        text,
                        "not checkable",
                        f"one side is not arithmetic on numbers ({'; '.join(reasons)})",
                    )
                )
            continue
        for (m1, v1), (m2, v2) in zip(numeric, numeric[1:], strict=False):
            relation = "≈" if any(r != "=" for m, r in seg[1:] if m.strip() == m2) else "="
            pair = f"{m1} {relation} {m2}"
            if not meet(v1, v2):
                findings.append(
                    Finding(
                        "equality",
                        line,
                        pair,
                        "mismatched",
                        f"left side recomputes to {show(v1)}, right side to {show(v2)}; "
                        f"they differ by {gap(v1, v2)} beyond the printed precision",
                    )
                )
                continue
            findings.append(
                Finding("equality", line, pair, "confirmed", _face_note(m1, m2, v1, v2, bindings))
            )
    return findings


# Printed outputs -------------------------------------------------------------------

_OUT_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")


def _template(line: str) -> re.Pattern:
    """A pattern matching the line with any numbers in the places of its numbers."""
    parts = _OUT_NUMBER.split(line.strip())
    number = r"([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
    pieces = []
    for k, part in enumerate(parts):
        words = part.split()
        inner = 0 < k < len(parts) - 1
        if words:
            pieces.append(r"\s*" + r"\s+".join(re.escape(w) for w in words) + r"\s*")
        else:
            pieces.append(r"\s+" if inner and part else r"\s*")
        if k < len(parts) - 1:
            pieces.append(number)
    return re.compile("".join(pieces))


def audit_outputs(outputs: list[tuple[int, list[str]]], chapter: str) -> list[Finding]:
    from proofs import tables

    package = tables.listing_lines(chapter)
    templates = [(p, _template(p.text)) for p in package]
    findings = []
    for start, block in outputs:
        for k, raw in enumerate(block):
            if not raw.strip():
                continue
            line = start + k + 1
            matches = [(e, t.fullmatch(raw)) for e, t in templates]
            matches = [(e, m) for e, m in matches if m]
            if matches:
                # the package line agreeing in the most numbers (the row's own key first)
                expected, match = max(matches, key=lambda em: _agreement(em[0], em[1]))
                findings.append(_compare_output(line, raw.strip(), expected, match))
            else:
                findings.append(
                    Finding(
                        "output",
                        line,
                        raw.strip(),
                        "not checkable",
                        "no computation in the package prints this line",
                    )
                )
    return findings


def _agreement(expected, match: re.Match) -> tuple[int, ...]:
    ours = _OUT_NUMBER.findall(expected.text.strip())
    return tuple(int(a == b) for a, b in zip(match.groups(), ours, strict=True))


def _compare_output(line: int, printed: str, expected, match: re.Match) -> Finding:
    ours = _OUT_NUMBER.findall(expected.text.strip())
    theirs = list(match.groups())
    notes, bad = [], []
    for a, b in zip(theirs, ours, strict=True):
        if a == b:
            continue
        x, y = float(a), float(b)
        if abs(x) <= expected.rounding and abs(y) <= expected.rounding:
            notes.append(f"{a} vs {b}: both at rounding level (≤ {expected.rounding:.1e})")
        else:
            bad.append(f"printed {a}, the package gives {b} (off by {x - y:+.3g})")
    if bad:
        return Finding(
            "output", line, printed, "mismatched", "; ".join(bad) + f" [{expected.source}]"
        )
    detail = f"reproduced by {expected.source}"
    if notes:
        detail += "; " + "; ".join(notes)
    return Finding("output", line, printed, "confirmed", detail)


# The whole file ----------------------------------------------------------------------


def audit_file(path: Path) -> Report:
    """Audit one chapter file (read only)."""
    path = Path(path)
    text = read_chapter(path)
    lines = text.splitlines()
    form = detect_form(path, lines)
    chapter = detect_chapter(path, lines, form)
    code, outputs = code_spans(lines, form)
    report = Report(str(path), form, chapter)
    report.findings += audit_elements(path, lines, form, chapter)
    if chapter == "(from the ids)":
        chapters = {f.detail.split()[1] for f in report.findings if f.section == "element"}
        report.chapter = chapter = _chapter_of_ids(chapters)
    report.findings += audit_checks(report.findings, lines)
    report.findings += audit_tables(path, lines, form, code)
    report.findings += audit_equalities(lines, code)
    report.findings += audit_outputs(outputs, chapter)
    return report


def _chapter_of_ids(ids: set[str]) -> str:
    from proofs.registry import load_all

    registry = load_all()
    chapters = {registry[i].chapter for i in ids}
    return chapters.pop() if len(chapters) == 1 else "mixed"

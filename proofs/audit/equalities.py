"""The audit of a chapter's numeric equalities: each side recomputed at the printed
precision by proofs.tex_arithmetic; they must agree within the printed rounding."""

from __future__ import annotations

import re

from proofs.audit.report import Finding
from proofs.reader import Document
from proofs.tex_arithmetic import NotNumeric, Value, evaluate, gap, meet, show

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


def audit_equalities(document: Document) -> list[Finding]:
    """Every numeric equality of the document's formulas; a setting such as `d = 768`
    binds d for the rest of its line."""
    findings = []
    bindings_by_line: dict[int, dict[str, int]] = {}
    for formula in document.math:
        line, math = formula.line, formula.tex
        bindings = bindings_by_line.setdefault(line, {})
        for statement in _statements(math):
            findings.extend(audit_statement(line, statement, bindings))
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


def audit_statement(line: int, statement: str, bindings: dict[str, int]) -> list[Finding]:
    members, relations = _split_relations(statement)
    # bindings: every member a bare symbol but one integer literal
    symbols = [_BARE_SYMBOL.fullmatch(m) for m in members]
    integers = [m for m in members if re.fullmatch(r"\s*\d+(?:\{,\}\d{3})*\s*", m)]
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
        values: list[tuple[str, Value | None, str]] = []
        for k, (member, relation) in enumerate(seg):
            loose = _LITERAL.fullmatch(member) is not None and (
                relation in (r"\approx", r"\simeq")
                or (k + 1 < len(seg) and seg[k + 1][1] in (r"\approx", r"\simeq"))
            )
            try:
                values.append((member.strip(), evaluate(member, bindings, loose), ""))
            except NotNumeric as why:
                values.append((member.strip(), None, str(why)))
        numeric = [(m, v) for m, v, _ in values if v is not None]
        text = "".join(
            (f" {'=' if r == '=' else '≈'} " if k else "") + m.strip()
            for k, (m, r) in enumerate(seg)
        )
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

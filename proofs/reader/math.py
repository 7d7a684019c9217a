"""Formulas split as the chapters write them: a math span into statements (at a line
break, a quad, a text insert and top-level commas), a statement into members and the
relations between them."""

from __future__ import annotations

import re

RELATION = re.compile(
    r"(\\approx|\\simeq|:=|=|\\leq?|\\geq?|\\neq?|<|>|\\to|\\in|\\mapsto)(?![A-Za-z])"
)


def split_statements(math: str) -> list[str]:
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
        text = next((c for c in (r"\textbf{", r"\text{") if math.startswith(c, i)), None)
        if depth == 0 and text is not None:
            j, level = i + len(text), 1
            while j < len(math) and level:
                level += math[j] == "{"
                level -= math[j] == "}"
                j += 1
            pieces.append(current)
            current = ""
            i = j
            continue
        if ch in "({[" or math.startswith(r"\langle", i):
            depth += 1
        elif ch in ")}]" or math.startswith(r"\rangle", i):
            depth -= 1
        if ch == "\\" and i + 1 < len(math) and not math[i + 1].isalpha():
            depth += {"{": 1, "}": -1}.get(math[i + 1], 0)  # \{ \} group like { }
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
    return _ranges_kept([p for p in pieces if p.strip()])


def _ranges_kept(pieces: list[str]) -> list[str]:
    """`l = 1, \\ldots, L` stays one statement (a range), not three."""
    out: list[str] = []
    for piece in pieces:
        if out and (piece.strip() in (r"\ldots", r"\cdots") or out[-1].strip().endswith(
                (r"\ldots", r"\cdots"))):
            out[-1] = f"{out[-1]},{piece}"
        else:
            out.append(piece)
    return out


def split_relations(statement: str) -> tuple[list[str], list[str]]:
    """Members and the relations between them, splitting only outside braces."""
    members, relations, current, depth, i = [], [], "", 0, 0
    while i < len(statement):
        ch = statement[i]
        depth += ch in "{([" and not statement.startswith("\\{", i - 1)
        depth -= ch in "})]" and not statement.startswith("\\}", i - 1)
        match = RELATION.match(statement, i) if depth == 0 else None
        if match:
            members.append(current)
            relations.append(match.group(1))
            current, i = "", match.end()
            continue
        current += ch
        i += 1
    members.append(current)
    return members, relations


def statement_lines(line: int, tex: str) -> list[tuple[int, str]]:
    """(line, statement) for each statement of a formula whose first character stands on
    `line`: a display's statements on the lines they stand on."""
    body, cursor, out = tex.lstrip(), 0, []
    for statement in split_statements(tex):
        at = body.find(statement.strip(), cursor)
        cursor = max(at, cursor)
        out.append((line + body.count("\n", 0, cursor), statement.strip()))
    return out

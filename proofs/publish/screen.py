"""The verify screen: one table of results in at most SCREEN_WIDTH terminal columns,
then failures, findings and a summary line. Japanese titles take two columns per
character, so widths are measured in display columns, not characters."""

from __future__ import annotations

import unicodedata

from proofs.book.registry import RESULTS
from proofs.typeset.words import counted

SCREEN_WIDTH = 120  # columns of the verify screen unless --wide


def display_width(text: str) -> int:
    """Columns a terminal gives the text: East Asian wide and full-width characters
    (unicodedata.east_asian_width W or F) take two, every other character one."""

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def truncate(text: str, width: int) -> str:
    """The text cut to at most `width` columns, ending in "…" when cut."""
    if display_width(text) <= width:
        return text
    out, used = "", 1  # the "…" takes one column
    for ch in text:
        if used + display_width(ch) > width:
            break
        out, used = out + ch, used + display_width(ch)
    return out + "…"


def wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    """Words of `text` on lines of at most `width` columns (a longer word alone on its
    line), the lines after the first indented."""
    lines, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and display_width(candidate) > width:
            lines.append(current)
            current = indent + word
        else:
            current = candidate
    return [*lines, current]


METHOD_ABBREVIATIONS = {
    "symbolic": "sym",
    "numeric": "num",
    "witness": "wit",
    "high precision": "hp",
    "not a theorem": "nt",
}


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(display_width(row[c]) for row in [header, *rows]) for c in range(len(header))]
    lines = [
        "  ".join(_pad(cell, w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def screen(
    results: list[dict], profile: str, seconds: float, evidence: bool, wide: bool = False
) -> str:
    """The table of results, then failures, findings and the summary line. Unless
    `wide`, every line of the table fits in SCREEN_WIDTH columns: the methods are
    abbreviated when the titles would not fit whole otherwise, and the titles are cut
    with "…" to the columns left."""
    header = ("id", "number", "title", "kind / methods", "result", "time")

    def rows(abbreviate: bool, title_width: int | None) -> list[tuple[str, ...]]:
        def methods(r: dict) -> str:
            names = [METHOD_ABBREVIATIONS[m] if abbreviate else m for m in r["methods"]]
            return f"{r['kind']} / {', '.join(names)}"

        return [
            (
                r["id"],
                r["number"],
                r["title"] if title_width is None else truncate(r["title"], title_width),
                methods(r),
                r["result"],
                f"{r['seconds']:.2f} s",
            )
            for r in results
        ]

    abbreviate = False
    title_width = None
    if not wide:

        def room(abbreviated: bool) -> int:
            """Columns left for the titles: the screen less the other columns and gaps."""
            table = [header, *rows(abbreviated, None)]
            used = sum(max(display_width(row[c]) for row in table) for c in (0, 1, 3, 4, 5))
            return SCREEN_WIDTH - used - 2 * (len(header) - 1)

        abbreviate = room(False) < max(display_width(r["title"]) for r in results)
        title_width = max(room(abbreviate), len("title"))
    lines = table(header, rows(abbreviate, title_width))
    if abbreviate:
        shown = sorted(
            {m for r in results for m in r["methods"]}, key=list(METHOD_ABBREVIATIONS).index
        )
        lines.append("methods: " + ", ".join(f"{METHOD_ABBREVIATIONS[m]} {m}" for m in shown))
    width = None if wide else SCREEN_WIDTH

    def paragraph(text: str) -> list[str]:
        return [text] if width is None else wrap(text, width)

    if evidence:
        lines.append("")
        for r in results:
            for item in r["evidence"]:
                lines += paragraph(f"{r['id']}: {item}")
    problems = [r for r in results if r["result"] != "passed"]
    if problems:
        lines.append("")
        for r in problems:
            lines += paragraph(f"{r['result'].upper()} {r['id']} ({r['number']}): {r['message']}")
    found = [(r["id"], message) for r in results for message in r["findings"]]
    if found:
        lines.append("")
        lines.append(
            f"findings ({len(found)}): the chapter prints a wrong value where the statement holds"
        )
        for id_, message in found:
            lines += paragraph(f"{id_}: {message}")
    tally = {k: sum(r["result"] == k for r in results) for k in RESULTS}
    lines.append("")
    lines.append(
        f"{counted(len(results), 'check')}: {tally['passed']} passed, {tally['failed']} failed, "
        f"{counted(tally['error'], 'error')}, {tally['unchecked']} unchecked, "
        f"{counted(len(found), 'finding')} in {seconds:.1f} s (Hypothesis profile {profile})"
    )
    return "\n".join(lines)

"""Counts a chapter announces of its own items: 「次の 3 つの問いに答えます。」 before a
list of three, 「2 つ挙げます。1 つ目に…2 つ目に…」.

Two forms are read, each in a chapter the package has never seen:

- a line that ends its paragraph (no list item, no heading) whose last sentence says
  「N つ」 (N ≥ 2), or any of whose sentences says 「次の N つ」「次の N か所」 (個, 点, 種類,
  通り, …), followed after blank lines by a list: the list has N items (numbered 1. 2. …
  or bulleted -, *, •; continuation lines and nested items are not, and a numbered list
  goes on after an item's display when its next number follows soon), unless the count
  says what the chapter covers (「この記事では…3 つの方式を…確かめます」, before its
  summary) or lists its items in brackets (「3 つの工夫（A、B、C）」: those are counted);
- the same line followed by a display that defines two names or more (`:=`): it defines
  N (「次の 4 つを考える。」 before four definitions);
- a line announcing 「N つ」 followed, in its own paragraph, by 「1 つ目」…「k つ目」:
  k = N;
- a sentence 「…は N つです。」 followed on its line by items each ending in 「こと」
  (「確かめたことは 3 つです。A こと。B こと、C こと。」): the items up to the first
  sentence that does not end so are N;
- quoted items right before their count: 「「A」「B」という 2 つの問い」「「A」と「B」の 2 つ」:
  the quotes are N.

Anything else that says 「N つ」 (a count of things the text does not list, or 「…の 3 つです」
summing up the items of its own sentence) is left alone.
"""

from __future__ import annotations

import re
import unicodedata

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document

_ANNOUNCING = (
    '# 見本\n\n<Remark id="rem-steps" title="手順">\n\n手順を述べます。\n\n</Remark>\n\n'
    "次の 3 つを確かめます。\n\n{}\n"
)
COUNTED = Rule(
    "CNT001",
    "announced-count",
    Section.PROSE,
    Severity.WARNING,
    "A count a paragraph announces of its own items (「次の 3 つ」 before a list, 「2 つ挙げます。"
    "1 つ目に…」, 「…は 3 つです。」 before clauses ending in 「こと」, 「「A」「B」という 2 つ」) "
    "is the number of items that follow (the quotes before it).",
    Example(_ANNOUNCING.format("1. 和\n2. 積")),
    Example(_ANNOUNCING.format("1. 和\n2. 積\n3. 商")),
)
RULES = (COUNTED,)


# 「N つ」, not 「N つ目」, not 「…の N つです」, which sums up its own sentence's items, and not
# 「行列 2 つだけ」「2 つずつ」「3 つ以上」, which quantify a noun rather than announce items
_ANNOUNCED = re.compile(
    r"(?<![\d.])(?P<n>\d+)\s?つ(?!目|です|である|でした|だけ|ずつ|とも|以上|以下|まで|ほど|程度)"
)
# 「次の 3 か所に…」「以下の 3 通り」: announces the list after the paragraph wherever its
# sentence stands
_NEXT = re.compile(
    r"(?:次|以下)の\s?(?P<n>\d+)\s?(?:つ|か所|箇所|個|点|種類|通り|項目|段階)"
    r"(?!目|です|である|でした|だけ|ずつ|とも|以上|以下|まで|ほど|程度)"
)
_ITEM = re.compile(r"(?:\d+\.|[-*•])\s")
_NUMBERED = re.compile(r"\d+\.\s")
# 「3 つの工夫（損失スケーリング、補償和、マスター重み）」: the items in the brackets after it
# (the noun between has no kana: 「4 つの損失を比べます（…）」 remarks on the sentence)
_BRACKETED = re.compile(r"\s?つの[^\s（(、。\u3040-\u309f]{0,8}[（(](?P<items>[^（()）]+)[）)]")
# 「確かめたことは 3 つです。」「… 3 つである。」, then its items, each a clause ending in 「こと」
_SUMMED_UP = re.compile(r"は\s?(?P<n>\d+)\s?つ(?:です|である|だ)。")
# 「「A」「B」という 2 つの問い」: quotes side by side (or joined by と, 、), then their count
_QUOTED = re.compile(
    r"(?P<quotes>(?:「[^「」]+」\s*(?:と|、)?\s*){2,})(?:という|の)\s?(?P<n>\d+)\s?つ(?!目)"
)
_THING = re.compile(r"こと(?:です)?(?:[、。]|\Z)")
_ORDINAL = re.compile(r"(?<![\d.])(?P<k>\d+)\s?つ目")
_OTHER = "\x00"  # a line of code or a heading


def audit_counted(document: Document) -> list[Finding]:
    """Every announced count of a list or of ordinals, confirmed or mismatched at the
    announcing line."""
    out = []
    headings = {h.line for h in document.headings}
    lines = [  # code and headings end a list: they stand as a line that is no item
        _OTHER if k in document.code or k in headings else unicodedata.normalize("NFKC", text)
        for k, text in enumerate(document.lines, 1)
    ]
    for k, text in enumerate(lines, 1):
        out += _things_after(k, text)
        out += _quoted(k, text)
        announced = [m for m in _ANNOUNCED.finditer(text) if not _of_the_chapter(text, m.start())]
        following = list(_NEXT.finditer(text))
        if _ITEM.match(text) or not (announced or following):
            continue  # a list's own item announces nothing of the lines after it
        match = following[-1] if following else announced[-1]
        n = int(match.group("n"))
        ordinals = [int(m.group("k")) for m in _ORDINAL.finditer(text, match.end())]
        bracketed = _BRACKETED.match(text, match.end() - 1)
        if bracketed and ("、" not in bracketed.group("items") or "。" in bracketed.group("items")):
            bracketed = None  # a remark in brackets (「（[4] 表 2。$V = …$、…）」), not a list
        got: int | None
        if bracketed:
            got, what = bracketed.group("items").count("、") + 1, "the brackets after it list"
        elif ordinals:
            got, what = max(ordinals), "the ordinals 「k つ目」 after it count"
        else:
            got, what = _list_after(lines, k), "the list after it has"
            if got is None:
                got, what = _defined_after(lines, k), "the display after it defines"
        last_sentence = following or "。" not in text[match.end() :].rstrip().rstrip("。:：")
        if n < 2 or got is None or not (ordinals or last_sentence or bracketed):
            continue
        out.append(_counted(k, match.group(0), n, what, got))
    return out


def _counted(line: int, text: str, announced: int, what: str, got: int) -> Finding:
    """The finding of a count the text announces against what it counts."""
    return Finding(
        Section.PROSE,
        line,
        text,
        Status.CONFIRMED if got == announced else Status.MISMATCHED,
        f"the text announces {announced}; {what} {got}",
        code=COUNTED.code,
    )


# 「この記事では、…代表的な 3 つの方式が…を確かめます。」: what the chapter covers, which
# the list after the opening (its summary) does not enumerate
_SCOPE = re.compile(r"\s*(?:この記事|この章|本章)では")


def _of_the_chapter(text: str, at: int) -> bool:
    """Whether the count at `at` stands in a sentence saying what the chapter covers."""
    return _SCOPE.match(text, text.rfind("。", 0, at) + 1) is not None


def _things_after(k: int, text: str) -> list[Finding]:
    """「…は N つです。」 and the clauses ending in 「こと」 that follow it on its line: a
    finding when there are two at least, none otherwise (the items are said otherwise)."""
    out = []
    for match in _SUMMED_UP.finditer(text):
        at, things = match.end(), 0
        while (thing := _THING.search(text, at)) is not None and "。" not in text[
            at : thing.start()
        ]:
            things, at = things + 1, thing.end()
        if things < 2:
            continue
        what = "the clauses ending in 「こと」 after it are"
        out.append(_counted(k, match.group(0), int(match.group("n")), what, things))
    return out


def _quoted(k: int, text: str) -> list[Finding]:
    """Each count right after the quoted items it counts."""
    return [
        _counted(
            k,
            match.group(0),
            int(match.group("n")),
            "the quotes before it are",
            match.group("quotes").count("「"),
        )
        for match in _QUOTED.finditer(text)
    ]


def _defined_after(lines: list[str], k: int) -> int | None:
    """The names the display after line k defines (`:=`), when line k ends its paragraph,
    a display follows and it defines two at least."""
    j = k
    if j < len(lines) and lines[j].strip():
        return None
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines) or lines[j].strip() != "$$":
        return None
    end = next((i for i in range(j + 1, len(lines)) if lines[i].strip() == "$$"), None)
    defined = sum(line.count(":=") for line in lines[j + 1 : end]) if end else 0
    return defined if defined >= 2 else None


def _list_after(lines: list[str], k: int) -> int | None:
    """The items of the list that follows line k (1-based) after blank lines, when line k
    ends its paragraph and one does."""
    j = k  # index of the line after k
    if j < len(lines) and lines[j].strip():
        return None  # the paragraph goes on
    while j < len(lines) and not lines[j].strip():
        j += 1
    items = 0
    while j < len(lines) and lines[j].strip():
        if _ITEM.match(lines[j]):  # at the margin: an item; indented: a nested one
            items += 1
        elif not lines[j].startswith((" ", "\t")):
            # 「2. … ならば」, a display, 「で、…」, then 「3. …」: a numbered list goes on
            # after what its item displays, when the next number comes soon
            resumed = _next_number(lines, j, items + 1) if _NUMBERED.match(lines[j - 1]) else None
            if resumed is None:
                break
            j = resumed
            continue
        j += 1
        if j < len(lines) and not lines[j].strip() and j + 1 < len(lines):
            if _ITEM.match(lines[j + 1]):  # a loose list: items apart by a blank line
                j += 1
    return items or None


RESUME_LINES = 12  # how far a numbered list's next item may stand after its display


def _next_number(lines: list[str], j: int, number: int) -> int | None:
    """The index of the line at or after j that begins item `number` of a numbered list,
    within RESUME_LINES lines and before a heading or another item; None if none does."""
    for i in range(j, min(j + RESUME_LINES, len(lines))):
        if lines[i].startswith(f"{number}. "):
            return i
        if _ITEM.match(lines[i]) or lines[i].startswith(("#", "</", "<")):
            return None
    return None

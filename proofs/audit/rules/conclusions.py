"""A numbered item of a statement and the same item of its proof: the count the proof
arrives at is the count the statement states.

A proposition says 「2. … キャッシュは $2Lid$ 個の数からなる。」 and its proof's item 2 counts
its way to 「… $L$ 層で $2Lid$ 個です。」. When an item of the proof ends with a formula
followed by a counter word (個, 回, 本, バイト), and the statement's item of the same number
states a formula followed by the same counter, the two are one quantity written twice:
they are decided equal in the open notation (proofs.audit.deciding.notation) with the element's
settings. Two formulas of other quantities (different names) are left alone; the same
names and no identity is a mismatch at the statement's line. A proof's count of each of
several (「どちらも … $N^2 d$ 回です」) is no total, and is left alone too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proofs.audit.deciding.defined import Notation, read_notation
from proofs.audit.deciding.instances import try_statement
from proofs.audit.deciding.notation import OpenFacts, decide_open
from proofs.audit.deciding.sentence import is_case, is_hypothesis, is_setting
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document
from proofs.reader.math import INLINE_MATH, split_relations, statement_lines
from proofs.reader.records import Element
from proofs.tex.tree import TexError, parse, tree_names

_ITEMS = (
    "# 見本\n\n## 1. キャッシュ\n\n"
    '<Proposition id="prop-cache" title="キャッシュの大きさ">\n\n'
    "1. 1 層のキャッシュは $2id$ 個の数からなる。\n"
    "2. $L$ 層のキャッシュは $2Lid$ 個の数からなる。\n\n</Proposition>\n\n"
    '<Proof of="prop-cache">\n\n'
    "1. 位置ごとに $K$ と $V$ の 2 行で、$i$ 位置ぶん $2id$ 個です。\n"
    "2. 層ごとに 1. の数で、$L$ 層で {} 個です。\n\n</Proof>\n"
)
PROVED_COUNT = Rule(
    "PRF001",
    "proof-arrives-elsewhere",
    Section.FORMULA,
    Severity.WARNING,
    "The count a proof's numbered item arrives at (a formula before 個, 回, 本, バイト) is "
    "the count the statement's item of the same number states.",
    Example(_ITEMS.format("$Lid$")),
    Example(_ITEMS.format("$2dLi$")),
)
_BOTH = (
    "# 見本\n\n## 1. 分散\n\n"
    '<Proposition id="prop-var" title="縮めた和">\n\n'
    "$S := (x_1 + x_2)/2$ について $\\mathrm{Var}(S) = RIGHT$ である。\n\n</Proposition>\n\n"
    '<Proof of="prop-var">\n\n'
    "独立なので $\\mathrm{Var}(S) = \\frac{1}{4}\\big(\\sigma^2 + \\sigma^2\\big) "
    "= \\sigma^2/2$ です。\n\n"
    "</Proof>\n"
)
PROVED_FORMULA = Rule(
    "PRF002",
    "proof-arrives-at-another-formula",
    Section.FORMULA,
    Severity.WARNING,
    "A statement's `L = R` and a chain of its proof `L = … = R'` with the same left side: "
    "R and R' are one quantity, so they must agree; a point where they differ is reported "
    "at both lines, since either could have slipped.",
    Example(_BOTH.replace("RIGHT", "\\sigma^2")),
    Example(_BOTH.replace("RIGHT", "\\sigma^2/2")),
)
RULES = (PROVED_COUNT, PROVED_FORMULA)


COUNTERS = ("個", "回", "本", "バイト")
EACH = ("どちらも", "いずれも", "それぞれ")  # a count of each of several, not their total
_COUNTED = re.compile(r"\$([^$]+)\$\s*(" + "|".join(COUNTERS) + ")")
_ITEM = re.compile(r"^\s*(\d+)\.\s")


def audit_conclusions(document: Document) -> list[Finding]:
    """Each statement item's count against the count its proof's item ends with."""
    out = []
    for element in document.elements:
        if element.proof is None:
            continue
        stated = _items(document, *element.statement)
        proved = _items(document, *element.proof)
        facts = _settings(document, element)
        for number, (line, text) in stated.items():
            if number not in proved:
                continue
            out += _compared(line, text, proved[number], facts)
    return out


def audit_proved_formulas(document: Document) -> list[Finding]:
    """Each statement's `L = R` against the end of a chain of its proof that starts with
    the same L, in the same numbered item: a mismatch at both lines, a confirmation at the
    statement's. An L given two right sides within the statement or within the proof
    (「$n = d$、$n = 6d$ のそれぞれで」, two cases) is left alone, and so is a name set to a
    number (「$s = 1$ では」): what differs there is the case, not the formula."""
    out = []
    notation = None
    for element in document.elements:
        if element.proof is None:
            continue
        proved = _single(_chains(document, *element.proof))
        if not proved:
            continue
        facts = _settings(document, element)
        for chain in _single(_chains(document, *element.statement)):
            match = next((p for p in proved if p.key == chain.key and p.item == chain.item), None)
            if match is None or _plain(match.right) == _plain(chain.right):
                continue
            if _is_number(chain.right) and _is_number(match.right):
                continue  # two values of a name: two cases
            if notation is None:
                notation = read_notation(document)
            out += _against(chain, match, facts, notation(chain.line))
    return out


@dataclass(frozen=True)
class _Chain:
    """A chain of equalities: its line, the numbered item it stands in (empty outside
    items), its first and last members, and the first as compared (`key`)."""

    line: int
    item: str
    left: str
    right: str

    @property
    def key(self) -> str:
        return _plain(self.left)


def _chains(document: Document, first: int, last: int) -> list[_Chain]:
    """Each chain of equalities on the lines, in the item it stands in."""
    found = []
    items = {line: number for number, (line, _) in _items(document, first, last).items()}
    for formula in document.math:
        if not first <= formula.line <= last:
            continue
        item = next((items[k] for k in sorted(items, reverse=True) if k <= formula.line), "")
        for line, statement in statement_lines(formula.line, formula.tex):
            members, relations = split_relations(statement.rstrip(".,"))
            if not relations or set(relations) != {"="} or not all(m.strip() for m in members):
                continue
            if not _conditional(document, line, statement):
                found.append(_Chain(line, item, members[0].strip(), members[-1].strip()))
    return found


def _conditional(document: Document, line: int, statement: str) -> bool:
    """Whether the statement is a condition, a case or a setting of its sentence
    (「$\\mathrm{SiLU}'(x) = 0$ は … と同値」), not a claim."""
    return any(test(document, line, statement) for test in (is_hypothesis, is_case, is_setting))


def _single(chains: list[_Chain]) -> list[_Chain]:
    """The chains whose first member no other chain of the same item ends otherwise."""
    ends: dict[tuple[str, str], set[str]] = {}
    for chain in chains:
        ends.setdefault((chain.item, chain.key), set()).add(_plain(chain.right))
    return [c for c in chains if len(ends[(c.item, c.key)]) == 1]


def _against(stated: _Chain, proved: _Chain, facts: OpenFacts, notation: Notation) -> list[Finding]:
    """The statement's right side against the one its proof arrives at: with the
    chapter's definitions where either side applies one (s(x) of a defined s), in the open
    notation otherwise."""
    relation = f"{stated.right} = {proved.right}"
    try:
        names = tree_names(parse(stated.right)) | tree_names(parse(proved.right))
    except TexError:
        return []
    if names & set(notation.definitions):
        tried = try_statement(relation, notation)
        if isinstance(tried, str) or tried.judgement.outcome not in ("fails", "holds"):
            return []
        status = "mismatched" if tried.judgement.outcome == "fails" else "confirmed"
        detail = tried.detail()
    else:
        status, detail = decide_open(relation, facts)
        if status == "not checkable":
            return []
    left = stated.left
    said = f"its proof arrives at ${left} = {proved.right}$ (line {proved.line}): {detail}"
    text = f"${left} = {stated.right}$"
    found = [
        Finding(Section.FORMULA, stated.line, text, Status(status), said, code=PROVED_FORMULA.code)
    ]
    if status == "mismatched":  # which of the two slipped, the two lines do not tell
        found.append(
            Finding(
                Section.FORMULA,
                proved.line,
                f"${left} = {proved.right}$",
                Status.MISMATCHED,
                f"its statement says {text} (line {stated.line}): {detail}",
                code=PROVED_FORMULA.code,
            )
        )
    return found


def _is_number(tex: str) -> bool:
    return re.fullmatch(r"-?[\d.]+(?:\{,\}\d{3})*(?:\.\d+)?", _plain(tex)) is not None


_SPACING = re.compile(
    r"\\(?:[,;!: ]|quad|qquad|left|right|displaystyle|[bB]ig{1,2}[lr]?)(?![A-Za-z])|\s+"
)


def _plain(tex: str) -> str:
    """The TeX without its spacing and sizing, for telling the same formula written twice."""
    return _SPACING.sub("", tex).replace("\\tfrac", "\\frac").replace("\\dfrac", "\\frac")


def _items(document: Document, first: int, last: int) -> dict[str, tuple[int, str]]:
    """The numbered items of the lines, by their number: (line, text)."""
    found = {}
    for line in range(first, last + 1):
        item = _ITEM.match(document.line(line))
        if item is not None and item.group(1) not in found:
            found[item.group(1)] = (line, document.line(line))
    return found


def _settings(document: Document, element: Element) -> OpenFacts:
    """The element's settings 「$d_k = d/h$ とする」 (its statement's lines before an item)."""
    facts = OpenFacts()
    first, last = element.statement
    for line in range(first, last + 1):
        text = document.line(line)
        if _ITEM.match(text):
            break
        for m in INLINE_MATH.finditer(text):
            if is_setting(document, line, m.group(1).strip()):
                facts.learn(m.group(1))
    return facts


def _compared(line: int, stated: str, proved: tuple[int, str], facts: OpenFacts) -> list[Finding]:
    """The statement item's count against the proof item's, when the proof item ends
    with a count."""
    proof_line, proof = proved
    formulas = list(INLINE_MATH.finditer(proof))
    ending = list(_COUNTED.finditer(proof))
    if not formulas or not ending or ending[-1].start() != formulas[-1].start():
        return []  # the proof's item does not end with a count
    sentence = proof[proof.rfind("。", 0, ending[-1].start()) + 1 : ending[-1].start()]
    if any(word in sentence for word in EACH):
        return []  # 「どちらも … $N^2 d$ 回です」: the count of each, not the total stated
    derived, counter = _last_member(ending[-1].group(1)), ending[-1].group(2)
    claims = [m for m in _COUNTED.finditer(stated) if m.group(2) == counter]
    if not claims:
        return []
    claim = _last_member(claims[-1].group(1))
    status, detail = decide_open(f"{claim} = {derived}", facts)
    if status == "not checkable":
        return []
    return [
        Finding(
            Section.FORMULA,
            line,
            f"${claim}$ {counter}",
            Status(status),
            f"the count its proof arrives at (line {proof_line}: ${derived}$ {counter}): {detail}",
            code=PROVED_COUNT.code,
        )
    ]


def _last_member(tex: str) -> str:
    return re.split(r"=|\\approx", tex)[-1].strip()

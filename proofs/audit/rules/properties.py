"""Properties a sentence states in words of the formula written just before them: that it
increases or decreases in one of its names, does not depend on it, or is proportional to it.

- 「$F$ は $v$ について狭義減少で」「$\\sum_j … = F$ で、$v$ について増加し」「…について非増加」:
  F at v + h against F at v for h > 0 (h = 1 where v counts the terms of a sum: an integer);
- 「$t \\mapsto F$ が増加関数」: the same, of the function the arrow writes;
- 「$F$ … $v$ によらない」: F at v + h equals F at v;
- 「$F$ は $v$ に比例し」「$F$ … $1/r$ に比例して」: F at 2v over F at v is g at 2v over g
  at v, for the g the words name (v itself, or a formula of v alone), or at least F over g
  tends to a number other than 0 as v grows (「ステップの数 $2(p-1)$ は $p$ に比例」, as
  counts and costs use the word).

「$F$ … $N$ に反比例」 is the same with g = 1/N. The formula is the last one of the sentence
before the words (its last member), or, when that sentence writes none and its subject
points back (「これは」「この割合は」), of the sentence before it on the line, read in the
open notation (proofs.audit.deciding.notation): its names positive numbers, each in the range
the chapter states for it (`0 < \\lambda < 1`). A property is judged only when v is one of
the formula's names, so that words about something else (「比 $\\rho$ は $r$ に比例し」, whose
formula comes after them) are left alone, with one exception: F said to be proportional to
v, the words right after it (「$R_{-k}$ は $t$ に比例する」, or after its unit and 「で、」 and
what v is: 「$md_v + m$ 個で、位置 $t$ に比例」), when v is none of its names,
nor of the definitions they reach, and each of them is a size or is defined. F is then the
same at v and 2v, which no proportion to v allows; a name merely declared could hide a
dependence, so such an F is left alone. The property is tried at points drawn in every
region (proofs.tex.witness); false at points of every region where the formula has a value,
it is a mismatch with two values a reader can recompute. A warning: which formula the words
are of is read from their order in the sentence, which a second source does not confirm.

Of a function the notation knows (`\\cos`), a formula of one name, or `x \\mapsto F`:
「$F$ は $[a, b]$ で単調減少」「$F$ は $x > 0$ で単調増加」, F at two points drawn inside the
interval; 「$F$ は偶関数（奇関数）」, F at -x against F at x (against -F at x).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

import sympy

from proofs.audit.deciding.defined import Notation, read_notation
from proofs.audit.deciding.instances import reached_names
from proofs.audit.deciding.notation import (
    CONSTANTS,
    FUNCTIONS,
    open_value,
    summation_limits,
    with_calls,
)
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document
from proofs.reader.math import split_relations, split_statements
from proofs.tex.tree import TexError, parse, tree_names
from proofs.tex.witness import Range, judge

_HEAD = '# 見本\n\n<Remark id="rem-words" title="言葉">\n\n言葉で述べます。\n\n</Remark>\n\n{}\n'
MONOTONE = Rule(
    "PRP001",
    "monotone-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「$F$ は $v$ について増加（減少）」「$v \\mapsto F$ が増加関数」: F at v + h against F at "
    "v, for h > 0, in the range the chapter states; 「$F$ は $[a, b]$ で単調減少」, F a function "
    "the notation knows or a formula of one name: F at two points of the interval. A pair of "
    "values where F goes the other way is the witness.",
    Example(_HEAD.format("比 $(4d + 3)/(7d + 3)$ は $d$ について狭義増加です。")),
    Example(_HEAD.format("比 $(4d + 3)/(7d + 3)$ は $d$ について狭義減少です。")),
)
INDEPENDENT = Rule(
    "PRP002",
    "independent-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「$F$ … $v$ によらない」: F at v + h equals F at v; 「$F$ は $v$ に比例し」: F at 2v is "
    "twice F at v. Judged only when v is a name of F.",
    Example(_HEAD.format("記憶する数は $md_v + t$ 個で、位置 $t$ によりません。")),
    Example(_HEAD.format("和 $\\sin^2 t + \\cos^2 t + m$ は $t$ によりません。")),
)
PARITY = Rule(
    "PRP003",
    "parity-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「$F$ は偶関数（奇関数）」, F a function the notation knows (`\\cos`) or a formula of one "
    "name: F at -x against F at x (against -F at x); a point where they differ is the witness.",
    Example(_HEAD.format("$\\cos$ は奇関数なので、和の各項は $k$ と $-k$ で打ち消し合います。")),
    Example(_HEAD.format("$\\cos$ は偶関数なので、和の各項は $k$ と $-k$ で等しくなります。")),
)
RULES = (MONOTONE, INDEPENDENT, PARITY)

_NAME = (
    r"\$\s*(?P<v>\\?[A-Za-z]+"
    r"(?:_(?:\{\\mathrm\{[A-Za-z0-9]+\}\}|\{?\\?[A-Za-z0-9]+\}?))?)\s*\$"
)
_DIRECTION = re.compile(
    _NAME + r"\s*について\s*(?P<strict>狭義)?\s*(?:単調)?\s*(?P<non>非)?(?P<way>増加|減少)(?!関数)"
)
_FUNCTION = re.compile(
    r"\$(?P<f>[^$]*\\mapsto[^$]*)\$\s*(?:は|が)\s*(?P<strict>狭義)?\s*(?:単調)?\s*"
    r"(?P<way>増加|減少)関数"
)
# 「$L$ によらない定数で抑えられ」: said of a bound the text does not write, not of F
_OF_A_NOUN = r"(?!\s*(?:定数|値|上界|下界|量|数))"
_INDEPENDENT = re.compile(
    _NAME
    + r"\s*(?:の値)?\s*(?P<how>によらない"
    + _OF_A_NOUN
    + r"|によりません|に依存しない"
    + _OF_A_NOUN
    + r")"
)
# 「$v$ に比例し」「$1/r$ に比例して」: proportional to v, or to a formula of one name;
# 「$N$ に反比例」: to 1/N
_PROPORTIONAL = re.compile(r"\$(?P<g>[^$]+)\$\s*(?:の値)?\s*に(?P<inverse>反)?比例")
# a sentence whose subject is the formula of the sentence before: 「これは」「この割合は」
_DEMONSTRATIVE = re.compile(r"\s*(?:これ|この[^\s$、。,はが]{1,6})(?:は|が)")
_FORMULA = re.compile(r"\$([^$]+)\$")
# 「$\cos$ は $[0, \pi]$ で狭義単調減少」「$x \mapsto x/(n + x)$ は $x \ge 0$ で単調増加」
_ON_INTERVAL = re.compile(
    r"\$(?P<f>[^$]+)\$\s*(?:は|が|も)\s*\$(?P<i>[^$]+)\$\s*で\s*(?P<strict>狭義)?\s*単調\s*"
    r"(?P<non>非)?(?P<way>増加|減少)(?!関数)"
)
_BRACKETED_INTERVAL = re.compile(r"\s*[\[(](?P<a>[^,\[\]()]+),(?P<b>[^,\[\]()]+)[\])]\s*")
# 「$\cos$ は偶関数」「$\tanh$ も奇関数」「$\cos$ は周期 $2\pi$ の偶関数」
_PARITY = re.compile(
    r"\$(?P<f>[^$]+)\$\s*(?:は|も)\s*(?:周期\s*\$[^$]+\$\s*の\s*)?(?P<way>偶|奇)関数"
)
# 「$I_B = (P + 2id)/(P/B + 2id/r)$ で、分母は $B$ について」: a part of the formula is the subject
_ANOTHER_SUBJECT = re.compile(r"[、,]\s*(?!これ|それ|この|その|右辺|左辺)[^\s$、。,]{1,6}は")
# words that say the proportion is of the formula just before: 「$F$ は」, or its unit and
# 「で、」 then what the name is (「$md_v + m$ 個で、位置 $t$ に」「$n\sigma^2$ は出力の幅
# $n_{\mathrm{out}}$ に」); a second subject (「その階数は」) is another formula's
_SAID_OF = re.compile(
    r"\$\s*(?:[^\s$、。\d]{1,3}?\s*で、|で、|は|が|も)\s*[^\s$、。\dはがも（）()]{0,8}\s*\Z"
)


def audit_properties(document: Document) -> list[Finding]:
    """Each property in words of the formula before it, confirmed or mismatched at its line."""
    notation = None
    out: list[Finding] = []
    # the opening's summary speaks of what the chapter goes on to declare: its notation
    first = min((e.line for e in document.elements), default=1)
    for number, line in document.text_lines:
        text = unicodedata.normalize("NFKC", line)
        claims = [
            *((m, "monotone") for m in _DIRECTION.finditer(text)),
            *((m, "function") for m in _FUNCTION.finditer(text)),
            *((m, "independent") for m in _INDEPENDENT.finditer(text)),
            *((m, "proportional") for m in _PROPORTIONAL.finditer(text)),
        ]
        out += [f for m in _PARITY.finditer(text) if (f := _parity(number, m)) is not None]
        out += [
            f for m in _ON_INTERVAL.finditer(text) if (f := _on_interval(number, m)) is not None
        ]
        for match, kind in claims:
            if notation is None:
                notation = read_notation(document)
            found = _judged(
                number,
                text,
                match,
                kind,
                notation(len(document.lines) if number < first else number),
            )
            if found is not None:
                out.append(found)
    return out


def _judged(
    line: int, text: str, match: re.Match[str], kind: str, notation: Notation
) -> Finding | None:
    """The property's finding, or None when the formula or the name is not read."""
    ranges = notation.ranges
    if kind == "function":
        variable, _, formula = match.group("f").partition(r"\mapsto")
        members = [formula]
    else:
        variable = match.group("g" if kind == "proportional" else "v")
        sentence, formulas = _said_of(text[: match.start()], variable)
        if not formulas or _ANOTHER_SUBJECT.search(sentence[sentence.rfind(formulas[-1]) :]):
            return None
        members, _ = split_relations(split_statements(formulas[-1])[-1])
    value, g = open_value(with_calls(members[-1])), open_value(with_calls(variable.strip()))
    inverse = kind == "proportional" and bool(match.group("inverse"))
    if inverse and g is not None:
        g = 1 / g
    word = "に反比例" if inverse else "に比例"
    if kind == "proportional" and g is not None and len(g.free_symbols) == 1:
        v = next(iter(g.free_symbols))
    else:
        v = g
    if value is None or not isinstance(v, sympy.Symbol):
        return None
    if v not in value.free_symbols:
        said_of = _SAID_OF.search(text[: match.start()])
        if kind == "proportional" and said_of and _independent_of(members[-1], v.name, notation):
            return _finding(
                line,
                match,
                Status.MISMATCHED,
                f"of F = {members[-1].strip()}, ${variable.strip()}$ {word}: F does not involve "
                f"{v.name}, nor do the definitions it names, so F at 2{v.name} is F",
                INDEPENDENT,
            )
        return None
    counts, counted = summation_limits(members)
    integer = v.name in counts or ranges.get(v.name, Range()).integer
    step = sympy.Symbol("h", positive=True, integer=integer)
    later = value.xreplace({v: v + step})
    if kind == "proportional":
        assert g is not None
        doubled = {v: 2 * v}
        left, right = value.xreplace(doubled) * g, value * g.xreplace(doubled)
        rule, op = INDEPENDENT, "="
        said = (
            f"${variable.strip()}$ {word}: F at 2{v.name} over F at {v.name} is that ratio of {g}"
        )
    elif kind == "independent":
        rule, op, left, right = INDEPENDENT, "=", later, value
        said = f"${match.group('v')}$ によらない: F at {v.name} + h equals F"
    else:
        # 非減少 (non-decreasing) is increasing, not strictly; 非増加 decreasing
        non = kind == "monotone" and bool(match.group("non"))
        increasing = (match.group("way") == "増加") != non
        op = (
            (">" if increasing else "<")
            if match.group("strict") and not non
            else (">=" if increasing else "<=")
        )
        rule, left, right = MONOTONE, later, value
        way = ("非" if non else "") + match.group("way")
        said = f"{way}: F at {v.name} + h {op} F at {v.name}"
    bounds = {**counted, **ranges}
    judged = judge(op, left, right, counts | {step.name}, bounds)
    if judged.outcome not in ("fails", "holds"):
        return None
    # 「ステップの数 $2(p-1)$ は $p$ に比例」: as p grows, as such words mean
    failed = kind == "proportional" and judged.outcome == "fails"
    loosely = _ratio_for_large(value, g, v) if failed else None
    if loosely is not None:
        return _finding(
            line,
            match,
            Status.CONFIRMED,
            f"of F = {members[-1].strip()}, {said} for large {v.name}: F over {g} tends to "
            f"{loosely} (not exactly: {judged.detail()})",
            rule,
        )
    detail = f"of F = {members[-1].strip()}, {said}: {judged.detail()}"
    return _finding(line, match, _status(judged.outcome), detail, rule)


def _status(outcome: str) -> Status:
    """A judgement's outcome, fails or holds, as a finding's status."""
    return Status.MISMATCHED if outcome == "fails" else Status.CONFIRMED


def _finding(line: int, match: re.Match[str], status: Status, detail: str, rule: Rule) -> Finding:
    """The finding of a property the words at `match` state."""
    return Finding(Section.PROSE, line, match.group(0), status, detail, code=rule.code)


def _parity(line: int, match: re.Match[str]) -> Finding | None:
    """The parity the words give a function (_of_one_name), judged at points; None for a
    name alone (「$f$ も偶関数」, whose formula the sentence does not write) or a function
    the open notation does not know."""
    written = match.group("f").strip()
    function = _of_one_name(written)
    if function is None:
        return None
    value, x = function
    even = match.group("way") == "偶"
    mirrored, expected = value.xreplace({x: -x}), value if even else -value
    how = "equals" if even else "is minus"
    said = f"of F = {written}, {match.group('way')}関数: F at -{x} {how} F at {x}"
    if sympy.expand(mirrored - expected) == 0:
        return _finding(line, match, Status.CONFIRMED, f"{said}, an identity", PARITY)
    judged = judge("=", mirrored, expected)
    if judged.outcome not in ("fails", "holds"):
        return None
    return _finding(line, match, _status(judged.outcome), f"{said}: {judged.detail()}", PARITY)


def _of_one_name(written: str) -> tuple[sympy.Expr, sympy.Symbol] | None:
    """A function the words name as a value and its variable: a function the notation
    knows applied to x (`\\cos`), `v \\mapsto F` (its other names positive numbers), or a
    formula of one name (the last member of a definition's equality); None for a name alone
    (whose formula the sentence does not write) or anything else."""
    members, relations = split_relations(written)
    if relations and set(relations) <= {"=", ":="}:  # 「$f(x) = x^{-1/2}$ は」: its last member
        written = members[-1].strip()
    variable, arrow, formula = written.partition(r"\mapsto")
    known = written.strip().lstrip("\\") in FUNCTIONS
    value = open_value(with_calls(f"{written} x" if known else formula if arrow else written))
    if value is None or isinstance(value, sympy.Symbol):
        return None
    if arrow:  # 「$x \\mapsto x/(n + x)$」: of x, the other names positive numbers
        named = open_value(with_calls(variable.strip()))
        return (value, named) if named in value.free_symbols else None
    return (value, next(iter(value.free_symbols))) if len(value.free_symbols) == 1 else None


def _interval(written: str, x: sympy.Symbol) -> tuple[sympy.Expr, sympy.Expr] | None:
    """The ends of `[a, b]`, `(a, \\infty)`, or of `x \\ge a`, `x > a` (numbers, ±∞)."""
    bracketed = _BRACKETED_INTERVAL.fullmatch(written)
    if bracketed is not None:
        ends = [open_value(with_calls(bracketed.group(k).strip())) for k in ("a", "b")]
    else:
        members, relations = split_relations(written)
        if len(relations) != 1 or relations[0] not in (">", r"\ge", r"\geq"):
            return None
        if open_value(with_calls(members[0].strip())) != x:
            return None
        ends = [open_value(with_calls(members[1].strip())), sympy.oo]
    low, high = ends
    if low is None or high is None or low.free_symbols or high.free_symbols:
        return None
    return (low, high) if bool(low < high) else None


def _on_interval(line: int, match: re.Match[str]) -> Finding | None:
    """F at two points x_1 < x_2 of the interval the words give, drawn as x_1 = a + (b - a)u,
    x_2 = x_1 + (b - x_1)w for u, w in (0, 1) (past an end at infinity, a + u and x_1 + w)."""
    function = _of_one_name(match.group("f").strip())
    if function is None:
        return None
    value, x = function
    interval = _interval(match.group("i").strip(), x)
    if interval is None:
        return None
    low, high = interval
    u, w = sympy.symbols("u w", positive=True)
    if low.is_finite and high.is_finite:
        first = low + (high - low) * u
        second, bounded = first + (high - first) * w, Range(Fraction(0), Fraction(1))
    elif low.is_finite:
        first, second, bounded = low + u, low + u + w, Range(Fraction(0))
    elif high.is_finite:
        second, first, bounded = high - u, high - u - w, Range(Fraction(0))
    else:
        return None
    non = bool(match.group("non"))
    increasing = (match.group("way") == "増加") != non
    op = (
        (">" if increasing else "<")
        if match.group("strict") and not non
        else (">=" if increasing else "<=")
    )
    later, earlier = value.xreplace({x: second}), value.xreplace({x: first})
    judged = judge(op, later, earlier, ranges={"u": bounded, "w": bounded})
    if judged.outcome not in ("fails", "holds"):
        return None
    way = ("非" if non else "") + match.group("way")
    if judged.outcome == "holds":
        said = f"F at the later of two points {op} F at the earlier: {judged.detail()}"
    else:
        assert judged.witness is not None
        at = {sympy.Symbol(n, positive=True): sympy.Rational(v) for n, v in judged.witness.values}
        x1, x2 = (sympy.N(p.xreplace(at), 7) for p in (first, second))
        others = "".join(f", {n} = {v}" for n, v in judged.witness.values if n not in "uw")
        said = (
            f"at {x} = {x1}{others}: {sympy.N(earlier.xreplace(at), 7)}, at {x} = {x2}: "
            f"{sympy.N(later.xreplace(at), 7)} (evaluated at 40 digits)"
        )
    of = f"of F = {match.group('f').strip()}, on ${match.group('i').strip()}$ {way}"
    return _finding(line, match, _status(judged.outcome), f"{of}: {said}", MONOTONE)


def _said_of(before: str, variable: str) -> tuple[str, list[str]]:
    """The sentence the words are in, up to them, and its formulas but the words' own;
    when it writes none but its subject points back (「。これは $p$ について単調増加」
    「。この割合は」), the sentence before it on the line, whose last formula the words are
    of."""
    sentences = before.split("。")
    own = _own_names(variable)

    def written(sentence: str) -> list[str]:
        return [f for f in _FORMULA.findall(sentence) if f.strip() not in own]

    if not written(sentences[-1]) and len(sentences) > 1 and _DEMONSTRATIVE.match(sentences[-1]):
        return sentences[-2], written(sentences[-2])
    return sentences[-1], written(sentences[-1])


def _ratio_for_large(value: sympy.Expr, g: sympy.Expr | None, v: sympy.Symbol) -> sympy.Expr | None:
    """What F over g tends to as v grows, when that is something other than 0 free of v
    (2 for F = 2(p - 1) and g = p): F is then proportional to g in the sense counts and
    costs use the word, not exactly; None otherwise."""
    if g is None:
        return None
    try:
        limit = sympy.limit(value / g, v, sympy.oo)
    except (NotImplementedError, ValueError, TypeError, sympy.PoleError):
        return None
    found = bool(limit.is_finite) and limit.is_zero is False and v not in limit.free_symbols
    return limit if found else None


def _independent_of(member: str, name: str, notation: Notation) -> bool:
    """Whether the formula is free of `name` by what the chapter says: each of its names a
    size, a constant, a function or defined, and none of the names its definitions reach
    is `name` or has it as its base (a name only declared might stand for anything)."""
    try:
        tree = parse(with_calls(member))
    except TexError:
        return False
    reached = reached_names(tree, notation)
    if name in reached or name in {n.split("_")[0] for n in reached}:
        return False
    used = set(tree_names(tree))
    if not used:  # a number: the words are of something else
        return False
    bases = {n.split("_")[0] for n in used if "_" in n}  # d of d_v: a part of d_v's name
    return all(
        n in notation.sizes
        or n in notation.definitions
        or n.split("_")[0] in notation.definitions  # R_{-k} of a defined R_k
        or n in FUNCTIONS
        or n in CONSTANTS
        or n in bases
        for n in used
    )


def _own_names(variable: str) -> set[str]:
    """The formula the words name and, for a formula of one name (`1/r`), that name: a
    formula that is only it is where the words are, not what they are said of."""
    value = open_value(with_calls(variable.strip()))
    names = {variable.strip()}
    if value is not None and len(value.free_symbols) == 1:
        names.add(str(next(iter(value.free_symbols))))
    return names

"""A formula's place in its sentence: a hypothesis (「$z_i < z_j$ ならば」), the conclusion
drawn from one (「$i \\ne j$ のとき $E[\\cdots] = 0$」), or a statement on its own.

Deciding a formula alone would drop its condition; a condition on indices only
(i ≠ j, j ≤ i) is carried into the decision, any other makes the formula
conditional, which the audit leaves to the check that binds it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right

from proofs.reader import Document
from proofs.reader.math import INLINE_MATH, split_relations
from proofs.tex.tokens import printed_numbers
from proofs.tex.tree import Node, TexError, parse

# A formula followed by one of these is an equation whose solution is sought: 「$x\\tanh(x/2)
# = 2$ の正の解」 claims nothing, at any value of x.
SOLVED = ("の解", "の正の解", "の負の解", "の根")
# The last of formulas listed to be compared: 「$k = 1/2$ と $k = 2$ とで」「…とを比べると」
# 「…との差」 (each a case; the list's other items are read by _LISTED).
COMPARED = ("とで", "とを", "との")
# A formula followed by one of these is a hypothesis of what follows, not a claim.
CONDITIONS = (
    "ならば",
    "なら",
    "のとき",
    "とき",
    "とし",
    "とする",
    "について",
    "に対し",
    "を満たす",
    "では",
    "かつ",
    "の成分",
    "で、",
    "（",
    "の場合",
    "となる",
    "と同値",
    "の行",  # 「$T = \\infty$ の行は」: a row of a table it names
    "と取",  # 「$c = \\alpha/\\sqrt{r}$ と取れば」: a choice, not a claim
    "ととれ",
    "ととる",
    "と選",
    *COMPARED,
    *SOLVED,
)
# A formula followed by one of these sets its name for the rest of the element.
SETTING = ("とする", "とし", "と置", "とお", "と書")
# A formula after a hypothesis and one of these is its conclusion.
CONCLUDING = ("ならば", "なら", "のとき", "とき", "とすると", "とすれば")
# A formula first in an item of a list is what the item states: 「2. $A = B$ で、」 joins it
# to what follows, where 「$d = 8$ で、」 sets d for it.
_ITEM_START = re.compile(r"\s*(?:\d+\.|[•・])\s*")
# Words that restrict what follows them to a part of its domain, with no formula: 「その
# 区間では $q(x) < 0$」 holds on an interval the text describes, not for every x.
RESTRICTING = ("区間では", "区間で", "範囲では", "範囲で")
# a number other than 0, 1, 2 in a relation of symbols: a setting of an illustration or a
# value the text sets elsewhere (d = 512, 4d^2 + 4d = 288), not a general claim
LARGE_LITERAL = re.compile(r"(?<![\\\w.])(?:[3-9]|\d{2,})(?:\.\d+)?(?![\w.])")
_INDEX_RELATION = re.compile(r"^\s*[a-z]\s*(\\ne|\\neq|\\le|\\leq|<|>|\\ge|\\geq|=)\s*[a-z]\s*$")


# the item of a list of settings: 「、$\pi(2) = 1$」, 「$k = 1$ または $t_0 = 0$ のとき」
_LISTED = re.compile(r"\s*(?:、|または|か|や|と)\s*\$[^$]+\$")
# 「$A$ なら」, and 「$A$（$\mu > 0$）なら」: a remark in brackets between it and the word
_REMARK = r"(?:（[^（）$]*(?:\$[^$]*\$[^（）$]*)*）)?"
_HYPOTHESIS = re.compile(r"\$([^$]+)\$\s*" + _REMARK + r"\s*(" + "|".join(CONCLUDING) + ")")
_RESTRICTION = re.compile("|".join(RESTRICTING))
_EQUIVALENT = re.compile(r"\$\s*と同値")  # the other side of an equivalence of conditions
# a formula followed by 「に」 is what something is done to (「$A = B$ に定数を足したもの」),
# unless it becomes, equals or nears what follows (「になる」「に等しい」「に近い」「に一致」)
_OBJECT = re.compile(r"に(?!な|等し|近|一致|よ|対|つ|関|従|比例|おい|お)")


def is_hypothesis(document: Document, line: int, statement: str) -> bool:
    """Whether the statement (of an inline formula, where it first stands on the line) is
    a hypothesis of its sentence."""
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    text = document.line(line)
    sentence = _sentence(text)
    if sentence.is_hypothesis_after(place.closing, ("は",)):
        # 「$\mathrm{SiLU}'(x) = 0$ は $1 + x + e^{x} = 0$ と同値」: an equation to solve
        end = text.find("。", place.closing)
        return _EQUIVALENT.search(text[place.closing : end if end >= 0 else None]) is not None
    if _OBJECT.match(text, sentence._spaces(place.closing + 1)):
        return True  # 「$A = B$ に定数を足したもの」: what is done to it, not asserted
    if not sentence.is_hypothesis_after(place.closing):
        return False
    opening = text.rfind("$", 0, place.column)
    if _ITEM_START.fullmatch(text[: max(opening, 0)]) and (
        sentence.is_hypothesis_after(place.closing, ("で、",))
    ):
        return False
    if text[: max(opening, 0)].rstrip().endswith(CONCLUDING) and text.startswith(
        "、", sentence._spaces(place.closing + 1)
    ):
        return False  # 「$x > 0$ のとき $A$、$x < 0$ のとき $B$」: A concludes the first case
    # 「時刻 t での係数の和は $\sum_j \lambda^{t-j} = …$ で、」: the predicate of the
    # sentence's subject, a claim joined to what follows, not a hypothesis
    before = text[max(0, opening - 3) : max(opening, 0)].rstrip()
    predicate = before.endswith("は") and not before.endswith("では")
    return not (predicate and sentence.is_hypothesis_after(place.closing, ("で、",)))


_ASSUMED = re.compile(r"[とを]仮定")  # 「… で選ばれると仮定します」「… を仮定する」


def is_assumed(document: Document, line: int, statement: str) -> bool:
    """Whether the statement stands in what its sentence assumes: before 「と仮定」 or
    「を仮定」 in it (「各トークンが確率 $C/T = 1/8$ で選ばれると仮定します」), a value
    the text supposes, not one it claims."""
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    text = document.line(line)
    end = text.find("。", place.closing)
    return _ASSUMED.search(text, place.closing, end if end >= 0 else len(text)) is not None


def is_label(document: Document, line: int, statement: str) -> bool:
    """Whether the statement names what follows it (「$n = 8192$ の比」「$T = \\infty$ の行」):
    a relation before 「の」 (not 「ので」) is asserted by nothing."""
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    after = document.line(line)[place.closing + 1 :].lstrip()
    return after.startswith("の") and not after.startswith("ので")


def is_conjoined(document: Document, line: int, statement: str) -> bool:
    """Whether the statement is followed by 「で、」, which joins it to what follows (「$A =
    B = C$ で、…」: a step of an argument) as often as it makes it a hypothesis."""
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    return _sentence(document.line(line)).is_hypothesis_after(place.closing, ("で、",))


# A formula followed by one of these is a case of its sentence (「$T = 1$ では」), not a
# value the rest of its element works with.
CASES = (*CONCLUDING, "では", "の場合", "に対し", "について", *COMPARED)


_TITLE_SETTING = re.compile(
    r"(?<![\w.\\])(?:[A-Za-z]|\\[A-Za-z]+ ?)(?:_\{?\w+\}?)?\s*=\s*"
    r"(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*\\times\s*10\^\{?-?\d+\}?)?(?![\w.]|,\d)"
)
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def title_settings(title: str) -> list[str]:
    """The settings an element's title states, as statements (「T = 20、E = 4、k = 2 で
    容量係数を変える」: T = 20, E = 4, k = 2; 「T = 10,000、W = 500」: T = 10000, W = 500;
    a title is plain text, 「β₁ = 0.9、β₂ = 0.999 での値」: \\beta_{1} = 0.9, and so on; a
    power of ten is the number's, 「$C = 5.88 \\times 10^{23}$ での値」)."""
    tex = _as_tex(printed_numbers(title)).replace("{,}", ",")  # 「$L = 1\\,024$」 as 1,024
    return [m.group().replace(",", "") for m in _TITLE_SETTING.finditer(tex)]


def _as_tex(text: str) -> str:
    """Plain text's Greek letters as TeX commands and its subscript digits as subscripts."""
    out = re.sub(r"[\u0391-\u03a9\u03b1-\u03c9](?![A-Za-z0-9])", _greek, text)  # not βx
    return re.sub(r"[₀-₉]+", lambda m: "_{" + m.group().translate(_SUBSCRIPTS) + "}", out)


def _greek(letter: re.Match[str]) -> str:
    """\\beta for β, \\Delta for Δ, \\varepsilon for ε (the form chapters write)."""
    name = unicodedata.name(letter.group(), "").split()
    if len(name) < 4:
        return letter.group()
    word = name[-1].lower()
    word = {"epsilon": "varepsilon", "lamda": "lambda"}.get(word, word)
    return "\\" + (word.capitalize() if name[1] == "CAPITAL" else word)


def is_case(document: Document, line: int, statement: str) -> bool:
    """Whether the statement is a case of its sentence (「$T = 0.5$ では …」)."""
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    return _sentence(document.line(line)).is_hypothesis_after(place.closing, CASES)


def percent_after(document: Document, line: int, statement: str) -> bool:
    """Whether a percent sign follows the inline formula the statement ends (「$(d+1)/(2dB_c)
    \\approx 0.79$ %」): its last number is a percentage."""
    place = document.place(line, statement.strip())
    if place is None or place.closing is None:
        return False
    text = document.line(line)
    if not printed_numbers(text[: place.closing]).endswith(statement.strip()):
        return False  # a statement before a comma of its formula: the sign is another's
    return text[place.closing + 1 :].lstrip().startswith(("%", "％"))


def is_solved(document: Document, line: int, statement: str) -> bool:
    """Whether the statement is an equation whose solution is sought (「… の正の解」)."""
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    return _sentence(document.line(line)).is_hypothesis_after(place.closing, SOLVED)


def is_setting(document: Document, line: int, statement: str) -> bool:
    """Whether the statement is a setting for what follows (「$d_k = d/h$ とする」), not a
    condition of one sentence (「$t = W$ では」)."""
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    return _sentence(document.line(line)).is_hypothesis_after(place.closing, SETTING)


INEQUALITIES = frozenset((r"\le", r"\leq", r"\ge", r"\geq", "<", ">"))
PREMISED = ("より", "から")  # 「$a \\ge b$ より」: the reason of what follows


def is_premise(document: Document, line: int, statement: str) -> bool:
    """Whether the statement is an inequality its sentence reasons from (「$kc(\\varepsilon)/2
    \\ge 2\\ln n$ より $e^{-kc/2} \\le n^{-2}$」): a bound the element assumes or proved
    before, which may hold only under its hypotheses, not asserted there."""
    if not set(split_relations(statement)[1]) & INEQUALITIES:
        return False
    place = document.place(line, statement)
    if place is None or place.closing is None:
        return False
    return _sentence(document.line(line)).is_hypothesis_after(place.closing, PREMISED)


# a formula the rest of its sentence assumes: 「（$p_i = 1/|V|$）では」「$t = W$ では」, looked
# for in the CASE_REACH characters before a statement (so that a line of thousands of
# formulas costs time linear in its length)
CASE_REACH = 400
_CASE = re.compile(r"\$([^$]+)\$）?\s*(?:では|ならば|なら|のとき|とき|とすると)")
# the settings listed before a case, each a case too: 「$\eta = 6 \times 10^{-4}$、$\lambda =
# 0.1$ なら」 (the 、 joins what the なら after the last assumes); a name set to a number
# only, not a conclusion of the case before (「$x > 0$ のとき $… < xe^{-x}$、$x < 0$ のとき」)
_NUMBER_SET = r"(?:-?[\d.]+|\{,\}|\\times|10\^\{?-?\d+\}?|\s)+"  # 1{,}024, 6 \times 10^{-4}
_SET_TO_A_NUMBER = rf"\$\s*\\?[A-Za-z]+(?:_\{{?[A-Za-z0-9]+\}}?)?\s*=\s*{_NUMBER_SET}\$"
_LISTED_CASES = re.compile(rf"((?:{_SET_TO_A_NUMBER}\s*[、，,]\s*)+)$")
_REMARKED = re.compile(r"\$([^$]+)\$\s*（\s*$")  # the formula a bracketed case remarks on


def cases_before(document: Document, line: int, statement: str) -> list[str]:
    """The formulas of the statement's sentence, before it, that the rest of the sentence
    assumes (a special case: 「…（$p_i = 1/|V|$）では $\\mathrm{PPL} = |V|$」)."""
    place = document.place(line, statement)
    if place is None:
        return []
    text = document.line(line)[max(0, place.column - CASE_REACH) : place.column]
    sentence = text[text.rfind("。") + 1 :]
    cases = []
    for case in _CASE.finditer(sentence):
        before = sentence[: case.start()]
        listed = _LISTED_CASES.search(before)
        if listed is not None:
            cases += INLINE_MATH.findall(listed.group(1))
        remarked = _REMARKED.search(before)
        if remarked is not None and sentence.startswith("）", case.end(1) + 1):
            cases.append(remarked.group(1))  # 「$A$（$\mu > 0$）なら」: A the case, μ > 0 too
        cases.append(case.group(1))
    return cases


# a formula its sentence reasons from: 「$M/(4d) \\ge 2$ なので」「$n_i \\le T$ より」
_REASONS = ("なので", "ので", "であるから", "だから", *PREMISED)
_PREMISE = re.compile(rf"\$[^$]+\$\s*(?:{'|'.join(_REASONS)})")


def premised_before(document: Document, line: int, statement: str) -> bool:
    """Whether a formula of the statement's sentence, before it, is a reason the sentence
    gives (「また $M/(4d) \\ge 2$ なので $B_r > M/(4d) - 1 \\ge M/(8d)$」): what follows may
    hold only where that premise does."""
    place = document.place(line, statement)
    if place is None:
        return False
    text = document.line(line)[max(0, place.column - CASE_REACH) : place.column]
    return _PREMISE.search(text[text.rfind("。") + 1 :]) is not None


# where a name goes, stated before what tends with it: 「$c \to \infty$ で」
_REGIME = re.compile(r"\$\s*\\?([A-Za-z]+)\s*\\to\s*([^$]+?)\s*\$")


def regime_before(document: Document, line: int, statement: str) -> tuple[str, str] | None:
    """(name, where it goes) of the last 「$x \\to a$」 of the statement's sentence before
    it, within CASE_REACH characters; None when there is none."""
    place = document.place(line, statement)
    if place is None:
        return None
    text = document.line(line)[max(0, place.column - CASE_REACH) : place.column]
    found = list(_REGIME.finditer(text[text.rfind("。") + 1 :]))
    return (found[-1].group(1), found[-1].group(2)) if found else None


def condition_of(document: Document, line: int, statement: str) -> tuple[bool, Node | None]:
    """(conditional, index condition): whether an earlier formula of the paragraph is a
    hypothesis the statement follows from (the paragraph's sentences continue an
    argument: 「… のとき、…。よって …」), and that hypothesis when it only relates indices
    (then the statement can be decided under it)."""
    place = document.place(line, statement)
    if place is None:
        return False, None
    condition = _sentence(document.line(line)).hypothesis_before(place.column)
    if condition is None:
        return False, None
    if not _INDEX_RELATION.match(condition):
        return True, None
    try:
        return True, parse(condition)
    except TexError:
        return True, None


# a condition that only declares where a name lives: 「$x \\in \\mathbb{R}^{d}$ のとき」
_DOMAIN = re.compile(r"^[^<>=]*\\in\s*\\mathbb\{[RNZC]\}")


def condition_in_sentence(document: Document, line: int, statement: str) -> str | None:
    """The condition 「$…$ なら」「$…$ のとき」 that the statement's own sentence puts before
    it (「$x \\in \\mathbb{F}$ なら $\\mathrm{fl}(x) = x$」), not one that only declares the
    space of a name; None when there is none."""
    place = document.place(line, statement)
    if place is None:
        return None
    text = document.line(line)
    sentence = _sentence(text)
    k = bisect_right(sentence.hypothesis_ends, place.column)
    if not k or sentence.hypothesis_ends[k - 1] <= text.rfind("。", 0, place.column):
        return None
    condition = sentence.hypotheses[k - 1]
    return None if _DOMAIN.match(condition) else condition


@functools.lru_cache(maxsize=64)
def _sentence(text: str) -> _Sentence:
    return _Sentence(text)


class _Sentence:
    """A line read once for the questions above, so that asking them of every formula of
    a line with thousands costs time linear in the line: the hypotheses 「$…$ のとき」 with
    where they end, the closing brackets, and what was found after each closing `$`."""

    def __init__(self, text: str) -> None:
        self.text = text
        found = sorted(
            [(m.end(), m.group(1)) for m in _HYPOTHESIS.finditer(text)]
            + [(m.end(), m.group(0)) for m in _RESTRICTION.finditer(text)]
        )
        self.hypothesis_ends = [end for end, _ in found]
        self.hypotheses = [said for _, said in found]
        self.brackets = [m.start() for m in re.finditer("）", text)]
        self._list_ends: dict[int, int] = {}  # where a list of settings starting there ends
        self._after_closing: dict[tuple[int, tuple[str, ...]], bool] = {}  # by closing `$`

    def hypothesis_before(self, column: int) -> str | None:
        """The last 「$…$ のとき」 of the line ending at or before the column (its formula),
        or the words of a restriction 「その区間では」 when that comes last."""
        k = bisect_right(self.hypothesis_ends, column)
        return self.hypotheses[k - 1] if k else None

    def is_hypothesis_after(self, closing: int, words: tuple[str, ...] = CONDITIONS) -> bool:
        """Whether one of `words` follows the `$` at `closing`, after a list of settings
        「、$\\pi(2) = 1$、$\\pi(3) = 3$」 and a remark in brackets （…）."""
        if (closing, words) not in self._after_closing:
            text = self.text
            at = self._spaces(self._list_end(closing + 1))
            if text.startswith("（", at):
                k = bisect_right(self.brackets, at)
                at = self._spaces(self.brackets[k] + 1) if k < len(self.brackets) else at
            self._after_closing[closing, words] = text.startswith(words, at)
        return self._after_closing[closing, words]

    def _list_end(self, start: int) -> int:
        """Where the list of settings 「、$…$、$…$」 from `start` ends; each item is read
        once, however many formulas of the list ask."""
        items, at = [], start
        while at not in self._list_ends:
            item = _LISTED.match(self.text, at)
            if item is None:
                self._list_ends[at] = at
                break
            items.append(at)
            at = item.end()
        end = self._list_ends[at]
        self._list_ends.update(dict.fromkeys(items, end))
        return end

    def _spaces(self, at: int) -> int:
        """The first index from `at` that is not a space."""
        while at < len(self.text) and self.text[at].isspace():
            at += 1
        return at

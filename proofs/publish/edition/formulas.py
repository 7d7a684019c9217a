"""A formula of a chapter as the print edition sets it: only what the chapters' math is made
of reaches the LaTeX.

The formula is read token by token against allow-lists, never against a list of what to
refuse: the commands (SYMBOLS take no argument, COMMANDS the arguments they name, a
DELIMITER follows \\left, \\right, \\middle and \\big), the ENVIRONMENTS and the characters
(ASCII ones in MATH_CHARACTERS, and printable non-ASCII letters, marks, numbers, punctuation
and symbols) that the chapters' formulas use, with the ordinary ones of a textbook beside
them. Its structure is read as TeX will read it, so that a formula that passes also
compiles and keeps to itself: braces, \\left and \\right, environments pair up; every
argument and script is there; no base has two superscripts or two subscripts; & and \\\\
stand only in an alignment, at most as many columns as it has; nothing inside an optional
argument [..] could end it early; groups nest at most MAX_DEPTH deep.

What passes is written as the chapter writes it, but for what TeX would read otherwise: a
superscript ^ becomes \\sp, so that no ^^ of a formula can ever be read as TeX's caret
notation for a character; a bare % or # is escaped, and a & outside any alignment. In a
heading (`moving`), which LaTeX also writes to the .aux and .toc files and reads back,
every command is written \\protect-ed and every one-token argument braced. Anything else
raises Unsettable saying why, and the caller prints the formula as text.

>>> formula_tex(r"\\sigma^{U}(\\boldsymbol{z})_i")
'\\\\sigma\\\\sp {U}(\\\\boldsymbol{z})_i'
>>> formula_tex(r"\\directlua{os.exit()}")
Traceback (most recent call last):
...
proofs.publish.edition.formulas.Unsettable: \\directlua is not a command of the edition's math
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_DEPTH = 30  # groups nested in one formula (TeX allows 255 in all; the chapters use 8)

# Commands that take no argument: letters, operators, relations, arrows, dots, functions,
# spacing and styles. The chapters use: Phi approx beta cdot cdots circ cos delta ell
# emptyset eta exp gamma ge in inf infty int langle ldots le leftarrow lim log mapsto max
# min mu nabla ne notin nu odot partial perp phi pi pm prod qquad quad rangle sigma sin
# subset sum tau theta times to varepsilon varphi.
_GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma "
    "Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega"
)
_LETTERLIKE = (
    "ell hbar imath jmath aleph partial nabla infty emptyset varnothing forall exists nexists "
    "neg lnot top bot prime Re Im wp angle triangle square blacksquare checkmark"
)
_OPERATORS = (
    "pm mp times div cdot ast star circ bullet oplus ominus otimes oslash odot cap cup sqcap "
    "sqcup vee wedge setminus dagger ddagger amalg uplus wr"
)
_RELATIONS = (
    "le leq ge geq ne neq equiv sim simeq approx cong propto ll gg subset supset subseteq "
    "supseteq subsetneq supsetneq in ni notin mid nmid parallel perp prec succ preceq "
    "succeq asymp doteq models vdash dashv leqslant geqslant lesssim gtrsim therefore "
    "because coloneqq"
)
_ARROWS = (
    "to gets leftarrow rightarrow Leftarrow Rightarrow leftrightarrow Leftrightarrow mapsto "
    "longmapsto longrightarrow longleftarrow Longrightarrow Longleftarrow longleftrightarrow "
    "Longleftrightarrow uparrow downarrow Uparrow Downarrow updownarrow nearrow searrow "
    "swarrow nwarrow hookrightarrow hookleftarrow implies iff"
)
_DOTS = "ldots cdots vdots ddots dots"
_BIG_OPERATORS = (
    "sum prod coprod int iint iiint oint bigcup bigcap bigoplus bigotimes bigodot bigvee "
    "bigwedge bigsqcup biguplus"
)
_FUNCTIONS = (
    "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh log ln lg exp lim limsup "
    "liminf sup inf max min arg det dim ker deg gcd Pr hom bmod"
)
_SPACING = "quad qquad displaystyle textstyle scriptstyle scriptscriptstyle"
_NAMED_DELIMITERS = (
    "langle rangle lfloor rfloor lceil rceil vert Vert lvert rvert lVert rVert lbrace "
    "rbrace backslash uparrow downarrow updownarrow Uparrow Downarrow Updownarrow"
)
SYMBOLS = frozenset(
    " ".join(
        [_GREEK, _LETTERLIKE, _OPERATORS, _RELATIONS, _ARROWS, _DOTS, _BIG_OPERATORS]
        + [_FUNCTIONS, _SPACING, _NAMED_DELIMITERS]
    ).split()
)
# the operators \limits and \nolimits may follow
LIMITED = frozenset((_BIG_OPERATORS + " " + _FUNCTIONS).split()) - {"bmod"}
# the symbols that are one math character (\mathchar or \delimiter, as \meaning shows in
# the edition's preamble), which TeX takes alone as a script (x^\top) or an accent's
# argument; the others are macros of several tokens (\sum is \DOTSB\sum@\slimits@, \ne
# is \not=, \sin is \qopname…) and need braces there
ONE_CHARACTER = SYMBOLS - frozenset(
    (
        f"{_DOTS} {_BIG_OPERATORS} {_FUNCTIONS} {_SPACING} checkmark cong doteq ne neq notin "
        "models coloneqq mapsto longmapsto longrightarrow longleftarrow Longrightarrow "
        "Longleftarrow longleftrightarrow Longleftrightarrow hookrightarrow hookleftarrow "
        "implies iff"
    ).split()
)

# Commands with arguments, by what they take: m a formula, t text (\text{…}), o an optional
# formula in [..]. The chapters use: boldsymbol dfrac frac hat bar mathbb mathcal mathrm
# mathsf sqrt text textbf tfrac underbrace.
COMMANDS = {
    **dict.fromkeys(["frac", "dfrac", "tfrac", "binom", "dbinom", "tbinom"], "mm"),
    **dict.fromkeys(["overset", "underset", "stackrel"], "mm"),
    "sqrt": "om",
    **dict.fromkeys(["xrightarrow", "xleftarrow"], "om"),
    **dict.fromkeys(
        "mathrm mathbf mathit mathsf mathtt mathcal mathbb mathfrak boldsymbol bm "
        "operatorname".split(),
        "m",
    ),
    **dict.fromkeys(
        "hat bar tilde vec dot ddot check breve acute grave mathring widehat widetilde "
        "overline underline overbrace underbrace boxed phantom hphantom vphantom pmod".split(),
        "m",
    ),
    **dict.fromkeys("text textrm textbf textit textsf texttt".split(), "t"),
}
# in \text{…}: these, and the characters of text but the ones TeX treats specially
TEXT_COMMANDS = {
    "quad": "",
    "qquad": "",
    "ldots": "",
    **dict.fromkeys("textrm textbf textit textsf texttt emph".split(), "t"),
}
SIZES = frozenset(
    f"{size}{side}" for size in ("big", "Big", "bigg", "Bigg") for side in ("", "l", "r", "m")
)
DELIMITERS = frozenset("()[]<>/|.")
NAMED_DELIMITERS = frozenset(_NAMED_DELIMITERS.split())
# environment -> its most columns (None: any number); array's come from its column spec
ENVIRONMENTS: dict[str, int | None] = {
    **dict.fromkeys(["matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix"], 10),
    "smallmatrix": None,
    "cases": 2,
    "dcases": 2,
    "rcases": 2,
    "aligned": None,
    "gathered": 1,
    "array": None,
}
_ARRAY_SPEC = re.compile(r"[lcr| ]*[lcr][lcr| ]*")
MATH_CHARACTERS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-*/=<>()[]|.,;:!?'"
)
# control symbols: spacing, escaped specials, the norm bars; in text, spacing and specials
MATH_SYMBOLS = frozenset([",", ";", ":", "!", " ", "{", "}", "|", "%", "#", "&", "_", "$"])
TEXT_SYMBOLS = frozenset([",", " ", "{", "}", "%", "#", "&", "_", "$"])
_ESCAPED = {"%": r"\%", "#": r"\#"}
_PRINTABLE = ("L", "M", "N", "P", "S")  # Unicode categories a formula may hold beyond ASCII
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\\|[ \t\n]+|.", re.S)


class Unsettable(ValueError):
    """A formula the edition does not set as TeX, and why."""


def formula_tex(tex: str, moving: bool = False) -> str:
    """The LaTeX of a formula (without its $), or Unsettable saying why it has none; with
    `moving`, fit for a heading, which LaTeX writes to its .aux and .toc files."""
    return _Formula(_TOKEN.findall(tex), moving).read()


def printable(ch: str) -> bool:
    """A non-ASCII character TeX sets as a glyph: a letter, mark, number, punctuation or
    symbol (no control, format, private-use, unassigned or separator character)."""
    return unicodedata.category(ch)[0] in _PRINTABLE


@dataclass
class _Context:
    """An open group: a brace, \\left, an environment (its name, its most columns and the
    column reached) or an optional argument [..]."""

    kind: str  # "brace" | "left" | "environment" | "optional"
    name: str = ""
    columns: int | None = None
    column: int = 1


class _Formula:
    """One pass over a formula's tokens, writing its LaTeX to `out`."""

    def __init__(self, tokens: list[str], moving: bool) -> None:
        self.tokens = tokens
        self.at = 0
        self.moving = moving
        self.out: list[str] = []
        self.open: list[_Context] = []
        self.superscript = self.subscript = self.primed = False
        self.operator = False  # the last atom is an operator \limits may follow

    # Reading ---------------------------------------------------------------------------

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def next_significant(self) -> str | None:
        """The next token that is not white space, the white space before it written."""
        while (token := self.peek()) is not None and token[0] in " \t\n":
            self.out.append(_space(token))
            self.at += 1
        return token

    def command(self, name: str) -> str:
        """\\name as written here: \\protect-ed in a heading (a space ends a word's name)."""
        if not self.moving:
            return f"\\{name}"
        return f"\\protect\\{name}" + (" " if name.isalpha() else "")

    def read(self) -> str:
        self.math_list()
        if self.open:
            raise Unsettable(f"{self.opening(self.open[-1])} is not closed")
        return "".join(self.out)

    @staticmethod
    def opening(context: _Context) -> str:
        return {"brace": "{", "left": r"\left", "optional": "["}.get(
            context.kind, f"\\begin{{{context.name}}}"
        )

    def push(self, context: _Context) -> None:
        if len(self.open) >= MAX_DEPTH:
            raise Unsettable(f"groups nested deeper than {MAX_DEPTH}")
        self.open.append(context)

    def directly_in_optional(self) -> bool:
        """Whether a ] here would end an optional argument [..] early: one is open with no
        brace between it and here (TeX reads it up to the first ] outside braces)."""
        for context in reversed(self.open):
            if context.kind in ("brace", "optional"):
                return context.kind == "optional"
        return False

    def new_atom(self, operator: bool = False) -> None:
        self.superscript = self.subscript = self.primed = False
        self.operator = operator

    # A list of atoms ---------------------------------------------------------------------

    def math_list(self) -> None:
        """Atoms up to the end of the formula or of the innermost open group; the scripts
        of the atom before it are as they were after it."""
        before = (self.superscript, self.subscript, self.primed, self.operator)
        self.new_atom()
        self.atoms()
        self.superscript, self.subscript, self.primed, self.operator = before

    def atoms(self) -> None:
        while (token := self.peek()) is not None:
            top = self.open[-1] if self.open else None
            if token[0] in " \t\n":
                self.out.append(_space(token))
                self.at += 1
                self.primed = False
            elif token == "}":
                if top is None or top.kind != "brace":
                    raise Unsettable("} closes no group")
                return
            elif token == "]" and top is not None and top.kind == "optional":
                return
            elif token == r"\end":
                if top is None or top.kind != "environment":
                    raise Unsettable(r"\end closes no environment")
                return
            elif token == r"\right" or token == r"\middle":
                if top is None or top.kind != "left":
                    raise Unsettable(f"{token} without its \\left")
                if token == r"\right":
                    return
                self.at += 1
                self.out.append(self.command("middle"))
                self.delimiter(token)
                self.new_atom()
            elif token in ("^", "_", "'"):
                self.script(token)
            elif token in ("&", r"\\"):
                self.alignment(token, top)
            else:
                self.atom()

    def alignment(self, token: str, top: _Context | None) -> None:
        """& or \\\\: a column or a row of the alignment it stands in, directly; a & outside
        any alignment is the character."""
        self.at += 1
        inside = any(c.kind == "environment" for c in self.open)
        if top is not None and top.kind == "environment":
            if token == "&":
                top.column += 1
                if top.columns is not None and top.column > top.columns:
                    raise Unsettable(f"more than {top.columns} columns in {{{top.name}}}")
                self.out.append("&")
            else:
                top.column = 1
                self.out.append(self.command("\\"))
                if self.next_significant() == "[":  # not \\'s [length]
                    self.out.append("{}")
            self.new_atom()
        elif token == "&" and not inside:
            self.out.append(r"\&")
            self.new_atom()
        elif inside:
            raise Unsettable(f"{token} inside a group of an alignment's cell")
        else:
            raise Unsettable(f"{token} outside the rows of an alignment")

    def script(self, token: str) -> None:
        """A superscript, a subscript or a prime of the last atom."""
        self.at += 1
        if token == "'":
            if self.superscript and not self.primed:
                raise Unsettable("a prime after a superscript (a double superscript)")
            self.out.append("'")
            self.superscript = self.primed = True
            return
        if token == "^":
            if self.peek() == "^":
                raise Unsettable("^^, TeX's caret notation for a character")
            if self.superscript and not self.primed:
                raise Unsettable("a double superscript")
            self.out.append(r"\sp ")
            self.superscript, self.primed = True, False
        else:
            if self.subscript:
                raise Unsettable("a double subscript")
            self.out.append("_")
            self.subscript, self.primed = True, False
        self.argument(f"{token} without its argument")

    # Atoms -----------------------------------------------------------------------------

    def atom(self) -> None:
        token = self.tokens[self.at]
        self.at += 1
        if token == "{":
            self.group()
            self.new_atom()
        elif (
            token.startswith("\\") and len(token) > 1 and token[1].isascii() and token[1].isalpha()
        ):
            self.control_word(token[1:])
        elif token.startswith("\\"):
            symbol = token[1:]
            if symbol not in MATH_SYMBOLS:
                raise Unsettable(f"{token!r} is not a command of the edition's math")
            self.out.append(self.command(symbol) if self.moving else token)
            self.new_atom()
        elif token in _ESCAPED:
            self.out.append(_ESCAPED[token])
            self.new_atom()
        else:
            self.character(token)
            self.out.append(token)
            self.new_atom()

    def character(self, ch: str) -> None:
        """A character of a formula, or Unsettable."""
        if ch in "[]" and self.directly_in_optional():
            raise Unsettable(f"{ch} inside an optional argument [..]")
        if ch in MATH_CHARACTERS or (not ch.isascii() and printable(ch)):
            return
        if ch == "$":
            raise Unsettable("$ inside a formula")
        raise Unsettable(f"the character {_named(ch)} is not one of the edition's math")

    def group(self) -> None:
        """{…}: its atoms, the closing brace."""
        self.push(_Context("brace"))
        self.out.append("{")
        self.math_list()
        if self.peek() != "}":
            raise Unsettable("{ is not closed")
        self.at += 1
        self.open.pop()
        self.out.append("}")

    def control_word(self, name: str) -> None:
        if name in SYMBOLS:
            self.out.append(self.command(name))
            self.separate()
            self.new_atom(operator=name in LIMITED)
        elif name in ("limits", "nolimits"):
            if not self.operator or self.superscript or self.subscript:
                raise Unsettable(f"\\{name} after no operator")
            self.out.append(self.command(name))
            self.separate()
        elif name in COMMANDS:
            self.out.append(self.command(name))
            self.separate()
            for kind in COMMANDS[name]:
                self.parameter(name, kind)
            self.new_atom(operator=name == "operatorname")
        elif name == "left" or name in SIZES:
            self.out.append(self.command(name))
            self.delimiter(f"\\{name}")
            if name == "left":
                self.push(_Context("left"))
                self.math_list()
                if self.peek() != r"\right":
                    raise Unsettable(r"\left without its \right")
                self.at += 1
                self.open.pop()
                self.out.append(self.command("right"))
                self.delimiter(r"\right")
            self.new_atom()
        elif name == "begin":
            self.environment()
            self.new_atom()
        else:
            raise Unsettable(f"\\{name} is not a command of the edition's math")

    def separate(self) -> None:
        """A space after a command followed by a character that is not ASCII: TeX would
        read a letter of it as part of the command's name."""
        token = self.peek()
        if token is not None and not token[0].isascii() and not self.out[-1].endswith(" "):
            self.out.append(" ")

    def parameter(self, name: str, kind: str) -> None:
        """One argument of \\name: m a formula, t text, o an optional formula in [..]."""
        if kind == "o":
            if self.next_significant() != "[":
                return
            if self.directly_in_optional():
                raise Unsettable(f"\\{name}[..] inside an optional argument [..]")
            self.at += 1
            self.out.append("[")
            self.push(_Context("optional"))
            self.math_list()
            if self.peek() != "]":
                raise Unsettable(f"\\{name}[ is not closed")
            self.at += 1
            self.open.pop()
            self.out.append("]")
        elif kind == "m":
            self.argument(f"\\{name} without its argument")
        else:
            self.text_argument(name)

    def argument(self, missing: str) -> None:
        """A script's or a command's argument: a group, a character or a symbol that is
        one math character (braced in a heading)."""
        token = self.next_significant()
        if token == "{":
            self.at += 1
            self.group()
            return
        plain = token is not None and not token.startswith("\\") and token not in "{}^_&'$%#~"
        word = token is not None and token[1:] in ONE_CHARACTER and token.startswith("\\")
        if not (plain or word) or token is None:
            raise Unsettable(missing)
        self.at += 1
        if plain:
            self.character(token)
        shown = self.command(token[1:]) if word else token
        self.out.append(f"{{{shown}}}" if self.moving else shown)
        if word:
            self.separate()

    def delimiter(self, after: str) -> None:
        """The delimiter after \\left, \\right, \\middle or \\big (never \\protect-ed: TeX
        reads it as it comes)."""
        token = self.next_significant()
        self.at += 1
        if token is not None and token in DELIMITERS:
            self.character(token)
            self.out.append(token)
        elif token in (r"\{", r"\}", r"\|"):
            self.out.append(token)
        elif token is not None and token.startswith("\\") and token[1:] in NAMED_DELIMITERS:
            self.out.append(token)
            self.separate()
        else:
            raise Unsettable(f"{after} without its delimiter")

    def environment(self) -> None:
        r"""\begin{name}, its rows, \end{name}."""
        name = self.environment_name(r"\begin")
        if name not in ENVIRONMENTS:
            raise Unsettable(f"\\begin{{{name}}} is not an environment of the edition's math")
        self.out.append(f"{self.command('begin')}{{{name}}}")
        columns = ENVIRONMENTS[name]
        if name == "array":
            spec = self.braced_word(r"\begin{array}", _ARRAY_SPEC)
            self.out.append(f"{{{spec}}}")
            columns = sum(spec.count(c) for c in "lcr")
        self.push(_Context("environment", name, columns))
        if self.next_significant() == "[":  # a row's text, not the environment's [position]
            self.out.append("{}")
        self.math_list()
        if self.peek() != r"\end":
            raise Unsettable(f"\\begin{{{name}}} is not closed")
        self.at += 1
        if self.environment_name(r"\end") != name:
            raise Unsettable(f"\\begin{{{name}}} is closed by another \\end")
        self.open.pop()
        self.out.append(f"{self.command('end')}{{{name}}}")

    def environment_name(self, command: str) -> str:
        return self.braced_word(command, re.compile(r"[A-Za-z]+"))

    def braced_word(self, after: str, shape: re.Pattern[str]) -> str:
        """{word} after a command, its word of the given shape, or Unsettable."""
        if self.next_significant() != "{":
            raise Unsettable(f"{after} without its {{…}}")
        end = self.at + 1
        while end < len(self.tokens) and self.tokens[end] != "}":
            end += 1
        word = "".join(self.tokens[self.at + 1 : end])
        if end == len(self.tokens) or not shape.fullmatch(word):
            raise Unsettable(f"{after}{{{word[:20]}…}} is not one of the edition's math")
        self.at = end + 1
        return word

    # Text ------------------------------------------------------------------------------

    def text_argument(self, name: str) -> None:
        """The {…} of \\text and its like: text, its specials written as commands."""
        if self.next_significant() != "{":
            raise Unsettable(f"\\{name} without its {{…}}")
        self.at += 1
        self.push(_Context("brace"))
        self.out.append("{")
        while (token := self.peek()) != "}":
            if token is None:
                raise Unsettable(f"\\{name}{{ is not closed")
            self.at += 1
            if token == "{":
                self.at -= 1
                self.text_argument(name)
            elif token.startswith("\\") and len(token) > 1 and token[1].isalpha():
                word = token[1:]
                if not token[1].isascii() or word not in TEXT_COMMANDS:
                    raise Unsettable(f"{token} is not a command of the edition's text in math")
                self.out.append(self.command(word))
                self.separate()
                if TEXT_COMMANDS[word]:
                    self.text_argument(word)
            elif token.startswith("\\"):
                if token[1:] not in TEXT_SYMBOLS:
                    raise Unsettable(f"{token!r} is not a command of the edition's text in math")
                self.out.append(self.command(token[1:]) if self.moving else token)
            elif token in "%#&":
                self.out.append("\\" + token)
            elif token[0] in " \t\n":
                self.out.append(_space(token))
            elif token in "^_~$\\" or not (
                token.isascii() and token.isprintable() or printable(token)
            ):
                raise Unsettable(f"the character {_named(token)} in \\{name}{{…}}")
            else:
                self.out.append(token)
        self.at += 1
        self.open.pop()
        self.out.append("}")


def _named(ch: str) -> str:
    """A character as a message names it: itself when printable, else its code point."""
    shown = ch if ch.isascii() and ch.isprintable() and ch != " " else ""
    return f"{shown} (U+{ord(ch):04X})" if shown else f"U+{ord(ch):04X}"


def _space(white: str) -> str:
    """White space as written: a line break where it held one (never a blank line, which
    TeX reads as the end of a paragraph), else a space."""
    return "\n" if "\n" in white else " "

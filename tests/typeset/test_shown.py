"""Text from outside the package as the reports show it (proofs.typeset.shown): whatever a
chapter or a file's name holds, what is shown is printable (TAB and line breaks where they
are kept), says the same text, and holds no command of a CI runner."""

from __future__ import annotations

import json
import os
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from proofs.typeset.shown import inert, json_shown, shown, visible, visible_lines

HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}
# every code point but the surrogates, and the surrogates a file name's bytes decode to
TEXT = st.text(st.characters(codec=None) | st.sampled_from([chr(c) for c in range(0xDC80, 0xDD00)]))


def printable(line: str) -> bool:
    """No control character but TAB, no format character, surrogate or line separator:
    nothing a terminal acts on or hides (a character not yet assigned is printed as is)."""
    return all(c == "\t" or unicodedata.category(c) not in HIDDEN for c in line)


@given(TEXT)
def test_visible_text_is_one_printable_line(text):
    said = visible(text)
    assert "\n" not in said and printable(said)
    assert visible(said) == said  # shown once is shown


@given(TEXT)
def test_visible_lines_keeps_the_line_breaks_only(text):
    said = visible_lines(text)
    assert said.count("\n") == text.count("\n") and all(printable(x) for x in said.split("\n"))


@given(TEXT)
def test_no_line_shown_starts_a_workflow_command(text):
    for line in shown(text).split("\n"):
        assert not line.lstrip().startswith("::") and "##[" not in line and printable(line)


def test_an_escape_sequence_a_bidirectional_override_and_a_names_byte_are_escapes():
    assert visible("a\x1b[2Jb\u202ec") == "a\\x1b[2Jb\\u202ec"
    assert visible(os.fsdecode(b"ch\xff.txt")) == "ch\\xff.txt"
    assert visible("第 1 章\u3000\t表") == "第 1 章\u3000\t表"  # printable, kept


def test_a_leading_command_and_an_old_one_are_made_inert():
    assert inert("  ::error file=x::y") == "  \\x3a:error file=x::y"
    assert inert("a ##[warning]b") == "a ##\\x5bwarning]b"
    assert inert(":: no") == "\\x3a: no" and inert("a :: b") == "a :: b"


@given(st.dictionaries(st.text(), TEXT, max_size=3))
def test_json_shown_reads_back_as_the_value_and_prints_as_it_is(value):
    text = json_shown(value)
    assert json.loads(text) == value
    assert all(printable(line) for line in text.split("\n"))

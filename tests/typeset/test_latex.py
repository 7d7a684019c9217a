"""LaTeX text (proofs/typeset/latex.py): escaping around `$…$`, the rough widths that decide which
table headers wrap, and the packages and engine a text needs, which every LaTeX file the
package writes names in its first lines."""

import pytest

from proofs.typeset.latex import engine, estimated_width, header, packages, tex_cell


def test_text_is_escaped_and_math_kept():
    assert tex_cell("d_ff & 50% $d_{\\mathrm{ff}}$ #1") == r"d\_ff \& 50\% $d_{\mathrm{ff}}$ \#1"


@pytest.mark.parametrize(
    "text, needed",
    [
        (r"4d^2 + 4d", ()),
        (r"\mathrm{diag}(\boldsymbol{\sigma})", ("amsmath",)),
        (r"s(1 - s)\begin{pmatrix}1\end{pmatrix}", ("amsmath",)),
        (r"x \in \mathbb{R}", ("amssymb",)),
        (r"\bm{x}", ("bm",)),
        (r"\bmod", ()),  # a different command
        ("層正規化", ("luatexja",)),
        ("% 命題 3.2［自己注意］ in a comment\n4d^2", ()),
        (r"50\% 命題", ("luatexja",)),  # an escaped % is not a comment
        (
            r"\caption*{例 5.3} \toprule \begin{tabularx}",
            ("luatexja", "booktabs", "tabularx", "caption"),
        ),
    ],
)
def test_packages_are_read_off_the_text(text, needed):
    assert packages(text) == needed


def test_japanese_needs_lualatex_and_the_header_says_so():
    assert engine("層正規化").startswith("LuaLaTeX")
    assert engine(r"\boldsymbol{\sigma}").startswith("any LaTeX engine")
    lines = header(r"\toprule 合計", "tables").splitlines()
    assert lines[1:] == [
        "% Engine: LuaLaTeX (lualatex), for luatexja",
        "% Packages: luatexja, booktabs",
    ]


def test_widths_tell_a_long_header_from_its_numbers():
    assert estimated_width("150,994,944") == pytest.approx(9 * 0.5 + 2 * 0.28)
    assert estimated_width("合計の前の行との比") == pytest.approx(9 * 0.96)
    # ⟨ q , k ⟩: four symbols and a comma; \boldsymbol and the braces draw nothing
    assert estimated_width(r"$\langle\boldsymbol{q},\boldsymbol{k}\rangle$") == pytest.approx(
        4 * 0.5 + 0.28
    )
    assert estimated_width("$4nd^2$") < estimated_width("1,048,576")

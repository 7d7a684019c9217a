"""The shapes a chapter declares, read for the notation new-chapter pre-fills: plain names
and their sizes, families and slices left out, each name at its first declaration; and the
pre-filled notation deciding with those shapes, whatever text the declarations hold."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from proofs.book.declarations import Declaration, declarations, declared_name, sizes
from proofs.book.scaffold import write_skeleton
from proofs.reader import parse

CHAPTER = textwrap.dedent(
    """\
    # 見本：宣言の章

    ## 1. 記号

    入力を $X \\in \\mathbb{R}^{n \\times d}$、重みを $W_Q, W_K \\in \\mathbb{R}^{d \\times d_k}$、
    バイアスを $\\boldsymbol{b}_Q \\in \\mathbb{R}^{d_k}$、定数を $c \\in \\mathbb{R}$ とする。
    各行 $\\boldsymbol{x}_i \\in \\mathbb{R}^d$ と前半 $X_{1:i} \\in \\mathbb{R}^{i \\times d}$、
    テンソル $T \\in \\mathbb{R}^{n \\times d \\times d}$ と $Y \\in \\mathbb{R}^{n \\times 4d}$。
    もう一度 $X \\in \\mathbb{R}^{d}$。

    <Proposition id="prop-shape" title="形">

    $X W_Q \\in \\mathbb{R}^{n \\times d_k}$ である。

    </Proposition>
    """
)


def test_plain_names_are_declared_families_and_slices_are_not():
    assert declared_name("X") == "X"
    assert declared_name(r"\boldsymbol{b}_Q") == "bold b_Q"
    assert declared_name("W_{QK}") == "W_QK"
    assert declared_name(r"\boldsymbol{x}_i") is None  # a family indexed by i
    assert declared_name("X_{1:i}") is None  # a slice
    assert declared_name(r"H^{(a)}") is None
    assert declared_name("(") is None


def test_each_name_is_read_at_its_first_declaration_with_its_sizes():
    found = declarations(parse(CHAPTER, "shapes.mdx"))
    assert [(d.name, d.shape, d.line) for d in found] == [
        ("X", ("n", "d"), 5),
        ("W_Q", ("d", "d_k"), 5),
        ("W_K", ("d", "d_k"), 5),
        ("bold b_Q", ("d_k",), 6),
        ("c", (), 6),
    ]  # X again (line 9) keeps its first shape; T has three sizes, Y's 4d is no name;
    # the proposition's X W_Q is a product, not a name


def test_sizes_are_small_distinct_and_in_the_order_of_first_use():
    found = [Declaration("A", ("n", "d"), 1, ""), Declaration("b", ("d", 4), 2, "")]
    assert sizes(found) == {"n": 2, "d": 3}


def run_python(script: str, site: Path) -> str:
    """What `script` prints in a fresh interpreter with `site` on its path: a skeleton
    imported there registers its elements in that interpreter, not in the tests'."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=site,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_prefilled_notation_decides_with_the_declared_shapes(tmp_path):
    write_skeleton(parse(CHAPTER, "shapes.mdx"), "shapes", tmp_path)
    script = textwrap.dedent(
        """\
        from proofs.tex.tree import TexError, parse
        from shapes.notation import SIZES, environment

        evaluate = environment()
        print(evaluate(parse("X W_Q")).shape == (SIZES["n"], SIZES["d_k"]))
        try:
            evaluate(parse("W_Q X"))  # d × d_k times n × d: the shapes do not fit
        except TexError as error:
            print(error)
        print(evaluate(parse("a")).is_positive)  # an undeclared name: a positive number
        """
    )
    assert run_python(script, tmp_path).splitlines() == [
        "True",
        "shapes (3, 4) and (2, 3) do not multiply",
        "True",
    ]


def test_hostile_declared_names_are_data_in_the_notation(tmp_path):
    name = r'\mathrm{c"""\nimport os; open("INJECTED", "w")}'
    hostile = CHAPTER.replace("$c \\in \\mathbb{R}$", f"${name} \\in \\mathbb{{R}}$")
    write_skeleton(parse(hostile, "shapes.mdx"), "hostile-shapes", tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import hostile_shapes.notation as n; print(ascii(list(n.DECLARED)))",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ascii(["X", "W_Q", "W_K", "bold b_Q", declared_name(name)])
    assert not (tmp_path / "INJECTED").exists()

"""The regenerated tables: the chapters' printed tables cell for cell, the renderings,
the free parameters, bad input."""

import csv
import io
import re
from pathlib import Path

import numpy as np
import pytest
from places import SEEDS

from cache.remembered import kept_in
from numeric.error_bounds import unit_roundoff
from numeric.softmax import softmax
from proofs.chapters.self_attention import tables as sa_tables
from proofs.chapters.transformer_block import tables as tb_tables
from proofs.reader import read_chapter
from proofs.typeset.tables import Table, listing_lines

SELF_ATTENTION = SEEDS / "000_ce182fefa314a82b.txt"
BLOCK = SEEDS / "002_1f7cf506cffefce0.txt"


def chapter_table(path: Path, first_header_cell: str) -> list[list[str]]:
    """The chapter's table whose header starts with `first_header_cell` (rows of cells)."""
    if not path.is_file():
        pytest.skip(f"{path} is not here: the chapter's printed table cannot be compared")
    for table in read_chapter(path).tables:
        if table.rows[0][0] == first_header_cell:
            return [list(row) for row in table.rows]
    raise AssertionError(f"no table starting with {first_header_cell!r} in {path.name}")


def chapter_lines(path: Path) -> set[str]:
    if not path.is_file():
        pytest.skip(f"{path} is not here: the listing's printed lines cannot be compared")
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}


@pytest.mark.element("ex-scaling-numeric")
def test_scaling_table_equals_the_chapters_cell_for_cell():
    printed = chapter_table(SELF_ATTENTION, "$d_k$")
    table = sa_tables.scaling_table()
    assert [list(table.columns)] + [list(r) for r in table.rows] == printed


@pytest.mark.element("ex-scaling-numeric")
def test_scaling_table_listing_lines_are_the_chapters():
    printed = chapter_lines(SELF_ATTENTION)
    for line in sa_tables.scaling_table().listing:
        assert line.strip() in printed


def whole_draw_scaling(dims, pairs, trials, keys, seed):
    """例 4.5's values by the chapter's listing as written: each array drawn whole."""
    rng = np.random.default_rng(seed)
    out = []
    for dk in dims:
        q, k = rng.standard_normal((pairs, dk)), rng.standard_normal((pairs, dk))
        s = (q * k).sum(axis=1)
        q1, kk = rng.standard_normal((trials, 1, dk)), rng.standard_normal((trials, keys, dk))
        scores = (q1 * kk).sum(axis=-1)
        raw = float(softmax(scores).max(axis=-1).mean())
        scaled = float(softmax(scores / np.sqrt(dk)).max(axis=-1).mean())
        out.append((dk, float(s.var()), float((s / np.sqrt(dk)).var()), raw, scaled))
    return tuple(out)


@pytest.mark.element("ex-scaling-numeric")
def test_scaling_table_drawn_in_pieces_is_bit_for_bit_the_whole_draw(monkeypatch):
    """Pieces of 100 numbers (20 pairs at d_k = 5, one at 64; 6 trials of 3 keys at 5): the
    same numbers, to the last bit, as drawing every array whole."""
    monkeypatch.setattr("numeric.chunks.CACHE_ENTRIES", 100)
    table = sa_tables.scaling_table(dims=(5, 64, 3), pairs=37, trials=11, keys=3, seed=7)
    assert table.values == whole_draw_scaling((5, 64, 3), 37, 11, 3, 7)


@pytest.mark.element("ex-scaling-numeric")
def test_scaling_table_kept_between_runs_is_the_table_drawn(monkeypatch, tmp_path):
    """Kept by `cache` under its settings: read back equal to the table drawn
    afresh; other settings are another entry, drawn."""
    monkeypatch.setattr(sa_tables, "_scaling_table", sa_tables._scaling_table.__wrapped__)
    settings = {"dims": (5, 64), "pairs": 37, "trials": 11, "keys": 3, "seed": 7}
    drawn = sa_tables.scaling_table(**settings)
    draws = []
    counted = sa_tables._drawn_table
    monkeypatch.setattr(sa_tables, "_drawn_table", lambda *a: draws.append(a) or counted(*a))
    with kept_in(tmp_path):
        assert sa_tables.scaling_table(**settings) == drawn
        assert sa_tables.scaling_table(**settings) == drawn
        other = sa_tables.scaling_table(**{**settings, "seed": 8})
    assert draws == [((5, 64), 37, 11, 3, 7), ((5, 64), 37, 11, 3, 8)]
    assert other.values != drawn.values


def test_scaling_table_kept_with_a_changed_number_is_drawn_again(monkeypatch, tmp_path):
    """The adversary's edit of a kept table: a number changed, the entry's first line kept.
    It does not verify, so the table is drawn again and its cells are the drawn ones."""
    monkeypatch.setattr(sa_tables, "_scaling_table", sa_tables._scaling_table.__wrapped__)
    settings = {"dims": (5, 64), "pairs": 37, "trials": 11, "keys": 3, "seed": 7}
    with kept_in(tmp_path):
        drawn = sa_tables.scaling_table(**settings)
        (entry,) = tmp_path.rglob("*.json")
        variance = repr(drawn.values[0][1]).encode()
        changed = entry.read_bytes().replace(variance, b"9.99", 1)
        assert b"9.99" in changed
        entry.write_bytes(changed)
        again = sa_tables.scaling_table(**settings)
    assert again == drawn and again.rows[0][1] == f"{drawn.values[0][1]:.2f}" != "9.99"


@pytest.mark.parametrize(
    "rows",
    [
        [[5, 5.1, 1.0, 0.5, 0.3]],  # a row less
        [[5, 5.1, 1.0, 0.5, 0.3], [65, 64.2, 1.0, 0.9, 0.3]],  # another d_k
        [[5, 5.1, 1.0, 0.5, 0.3], [64, 64.2, 1.0, 0.9]],  # a number less
        [[5, 5.1, 1.0, 0.5, 0.3], [64, "64.2", 1.0, 0.9, 0.3]],  # text for a number
        [[5, 5.1, 1.0, 0.5, 0.3], [64, float("nan"), 1.0, 0.9, 0.3]],
        [[5, 5.1, 1.0, 0.5, 0.3], [64.0, 64.2, 1.0, 0.9, 0.3]],  # d_k not an integer
        {"rows": []},
    ],
    ids=["rows", "d_k", "columns", "text", "nan", "float-d_k", "object"],
)
def test_scaling_table_kept_of_another_shape_is_refused(rows):
    codec = sa_tables._scaling_codec((5, 64), 37, 11, 3)
    assert codec.decode([[5, 5.1, 1.0, 0.5, 0.3], [64, 64.2, 1.0, 0.9, 0.3]]).rows[1][1] == "64.20"
    with pytest.raises(ValueError, match="expected"):
        codec.decode(rows)


def test_paired_draws_hold_a_few_rows_at_a_time_and_leave_the_generator_where_whole_draws_do():
    rng, whole = np.random.default_rng(1), np.random.default_rng(1)
    pieces = list(sa_tables.paired_draws(rng, 100, (1, 4096), (8, 4096)))
    assert [len(k) for _, k in pieces] == [2] * 50  # 2 trials of 8 keys: 65,536 numbers
    q, k = whole.standard_normal((100, 1, 4096)), whole.standard_normal((100, 8, 4096))
    assert np.array_equal(np.concatenate([a for a, _ in pieces]), q)
    assert np.array_equal(np.concatenate([b for _, b in pieces]), k)
    assert rng.standard_normal() == whole.standard_normal()


def test_scaling_table_refuses_a_d_k_beyond_its_working_memory_or_its_draws():
    with pytest.raises(
        ValueError,
        match=r"d_k = 1048576 would need 142,606,336 bytes for one "
        r"trial's 8 keys, more than its 67,108,864 bytes",
    ):
        sa_tables.scaling_table(dims=(4, 1048576))
    with pytest.raises(
        ValueError,
        match=r"d_k = 4, 32768 would draw 2,621,760,000 normal "
        r"numbers, more than the 2,147,483,648",
    ):
        sa_tables.scaling_table(dims=(4, 32768))


@pytest.mark.element("prop-attention-complexity")
def test_attention_complexity_table_equals_the_chapters_cell_for_cell():
    printed = chapter_table(SELF_ATTENTION, "$n$")
    table = sa_tables.attention_complexity_table()
    assert [list(table.columns)] + [list(r) for r in table.rows] == printed


@pytest.mark.element("prop-attention-complexity")
def test_attention_complexity_table_first_ratios_are_blank():
    table = sa_tables.attention_complexity_table()
    assert table.rows[0][4:] == ("", "")
    assert table.values[0][4:] == (None, None)


@pytest.mark.element("ex-gpt2-small-count")
def test_gpt2_parameter_table_equals_the_chapters_cell_for_cell():
    printed = chapter_table(BLOCK, "構成要素")
    table = tb_tables.gpt2_parameter_table()
    unspaced = [[c.replace(" ", "") for c in row] for row in printed]
    ours = [[c.replace(" ", "") for c in row] for row in [table.columns, *table.rows]]
    assert ours == unspaced
    assert table.values[-1] == ("合計", None, 124439808)


@pytest.mark.element("ex-small-model-count", "ex-gpt2-small-count", "prop-block-complexity")
def test_listing_totals_are_the_chapters():
    printed = chapter_lines(BLOCK)
    assert tb_tables.small_model_count().listing == ("count: 568  formula: 568",)
    for line in (
        *tb_tables.gpt2_parameter_table().listing,
        *tb_tables.block_cost_comparison().listing,
    ):
        assert line.strip() in printed


@pytest.mark.element("prop-attention-parameters")
def test_attention_parameter_count_is_the_listings_288():
    assert sa_tables.attention_parameter_count().listing == ("params: 288 = 4d^2+4d = 288",)


@pytest.mark.element("prop-block-complexity")
def test_block_cost_ratio_equals_n_over_6d():
    table = tb_tables.block_cost_comparison(d=768, n=1024)
    linear, quadratic, ratio, by_crossover = table.column("値")
    assert (linear, quadratic) == (7247757312, 1610612736)
    # the same rational, each side rounded to float64 once: within 2u of each other
    assert ratio == pytest.approx(by_crossover, rel=2 * unit_roundoff(np.float64))


@pytest.mark.element("prop-attention-complexity")
def test_complexity_table_for_another_d_has_equal_terms_at_n_equal_2d():
    table = sa_tables.attention_complexity_table(d=128, ns=(128, 256, 512))
    n, projection, scores, *_ = table.values[1]
    assert n == 256 and projection == scores == 4 * 256 * 128**2
    assert table.rows[2][4] == "4.00"


@pytest.mark.element("thm-transformer-parameters")
def test_gpt2_table_for_a_24_layer_model():
    table = tb_tables.gpt2_parameter_table(d=1024, n_layer=24)
    per_layer = 12 * 1024**2 + 13 * 1024
    assert table.values[2] == ("ブロック 1 つ", r"$12\times1024^2 + 13\times1024$", per_layer)
    assert table.column("個数")[-1] == 50257 * 1024 + 1024 * 1024 + 24 * per_layer + 2 * 1024
    assert table.rows[2][1] == r"$12\times1024^2 + 13\times1024$"


def test_markdown_rendering_is_a_pipe_table():
    text = sa_tables.attention_complexity_table().to_markdown().splitlines()
    assert text[1] == "|---|---|---|---|---|---|"
    assert text[2] == "| 64 | 1,048,576 | 524,288 | 1,572,864 |  |  |"


def test_latex_rendering_uses_booktabs_and_keeps_math():
    latex = sa_tables.scaling_table(dims=(4,), pairs=100, trials=10).to_latex()
    assert r"\toprule" in latex and r"\midrule" in latex and r"\bottomrule" in latex
    assert r"$\sqrt{d_k}$ で割ったあとの分散" in latex
    assert r"\caption*{例 4.5: 100 組の $(\boldsymbol{q}, \boldsymbol{k})$" in latex


def test_latex_wraps_only_the_long_headers_of_columns_of_numbers():
    """The ratio headers of 命題 7.2 wrap in X columns; 合計 and the numbers keep their
    width, and a table with no long header is a plain tabular of its natural width."""
    latex = sa_tables.attention_complexity_table().to_latex()
    assert r"\begin{tabularx}{\linewidth}{rrrr" in latex
    assert latex.count(r">{\raggedleft\arraybackslash}X") == 2
    assert r"\begin{tabular}{llr}" in tb_tables.gpt2_parameter_table().to_latex()
    assert r"\begin{tabular}{lr}" in tb_tables.small_model_count().to_latex()


def test_csv_rendering_holds_the_raw_values_under_the_tables_own_header():
    table = tb_tables.gpt2_parameter_table()
    rows = list(csv.reader(io.StringIO(table.to_csv())))
    assert rows[0] == ["構成要素", "式", "個数"]  # the formula column is kept
    assert rows[1] == ["埋め込み", r"$50257 \times 768$", "38597376"]
    assert rows[-1] == ["合計", "", "124439808"]


def all_tables() -> list:
    """Every registered table at its chapter's settings (the scaling one at fewer draws)."""
    from proofs.book.registry import tables

    built = [entry.build() for name, entry in tables().items() if name != "scaling"]
    return [sa_tables.scaling_table(pairs=200, trials=20), *built]


def test_csv_labels_are_in_the_chapters_language_like_the_other_formats():
    """Header and row labels of the CSV are the cells the Markdown prints: no table mixes
    English labels (allocated, ratio) into its Japanese header."""
    for table in all_tables():
        rows = list(csv.reader(io.StringIO(table.to_csv())))
        assert tuple(rows[0]) == table.columns, table.name
        for printed, written in zip(table.rows, rows[1:], strict=True):
            labels = [w for p, w in zip(printed, written, strict=True) if not NUMBER(p)]
            assert labels == [p for p in printed if not NUMBER(p)], table.name
            assert all(is_japanese_or_tex(label) for label in labels), (table.name, labels)


def NUMBER(cell: str) -> bool:
    return re.fullmatch(r"[-+]?[\d,]*\.?\d*", cell) is not None


def is_japanese_or_tex(label: str) -> bool:
    """Words of a label are Japanese; Latin letters only inside `$…$`."""
    outside = "".join(label.split("$")[::2])
    return not re.search(r"[A-Za-z]", outside)


def test_the_language_check_catches_an_english_label():
    assert not is_japanese_or_tex("allocated") and not is_japanese_or_tex("ratio")
    assert is_japanese_or_tex("配列の成分の総数") and is_japanese_or_tex("$n/(6d)$")


def test_markdown_and_captions_have_no_braces_or_angle_brackets_outside_math():
    """MDX reads `{…}` outside math as an expression and `<` as a tag: a cell such as
    7{,}247{,}757{,}312 breaks the chapter's build (and shows its braces in a PDF)."""
    for table in all_tables():
        for text in (table.caption, *table.columns, *(c for r in table.rows for c in r)):
            assert not mdx_unsafe(text), (table.name, text)


def mdx_unsafe(text: str) -> bool:
    return bool(re.search(r"[{}<>]", "".join(text.split("$")[::2])))


def test_the_mdx_check_catches_braces_outside_math():
    assert mdx_unsafe("7{,}247{,}757{,}312") and not mdx_unsafe("$7{,}247{,}757{,}312$")


def test_captions_are_in_the_chapters_notation():
    assert tb_tables.gpt2_parameter_table().caption == (
        r"例 5.3: $|V| = 50{,}257$、$d = 768$、$L = 12$、$L_{\mathrm{ctx}} = 1024$、"
        r"$d_{\mathrm{ff}} = 3072$ のパラメータ数"
    )
    assert (
        r"$(\boldsymbol{q}, \boldsymbol{k})$"
        in sa_tables.scaling_table(dims=(4,), pairs=100, trials=10).caption
    )
    assert r"$d_{\mathrm{ff}} = 4d$" in tb_tables.block_cost_comparison().caption


def test_a_table_whose_rows_do_not_fit_its_header_is_refused():
    with pytest.raises(ValueError, match="x: values row 1 has 1 cells, the header 2"):
        Table("x", "c", ("a", "b"), rows=(("1", "2"),), values=((1,),))


def test_render_rejects_an_unknown_format():
    with pytest.raises(ValueError, match="format must be one of"):
        sa_tables.attention_complexity_table().render("html")


@pytest.mark.parametrize(
    "build, kwargs, name",
    [
        (sa_tables.scaling_table, {"pairs": 0}, "pairs"),
        (sa_tables.scaling_table, {"dims": (4, -1)}, "d_k"),
        (sa_tables.attention_complexity_table, {"d": 0}, "d"),
        (sa_tables.attention_complexity_table, {"ns": (64, 1.5)}, "n"),
        (tb_tables.gpt2_parameter_table, {"n_layer": True}, "n_layer"),
        (sa_tables.attention_parameter_count, {"d": 8, "h": 3}, "h"),
    ],
)
def test_bad_table_arguments_name_the_argument(build, kwargs, name):
    with pytest.raises(ValueError, match=name):
        build(**kwargs)


def test_listing_lines_are_the_tables_listing_named_after_the_function_that_made_it():
    lines = listing_lines(tb_tables.block_cost_comparison)
    assert tuple(line.text for line in lines) == tb_tables.block_cost_comparison().listing
    assert {line.source for line in lines} == {
        "proofs.chapters.transformer_block.tables.block_cost_comparison"
    }

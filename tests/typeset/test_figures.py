"""The chapters' pictures: each builds, its file is valid and the same bytes every time,
and what it draws is the package's values (the crossing at n = 2d and n = 6d exactly, the
shaded mask cells exactly j <= i, 7 regions coloured, the 8 residual paths)."""

from __future__ import annotations

import io
import math
import re
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import early
import numpy as np
import pytest
from render_pictures import sample_map

from numeric.activations import gelu, relu
from proofs.book.registry import CHAPTERS, load_all
from proofs.chapters.self_attention import figures as attention_figures
from proofs.chapters.self_attention.tables import scaling_table
from proofs.chapters.transformer_block import figures as block_figures
from proofs.chapters.transformer_block.activations import RELU_EXAMPLE
from proofs.publish.pictures import catalogue, picture_file
from proofs.typeset.plotting import FORMATS, render
from proofs.typeset.svg_pictures import standalone_svg, svg_figure
from symbolic.arrangements import activation_regions

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def accent_rects(svg: str) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of every rectangle in the SVG's accent-coloured group."""
    root = ET.fromstring(svg)
    group = next(g for g in root.iter() if g.get("fill") == "var(--sl-color-accent)")
    return [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) for r in group]


def require_valid(data: bytes, fmt: str) -> None:
    """The file parses as its format: SVG as XML, a PNG's signature and pixels, a PDF's
    header, cross-reference table and end."""
    assert data
    if fmt == "svg":
        assert ET.fromstring(data).tag == "{http://www.w3.org/2000/svg}svg"
    elif fmt == "png":
        import matplotlib.image

        assert data.startswith(PNG_SIGNATURE)
        assert matplotlib.image.imread(io.BytesIO(data), format="png").ndim == 3
    else:
        assert data.startswith(b"%PDF-1.")
        assert data.rstrip().endswith(b"%%EOF")
        offset = int(re.search(rb"startxref\s+(\d+)", data).group(1))
        assert data[offset:].startswith(b"xref")


# every picture as SVG and PNG; as PDF (2 to 6 s each, embedding the fonts) one of each sort,
# which share the code that writes a PDF
CASES = [(name, fmt) for name in catalogue() for fmt in ("svg", "png")] + [
    ("residual-paths", "pdf"),
    ("gelu", "pdf"),
    ("map-self-attention", "pdf"),
]


RENDERS = "every picture's file, twice"


@early.job(RENDERS)
def render_twice(items: Sequence[pytest.Item]) -> dict[tuple[str, str], tuple[bytes, bytes]]:
    """Each selected case's file rendered twice in a process of its own
    (tests/render_pictures.py), by (name, format)."""
    cases = [(item.callspec.params["name"], item.callspec.params["fmt"]) for item in items]
    with tempfile.TemporaryDirectory(prefix="pictures-") as folder:
        early.run_script("render_pictures.py", cases, folder)
        files = {
            (name, fmt): tuple((Path(folder) / f"{name}.{fmt}.{k}").read_bytes() for k in (1, 2))
            for name, fmt in cases
        }
    return files


@pytest.mark.early(RENDERS)
@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_each_picture_is_a_valid_file_with_the_same_bytes_twice(name, fmt):
    first, second = early.result(RENDERS)[name, fmt]
    require_valid(first, fmt)
    assert second == first


def test_the_command_line_offers_the_formats_render_writes():
    from proofs.cli.arguments import FIGURE_FORMATS

    assert FIGURE_FORMATS == FORMATS


def test_every_format_and_sort_is_tested():
    assert {fmt for _, fmt in CASES} == set(FORMATS)
    assert {catalogue()[name].sort for name, fmt in CASES if fmt == "pdf"} == {
        "figure",
        "plot",
        "map",
    }


def test_the_catalogue_holds_each_chapter_figure_plot_and_map():
    load_all()
    assert list(catalogue()) == [
        "causal-mask",
        "softmax-concentration",
        "attention-crossover",
        "map-self-attention",
        "residual-paths",
        "block-crossover",
        "gelu",
        "relu-regions",
        "map-transformer-block",
    ]
    assert set(catalogue()) >= {n for c in CHAPTERS.values() for n in (*c.figures, *c.plots)}


def test_a_picture_name_is_registered_once():
    chapter = CHAPTERS["transformer-block"]
    with pytest.raises(ValueError, match="figure 'gelu' is registered twice"):
        chapter.figure("gelu", caption="x")(lambda: "<svg/>")
    with pytest.raises(ValueError, match="figure 'causal-mask' is registered twice"):
        chapter.plot("causal-mask", "命題 8.1", "x")(lambda: None)


def test_files_carry_no_date_and_no_version():
    svg = picture_file(catalogue()["gelu"], "svg", sample_map)
    pdf = picture_file(catalogue()["gelu"], "pdf", sample_map)
    png = picture_file(catalogue()["gelu"], "png", sample_map)
    assert b"<dc:date>" not in svg and b"Matplotlib v" not in svg
    assert b"/CreationDate" not in pdf and b"/Producer (transformer-proofs)" in pdf
    assert b"Software" not in png and b"tIME" not in png


def test_render_refuses_an_unknown_format():
    with pytest.raises(ValueError, match=r"fmt must be one of \('svg', 'pdf', 'png'\), got 'gif'"):
        render(block_figures.gelu_figure, "gif")


# the causal mask (定義 4.1, the figure after 系 6.4) -----------------------------------


@pytest.mark.element("def-attention")
def test_the_causal_mask_figure_shades_exactly_the_cells_j_at_most_i():
    grid = attention_figures.CAUSAL_MASK_GRID
    shaded = set()
    for x, y, width, height in accent_rects(attention_figures.causal_mask_figure()):
        i = int((y - grid.top) // grid.cell)
        shaded |= {
            (i, int((x - grid.left) // grid.cell) + k) for k in range(int(width // grid.cell))
        }
        assert height == grid.cell
    assert shaded == {(i, j) for i in range(4) for j in range(4) if j <= i}


def test_a_standalone_svg_has_the_namespace_a_width_and_the_accent_colour():
    svg = standalone_svg(attention_figures.causal_mask_figure())
    root = ET.fromstring(svg)
    assert (root.tag, root.get("width")) == ("{http://www.w3.org/2000/svg}svg", "520")
    assert "var(" not in svg and 'fill="#4b6bd6"' in svg


def test_the_svg_drawing_refuses_an_element_outside_its_subset():
    with pytest.raises(ValueError, match="the SVG element <circle> is outside the subset"):
        svg_figure('<svg viewBox="0 0 10 10"><circle cx="1" cy="1" r="1" /></svg>')


def test_the_svg_drawing_reads_a_paths_moves_and_curves_and_refuses_other_commands():
    from proofs.typeset.svg_pictures import path_of

    figure = svg_figure('<svg viewBox="0 0 10 10"><path d="M0,0 C1,0 2,1 2,2" fill="none" /></svg>')
    (patch,) = figure.axes[0].patches
    assert patch.get_path().vertices.tolist() == [[0, 0], [1, 0], [2, 1], [2, 2]]
    for bad in ("M0,0 L1,1", "M0,0 C1,0 2,1", "C1,0 2,1 2,2", "m0,0 c1,0 2,1 2,2"):
        with pytest.raises(ValueError, match="SVG path"):
            path_of(bad)


def test_the_svg_drawing_draws_every_rect_line_and_text():
    figure = svg_figure(attention_figures.causal_mask_figure())
    ax = figure.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("0") == 6 and "−∞ を足す" in texts
    assert len(ax.patches) == 4 + 1  # the shaded runs of the 4 rows, the grid's frame
    assert len(ax.lines) == 3 + 3  # the grid's inner lines


# 命題 4.1: the 8 paths of the residual expansion -----------------------------------------


@pytest.mark.element("prop-residual-identity-path")
def test_the_residual_paths_are_the_8_terms_each_a_choice_per_stage():
    rows = block_figures.residual_paths(3)
    assert rows == [
        ((False, False, False), "I"),
        ((True, False, False), "J₁"),
        ((False, True, False), "J₂"),
        ((False, False, True), "J₃"),
        ((True, True, False), "J₂J₁"),
        ((True, False, True), "J₃J₁"),
        ((False, True, True), "J₃J₂"),
        ((True, True, True), "J₃J₂J₁"),
    ]
    assert len(block_figures.residual_paths(4)) == 16


@pytest.mark.element("prop-residual-identity-path")
def test_the_residual_figure_shades_one_box_per_factor_and_draws_the_identity_bold():
    svg = block_figures.residual_paths_figure()
    layout = block_figures.RESIDUAL_STAGES
    boxes = {
        (int((y - layout.top) // layout.row), int((x - layout.left) // (layout.box + layout.gap)))
        for x, y, _, _ in accent_rects(svg)
    }
    rows = block_figures.residual_paths(3)
    assert boxes == {
        (i, k) for i, (choices, _) in enumerate(rows) for k, taken in enumerate(choices) if taken
    }
    bold = [line for line in ET.fromstring(svg).iter("line") if line.get("stroke-width")]
    assert [line.get("y1") for line in bold] == [str(layout.top + layout.row // 2)]
    assert rows[0] == ((False, False, False), "I")


def test_stage_rows_refuses_rows_of_another_number_of_stages():
    from proofs.typeset.figures import stage_rows

    with pytest.raises(ValueError, match=r"one choice per stage name \(3\), got \[2, 3\]"):
        stage_rows([((True, False), "J₁")], block_figures.RESIDUAL_STAGES)


def test_the_residual_figure_is_registered_under_the_rendered_chapters_caption():
    entry = CHAPTERS["transformer-block"].figures["residual-paths"]
    caption = (
        "3 段の Pre-LN で、積 (I + J₃)(I + J₂)(I + J₁) を展開したときの 8 つの項。"
        "各段で I（迂回）か J（通る）を選ぶ。"
    )
    assert caption.startswith(entry.caption)


def ambiguous_letters(svg: str) -> list[str]:
    """The texts of an SVG figure holding a lone Latin l, which sans-serif fonts draw as
    the identity's I."""
    texts = [t.text or "" for t in ET.fromstring(svg).iter() if t.tag.endswith("text")]
    return [t for t in texts if re.search(r"(?<![A-Za-z])l(?![A-Za-z])", t)]


@pytest.mark.element("prop-residual-identity-path")
def test_the_residual_figure_names_its_stages_with_a_script_l_not_an_l_like_i():
    svg = block_figures.residual_paths_figure()
    texts = [t.text for t in ET.fromstring(svg).iter("text")]
    assert "ℓ = 1" in texts and "I" in texts  # the stage index beside the identity term
    assert ambiguous_letters(svg) == []
    import dataclasses

    from proofs.typeset.figures import stage_rows

    plain = dataclasses.replace(block_figures.RESIDUAL_STAGES, stage="l")
    assert ambiguous_letters(stage_rows(block_figures.residual_paths(3), plain)) == ["l = 1"]


# 命題 7.2 and 命題 6.1: where the quadratic term overtakes -------------------------------


def crossing_marker(figure) -> tuple[float, float]:
    (line,) = [line for line in figure.axes[0].lines if line.get_gid() == "crossing"]
    (x,), (y,) = line.get_xdata(), line.get_ydata()
    return x, y


@pytest.mark.element("prop-attention-complexity")
def test_the_attention_crossing_is_drawn_at_n_2d_exactly():
    data = attention_figures.attention_crossover()
    assert str(data.at) == "2*d" and data.d == 64
    assert data.crossing == (128, 4 * 128 * 64**2) == (128, 2 * 128**2 * 64)
    assert crossing_marker(attention_figures.attention_crossover_figure()) == (128, 2**21)
    assert list(data.linear_values) == [4 * n * 64**2 for n in data.n]
    assert list(data.quadratic_values) == [2 * n**2 * 64 for n in data.n]


@pytest.mark.element("prop-block-complexity")
def test_the_block_crossing_is_drawn_at_n_6d_exactly():
    data = block_figures.block_crossover()
    assert str(data.at) == "6*d"
    assert data.crossing == (384, 12 * 384 * 64**2)
    assert crossing_marker(block_figures.block_crossover_figure()) == (384, 12 * 384 * 64**2)
    assert list(data.quadratic_values) == [2 * n**2 * 64 for n in data.n]


def test_a_crossing_where_the_terms_differ_is_refused():
    import dataclasses

    import sympy

    from symbolic import symbols as sym

    wrong = dataclasses.replace(attention_figures.attention_crossover(), at=3 * sym.d)
    with pytest.raises(ValueError, match="the terms differ at n = 192"):
        _ = wrong.crossing
    assert isinstance(wrong.at, sympy.Expr)


# 例 4.5: the scaling curves ------------------------------------------------------------


@pytest.mark.element("ex-scaling-numeric")
def test_the_scaling_figure_draws_the_tables_mean_largest_weights():
    table = scaling_table()
    figure = attention_figures.softmax_concentration_figure()
    lines = {line.get_gid(): line for line in figure.axes[0].lines}
    assert list(lines["raw"].get_xdata()) == [4, 16, 64, 256, 1024]
    assert list(lines["raw"].get_ydata()) == [row[3] for row in table.values]
    assert list(lines["scaled"].get_ydata()) == [row[4] for row in table.values]
    assert [f"{row[3]:.3f}" for row in table.values] == [row[3] for row in table.rows]


# 命題 8.1: GELU and the ReLU regions ---------------------------------------------------


@pytest.mark.element("prop-relu-piecewise-linear")
def test_the_activation_curves_are_numerics_and_the_chapters_derivatives():
    c = block_figures.activation_curves()
    assert np.array_equal(c["gelu"], gelu(c["t"])) and np.array_equal(c["relu"], relu(c["t"]))
    k = int(np.flatnonzero(c["t"] == 1.0)[0])
    phi = math.exp(-0.5) / math.sqrt(2 * math.pi)
    assert c["gelu'"][k] == pytest.approx(0.5 * (1 + math.erf(1 / math.sqrt(2))) + phi, 1e-15)
    assert c["gelu''"][k] == pytest.approx(phi, 1e-15)
    changes = c["t"][np.flatnonzero(np.diff(np.sign(c["gelu''"])))]
    assert np.allclose(changes, [-math.sqrt(2), math.sqrt(2)], atol=0.02)


@pytest.mark.element("prop-relu-piecewise-linear")
def test_the_gelu_figure_marks_the_inflections_at_plus_minus_root_2():
    figure = block_figures.gelu_figure()
    (marks,) = [line for line in figure.axes[1].lines if line.get_gid() == "inflections"]
    assert list(marks.get_xdata()) == [-math.sqrt(2), math.sqrt(2)]


@pytest.mark.element("prop-relu-piecewise-linear")
def test_the_region_figure_colours_the_7_exact_regions():
    axis, image, patterns = block_figures.relu_regions()
    assert patterns == activation_regions(RELU_EXAMPLE["w_1"], RELU_EXAMPLE["b_1"])
    assert patterns == ["000", "010", "011", "100", "101", "110", "111"]
    assert sorted(np.unique(image)) == list(range(7))
    from proofs.typeset.plotting import STYLE

    with pytest.importorskip("matplotlib").rc_context(STYLE):  # the title's Japanese font
        drawn = block_figures.relu_regions_figure().axes[0]
    (shading,) = drawn.images
    assert sorted(np.unique(shading.get_array())) == list(range(7))
    assert [t.get_text() for t in drawn.texts] == patterns
    # the point (1, 1) has a = (1, 1, 1): pattern 111
    i = j = int(np.flatnonzero(np.isclose(axis, 1.0))[0])
    assert patterns[image[i, j]] == "111"


def labels_crossed(ax) -> list[str]:
    """The texts on the axes whose box (as drawn) meets a line of its contours, or
    leaves the axes' view."""
    from matplotlib.transforms import Bbox

    (left, right), (bottom, top) = ax.get_xlim(), ax.get_ylim()
    view = Bbox.from_extents(left, bottom, right, top)
    lines = [path for drawn in ax.collections for path in drawn.get_paths() if len(path)]
    crossed = []
    for text in ax.texts:
        box = text.get_window_extent().transformed(ax.transData.inverted())
        outside = not (view.contains(box.x0, box.y0) and view.contains(box.x1, box.y1))
        if outside or any(line.intersects_bbox(box, filled=False) for line in lines):
            crossed.append(text.get_text())
    return crossed


@pytest.mark.element("prop-relu-piecewise-linear")
def test_no_line_of_the_region_figure_crosses_a_label():
    from proofs.typeset.plotting import STYLE

    matplotlib = pytest.importorskip("matplotlib")
    with matplotlib.rc_context(STYLE):  # the fonts the files are drawn with
        ax = block_figures.relu_regions_figure().axes[0]
        assert len(ax.texts) == 7 and labels_crossed(ax) == []
        # the place the labels had, each region's centroid, puts 110 across x_1 = 0
        axis, image, patterns = block_figures.relu_regions()
        x, y = np.meshgrid(axis, axis)
        inside = image == patterns.index("110")
        ax.texts[patterns.index("110")].set_position((x[inside].mean(), y[inside].mean()))
        ax.texts[patterns.index("110")].set_text("s = 110")
        assert labels_crossed(ax) == ["s = 110"]


def test_a_label_is_placed_where_its_box_fits_inside_its_region_or_refused():
    from proofs.typeset.region_labels import fitting_centre, label_regions

    axis = np.linspace(-1.0, 1.0, 21)
    x, y = np.meshgrid(axis, axis)
    corner = (x > 0.4) & (y > 0.4)  # a square of side 0.6 at the top right
    cx, cy = fitting_centre(corner, axis, 0.3, 0.2)
    assert 0.4 < cx - 0.15 < cx + 0.15 <= 1 and 0.4 < cy - 0.1 < cy + 0.1 <= 1
    half_step = 0.05 + 1e-12  # centres stand on a half-step lattice
    assert abs(cx - 0.75) <= half_step and abs(cy - 0.75) <= half_step
    assert fitting_centre(corner, axis, 0.7, 0.2) is None
    with pytest.raises(ValueError, match=r"region must be a boolean grid of shape \(21, 21\)"):
        fitting_centre(corner.astype(int), axis, 0.3, 0.2)
    with pytest.raises(ValueError, match="width and height must be positive, got 0"):
        fitting_centre(corner, axis, 0, 0.2)
    from proofs.typeset.plotting import new_figure

    ax = new_figure(2, 2).add_subplot()
    ax.set_xlim(-1, 1)
    ax.set_ylim(-1, 1)
    with pytest.raises(ValueError, match="the label 'a long label' fits inside its region"):
        label_regions(ax, corner.astype(np.int64) - 1, axis, ["a long label"])


def test_the_region_figure_refuses_a_decision_the_grid_contradicts():
    with pytest.raises(
        ValueError,
        match=r"the grid shows the patterns \['000', .*'111'\], "
        r"the exact decision \['000', '001'",
    ):
        block_figures.relu_regions(
            decide=lambda w, b: ["000", "001", "010", "011", "100", "101", "110", "111"]
        )


BLOCK_MDX = """# Transformer ブロック：残差接続・層正規化・MLP とパラメータ数

## 4. 残差接続

<Figure caption="3 段の Pre-LN で、積 (I + J₃)(I + J₂)(I + J₁) を展開したときの 8 つの項。">
<svg viewBox="0 0 10 10"></svg>
</Figure>

<Proposition id="prop-residual-identity-path" title="残差接続の恒等経路">

右辺には恒等行列 $I$ がちょうど 1 つある。

</Proposition>
"""


@pytest.mark.element("prop-residual-identity-path")
def test_sync_writes_the_residual_figure_into_the_block_chapters_mdx_form(tmp_path):
    from proofs.audit.sync import sync_file

    path = tmp_path / "block.mdx"
    path.write_text(BLOCK_MDX, encoding="utf-8")
    before = sync_file(path)
    assert [(r.kind, r.name, r.line) for r in before.drifted] == [("figure", "residual-paths", 6)]
    before.write()
    lines = path.read_text(encoding="utf-8").splitlines()
    svg = "\n".join(lines[5 : lines.index("</Figure>")])
    assert svg == block_figures.residual_paths_figure()
    assert sync_file(path).drifted == []

"""`python -m proofs figures`: the pictures written to a directory, and bad input answered
with one line on stderr and exit code 2 (matplotlib missing included)."""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path

import pytest
from commands import one_line, run
from places import SEEDS

needs_chapters = pytest.mark.skipif(
    not SEEDS.is_dir(), reason="../shared/seeds is not here: no chapter to map"
)


@pytest.fixture
def report(tmp_path: Path) -> Path:
    """A verify --json report in which 例 3.2 of the block chapter has a finding, its
    命題 3.3 failed and so did 命題 7.2 of the self-attention chapter, which it cites."""
    elements = [
        {
            "chapter": "transformer-block",
            "number": "例 3.2",
            "result": "passed",
            "findings": ["a printed number"],
        },
        {"chapter": "transformer-block", "number": "命題 3.3", "result": "failed", "findings": []},
        {"chapter": "self-attention", "number": "命題 7.2", "result": "failed", "findings": []},
    ]
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"elements": elements}), encoding="utf-8")
    return path


def test_list_names_every_picture(capsys):
    code, out, _ = run(capsys, "figures", "--list")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == [
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


def test_figures_writes_each_named_picture_in_the_format(capsys, tmp_path):
    code, _, err = run(
        capsys, "figures", "residual-paths", "gelu", "--out", tmp_path, "--format", "png"
    )
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gelu.png", "residual-paths.png"]
    assert [line.split()[:4] for line in err.splitlines()] == [
        ["wrote", "residual-paths", "to", str(tmp_path / "residual-paths.png")],
        ["wrote", "gelu", "to", str(tmp_path / "gelu.png")],
    ]


@needs_chapters
def test_map_with_a_chapter_and_results_colours_that_chapters_map(capsys, tmp_path, report):
    from proofs.publish.maps import FILL

    code, _, _ = run(
        capsys,
        "figures",
        "map",
        "--chapter",
        "transformer-block",
        "--results",
        report,
        "--out",
        tmp_path,
        "--chapters",
        SEEDS,
    )
    assert code == 0
    svg = (tmp_path / "map-transformer-block.svg").read_text(encoding="utf-8")
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["map-transformer-block.svg", "report.json"]
    assert svg.count(f'fill="{FILL["finding"]}"') == 1 + 1  # 例 3.2, the legend
    assert svg.count(f'fill="{FILL["failed"]}"') == 1 + 1 + 1  # 命題 3.3, 命題 7.2［自己注意］,
    assert svg.count(f'fill="{FILL["failed"]}" stroke-dasharray') == 1  # the legend


@needs_chapters
def test_without_graphviz_a_map_is_still_drawn_by_the_layered_layout(
    capsys, monkeypatch, tmp_path, report
):
    from proofs.publish import map_layout, maps

    monkeypatch.setattr(map_layout, "DOT", str(tmp_path / "no-dot"))  # dot is not found
    maps.map_layout.cache_clear()
    try:
        code, _, err = run(
            capsys,
            "figures",
            "map-transformer-block",
            "--results",
            report,
            "--out",
            tmp_path,
            "--chapters",
            SEEDS,
        )
        assert code == 0 and err.startswith("wrote map-transformer-block")
        svg = (tmp_path / "map-transformer-block.svg").read_text(encoding="utf-8")
        assert "自己注意" in svg  # the cited chapter's frame
        for d in re.findall(r'<path d="M([^"]*)"', svg):  # every edge straight, as laid out
            points = [tuple(map(float, p.split(","))) for p in d.replace("C", "").split()]
            (x0, y0), (x3, y3) = points[0], points[-1]
            length = max(((x3 - x0) ** 2 + (y3 - y0) ** 2) ** 0.5, 1.0)
            for x, y in points:  # each point's distance from the line, to the 0.01 written
                assert abs((x3 - x0) * (y - y0) - (y3 - y0) * (x - x0)) / length < 0.02
    finally:
        maps.map_layout.cache_clear()


def test_an_existing_file_is_kept_without_force(capsys, tmp_path):
    (tmp_path / "gelu.svg").write_text("mine", encoding="utf-8")
    code, _, err = run(capsys, "figures", "gelu", "residual-paths", "--out", tmp_path)
    assert code == 2
    assert one_line(err).endswith("gelu.svg: exists; pass --force to replace it")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gelu.svg"]
    assert run(capsys, "figures", "gelu", "--out", tmp_path, "--force")[0] == 0
    assert (tmp_path / "gelu.svg").read_text(encoding="utf-8").startswith("<?xml")


BAD = {  # id: (arguments, with {tmp} for the test's directory, what the line must say)
    "unknown-name": (
        ["figures", "gelus", "--out", "{tmp}"],
        "figures: unknown figure 'gelus'; nearest: gelu",
    ),
    "bad-format": (
        ["figures", "gelu", "--out", "{tmp}", "--format", "gif"],
        "argument --format: invalid choice: 'gif'",
    ),
    "no-out": (["figures", "gelu"], "figures: --out DIR is required"),
    "out-a-file": (
        ["figures", "gelu", "--out", "{tmp}/bad.json"],
        "{tmp}/bad.json: is not a directory",
    ),
    "out-unwritable": (
        ["figures", "residual-paths", "--out", "/proc"],
        "/proc/residual-paths.svg: cannot create a file in /proc (",
    ),
    "unknown-chapter": (
        ["figures", "map", "--chapter", "kv", "--out", "{tmp}"],
        "figures: no chapter 'kv'; known: self-attention, transformer-block",
    ),
    "chapter-without-map": (
        ["figures", "gelu", "--chapter", "transformer-block", "--out", "{tmp}"],
        "figures: --chapter chooses the chapter of `map`",
    ),
    "results-not-json": (
        [
            "figures",
            "gelu",
            "map-self-attention",
            "--results",
            "{tmp}/bad.json",
            "--out",
            "{tmp}",
            "--chapters",
            str(SEEDS),
        ],
        "{tmp}/bad.json:1: not JSON (Expecting value)",
    ),
    "results-not-a-report": (
        [
            "figures",
            "gelu",
            "map-self-attention",
            "--results",
            "{tmp}/list.json",
            "--out",
            "{tmp}",
            "--chapters",
            str(SEEDS),
        ],
        "{tmp}/list.json: not a report of verify --json",
    ),
    "results-missing": (
        [
            "figures",
            "map-self-attention",
            "--results",
            "{tmp}/none.json",
            "--out",
            "{tmp}",
            "--chapters",
            str(SEEDS),
        ],
        "{tmp}/none.json: no such file, expected a report of verify --json",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_figures_input_is_one_line_and_exit_2_and_writes_nothing(capsys, tmp_path, case):
    (tmp_path / "bad.json").write_text("not json", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    arguments, said = BAD[case]
    if str(SEEDS) in arguments and not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not here: no chapter to map")
    tmp = str(tmp_path)
    code, out, err = run(capsys, *[a.replace("{tmp}", tmp) for a in arguments])
    assert (code, out) == (2, "")
    assert said.replace("{tmp}", tmp) in one_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "list.json"]


@pytest.fixture
def no_chapters(monkeypatch, tmp_path):
    """figures finds no chapter: no checkout seeds, no variable, no pyproject.toml (the
    folders looked up in tmp_path's, with an empty environment, given explicitly)."""
    from proofs.book import locations

    monkeypatch.setattr(locations, "CHECKOUT_SEEDS", tmp_path / "no-seeds")
    looked_up = functools.partial(locations.chapter_folders, start=tmp_path, environ={})
    monkeypatch.setattr("proofs.cli.figures.chapter_folders", looked_up)


def test_out_is_made_and_a_map_without_its_chapter_is_skipped_in_one_line(
    capsys, no_chapters, tmp_path
):
    out = tmp_path / "new" / "folder"
    code, _, err = run(capsys, "figures", "gelu", "map-self-attention", "--out", out)
    assert code == 0 and sorted(p.name for p in out.iterdir()) == ["gelu.svg"]
    assert err.splitlines()[0] == (
        "skipped map-self-attention: the file of chapter self-attention is not found; pass "
        '--chapters DIR, set TRANSFORMER_PROOFS_CHAPTERS=DIR, or add chapters = "DIR" under '
        "[tool.proofs] in pyproject.toml"
    )


def test_maps_of_no_chapter_found_are_refused_and_nothing_is_made(capsys, no_chapters, tmp_path):
    out = tmp_path / "new"
    code, _, err = run(capsys, "figures", "map", "--out", out)
    assert code == 2 and not out.exists()
    assert one_line(err) == (
        "proofs: figures: the files of chapters self-attention, transformer-block are not "
        'found; pass --chapters DIR, set TRANSFORMER_PROOFS_CHAPTERS=DIR, or add chapters = "DIR" '
        "under [tool.proofs] in pyproject.toml"
    )


def test_without_matplotlib_figures_names_the_extra(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises
    code, out, err = run(capsys, "figures", "gelu", "--out", tmp_path)
    assert (code, out) == (2, "")
    assert one_line(err) == (
        "proofs: figures need matplotlib, which is not installed: "
        "pip install 'transformer-proofs[figures]'"
    )
    assert list(tmp_path.iterdir()) == []


def test_without_matplotlib_the_svg_figures_are_drawn_and_the_plots_skipped(
    capsys, monkeypatch, tmp_path
):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = run(capsys, "figures", "residual-paths", "gelu", "--out", tmp_path)
    assert code == 0 and [p.name for p in tmp_path.iterdir()] == ["residual-paths.svg"]
    assert err.splitlines()[0] == (
        "skipped gelu: figures need matplotlib, which is not "
        "installed: pip install 'transformer-proofs[figures]'"
    )

"""`sync` writes the package's regions back into copies of the chapters (never the seeds),
and `audit --baseline` fails only on new mismatches. One test per kind of drift, per
region left alone and per refusal."""

import fcntl
import json
import os
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from commands import one_line, run
from places import SEEDS

from proofs.audit import sync
from proofs.book.registry import CHAPTERS, load_all
from proofs.files import Changed
from proofs.reader import parse
from proofs.typeset import figures
from proofs.typeset.figures import Grid, shaded_grid

ATTENTION = SEEDS / "000_ce182fefa314a82b.txt"
BLOCK = SEEDS / "002_1f7cf506cffefce0.txt"

# One slip per region kind in the self-attention chapter: (line, before, after).
TABLE_CELL = (316, "| 64 | 62.92 |", "| 64 | 62.93 |")  # 例 4.5's d_k table
OUTPUT_NUMBER = (720, "0.983              0.878", "0.983              0.887")  # its listing
SHADED_CELL = (495, '<rect x="180" y="84" width="88"', '<rect x="180" y="84" width="132"')


def copy(seed: Path, target: Path) -> Path:
    if not seed.is_file():
        pytest.skip(f"{seed} is not here: no chapter to sync")
    shutil.copyfile(seed, target)
    return target


def edit(path: Path, *slips: tuple[int, str, str]) -> None:
    """Make each slip on its line, which must hold the text it changes."""
    lines = path.read_bytes().split(b"\n")
    for line, before, after in slips:
        old = lines[line - 1].decode()
        assert before in old, old
        lines[line - 1] = old.replace(before, after, 1).encode()
    path.write_bytes(b"\n".join(lines))


def with_ends(data: bytes, bom: bool, crlf: bool) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + (data.replace(b"\n", b"\r\n") if crlf else data)


@pytest.fixture
def attention(tmp_path: Path) -> Path:
    return copy(ATTENTION, tmp_path / "attention.mdx")


@pytest.fixture
def block(tmp_path: Path) -> Path:
    return copy(BLOCK, tmp_path / "block.txt")


# in sync ------------------------------------------------------------------------------


def test_sync_the_pristine_chapters_are_in_sync(capsys, attention, block):
    code, out, err = run(capsys, "sync", attention, block)
    assert (code, out) == (0, "")
    assert err.splitlines() == [
        f"{attention}: in sync (2 tables, 22 output lines, 1 figure regenerated; 0 left alone)",
        f"{block}: in sync (1 table, 14 output lines, 0 figures regenerated; 1 left alone)",
    ]


def test_sync_the_figure_is_the_chapters_svg_byte_for_byte():
    document = parse(ATTENTION.read_text(encoding="utf-8")) if ATTENTION.is_file() else None
    if document is None:
        pytest.skip(f"{ATTENTION} is not here")
    load_all()
    figure = CHAPTERS["self-attention"].figures["causal-mask"]
    assert figure.build() == document.figures[0].body


# drift: the diff, --write, idempotence ------------------------------------------------


def test_sync_shows_a_table_cell_an_output_number_and_a_shaded_cell_as_a_diff(capsys, attention):
    edit(attention, TABLE_CELL, OUTPUT_NUMBER, SHADED_CELL)
    code, out, err = run(capsys, "sync", attention)
    assert code == 1
    changed = [line for line in out.splitlines() if line[:1] in "+-@"]
    assert changed == [
        f"--- {attention}\t(chapter)",
        f"+++ {attention}\t(regenerated)",
        "@@ -313,7 +313,7 @@",
        "-| 64 | 62.93 | 0.983 | 0.878 | 0.361 |",
        "+| 64 | 62.92 | 0.983 | 0.878 | 0.361 |",
        "@@ -492,7 +492,7 @@",
        '-    <rect x="180" y="84" width="132" height="44" />',
        '+    <rect x="180" y="84" width="88" height="44" />',
        "@@ -717,7 +717,7 @@",
        "-   64     62.92        0.983              0.887   0.361",
        "+   64     62.92        0.983              0.878   0.361",
    ]
    assert one_line(err) == (
        f"would rewrite {attention}: 3 regions drifted: table scaling (line 312), "
        "figure causal-mask (line 492), output line 720"
    )


def test_sync_write_restores_the_chapter_byte_for_byte_and_again_is_a_no_op(capsys, attention):
    edit(attention, TABLE_CELL, OUTPUT_NUMBER, SHADED_CELL)
    code, out, err = run(capsys, "sync", attention, "--write")
    assert (code, out) == (0, "")
    assert one_line(err).startswith(f"rewrote {attention}: 3 regions drifted")
    assert attention.read_bytes() == ATTENTION.read_bytes()
    os.utime(attention, ns=(1_000_000_000, 1_000_000_000))
    code, out, err = run(capsys, "sync", attention, "--write")
    assert (code, out) == (0, "")
    assert attention.read_bytes() == ATTENTION.read_bytes()
    assert attention.stat().st_mtime_ns == 1_000_000_000
    assert list(attention.parent.iterdir()) == [attention]  # no temporary file left


def test_sync_write_restores_the_rendered_form_tab_table_and_output(capsys, block):
    edit(block, (244, "\t7,087,872", "\t7,087,827"), (434, "total: 124439808", "total: 124439809"))
    code, out, _ = run(capsys, "sync", block)
    assert code == 1
    assert [line for line in out.splitlines() if line[:1] in "+-" and line[:3] not in "---+++"] == [
        "-ブロック 1 つ\t$12\\times768^2 + 13\\times768$\t7,087,827",
        "+ブロック 1 つ\t$12\\times768^2 + 13\\times768$\t7,087,872",
        "-total: 124439809",
        "+total: 124439808",
    ]
    assert run(capsys, "sync", block, "--write")[0] == 0
    assert block.read_bytes() == BLOCK.read_bytes()


@pytest.mark.parametrize(
    "bom, crlf", [(True, False), (False, True), (True, True)], ids=["bom", "crlf", "bom-crlf"]
)
def test_sync_write_keeps_the_byte_order_mark_and_the_line_ends(capsys, attention, bom, crlf):
    edit(attention, TABLE_CELL, OUTPUT_NUMBER, SHADED_CELL)
    attention.write_bytes(with_ends(attention.read_bytes(), bom, crlf))
    assert run(capsys, "sync", attention)[0] == 1
    assert run(capsys, "sync", attention, "--write")[0] == 0
    assert attention.read_bytes() == with_ends(ATTENTION.read_bytes(), bom, crlf)


def test_sync_write_keeps_each_lines_own_end(capsys, attention):
    """A file mixing LF and CRLF keeps both: the drifted row's CRLF and its neighbours' LF."""
    edit(attention, TABLE_CELL)
    data = attention.read_bytes().replace(
        b"| 62.93 | 0.983 | 0.878 | 0.361 |\n", b"| 62.93 | 0.983 | 0.878 | 0.361 |\r\n"
    )
    assert data.count(b"\r\n") == 1
    attention.write_bytes(data)
    assert run(capsys, "sync", attention, "--write")[0] == 0
    assert attention.read_bytes() == data.replace(b"62.93", b"62.92")


def test_sync_write_keeps_the_files_mode(capsys, attention):
    edit(attention, TABLE_CELL)
    attention.chmod(0o640)
    assert run(capsys, "sync", attention, "--write")[0] == 0
    assert attention.stat().st_mode & 0o777 == 0o640
    assert attention.read_bytes() == ATTENTION.read_bytes()


# tables -------------------------------------------------------------------------------


def test_sync_a_cell_spaced_otherwise_inside_its_math_is_not_a_drift(capsys, block):
    edit(block, (242, r"$50257 \times 768$", r"$50257\times768$"))
    assert run(capsys, "sync", block)[:2] == (0, "")


def test_sync_restores_a_row_the_chapter_lost(capsys, block):
    lines = block.read_bytes().split(b"\n")
    del lines[246 - 1]  # 最後の層正規化
    block.write_bytes(b"\n".join(lines))
    assert run(capsys, "sync", block)[0] == 1
    assert run(capsys, "sync", block, "--write")[0] == 0
    assert block.read_bytes() == BLOCK.read_bytes()


def test_sync_removes_a_row_the_package_does_not_print(capsys, block):
    lines = block.read_bytes().split(b"\n")
    lines.insert(247, "合計（再掲）\t\t124,439,808".encode())
    block.write_bytes(b"\n".join(lines))
    assert run(capsys, "sync", block, "--write")[0] == 0
    assert block.read_bytes() == BLOCK.read_bytes()


def test_sync_regenerates_a_keyed_table_at_the_chapters_own_keys(capsys, attention):
    """The first column sets the settings, as in the audit: d_k = 4, 16, 64 without the last
    two rows is the table at those d_k, in sync."""
    lines = attention.read_bytes().split(b"\n")
    del lines[317 - 1 : 318]
    attention.write_bytes(b"\n".join(lines))
    assert run(capsys, "sync", attention)[0] == 0


def test_sync_leaves_a_table_of_words_alone_and_lists_it_with_verbose(capsys, block):
    code, _, err = run(capsys, "sync", block, "--verbose")
    assert code == 0
    assert (
        "  line  354  table   (エンコーダの層 | デコーダの層（エンコーダ・デコーダ型） | "
        "デコーダのみのモデルの層): left alone: no regenerated table has these columns "
        "(a table of words, not of values)"
    ) in err.splitlines()
    assert "  line  241  table   gpt2-parameters: in sync" in err.splitlines()


# printed output lines -----------------------------------------------------------------


def test_sync_a_number_both_sides_print_at_rounding_level_is_not_a_drift(capsys, attention):
    edit(attention, (668, "= 2.2e-16", "= 4.4e-16"))
    assert run(capsys, "sync", attention)[:2] == (0, "")


def test_sync_rewrites_only_the_drifted_number_of_a_line(capsys, block):
    """The count on the line drifts, the rounding-level measurement beside it is kept."""
    edit(block, (431, "rows 5-6 change: 1.4e+00", "rows 5-6 change: 1.5e+00"))
    code, out, _ = run(capsys, "sync", block)
    assert code == 1
    assert "+rows 1-4 change: 0.0e+00   rows 5-6 change: 1.4e+00" in out.splitlines()


def test_sync_leaves_a_line_no_computation_prints_alone(capsys, block):
    edit(block, (430, "logits shape: (6, 10)", "logits: (6, 10)"))
    code, out, err = run(capsys, "sync", block, "--verbose")
    assert (code, out) == (0, "")
    assert (
        "  line  430  output  logits: (6, 10): left alone: no computation in the package "
        "prints this line"
    ) in err.splitlines()


# the figure ---------------------------------------------------------------------------


def test_sync_restores_a_masked_cell_shaded_by_mistake(capsys, attention):
    edit(
        attention,
        (494, '<rect x="180" y="40" width="44"', '<rect x="180" y="40" width="88"'),
        (517, '<text x="246" y="67">0</text>', ""),
    )
    assert run(capsys, "sync", attention)[0] == 1
    assert run(capsys, "sync", attention, "--write")[0] == 0
    assert attention.read_bytes() == ATTENTION.read_bytes()


def test_sync_redraws_a_figure_whose_svg_was_deleted(capsys, attention):
    lines = attention.read_bytes().split(b"\n")
    del lines[492 - 1 : 527]  # <svg …> … </svg>, between <Figure> and </Figure>
    attention.write_bytes(b"\n".join(lines))
    assert run(capsys, "sync", attention)[0] == 1
    assert run(capsys, "sync", attention, "--write")[0] == 0
    assert attention.read_bytes() == ATTENTION.read_bytes()


def test_sync_draws_the_shading_from_numerics_causal_mask(capsys, monkeypatch, attention):
    """A mask that lets j = i + 1 through shades another cell of each row: the pristine
    figure then drifts."""
    load_all()
    from proofs.chapters.self_attention import figures as drawn

    monkeypatch.setattr(drawn, "causal_mask", lambda n: np.tri(n, n, 1, dtype=bool))
    code, out, _ = run(capsys, "sync", attention)
    assert code == 1
    assert '+    <rect x="180" y="40" width="88" height="44" />' in out.splitlines()
    assert '-    <text x="246" y="67">0</text>' in out.splitlines()


def test_sync_leaves_a_figure_it_does_not_draw_alone(capsys, attention):
    edit(attention, (491, 'caption="n = 4 の因果マスク。', 'caption="n = 5 の因果マスク。'))
    code, out, err = run(capsys, "sync", attention, "--verbose")
    assert (code, out) == (0, "")
    assert any(
        line.startswith("  line  492  figure  n = 5 の因果マスク。")
        and line.endswith("left alone: no figure the chapter registers has this caption")
        for line in err.splitlines()
    )


def test_shaded_grid_shades_each_run_of_a_row_and_writes_the_empty_cells():
    mask = np.array([[True, False, True], [False, False, False]])
    svg = shaded_grid(mask, Grid(width=100, height=80, left=40, top=20, cell=10, label="m"))
    assert [line for line in svg.splitlines() if "<rect" in line or ">0<" in line] == [
        '    <rect x="40" y="20" width="10" height="10" />',
        '    <rect x="60" y="20" width="10" height="10" />',
        '    <rect x="40" y="20" width="30" height="20" />',
        '    <text x="55" y="30">0</text>',
        '    <text x="45" y="40">0</text>',
        '    <text x="55" y="40">0</text>',
        '    <text x="65" y="40">0</text>',
    ]
    with pytest.raises(TypeError, match="mask must be a 2-D boolean array, got int64"):
        shaded_grid(mask.astype(np.int64), Grid(100, 80, 40, 20, 10, "m"))


def test_sync_and_the_figures_name_no_chapter():
    load_all()
    names = {n for c in CHAPTERS.values() for n in (c.key, c.title, c.short, c.file)}
    for module in (sync, figures):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert [n for n in names if n in source] == []


# refusals -----------------------------------------------------------------------------

BAD = {  # id: (file name, content or None for no file, what the one line says)
    "missing-file": ("absent.mdx", None, "absent.mdx: no such file"),
    "empty-file": ("empty.mdx", "", "empty.mdx:1: empty file, expected a chapter"),
    "neither-form": ("plain.txt", "# Title\n\nNo elements here.\n", "plain.txt:1: neither form"),
    "ragged-table-row": (
        "columns.mdx",
        '# T\n\n<Proposition id="prop-softmax-basic">\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n'
        "\n</Proposition>\n",
        "columns.mdx:7: table row has 3 cells, its header has 2",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_sync_bad_input_is_one_line_and_exit_2_and_nothing_is_written(capsys, attention, case):
    name, content, message = BAD[case]
    path = attention.parent / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    edit(attention, TABLE_CELL)
    before = attention.read_bytes()
    code, out, err = run(capsys, "sync", attention, path, "--write")
    assert (code, out) == (2, "")
    assert one_line(err).startswith("proofs: ") and message in one_line(err)
    assert attention.read_bytes() == before  # the good file is not written either


@pytest.mark.parametrize(
    "arguments, message",
    [
        (("sync",), "the following arguments are required: FILE"),
        (
            ("sync", "-"),
            "argument FILE: expected a file name, got '-' (standard input is not read)",
        ),
        (("sync", "{tmp}"), "{tmp}: is a directory, expected a chapter file"),
    ],
    ids=["no-file", "dash", "directory"],
)
def test_sync_bad_command_line_is_one_line_and_exit_2(capsys, tmp_path, arguments, message):
    code, _, err = run(capsys, *(a.format(tmp=tmp_path) for a in arguments))
    assert code == 2
    assert message.format(tmp=tmp_path) in one_line(err)


def test_sync_write_that_cannot_replace_the_file_is_one_line_and_exit_2(
    capsys, monkeypatch, attention
):
    """The PermissionError of a directory that cannot be written (simulated: root may
    write anywhere); the file is left as it was, and no temporary file behind."""
    edit(attention, TABLE_CELL)
    before = attention.read_bytes()

    def denied(source, target):
        raise PermissionError(13, "Permission denied", str(target))

    monkeypatch.setattr(os, "replace", denied)
    code, _, err = run(capsys, "sync", attention, "--write")
    assert code == 2
    assert one_line(err) == f"proofs: {attention}: cannot replace it (Permission denied)"
    assert attention.read_bytes() == before
    assert list(attention.parent.iterdir()) == [attention]


# audit --baseline ---------------------------------------------------------------------

SLIP = {  # the one known mismatch group of the block chapter: 1.1428 printed for 8/7
    "chapter": "transformer-block",
    "element": "例 3.2",
}


def baseline_of(capsys, chapter: Path) -> tuple[Path, list[dict]]:
    path = chapter.parent / "baseline.json"
    code, _, err = run(capsys, "audit", chapter, "--quiet", "--write-baseline", path)
    assert code == 0
    assert one_line(err) == f"wrote 2 accepted mismatches to {path}"
    return path, json.loads(path.read_text(encoding="utf-8"))["accepted"]


def test_audit_write_baseline_records_the_block_chapters_one_slip(capsys, block):
    _, accepted = baseline_of(capsys, block)
    assert accepted == [
        {
            **SLIP,
            "code": "CHK001",
            "found": (
                "the chapter prints 1.1428 for 8/7 = 1.142857..., which rounds to 1.1429: the "
                "printed value is truncated, not rounded (the exact squares still sum to 4 = d)"
            ),
        },
        {
            **SLIP,
            "code": "CLM001",
            "found": r"$\sqrt{1.1428 + 0.2857 + 0 + 2.5714} = \sqrt{4} = 2 = \sqrt{d}$",
        },
    ]


def test_audit_baseline_accepts_the_recorded_mismatches(capsys, block):
    path, _ = baseline_of(capsys, block)
    code, out, _ = run(capsys, "audit", block, "--quiet", "--baseline", path)
    assert code == 0
    assert out.splitlines()[-1] == f"baseline {path}: 2 accepted, 0 new, 0 stale"


def test_audit_baseline_survives_lines_added_above_the_slip(capsys, block):
    path, _ = baseline_of(capsys, block)
    lines = block.read_bytes().split(b"\n")
    lines[2:2] = [b"", b"\xe5\x89\x8d\xe6\x9b\xb8\xe3\x81\x8d\xe3\x80\x82", b""]  # 前書き。
    block.write_bytes(b"\n".join(lines))
    code, out, _ = run(capsys, "audit", block, "--verbose", "--baseline", path)
    assert code == 0
    assert "line  117  CLM001 [claim] $\\sqrt{1.1428" in out
    assert out.splitlines()[-1] == f"baseline {path}: 2 accepted, 0 new, 0 stale"


def test_audit_baseline_fails_on_a_new_slip_naming_only_it(capsys, block):
    path, _ = baseline_of(capsys, block)
    edit(block, (244, "\t7,087,872", "\t7,087,827"))
    code, out, _ = run(capsys, "audit", block, "--quiet", "--baseline", path)
    assert code == 1
    assert out.split(f"baseline {path}: ")[1].splitlines() == [
        "2 accepted, 1 new, 0 stale",
        "new (1):",
        "  line  244  TAB001 [table] gpt2-parameters table, row 3 (ブロック 1 つ), column 個数: "
        "7,087,827  —  regenerated 7,087,872, off by -45",
    ]


def test_audit_baseline_lists_the_entries_no_longer_found_as_stale(capsys, block):
    path, accepted = baseline_of(capsys, block)
    fixed = [
        {**SLIP, "code": "TAB001", "found": "a cell fixed since"},
        {**SLIP, "element": "", "code": "OUT001", "found": "total: 1"},
    ]
    path.write_text(json.dumps({"accepted": [*accepted, *fixed]}), encoding="utf-8")
    code, out, _ = run(capsys, "audit", block, "--quiet", "--baseline", path)
    assert code == 0
    assert out.split(f"baseline {path}: ")[1].splitlines() == [
        "2 accepted, 0 new, 2 stale",
        "stale, no longer found (2):",
        "  [OUT001] (outside the elements): total: 1",
        "  [TAB001] 例 3.2: a cell fixed since",
    ]


def test_audit_baseline_counts_a_mismatch_recorded_once_found_twice_as_new(capsys, block):
    path, accepted = baseline_of(capsys, block)
    path.write_text(json.dumps({"accepted": accepted[:1]}), encoding="utf-8")
    code, out, _ = run(capsys, "audit", block, "--quiet", "--baseline", path, "--strict")
    assert code == 1  # the new one may be a warning: --strict fails on it too
    assert f"baseline {path}: 1 accepted, 1 new, 0 stale" in out


def test_audit_baseline_of_another_chapter_accepts_nothing_here(capsys, block):
    path, accepted = baseline_of(capsys, block)
    other = [{**e, "chapter": "self-attention"} for e in accepted]
    path.write_text(json.dumps({"accepted": other}), encoding="utf-8")
    code, out, _ = run(capsys, "audit", block, "--quiet", "--baseline", path)
    assert code == 1
    assert f"baseline {path}: 0 accepted, 2 new, 0 stale" in out


def test_a_baseline_written_before_the_codes_accepts_by_section(capsys, block):
    path, accepted = baseline_of(capsys, block)
    sections = {"CHK001": "check", "CLM001": "claim"}
    by_section = [
        {**{k: v for k, v in e.items() if k != "code"}, "section": sections[e["code"]]}
        for e in accepted
    ]
    path.write_text(json.dumps({"accepted": by_section}), encoding="utf-8")
    code, out, _ = run(capsys, "audit", block, "--quiet", "--baseline", path)
    assert code == 0
    assert out.splitlines()[-1] == f"baseline {path}: 2 accepted, 0 new, 0 stale"


def test_audit_baseline_in_json(capsys, block):
    path, _ = baseline_of(capsys, block)
    code, out, _ = run(capsys, "audit", block, "--json", "--baseline", path)
    assert code == 0
    (report,) = json.loads(out)
    assert report["baseline"] == {"file": str(path), "accepted": 2, "new": [], "stale": []}


BAD_BASELINES = {  # id: (content or None for no file, what the one line says)
    "missing": (None, "baseline.json: no such file, expected a baseline file"),
    "a-directory": ("/", "baseline.json: is a directory, expected a baseline file"),
    "not-utf8": (b'{"accepted": ["caf\xe9"]}', "baseline.json: not UTF-8 text (byte 18)"),
    "not-json": ('{"accepted": [\n', "baseline.json:2: not JSON (Expecting value)"),
    "not-a-list": ('{"accepted": {}}', 'baseline.json: expected {"accepted": [...]}'),
    "entry-without-found": (
        '{"accepted": [{"chapter": "c", "code": "EQ001", "element": "e"}]}',
        "each entry with the strings chapter, code, element, found",
    ),
}


@pytest.mark.parametrize("case", list(BAD_BASELINES))
def test_audit_bad_baseline_is_one_line_and_exit_2(capsys, tmp_path, case):
    content, message = BAD_BASELINES[case]
    path = tmp_path / "baseline.json"
    if content == "/":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "audit", tmp_path / "absent.txt", "--baseline", path)
    assert (code, out) == (2, "")
    assert message in one_line(err)


def test_audit_baseline_and_write_baseline_together_is_exit_2(capsys, tmp_path):
    code, _, err = run(
        capsys, "audit", "x.txt", "--baseline", "a.json", "--write-baseline", "b.json"
    )
    assert code == 2
    assert "argument --write-baseline: not allowed with argument --baseline" in one_line(err)


def test_audit_write_baseline_where_it_cannot_be_written_is_exit_2_before_the_audit(
    capsys, tmp_path
):
    target = tmp_path / "absent" / "baseline.json"
    code, out, err = run(capsys, "audit", tmp_path / "absent.txt", "--write-baseline", target)
    assert (code, out) == (2, "")
    assert one_line(err) == f"proofs: {target}: directory {target.parent} does not exist"


# a chapter that changes while sync runs ------------------------------------------------


def test_sync_write_keeps_an_edit_saved_while_it_ran(capsys, monkeypatch, block):
    """The author saves the file between sync's reading and its writing: nothing is
    written, the author's version stays, exit 1 naming the file."""
    edit(block, (242, "38,597,376", "38,597,377"))
    read = sync.sync_file

    def read_then_saved(path, run=False):
        result = read(path, run)
        path.write_text(path.read_text(encoding="utf-8") + "\n追記。\n", encoding="utf-8")
        return result

    monkeypatch.setattr(sync, "sync_file", read_then_saved)
    code, _, err = run(capsys, "sync", block, "--write")
    saved_text = block.read_text(encoding="utf-8")
    assert code == 1
    assert one_line(err) == f"proofs: {block}: changed while syncing; nothing written"
    assert saved_text.endswith("追記。\n") and "38,597,377" in saved_text


def test_of_two_syncs_that_read_the_same_version_only_the_first_writes(block):
    edit(block, (242, "38,597,376", "38,597,377"))
    first, second = sync.sync_file(block), sync.sync_file(block)
    first.write()
    written = block.read_bytes()
    with pytest.raises(Changed, match="changed while syncing; nothing written"):
        second.write()
    assert block.read_bytes() == written and b"38,597,376" in written


def test_sync_write_refuses_a_file_replaced_while_it_waited_for_the_lock(block, tmp_path):
    """Another writer holds the lock and replaces the file: this writer, which opened the old
    file and waited, sees another file under the name and writes nothing."""
    edit(block, (242, "38,597,376", "38,597,377"))
    result = sync.sync_file(block)
    holder = os.open(block, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    raised: list[BaseException] = []
    writer = threading.Thread(target=lambda: _catch(result.write, raised))
    writer.start()
    while writer.is_alive() and not any(
        _opens(fd, block) for fd in os.listdir("/proc/self/fd") if int(fd) != holder
    ):
        time.sleep(0.01)  # until the writer has opened the old file (it then waits for the lock)
    os.replace(shutil.copyfile(block, tmp_path / "other.txt"), block)  # the same bytes, anew
    os.close(holder)
    writer.join()
    assert [type(e) for e in raised] == [Changed] and "replaced" in str(raised[0])
    assert b"38,597,377" in block.read_bytes()


def _catch(call, raised: list) -> None:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - handed to the test
        raised.append(exc)


def _opens(fd: str, path: Path) -> bool:
    try:
        return os.readlink(f"/proc/self/fd/{fd}") == str(path)
    except OSError:
        return False

"""The map layout benchmark (benchmarks/map_layout.py) on the seed chapters: every layout
it measures places every node, and the one the maps use crosses fewer edges than the
previous one."""

from __future__ import annotations

import pytest
from places import SEEDS

from benchmarks import map_layout as bench

needs_chapters = pytest.mark.skipif(
    not SEEDS.is_dir(), reason="../shared/seeds is not here: no chapter to map"
)


@needs_chapters
def test_each_layout_places_every_node_and_dot_crosses_fewer_edges():
    measured = bench.measure(SEEDS / bench.SEED_FILES["self-attention"])
    assert {"previous", "layered"} <= set(measured)
    sizes = {len(drawn.boxes) for _, _, drawn in measured.values()}
    assert len(sizes) == 1
    if "dot LR" in measured:
        assert measured["dot LR"][0] < measured["previous"][0]


@needs_chapters
def test_grandalfs_layout_places_every_node_apart():
    pytest.importorskip("grandalf", reason="grandalf is not installed: pip install grandalf")
    from proofs.publish.maps import chapter_map, sketch_of
    from proofs.reader import read_chapter

    graph = chapter_map(read_chapter(SEEDS / bench.SEED_FILES["transformer-block"]), {})
    drawn = bench.grandalf_layout(sketch_of(graph))
    boxes = drawn.boxes
    assert len(boxes) == len(graph.nodes) and len(drawn.curves) == len(graph.edges)
    assert len({(b.x, b.y) for b in boxes}) == len(boxes)


@needs_chapters
def test_main_prints_a_row_per_layout_and_chapter():
    lines: list[str] = []
    bench.main(["--chapters", str(SEEDS)], write=lines.append)
    assert lines[0].split()[:3] == ["chapter", "layout", "crossings"]
    rows = [line.split() for line in lines[1:] if "not installed" not in line]
    assert {row[0] for row in rows} == set(bench.SEED_FILES)
    previous = [row for row in rows if row[1] == "previous"]
    assert len(previous) == 2 and all(row[-3:] == ["1.00x", "of", "previous"] for row in previous)


def test_main_refuses_a_folder_without_the_seeds(tmp_path):
    with pytest.raises(SystemExit):
        bench.main(["--chapters", str(tmp_path)], write=lambda line: None)

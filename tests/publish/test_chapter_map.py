"""The chapter map: its nodes are the chapter's elements (and what they cite outside it),
its edges exactly the references inside the elements, its colours the checks' results."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from places import SAMPLES, SEEDS

from proofs.book.judge import finding
from proofs.publish import map_layout
from proofs.publish.map_layout import (
    Box,
    Layout,
    Sketch,
    crossings,
    dot_available,
    dot_layout,
    edges_through_nodes,
    layered_layout,
    segments_cross,
)
from proofs.publish.maps import (
    EXTERNAL_NAME,
    FILL,
    PAD,
    RESULTS,
    SHAPE_NAMES,
    ChapterMap,
    Node,
    chapter_map,
    group_label,
    layers,
    map_svg,
    positions,
    previous_layout,
    results_from_report,
    results_from_runs,
    sketch_of,
    text_width,
    wrapped,
)
from proofs.publish.maps import (
    map_layout as laid_out_map,
)
from proofs.reader import read_chapter

CHAPTER_FILES = {
    "self-attention": SEEDS / "000_ce182fefa314a82b.txt",
    "transformer-block": SEEDS / "002_1f7cf506cffefce0.txt",
}
needs_chapters = pytest.mark.skipif(
    not SEEDS.is_dir(), reason="../shared/seeds is not here: no chapter to map"
)
needs_dot = pytest.mark.skipif(
    not dot_available(), reason="Graphviz dot is not installed: apt-get install graphviz"
)
SVG = "{http://www.w3.org/2000/svg}"


def test_the_sample_mdx_maps_to_its_elements_and_its_two_references():
    graph = chapter_map(
        read_chapter(SAMPLES / "chapter.mdx"), {"定義 1.1": "passed", "命題 1.2": "finding"}
    )
    other = "mathematics/sample#def-other"
    assert graph.nodes == (
        Node("定義 1.1", "定義 1.1", "definition", "passed", "ずらし"),
        Node("命題 1.2", "命題 1.2", "proposition", "finding", "ずらしの値"),
        Node("演習 2.1", "演習 2.1", "exercise", "unchecked", ""),
        Node(other, "def-other", "external", "external", other, "mathematics/sample"),
    )
    titles = [
        t.text for t in ET.fromstring(map_svg(graph)).iter("{http://www.w3.org/2000/svg}title")
    ]
    assert titles == ["定義 1.1（ずらし）", "命題 1.2（ずらしの値）", "演習 2.1", other]
    assert graph.edges == (("命題 1.2", "定義 1.1"), ("演習 2.1", "mathematics/sample#def-other"))
    assert layers(graph) == {
        "mathematics/sample#def-other": 0,
        "定義 1.1": 1,
        "命題 1.2": 2,
        "演習 2.1": 1,
    }


def test_the_sample_rendered_text_maps_to_the_same_graph_its_citations_read():
    graph = chapter_map(read_chapter(SAMPLES / "chapter.txt"), {})
    keys = [n.key for n in graph.nodes]
    assert keys == ["定義 1.1", "命題 1.2", "演習 2.1", "定義 3.1［別の章］"]
    assert graph.edges == (("命題 1.2", "定義 1.1"), ("演習 2.1", "定義 3.1［別の章］"))


@needs_chapters
@pytest.mark.parametrize("chapter", list(CHAPTER_FILES))
def test_the_maps_edges_are_the_references_inside_the_chapters_elements(chapter):
    document = read_chapter(CHAPTER_FILES[chapter])
    want = set()
    for ref in document.refs:
        source = document.element_at(ref.line)
        if source is None:
            continue
        own = None if ref.external else document.element(ref.target)
        rendered = document.form == "rendered text" and ref.chapter
        target = (
            own.number if own else (f"{ref.target}［{ref.chapter}］" if rendered else ref.target)
        )
        want.add((source.number, target))
    graph = chapter_map(document, {})
    assert set(graph.edges) == want and len(graph.edges) == len(want)
    assert [n.key for n in graph.nodes if n.kind != "external"] == [
        e.number for e in document.elements
    ]
    svg = ET.fromstring(map_svg(graph))
    assert len(list(svg.iter(f"{SVG}path"))) == len(want)  # one curve an edge


@needs_chapters
def test_every_edge_but_a_forward_citation_runs_down_the_layers():
    graph = chapter_map(read_chapter(CHAPTER_FILES["transformer-block"]), {})
    order = {n.key: i for i, n in enumerate(graph.nodes)}
    layer = layers(graph)
    backward = [(s, t) for s, t in graph.edges if order[t] < order[s] or layer[t] == 0]
    assert backward and all(layer[t] < layer[s] for s, t in backward)
    at = positions(graph)
    assert len(set(at.values())) == len(graph.nodes)  # no two nodes on one place


def test_each_node_is_filled_with_its_results_colour_and_shaped_by_its_kind():
    graph = ChapterMap(
        "t",
        (
            Node("定義 1.1", "定義 1.1", "definition", "failed"),
            Node("命題 1.2", "命題 1.2", "proposition", "passed"),
        ),
        (("命題 1.2", "定義 1.1"),),
    )
    svg = ET.fromstring(map_svg(graph))
    (box,) = [r for r in svg.iter(f"{SVG}rect") if r.get("width") == "104"]
    (ellipse,) = [e for e in svg.iter(f"{SVG}ellipse") if e.get("rx") == "52"]
    assert (box.get("fill"), ellipse.get("fill")) == (FILL["failed"], FILL["passed"])


def test_a_map_refuses_a_result_it_has_no_colour_for():
    with pytest.raises(ValueError, match=r"results must be among .*got \['error'\]"):
        chapter_map(read_chapter(SAMPLES / "chapter.mdx"), {"定義 1.1": "error"})


def test_a_pass_with_findings_is_a_finding_and_an_error_a_failure():
    assert results_from_runs(
        [
            ("命題 3.1", "passed", 0),
            ("例 3.2", "passed", 1),
            ("命題 3.3", "error", 0),
            ("命題 4.1", "unchecked", 0),
        ]
    ) == {"命題 3.1": "passed", "例 3.2": "finding", "命題 3.3": "failed", "命題 4.1": "unchecked"}
    with pytest.raises(ValueError, match="命題 3.1: result must be one of"):
        results_from_runs([("命題 3.1", "skipped", 0)])


def test_a_verify_report_gives_the_results_of_one_chapter():
    report = {
        "elements": [
            {
                "chapter": "transformer-block",
                "number": "例 3.2",
                "result": "passed",
                "findings": ["1.0690"],
            },
            {"chapter": "self-attention", "number": "例 3.2", "result": "failed", "findings": []},
        ]
    }
    assert results_from_report(report, "transformer-block") == {"例 3.2": "finding"}
    assert results_from_report(report, "transformer-block", {"self-attention": "自己注意"}) == {
        "例 3.2": "finding",
        "例 3.2［自己注意］": "failed",
    }
    for bad in ([], {"elements": [{"number": "例 3.2"}]}, {"checks": 3}):
        with pytest.raises(ValueError, match="not a report of verify --json"):
            results_from_report(bad, "transformer-block")


def test_a_citation_of_the_books_other_chapter_takes_that_elements_result():
    graph = chapter_map(read_chapter(SAMPLES / "chapter.txt"), {"定義 3.1［別の章］": "failed"})
    assert graph.nodes[-1] == Node(
        "定義 3.1［別の章］", "定義 3.1", "external", "failed", "定義 3.1［別の章］", "別の章"
    )
    svg = map_svg(graph)
    assert svg.count(f'fill="{FILL["failed"]}" stroke-dasharray="4 3"') == 1


def test_without_a_report_a_map_runs_its_chapters_checks(monkeypatch):
    import proofs.book.registry as registry
    from proofs.publish.maps import run_results

    ran = []

    def fake(element):
        ran.append(element.chapter)
        result = "failed" if element.number == "命題 3.3" else "passed"
        slips = (finding("1.1428", "a printed number"),) if element.number == "例 3.2" else ()
        return registry.CheckRun(result, "", (), 0.0, slips)

    monkeypatch.setattr(registry, "run_check", fake)
    results = run_results("transformer-block")
    assert set(ran) == {"transformer-block"} and len(ran) == len(results) == 21
    assert (results["命題 3.3"], results["例 3.2"], results["命題 3.1"]) == (
        "failed",
        "finding",
        "passed",
    )


@given(title=st.text(), element_title=st.text(), target=st.text(), chapter=st.text())
def test_chapter_text_in_the_map_is_xml_text_whatever_it_holds(
    title, element_title, target, chapter
):
    """Titles, a reference's target and the chapter it names, from the chapter file, are
    escaped: the SVG parses, and what XML can hold of each title comes back as written."""
    document = read_chapter(SAMPLES / "chapter.mdx")
    elements = tuple(replace(e, title=element_title) for e in document.elements)
    refs = tuple(replace(r, target=target, chapter=chapter) for r in document.refs)
    document = replace(document, title=title, elements=elements, refs=refs)
    tree = ET.fromstring(map_svg(chapter_map(document, {})))
    tooltips = [t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}title")]
    shown = _XML_SAFE.sub("\ufffd", element_title).replace("\r\n", "\n").replace("\r", "\n")
    assert f"定義 1.1（{shown}）" in tooltips or not element_title


_XML_SAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# Labels: whole, wrapped over lines ----------------------------------------------------


def node_texts(svg: str) -> list[list[str]]:
    """The lines of text written inside each node's outline, node by node in the SVG's
    order (the node labels' group: the one at the nodes' font size, 12)."""
    root = ET.fromstring(svg)
    (group,) = [g for g in root.iter(f"{SVG}g") if g.get("font-size") == "12" and g.get("fill")]
    texts = [(float(t.get("y")), t.text or "", float(t.get("x"))) for t in group]
    nodes: dict[float, list[tuple[float, str]]] = {}
    for y, text, x in texts:
        nodes.setdefault(x, []).append((y, text))
    return [[text for _, text in sorted(lines)] for lines in nodes.values()]


@needs_chapters
@pytest.mark.parametrize("chapter", list(CHAPTER_FILES))
def test_no_label_is_cut_every_one_is_written_whole_inside_its_node(chapter):
    graph = chapter_map(read_chapter(CHAPTER_FILES[chapter]), {})
    svg = map_svg(graph)
    root = ET.fromstring(svg)
    shown = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert not [t for t in shown if "…" in t]
    drawn = laid_out_map(graph)
    for node, box in zip(graph.nodes, drawn.boxes, strict=True):
        lines = wrapped(node.label)
        assert "".join(lines).replace(" ", "") == node.label.replace(" ", "")
        assert all(text_width(line) <= box.width - 2 * PAD for line in lines), node.label
        assert all(line in shown for line in lines)
    for group, frame, _ in drawn.groups:
        lines = group_label(group)
        assert "".join(lines) == group.replace(" ", "") or " " in group
        assert all(text_width(line) <= frame.width for line in lines), group
    # the ids the previous maps cut: thm-exp-prop…, prop-indepen…
    assert chapter != "self-attention" or {"thm-exp-", "properties"} <= set(shown)


@given(text=st.text(), room=st.integers(12, 200))
def test_wrapping_keeps_every_character_and_each_line_in_its_room(text, room):
    lines = wrapped(text, room)
    assert "".join("".join(lines).split()) == "".join(text.split())
    assert all(text_width(line) <= room or len(line) == 1 for line in lines)


def test_wrapping_breaks_after_a_hyphen_and_never_before_a_prolonged_sound_mark():
    assert wrapped("thm-uniqueness-measures") == ["thm-", "uniqueness-", "measures"]
    assert wrapped("def-sign") == ["def-sign"]
    for line in wrapped("ニューラルネットワークと逆伝播", 60)[1:]:
        assert line[0] != "ー"


# Layout: crossings, groups, both engines ------------------------------------------------


def straight(a: tuple[float, float], b: tuple[float, float]) -> tuple:
    return (a, a, b, b, b)


def test_crossings_count_each_crossing_of_two_edges_that_share_no_node():
    """Two edges drawn as an X cross once; drawn apart, or meeting at a node they share,
    they do not; the same curves, edges of one node, are not counted."""
    boxes = tuple(Box(x, y, 10, 10) for x, y in ((0, 0), (100, 100), (0, 100), (100, 0)))
    apart = Sketch(((10, 10),) * 4, ("",) * 4, ((0, 1), (2, 3)))
    x = Layout(0, 0, boxes, (straight((0, 0), (100, 100)), straight((0, 100), (100, 0))), (), "")
    assert crossings(apart, x) == 1
    parallel = (straight((0, 0), (0, 100)), straight((100, 100), (100, 0)))
    assert crossings(apart, Layout(0, 0, boxes, parallel, (), "")) == 0
    sharing = Sketch(((10, 10),) * 4, ("",) * 4, ((0, 1), (0, 3)))
    assert crossings(sharing, x) == 0
    assert segments_cross((0, 0), (2, 2), (0, 2), (2, 0))
    assert not segments_cross((0, 0), (1, 1), (1, 1), (2, 0))


def test_an_edge_through_a_node_it_does_not_join_is_counted():
    boxes = (Box(0, 0, 10, 10), Box(100, 0, 10, 10), Box(50, 0, 10, 10), Box(50, 80, 10, 10))
    sketch = Sketch(((10, 10),) * 4, ("",) * 4, ((0, 1),))
    assert edges_through_nodes(sketch, Layout(0, 0, boxes, (straight((0, 0), (100, 0)),), (), ""))
    around = ((0, 0), (50, 60), (50, 60), (100, 0), (100, 0))
    assert not edges_through_nodes(sketch, Layout(0, 0, boxes, (around,), (), ""))


@needs_chapters
@pytest.mark.parametrize("chapter", list(CHAPTER_FILES))
def test_the_maps_layout_crosses_no_more_edges_than_the_previous_one(chapter):
    """Either engine: dot (when installed; a third of the crossings at most and no edge
    through a node) and the layered layout without it."""
    graph = chapter_map(read_chapter(CHAPTER_FILES[chapter]), {})
    sketch = sketch_of(graph)
    before = previous_layout(graph)
    fallback = layered_layout(sketch)
    assert crossings(sketch, fallback) <= crossings(sketch, before)
    assert edges_through_nodes(sketch, fallback) <= edges_through_nodes(sketch, before)
    after = laid_out_map(graph)
    assert after.engine == ("dot" if dot_available() else "layered")
    if dot_available():
        assert 3 * crossings(sketch, after) < crossings(sketch, before)
        assert edges_through_nodes(sketch, after) == 0


def overlap(a: Box, b: Box) -> bool:
    return a.left < b.right and b.left < a.right and a.top < b.bottom and b.top < a.bottom


def inside(a: Box, b: Box) -> bool:
    return b.left <= a.left and a.right <= b.right and b.top <= a.top and a.bottom <= b.bottom


ENGINES = {
    "dot": pytest.param(dot_layout, marks=needs_dot),
    "layered": pytest.param(layered_layout),
}


@needs_chapters
@pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))
@pytest.mark.parametrize("chapter", list(CHAPTER_FILES))
def test_each_cited_chapter_is_one_frame_holding_its_nodes_and_no_other(chapter, engine):
    graph = chapter_map(read_chapter(CHAPTER_FILES[chapter]), {})
    drawn = engine(sketch_of(graph))
    cited = {n.group for n in graph.nodes if n.kind == "external"}
    frames = {group: frame for group, frame, _ in drawn.groups}
    assert len(frames) == len(drawn.groups) and set(frames) == cited
    assert all(n.group == "" for n in graph.nodes if n.kind != "external")
    for node, box in zip(graph.nodes, drawn.boxes, strict=True):
        for group, frame in frames.items():
            assert inside(box, frame) if node.group == group else not overlap(box, frame)
    boxes = list(drawn.boxes)
    assert not [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if overlap(a, b)]
    listed = list(frames.values())
    assert not [(a, b) for i, a in enumerate(listed) for b in listed[i + 1 :] if overlap(a, b)]


def test_a_frame_holding_a_node_of_another_group_is_seen():
    """The frame test above can fail: a layout whose frame misses its node is caught."""
    graph = chapter_map(read_chapter(SAMPLES / "chapter.txt"), {})
    drawn = layered_layout(sketch_of(graph))
    (group, frame, label), *_ = drawn.groups
    moved = Box(frame.x + 500, frame.y, frame.width, frame.height)
    external = drawn.boxes[-1]
    assert inside(external, frame) and not inside(external, moved)


def test_the_sample_maps_external_node_is_framed_by_its_chapter():
    graph = chapter_map(read_chapter(SAMPLES / "chapter.txt"), {})
    root = ET.fromstring(map_svg(graph))
    shown = [t.text for t in root.iter(f"{SVG}text")]
    assert "別の章" in shown and "定義 3.1" in shown and "定義 3.1［別の章］" not in shown


def test_without_dot_the_map_is_drawn_by_the_layered_layout(monkeypatch):
    monkeypatch.setattr(map_layout.shutil, "which", lambda name: None)
    graph = chapter_map(read_chapter(SAMPLES / "chapter.mdx"), {})
    assert map_layout.layout(sketch_of(graph)).engine == "layered"
    laid_out_map.cache_clear()
    try:
        assert ET.fromstring(map_svg(graph)).tag == f"{SVG}svg"
    finally:
        laid_out_map.cache_clear()


def test_a_dot_that_fails_is_a_runtime_error_naming_it_and_the_map_is_laid_out_without(
    monkeypatch,
):
    monkeypatch.setattr(map_layout, "DOT", "false")
    sketch = Sketch(((104, 34),), ("",), ())
    with pytest.raises(RuntimeError, match="Graphviz dot failed"):
        dot_layout.__wrapped__(sketch)
    monkeypatch.setattr(map_layout, "dot_layout", dot_layout.__wrapped__)  # not the cache
    monkeypatch.setattr(map_layout.shutil, "which", lambda name: "/usr/bin/false")
    assert map_layout.layout(sketch).engine == "layered"
    monkeypatch.setattr(map_layout, "DOT", "/nonexistent/dot")
    with pytest.raises(RuntimeError, match="Graphviz dot could not run"):
        dot_layout.__wrapped__(sketch)


def test_a_sketch_refuses_sizes_and_groups_apart_and_edges_to_no_node():
    with pytest.raises(ValueError, match="sizes and groups must be as many, got 1 and 2"):
        Sketch(((1, 1),), ("", ""), ())
    with pytest.raises(ValueError, match=r"edges must join nodes 0..0, got \[\(0, 1\)\]"):
        Sketch(((1, 1),), ("",), ((0, 1),))
    with pytest.raises(ValueError, match="rankdir must be one of"):
        map_layout.dot_source(Sketch(((1, 1),), ("",), ()), "RL")


@needs_dot
def test_dot_gets_no_chapter_text():
    graph = chapter_map(read_chapter(SAMPLES / "chapter.txt"), {})
    source = map_layout.dot_source(sketch_of(graph))
    assert "別の章" not in source and "定義" not in source


# Legend --------------------------------------------------------------------------------


def test_the_legend_names_every_shape_and_result():
    graph = chapter_map(read_chapter(SAMPLES / "chapter.mdx"), {})
    shown = {t.text for t in ET.fromstring(map_svg(graph)).iter(f"{SVG}text")}
    assert set(SHAPE_NAMES.values()) | {EXTERNAL_NAME} | set(RESULTS) <= shown
    swatches = {
        r.get("fill")
        for r in ET.fromstring(map_svg(graph)).iter(f"{SVG}rect")
        if r.get("width") == "14"
    }
    assert swatches == {FILL[result] for result in RESULTS}

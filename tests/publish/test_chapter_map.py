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
from proofs.publish.maps import (
    FILL,
    ChapterMap,
    Node,
    chapter_map,
    layers,
    map_svg,
    positions,
    results_from_report,
    results_from_runs,
)
from proofs.reader import read_chapter

CHAPTER_FILES = {
    "self-attention": SEEDS / "000_ce182fefa314a82b.txt",
    "transformer-block": SEEDS / "002_1f7cf506cffefce0.txt",
}
needs_chapters = pytest.mark.skipif(
    not SEEDS.is_dir(), reason="../shared/seeds is not here: no chapter to map"
)


def test_the_sample_mdx_maps_to_its_elements_and_its_two_references():
    graph = chapter_map(
        read_chapter(SAMPLES / "chapter.mdx"), {"定義 1.1": "passed", "命題 1.2": "finding"}
    )
    other = "mathematics/sample#def-other"
    assert graph.nodes == (
        Node("定義 1.1", "定義 1.1", "definition", "passed", "ずらし"),
        Node("命題 1.2", "命題 1.2", "proposition", "finding", "ずらしの値"),
        Node("演習 2.1", "演習 2.1", "exercise", "unchecked", ""),
        Node(other, "def-other", "external", "external", other),
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
    assert len([line for line in svg.iter("{http://www.w3.org/2000/svg}line")]) == len(want)


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
    namespace = "{http://www.w3.org/2000/svg}"
    (box,) = [r for r in svg.iter(f"{namespace}rect") if r.get("width") == "104"]
    (ellipse,) = svg.iter(f"{namespace}ellipse")
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
        "定義 3.1［別の章］", "定義 3.1［別の章］", "external", "failed", "定義 3.1［別の章］"
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


@given(title=st.text(), element_title=st.text(), target=st.text())
def test_chapter_text_in_the_map_is_xml_text_whatever_it_holds(title, element_title, target):
    """Titles and a reference's target, from the chapter file, are escaped: the SVG parses,
    and what XML can hold of each title comes back as written."""
    document = read_chapter(SAMPLES / "chapter.mdx")
    elements = tuple(replace(e, title=element_title) for e in document.elements)
    refs = tuple(replace(r, target=target, chapter="other") for r in document.refs)
    document = replace(document, title=title, elements=elements, refs=refs)
    tree = ET.fromstring(map_svg(chapter_map(document, {})))
    tooltips = [t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}title")]
    shown = _XML_SAFE.sub("\ufffd", element_title).replace("\r\n", "\n").replace("\r", "\n")
    assert f"定義 1.1（{shown}）" in tooltips or not element_title


_XML_SAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

"""The annotated site of `proofs audit --html DIR`: its records (which line is what), and its
pages as a browser reads them — headless Chromium loads each page from file:// and the
tests read the DOM it built: the mismatched lines are where the audit puts them, every link
of a map reaches an anchor, and a chapter's hostile text stays text."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import unicodedata
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from commands import one_line, run
from places import SAMPLES, SEEDS

from proofs.audit import Report, audit_document
from proofs.publish.site import page_names, write_site
from proofs.publish.site.marks import element_marks, line_marks
from proofs.reader import Document, read_chapter

BLOCK = SEEDS / "002_1f7cf506cffefce0.txt"
SLIPPED = SAMPLES / "slipped.txt"  # the rendered sample with one slip: 命題 1.2 states f(0) = 2
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed: no browser to load the pages (.ci/run installs it)",
)
needs_block = pytest.mark.skipif(not BLOCK.is_file(), reason=f"{BLOCK} is not here")
FLAGS = (  # headless, and nothing that reaches for the network
    "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars"
).split()
SCREEN = (1280, 900)
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())

HOSTILE = """\
見本<script>alert("title")</script>の章

1. 準備

定義 1.1（<b>太字</b>の定義）

$x$ に対し <script>document.title = "pwned"</script> と書く。&amp; は &amp; のまま。

</div></main><img src=x onerror="alert(1)"><!-- 注釈 -->

命題 1.2（値）

$1 + 1 = 3$ である。
"""


# A browser's reading of the pages ---------------------------------------------------------


class Dom(HTMLParser):
    """What a test reads of a DOM dumped by Chromium: every id, the tags seen, the class
    and text of each line (#L…, its badge left out), the title and the links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.tags: list[str] = []
        self.lines: dict[int, tuple[str, str]] = {}  # n -> (class, text)
        self.title = ""
        self.links: list[str] = []
        self._open: list[tuple[str, dict[str, str]]] = []  # the elements around the parser

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        self.tags.append(tag)
        if "id" in named:
            self.ids.add(named["id"])
        if tag == "a" and "href" in named:
            self.links.append(named["href"])
        if named.get("id", "").startswith("L") and named["id"][1:].isdigit():
            self.lines[int(named["id"][1:])] = (named.get("class", ""), "")
        if tag not in VOID:
            self._open.append((tag, named))

    def handle_endtag(self, tag: str) -> None:
        if any(t == tag for t, _ in self._open):
            while self._open.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        if [t for t, _ in self._open] == ["html", "head", "title"]:
            self.title += data
        classes = [attrs.get("class", "").split() for _, attrs in self._open]
        if self.lines and any("t" in c for c in classes) and not any("badge" in c for c in classes):
            number = max(self.lines)
            mark, text = self.lines[number]
            self.lines[number] = (mark, text + data)


def browse(*jobs: tuple[str, Path]) -> None:
    """Run Chromium on each (what, page): `dom` dumps the page's DOM to page.dom, `png`
    takes its screenshot to page.png; all at once, each in a profile of its own."""
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profiles:
        running = []
        for k, (what, page) in enumerate(jobs):
            command = [CHROMIUM, *FLAGS, f"--user-data-dir={profiles}/{k}"]
            if what == "dom":
                out = page.with_suffix(".dom").open("w", encoding="utf-8")
                command += ["--dump-dom", page.as_uri()]
            else:
                out = None
                size = f"--window-size={SCREEN[0]},{SCREEN[1]}"
                command += [size, f"--screenshot={page.with_suffix('.png')}", page.as_uri()]
            running.append((subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL), out))
        for process, out in running:
            process.wait(timeout=60)
            if out is not None:
                out.close()


def dom(page: Path) -> Dom:
    read = Dom()
    read.feed(page.with_suffix(".dom").read_text(encoding="utf-8"))
    return read


_AUDITS: dict[Path, tuple[Document, Report]] = {}


def audited(path: Path) -> tuple[Document, Report]:
    """A chapter read and audited once for this module's tests."""
    if path not in _AUDITS:
        document = read_chapter(path)
        _AUDITS[path] = document, audit_document(document)
    return _AUDITS[path]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site of the block chapter (when it is here) and of a hostile chapter, its pages
    loaded in Chromium: (folder, {page name: (document, report)})."""
    folder = tmp_path_factory.mktemp("site")
    hostile = folder.parent / "hostile.txt"
    hostile.write_text(HOSTILE, encoding="utf-8")
    paths = [p for p in (BLOCK, hostile) if p.is_file()]
    chapters = dict(zip(page_names(paths), map(audited, paths), strict=True))
    write_site(folder, [(report, document) for document, report in chapters.values()])
    if CHROMIUM is not None:
        pages = [folder / name for name in ["index.html", *chapters]]
        browse(*(("dom", p) for p in pages), ("png", pages[1]))
    return folder, chapters


# The records ------------------------------------------------------------------------------


def test_the_sample_chapters_lines_take_the_mark_of_their_most_pressing_finding():
    document, report = audited(SLIPPED)
    marks = line_marks(document, report)
    assert [m.number for m in marks] == list(range(1, len(document.lines) + 1))
    assert {m.number for m in marks if m.mark == "mismatched"} == {15}
    assert {f.line for f in report.mismatched} == {15}
    unexamined = {line for line, _, _ in report.coverage.unexamined}
    judged = {f.line for f in report.findings if f.status != "external"}
    assert {m.number for m in marks if m.mark == "not examined"} == unexamined - judged
    assert all(m.mark == "plain" for m in marks if not m.notes)


def test_an_element_without_a_check_is_unchecked_and_anchored_by_its_number():
    elements = element_marks(*audited(SAMPLES / "chapter.txt"))
    assert [(e.number, e.anchor, e.result) for e in elements] == [
        ("定義 1.1", "定義-1.1", "unchecked"),
        ("命題 1.2", "命題-1.2", "unchecked"),
        ("演習 2.1", "演習-2.1", "unchecked"),
    ]


@needs_block
def test_the_block_chapters_example_has_its_finding_at_line_114():
    elements = {e.number: e for e in element_marks(*audited(BLOCK))}
    example = elements["例 3.2"]
    assert (example.anchor, example.result, example.mismatches) == (
        "ex-layer-norm-scale",
        "finding",
        (114,),
    )
    assert {e.result for n, e in elements.items() if n != "例 3.2"} == {"passed"}


def test_pages_are_named_by_their_files_and_never_twice():
    names = page_names([Path("a/ch.txt"), Path("b/ch.txt"), Path("index.mdx"), Path("ch-2.txt")])
    assert names == ["ch.html", "ch-2.html", "index-2.html", "ch-2-2.html"]


# The pages, as Chromium reads them ------------------------------------------------------------


@needs_chromium
@needs_block
def test_the_block_chapters_mismatched_lines_are_exactly_the_audits(site):
    folder, chapters = site
    name = page_names([BLOCK])[0]
    document, report = chapters[name]
    read = dom(folder / name)
    assert sorted(read.lines) == list(range(1, len(document.lines) + 1))
    mismatched = {n for n, (mark, _) in read.lines.items() if "mismatched" in mark.split()}
    assert 114 in mismatched
    assert mismatched == {f.line for f in report.mismatched}
    assert "ex-layer-norm-scale" in read.ids and "#L114" in read.links


@needs_chromium
def test_every_link_of_the_index_reaches_a_page_and_an_anchor_in_it(site):
    folder, chapters = site
    index = dom(folder / "index.html")
    pages = {"": index.ids} | {page: dom(folder / page).ids for page in chapters}
    targets = [
        (unquote(page), unquote(anchor))
        for page, _, anchor in (link.partition("#") for link in index.links)
    ]
    assert {page for page, _ in targets} == set(pages)
    assert [
        (page, anchor)
        for page, anchor in targets
        if anchor and anchor not in pages[page] or page not in pages
    ] == []
    nodes = sum(len(document.elements) for document, _ in chapters.values())
    assert len([1 for page, anchor in targets if page and anchor]) == nodes  # one per node


@needs_chromium
def test_a_hostile_chapters_markup_is_shown_as_text(site):
    folder, chapters = site
    name = page_names([Path("hostile.txt")])[0]
    document, report = chapters[name]
    read = dom(folder / name)
    assert not {"script", "img", "b"} & set(read.tags)
    assert read.title == f"{document.title} — audit"
    assert {n: text for n, (_, text) in read.lines.items()} == dict(enumerate(document.lines, 1))
    mismatched = {n for n, (mark, _) in read.lines.items() if "mismatched" in mark.split()}
    assert mismatched == {f.line for f in report.mismatched} and mismatched
    assert "script" not in dom(folder / "index.html").tags


@needs_chromium
@needs_block
def test_the_block_chapters_page_renders_to_a_screenshot(site):
    folder, _ = site
    shot = (folder / page_names([BLOCK])[0]).with_suffix(".png").read_bytes()
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", shot[16:24]) == SCREEN
    assert len(shot) > 50_000  # painted: a blank window of this size compresses to ~5 kB


def test_control_characters_and_a_names_undecodable_byte_are_shown_as_escapes(tmp_path):
    """A chapter whose text holds a terminal's escape sequence and a bidirectional override,
    in a file whose name holds a line break and a byte that is not UTF-8: the pages show
    each as its escape and hold no such character; the page is named from an allow-list."""
    path = tmp_path / os.fsdecode(b"ch\xff\n.txt")
    path.write_text(HOSTILE.replace("と書く。", "と書く\x1b[2J\u202e。"), encoding="utf-8")
    document = read_chapter(path)
    pages = write_site(tmp_path / "site", [(audit_document(document), document)])
    assert [p.name for p in pages] == ["ch__.html", "index.html"]
    chapter, index = (p.read_text(encoding="utf-8") for p in pages)
    assert "と書く\\x1b[2J\\u202e。" in chapter and "ch\\xff\\n.txt" in index
    hidden = [c for c in chapter + index if c != "\n" and unicodedata.category(c)[0] == "C"]
    assert hidden == []


def test_the_site_is_written_through_no_link(capsys, tmp_path):
    """A page that is a symbolic link is replaced, the link itself; a folder that is one is
    refused, naming where it leads."""
    victim = tmp_path / "victim"
    victim.write_text("kept", encoding="utf-8")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").symlink_to(victim)
    code, _, err = run(capsys, "audit", SLIPPED, "--html", tmp_path / "site")
    assert code == 1 and victim.read_text(encoding="utf-8") == "kept"
    assert not (tmp_path / "site" / "index.html").is_symlink()
    (tmp_path / "elsewhere").symlink_to(tmp_path / "site")
    code, out, err = run(capsys, "audit", SAMPLES / "chapter.txt", "--html", tmp_path / "elsewhere")
    assert (code, out) == (2, "")
    assert one_line(err) == (
        f"proofs: {tmp_path / 'elsewhere'}: is a symbolic link (to {tmp_path / 'site'}); the "
        "site is written only into a folder itself: give its path"
    )


# The command line --------------------------------------------------------------------------


def test_audit_html_writes_the_site_beside_its_report(capsys, tmp_path):
    code, out, err = run(capsys, "audit", SLIPPED, "--quiet", "--html", tmp_path / "site")
    assert code == 1 and "1 error, 0 warnings" in out
    assert one_line(err) == f"wrote 2 pages; open {tmp_path / 'site' / 'index.html'}"
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == ["index.html", "slipped.html"]


def test_audit_html_refuses_a_file_and_a_folder_holding_a_chapter_audited(capsys, tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("", encoding="utf-8")
    code, out, err = run(capsys, "audit", SAMPLES / "chapter.txt", "--html", taken)
    assert (code, out) == (2, "") and one_line(err).endswith("taken: is not a directory")
    chapter = tmp_path / "chapter.html"
    chapter.write_text((SAMPLES / "chapter.txt").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(capsys, "audit", chapter, "--html", tmp_path)
    assert (code, out) == (2, "") and "an input of this command" in one_line(err)
    assert chapter.read_text(encoding="utf-8") == (SAMPLES / "chapter.txt").read_text("utf-8")

"""The chapters' pictures rendered twice each, in a process of their own (tests/early.py).

Reads on stdin a JSON list of [name, format] pairs and writes, into the folder its one
argument names, each picture's file twice: NAME.FORMAT.1 and NAME.FORMAT.2. A chapter's
map is drawn from the small sample chapter (`sample_map`) rather than the chapter, whose
map would run every check.

    python -P tests/render_pictures.py FOLDER < pairs.json   (-P: not tests/ first on the path)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent / "samples" / "chapter.mdx"


def sample_map(chapter: str) -> str:
    """A small map (the sample chapter's) in place of a chapter's, which would run every
    check: the pictures' files are judged in test_figures, the maps' graphs in
    test_chapter_map."""
    from proofs.publish.maps import chapter_map, map_svg
    from proofs.reader import read_chapter

    return map_svg(chapter_map(read_chapter(SAMPLE), {"命題 1.2": "passed"}))


def main() -> None:
    from proofs.publish.pictures import catalogue, picture_file

    folder = Path(sys.argv[1])
    pictures = catalogue()
    for name, fmt in json.load(sys.stdin):
        for copy in (1, 2):
            data = picture_file(pictures[name], fmt, sample_map)
            (folder / f"{name}.{fmt}.{copy}").write_bytes(data)


if __name__ == "__main__":
    main()

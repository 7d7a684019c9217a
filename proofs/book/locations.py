"""Where the chapter files are: a setting, never a fixed path.

The folders searched, first given first: `--chapters DIR` on the command line; the
environment variable TRANSFORMER_PROOFS_CHAPTERS (folders separated by the system's
path separator); `chapters = "…"` (a folder or a list of folders, relative to the file)
under `[tool.proofs]` in the nearest pyproject.toml above the working directory; and, for
development in a checkout, the folder `../shared/seeds` beside it when it exists. A
chapter's file is found among them under any name: the one whose title (its first line
that is not blank, `#` stripped) is the chapter's, else the file its package names.
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path

VARIABLE = "TRANSFORMER_PROOFS_CHAPTERS"
SUFFIXES = (".mdx", ".md", ".txt")  # what a chapter file may be called
CHECKOUT_SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
HOW = (
    f'pass --chapters DIR, set {VARIABLE}=DIR, or add chapters = "DIR" under [tool.proofs] '
    "in pyproject.toml"
)


def chapter_folders(given: Sequence[Path] = (), start: Path | None = None) -> list[Path]:
    """The folders the chapter files are looked for in, in order, those that exist."""
    folders = list(given)
    folders += [Path(p) for p in os.environ.get(VARIABLE, "").split(os.pathsep) if p]
    folders += _configured(start or Path.cwd())
    folders.append(CHECKOUT_SEEDS)
    return [f for f in dict.fromkeys(folders) if f.is_dir()]


def _configured(start: Path) -> list[Path]:
    """The folders `[tool.proofs] chapters` names in the nearest pyproject.toml above
    `start` (relative to that file); none when there is no such setting."""
    folder, setting = _settings(start)
    named = setting.get("chapters", [])
    named = [named] if isinstance(named, str) else named
    return [folder / n for n in named if isinstance(n, str)]


def run_listings_setting(start: Path | None = None) -> bool:
    """Whether `[tool.proofs] run-listings = true` asks the audit to run the listings."""
    return _settings(start or Path.cwd())[1].get("run-listings") is True


def _settings(start: Path) -> tuple[Path, dict]:
    """The folder of the nearest pyproject.toml above `start` and its [tool.proofs]
    table (empty when it has none or cannot be read)."""
    for folder in (start.resolve(), *start.resolve().parents):
        project = folder / "pyproject.toml"
        if not project.is_file():
            continue
        try:
            setting = tomllib.loads(project.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return folder, {}
        table = setting.get("tool", {}).get("proofs", {})
        return folder, table if isinstance(table, dict) else {}
    return start, {}


def find_chapter_file(title: str, file_name: str, folders: Iterable[Path]) -> Path | None:
    """The file of the chapter with this title in the folders (the first found), else
    one named `file_name` there; None when neither is."""
    folders = list(folders)
    for folder in folders:
        for path in _candidates(folder):
            if _title(path) == title:
                return path
    return next((f / file_name for f in folders if (f / file_name).is_file()), None)


def _candidates(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())


@functools.lru_cache(maxsize=256)
def _title_at(path: Path, size: int, mtime: float) -> str:
    try:
        with path.open(encoding="utf-8-sig") as handle:
            for line in handle:
                if line.strip():
                    return line.strip().lstrip("#").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return ""


def _title(path: Path) -> str:
    """The title of a file as the reader reads it, kept while the file is unchanged."""
    status = path.stat()
    return _title_at(path, status.st_size, status.st_mtime)

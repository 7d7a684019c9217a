"""Where the chapter files are: a setting, never a fixed path.

The folders searched, first given first: `--chapters DIR` on the command line; the
environment variable TRANSFORMER_PROOFS_CHAPTERS (folders separated by the system's
path separator); `chapters = "…"` (a folder or a list of folders, relative to the file)
under `[tool.proofs]` in the nearest pyproject.toml above the working directory; and, for
development in a checkout, the folder `../shared/seeds` beside it when it exists. A folder
named in one of the first three that is not one, a pyproject.toml that is not TOML, or a
setting of another type or name is an error (SettingsError) naming where it was found. A
chapter's file is found among them under any name: the one whose title (its first line
that is not blank, `#` stripped) is the chapter's, else the file its package names.
"""

from __future__ import annotations

import functools
import os
import stat
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from proofs.typeset.shown import shortened

VARIABLE = "TRANSFORMER_PROOFS_CHAPTERS"
SUFFIXES = (".mdx", ".md", ".txt")  # what a chapter file may be called
CHECKOUT_SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
HOW = (
    f'pass --chapters DIR, set {VARIABLE}=DIR, or add chapters = "DIR" under [tool.proofs] '
    "in pyproject.toml"
)
SETTINGS = {  # the keys [tool.proofs] may hold, each with what its value must be
    "chapters": "a folder name or a list of them",
    "run-listings": "true or false",
    "select": "a list of rule codes or prefixes (EQ001, EQ, ALL)",
    "ignore": "a list of rule codes or prefixes (EQ001, EQ)",
    "per-file-ignores": 'a table of file patterns, each with a list of codes ("a.mdx" = ["RST"])',
    "baseline": "a file name",
}
QUOTED = 200  # characters of a value a message quotes at most


class SettingsError(ValueError):
    """A setting that cannot be read as what it should be: the message names where it is
    (the option, the variable, or the file and its key) and what was expected."""


def chapter_folders(
    given: Sequence[Path] = (),
    start: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[Path]:
    """The folders the chapter files are looked for in, in order: `given` (--chapters),
    the variable's in `environ` (os.environ by default), the setting of the nearest
    pyproject.toml above `start` (the working directory by default), and the checkout's
    seeds when they are there. SettingsError when a folder named in one of the first three
    is not a folder."""
    environ = os.environ if environ is None else environ
    folders = [_folder(Path(f), f"--chapters {shortened(str(f), QUOTED)}") for f in given]
    named = [p for p in environ.get(VARIABLE, "").split(os.pathsep) if p]
    folders += [_folder(Path(p), f"{VARIABLE}: {shortened(repr(p), QUOTED)}") for p in named]
    folders += _configured(Path.cwd() if start is None else start)
    if CHECKOUT_SEEDS.is_dir():
        folders.append(CHECKOUT_SEEDS)
    return list(dict.fromkeys(folders))


def _folder(path: Path, where: str) -> Path:
    """`path` when it is a folder; SettingsError saying `where` it was named otherwise."""
    try:
        is_folder = stat.S_ISDIR(path.stat().st_mode)
    except FileNotFoundError:
        raise SettingsError(
            f"{where}: no such folder; expected a folder of chapter files"
        ) from None
    except OSError as exc:
        raise SettingsError(f"{where}: cannot be examined ({exc.strerror or exc})") from None
    if not is_folder:
        raise SettingsError(f"{where}: not a folder; expected a folder of chapter files")
    return path


def _configured(start: Path) -> list[Path]:
    """The folders `[tool.proofs] chapters` names in the nearest pyproject.toml above
    `start` (relative to that file); none when there is no such setting."""
    project, setting = _settings(start)
    named = setting.get("chapters", [])
    if isinstance(named, str):
        named = [named]
    if not isinstance(named, list) or not all(isinstance(n, str) and n for n in named):
        raise SettingsError(
            f"{project}: [tool.proofs] chapters: expected a folder name or a list of them, "
            f"got {shortened(repr(named), QUOTED)}"
        )
    return [
        _folder(
            project.parent / n, f"{project}: [tool.proofs] chapters: {shortened(repr(n), QUOTED)}"
        )
        for n in named
    ]


def run_listings_setting(start: Path | None = None) -> bool:
    """Whether `run-listings = true` under [tool.proofs] asks the audit to run the
    listings; SettingsError when it is there and not true or false."""
    _, setting = _settings(Path.cwd() if start is None else start)
    return setting.get("run-listings", False)


def rule_settings(
    start: Path | None = None,
) -> tuple[Path, list[str] | None, list[str], dict[str, list[str]]]:
    """The nearest pyproject.toml above `start` and its rules' settings: `select` (None
    when it is not set), `ignore` and `per-file-ignores`, of the types they must have
    (SettingsError otherwise); which codes they name is the audit's to check."""
    project, setting = _settings(Path.cwd() if start is None else start)
    return (
        project,
        setting.get("select"),
        setting.get("ignore", []),
        setting.get("per-file-ignores", {}),
    )


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_TYPES = {  # what each setting's value must be
    "chapters": lambda v: isinstance(v, str) or _strings(v),
    "run-listings": lambda v: isinstance(v, bool),
    "select": _strings,
    "ignore": _strings,
    "per-file-ignores": lambda v: isinstance(v, dict) and all(_strings(c) for c in v.values()),
    "baseline": lambda v: isinstance(v, str) and v != "",
}


def baseline_setting(start: Path) -> Path | None:
    """The baseline file `baseline = "…"` under [tool.proofs] names (relative to the
    pyproject.toml), for the chapters under `start`; None when none is named.
    SettingsError when it is there and not a file name."""
    project, setting = _settings(start)
    named = setting.get("baseline")
    return None if named is None else project.parent / named


def _settings(start: Path) -> tuple[Path, dict[str, Any]]:
    """The nearest pyproject.toml above `start` and its [tool.proofs] table (empty when it
    has none, or when there is no such file). SettingsError naming the file when it
    cannot be read as TOML, when `tool` or `tool.proofs` is not a table, when the table
    holds a key that is no setting (the nearest one said), or a value of another type."""
    for folder in (start.resolve(), *start.resolve().parents):
        project = folder / "pyproject.toml"
        if project.is_file():
            break
    else:
        return start / "pyproject.toml", {}
    try:
        setting = tomllib.loads(project.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SettingsError(f"{project}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{project}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{project}: not TOML ({exc})") from None
    tool = setting.get("tool", {})
    if not isinstance(tool, dict):
        said = shortened(repr(tool), QUOTED)
        raise SettingsError(f"{project}: tool: expected a table ([tool]), got {said}")
    table = tool.get("proofs", {})
    if not isinstance(table, dict):
        raise SettingsError(
            f"{project}: tool.proofs: expected a table ([tool.proofs]), got "
            f"{shortened(repr(table), QUOTED)}"
        )
    for key, value in table.items():
        if key not in SETTINGS:
            from proofs.book.registry import nearest

            near = nearest(key, SETTINGS, 1)
            said = f"did you mean {near[0]}? (" if near else "("
            raise SettingsError(
                f"{project}: [tool.proofs] {shortened(key, QUOTED)}: not a setting; {said}"
                f"the settings are {', '.join(SETTINGS)})"
            )
        if not _TYPES[key](value):
            raise SettingsError(
                f"{project}: [tool.proofs] {key}: expected {SETTINGS[key]}, got "
                f"{shortened(repr(value), QUOTED)}"
            )
    return project, table


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

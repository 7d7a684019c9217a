"""GitHub's workflow commands: the annotations a pull request shows at a file's lines."""

from __future__ import annotations

from proofs.typeset.shown import visible, visible_lines


def workflow_command(
    level: str,
    path: str,
    line: int | None,
    title: str,
    message: str,
    column: int | None = None,
) -> str:
    """A GitHub workflow command (`::error file=…,line=…::message`) that annotates a line
    of a file in a pull request (the whole file without `line`), its
    properties and message escaped as GitHub's runner reads them (actions/toolkit's
    command.ts: %, CR and LF in the message; also : and , in a property), after every
    character a log would not show as it is was made visible (proofs.typeset.shown): a
    name's line break can neither end the command nor start another."""
    where = [f"file={_property(path)}"]
    where += [f"line={line}"] if line is not None else []
    where += [f"col={column}"] if column is not None else []
    properties = ",".join([*where, f"title={_property(title)}"])
    return f"::{level} {properties}::{_data(visible_lines(message))}"


def workflow_notice(path: str, message: str, level: str = "notice") -> str:
    """A notice (or another `level`) about a whole file, such as a report's counts, its
    message escaped."""
    return f"::{level} file={_property(path)}::{_data(visible_lines(message))}"


def _data(text: str) -> str:
    """A workflow command's message: %, CR and LF escaped, as GitHub documents."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: visible, the message's escapes, and : and ,."""
    return _data(visible(text)).replace(":", "%3A").replace(",", "%2C")

"""The words the print edition says of the checks, in the edition's language: the mark
under each element's heading and the line under the chapter's title.

`ja` is the reader's edition of a Japanese chapter (the default for one): each mark a
Japanese word, the check's methods in Japanese, and no message (a finding's or a
failure's message is the report's, in English: `verify` and `audit` show it). `en` is
the authors' edition: the results and methods as the report names them, with the
message of a finding, a failure or a stub. `none` prints no mark and no tally. The line
under the title says where the results come from by what they are (a report of verify,
the checks run here), never by a file's name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from proofs.publish.edition.marks import Mark, tally
from proofs.publish.edition.text import escape
from proofs.reader import Document

LANGUAGES = ("none", "ja", "en")
MAX_MESSAGE = 1000  # characters of a mark's message printed (a report's may be any length)

RESULT_WORDS = {
    "ja": {
        "passed": "検証済み",
        "finding": "所見あり",
        "failed": "検証失敗",
        "unchecked": "未検証",
        "not run": "未実行",
        "no check": "検査なし",
    },
    "en": {r: r for r in ("passed", "finding", "failed", "unchecked", "not run", "no check")},
}
METHOD_WORDS = {
    "ja": {
        "symbolic": "記号計算",
        "numeric": "数値検証",
        "witness": "反例",
        "high precision": "高精度計算",
        "not a theorem": "定理でないことの確認",
    },
}
# where the marks come from, by what it is: a report of verify, or checks run here
SOURCES = {
    "ja": {
        "report": "verify の報告による",
        "examples": "例と演習の検査を実行",
        "all": "全検査を実行",
    },
    "en": {
        "report": "from a report of verify",
        "examples": "examples and exercises run",
        "all": "every check run",
    },
}
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def default_language(document: Document) -> str:
    """`ja` for a chapter whose title holds Japanese, `en` for any other."""
    return "ja" if _JAPANESE.search(document.title) else "en"


def mark_tex(mark: Mark, language: str) -> str:
    """The line under an element's heading in `language` (LANGUAGES): its result, then
    the check's methods (in `en`, the message of a finding, a failure or a stub instead);
    nothing in `none`.

    >>> print(mark_tex(Mark("finding", ("symbolic",), "prints 1.1428"), "ja"))
    \\bookcheck{finding}{所見あり}{記号計算}
    >>> print(mark_tex(Mark("finding", ("symbolic",), "prints 1.1428"), "en"))
    \\bookcheck{finding}{finding}{prints 1.1428}
    """
    if language == "none":
        return ""
    methods = [METHOD_WORDS.get(language, {}).get(m, m) for m in mark.methods]
    if language == "ja":
        detail = "・".join(methods) if mark.result in ("passed", "finding", "not run") else ""
    else:
        shown = {"passed": ", ".join(methods), "not run": ", ".join(methods), "no check": ""}
        detail = " ".join(shown.get(mark.result, mark.message).split())
    if len(detail) > MAX_MESSAGE:
        detail = detail[: MAX_MESSAGE - 1] + "…"
    key = mark.result.replace(" ", "-")
    return f"\\bookcheck{{{key}}}{{{RESULT_WORDS[language][mark.result]}}}{{{escape(detail)}}}"


def results_line(marks: Mapping[int, Mark], registered: bool, source: str, language: str) -> str:
    """The line under the chapter's title: how many elements have each result and where
    the results come from (`source`: a key of SOURCES' tables, with ", profile NAME" for
    checks run; any other text is printed as it is); nothing in `none`.

    >>> marks = {3: Mark("passed"), 9: Mark("finding")}
    >>> print(results_line(marks, True, "report", "ja"))
    \\bookresults{検証：検証済み 1、所見あり 1（verify の報告による）}
    """
    if language == "none":
        return ""
    if not registered:
        said = {"ja": "検証：この章の検査は登録されていない", "en": "Checks: none registered"}
        return r"\bookresults{" + escape(said[language]) + "}"
    kind, _, profile = source.partition(", ")
    known = SOURCES[language].get(kind)
    where = source if known is None else known + (f", {profile}" if profile else "")
    words = RESULT_WORDS[language]
    if language == "ja":
        counts = "、".join(f"{words[r]} {n}" for r, n in tally(marks).items())
        return r"\bookresults{" + escape(f"検証：{counts}（{where}）") + "}"
    counts = ", ".join(f"{words[r]} {n}" for r, n in tally(marks).items())
    return r"\bookresults{" + escape(f"Checks: {counts} ({where})") + "}"

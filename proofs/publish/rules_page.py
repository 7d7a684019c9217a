"""docs/rules.md: every rule of the audit under its code, written from the rules themselves
(proofs.audit.running.RULES, each declared beside its code in its family's module under
proofs/audit/rules/), so that the page says what the code does. `python -m
proofs.publish.rules_page` rewrites it; tests/audit/test_rules.py fails while it is stale
and audits every example the page shows.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from proofs.audit.findings import Example, Rule
from proofs.audit.running import FAMILIES

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
CHAPTERS = {  # a registered chapter's key -> how the page names it
    "self-attention": "the self-attention chapter (`000_ce182fefa314a82b.txt`)",
    "transformer-block": "the Transformer block chapter (`002_1f7cf506cffefce0.txt`)",
}
INTRO = """\
# The audit's rules

Every finding of `python -m proofs audit FILE` carries the code of the rule that made it: a
family's letters and a number (`EQ001`), which stays the rule's. The code is printed in
every format: the lint line (`block.txt:244:40: error[TAB001]: table: …`), `--verbose`,
`--format json` (`"code"`), the title of `--format github`'s annotations, the notes of
the `--html` site, and the entries of a baseline. It is what these name:

- `--select CODES` and `--ignore CODES` (codes or prefixes, separated by commas: `EQ`,
  `TAB101,RST`), and `select`, `ignore` and `per-file-ignores` under `[tool.proofs]`
  ([audit.md](audit.md#choosing-the-rules-and-suppressing-a-finding));
- a suppression in an MDX chapter, `{/* proofs: ignore[EQ001] why */}`, on the line of
  the finding or the line before it;
- a baseline's entries (`audit --write-baseline`), keyed by code, element and text.

A rule's severity is that of its mismatch: an **error** has a witness a reader can check
by hand and fails the run; a **warning** is what only a heuristic sees, and fails the run
only under `--strict`. An item a rule cannot check is a notice under the same code.

Each rule below is shown on a slip it reports and on a rewrite it leaves alone; both are
audited by `tests/audit/test_rules.py`. A slip of a chapter the package has checks for is
an edit of that chapter, one of the one-edit copies `tests/seed_slips.py` lists. This
page is written from the rules by `python -m proofs.publish.rules_page`.
"""


def page() -> str:
    """The page, in the order of the report's sections."""
    rules = [rule for family in FAMILIES for rule in family.RULES]
    lines = [
        INTRO,
        "| code | name | severity | what it checks |",
        "|---|---|---|---|",
        *(
            f"| [{r.code}](#{r.code.lower()}) | {r.name} | {r.severity} | {_cell(r.checks)} |"
            for r in rules
        ),
    ]
    for family in FAMILIES:
        source = Path(inspect.getfile(family)).relative_to(PAGE.parents[1]).as_posix()
        prefixes = sorted({r.family for r in family.RULES})
        lines += ["", f"## {', '.join(prefixes)}: `{source}`", "", _summary(family.__doc__ or "")]
        for rule in family.RULES:
            lines += _rule(rule)
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _summary(docstring: str) -> str:
    """The first paragraph of a family's docstring, on one line."""
    return " ".join(docstring.strip().split("\n\n")[0].split())


def _rule(rule: Rule) -> list[str]:
    return [
        "",
        f"### {rule.code}",
        "",
        f"**{rule.name}** ({rule.severity}). {rule.checks}",
        "",
        "A slip it reports:",
        *_example(rule.slip),
        "",
        "A rewrite it leaves alone:",
        *_example(rule.neutral),
    ]


def _shown(text: str) -> str:
    """An edit's text in a code span: a TAB written \\t."""
    return text.replace("\t", "\\t")


def _example(example: Example) -> list[str]:
    """A text in a fenced block (with its listings run, said so), or an edit of a chapter."""
    if example.chapter:
        where = f"{CHAPTERS[example.chapter]}, line {example.line}"
        if not example.old and not example.new:
            return ["", f"{where}, as it is."]
        written = f"`{_shown(example.new)}`" if example.new else "nothing"
        return ["", f"{where}: `{_shown(example.old)}` written {written}."]
    form = "mdx" if "<" in example.text else "text"
    ran = ["", "audited with `--run-listings`:"] if example.run_listings else []
    fence = "~~~~" if "```" in example.text else "```"
    return [*ran, "", f"{fence}{form}", *example.text.rstrip("\n").split("\n"), fence]


if __name__ == "__main__":
    PAGE.write_text(page(), encoding="utf-8")
    print(f"wrote {PAGE}", file=sys.stderr)

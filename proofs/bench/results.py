"""What the bench reports of one clause: the element and clause it judged, the verdict,
and for a failure the witness a reader can check by hand (the input, the reader's output
beside the exact value, the tolerance and where it comes from), the seed that replays it
and, when the failure looks like a known slip, a hint and the element to reread."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

VERDICTS = ("passed", "failed", "note", "not run")


@dataclass(frozen=True)
class Witness:
    """A failing case: one line of input, the reader's output and the exact value at the
    worst entry, the tolerance there and its source, and why it fails."""

    reason: str
    input: str = ""
    output: str = ""
    exact: str = ""
    tolerance: str = ""
    source: str = ""
    slight: bool = False  # every entry within a relative 1e-5: rounding, which no slip explains


@dataclass(frozen=True)
class ClauseResult:
    """The verdict on one clause of an element for one of the reader's functions."""

    element: str  # its id: prop-softmax-basic
    number: str  # 命題 3.1［自己注意］
    clause: str  # (2) 平行移動不変
    function: str
    verdict: str  # one of VERDICTS
    cases: int = 0  # inputs judged
    witness: Witness | None = None
    seed: int | None = None
    hint: str = ""
    reread: str = ""  # the element to reread, with its number
    said: str = ""  # a remark on a pass (which GELU it was judged as)
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())

    @property
    def title(self) -> str:
        return f"{self.number} {self.clause}"

    def as_dict(self) -> dict:
        return asdict(self)

"""The elements of a chapter against the registry: every element registered with its
number, kind and title, none missing or duplicated."""

from __future__ import annotations

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.registry import (
    RegisteredElement,
    load_all,
    nearest_ids,
    number_key,
)
from proofs.reader import Document
from proofs.reader.records import Element as Record

_TWO_DEFINITIONS = (  # a fragment of the self-attention chapter: its second element's id
    '# 自己注意の抜粋\n\n## 2. 準備\n\n<Definition id="def-permutation-matrix" '
    'title="置換行列・同変・不変">\n\n置換行列を定める。\n\n</Definition>\n\n'
    '<Definition id="{}" title="{}">\n\n行ごとに施す。\n\n</Definition>\n'
)
AS_REGISTERED = Rule(
    "ELT001",
    "element-as-registered",
    Section.ELEMENT,
    Severity.ERROR,
    "Each element of a chapter a package checks is the registered one: the same number, "
    "kind and title, in its own chapter (an element no check covers is listed, not "
    "checkable).",
    Example(chapter="transformer-block", line=118, old="命題 3.3（", new="命題 3.4（"),
    Example(chapter="transformer-block", line=118, old="のヤコビ行列）✓", new="のヤコビ行列）"),
)
DUPLICATED = Rule(
    "ELT002",
    "duplicated-element",
    Section.ELEMENT,
    Severity.ERROR,
    "No two elements share an MDX id or a number.",
    Example(chapter="transformer-block", line=237, old="例 5.3（", new="例 5.2（"),
    Example(chapter="transformer-block", line=239, old="語彙は 50,257", new="語彙は 50257"),
)
MISSING = Rule(
    "ELT003",
    "missing-element",
    Section.ELEMENT,
    Severity.ERROR,
    "Every element the package registers for the chapter is in it.",
    Example(
        chapter="transformer-block",
        line=196,
        old="注意 4.2（どちらが学習しやすいかは経験的な事柄）",
        new="",
    ),
    Example(
        chapter="transformer-block",
        line=214,
        old="構成要素ごとに成分の個数を数えます。",
        new="構成要素ごとに数えます。",
    ),
)
UNREGISTERED = Rule(
    "ELT004",
    "unregistered-id",
    Section.ELEMENT,
    Severity.ERROR,
    "In a chapter a package checks, every MDX id is one the package registers (a new "
    "element needs its check, or at least its stub).",
    Example(_TWO_DEFINITIONS.format("def-scaled-softmax", "温度つき softmax")),
    Example(_TWO_DEFINITIONS.format("def-softmax", "softmax とマスクつき softmax")),
)
RULES = (AS_REGISTERED, DUPLICATED, MISSING, UNREGISTERED)


def registered(
    record: Record, chapter: str, registry: dict[str, RegisteredElement]
) -> RegisteredElement | None:
    """The registered element a record is: by its MDX id, else by its number."""
    if record.id is not None:
        return registry.get(record.id)
    return next(
        (e for e in registry.values() if e.chapter == chapter and e.number == record.number),
        None,
    )


def audit_elements(document: Document, chapter: str) -> list[Finding]:
    """One finding per element of the document, then one per registered element the
    document lacks; a duplicated id or number, a number or kind that differs from the
    registered one, and an id nobody registered are mismatches."""
    registry = load_all()
    out: list[Finding] = []
    seen: dict[str, int] = {}
    for record in document.elements:
        text = f"{record.number} {record.id or record.title}".strip()
        key = record.id or record.number
        if key in seen:
            out.append(
                Finding(
                    Section.ELEMENT,
                    record.line,
                    text,
                    Status.MISMATCHED,
                    f"duplicated: {key} already stands at line {seen[key]}",
                    code=DUPLICATED.code,
                )
            )
            continue
        seen[key] = record.line
        e = registered(record, chapter, registry) or by_title(record, chapter, registry)
        if e is None and not chapter:  # a chapter without a package: nothing registered
            out.append(
                Finding(
                    Section.ELEMENT,
                    record.line,
                    text,
                    Status.NOT_CHECKABLE,
                    "no check: no package of checks registers this chapter",
                    code=AS_REGISTERED.code,
                )
            )
            continue
        if e is None:
            if record.id is not None:
                near = nearest_ids(record.id)
                hint = f" (nearest registered: {', '.join(near)})" if near else ""
                detail = f"element id {record.id!r} is not registered{hint}"
                out.append(
                    Finding(
                        Section.ELEMENT,
                        record.line,
                        text,
                        Status.MISMATCHED,
                        detail,
                        code=UNREGISTERED.code,
                    )
                )
            else:
                out.append(
                    Finding(
                        Section.ELEMENT,
                        record.line,
                        text,
                        Status.NOT_CHECKABLE,
                        "no check",
                        code=AS_REGISTERED.code,
                    )
                )
            continue
        problems = []
        if e.chapter != chapter:
            problems.append(f"{e.id} belongs to the chapter {e.chapter}")
        if e.number != record.number:
            problems.append(
                f"renumbered: the chapter numbers it {record.number}, registered as {e.number}"
            )
        if e.kind != record.kind:
            problems.append(f"its kind is {record.kind} here, registered as {e.kind}")
        if record.title and e.title != record.title:
            problems.append(f"retitled: {record.title!r} here, registered as {e.title!r}")
        if problems:
            out.append(
                Finding(
                    Section.ELEMENT,
                    record.line,
                    text,
                    Status.MISMATCHED,
                    "; ".join(problems),
                    ref=e.id,
                    code=AS_REGISTERED.code,
                )
            )
        else:
            detail = f"check {e.id} ({e.kind}; {', '.join(e.methods) or 'unchecked'})"
            out.append(
                Finding(
                    Section.ELEMENT,
                    record.line,
                    text,
                    Status.CONFIRMED,
                    detail,
                    ref=e.id,
                    code=AS_REGISTERED.code,
                )
            )
    found = {f.ref for f in out if f.ref}
    for e in registry.values():
        if e.chapter == chapter and e.id not in found:
            out.append(
                Finding(
                    Section.ELEMENT,
                    _where_missing(document, e),
                    f"{e.number} {e.id}",
                    Status.MISMATCHED,
                    f"missing: the chapter no longer has {e.number}（{e.title}）, "
                    "which the package checks",
                    code=MISSING.code,
                )
            )
    return out


def by_title(
    record: Record, chapter: str, registry: dict[str, RegisteredElement]
) -> RegisteredElement | None:
    """The registered element of the chapter with the record's title (a renumbered one)."""
    if not record.title:
        return None
    return next(
        (e for e in registry.values() if e.chapter == chapter and e.title == record.title), None
    )


def _where_missing(document: Document, element: RegisteredElement) -> int:
    """The line where a missing element would stand: that of the first element of the
    document numbered after it, else the last line."""
    after = [r.line for r in document.elements if number_key(r.number) > number_key(element.number)]
    return min(after) if after else len(document.lines)

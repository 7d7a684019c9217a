"""`proofs tables` and `proofs latex`: the chapters' tables and formulas regenerated, on
standard output or written whole to --out."""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from proofs.cli.arguments import TABLE_SUFFIXES, UsageError
from proofs.cli.verify import LoadError
from proofs.files import check_target, write_atomically
from proofs.typeset.shown import shown

# Each option of `tables` sets the builder parameters of these names (a builder takes
# one of them or none); an option set for a table whose builder takes none is an error.
TABLE_OPTIONS = {
    "d": ("d",),
    "n": ("n", "ns"),
    "vocab": ("vocab",),
    "layers": ("n_layer",),
    "n_ctx": ("n_ctx",),
    "d_ff": ("d_ff",),
    "heads": ("h", "n_head"),
    "dims": ("dims",),
    "seed": ("seed",),
}


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def _table_options(build: Callable[..., object]) -> list[str]:
    """The flags that set a builder's parameters."""
    accepted = inspect.signature(build).parameters
    return [_flag(o) for o, names in TABLE_OPTIONS.items() if any(p in accepted for p in names)]


def _table_arguments(name: str, build: Callable[..., object], args: argparse.Namespace) -> dict:
    """The options set on the command line, under the builder's own parameter names; an
    option the table does not take is a UsageError naming both (never ignored)."""
    accepted = inspect.signature(build).parameters
    out = {}
    for option, parameters in TABLE_OPTIONS.items():
        value = getattr(args, option)
        if value is None:
            continue
        target = next((p for p in parameters if p in accepted), None)
        if target is None:
            takes = ", ".join(_table_options(build)) or "no option"
            raise UsageError(f"tables: {name} does not take {_flag(option)} (it takes {takes})")
        if target == "n":
            if len(value) != 1:
                raise UsageError(
                    f"tables: {name} takes one --n, got {len(value)} values; name the tables "
                    f"to regenerate, e.g. tables attention-complexity --n "
                    f"{' '.join(map(str, value))}"
                )
            value = value[0]
        out[target] = tuple(value) if isinstance(value, list) else value
    return out


def _require_suffix(out: Path, allowed: tuple[str, ...], mode: str = "") -> None:
    """A UsageError unless --out's suffix is one of `allowed` (`mode`: what set them)."""
    if out.suffix not in allowed:
        listed = " or ".join(filter(None, (", ".join(allowed[:-1]), allowed[-1])))
        raise UsageError(f"{out}: --out must end in {listed}{mode}, got {out.suffix!r}")


def nearest(name: str, names: Iterable[str]) -> str:
    """The end of an unknown name's message: the nearest names, or all when none is near
    (there are a few dozen tables and formulas, not hundreds)."""
    from proofs.book.registry import nearest

    near = nearest(name, names)
    return f"; nearest: {', '.join(near)}" if near else f"; expected one of {', '.join(names)}"


def _emit(text: str, out: Path | None, force: bool, what: str) -> None:
    """Print `text`, or write it to `out` whole or not at all and say so on stderr."""
    if out is None:
        print(text.rstrip("\n"))
        return
    write_atomically(out, text, force)
    print(shown(f"wrote {what} to {out}"), file=sys.stderr)


def tables(args: argparse.Namespace) -> int:
    from proofs.book import registry
    from proofs.typeset.latex import header

    registered = registry.tables()
    if args.list:
        for entry in registered.values():
            options = ", ".join(_table_options(entry.build)) or "no options"
            print(f"{entry.name:21} {entry.title}\n{'':21} options: {options}")
        return 0
    names = args.names or list(registered)
    for name in names:
        if name not in registered:
            raise UsageError(f"tables: unknown table {name!r}{nearest(name, registered)}")
    fmt = args.format
    if args.out is not None:
        every = tuple(dict.fromkeys(s for listed in TABLE_SUFFIXES.values() for s in listed))
        _require_suffix(
            args.out, TABLE_SUFFIXES[fmt] if fmt else every, f" with --format {fmt}" if fmt else ""
        )
        fmt = fmt or next(f for f, listed in TABLE_SUFFIXES.items() if args.out.suffix in listed)
        if fmt == "csv" and len(names) > 1:
            raise UsageError(
                f"{args.out}: a CSV file holds one table; name one of {', '.join(names)}"
            )
        check_target(args.out, args.force)  # before the tables are computed
    fmt = fmt or "markdown"
    blocks = []
    for name in names:
        build = registered[name].build
        try:
            table = build(**_table_arguments(name, build, args))
        except (TypeError, ValueError) as exc:
            raise UsageError(f"tables: {name}: {exc}") from exc
        body = table.render(fmt)
        if len(names) > 1 or fmt in ("markdown", "text"):
            marker = "%" if fmt == "latex" else "#"
            body = f"{marker} {name}: {table.caption}\n{body}"
        blocks.append(body.rstrip("\n"))
    text = "\n\n".join(blocks) + "\n"
    if fmt == "latex":
        text = header(text, r"tables of the chapters (booktabs), to \input") + text
    _emit(text, args.out, args.force, f"{len(names)} tables" if len(names) > 1 else names[0])
    return 0


LATEX_SUFFIXES = {"equations": (".tex", ".json"), "macros": (".sty",), "standalone": (".tex",)}


def latex(args: argparse.Namespace) -> int:
    from proofs.book import registry
    from proofs.book.formulas import FormulaNotProved
    from proofs.publish import latex_files

    if args.chapter or args.book or args.run_checks or args.results or args.profile:
        from proofs.cli.print_edition import print_edition

        return print_edition(args)
    registered = registry.formulas()
    if args.list:
        for formula in registered.values():
            print(f"{formula.name:28} {formula.title}")
        return 0
    if args.paper is not None and not args.standalone:
        raise UsageError("latex: --paper sets the paper of --standalone, which is not given")
    names = args.names or list(registered)
    for name in names:
        if name not in registered:
            raise UsageError(f"latex: unknown formula {name!r}{nearest(name, registered)}")
    kind = "standalone" if args.standalone else "macros" if args.macros else "equations"
    if args.out is not None:
        _require_suffix(
            args.out, LATEX_SUFFIXES[kind], "" if kind == "equations" else f" with --{kind}"
        )
        check_target(args.out, args.force)  # before the formulas are derived
    try:
        rendered = [(registered[name], registered[name].latex()) for name in names]
    except FormulaNotProved as exc:
        raise LoadError(f"latex: {exc}; nothing written") from exc
    built = []
    if kind == "standalone" and not args.names:
        built = [entry.build() for entry in registry.tables().values()]
    if args.out is not None and args.out.suffix == ".json":
        text = json.dumps({f.name: tex for f, tex in rendered}, ensure_ascii=False, indent=2)
        text += "\n"
    elif kind == "macros":
        text = latex_files.macros(rendered, args.out.stem if args.out else None)
    elif kind == "standalone":
        text = latex_files.standalone(rendered, built, args.paper or "a4")
    else:
        text = latex_files.equations(rendered)
    tables_written = f" and {len(built)} tables" if built else ""
    _emit(text, args.out, args.force, f"{len(rendered)} formulas{tables_written}")
    return 0

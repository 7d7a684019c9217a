"""`proofs flops`: the published FLOP conventions for one configuration, each derived from
the declared contractions under its switches (symbolic.flops), with the MFU each would
report for the same run, or two conventions' difference split into their switches.

The grammar is here beside the command; proofs.cli.arguments adds it to the parser.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from proofs.cli.arguments import UsageError
from spec.config import ModelConfig
from spec.flop_conventions import CONVENTIONS, Convention
from spec.published_models import MODELS

SIZE_FLAGS = {  # option (its dest) -> spec.ModelConfig field
    "d": "d",
    "layers": "n_layer",
    "heads": "n_head",
    "context": "n_ctx",
    "vocab": "vocab",
    "d_ff": "d_ff",
}
MFU_FLAGS = ("tokens", "seconds", "peak")


def _integer(text: str) -> int:
    """A size or a number of tokens: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


def _positive(text: str) -> float:
    """--seconds, --peak: a finite number > 0 (312e12 for 312 TFLOP/s)."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {text!r}")
    return value


def add_parser(sub: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """The `flops` command's options, added to the subparsers `sub`."""
    parser = sub.add_parser(
        "flops",
        help="the published FLOP conventions for one configuration, derived and compared",
        description=(
            "Print the forward and training FLOPs of each published convention (Kaplan,\n"
            "Chinchilla, PaLM/nanoGPT, Megatron-LM, MaxText, torch.utils.flop_counter,\n"
            "fvcore, the chapters'), per token and per sequence of --context tokens, each\n"
            "derived from the declared contractions with the convention's five switches set;\n"
            "with --tokens, --seconds and --peak, the MFU each would report for that run.\n"
            "--explain A B splits A's forward FLOPs minus B's into the switches' steps.\n"
            "--json gives the same as exact integers."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs flops --model gpt2\n"
            "  python -m proofs flops --model gpt2 --tokens 491520 --seconds 1 --peak 312e12\n"
            "  python -m proofs flops --d 512 --layers 8 --heads 8 --context 2048 --vocab 32000\n"
            "  python -m proofs flops --model chinchilla-70b --explain chinchilla palm --json"
        ),
        formatter_class=formatter,
    )
    parser.add_argument("--model", metavar="NAME", help=f"one of {', '.join(MODELS)}")
    parser.add_argument("--d", type=_integer, help="model width d")
    parser.add_argument("--layers", type=_integer, help="number of blocks L")
    parser.add_argument("--heads", type=_integer, help="number of heads h (it must divide d)")
    parser.add_argument("--context", type=_integer, help="tokens a sequence: n = L_ctx")
    parser.add_argument("--vocab", type=_integer, help="vocabulary size |V|")
    parser.add_argument("--d-ff", type=_integer, help="MLP width d_ff (default 4d)")
    parser.add_argument(
        "--convention",
        default="all",
        metavar="NAME",
        help=f"one of {', '.join(CONVENTIONS)}, or all (the default)",
    )
    parser.add_argument("--tokens", type=_integer, help="tokens the run trained on (for an MFU)")
    parser.add_argument("--seconds", type=_positive, help="seconds the run took (for an MFU)")
    parser.add_argument("--peak", type=_positive, help="the hardware's peak FLOP/s (for an MFU)")
    parser.add_argument(
        "--explain",
        nargs=2,
        metavar=("A", "B"),
        help="split convention A's forward FLOPs minus B's into the steps of their switches",
    )
    parser.add_argument("--json", action="store_true", help="the same as JSON, exact integers")


def _known(kind: str, name: str, names: dict) -> None:
    if name not in names:
        from proofs.cli.tables import nearest

        raise UsageError(f"flops: unknown {kind} {name!r}{nearest(name, names)}")


def _configuration(args: argparse.Namespace) -> tuple[str, ModelConfig]:
    """The title and sizes: --model's, with the size options given replacing its own."""
    given = {field: getattr(args, flag) for flag, field in SIZE_FLAGS.items()}
    given = {field: value for field, value in given.items() if value is not None}
    if args.model is not None:
        _known("model", args.model, MODELS)
        title, preset = MODELS[args.model]
        sizes = {field: getattr(preset, field) for field in SIZE_FLAGS.values()}
        if given:
            title += " with " + ", ".join(f"{f} = {v:,}" for f, v in given.items())
    else:
        missing = [
            f"--{flag}" for flag in SIZE_FLAGS if flag != "d_ff" and getattr(args, flag) is None
        ]
        if missing:
            raise UsageError(
                f"flops: give --model NAME, or --d, --layers, --heads, --context and --vocab "
                f"(missing {', '.join(missing)})"
            )
        title, sizes = "custom", {"d_ff": 4 * given["d"]}
    sizes.update(given)
    if sizes["d"] % sizes["n_head"]:
        raise UsageError(
            f"flops: --heads must divide --d, got d = {sizes['d']} and {sizes['n_head']} heads"
        )
    return title, ModelConfig(**sizes)


def _mfu_run(args: argparse.Namespace) -> dict | None:
    chosen = [flag for flag in MFU_FLAGS if getattr(args, flag) is not None]
    if not chosen:
        return None
    if len(chosen) < len(MFU_FLAGS):
        missing = ", ".join(f"--{flag}" for flag in MFU_FLAGS if flag not in chosen)
        raise UsageError(f"flops: an MFU needs --tokens, --seconds and --peak (missing {missing})")
    return {flag: getattr(args, flag) for flag in MFU_FLAGS}


def _exact(value: Any) -> int | str:
    """An exact count for JSON: an int, or "p/q" for a fraction."""
    number = Fraction(int(value.p), int(value.q))
    return number.numerator if number.denominator == 1 else str(number)


def _count(value: int | str) -> str:
    return f"{value:,}" if isinstance(value, int) else value


def _row(convention: Convention, at: dict, tokens: int, run: dict | None) -> dict:
    from symbolic.flops import forward_flops

    forward = forward_flops(convention.switches).subs(at)
    training = 3 * forward
    row: dict[str, Any] = {
        "name": convention.name,
        "title": convention.title,
        "source": convention.source,
        "switches": vars(convention.switches),
        "forward_per_token": _exact(forward / tokens),
        "training_per_token": _exact(training / tokens),
        "forward_per_sequence": _exact(forward),
        "training_per_sequence": _exact(training),
    }
    if run is not None:
        row["mfu"] = float(training / tokens * run["tokens"] / run["seconds"] / run["peak"])
    return row


def _switches(convention: Convention) -> str:
    """The switches in a few words: vocabulary, mask, multiply-add, softmax, norms, kernel."""
    s = convention.switches
    words = [
        {"none": "no vocabulary", "logits": "logits"}.get(s.vocabulary, "logits+embedding"),
        "causal/2" if s.causal_half else "full n^2",
        f"{s.multiply_add}/multiply-add",
    ]
    words += [f"softmax {s.softmax}"] if s.softmax else []
    words += [f"LayerNorm {s.normalisation}"] if s.normalisation else []
    words += [] if s.fused_attention else ["fused unseen"]
    return ", ".join(words)


def _explanation(names: list[str], at: dict) -> dict:
    from sympy import Add

    from symbolic.flops import explain

    a, b = (CONVENTIONS[name] for name in names)
    steps = explain(a.switches, b.switches)
    total = Add(*(s.flops for s in steps))
    rows = []
    for step in steps:
        value = step.flops.subs(at)
        share = float(value / total.subs(at)) if total.subs(at) else None
        rows.append(
            {
                "switch": step.switch,
                "from": step.before,
                "to": step.after,
                "symbolic": str(step.flops),
                "flops": _exact(value),
                "share": share,
            }
        )
    return {
        "a": a.name,
        "b": b.name,
        "symbolic": str(total),
        "flops": _exact(total.subs(at)),
        "steps": rows,
    }


def _table(title: str, config: ModelConfig, report: dict) -> list[str]:
    heads = ["convention", "forward / token", "training / token", "forward / sequence"]
    heads += ["training / sequence"] + (["MFU"] if report["run"] else []) + ["switches"]
    cells = []
    for row in report["conventions"]:
        line = [row["name"]] + [
            _count(row[key])
            for key in ("forward_per_token", "training_per_token", "forward_per_sequence")
        ]
        line.append(_count(row["training_per_sequence"]))
        if report["run"]:
            line.append(f"{100 * row['mfu']:.2f} %")
        line.append(_switches(CONVENTIONS[row["name"]]))
        cells.append(line)
    widths = [max(len(r[i]) for r in [heads, *cells]) for i in range(len(heads))]

    def aligned(line: list[str]) -> str:
        numbers = [c.rjust(w) for c, w in zip(line[1:-1], widths[1:-1], strict=True)]
        return "  ".join([line[0].ljust(widths[0]), *numbers, line[-1]]).rstrip()

    lines = [
        f"{title}: d = {config.d:,}, L = {config.n_layer}, h = {config.n_head}, "
        f"d_ff = {config.d_ff:,}, |V| = {config.vocab:,}; n = {config.n_ctx:,} tokens a sequence",
        aligned(heads),
        *map(aligned, cells),
    ]
    if report["run"]:
        run = report["run"]
        lines.append(
            f"MFU = training FLOPs a token x {run['tokens']:,} tokens / {run['seconds']:g} s / "
            f"{run['peak']:g} FLOP/s"
        )
    return lines


def _explained(report: dict) -> list[str]:
    explained = report["explain"]
    lines = [
        f"{explained['a']} - {explained['b']}, forward FLOPs of one sequence: "
        f"{explained['symbolic']} = {_count(explained['flops'])}"
    ]
    for step in explained["steps"]:
        share = "" if step["share"] is None else f" ({100 * step['share']:.2f} %)"
        lines.append(
            f"  {step['switch']}: {step['from']} -> {step['to']}: {step['symbolic']} = "
            f"{_count(step['flops'])}{share}"
        )
    return lines


def flops(args: argparse.Namespace) -> int:
    from symbolic.flops import values

    title, config = _configuration(args)
    if args.convention != "all":
        _known("convention", args.convention, CONVENTIONS)
    for name in args.explain or ():
        _known("convention", name, CONVENTIONS)
    run = _mfu_run(args)
    chosen = list(CONVENTIONS) if args.convention == "all" else [args.convention]
    tokens = config.n_ctx
    at = values(config.sizes(), tokens)
    report: dict[str, Any] = {
        "model": args.model,
        "title": title,
        "sizes": config.sizes() | {"n": tokens},
        "run": run,
        "conventions": [_row(CONVENTIONS[name], at, tokens, run) for name in chosen],
    }
    if args.explain:
        report["explain"] = _explanation(args.explain, at)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    lines = _table(title, config, report)
    if args.explain:
        lines += [""] + _explained(report)
    print("\n".join(lines))
    return 0

"""Mutation testing: change one operator, constant or comparison at a time and see whether
the tests notice.

Each mutant is one edit of a module's syntax tree: an arithmetic operator swapped
(+ -, * /, ** *), an integer constant moved by one, a term dropped (a + b -> a,
a - b -> a), a comparison flipped (< <=, > >=, == !=), `and` / `or` swapped, `not`
dropped. The repository is copied once to a temporary directory; each mutant is
written there and the module's tests (TESTS) run against it with a per-mutant
timeout, so the working tree is never touched. A mutant is killed when the tests
fail or time out. Survivors are printed with their line for review: a survivor
either needs a test or is equivalent (no input tells it apart).

Run from the repository root (2 cores: --sample keeps it short; 0 runs every mutant):

    python -m benchmarks.mutation numeric/softmax.py [--sample 20] [--seed 0] [--timeout 300]
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# the tests that judge each module (its doctests run with them)
TESTS = {
    "numeric/softmax.py": ["tests/test_numeric_softmax.py", "tests/test_error_bounds.py",
                           "-k", "softmax"],
    "numeric/layer_norm.py": ["tests/test_numeric_layer_norm.py",
                              "tests/test_numeric_bad_input.py", "-k", "layer_norm"],
    "numeric/attention.py": ["tests/test_numeric_attention.py", "tests/test_numeric_kv_cache.py",
                             "tests/test_self_attention.py", "tests/test_numeric_bad_input.py",
                             "-k",
                             "attention or causal or kv or decod"],
    "symbolic/counts.py": ["tests/test_symbolic_counts.py", "tests/test_tables.py"],
    "symbolic/softmax.py": ["tests/test_symbolic_softmax.py"],
    "symbolic/layer_norm.py": ["tests/test_symbolic_layer_norm.py"],
    "symbolic/identities.py": ["tests/test_symbolic_identities.py",
                               "tests/test_symbolic_identities_of_chapters.py"],
}

SWAPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.Pow: ast.Mult, ast.FloorDiv: ast.Div,
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.And: ast.Or, ast.Or: ast.And,
}


@dataclass(frozen=True)
class Mutant:
    """One edit: the n-th candidate node of the module and what is done to it."""

    index: int  # position among the module's candidate nodes (ast.walk order)
    kind: str
    line: int
    description: str


def _candidates(tree: ast.AST) -> Iterator[tuple[ast.AST, str, str]]:
    """(node, kind, description) for every edit of the tree, in ast.walk order."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # docstrings
        if isinstance(node, ast.BinOp) and type(node.op) in SWAPS:
            yield node, "swap", f"{type(node.op).__name__} -> {SWAPS[type(node.op)].__name__}"
            if isinstance(node.op, (ast.Add, ast.Sub)):
                yield node, "drop", "a ± b -> a"
        elif isinstance(node, ast.BoolOp):
            yield node, "swap", f"{type(node.op).__name__} -> {SWAPS[type(node.op)].__name__}"
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPS:
            yield node, "flip", f"{type(node.ops[0]).__name__} -> " \
                                f"{SWAPS[type(node.ops[0])].__name__}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop", "not a -> a"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "plus", f"{node.value} -> {node.value + 1}"
            yield node, "minus", f"{node.value} -> {node.value - 1}"


def mutants(source: str) -> list[Mutant]:
    """Every mutant of a module's source."""
    out = []
    for index, (node, kind, text) in enumerate(_candidates(ast.parse(source))):
        out.append(Mutant(index, kind, getattr(node, "lineno", 0), text))
    return out


class _Apply(ast.NodeTransformer):
    def __init__(self, target: ast.AST, kind: str) -> None:
        self.target, self.kind = target, kind

    def visit(self, node: ast.AST) -> ast.AST:
        if node is not self.target:
            return self.generic_visit(node)
        if self.kind == "drop" and isinstance(node, ast.BinOp):
            return node.left
        if self.kind == "drop" and isinstance(node, ast.UnaryOp):
            return node.operand
        if isinstance(node, ast.BinOp | ast.BoolOp):
            node.op = SWAPS[type(node.op)]()
        elif isinstance(node, ast.Compare):
            node.ops = [SWAPS[type(node.ops[0])]()]
        elif isinstance(node, ast.Constant):
            node.value += 1 if self.kind == "plus" else -1
        return node


def mutated(source: str, mutant: Mutant) -> str:
    """The source with one mutant applied."""
    tree = ast.parse(source)
    target, kind, _ = list(_candidates(tree))[mutant.index]
    return ast.unparse(ast.fix_missing_locations(_Apply(target, kind).visit(tree)))


def killed(copy: Path, module: str, source: str, mutant: Mutant, timeout: float) -> bool:
    """Whether the module's tests fail (or time out) with the mutant in place."""
    path = copy / module
    path.write_text(mutated(source, mutant), encoding="utf-8")
    env = dict(os.environ, HYPOTHESIS_PROFILE="ci", PYTHONPATH=str(copy),
               PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               module, *TESTS[module]]
    try:
        run = subprocess.run(command, cwd=copy, env=env, capture_output=True, timeout=timeout,
                             check=False)
    except subprocess.TimeoutExpired:
        return True
    finally:
        path.write_text(source, encoding="utf-8")
    return run.returncode != 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", choices=sorted(TESTS))
    parser.add_argument("--sample", type=int, default=0, help="mutants per module (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        copy = Path(tmp) / "repo"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", "__pycache__",
                                                                   "*.egg-info"))
        for module in args.modules:
            source = (ROOT / module).read_text(encoding="utf-8")
            every = mutants(source)
            chosen = every if not args.sample or args.sample >= len(every) else sorted(
                random.Random(args.seed).sample(every, args.sample), key=lambda m: m.index)
            survivors = [m for m in chosen if not killed(copy, module, source, m, args.timeout)]
            print(f"{module}: {len(chosen) - len(survivors)} of {len(chosen)} mutants killed "
                  f"({len(every)} in all)", flush=True)
            lines = source.splitlines()
            for m in survivors:
                print(f"  survived #{m.index} line {m.line} {m.description}: "
                      f"{lines[m.line - 1].strip()[:80]}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

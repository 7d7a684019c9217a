"""Mutation testing: change one operator, constant or comparison at a time and see whether
the tests notice.

Each mutant is one edit of a module's syntax tree: an arithmetic operator swapped
(+ -, * /, ** *), an integer constant moved by one, a term dropped (a + b -> a,
a - b -> a), a comparison flipped (< <=, > >=, == !=), `and` / `or` swapped, `not`
dropped. A mutant is killed when the tests fail or time out; a survivor either needs a
test or is equivalent (no input tells it apart: listed in EQUIVALENT with the reason, and
left out of the score). The working tree is never touched. Three stages keep a full run
of the seven modules (about 1,500 mutants) within reach of two cores:

1. coverage: the whole suite runs once under coverage with each test function as its
   context, which gives, for every line of the modules, the tests that execute it
   (saved with --map and reused: a module edited since keeps the tests of its unchanged
   lines; --fresh-map remakes it);
2. screen: the test modules are imported once; each mutant runs in a forked child that
   swaps in the code of the one function it changes and runs the module's doctests and
   the tests that execute its line, the module's own test files first, stopping at the
   first failure;
3. confirm: every mutant the screen leaves alive, or cannot apply in place (module
   constants, default values, decorators), is written into a copy of the repository and
   the same tests run in a fresh interpreter: no state cached in the parent, and the
   commands the tests start see the mutant too.

Run from the repository root, with coverage installed (`pip install -e ".[mutation]"`):

    python -m benchmarks.mutation numeric/softmax.py [--sample 20] [--seed 0] [--jobs 2]
        [--timeout 900] [--map /tmp/mutation-map.json] [--fresh-map] [--only 3,17]
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import difflib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# each module's own test files (and the numeric modules' bad-input catalogue): they run
# first, being the likeliest to kill its mutants
TESTS = {
    "numeric/softmax.py": ["tests/numeric/test_softmax.py", "tests/numeric/test_bad_input.py"],
    "numeric/layer_norm.py": [
        "tests/numeric/test_layer_norm.py",
        "tests/numeric/test_bad_input.py",
    ],
    "numeric/attention.py": ["tests/numeric/test_attention.py", "tests/numeric/test_bad_input.py"],
    "numeric/activations.py": [
        "tests/numeric/test_activations.py",
        "tests/numeric/test_bad_input.py",
    ],
    "numeric/chunks.py": ["tests/numeric/test_activations.py"],
    "symbolic/counts.py": ["tests/symbolic/test_counts.py"],
    "symbolic/softmax.py": ["tests/symbolic/test_softmax.py"],
    "symbolic/layer_norm_definition.py": ["tests/symbolic/test_layer_norm_definition.py"],
    "symbolic/layer_norm_general.py": ["tests/symbolic/test_layer_norm_general.py"],
    # reached through the explicit widths' entry points, whose tests check its size limits
    "symbolic/layer_norm_differentiation.py": [
        "tests/symbolic/test_layer_norm_differentiation.py",
        "tests/symbolic/test_layer_norm_explicit.py",
    ],
    "symbolic/layer_norm_explicit.py": ["tests/symbolic/test_layer_norm_explicit.py"],
    "symbolic/layer_norm_moments.py": ["tests/symbolic/test_layer_norm_moments.py"],
    "symbolic/radicals.py": [
        "tests/symbolic/test_radicals.py",
        "tests/symbolic/test_identities_of_chapters.py",
    ],
    "symbolic/polynomials.py": ["tests/symbolic/test_polynomials.py"],
    "symbolic/quotients.py": ["tests/symbolic/test_quotients.py"],
    "symbolic/identities.py": [
        "tests/symbolic/test_identities.py",
        "tests/symbolic/test_identities_of_chapters.py",
    ],
    "symbolic/certificates.py": [
        "tests/symbolic/test_certificates.py",
        "tests/symbolic/test_identities_of_chapters.py",
    ],
    "symbolic/sums.py": [
        "tests/symbolic/test_sums.py",
        "tests/symbolic/test_identities_of_chapters.py",
    ],
    "symbolic/orders.py": ["tests/symbolic/test_orders.py"],
    "proofs/audit/rules/counted.py": ["tests/audit/test_counted.py"],
    "proofs/audit/rules/cited.py": ["tests/audit/test_cited.py"],
    "proofs/evidence/remembered.py": ["tests/evidence/test_remembered.py"],
    "proofs/evidence/reference.py": ["tests/evidence/test_reference.py"],
    "cache/remembered.py": ["tests/cache/test_remembered.py", "tests/cache/test_folders.py"],
    "cache/folders.py": ["tests/cache/test_folders.py", "tests/cache/test_remembered.py"],
    "cache/seal.py": ["tests/cache/test_seal.py", "tests/cache/test_remembered.py"],
    "cache/secret.py": ["tests/cache/test_secret.py", "tests/cache/test_remembered.py"],
    "cache/fingerprint.py": ["tests/cache/test_fingerprint.py"],
    "cache/codec.py": ["tests/cache/test_remembered.py"],
    "symbolic/kept.py": ["tests/symbolic/test_kept.py"],
    "proofs/tex/witness.py": ["tests/tex/test_witness.py"],
    "proofs/audit/rules/table_rows.py": ["tests/audit/test_table_rows.py"],
    "proofs/audit/deciding/defined.py": ["tests/audit/test_defined.py"],
    "proofs/audit/deciding/instances.py": ["tests/audit/test_defined.py"],
    "proofs/audit/reports/coverage.py": ["tests/audit/test_coverage.py"],
    "proofs/audit/suppressions.py": [
        "tests/audit/test_suppressions.py",
        "tests/audit/test_rules.py",
    ],
    "proofs/audit/selection.py": ["tests/audit/test_selection.py", "tests/cli/test_linting.py"],
    "proofs/audit/rules/restated.py": [
        "tests/audit/test_restated.py",
        "tests/audit/test_unseen_rules.py",
    ],
}

TEST_FOLDERS = ("tests",)
# whole-chapter runs (every case audits or verifies a chapter: minutes per mutant) are left
# out; a mutant only they would kill counts as a survivor, so the score errs low
WHOLE_CHAPTER = (
    "tests/audit/test_slips.py",
    "tests/cli/test_cli.py",
    "tests/audit/test_audit.py",
    "tests/typeset/test_figures.py",
)

PICKS_THE_NON_ZERO_BRANCH = (
    "every point of (0, 1) picks the 2 x 2's non-zero eigenvalue; at 0 "
    "both vanish and max keeps SymPy's first, the non-zero one"
)
SHARED_SYMBOLS = (
    "shared = set.intersection(*(t.free_symbols for t in terms)) if len(terms) > 1 else {1}"
)
ONE_TERM_UNDER_A_ROOT = (
    "only a single term without free symbols changes branch, and SymPy "
    "leaves it one non-negative number under a root or a negative power; "
    "both branches then give that number alone"
)
EXPONENT_ZERO = "they differ at exponent 0 only, which SymPy evaluates away (b**0 is 1)"
ZERO_POLYNOMIAL = "the default serves the zero polynomial only, whose loop over terms is empty"
ONE_LIMIT = "only sums with one limit get there: limits[0] is limits[-1]"
SPLIT_ONLY = (
    "it only changes how the array is split into pieces or threads (or NumPy's "
    "reshape(-2), which it reads as reshape(-1)); every entry meets the same "
    "operations"
)
# (module, source line stripped, mutation) -> why no input tells the mutant apart
_KEPT_SIZE = "only how many entries stay kept; every entry is recomputed the same when dropped"
_REFERENCE = "proofs/evidence/reference.py"
_TOKEN_LENGTH = (
    "only how unlikely two writers are to pick the same scratch name, which O_EXCL refuses "
    "(that write is skipped); the cleanup knows an entry's scratch file by a random part of "
    "any length"
)
_ENTRY_LIMIT = "LIMIT = 1 << 24  # bytes of an entry read at most (the largest today: 14 kB)"
EQUIVALENT: dict[tuple[str, str, str], str] = {
    (_REFERENCE, "if a.dtype == object:", "Eq -> NotEq"): (
        "which arrays' conversions are kept, not their values: a point of mpf (each one new in a "
        "central difference) is converted every time rather than filling the kept ones"
    ),
    ("cache/fingerprint.py", "@functools.lru_cache(maxsize=1)", "1 -> 2"): _KEPT_SIZE,
    ("cache/fingerprint.py", "@functools.lru_cache(maxsize=1)", "1 -> 0"): _KEPT_SIZE,
    **{
        (module, line, change): _TOKEN_LENGTH
        for module, line in (
            ("cache/folders.py", 'scratch = f".{entry}.{secrets.token_hex(8)}.part"'),
            ("cache/secret.py", 'scratch = path.with_name(f".{path.name}.{secrets.token_hex(8)}")'),
        )
        for change in ("8 -> 9", "8 -> 7")
    },
    **{
        ("cache/folders.py", _ENTRY_LIMIT, change): (
            "only how large an entry may be before it is not read: the tests set the limit "
            "on either side of an entry's size"
        )
        for change in ("1 -> 2", "24 -> 25", "24 -> 23")
    },
    (
        _REFERENCE,
        "DIGITS = 50  # the working precision of the references (far beyond float64's 16 digits)",
        "50 -> 51",
    ): "a digit more or less of a precision 34 digits beyond float64's moves no verdict",
    (
        _REFERENCE,
        "DIGITS = 50  # the working precision of the references (far beyond float64's 16 digits)",
        "50 -> 49",
    ): "a digit more or less of a precision 34 digits beyond float64's moves no verdict",
    (
        _REFERENCE,
        "return [[columns[j][i] for j in range(len(base))] for i in range(len(columns[0]))]",
        "0 -> -1",
    ): "every column has the same length: the last one's is the first one's",
    (
        "proofs/evidence/remembered.py",
        "SIZE = 4096  # entries kept per function, the least recently used dropped first",
        "4096 -> 4097",
    ): "only how many entries stay; a test sets the size to see the eviction order",
    (
        "proofs/evidence/remembered.py",
        "SIZE = 4096  # entries kept per function, the least recently used dropped first",
        "4096 -> 4095",
    ): "only how many entries stay; a test sets the size to see the eviction order",
    (
        "proofs/evidence/remembered.py",
        "h = hashlib.blake2b(digest_size=16)",
        "16 -> 17",
    ): "another digest length keys the same contents apart just as well",
    (
        "proofs/evidence/remembered.py",
        "h = hashlib.blake2b(digest_size=16)",
        "16 -> 15",
    ): "another digest length keys the same contents apart just as well",
    (
        "numeric/attention.py",
        "CAUSAL_BLOCK = 128  # query rows per block of causal attention",
        "128 -> 129",
    ): "the block size only groups query rows; each row is computed alike",
    (
        "numeric/attention.py",
        "CAUSAL_BLOCK = 128  # query rows per block of causal attention",
        "128 -> 127",
    ): "the block size only groups query rows; each row is computed alike",
    (
        "numeric/attention.py",
        "return (out[0], weights[0]) if single else (out, weights)",
        "0 -> -1",
    ): "a single head is an axis of size 1: index 0 is index -1",
    (
        "symbolic/softmax.py",
        "form = (v.T * jacobian(sigma) * v)[0, 0]",
        "0 -> -1",
    ): "the quadratic form is a 1 x 1 matrix: index 0 is index -1",
    **{
        (
            module,
            f"@lru_cache(maxsize={size})",
            f"{size} -> {size + step}",
        ): "a cache's size, not a value"
        for module, size in (
            ("symbolic/softmax.py", 1),
            ("symbolic/layer_norm_general.py", 1),
            ("symbolic/radicals.py", 4096),
        )
        for step in (1, -1)
    },
    **{
        ("symbolic/softmax.py", line, change): PICKS_THE_NON_ZERO_BRANCH
        for line in (
            "top = max(eig, key=lambda e: e.subs(s, Rational(1, 3)))  # the non-zero branch",
            "top = max(result.eigenvalues, key=lambda e: e.subs(s, Rational(1, 3)))",
        )
        for change in ("1 -> 2", "1 -> 0", "3 -> 4", "3 -> 2")
    },
    (
        "symbolic/softmax.py",
        "critical = tuple(c for c in solve(diff(top, s), s) if 0 < c < 1)",
        "0 -> -1",
    ): "s is declared positive, so solve returns no root c <= 0",
    **{
        ("symbolic/radicals.py", line, change): why
        for line, change, why in (
            (
                "if gens and base.is_polynomial(*gens):",
                "And -> Or",
                "without free symbols the ring gives the same rational or raises ValueError, "
                "caught; "
                "with them from_expr raises ValueError on a non-polynomial, caught the same way",
            ),
            (SHARED_SYMBOLS, "Gt -> GtE", ONE_TERM_UNDER_A_ROOT),
            (SHARED_SYMBOLS, "1 -> 0", ONE_TERM_UNDER_A_ROOT),
            ("if f == 1:", "1 -> 0", "no factor is 0 here, and a factor 1 is taken just before"),
            (
                "if e.is_Integer and e >= 2 and not isinstance(b, Add) and b.is_positive:",
                "2 -> 1",
                "at e = 1 the branch multiplies by b**0 and leaves f = b",
            ),
            ("if p.exp.is_Integer and p.exp < 0:", "Lt -> LtE", EXPONENT_ZERO),
            ("if p.exp.is_Integer and p.exp < 0:", "0 -> 1", EXPONENT_ZERO),
            ("if g and grads[r][j]:", "And -> Or", "the product added is 0 when either factor is"),
            ("top = max((m[k] for m in poly.monoms()), default=0)", "0 -> 1", ZERO_POLYNOMIAL),
            ("top = max((m[k] for m in poly.monoms()), default=0)", "0 -> -1", ZERO_POLYNOMIAL),
            (
                "top = max((m[k] for m in f.monoms()), default=0)  # reduce multiplied by r^top",
                "0 -> 1",
                ZERO_POLYNOMIAL,
            ),
            (
                "top = max((m[k] for m in f.monoms()), default=0)  # reduce multiplied by r^top",
                "0 -> -1",
                ZERO_POLYNOMIAL,
            ),
        )
    },
    **{
        ("symbolic/polynomials.py", line, change): why
        for line, change, why in (
            (
                "powers: dict[int, SparsePolynomial] = {0: SparsePolynomial({(): 1})}",
                "0 -> -1",
                "a cache entry: value**0 is recomputed as the same 1",
            ),
            (
                "return L, (self * L if L != 1 else self)",
                "1 -> 0",
                "L is never 0, and self * 1 has the same int terms",
            ),
        )
    },
    **{
        ("symbolic/quotients.py", line, change): why
        for line, change, why in (
            (
                "return f / scale if scale != 1 else f",
                "1 -> 0",
                "scale is never 0, and f / 1 has the same int terms",
            ),
            ("if powers.get(1, 0) >= 2:", "0 -> 1", "the default stands for a missing y_1: 1 < 2"),
            (
                "if powers.get(1, 0) >= 2:",
                "0 -> -1",
                "the default stands for a missing y_1: -1 < 2",
            ),
        )
    },
    **{
        ("symbolic/sums.py", line, change): why
        for line, change, why in (
            ("if c >= 0:", "GtE -> Gt", "at c = 0 both branches add an empty sum"),
            ("if c >= 0:", "0 -> 1", "at c = 0 both branches add an empty sum"),
            ("(index, _, _), body = key.limits[0], key.function", "0 -> -1", ONE_LIMIT),
            (
                "if not (isinstance(key, Sum) and len(key.limits) == 1"
                " and key.limits[0][1:] == (1, n)):",
                "0 -> -1",
                ONE_LIMIT,
            ),
        )
    },
    **{
        (
            "numeric/attention.py",
            "record(WEIGHTED_SUM, np.broadcast_to(q.dtype.type(0), (h, n, m)), v)",
            change,
        ): "record reads the operands' shapes only: the broadcast value is never read"
        for change in ("0 -> 1", "0 -> -1")
    },
    **{
        (
            "numeric/layer_norm.py",
            "r[constant] = 0  # c = 0 there; 1 / sqrt(eps 2^-2e) may be inf after an underflow",
            change,
        ): "r is only ever multiplied by c, exactly 0 on a constant row: any finite r"
        for change in ("0 -> 1", "0 -> -1")
    },
    (
        "numeric/layer_norm.py",
        "one / np.sqrt(var + np.where(big, 0, eps_scaled)),",
        "0 -> 1",
    ): "on big rows the outer where takes the other branch: the value added is never used",
    (
        "symbolic/layer_norm_moments.py",
        "return normalise(a * x + b * ones(d, 1)) - normalise(x)",
        "Add -> Sub",
    ): "b is any real, so a x - b 1 runs over the same shifts as a x + b 1",
    **{
        ("numeric/activations.py", line, change): SPLIT_ONLY
        for line, changes in (
            (
                "PARALLEL_MIN_SIZE = 1 << 16  # below this, threads cost more than they save",
                ("1 -> 2", "1 -> 0", "16 -> 17", "16 -> 15"),
            ),
            ("workers = os.cpu_count() or 1", ("Or -> And", "1 -> 2", "1 -> 0")),
            (
                "if workers == 1 or t.size < PARALLEL_MIN_SIZE:",
                ("Or -> And", "Eq -> NotEq", "Lt -> LtE", "1 -> 2", "1 -> 0"),
            ),
            ("flat = np.ascontiguousarray(t).reshape(-1)", ("1 -> 2",)),
            (
                "flat = np.ascontiguousarray(t).reshape(-1)  # (size,), t itself when contiguous",
                ("1 -> 2",),
            ),
            (
                "for piece in row_chunks(flat.size, 1):"
                "  # seven passes, each over a piece in cache",
                ("1 -> 2", "1 -> 0"),
            ),
            (
                "bounds = np.linspace(0, flat.size, workers + 1).astype(int)",
                ("a ± b -> a", "1 -> 2", "1 -> 0"),
            ),
        )
        for change in changes
    },
}

SWAPS: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.Pow: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.And: ast.Or,
    ast.Or: ast.And,
}
NOT_APPLIED = 97  # a screening child's exit status when the mutant cannot be swapped in


@dataclass(frozen=True)
class Mutant:
    """One edit: the n-th candidate node of the module and what is done to it."""

    module: str
    index: int  # position among the module's candidate nodes (ast.walk order)
    kind: str
    line: int
    statement: int  # the first line of the statement holding the edit: coverage's line
    description: str
    function: str | None  # qualified name of the function whose body holds the edit


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
            yield (
                node,
                "flip",
                f"{type(node.ops[0]).__name__} -> {SWAPS[type(node.ops[0])].__name__}",
            )
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop", "not a -> a"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "plus", f"{node.value} -> {node.value + 1}"
            yield node, "minus", f"{node.value} -> {node.value - 1}"


def _function_of(tree: ast.Module, target: ast.AST) -> str | None:
    """Qualified name of the module's function or method whose body holds target; None
    outside every function body (module code, class bodies, defaults, decorators)."""

    def search(statements: list[ast.stmt], prefix: str) -> str | None:
        for statement in statements:
            if isinstance(statement, ast.ClassDef):
                found = search(statement.body, f"{prefix}{statement.name}.")
                if found:
                    return found
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                node is target for part in statement.body for node in ast.walk(part)
            ):
                return prefix + statement.name
        return None

    return search(tree.body, "")


def _statement_lines(tree: ast.Module) -> dict[ast.AST, int]:
    """Each node's innermost enclosing statement's first line."""
    lines: dict[ast.AST, int] = {}

    def visit(node: ast.AST, line: int) -> None:
        line = node.lineno if isinstance(node, ast.stmt) else line
        lines[node] = line
        for child in ast.iter_child_nodes(node):
            visit(child, line)

    visit(tree, 0)
    return lines


def mutants(module: str, source: str) -> list[Mutant]:
    """Every mutant of a module's source."""
    tree = ast.parse(source)
    statement = _statement_lines(tree)
    return [
        Mutant(
            module,
            index,
            kind,
            getattr(node, "lineno", 0),
            statement[node],
            text,
            _function_of(tree, node),
        )
        for index, (node, kind, text) in enumerate(_candidates(tree))
    ]


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


# --- stage 1: which tests execute each line ----------------------------------------------


def _source(module: str) -> str:
    return (ROOT / module).read_text(encoding="utf-8")


def carried_lines(old: str, new: str, lines: dict[int, list[str]]) -> dict[int, list[str]]:
    """A map made from source `old` moved onto source `new`: each unchanged line keeps its
    tests, a changed or added line has none (its mutants run the own test files only)."""
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    moved = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            if (tests := lines.get(block.a + k + 1)) is not None:
                moved[block.b + k + 1] = tests
    return moved


def _node_id(context: str) -> str | None:
    """pytest's node id of a coverage context `tests.numeric.test_softmax.Class.test_y` (the
    suite imports its modules by their path from the root, --import-mode=importlib; a
    context `test_x.test_y`, of a module imported by its stem, is looked up in tests/)."""
    parts = context.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        for folder in ("", *TEST_FOLDERS):
            path = Path(folder, *parts[: cut - 1], parts[cut - 1] + ".py").as_posix()
            if (ROOT / path).is_file():
                return "::".join([path, *parts[cut:]])
    return None


def coverage_map(modules: list[str]) -> dict[str, dict[int, list[str]]]:
    """module -> line -> contexts (test functions) that execute it, from one suite run."""
    import coverage

    with tempfile.TemporaryDirectory(prefix="mutation-coverage-") as tmp:
        rc, data_file = Path(tmp) / "coveragerc", Path(tmp) / "coverage-data"
        rc.write_text(
            f"[run]\ndynamic_context = test_function\ndata_file = {data_file}\n", encoding="utf-8"
        )
        subprocess.run(
            [
                sys.executable,
                "-m",
                "coverage",
                "run",
                f"--rcfile={rc}",
                f"--include={','.join(modules)}",
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
            ],
            cwd=ROOT,
            env=_environment(ROOT),
            capture_output=True,
            check=False,
        )
        data = coverage.CoverageData(basename=str(data_file))
        data.read()
        lines: dict[str, dict[int, list[str]]] = {}
        for module in modules:
            by_line = data.contexts_by_lineno(str(ROOT / module))
            lines[module] = {line: sorted(set(contexts)) for line, contexts in by_line.items()}
    return lines


def load_map(
    path: Path | None, modules: list[str], fresh: bool = False
) -> dict[str, dict[int, list[str]]]:
    """The modules' coverage maps from path, carried onto any module edited since (a test
    added outside a module's own files needs a fresh map); a fresh one for all modules
    when asked or when path has none."""
    saved = json.loads(path.read_text(encoding="utf-8")) if path and path.is_file() else {}
    if fresh or any(m not in saved for m in modules):
        saved = {
            m: {"source": _source(m), "lines": lines}
            for m, lines in coverage_map(sorted(TESTS)).items()
        }
        if path:
            path.write_text(json.dumps(saved), encoding="utf-8")
    maps = {}
    for m in modules:
        lines = {int(k): v for k, v in saved[m]["lines"].items()}
        if saved[m]["source"] != _source(m):
            print(
                f"{m}: edited since its coverage map; unchanged lines keep their tests", flush=True
            )
            lines = carried_lines(saved[m]["source"], _source(m), lines)
        maps[m] = lines
    return maps


def selection(mutant: Mutant, lines: dict[int, list[str]], known: set[str]) -> list[str]:
    """The module's doctests and own test files, then the other tests that execute the
    mutant's line and still exist (`known`: a test renamed since the coverage map was made
    would make pytest exit "not found", which is not a kill); all of the own files run,
    so a test added to them counts at once."""
    own = TESTS[mutant.module]
    if mutant.function is None:  # run at import, before any test's context
        return [mutant.module, *own]
    covering = {n for context in lines.get(mutant.statement, []) if (n := _node_id(context))}
    return [
        mutant.module,
        *own,
        *sorted(n for n in covering & known if n.split("::")[0] not in (*own, *WHOLE_CHAPTER)),
    ]


def collected_tests() -> set[str]:
    """The node id of every test function the suite collects now (parameters left out),
    collected in this process, which imports the test modules once before the screen forks."""
    import pytest

    class Names:
        def __init__(self) -> None:
            self.found: set[str] = set()

        def pytest_collection_modifyitems(self, items: list) -> None:
            self.found.update(item.nodeid.split("[")[0] for item in items)

    names = Names()
    os.environ.update(_environment(ROOT))
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider"], plugins=[names])
    return names.found


# --- stage 2: screen in forked children -----------------------------------------------------


def _environment(root: Path) -> dict[str, str]:
    return dict(
        os.environ,
        HYPOTHESIS_PROFILE="ci",
        PYTHONPATH=str(root),
        PYTHONDONTWRITEBYTECODE="1",
        OPENBLAS_NUM_THREADS="1",
        OMP_NUM_THREADS="1",
    )


def _live_functions(module: types.ModuleType) -> dict[str, list[types.FunctionType]]:
    """The module's functions and methods by their code's qualified name, unwrapped from
    caches, wrappers, static and class methods and properties."""
    found: dict[str, list[types.FunctionType]] = {}

    def add(obj: object, depth: int = 0) -> None:
        if depth > 8:
            return
        if isinstance(obj, types.FunctionType) and obj.__code__.co_filename == module.__file__:
            found.setdefault(obj.__code__.co_qualname, []).append(obj)
        for inner in ("__wrapped__", "__func__", "fget", "fset", "fdel"):
            if (wrapped := getattr(obj, inner, None)) is not None:
                add(wrapped, depth + 1)
        if isinstance(obj, type) and obj.__module__ == module.__name__:
            for value in vars(obj).values():
                add(value, depth + 1)

    for value in list(vars(module).values()):
        add(value)
    return found


def _code_named(code: types.CodeType, qualname: str) -> types.CodeType | None:
    if code.co_qualname == qualname:
        return code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType) and (found := _code_named(constant, qualname)):
            return found
    return None


def _clear_caches() -> None:
    """Empty the package's caches: the parent may have filled them with unmutated code."""
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in {
            "cache",
            "numeric",
            "symbolic",
            "proofs",
            "spec",
        }:
            continue
        for value in list(vars(module).values()):
            if callable(clear := getattr(value, "cache_clear", None)):
                clear()


def _screen_child(mutant: Mutant, source: str, tests: list[str]) -> None:
    """In a forked child: swap the mutated function's code in, run the tests, exit."""
    import importlib

    import pytest

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    module = importlib.import_module(mutant.module.removesuffix(".py").replace("/", "."))
    compiled = compile(mutated(source, mutant), module.__file__ or "", "exec")
    code = _code_named(compiled, mutant.function or "")
    live = _live_functions(module).get(mutant.function or "", [])
    if code is None or not live:
        os._exit(NOT_APPLIED)
    try:
        for function in live:
            function.__code__ = code
    except ValueError:  # a changed closure: only a fresh import can apply it
        os._exit(NOT_APPLIED)
    _clear_caches()
    os._exit(int(pytest.main([*tests, "-x", "-q", "-p", "no:cacheprovider"])))


def screen(
    chosen: list[tuple[Mutant, list[str]]], sources: dict[str, str], jobs: int, timeout: float
) -> dict[Mutant, str]:
    """Outcome of each mutant in forked children: killed, timeout, survived or unapplied
    (the test modules are already imported: `collected_tests`)."""
    outcome: dict[Mutant, str] = {}
    pending = [(m, tests) for m, tests in chosen if m.function]
    outcome.update({m: "unapplied" for m, _ in chosen if not m.function})
    running: dict[int, tuple[Mutant, float]] = {}
    total, began = len(pending), time.monotonic()
    while pending or running:
        while pending and len(running) < jobs:
            mutant, tests = pending.pop(0)
            pid = os.fork()
            if pid == 0:
                try:
                    _screen_child(mutant, sources[mutant.module], tests)
                finally:
                    os._exit(NOT_APPLIED)
            running[pid] = (mutant, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid:
            mutant, _ = running.pop(pid)
            code = os.waitstatus_to_exitcode(status)
            outcome[mutant] = {0: "survived", 1: "killed"}.get(code, "unapplied")
            _progress(total - len(pending) - len(running), total, began)
            continue
        for pid, (mutant, start) in list(running.items()):
            if time.monotonic() - start > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                running.pop(pid)
                outcome[mutant] = "timeout"
        time.sleep(0.02)
    return outcome


def _progress(done: int, total: int, began: float) -> None:
    """A line on stderr every 25 screened mutants: a full run takes up to an hour."""
    if done % 25 == 0 or done == total:
        print(
            f"screened {done} / {total} in {time.monotonic() - began:.0f} s",
            file=sys.stderr,
            flush=True,
        )


# --- stage 3: confirm in a fresh interpreter ------------------------------------------------


def confirm(copy: Path, mutant: Mutant, source: str, tests: list[str], timeout: float) -> str:
    """killed, timeout or survived, with the mutant written into the copy of the repository;
    error when pytest itself could not run the tests (usage, collection, internal error)."""
    path = copy / mutant.module
    path.write_text(mutated(source, mutant), encoding="utf-8")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    try:
        run = subprocess.run(
            command,
            cwd=copy,
            env=_environment(copy),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    finally:
        path.write_text(source, encoding="utf-8")
    return {0: "survived", 1: "killed"}.get(run.returncode, "error")


def report(
    module: str, every: int, chosen: list[Mutant], outcome: dict[Mutant, str], source: str
) -> None:
    lines = source.splitlines()
    alive = [m for m in chosen if outcome[m] == "survived"]
    errors = [m for m in chosen if outcome[m] == "error"]
    equivalent = {
        m: EQUIVALENT[key]
        for m in alive
        if (key := (module, lines[m.line - 1].strip(), m.description)) in EQUIVALENT
    }
    killed = len(chosen) - len(alive) - len(errors)
    counted = len(chosen) - len(equivalent) - len(errors)
    score = killed / counted if counted else 1.0
    timeouts = sum(outcome[m] == "timeout" for m in chosen)
    print(
        f"{module}: {killed} of {len(chosen)} mutants killed ({timeouts} by timeout), "
        f"{len(equivalent)} equivalent, {len(errors)} not run; score {killed}/{counted} = "
        f"{score:.1%} ({every} mutants in all)",
        flush=True,
    )
    for m in errors:
        print(
            f"  not run #{m.index} line {m.line} {m.description}: pytest could not run "
            "its tests (rerun it alone)",
            flush=True,
        )
    for m in alive:
        why = f" [equivalent: {equivalent[m]}]" if m in equivalent else ""
        print(
            f"  survived #{m.index} line {m.line} {m.description}: "
            f"{lines[m.line - 1].strip()[:80]}{why}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", choices=sorted(TESTS))
    parser.add_argument("--sample", type=int, default=0, help="mutants per module (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--only",
        type=lambda text: {int(i) for i in text.split(",")},
        help="these mutant numbers only (e.g. the last run's survivors)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per mutant")
    parser.add_argument("--map", type=Path, help="file keeping the coverage map between runs")
    parser.add_argument("--fresh-map", action="store_true", help="remake the coverage map")
    args = parser.parse_args(argv)
    lines = load_map(args.map, args.modules, args.fresh_map)
    known = collected_tests()
    sources = {m: (ROOT / m).read_text(encoding="utf-8") for m in args.modules}
    chosen: list[tuple[Mutant, list[str]]] = []
    for module in args.modules:
        every = [
            m for m in mutants(module, sources[module]) if args.only is None or m.index in args.only
        ]
        picked = (
            every
            if not args.sample or args.sample >= len(every)
            else sorted(random.Random(args.seed).sample(every, args.sample), key=lambda m: m.index)
        )
        chosen += [(m, selection(m, lines[module], known)) for m in picked]
    outcome = screen(chosen, sources, args.jobs, args.timeout)
    for module in args.modules:  # what the confirm stage takes, known before it starts
        left = [
            str(m.index)
            for m, _ in chosen
            if m.module == module and outcome[m] in {"survived", "unapplied"}
        ]
        print(
            f"{module}: {len(left)} left for the confirm stage: --only {','.join(left)}",
            file=sys.stderr,
            flush=True,
        )
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        copy = Path(tmp) / "repo"
        shutil.copytree(
            ROOT,
            copy,
            ignore=shutil.ignore_patterns(
                ".git", "__pycache__", "*.egg-info", "node_modules", ".venv"
            ),
        )
        for mutant, tests in chosen:
            if outcome[mutant] in {"survived", "unapplied"}:
                outcome[mutant] = confirm(copy, mutant, sources[mutant.module], tests, args.timeout)
    for module in args.modules:
        report(
            module,
            len(mutants(module, sources[module])),
            [m for m, _ in chosen if m.module == module],
            outcome,
            sources[module],
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

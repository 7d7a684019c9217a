#!/usr/bin/env python3
"""Recompute every number printed in training.txt (the rendered-text chapter of the corpus).

Standalone: NumPy, math and fractions only; the transformer-proofs package is not
imported. Each printed number is located on its line (the line is found by a short
anchor, so the script follows the chapter when lines move), recomputed from the
chapter's settings, formatted the way the chapter prints it and compared:

    line <n>: <printed> == <recomputed>

Rounding: a recomputed value is rounded to the printed number of decimals (or
significant digits after `\\times 10^{k}`) with ROUND_HALF_EVEN on its exact value
(Fractions exactly, floats by their binary value). The chapter avoids ties: a value
that lies within 1e-9 of a rounding tie is reported as an error too.

The listing (from its `# Python` line to the next line of prose; its last paragraph is
the printed output) is extracted, run in a temporary directory and its output compared
with the chapter's line by line and number by number. Every number written with a
decimal point or a thousands separator outside code must be covered by some check;
-v lists the small integers left unchecked (counts, indices, settings).

Usage: python3 recompute_training.py [chapter file] [-v]

Exit status 0 when every printed number equals its recomputation, 1 otherwise.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import tempfile
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
from harness import (
    COUNT,
    COVERED,
    FAILURES,
    LINES,
    TALLY,
    TOKEN,
    VERBOSE,
    check,
    check_text,
    line_of,
    load,
)

CHAPTER = load("training.txt")

# ---------------------------------------------------------------- the chapter's settings

z = np.array([1.0, 2.0, 0.5])  # the running example of 2 節
Y = 1  # the correct token y = 2 (0-based 1)


def softmax(v):
    e = np.exp(v - v.max())
    return e / e.sum()


def lse(v):
    m = float(v.max())
    return m + math.log(float(np.exp(v - m).sum()))


def smoothed(y, V, eps):
    q = np.full(V, eps / V)
    q[y] += 1 - eps
    return q


def entropy(q):
    return float(-(q * np.log(q)).sum())


p = softmax(z)
grad = p - np.eye(3)[Y]

# ---------------------------------------------------------------- section 2-3

check("この章では語彙が 3 個の", "0.5", z[2])
check("Vaswani らは翻訳モデルの学習で", "0.1", 0.1)

ln = line_of("倍精度の浮動小数点数の最大値は約")
fmax = float(np.finfo(np.float64).max)
check(ln, "1.7977 \\times 10^{308}", fmax, times=2)
check(ln, "709.78", math.log(fmax))
check(ln, "710", math.ceil(math.log(fmax)), context="成分が 710 を超える")

ln = line_of("$\\boldsymbol{z} = (1, 2, 0.5)$、$y = 2$ とします")
check(ln, "0.5", z[2], times=2)
check(ln, "2.7183", math.exp(z[0]))
check(ln, "7.3891", math.exp(z[1]))
check(ln, "1.6487", math.exp(z[2]))
check(ln, "11.7561", float(np.exp(z).sum()))
ln = line_of("$$\\sigma(\\boldsymbol{z}) = (0.2312")
for k, printed in enumerate(("0.2312", "0.6285", "0.1402")):
    check(ln, printed, p[k])

ln = line_of("です。最大の成分 $z_2 = 2$ を引いて計算すると")
check(ln, "-1.5", z[2] - z.max())
check(ln, "1.5910", float(np.exp(z - z.max()).sum()))
check(ln, "2.4644", lse(z), times=2)
check(ln, "0.4644", lse(z) - z[Y], times=1)
check(ln, "0.4644", -math.log(0.6285))  # -log of the printed 0.6285
check(ln, "0.6285", p[Y])
check(ln, "-1", z[0] - z.max())
ln = line_of("$$\\boldsymbol{p} - \\boldsymbol{e}_2 = (0.2312")
for k, printed in enumerate(("0.2312", "-0.3715", "0.1402")):
    check(ln, printed, grad[k])

ln = line_of("$\\|\\boldsymbol{p} - \\boldsymbol{e}_y\\|_1 = 2(1 - p_y) \\le 2$")
# the bound 2 of 命題 3.2 の 2: 2(1 - p_y) approaches 2 as p_y -> 0 and never exceeds it
sup_l1 = max(np.abs(softmax(np.array([0.0, -c, 0.0])) - np.eye(3)[1]).sum() for c in range(0, 60))
check(ln, "2", sup_l1, context="\\le 2$")
ln = line_of("で、$p_2 \\approx 0.62853$ なので")
check(ln, "0.62853", p[Y], times=2)
check(ln, "0.74294", np.abs(grad).sum())
check(ln, "0.74294", 2 * (1 - 0.62853))
z_step = z - grad
for k, printed in enumerate(("0.7688", "2.3715", "0.3598")):
    check(ln, printed, z_step[k])
check(ln, "0.4644", lse(z) - z[Y])
check(ln, "0.2890", lse(z_step) - z_step[Y])
check(ln, "2.4644", lse(z))
check(ln, "1.4644", lse(z) - z[0])
check(ln, "1000", 1000, times=2)
check(ln, "1002", z.max() + 1000)
check(ln, "1002.4644", lse(z + 1000))
if not (lse(z) - z[0] > lse(z) - z[Y]):
    FAILURES.append(f"line {ln}: the wrong answer does not cost more")

ln = line_of("$|V| = 4$、$\\varepsilon = 0.1$、$y = 1$ では")
q4 = smoothed(0, 4, 0.1)
check(ln, "0.1", 0.1, times=2)
check(ln, "0.925", q4[0])
check(ln, "0.025", q4[1], times=3)
check(ln, "0.9", 1 - 0.1)
check(ln, "37", q4[0] / q4[1], times=2, context="= \\log 37 ")
check(ln, "3.6109", math.log(q4[0] / q4[1]))
check(ln, "0.3488", entropy(q4))
V_SIZE = 50257
check(ln, "50,257", V_SIZE)
check(ln, "50257", V_SIZE)
check(ln, "9", Fraction(9, 10) / Fraction(1, 10))
check(ln, "452{,}314", 1 + V_SIZE * Fraction(9, 10) / Fraction(1, 10))
check(ln, "13.0221", math.log(1 + V_SIZE * 9))
# the gap is what the optimum z = log q gives, and the loss there is the entropy
best = np.log(q4)
if abs((lse(best) - q4 @ best) - entropy(q4)) > 1e-12:
    FAILURES.append(f"line {ln}: the loss at z = log q is not H(q)")

# ---------------------------------------------------------------- section 4

D_V, W_V = 512, 4000  # Vaswani: d = 512, W = 4000
ETA_MAX, ETA_MIN, W_C, S_C = 6e-4, 6e-5, 2000, 20000


def cosine(t):
    if t <= W_C:
        return ETA_MAX * t / W_C
    return ETA_MIN + (ETA_MAX - ETA_MIN) * (1 + math.cos(math.pi * (t - W_C) / (S_C - W_C))) / 2


def inverse_sqrt(t):
    return D_V**-0.5 * min(t**-0.5, t * W_V**-1.5)


check("逆平方根の形は Vaswani らが $W = 4000$", "4000", W_V)
ln = line_of("Vaswani らの $d = 512$、$W = 4000$ では、最大値は")
peak = 1 / math.sqrt(D_V * W_V)
check(ln, "512", D_V, times=2)
check(ln, "4000", W_V, times=2)
check(ln, "2{,}048{,}000", D_V * W_V, times=2)
check(ln, "6.988 \\times 10^{-4}", peak)
check(ln, "1431.08", math.sqrt(D_V * W_V))
check(ln, "16000", 4 * W_V)
check_text("2 の式から、ステップ数が 4 倍の", "最大値のちょうど半分")
highest = max(inverse_sqrt(t) for t in range(1, 40000))
if abs(inverse_sqrt(4 * W_V) - peak / 2) > 1e-15 or highest != inverse_sqrt(W_V):
    FAILURES.append(f"line {ln}: the peak or its halving is wrong")

ln = line_of("$\\eta_{\\max} = 6 \\times 10^{-4}$、$\\eta_{\\min} = 6 \\times 10^{-5}$")
check(ln, "2000", W_C)
check(ln, "20000", S_C)
check(ln, "512", D_V)
check(ln, "4000", W_V)

header = line_of("$t$\t段階\tコサイン減衰")
STAGES = {
    500: "ウォームアップ",
    1000: "ウォームアップ",
    2000: "ウォームアップの終わり",
    4000: "減衰",
    8000: "減衰",
    11000: "減衰の中点",
    14000: "減衰",
    20000: "終わり",
}
for row, t in zip(range(header + 1, header + 9), STAGES, strict=False):
    cells = LINES[row - 1].split("\t")
    check(row, cells[0], t)
    stage = (
        "ウォームアップ"
        if t < W_C
        else "ウォームアップの終わり"
        if t == W_C
        else "減衰の中点"
        if t == (W_C + S_C) // 2
        else "終わり"
        if t == S_C
        else "減衰"
    )
    if cells[1] != stage or STAGES[t] != stage:
        FAILURES.append(f"line {row}: stage {cells[1]!r}, expected {stage!r}")
    check(row, cells[2], cosine(t) * 1e4)
    check(row, cells[3], cosine(t) / ETA_MAX)
    check(row, cells[4], inverse_sqrt(t) * 1e4)

ln = line_of("$t = 8000$ は減衰の区間の 3 分の 1 の点で")
third = Fraction(8000 - W_C, S_C - W_C)
check(ln, "8000", W_C + (S_C - W_C) / 3)
check(ln, "3", 1 / third, context="3 分の 1 の点")
check(ln, "0.5", math.cos(math.pi / 3))
check(ln, "0.75", (1 + math.cos(math.pi * third)) / 2)
check(ln, "77.5", 100 * cosine(8000) / ETA_MAX)
check(ln, "11000", (W_C + S_C) // 2)
check(ln, "3.300", cosine(11000) * 1e4)
check(ln, "6.000", ETA_MAX * 1e4)
check(ln, "0.600", ETA_MIN * 1e4)
check(ln, "2000", W_V / 2)
check(ln, "16000", 4 * W_V)
check(ln, "6.988", peak * 1e4)
check(ln, "3.494", inverse_sqrt(W_V // 2) * 1e4)
if abs(inverse_sqrt(W_V // 2) - inverse_sqrt(4 * W_V)) > 1e-15:
    FAILURES.append(f"line {ln}: t = 2000 and t = 16000 do not give the same rate")

# ---------------------------------------------------------------- section 5

B1, B2 = 0.9, 0.999


def uncorrected(t):
    return (1 - B1**t) / math.sqrt(1 - B2**t)


ln = line_of("よく使われる $\\beta_1 = 0.9$、$\\beta_2 = 0.999$ で")
check(ln, "0.9", B1)
check(ln, "0.999", B2)
header = line_of("$t$\t$1 - \\beta_1^t$\t$1 - \\beta_2^t$")
for row, t in zip(range(header + 1, header + 6), (1, 2, 10, 100, 1000), strict=False):
    cells = LINES[row - 1].split("\t")
    check(row, cells[0], t)
    check(row, cells[1], 1 - Fraction(9, 10) ** t)
    check(row, cells[2], 1 - Fraction(999, 1000) ** t)
    check(row, cells[3], uncorrected(t))

ln = line_of("$t = 1$ では $0.1/\\sqrt{0.001} = \\sqrt{10}")
check(ln, "0.1", 1 - B1)
check(ln, "0.001", Fraction(1, 1000))
check(ln, "10", (1 - Fraction(9, 10)) ** 2 / (1 - Fraction(999, 1000)))
check(ln, "3.1623", uncorrected(1))
check(ln, "3", math.floor(uncorrected(1)), context="学習率の 3 倍以上")
t_max = max(range(1, 10000), key=uncorrected)
check(ln, "12", t_max, context="$t = 12$ で最大")
check(ln, "6.57", uncorrected(t_max))
check(ln, "1000", 1000, times=2)
check(ln, "0.999", B2)
check(ln, "0.3677", B2**1000)
check(ln, "0.3679", math.exp(-1))

ln = line_of("命題 5.2 の 1 の係数 $(1 - \\beta)\\beta^{k}$")


def mean_lag(beta):
    """The mean of k under the weights (1 - beta) beta^k, k = 0, 1, ... (summed, not by formula)."""
    ks = np.arange(200000)
    w = (1 - beta) * beta**ks
    return float((ks * w).sum() / w.sum())


check(ln, "0.9", B1)
check(ln, "0.999", B2)
check(ln, "9", mean_lag(B1), context="なら 9 ステップ前")
check(ln, "999", mean_lag(B2), context="なら 999 ステップ前")
check(ln, "10", mean_lag(B1) + 1, context="直近の 10 ステップ")
check(ln, "1000", mean_lag(B2) + 1, context="と 1000 ステップ")
check(ln, "0.98", 0.98)
check(ln, "49", mean_lag(0.98), context="平均は 49 ステップ前")

# ---------------------------------------------------------------- section 6-8 (prose)

check("一定の勾配 0.5 では補正ありの更新量が毎回 1", "0.5", 0.5)

ln = line_of("命題 3.1 の 1 より $\\ell(\\boldsymbol{z}, 1) = \\log(e^{2} + 1) - 2")
z2 = np.array([2.0, 0.0])
p2 = softmax(z2)
check(ln, "0.1269", lse(z2) - z2[0])
check(ln, "2.1269", lse(z2) - z2[1])
check(ln, "-2", z2[1] - z2[0])
check(ln, "0.8808", p2[0], times=2)
check(ln, "-0.1192", p2[0] - 1)
check(ln, "0.1192", p2[1])
check(ln, "-0.8808", p2[1] - 1)
if abs((lse(z2) - z2[1]) - (lse(z2) - z2[0]) - (z2[0] - z2[1])) > 1e-12:
    FAILURES.append(f"line {ln}: the two losses do not differ by z_1 - z_2")

ln = line_of("$|V| = 10$、$\\varepsilon = 0.1$ のラベル平滑化で")
check(ln, "0.1", 0.1)
ln = line_of("$q^{\\varepsilon}_y = 1 - 0.1 + 0.01 = 0.91$")
q10 = smoothed(0, 10, 0.1)
check(ln, "0.1", 0.1)
check(ln, "0.01", q10[1], times=5)
check(ln, "0.91", q10[0], times=5)
check(ln, "-0.91", -q10[0])  # the coefficient of -0.91 log 0.91
check(ln, "91", q10[0] / q10[1])
check(ln, "4.5109", math.log(q10[0] / q10[1]))
check(ln, "9", 10 - 1)
check(ln, "0.0858", -q10[0] * math.log(q10[0]))
check(ln, "0.4145", -9 * q10[1] * math.log(q10[1]))
check(ln, "0.5003", entropy(q10))
check(ln, "0.0943", -math.log(q10[0]))
best10 = np.log(q10)
if abs((lse(best10) - q10 @ best10) - entropy(q10)) > 1e-12:
    FAILURES.append(f"line {ln}: the minimum is not H(q)")


def adam(grads, correct=True):
    m = v = 0.0
    out, moments = [], []
    for t, g in enumerate(grads, 1):
        m, v = B1 * m + (1 - B1) * g, B2 * v + (1 - B2) * g * g
        moments.append((m, v))
        out.append((m / (1 - B1**t)) / math.sqrt(v / (1 - B2**t)) if correct else m / math.sqrt(v))
    return out, moments


ln = line_of("$\\beta_1 = 0.9$、$\\beta_2 = 0.999$、$\\delta = 0$ の Adam で")
check(ln, "0.9", B1)
check(ln, "0.999", B2)
ln = line_of("$m_1 = 0.1$、$v_1 = 0.001$ で")
steps, moments = adam([1.0, -1.0])
check(ln, "0.1", moments[0][0], times=3)
check(ln, "0.001", moments[0][1], times=3)
check(ln, "0.9", B1)
check(ln, "0.999", B2)
check(ln, "-0.01", moments[1][0], times=2)
check(ln, "0.001999", moments[1][1], times=2)
check(ln, "0.19", 1 - B1**2, times=2)
check(ln, "0.001999", 1 - B2**2)
check(ln, "-0.0526", moments[1][0] / (1 - B1**2), times=1)
check(ln, "-0.0526", steps[1])
check(ln, "1", moments[1][1] / (1 - B2**2))

# ---------------------------------------------------------------- the listing


def is_prose(line: str) -> bool:
    code = re.sub(r"(\"\"\"|\"|').*?\1", "", line)
    code = code.split("#", 1)[0]
    return bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", code))


def listing() -> tuple[list[str], int, list[str]]:
    """(code, first output line, output lines) of the chapter's one listing."""
    starts = [i for i, line in enumerate(LINES) if line.startswith("# Python")]
    assert len(starts) == 1, starts
    i = starts[0]
    j = i + 1
    while not is_prose(LINES[j]):
        j += 1
    end = j
    while not LINES[end - 1].strip():
        end -= 1
    start = end
    while LINES[start - 1].strip():
        start -= 1
    return LINES[i:start], start + 1, LINES[start:end]


def compare_output() -> None:
    code, first, printed = listing()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "cross_entropy.py").write_text("\n".join(code) + "\n", encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "cross_entropy.py"],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=600,
        )
    if run.returncode != 0 or run.stderr:
        FAILURES.append(f"the listing failed or warned: {run.stderr[-500:]}")
    actual = run.stdout.rstrip("\n").split("\n")
    if len(actual) != len(printed):
        FAILURES.append(f"the listing prints {len(actual)} lines, the chapter shows {len(printed)}")
    for offset, (shown, got) in enumerate(zip(printed, actual, strict=False)):
        n = first + offset
        for a, b in zip(TOKEN.findall(shown), TOKEN.findall(got), strict=False):
            COUNT["checks"] += 1
            mark = "" if a == b else "   <-- MISMATCH"
            print(f"line {n}: {a} == {b}{mark}")
            COVERED[(n, a)] += 1
        if shown != got:
            FAILURES.append(f"line {n}: the listing prints {got!r}, the chapter shows {shown!r}")


compare_output()

# independent recomputation of the printed output (not by the listing's code)
ln = line_of("loss 0.4644  grad ")
check(ln, "0.4644", lse(z) - z[Y])
for k, printed in enumerate(("0.2312", "-0.3715", "0.1402")):
    check(ln, printed, grad[k])
check(ln, "0.2890", lse(z_step) - z_step[Y])
check(line_of("z + 1000: LSE 1002"), "1002.4644", lse(z + 1000))
ln = line_of("target [0.925")
check(ln, "0.925", q4[0])
check(ln, "0.025", q4[1], times=3)
check(ln, "3.6109", math.log(q4[0] / q4[1]))
check(ln, "0.3488", entropy(q4))
for t in STAGES:
    ln = line_of(f"t={t:5d}  cosine")
    line = LINES[ln - 1]
    check(ln, line.split("cosine ")[1].split("e-4")[0], cosine(t) * 1e4)
    check(ln, line.split("ratio ")[1].split()[0], cosine(t) / ETA_MAX)
    check(ln, line.split("inverse sqrt ")[1].split("e-4")[0], inverse_sqrt(t) * 1e4)
ln = line_of("corrected:   1.0000")
for printed, value in zip(LINES[ln - 1].split(":")[1].split(), adam([0.5] * 3)[0], strict=False):
    check(ln, printed, value)
ln = line_of("uncorrected: 3.1623")
for printed, t in zip(LINES[ln - 1].split(":")[1].split(), (1, 2, 3), strict=False):
    check(ln, printed, uncorrected(t))
check(line_of("second step -0.0526"), "-0.0526", steps[1])

# ---------------------------------------------------------------- coverage


def coverage() -> None:
    """Every number with a decimal point or a thousands separator outside code (and
    outside the references) is checked; small integers are listed with -v."""
    code_lines, first, printed = listing()
    start = next(i for i, line in enumerate(LINES, 1) if line.startswith("# Python"))
    code = set(range(start, first))
    unchecked_small = []
    for n, line in enumerate(LINES, 1):
        if line.strip() == "参考文献":
            break
        if n in code:
            continue
        text = re.sub(r"\\[a-zA-Z]+", " ", line)
        text = re.sub(r"(命題|定義|定理|補題|系|例|注意|演習) \d+\.\d+", " ", text)
        text = re.sub(r"\[\d+\] \d+\.\d+ 節", " ", text)
        seen = Counter(TOKEN.findall(text))
        for token, count in seen.items():
            TALLY["printed"] += count
            TALLY["checked"] += min(count, COVERED[(n, token)])
            missing = count - COVERED[(n, token)]
            if missing <= 0:
                continue
            if "." in token or "," in token:
                FAILURES.append(
                    f"line {n}: {token} is printed {count} times, checked {COVERED[(n, token)]}"
                )
            else:
                unchecked_small.append((n, token))
    if VERBOSE:
        print(
            f"small integers left unchecked ({len(unchecked_small)}):",
            " ".join(f"{n}:{t}" for n, t in unchecked_small),
        )


coverage()

print()
lines_checked = len({key[0] for key in COVERED})
print(f"{COUNT['checks']} checks on {lines_checked} lines; rounding: ROUND_HALF_EVEN, no ties")
print(
    f"{TALLY['printed']} numbers printed outside code (outputs included), "
    f"{TALLY['checked']} of them recomputed; the others are small integers: "
    "settings, indices, counts in words (-v lists them)"
)
if FAILURES:
    print(f"{len(FAILURES)} problem(s):")
    for failure in FAILURES:
        print("  " + failure)
    sys.exit(1)
print("all printed numbers equal their recomputation")

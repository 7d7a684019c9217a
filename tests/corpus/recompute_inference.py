#!/usr/bin/env python3
"""Recompute every number printed in inference.mdx (the MDX chapter of the corpus).

Standalone: NumPy, math and fractions only; the transformer-proofs package is not
imported. Each printed number is located on its line (the line is found by a short
anchor, so the script follows the chapter when lines move), recomputed from the
chapter's settings, formatted the way the chapter prints it and compared:

    line <n>: <printed> == <recomputed>

Rounding: a recomputed value is rounded to the printed number of decimals (or
significant digits after `\\times 10^{k}`) with ROUND_HALF_EVEN on its exact value
(Fractions exactly, floats by their binary value). The chapter avoids ties: a value
that lies within 1e-9 of a rounding tie is reported as an error too.

The two code listings are extracted from the chapter, run in order in a temporary
directory (the first saved as kv_cache.py, as the chapter says) and their printed
output compared with the chapter's ```text blocks line by line and number by number.
Every number written with a decimal point or a thousands separator outside code must
be covered by some check (`coverage`); -v lists the small integers left unchecked
(counts, indices, settings such as "T = 1").

Usage: python3 recompute_inference.py [chapter file] [-v]

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
    line_of,
    load,
)

CHAPTER = load("inference.mdx")

# ---------------------------------------------------------------- the chapter's settings

z = np.array([2.0, 1.0, 0.5, -1.0])  # the running example of 2 節
TEMPERATURES = (0.5, 1.0, 2.0)


def softmax_t(v, T=1.0):
    s = np.asarray(v, dtype=float) / T
    e = np.exp(s - s.max())
    return e / e.sum()


def entropy(p):
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def top_p_size(p, tau):
    cum = np.cumsum(np.sort(p)[::-1])
    return int(np.argmax(cum >= tau)) + 1


p = {T: softmax_t(z, T) for T in TEMPERATURES}
p1 = p[1.0]

# GPT-2 small as in the block chapter: vocabulary, context, width, layers
V_SIZE, L_CTX, D, LAYERS, HEADS = 50257, 1024, 768, 12, 12
# 定理 5.1［Transformer ブロック］
PARAMS = V_SIZE * D + L_CTX * D + LAYERS * (12 * D * D + 13 * D) + 2 * D
BYTES_FP16 = 2

# ---------------------------------------------------------------- prose, section 2-3

check("この章を通して、語彙が 4 個の小さな例", "0.5", z[2])
ln = line_of("の第 1 成分と第 2 成分では")
check(ln, "0.5", z[2])
check(ln, "2.7183", math.exp((z[0] - z[1]) / 1.0))
check(ln, "7.3891", math.exp((z[0] - z[1]) / 0.5))
check(ln, "1.6487", math.exp((z[0] - z[1]) / 2.0))
check(ln, "0.5", 0.5)  # T = 0.5, the setting
check(ln, "0.5", (z[0] - z[1]) / 2.0)  # e^{0.5}: the exponent at T = 2

ln = line_of("1 の評価を $\\boldsymbol{z} = (2, 1, 0.5, -1)$")
check(ln, "0.5", z[2], times=1)
check(ln, "0.5", 0.5, times=2)  # T = 0.5 and the 0.5 of (1 - 2)/0.5
check(ln, "2", int(z.max()), context="$M = 2$")
check(ln, "-2", (z[1] - z.max()) / 0.5)
check(ln, "0.1353", math.exp((z[1] - z.max()) / 0.5))
check(ln, "0.1140", p[0.5][1])
check(ln, "0.25", Fraction(1, len(z)))
check(ln, "1.3863", math.log(len(z)))

check("に対する $\\sigma_T(\\boldsymbol{z})$ とエントロピー（自然対数）", "0.5", z[2])

# the table of 例 3.3
header = line_of("| $T$ | $p_1$ | $p_2$ | $p_3$ | $p_4$ | エントロピー $H$ |")
for row, T in zip(range(header + 2, header + 5), TEMPERATURES, strict=False):
    cells = [c.strip() for c in LINES[row - 1].strip().strip("|").split("|")]
    check(row, cells[0], T if T != int(T) else int(T))
    for k in range(4):
        check(row, cells[1 + k], p[T][k])
    check(row, cells[5], entropy(p[T]))

ln = line_of("$T = 1$ の行は普通の softmax で")
denominator = float(np.exp(z).sum())
check(ln, "12.1239", denominator, times=2)
check(ln, "0.6095", math.exp(2) / denominator)
check(ln, "0.6095", p1[0])
check(ln, "0.5", 0.5, times=2)  # T = 0.5 twice
check(ln, "0.5", z[2])  # e^{0.5} in the denominator
check(ln, "0.8420", p[0.5][0], times=2)
check(ln, "1.0144", entropy(p1))
check(ln, "0.5381", entropy(p[0.5]))
check(ln, "0.4344", p[2.0][0])
check(ln, "1.2648", entropy(p[2.0]))
check(ln, "0.1140", p[0.5][1])
check(ln, "7.39", math.exp(1 / 0.5))  # p_1/p_2 = e^{1/T}
check(ln, "7.39", 0.8420 / 0.1140)  # and with the printed table cells

ln = line_of("貪欲デコードはどの温度でも第 1 成分を選びます")
first, second_after_first, other, second_after_other = 0.6, 0.5, 0.4, 0.9
check(ln, "0.6", first, times=2)
check(ln, "0.4", other, times=2)
check(ln, "0.5", second_after_first, times=2)
check(ln, "0.9", second_after_other, times=2)
check(ln, "0.30", Fraction(6, 10) * Fraction(5, 10))
check(ln, "0.36", Fraction(4, 10) * Fraction(9, 10))
if not first * second_after_first < other * second_after_other:
    FAILURES.append(f"line {ln}: the greedy sequence is not the less likely one")

# ---------------------------------------------------------------- section 4

ln = line_of("$T = 1$ の分布 $\\boldsymbol{p} = (0.6095")
for k, printed in enumerate(("0.6095", "0.2242", "0.1360", "0.0303")):
    check(ln, printed, p1[k])

top2 = np.zeros(4)
top2[:2] = p1[:2] / p1[:2].sum()
ln = line_of("- **top-k（$k = 2$）**")
check(ln, "0.8337", p1[:2].sum(), times=2)
check(ln, "0.7311", top2[0], times=1)
check(ln, "0.7311", 1 / (1 + math.exp(-1)))
check(ln, "0.2689", top2[1])
check(ln, "0.1663", 1 - p1[:2].sum())
check(ln, "0.5", 1 - Fraction(2, 4))

k09 = top_p_size(p1, 0.9)
top3 = np.zeros(4)
top3[:k09] = p1[:k09] / p1[:k09].sum()
ln = line_of("- **top-p（$\\tau = 0.9$）**")
check(ln, "0.9", 0.9, times=2)
check(ln, "0.6095", np.cumsum(p1)[0])
check(ln, "0.8337", np.cumsum(p1)[1])
check(ln, "0.9697", np.cumsum(p1)[2], times=2)
check(ln, "3", k09, context="$k(0.9) = 3$")
for k, printed in enumerate(("0.6285", "0.2312", "0.1402")):
    check(ln, printed, top3[k])
check(ln, "0.0303", 1 - np.cumsum(p1)[2])
if abs((1 - np.cumsum(p1)[2]) - p1[3]) > 1e-12:
    FAILURES.append(f"line {ln}: the distance is not the dropped p_4")

ln = line_of("- $\\tau = 0.8$ なら 2 個目で累積が")
check(ln, "0.8", 0.8, times=2)
check(ln, "0.8337", np.cumsum(p1)[1])
if top_p_size(p1, 0.8) != 2:
    FAILURES.append(f"line {ln}: top-p 0.8 does not keep 2")

ln = line_of("top-k は分布の形に関係なく残す個数を決めますが")
check(ln, "0.9", 0.9)
check(ln, "0.5", 0.5)
check(ln, "0.8420", np.cumsum(p[0.5])[0])
check(ln, "0.9560", np.cumsum(p[0.5])[1])
check(ln, "0.4344", np.cumsum(p[2.0])[0])
check(ln, "0.6979", np.cumsum(p[2.0])[1])
check(ln, "0.9031", np.cumsum(p[2.0])[2])
check(ln, "2", top_p_size(p[0.5], 0.9), context="2 個で止まり")
check(ln, "3", top_p_size(p[2.0], 0.9), context="3 個残ります")

# ---------------------------------------------------------------- section 5


def cached_cost(i, d):  # 命題 5.2 の 3（1 層あたり、d_ff = 4d）
    return 4 * d * d + i * d + i * d + 2 * d * (4 * d)


def recomputed_cost(i, d):  # 命題 6.1［Transformer ブロック］の 12nd^2 + 2n^2d
    return 12 * i * d * d + 2 * i * i * d


ln = line_of("$d = 768$、$i = 1024$ で数えると")
i_pos = N_GEN = 1024
check(ln, "768", D, times=5)
check(ln, "7{,}077{,}888", 12 * D * D)
check(ln, "1{,}572{,}864", 2 * i_pos * D)
check(ln, "8{,}650{,}752", cached_cost(i_pos, D), times=2)
check(ln, "8{,}858{,}370{,}048", recomputed_cost(i_pos, D))
if recomputed_cost(i_pos, D) != i_pos * cached_cost(i_pos, D):
    FAILURES.append(f"line {ln}: recomputation is not exactly i times the cached step")
total_cached = sum(cached_cost(i, D) for i in range(1, N_GEN + 1))
total_recomputed = sum(recomputed_cost(i, D) for i in range(1, N_GEN + 1))
check(ln, "7{,}247{,}757{,}312", 12 * N_GEN * D * D)
check(ln, "806{,}092{,}800", N_GEN * (N_GEN + 1) * D)
check(ln, "8{,}053{,}850{,}112", total_cached)
check(ln, "4{,}265{,}037{,}004{,}800", total_recomputed)
check(ln, "1025", N_GEN + 1)
check(ln, "530", total_recomputed / total_cached, context="約 530 倍")
if total_cached != 12 * N_GEN * D * D + N_GEN * (N_GEN + 1) * D:
    FAILURES.append(f"line {ln}: the closed form of 命題 5.2 の 4 does not match the sum")

ln = line_of("12 層・$d = 768$ の構成（<Ref")
per_token = 2 * LAYERS * D
check(ln, "18{,}432", per_token, times=2)
check(ln, "36{,}864", BYTES_FP16 * per_token)
check(ln, "36", Fraction(BYTES_FP16 * per_token, 1024), context="36 KiB")
check(ln, "18{,}874{,}368", 2 * LAYERS * L_CTX * D)
check(ln, "124,439,808", PARAMS)
check(ln, "15.2", Fraction(100 * 2 * LAYERS * L_CTX * D, PARAMS))

header = line_of("| $n$ | 1 層の数 $2nd$ |")
for row, n in zip(range(header + 2, header + 6), (128, 256, 512, 1024), strict=False):
    cells = [c.strip() for c in LINES[row - 1].strip().strip("|").split("|")]
    numbers = 2 * LAYERS * n * D
    check(row, cells[0], n)
    check(row, cells[1], 2 * n * D)
    check(row, cells[2], numbers)
    check(row, cells[3], BYTES_FP16 * numbers)
    check(row, cells[4], Fraction(BYTES_FP16 * numbers, 2**20))
    check(row, cells[5], Fraction(numbers, PARAMS))

ln = line_of("記憶は $n$ に比例し、$n$ を 2 倍にすると 2 倍になります")
check(ln, "18{,}874{,}368", 2 * LAYERS * L_CTX * D, times=2)
check(ln, "113{,}246{,}208", 6 * 2 * LAYERS * L_CTX * D)
check(ln, "132{,}120{,}576", 7 * 2 * LAYERS * L_CTX * D)
fewest = next(b for b in range(1, 100) if b * 2 * LAYERS * L_CTX * D > PARAMS)
check(ln, "7", fewest, context="7 本以上")
check(ln, "1024", L_CTX)
doubled = Fraction(2 * LAYERS * (2 * L_CTX) * D, 2 * LAYERS * L_CTX * D)
check(ln, "2", doubled, context="2 倍になります")

ln = line_of("キャッシュを小さくする方法として")
check(ln, "12", Fraction(HEADS, 1), context="12 分の 1")
check(ln, "18{,}874{,}368", 2 * LAYERS * L_CTX * D)
check(ln, "1{,}572{,}864", Fraction(2 * LAYERS * L_CTX * D * 1, HEADS))
check(ln, "1024", L_CTX)

# ---------------------------------------------------------------- section 6

probs = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 2)]
nll = -sum(math.log(q) for q in probs) / len(probs)
ln = line_of("3 から、パープレキシティは")
check(ln, "0.5", Fraction(1, 2), times=2)
check(ln, "0.25", Fraction(1, 4))
check(ln, "0.125", Fraction(1, 8))
check(ln, "1.2130", nll)
check(ln, "1.2130", Fraction(7, 4) * math.log(2))
check(ln, "0.6931", math.log(2))
check(ln, "3.3636", math.exp(nll), times=2)
check(ln, "3.3636", 2 ** (7 / 4))
check(ln, "1.75", nll / math.log(2))
arithmetic_mean = sum(1 / q for q in probs) / len(probs)
check(ln, "4", arithmetic_mean, context="(2 + 4 + 8 + 2)/4 = 4$")
for q, printed in zip(probs, ("2", "4", "8"), strict=False):
    check(ln, printed, 1 / q)  # the reciprocals 2, 4, 8 in (2 + 4 + 8 + 2)/4
if not arithmetic_mean > math.exp(nll):
    FAILURES.append(f"line {ln}: the arithmetic mean is not above the perplexity")
check(ln, "50,257", V_SIZE, times=2)
check(ln, "10.8249", math.log(V_SIZE))

# ---------------------------------------------------------------- section 7 (prose)

ln = line_of("$2Lnd = 2 \\times 3 \\times 8 \\times 16 = 768$")
check(ln, "768", 2 * 3 * 8 * 16)

ln = line_of("10 万回引いた頻度と確率の差は")
SAMPLES = 100_000
rng = np.random.default_rng(0)
freq_t1 = np.bincount(rng.choice(4, size=SAMPLES, p=p1), minlength=4) / SAMPLES
freq_top2 = np.bincount(rng.choice(4, size=SAMPLES, p=top2), minlength=4) / SAMPLES
worst = max(np.abs(freq_t1 - p1).max(), np.abs(freq_top2 - top2).max())
if not worst <= 0.002:
    FAILURES.append(f"line {ln}: a frequency is {worst:.4f} from its probability")
print(f"line {ln}: 0.002 >= {worst:.4f} (largest |frequency - probability|)")
check(ln, "0.002", 0.002)
check(ln, "0.5", 0.5)
check(ln, "0.0016", math.sqrt(0.25 / SAMPLES))
check(ln, "0.25", 0.5 * (1 - 0.5))

# ---------------------------------------------------------------- section 9

ln = line_of("語彙が 2 個で $\\boldsymbol{z} = (1, 0)$ のとき")
check(ln, "0.5", 0.5)
check(ln, "0.9", 0.9)
ln = line_of("$\\sigma_T(\\boldsymbol{z})_1 = \\dfrac{e^{1/T}}")
sig = {T: 1 / (1 + math.exp(-1 / T)) for T in TEMPERATURES}
check(ln, "0.5", 0.5, times=2)
check(ln, "0.8808", sig[0.5])
check(ln, "0.7311", sig[1.0])
check(ln, "0.6225", sig[2.0])
check(ln, "-0.5", -1 / 2.0)
check(ln, "0.9", 0.9)
T_09 = 1 / math.log(9)
check(ln, "0.4551", T_09)
check(ln, "9", Fraction(9, 10) / (1 - Fraction(9, 10)), context="e^{-1/T} = 1/9$")
if abs(1 / (1 + math.exp(-1 / T_09)) - 0.9) > 1e-12:
    FAILURES.append(f"line {ln}: T = 1/log 9 does not give 0.9")

ln = line_of("の 2 より、1 本あたり $2 \\times 24 \\times 2048 \\times 1024")
L2, D2, H2, N2, B2, G2 = 24, 1024, 16, 2048, 8, 4
numbers2 = 2 * L2 * N2 * D2
check(ln, "100{,}663{,}296", numbers2)
check(ln, "201{,}326{,}592", BYTES_FP16 * numbers2)
mib = Fraction(BYTES_FP16 * numbers2, 2**20)
check(ln, "192", mib, context="192 MiB")
check(ln, "192", mib, context="8 \\times 192")
check(ln, "1536", B2 * mib, context="= 1536$ MiB")
check(ln, "1.5", B2 * mib / 1024)
check(ln, "384", B2 * mib * Fraction(G2, H2), context="384 MiB")
check(ln, "2048", N2)
check(ln, "1024", D2)

ln = line_of("4 つの位置で正解の確率が $(0.8, 0.05, 0.8, 0.05)$")
check(ln, "0.8", Fraction(8, 10), times=2)
check(ln, "0.05", Fraction(5, 100), times=2)
check(ln, "0.2", Fraction(2, 10))
ln = line_of("の 1 より、前者は $(0.8 \\times 0.05")
mixture = [Fraction(8, 10), Fraction(5, 100), Fraction(8, 10), Fraction(5, 100)]
product = math.prod(mixture)
check(ln, "0.8", Fraction(8, 10), times=2)
check(ln, "0.05", Fraction(5, 100), times=2)
check(ln, "0.0016", product)
check(ln, "0.2", Fraction(2, 10))
ppl_mixture = float(product) ** (-1 / 4)
check(ln, "5", ppl_mixture, context="0.0016^{-1/4} = 5$")
check(ln, "5", float(Fraction(2, 10) ** 4) ** (-1 / 4), context="(0.2^4)^{-1/4} = 5$")
check(ln, "5", ppl_mixture, context="どちらも 5 です")
check(ln, "5", 1 / Fraction(2, 10), context="後者が 5 で")
check(ln, "1.6094", -sum(math.log(q) for q in mixture) / 4)
check(ln, "1.25", 1 / Fraction(8, 10), times=2)
check(ln, "20", 1 / Fraction(5, 100), times=2)
check(ln, "10.625", sum(1 / q for q in mixture) / 4)
if abs(ppl_mixture - 5) > 1e-12 or abs((Fraction(2, 10) ** 4) ** -1 - 625) != 0:
    FAILURES.append(f"line {ln}: the two perplexities are not both 5")

# ---------------------------------------------------------------- the listings


def fences() -> list[tuple[int, int, str]]:
    out, i = [], 0
    while i < len(LINES):
        m = re.match(r"^```(\S*)\s*$", LINES[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while not LINES[j].startswith("```"):
            j += 1
        out.append((i + 1, j + 1, m.group(1)))
        i = j + 1
    return out


def compare_outputs() -> None:
    spans = fences()
    listings = []
    for k, (start, end, language) in enumerate(spans):
        if language == "python":
            nxt = spans[k + 1]
            assert nxt[2] == "text", f"listing at line {start} has no output"
            listings.append((LINES[start : end - 1], nxt[0] + 1, LINES[nxt[0] : nxt[1] - 1]))
    assert len(listings) == 2, listings
    assert any("kv_cache.py として保存" in line for line in LINES)
    assert any(line.startswith("from kv_cache import") for line in listings[1][0])
    with tempfile.TemporaryDirectory() as tmp:
        names = ["kv_cache.py", "listing_2.py"]
        for (code, first, printed), name in zip(listings, names, strict=False):
            path = Path(tmp) / name
            path.write_text("\n".join(code) + "\n", encoding="utf-8")
            run = subprocess.run(
                [sys.executable, name], cwd=tmp, capture_output=True, text=True, timeout=600
            )
            if run.returncode != 0:
                FAILURES.append(f"{name} failed: {run.stderr[-500:]}")
                continue
            actual = run.stdout.rstrip("\n").split("\n")
            if len(actual) != len(printed):
                FAILURES.append(
                    f"{name}: {len(actual)} output lines, the chapter shows {len(printed)}"
                )
            for offset, (shown, got) in enumerate(zip(printed, actual, strict=False)):
                n = first + offset
                shown_tokens, got_tokens = TOKEN.findall(shown), TOKEN.findall(got)
                for a, b in zip(shown_tokens, got_tokens, strict=False):
                    COUNT["checks"] += 1
                    mark = "" if a == b else "   <-- MISMATCH"
                    print(f"line {n}: {a} == {b}{mark}")
                    COVERED[(n, a)] += 1
                if shown != got:
                    FAILURES.append(
                        f"line {n}: the listing prints {got!r}, the chapter shows {shown!r}"
                    )


compare_outputs()

# independent recomputation of the listings' printed numbers (not by their code)
for T in TEMPERATURES:
    ln = line_of(f"T={T:.1f}  p = ")
    line = LINES[ln - 1]
    values = TOKEN.findall(line.split("p = ")[1].split("H =")[0])
    for printed, v in zip(values, p[T], strict=False):
        check(ln, printed, v)
    check(ln, line.split("H = ")[1].strip(), entropy(p[T]))
for label, q in (("top-k 2   q = ", top2), ("top-p 0.9 q = ", top3)):
    ln = line_of(label)
    line = LINES[ln - 1]
    for printed, v in zip(TOKEN.findall(line.split("q = ")[1].split("TV")[0]), q, strict=False):
        check(ln, printed, v)
    check(ln, line.split("TV = ")[1].strip(), 0.5 * np.abs(q - p1).sum())
ln = line_of("cached numbers: ")
check(ln, "768", 2 * 3 * 8 * 16, times=2)
for n in (128, 256, 512, 1024):
    ln = line_of(f"{n:5d} {2 * n * D:8d}")
    numbers = 2 * LAYERS * n * D
    mib_n, ratio = Fraction(2 * numbers, 2**20), Fraction(numbers, PARAMS)
    row = (n, 2 * n * D, numbers, 2 * numbers, mib_n, ratio)
    for printed, v in zip(LINES[ln - 1].split(), row, strict=True):
        check(ln, printed, v)
ln = line_of("one token at i = 1024: 8650752")
check(ln, "8650752", cached_cost(1024, D))
check(ln, "8858370048", recomputed_cost(1024, D))
check(ln, "1024", recomputed_cost(1024, D) // cached_cost(1024, D), context="ratio 1024")
ln = line_of("mean NLL 1.2130")
check(ln, "1.2130", nll)
check(ln, "3.3636", math.exp(nll))
check(ln, "1.7500", nll / math.log(2))
for label, f in (("T=1       frequencies", freq_t1), ("top-k 2   frequencies", freq_top2)):
    ln = line_of(label)
    for printed, v in zip(TOKEN.findall(LINES[ln - 1].split("frequencies")[1]), f, strict=False):
        check(ln, printed, v)

# ---------------------------------------------------------------- coverage


def coverage() -> None:
    """Every number with a decimal point or a thousands separator outside code (and
    outside references, links and tags) is checked; small integers are listed with -v."""
    code = set()
    for start, end, language in fences():
        if language != "text":
            code.update(range(start, end + 1))
    in_refs = False
    unchecked_small = []
    for n, line in enumerate(LINES, 1):
        if line.startswith("## 参考文献"):
            in_refs = True
        if in_refs or n in code or line.startswith("#") or line.startswith(">"):
            continue
        text = re.sub(r"<[^>]*>", " ", line)  # tags and their attributes
        text = re.sub(r"\]\([^)]*\)", "] ", text)  # link targets
        text = re.sub(r"\\[a-zA-Z]+", " ", text)  # TeX commands
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

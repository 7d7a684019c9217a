#!/usr/bin/env python3
"""speculative.txt（投機的デコーディングの章）に印字された数値を、定義から計算し直して照合する。

- 本文・例・表・演習の解答の数値を、定義（受理率、残差分布、E_gamma、速度向上率など）から
  Fraction（有理数）または mpmath（50 桁）で計算し、印字された桁数で丸めて比べる。
- 各数値について、その数値を含む本文の断片が章の中に実際にあることも確かめる。
- 表は章から行を読み取り、セルごとに計算値と比べる。
- リスティングは章から取り出して実行し、出力を印字された出力と 1 文字ずつ比べる。
  speculative.py（同じフォルダ）が章のリスティングと同一であることも確かめる。
1 つでも合わなければ終了コード 1 で終わる。
"""
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal, ROUND_HALF_UP, getcontext
from fractions import Fraction as F

import mpmath as mp
import numpy as np

mp.mp.dps = 50
getcontext().prec = 80
HERE = os.path.dirname(os.path.abspath(__file__))
CHAPTER = os.path.join(HERE, "speculative.txt")
TEXT = open(CHAPTER, encoding="utf-8").read()
LINES = TEXT.split("\n")

n_checked = 0
n_failed = 0


def to_decimal(v):
    if isinstance(v, F):
        return Decimal(v.numerator) / Decimal(v.denominator)
    if isinstance(v, (int, np.integer)):
        return Decimal(int(v))
    return Decimal(mp.nstr(mp.mpf(v), 45, strip_zeros=False))


def normalize(printed):
    s = printed.replace("{,}", "").replace(",", "").replace("−", "-").strip()
    return s


def fmt_like(value, printed):
    """value を printed と同じ小数点以下の桁数で（四捨五入して）書く。"""
    s = normalize(printed)
    dec = len(s.split(".")[1]) if "." in s else 0
    q = Decimal(1).scaleb(-dec)
    r = to_decimal(value).quantize(q, rounding=ROUND_HALF_UP)
    if r == 0:
        r = abs(r)
    return format(r, "f")


def record(ok, label, printed, shown):
    global n_checked, n_failed
    n_checked += 1
    if not ok:
        n_failed += 1
    print(f"{'OK  ' if ok else 'FAIL'} {label}: printed {printed}  computed {shown}")


def check(snippet, printed, value, label=None):
    """snippet が章にあり、printed を含み、value を printed の桁で丸めると printed になること。"""
    label = label or snippet[:50]
    if snippet not in TEXT:
        record(False, label + " [snippet not found]", printed, "-")
        return
    if printed not in snippet:
        record(False, label + " [printed not in snippet]", printed, "-")
        return
    shown = fmt_like(value, printed)
    record(shown == normalize(printed), label, printed, shown)


def check_true(snippet, cond, label):
    global n_checked, n_failed
    n_checked += 1
    ok = (snippet in TEXT) and bool(cond)
    if not ok:
        n_failed += 1
    print(f"{'OK  ' if ok else 'FAIL'} {label}")


def table(header_start):
    """header_start で始まる行の次から空行までを、タブで区切ったセルのリストで返す。"""
    idx = [i for i, l in enumerate(LINES) if l.startswith(header_start)]
    if len(idx) != 1:
        raise SystemExit(f"table header not unique: {header_start!r} ({len(idx)})")
    rows = []
    i = idx[0] + 1
    while i < len(LINES) and LINES[i].strip():
        rows.append(LINES[i].split("\t"))
        i += 1
    return rows


def check_cell(label, printed, value):
    shown = fmt_like(value, printed)
    record(shown == normalize(printed), label, printed, shown)


# ---------------------------------------------------------------- 定義
def alpha(p, q):
    return sum(min(a, b) for a, b in zip(p, q))


def tv(p, q):
    return sum(abs(a - b) for a, b in zip(p, q)) / 2


def residual(p, q):
    m = [max(0, a - b) for a, b in zip(p, q)]
    s = sum(m)
    return [x / s for x in m]


def E(a, g):
    """E_gamma(alpha) = sum_{k=0}^{gamma} alpha^k（定義どおりの和）。"""
    return sum(a ** k for k in range(g + 1))


def S(a, g, c):
    return E(a, g) / (g * c + 1)


def f_crit(a, g, c):
    return a ** (g + 1) * (1 + g * c) - c * E(a, g)


def best_gamma(a, c, gmax=400):
    vals = [S(a, g, c) for g in range(0, gmax)]
    return max(range(gmax), key=lambda g: vals[g])


def gamma_star(a, c):
    g = 0
    while f_crit(a, g, c) > 0:
        g += 1
    return g


def tompf(x):
    if isinstance(x, F):
        return mp.mpf(x.numerator) / x.denominator
    return mp.mpf(x)


def softmax(z, T=1):
    e = [mp.e ** (tompf(x) / tompf(T)) for x in z]
    s = sum(e)
    return [x / s for x in e]


def params(V, d, L, Lctx):  # 定理 5.1［Transformer ブロック］, d_ff = 4d
    return V * d + Lctx * d + L * (12 * d * d + 13 * d) + 2 * d


# ---------------------------------------------------------------- 例 3.3
p = [F(5, 10), F(2, 10), F(2, 10), F(1, 10)]
q = [F(3, 10), F(4, 10), F(1, 10), F(2, 10)]
a33 = alpha(p, q)
r33 = residual(p, q)
acc = [min(F(1), pj / qj) for pj, qj in zip(p, q)]
out = [min(pj, qj) + (1 - a33) * rj for pj, qj, rj in zip(p, q, r33)]
check("$\\alpha = 0.3 + 0.2 + 0.1 + 0.1 = 0.7$", "0.7", a33, "ex3.3 alpha")
check("$\\frac{1}{2}(0.2 + 0.2 + 0.1 + 0.1) = 0.3 = 1 - 0.7$", "0.3", tv(p, q), "ex3.3 TV")
check_true("= 0.3 = 1 - 0.7$", tv(p, q) == 1 - a33, "ex3.3 TV = 1 - alpha (Lemma 3.1)")
for v, s_ in zip([min(a, b) for a, b in zip(p, q)], ["0.3", "0.2", "0.1", "0.1"]):
    check("$\\alpha = 0.3 + 0.2 + 0.1 + 0.1 = 0.7$", s_, v, f"ex3.3 min term {s_}")
rows = table("$j$\t$p_j$\t$q_j$\t$\\min(p_j, q_j)$")
for j, row in enumerate(rows[:4]):
    vals = [j + 1, p[j], q[j], min(p[j], q[j]), acc[j], max(0, p[j] - q[j]), r33[j], out[j]]
    for c_, (cell, v) in enumerate(zip(row, vals)):
        check_cell(f"ex3.3 table row {j+1} col {c_+1}", cell, v)
tot = rows[4]
assert tot[0] == "合計" and tot[4] == ""
for c_, v in [(1, sum(p)), (2, sum(q)), (3, a33), (5, sum(max(0, a - b) for a, b in zip(p, q))),
              (6, sum(r33)), (7, sum(out))]:
    check_cell(f"ex3.3 table total col {c_+1}", tot[c_], v)
check("$0.4 \\times 0.5 = 0.2 = p_2$", "0.2", q[1] * acc[1], "ex3.3 q2*a2")
check("不足分 0.2 を棄却のとき（確率 0.3）", "0.2", p[0] - q[0], "ex3.3 shortfall of token 1")
check("不足分 0.2 を棄却のとき（確率 0.3）", "0.3", 1 - a33, "ex3.3 rejection prob")
check_true("残差分布 $(2/3, 0, 1/3, 0)$", r33 == [F(2, 3), 0, F(1, 3), 0], "ex3.3 residual = (2/3, 0, 1/3, 0)")
check("$0.3 \\times 2/3 = 0.2$", "0.2", (1 - a33) * r33[0], "ex3.3 (1-alpha) r1")
check("$0.3 + 0.2 = 0.5 = p_1$", "0.5", out[0], "ex3.3 output prob 1")
check("$0.1 + 0.3 \\times 1/3 = 0.2$", "0.2", out[2], "ex3.3 output prob 3")
check_true("減らした分の合計と不足分の合計は、どちらも $1 - \\alpha$ です",
           sum(max(0, b - a) for a, b in zip(p, q)) == 1 - a33 == sum(max(0, a - b) for a, b in zip(p, q)),
           "ex3.3 excess total = shortfall total = 1 - alpha")

# 注意 3.4
naive = [min(pj, qj) + (1 - a33) * pj for pj, qj in zip(p, q)]
for v, s_ in zip(naive, ["0.45", "0.26", "0.16", "0.13"]):
    check("= (0.45,\\ 0.26,\\ 0.16,\\ 0.13)$", s_, v, f"rem3.4 naive output {s_}")
for v, s_ in zip([abs(a - b) for a, b in zip(naive, p)], ["0.05", "0.06", "0.04", "0.03"]):
    check("$\\frac{1}{2}(0.05 + 0.06 + 0.04 + 0.03) = 0.09$", s_, v, f"rem3.4 |diff| {s_}")
check("$\\frac{1}{2}(0.05 + 0.06 + 0.04 + 0.03) = 0.09$", "0.09", tv(naive, p), "rem3.4 TV")

# ---------------------------------------------------------------- 4 節
a8 = F(8, 10)
check("平均 5 トークン未満", "5", 1 / (1 - a8), "prop4.2 remark limit 1/(1-0.8)")
check_true("平均 5 トークン未満", all(E(a8, g) < 5 for g in range(200)), "E_gamma(0.8) < 5 for gamma < 200")
rows = table("$N + 1$\t確率\t式")
dist = [a8 ** k * (1 - a8) for k in range(4)] + [a8 ** 4]
for k, row in enumerate(rows[:5]):
    check_cell(f"ex4.3 row {k+1} N+1", row[0], k + 1)
    check_cell(f"ex4.3 row {k+1} prob", row[1], dist[k])
    check_cell(f"ex4.3 row {k+1} (N+1)*prob", row[3], (k + 1) * dist[k])
check_cell("ex4.3 total prob", rows[5][1], sum(dist))
check_cell("ex4.3 total mean", rows[5][3], sum((k + 1) * dist[k] for k in range(5)))
check("$E_4(0.8) = (1 - 0.8^5)/(1 - 0.8) = (1 - 0.32768)/0.2 = 3.3616$", "0.32768", a8 ** 5, "ex4.3 0.8^5")
check("$E_4(0.8) = (1 - 0.8^5)/(1 - 0.8) = (1 - 0.32768)/0.2 = 3.3616$", "0.2", 1 - a8, "ex4.3 1-0.8")
check("$E_4(0.8) = (1 - 0.8^5)/(1 - 0.8) = (1 - 0.32768)/0.2 = 3.3616$", "3.3616", E(a8, 4), "ex4.3 E_4(0.8)")
check_true("$E_4(0.8) = (1 - 0.8^5)/(1 - 0.8)", E(a8, 4) == (1 - a8 ** 5) / (1 - a8), "closed form = sum")
check("約 41 % のステップでは", "41", 100 * a8 ** 4, "ex4.3 P(all accepted) %")
check("$3.3616 - 1 = 2.3616$", "2.3616", E(a8, 4) - 1, "ex4.3 E[N]")
check("4 個のうち平均 $1.6384$ 個は捨てられます", "1.6384", 4 - (E(a8, 4) - 1), "ex4.3 discarded drafts")

rows = table("$\\alpha$\t$\\gamma = 1$\t$\\gamma = 2$\t$\\gamma = 3$\t$\\gamma = 5$\t$\\gamma = 7$\t$\\gamma = 10$\t極限")
alphas44 = [F(5, 10), F(6, 10), F(7, 10), F(8, 10), F(9, 10), F(95, 100)]
for row, a in zip(rows, alphas44):
    check_cell(f"ex4.4 alpha", row[0], a)
    for cell, g in zip(row[1:7], (1, 2, 3, 5, 7, 10)):
        check_cell(f"ex4.4 E_{g}({row[0]})", cell, E(a, g))
    check_cell(f"ex4.4 limit({row[0]})", row[7], 1 / (1 - a))
assert len(rows) == 6
check_true("$\\gamma = 1$ の列は $1 + \\alpha$ です", all(E(a, 1) == 1 + a for a in alphas44), "E_1 = 1 + alpha")
check("$1.8750/2 = 93.75\\,\\%$", "93.75", 100 * E(F(1, 2), 3) / 2, "ex4.4 ratio alpha=0.5, gamma=3")
check("$8.6240/20 \\approx 43.12\\,\\%$", "43.12", 100 * E(F(95, 100), 10) / 20, "ex4.4 ratio alpha=0.95, gamma=10")

# ---------------------------------------------------------------- 注意 5.2
d, i, g = 768, 1024, 5
tot_mult = sum(12 * d * d + 2 * (i + j) * d for j in range(g + 1))
one = 12 * d * d + 2 * i * d
check("$6 \\times 7{,}077{,}888 + 1{,}536 \\times 6{,}159", "7{,}077{,}888", 12 * d * d, "rem5.2 12d^2")
check("$6 \\times 7{,}077{,}888 + 1{,}536 \\times 6{,}159", "6", g + 1, "rem5.2 gamma+1")
check("$6 \\times 7{,}077{,}888 + 1{,}536 \\times 6{,}159", "1{,}536", 2 * d, "rem5.2 2d")
check("$6 \\times 7{,}077{,}888 + 1{,}536 \\times 6{,}159", "6{,}159", (g + 1) * i + g * (g + 1) // 2, "rem5.2 (g+1)i + g(g+1)/2")
check("= 42{,}467{,}328 + 9{,}460{,}224 = 51{,}927{,}552$", "42{,}467{,}328", (g + 1) * 12 * d * d, "rem5.2 first term")
check("= 42{,}467{,}328 + 9{,}460{,}224 = 51{,}927{,}552$", "9{,}460{,}224", 2 * d * ((g + 1) * i + g * (g + 1) // 2), "rem5.2 second term")
check("= 42{,}467{,}328 + 9{,}460{,}224 = 51{,}927{,}552$", "51{,}927{,}552", tot_mult, "rem5.2 total (direct sum)")
check_true("$$\\sum_{j=0}^{\\gamma}\\big(12d^2 + 2(i + j)d\\big) = 12(\\gamma + 1)d^2",
           tot_mult == 12 * (g + 1) * d * d + 2 * d * ((g + 1) * i + F(g * (g + 1), 2)), "rem5.2 closed form")
check("1 個のときの $8{,}650{,}752$ 回の約 6.003 倍", "8{,}650{,}752", one, "rem5.2 one token")
check("1 個のときの $8{,}650{,}752$ 回の約 6.003 倍", "6.003", F(tot_mult, one), "rem5.2 ratio")

# ---------------------------------------------------------------- 例 5.4
V, Lctx = 50257, 1024
P_target = params(V, 768, 12, Lctx)
P_draft = params(V, 256, 4, Lctx)
c54 = F(P_draft, P_target)
check("（パラメータ数 124,439,808。", "124,439,808", P_target, "ex5.4 target params (Thm 5.1)")
check("$50{,}257 \\times 256 = 12{,}865{,}792$", "12{,}865{,}792", V * 256, "ex5.4 embedding")
check("$1{,}024 \\times 256 = 262{,}144$", "262{,}144", Lctx * 256, "ex5.4 positions")
check("$12 \\times 256^2 + 13 \\times 256 = 786{,}432 + 3{,}328 = 789{,}760$", "786{,}432", 12 * 256 ** 2, "ex5.4 12d^2")
check("$12 \\times 256^2 + 13 \\times 256 = 786{,}432 + 3{,}328 = 789{,}760$", "3{,}328", 13 * 256, "ex5.4 13d")
check("$12 \\times 256^2 + 13 \\times 256 = 786{,}432 + 3{,}328 = 789{,}760$", "789{,}760", 12 * 256 ** 2 + 13 * 256, "ex5.4 per layer")
check("4 層で $3{,}159{,}040$", "3{,}159{,}040", 4 * (12 * 256 ** 2 + 13 * 256), "ex5.4 4 layers")
check("$2 \\times 256 = 512$", "512", 2 * 256, "ex5.4 final LN")
check("合計 $16{,}287{,}488$ です", "16{,}287{,}488", P_draft, "ex5.4 draft params")
check("そのうち約 79.0 % が埋め込みです", "79.0", F(100 * V * 256, P_draft), "ex5.4 embedding share %")
check("$c = 16{,}287{,}488/124{,}439{,}808 \\approx 0.1309$", "0.1309", c54, "ex5.4 c")
rows = table("$\\gamma$\t$E_\\gamma(0.8)$\t1 ステップの時間")
assert len(rows) == 8
for row, gg in zip(rows, range(1, 9)):
    check_cell(f"ex5.4 gamma", row[0], gg)
    check_cell(f"ex5.4 E_{gg}(0.8)", row[1], E(a8, gg))
    check_cell(f"ex5.4 cost gamma={gg}", row[2], gg * c54 + 1)
    check_cell(f"ex5.4 S gamma={gg}", row[3], S(a8, gg, c54))
check("最大は $\\gamma = 5$ の約 2.230 倍です", "5", best_gamma(a8, c54), "ex5.4 argmax S")
check("最大は $\\gamma = 5$ の約 2.230 倍です", "2.230", S(a8, best_gamma(a8, c54), c54), "ex5.4 max S")
check("$f(4) = 0.8^5 \\times 1.5235 - 0.1309 \\times 3.3616 \\approx 0.0592 > 0$", "1.5235", 1 + 4 * c54, "ex5.4 1+4c")
check("$f(4) = 0.8^5 \\times 1.5235 - 0.1309 \\times 3.3616 \\approx 0.0592 > 0$", "0.0592", f_crit(a8, 4, c54), "ex5.4 f(4)")
check("$f(5) = 0.8^6 \\times 1.6544 - 0.1309 \\times 3.6893 \\approx -0.0492 < 0$", "1.6544", 1 + 5 * c54, "ex5.4 1+5c")
check("$f(5) = 0.8^6 \\times 1.6544 - 0.1309 \\times 3.6893 \\approx -0.0492 < 0$", "3.6893", E(a8, 5), "ex5.4 E_5")
check("$f(5) = 0.8^6 \\times 1.6544 - 0.1309 \\times 3.6893 \\approx -0.0492 < 0$", "-0.0492", f_crit(a8, 5, c54), "ex5.4 f(5)")
check("なので $\\gamma^{*} = 5$ で、表の増減と一致します", "5", gamma_star(a8, c54), "ex5.4 gamma* from f")
check_true("$\\gamma$ を 8 まで増やすと、期待トークン数はまだ増えますが",
           all(S(a8, gg + 1, c54) < S(a8, gg, c54) for gg in range(5, 8)) and all(E(a8, gg + 1) > E(a8, gg) for gg in range(5, 8)),
           "ex5.4 S decreasing, E increasing for gamma = 5..8")

# ---------------------------------------------------------------- 例 5.5
c55 = F(5, 100)
check("$c = 0.05$ のときの", "0.05", c55, "ex5.5 c")
rows = table("$\\alpha$\t$\\gamma = 1$\t$\\gamma = 2$\t$\\gamma = 3$\t$\\gamma = 5$\t$\\gamma = 7$\t$\\gamma = 10$\t$\\gamma^{*}$")
alphas55 = [F(6, 10), F(7, 10), F(8, 10), F(9, 10), F(95, 100)]
assert len(rows) == 5
for row, a in zip(rows, alphas55):
    check_cell("ex5.5 alpha", row[0], a)
    for cell, gg in zip(row[1:7], (1, 2, 3, 5, 7, 10)):
        check_cell(f"ex5.5 S({row[0]}, {gg})", cell, S(a, gg, c55))
    gs = gamma_star(a, c55)
    check_cell(f"ex5.5 gamma*({row[0]}) via f", row[7], gs)
    check_cell(f"ex5.5 gamma*({row[0]}) via argmax", row[7], best_gamma(a, c55))
    check_cell(f"ex5.5 S*({row[0]})", row[8], S(a, gs, c55))
check_true("$\\gamma = 1$ の列は $(1 + \\alpha)/1.05$ です", all(S(a, 1, c55) == (1 + a) / F(105, 100) for a in alphas55), "S_1 = (1+alpha)/1.05")
check("$\\gamma = 10$ の値 1.661 が $\\gamma = 3$ の 1.892 より小さい", "1.661", S(F(6, 10), 10, c55), "ex5.5 S(0.6,10)")
check("$\\gamma = 10$ の値 1.661 が $\\gamma = 3$ の 1.892 より小さい", "1.892", S(F(6, 10), 3, c55), "ex5.5 S(0.6,3)")
check("ではどれほど安い下書きでも 2.5 倍未満です", "2.5", 1 / (1 - F(6, 10)), "ex5.5 limit 1/(1-0.6)")
check("$6/3.6893 \\approx 1.626$ 個", "1.626", 6 / E(a8, 5), "target positions per token")
check("$6/3.6893 \\approx 1.626$ 個", "6", 5 + 1, "gamma+1")
check("$5/3.6893 \\approx 1.355$ 個", "1.355", 5 / E(a8, 5), "draft positions per token")

# ---------------------------------------------------------------- 例 6.2
z = [2, 1, F(1, 2), -1]
pz = softmax(z)
for v, s_ in zip(pz, ["0.6095", "0.2242", "0.1360", "0.0303"]):
    check("$\\boldsymbol{p} = (0.6095, 0.2242, 0.1360, 0.0303)$", s_, v, f"ex6.2 p {s_}")
rows = table("$T$\t$q_1$\t$q_2$\t$q_3$\t$q_4$\t受理率")
assert len(rows) == 9
for row in rows:
    label = row[0]
    if label.startswith("0（貪欲）"):
        qq = [mp.mpf(1), mp.mpf(0), mp.mpf(0), mp.mpf(0)]
    elif label.startswith("∞"):
        qq = [mp.mpf(1) / 4] * 4
    else:
        qq = softmax(z, mp.mpf(label))
    for k in range(4):
        check_cell(f"ex6.2 T={label} q_{k+1}", row[1 + k], qq[k])
    check_cell(f"ex6.2 T={label} alpha", row[5], alpha(pz, qq))
q2 = softmax(z, 2)
check_true("$T = 2$ では $q_1 < p_1$、それ以外の成分は $q_j > p_j$",
           q2[0] < pz[0] and all(q2[k] > pz[k] for k in (1, 2, 3)), "ex6.2 T=2 sign pattern")
snip = "$\\alpha = 0.4344 + 0.2242 + 0.1360 + 0.0303 = 0.8249$"
for v, s_ in zip([q2[0], pz[1], pz[2], pz[3]], ["0.4344", "0.2242", "0.1360", "0.0303"]):
    check(snip, s_, v, f"ex6.2 T=2 min term {s_}")
check(snip, "0.8249", alpha(pz, q2), "ex6.2 T=2 alpha")
snip = "$\\alpha = 0.25 + 0.2242 + 0.1360 + 0.0303 = 0.6405$"
check(snip, "0.25", min(pz[0], mp.mpf(1) / 4), "ex6.2 uniform min term 1")
check(snip, "0.6405", alpha(pz, [mp.mpf(1) / 4] * 4), "ex6.2 uniform alpha")
alist = [alpha(pz, softmax(z, mp.mpf(t))) for t in ("0.25", "0.5", "0.75", "1", "1.5", "2", "4")]
check_true("$\\alpha$ は $T = 1$ で最大の 1 になり、温度のずれが大きいほど下がります",
           alist[0] < alist[1] < alist[2] < alist[3] > alist[4] > alist[5] > alist[6]
           and pz[0] < alist[0] and alpha(pz, [mp.mpf(1) / 4] * 4) < alist[6], "ex6.2 monotone on both sides of T = 1")
check_true("どちらの極限でも 0.6 を超えています", min(pz[0], alpha(pz, [mp.mpf(1) / 4] * 4)) > 0.6, "ex6.2 both limits > 0.6")
# T -> +0 の極限が貪欲の行であること
check_true("$T \\to +0$ の極限", abs(alpha(pz, softmax(z, mp.mpf("0.01"))) - pz[0]) < mp.mpf("1e-30"), "ex6.2 T->0 limit = p_1")

# ---------------------------------------------------------------- 7 節の本文の数値
check("$\\sqrt{0.25/200000} \\approx 0.0011$", "0.0011", mp.sqrt(mp.mpf("0.25") / 200000), "sec7 sd of frequency")
check("$E_4(0.7) = (1 - 0.7^5)/0.3 \\approx 2.7731$", "2.7731", E(F(7, 10), 4), "sec7 E_4(0.7)")
check("$E_4(0.7) = (1 - 0.7^5)/0.3 \\approx 2.7731$", "0.3", 1 - F(7, 10), "sec7 1 - 0.7")

# ---------------------------------------------------------------- 演習
p1 = [F(6, 10), F(3, 10), F(1, 10)]
q1 = [F(2, 10), F(5, 10), F(3, 10)]
a1 = alpha(p1, q1)
check("$\\min(p_j, q_j) = (0.2, 0.3, 0.1)$ なので $\\alpha = 0.6$", "0.6", a1, "exr8.1 alpha")
for v, s_ in zip([min(a, b) for a, b in zip(p1, q1)], ["0.2", "0.3", "0.1"]):
    check("$\\min(p_j, q_j) = (0.2, 0.3, 0.1)$", s_, v, f"exr8.1 min {s_}")
check("$\\frac{1}{2}(0.4 + 0.2 + 0.2) = 0.4 = 1 - 0.6$", "0.4", tv(p1, q1), "exr8.1 TV")
for v, s_ in zip([abs(a - b) for a, b in zip(p1, q1)], ["0.4", "0.2", "0.2"]):
    check("$\\frac{1}{2}(0.4 + 0.2 + 0.2) = 0.4 = 1 - 0.6$", s_, v, f"exr8.1 |p-q| {s_}")
acc1 = [min(F(1), a / b) for a, b in zip(p1, q1)]
snip = "$a = (1,\\ 0.3/0.5,\\ 0.1/0.3) = (1,\\ 0.6,\\ 0.3333)$"
check(snip, "0.6", acc1[1], "exr8.1 a_2")
check(snip, "0.3333", acc1[2], "exr8.1 a_3")
check_true("残差分布は $(1, 0, 0)$ です", residual(p1, q1) == [1, 0, 0] and acc1[0] == 1, "exr8.1 residual and a_1")
out1 = [min(a, b) + (1 - a1) * r for a, b, r in zip(p1, q1, residual(p1, q1))]
check("$0.2 \\times 1 + 0.4 \\times 1 = 0.6$", "0.6", out1[0], "exr8.1 output 1")
check("$0.5 \\times 0.6 = 0.3$", "0.3", out1[1], "exr8.1 output 2")
check("$0.3 \\times 1/3 = 0.1$", "0.1", out1[2], "exr8.1 output 3")

a75, c01 = F(3, 4), F(1, 10)
check("$E_\\gamma(0.75) = 4(1 - 0.75^{\\gamma+1})$", "4", 1 / (1 - a75), "exr8.2 1/(1-alpha)")
check("$E_4 = 4(1 - 0.2373) \\approx 3.0508$", "0.2373", a75 ** 5, "exr8.2 0.75^5")
check("$E_4 = 4(1 - 0.2373) \\approx 3.0508$", "3.0508", E(a75, 4), "exr8.2 E_4")
snip = "$f(4) = 0.75^5 \\times 1.4 - 0.1 \\times 3.0508 \\approx 0.3322 - 0.3051 = 0.0271 > 0$"
check(snip, "1.4", 1 + 4 * c01, "exr8.2 1+4c")
check(snip, "0.3322", a75 ** 5 * (1 + 4 * c01), "exr8.2 first term f(4)")
check(snip, "0.3051", c01 * E(a75, 4), "exr8.2 second term f(4)")
check(snip, "0.0271", f_crit(a75, 4, c01), "exr8.2 f(4)")
check("$\\gamma = 5$ では $E_5 \\approx 3.2881$", "3.2881", E(a75, 5), "exr8.2 E_5")
snip = "$f(5) = 0.75^6 \\times 1.5 - 0.1 \\times 3.2881 \\approx 0.2670 - 0.3288 = -0.0618 < 0$"
check(snip, "1.5", 1 + 5 * c01, "exr8.2 1+5c")
check(snip, "0.2670", a75 ** 6 * (1 + 5 * c01), "exr8.2 first term f(5)")
check(snip, "0.3288", c01 * E(a75, 5), "exr8.2 second term f(5)")
check(snip, "-0.0618", f_crit(a75, 5, c01), "exr8.2 f(5)")
check("$f$ は狭義に減少するので $\\gamma^{*} = 5$", "5", gamma_star(a75, c01), "exr8.2 gamma* via f")
check("$f$ は狭義に減少するので $\\gamma^{*} = 5$", "5", best_gamma(a75, c01), "exr8.2 gamma* via argmax")
check("速度向上率は $3.2881/1.5 \\approx 2.192$ です", "2.192", S(a75, 5, c01), "exr8.2 S_5")
check("$S_4 = 3.0508/1.4 \\approx 2.179$", "2.179", S(a75, 4, c01), "exr8.2 S_4")
check("$S_6 = 3.4661/1.6 \\approx 2.166$", "3.4661", E(a75, 6), "exr8.2 E_6")
check("$S_6 = 3.4661/1.6 \\approx 2.166$", "1.6", 1 + 6 * c01, "exr8.2 1+6c")
check("$S_6 = 3.4661/1.6 \\approx 2.166$", "2.166", S(a75, 6, c01), "exr8.2 S_6")

check("極限は $1/0.25 = 4$ で", "4", 1 / (1 - a75), "exr8.3 limit")
check("$\\gamma + 1 \\ge \\log 0.1/\\log 0.75 \\approx 8.0039$", "8.0039", mp.log(mp.mpf("0.1")) / mp.log(mp.mpf("0.75")), "exr8.3 log ratio")
g_min = next(gg for gg in range(100) if E(a75, gg) >= F(9, 10) * 4)
check("なので $\\gamma + 1 = 9$、すなわち $\\gamma = 8$ です", "9", g_min + 1, "exr8.3 gamma+1")
check("なので $\\gamma + 1 = 9$、すなわち $\\gamma = 8$ です", "8", g_min, "exr8.3 smallest gamma (direct search)")
check("$0.75^8 \\approx 0.1001$", "0.1001", a75 ** 8, "exr8.3 0.75^8")
check("$E_7 \\approx 3.5995 < 3.6$", "3.5995", E(a75, 7), "exr8.3 E_7")
check("$E_7 \\approx 3.5995 < 3.6$", "3.6", F(9, 10) * 4, "exr8.3 90% of limit")
check("$0.75^9 \\approx 0.0751$", "0.0751", a75 ** 9, "exr8.3 0.75^9")
check("$E_8 \\approx 3.6997 \\ge 3.6$", "3.6997", E(a75, 8), "exr8.3 E_8")


# ---------------------------------------------------------------- リスティング
def blocks_after(start):
    """start 行から、空行で区切られたブロックのリストを返す（次の見出し風の行まで）。"""
    out, cur, i = [], [], start
    while i < len(LINES):
        l = LINES[i]
        if l.strip() == "":
            if cur:
                out.append(cur)
                cur = []
        else:
            cur.append(l)
        i += 1
    if cur:
        out.append(cur)
    return out


def extract_listings():
    """'# Python' で始まる行からのブロックを、compile できる最長の並びとして取り出し、
    そのあとの 1 ブロックを印字された出力とする。"""
    found = []
    for i, l in enumerate(LINES):
        if not l.startswith("# Python 3"):
            continue
        blks = blocks_after(i)
        best = None
        for k in range(1, min(len(blks), 60) + 1):
            src = "\n\n".join("\n".join(b) for b in blks[:k]) + "\n"
            try:
                compile(src, "<listing>", "exec")
                best = k
            except SyntaxError:
                pass
        code = "\n\n".join("\n".join(b) for b in blks[:best]) + "\n"
        # ブロックの間の空行は 1 行とは限らないので、章の行から正確に切り出し直す
        last_line = blks[best - 1][-1]
        j = i
        while LINES[j] != last_line:
            j += 1
        code = "\n".join(LINES[i:j + 1]) + "\n"
        printed = blks[best]
        found.append((code, printed))
    return found


listings = extract_listings()
check_true("# Python 3.11.7, NumPy 2.4.6", len(listings) == 1, "exactly one listing found")
ver = f"# Python {sys.version.split()[0]}, NumPy {np.__version__}"
check_true(ver, True, f"listing header matches this interpreter ({ver})")
with tempfile.TemporaryDirectory() as tmp:
    code, printed = listings[0]
    path = os.path.join(tmp, "speculative.py")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(code)
    same_file = open(os.path.join(HERE, "speculative.py"), encoding="utf-8").read() == code
    check_true("speculative.py として保存します", same_file, "speculative.py in the folder equals the chapter's listing")
    res = subprocess.run([sys.executable, path], cwd=tmp, capture_output=True, text=True, timeout=600)
    got = res.stdout.rstrip("\n").split("\n")
    n_checked += 1
    if res.returncode != 0 or got != printed:
        n_failed += 1
        print("FAIL listing output differs")
        for a_, b_ in zip(got, printed):
            if a_ != b_:
                print("   ran    :", a_)
                print("   printed:", b_)
        print(res.stderr)
    else:
        print(f"OK   listing output ({len(got)} lines) matches the printed output exactly")

# 出力の数値を本文が引用している箇所
out_lines = got                     # 実行して得た出力から読む
freq = [float(x) for x in re.search(r"frequencies \[([^\]]+)\]", out_lines[1]).group(1).split()]
rate = float(re.search(r"acceptance rate ([0-9.]+)", out_lines[1]).group(1))
dev = max(max(abs(f_ - float(pj)) for f_, pj in zip(freq, p)), abs(rate - 0.7))
check_true("どれも 0.0012 以内で一致します", dev <= 0.0012, f"sec7 max deviation {dev:.4f} <= 0.0012")
tps = re.search(r"tokens per step ([0-9.]+)  formula ([0-9.]+)", out_lines[2])
check("$E_4(0.7) = (1 - 0.7^5)/0.3 \\approx 2.7731$", "2.7731", F(tps.group(2)), "sec7 formula value in output")
check_true("1 ステップあたりのトークン数の平均が", abs(float(tps.group(1)) - float(E(F(7, 10), 4))) < 0.01,
           "sec7 simulated tokens per step within 0.01 of E_4(0.7)")
al = [float(x) for x in re.search(r"\[([^\]]+)\]", out_lines[3]).group(1).split()]
check("直前のトークンによって 0.6899 から 0.8948 まで変わります", "0.6899", F(str(min(al))), "rem4.5 min alpha (listing)")
check("直前のトークンによって 0.6899 から 0.8948 まで変わります", "0.8948", F(str(max(al))), "rem4.5 max alpha (listing)")
tvs = re.search(r"TV to exact ([0-9.]+)  \(direct sampling ([0-9.]+)\)", out_lines[4])
check("全変動距離は 0.0175 で", "0.0175", F(tvs.group(1)), "sec7 TV speculative (listing)")
check("直接 2 万回引いた場合の 0.0178 と", "0.0178", F(tvs.group(2)), "sec7 TV direct (listing)")
check_true("64 通りの列", 4 ** 3 == 64, "sec7 4^3 = 64 sequences")
# 1 行目の例 3.3 の値を、計算値と照合
m = re.search(r"alpha ([0-9.]+)  TV ([0-9.]+)", out_lines[0])
check_cell("sec7 listing alpha", m.group(1), a33)
check_cell("sec7 listing TV", m.group(2), tv(p, q))
res_printed = re.search(r"residual \[([^\]]+)\]", out_lines[0]).group(1).split()
for k, cell in enumerate(res_printed):
    check_cell(f"sec7 listing residual {k+1}", cell if "." in cell and cell[-1] != "." else cell.rstrip("."), r33[k])

print(f"\n{n_checked} checks, {n_failed} failed")
sys.exit(1 if n_failed else 0)

#!/usr/bin/env python3
"""moe.mdx（混合エキスパート）に書かれた数値を、定義から計算し直して照合する。

各数値について「章の中の文脈（その数値を含む文字列）」「印字された数値」「定義から計算した値」
を並べ、文脈が章にあること、計算値を印字の桁で丸めると印字の値になることを確かめる。
最後に章のコードを取り出して実行し、出力が章に貼られた出力と一字一句同じかを確かめる。
1 つでも合わなければ終了コード 1 で終わる。
"""
import math
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
CHAPTER = os.path.join(HERE, "moe.mdx")
TEXT = open(CHAPTER, encoding="utf-8").read()

n_checked = 0
failures = []


def parse_number(s):
    """印字された数値の文字列 → (値, 丸めの幅)。'1{,}152'、'4,722,432'、'0.6225'、'1.75 \\times 10^{-46}' など。"""
    t = s.replace("{,}", "").replace(",", "").replace("\\,", "").replace("−", "-").strip()
    m = re.fullmatch(r"(-?\d+(?:\.(\d+))?)(?:\s*\\times\s*10\^\{(-?\d+)\})?", t)
    if not m:
        raise ValueError("cannot parse %r" % s)
    mant, frac, exp = m.group(1), m.group(2), m.group(3)
    dec = len(frac) if frac else 0
    scale = 10.0 ** int(exp) if exp else 1.0
    return float(mant) * scale, 0.5 * 10.0 ** (-dec) * scale


def check(context, printed, value, label=""):
    """context が章にあり、printed が context に含まれ、value を printed の桁で丸めると printed になるか。"""
    global n_checked
    n_checked += 1
    present = context in TEXT and printed in context
    v, half = parse_number(printed)
    value = float(value)
    ok = present and abs(value - v) <= half * (1 + 1e-9) + 1e-12 * max(1.0, abs(v))
    status = "ok  " if ok else "FAIL"
    where = "" if present else "  [context not found]"
    print("%s %-44s printed %-16s computed %.10g%s" % (status, label[:44], printed, value, where))
    if not ok:
        failures.append((label, printed, value))


def check_formula(label, lhs, rhs):
    """記号の式が恒等的に等しいかを SymPy で確かめる（章の式の変形の検算）。"""
    global n_checked
    n_checked += 1
    ok = sp.simplify(lhs - rhs) == 0
    print("%s %-44s %s = %s" % ("ok  " if ok else "FAIL", label[:44], lhs, rhs))
    if not ok:
        failures.append((label, str(lhs), str(rhs)))


def table_rows(first_cell_prefix):
    """MDX の表から、最初のセルが first_cell_prefix で始まる行のセルのリストを返す。"""
    rows = []
    for line in TEXT.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0].startswith(first_cell_prefix):
                rows.append((line, cells))
    return rows


def row(first_cell):
    rs = [r for r in table_rows(first_cell) if r[1][0] == first_cell]
    if len(rs) != 1:
        raise RuntimeError("table row %r: found %d" % (first_cell, len(rs)))
    return rs[0]


def cell_number(cell):
    return cell.replace("%", "").replace(" ", "").strip()


# ---------------------------------------------------------------- 定義どおりの関数
def softmax(z):
    z = np.asarray(z, dtype=float)
    e = np.exp(z - z.max())
    return e / e.sum()


def topk(r, k):
    return list(np.argsort(-np.asarray(r), kind="stable")[:k])


def renormalised(r, k):
    p = softmax(r)
    T = topk(r, k)
    return T, p, p[T] / p[T].sum()


def balance(f, P):
    f, P = np.asarray(f, float), np.asarray(P, float)
    return len(f) * float(f @ P)


def capacity(c, k, T, E):
    return math.ceil(Fraction(c).limit_denominator(1000) * k * T / E)


def dropped(load, C):
    return int(sum(max(0, n - C) for n in load))


def moe_params(E, k, d, dff):
    expert = 2 * d * dff + dff + d
    return E * expert + d * E, k * expert + d * E


def moe_mults(E, k, d, dff):
    return d * E + 2 * k * d * dff + k * d


# ---------------------------------------------------------------- 0 節・6 節の式（記号）
d, dff, E, k, n = sp.symbols("d d_ff E k n", positive=True)
check_formula("MLP 部分 2nd d_ff (d_ff = 4d) = 8nd^2", (2 * n * d * dff).subs(dff, 4 * d), 8 * n * d**2)
check_formula("専門家 1 個 (d_ff = 4d) = 8d^2 + 5d", (2 * d * dff + dff + d).subs(dff, 4 * d), 8 * d**2 + 5 * d)
check_formula("MoE 層全体 = E(8d^2 + 6d)", (E * (2 * d * dff + dff + d) + d * E).subs(dff, 4 * d), E * (8 * d**2 + 6 * d))
check_formula("乗算 (d_ff = 4d) = 8kd^2 + (E+k)d", (d * E + 2 * k * d * dff + k * d).subs(dff, 4 * d), 8 * k * d**2 + (E + k) * d)
check_formula("乗算 / 8d^2 = k + (E+k)/(8d)", ((d * E + 8 * k * d**2 + k * d) / (8 * d**2)), k + (E + k) / (8 * d))
check_formula("E/k と比の差の分子 = Ed(E-k)（k < E で正）",
              sp.factor(E * (k * (8 * d**2 + 5 * d) + d * E) - k * E * (8 * d**2 + 6 * d)), E * d * (E - k))
fs = sp.symbols("f1:5")
Ps = sp.symbols("P1:5")
B_def = 4 * sum(fi * Pi for fi, Pi in zip(fs, Ps))
B_dev = 1 + 4 * sum((fi - sp.Rational(1, 4)) * (Pi - sp.Rational(1, 4)) for fi, Pi in zip(fs, Ps))
constraint = {fs[3]: 1 - fs[0] - fs[1] - fs[2], Ps[3]: 1 - Ps[0] - Ps[1] - Ps[2]}
check_formula("命題 4.2 の 1（E = 4）", sp.expand(B_def.subs(constraint)), sp.expand(B_dev.subs(constraint)))

# ---------------------------------------------------------------- 例 3.2（手計算）
x = np.array([1.0, 0.5])
Wr = np.array([[1.0, 0.0, -0.5, 1.0], [0.0, 0.4, 0.0, 1.0]])
r = Wr.T @ x
ctx_r = "$\\boldsymbol{r} = W_r^{\\mathsf{T}}\\boldsymbol{x} = (1,\\ 0.2,\\ -0.5,\\ 1.5)$"
for val, s in zip(r, ["1", "0.2", "-0.5", "1.5"]):
    check(ctx_r, s, val, "例 3.2 ロジット r")
ctx_e = "$e^{1} = 2.7183$、$e^{0.2} = 1.2214$、$e^{-0.5} = 0.6065$、$e^{1.5} = 4.4817$ で和は $9.0279$"
for val, s in zip(np.exp(r), ["2.7183", "1.2214", "0.6065", "4.4817"]):
    check(ctx_e, s, val, "例 3.2 e^{r_i}")
check(ctx_e, "9.0279", np.exp(r).sum(), "例 3.2 和")
T2, p, w = renormalised(r, 2)
ctx_p = "$\\boldsymbol{p} = (0.3011,\\ 0.1353,\\ 0.0672,\\ 0.4964)$"
for val, s in zip(p, ["0.3011", "0.1353", "0.0672", "0.4964"]):
    check(ctx_p, s, val, "例 3.2 ゲート確率")
check("$\\mathcal{T} = \\{4, 1\\}$", "4", T2[0] + 1, "例 3.2 選ばれた専門家 1 位")
check("$\\mathcal{T} = \\{4, 1\\}$", "1", T2[1] + 1, "例 3.2 選ばれた専門家 2 位")
check("$p_4 + p_1 = 0.7975$", "0.7975", p[3] + p[0], "例 3.2 p4 + p1")
check("$w_4 = p_4/(p_4 + p_1) \\approx 0.6225$", "0.6225", w[0], "例 3.2 w4")
check("$w_1 \\approx 0.3775$", "0.3775", w[1], "例 3.2 w1")
check("$w_4 = e^{1.5}/(e^{1.5} + e^{1}) = 1/(1 + e^{-0.5}) \\approx 0.6225$", "0.6225", 1 / (1 + math.exp(-0.5)),
      "例 3.2 1/(1+e^-0.5)")
check("$\\mathrm{MoE}(\\boldsymbol{x}) = 0.6225\\,f_4(\\boldsymbol{x}) + 0.3775\\,f_1(\\boldsymbol{x})$", "0.6225", w[0], "例 3.2 出力の係数 w4")
check("$\\mathrm{MoE}(\\boldsymbol{x}) = 0.6225\\,f_4(\\boldsymbol{x}) + 0.3775\\,f_1(\\boldsymbol{x})$", "0.3775", w[1], "例 3.2 出力の係数 w1")
check("3 の評価は $0.7975 \\ge 2/4 = 0.5$", "0.5", 2 / 4, "例 3.2 k/E")
check("$k = 1$ なら専門家 4 だけを重み 1 で使い", "4", renormalised(r, 1)[0][0] + 1, "例 3.2 k=1 の専門家")
check("$k = 1$ なら専門家 4 だけを重み 1 で使い", "1", renormalised(r, 1)[2][0], "例 3.2 k=1 の重み")
assert np.allclose(renormalised(r, 4)[2], softmax(r)[renormalised(r, 4)[0]])  # k = 4 なら重みは p そのもの
check("$w_4 = 0.6225 \\le 2 \\times 0.4964 \\approx 0.993$", "0.993", (4 / 2) * p[3], "例 3.2 (E/k) p4")

# ---------------------------------------------------------------- 例 4.3（補助損失の表）
cases = {
    "一様": ([0.25] * 4, [0.25] * 4),
    "少し偏る": ([0.4, 0.3, 0.2, 0.1], [0.4, 0.3, 0.2, 0.1]),
    "大きく偏る": ([0.7, 0.1, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1]),
    "ほぼ 1 つに集中": ([0.97, 0.01, 0.01, 0.01], [0.97, 0.01, 0.01, 0.01]),
    "$\\boldsymbol{f}$ だけ一様": ([0.25] * 4, [0.7, 0.1, 0.1, 0.1]),
}
for name, (f, P) in cases.items():
    line, cells = row(name)
    check(line, cells[3], balance(f, P), "例 4.3 B（%s）" % name)
    check(line, cells[4], 4 * max(f), "例 4.3 E max f（%s）" % name)
dev2 = [(pi - 0.25) ** 2 for pi in [0.4, 0.3, 0.2, 0.1]]
ctx = "$\\sum_i (P_i - 0.25)^2 = 0.0225 + 0.0025 + 0.0025 + 0.0225 = 0.05$ なので $B = 1 + 4 \\times 0.05 = 1.2$"
for val, s in zip(dev2, ["0.0225", "0.0025", "0.0025", "0.0225"]):
    check(ctx, s, val, "例 4.3 (P_i - 1/4)^2")
check(ctx, "0.05", sum(dev2), "例 4.3 2 乗の和（少し偏る）")
check(ctx, "1.2", 1 + 4 * sum(dev2), "例 4.3 1 + 4×0.05")
dev3 = [(pi - 0.25) ** 2 for pi in [0.7, 0.1, 0.1, 0.1]]
ctx = "3 行目は $0.2025 + 3 \\times 0.0225 = 0.27$ なので $B = 1 + 4 \\times 0.27 = 2.08$"
check(ctx, "0.2025", dev3[0], "例 4.3 (0.7 - 0.25)^2")
check(ctx, "0.0225", dev3[1], "例 4.3 (0.1 - 0.25)^2")
check(ctx, "0.27", sum(dev3), "例 4.3 2 乗の和（大きく偏る）")
check(ctx, "2.08", 1 + 4 * sum(dev3), "例 4.3 1 + 4×0.27")

# ---------------------------------------------------------------- 注意 4.4（1 より小さくなる例）
Ptok = np.array([[0.55, 0.45]] * 3 + [[0.05, 0.95]])
assign = Ptok.argmax(axis=1)
f2 = np.bincount(assign, minlength=2) / len(assign)
P2 = Ptok.mean(axis=0)
check("割り当ては $\\boldsymbol{f} = (0.75, 0.25)$", "0.75", f2[0], "注意 4.4 f1")
check("割り当ては $\\boldsymbol{f} = (0.75, 0.25)$", "0.25", f2[1], "注意 4.4 f2")
check("3 対 1 に偏っています", "3", f2[0] * 4, "注意 4.4 専門家 1 の負荷")
check("$\\boldsymbol{P} = (0.425, 0.575)$", "0.425", P2[0], "注意 4.4 P1")
check("$\\boldsymbol{P} = (0.425, 0.575)$", "0.575", P2[1], "注意 4.4 P2")
ctx = "B = 2\\,(0.75 \\times 0.425 + 0.25 \\times 0.575) = 2 \\times 0.4625 = 0.925"
check(ctx, "0.4625", float(f2 @ P2), "注意 4.4 sum f P")
check(ctx, "0.925", balance(f2, P2), "注意 4.4 B")
dv = (f2 - 0.5) * (P2 - 0.5)
ctx = "ずれの積の和 $0.25 \\times (-0.075) + (-0.25) \\times 0.075 = -0.0375$"
check(ctx, "-0.075", P2[0] - 0.5, "注意 4.4 P1 - 1/2")
check(ctx, "0.075", P2[1] - 0.5, "注意 4.4 P2 - 1/2")
check(ctx, "-0.0375", dv.sum(), "注意 4.4 ずれの積の和")
check("$B = 1 - 2 \\times 0.0375 = 0.925$", "0.925", 1 + 2 * dv.sum(), "注意 4.4 1 + E×(ずれの積の和)")
check("$\\partial B/\\partial P_i = Ef_i$ は $(1.5,\\ 0.5)$", "1.5", 2 * f2[0], "注意 4.4 勾配 E f1")
check("$\\partial B/\\partial P_i = Ef_i$ は $(1.5,\\ 0.5)$", "0.5", 2 * f2[1], "注意 4.4 勾配 E f2")
check("5 の下界は $E\\min_i f_i = 2 \\times 0.25 = 0.5$", "0.5", 2 * f2.min(), "注意 4.4 下界 E min f")

# ---------------------------------------------------------------- 例 5.3（容量の表）
Tn, En, kn, load = 20, 4, 2, [15, 11, 9, 5]
check("割り当ては $kT = 40$ 個", "40", kn * Tn, "例 5.3 kT")
check("$ckT/E = 10c$ です", "10", kn * Tn / En, "例 5.3 kT/E")
for c in (0.75, 1.0, 1.25, 1.5, 2.0):
    line, cells = row("%.2f" % c)
    C = capacity(c, kn, Tn, En)
    D = dropped(load, C)
    vals = [C, D, max(0, kn * Tn - En * C), kn * (Tn - C), 100 * D / (kn * Tn), En * C,
            1 - (kn * Tn - D) / (En * C)]
    names = ["C", "D", "下界", "上界", "捨てる割合 %", "枠 EC", "空いた枠の割合"]
    for cell, val, nm in zip(cells[1:], vals, names):
        check(line, cell_number(cell), val, "例 5.3 c=%.2f %s" % (c, nm))
    assert max(0, kn * Tn - En * C) <= D <= kn * (Tn - C)
C1 = capacity(1.0, kn, Tn, En)
ctx = "専門家 1 の $15 - 10 = 5$ 個と専門家 2 の $11 - 10 = 1$ 個、計 6 個を捨てます"
check(ctx, "10", C1, "例 5.3 C (c=1)")
check(ctx, "5", load[0] - C1, "例 5.3 専門家 1 の超過")
check(ctx, "1", load[1] - C1, "例 5.3 専門家 2 の超過")
check(ctx, "6", dropped(load, C1), "例 5.3 D (c=1)")
C125 = capacity(1.25, kn, Tn, En)
ctx = "$10 \\times 1.25 = 12.5$ を切り上げて $C = 13$ になり、枠は $ckT = 50$ より 2 個多い 52 です"
check(ctx, "12.5", 1.25 * kn * Tn / En, "例 5.3 ckT/E (c=1.25)")
check(ctx, "13", C125, "例 5.3 C (c=1.25)")
check(ctx, "50", 1.25 * kn * Tn, "例 5.3 ckT")
check(ctx, "2", En * C125 - 1.25 * kn * Tn, "例 5.3 EC - ckT")
check(ctx, "52", En * C125, "例 5.3 EC")
check("捨てる数は $15 - 13 = 2$ です", "2", dropped(load, C125), "例 5.3 D (c=1.25)")
assert 1.25 * kn * Tn <= En * C125 < 1.25 * kn * Tn + En

# 注意 5.4（容量と因果性）の例：E = 2、k = 1、c = 1、4 トークンがすべて専門家 1
check("4 個のトークンがすべて専門家 1 を選ぶと、$C = 2$", "2", capacity(1.0, 1, 4, 2), "注意 5.4 C (T=4)")
check("$C = \\lceil 1 \\rceil = 1$", "1", capacity(1.0, 1, 2, 2), "注意 5.4 C (T=2)")

# ---------------------------------------------------------------- 例 6.3（d = 768 のパラメータと乗算）
dn, dffn = 768, 3072
expert = 2 * dn * dffn + dffn + dn
ctx = ("$2 \\times 768 \\times 3072 + 3072 + 768 = 4{,}718{,}592 + 3{,}840 = 4{,}722{,}432$")
check(ctx, "4{,}718{,}592", 2 * dn * dffn, "例 6.3 2 d d_ff")
check(ctx, "3{,}840", dffn + dn, "例 6.3 d_ff + d")
check(ctx, "4{,}722{,}432", expert, "例 6.3 専門家 1 個")
line, cells = row("密な MLP")
for cell, val, nm in zip(cells[1:], [expert, expert, 1.0, 2 * dn * dffn, 1.0],
                         ["パラメータ", "使う数", "比", "乗算", "乗算の比"]):
    check(line, cell_number(cell), val, "例 6.3 密な MLP %s" % nm)
for En_, kn_ in ((8, 1), (8, 2), (16, 2), (64, 2)):
    line, cells = row("$E = %d$、$k = %d$" % (En_, kn_))
    tot, act = moe_params(En_, kn_, dn, dffn)
    mul = moe_mults(En_, kn_, dn, dffn)
    for cell, val, nm in zip(cells[1:], [tot, act, tot / act, mul, mul / (2 * dn * dffn)],
                             ["パラメータ", "使う数", "比", "乗算", "乗算の比"]):
        check(line, cell_number(cell), val, "例 6.3 E=%d k=%d %s" % (En_, kn_, nm))
tot8, act8 = moe_params(8, 2, dn, dffn)
ctx = ("$8 \\times 4{,}722{,}432 + 768 \\times 8 = 37{,}779{,}456 + 6{,}144 = 37{,}785{,}600$ と "
       "$2 \\times 4{,}722{,}432 + 6{,}144 = 9{,}451{,}008$")
check(ctx, "37{,}779{,}456", 8 * expert, "例 6.3 8 × 専門家")
check(ctx, "6{,}144", dn * 8, "例 6.3 ルーター dE")
check(ctx, "37{,}785{,}600", tot8, "例 6.3 MoE 層 (E=8)")
check(ctx, "9{,}451{,}008", act8, "例 6.3 使う数 (E=8,k=2)")
ctx = "乗算は $6{,}144 + 2 \\times 4{,}718{,}592 + 2 \\times 768 = 9{,}444{,}864$ 回で、密な MLP の $2 + 10/6144 \\approx 2.0016$ 倍"
check(ctx, "9{,}444{,}864", moe_mults(8, 2, dn, dffn), "例 6.3 乗算 (E=8,k=2)")
check(ctx, "6144", 8 * dn, "例 6.3 8d")
check(ctx, "10", 8 + 2, "例 6.3 E + k")
check(ctx, "2.0016", 2 + 10 / 6144, "例 6.3 k + (E+k)/(8d)")
check(ctx, "2.0016", moe_mults(8, 2, dn, dffn) / (2 * dn * dffn), "例 6.3 乗算の比（定義どおり）")
ctx = "パラメータは 8 倍になりますが、乗算は 9,444,864 回から 9,487,872 回へ約 0.46 % しか増えません"
check(ctx, "8", moe_params(64, 2, dn, dffn)[0] / tot8, "例 6.3 E 64/8 のパラメータ比")
check(ctx, "9,444,864", moe_mults(8, 2, dn, dffn), "例 6.3 乗算 E=8")
check(ctx, "9,487,872", moe_mults(64, 2, dn, dffn), "例 6.3 乗算 E=64")
check(ctx, "0.46", 100 * (moe_mults(64, 2, dn, dffn) / moe_mults(8, 2, dn, dffn) - 1), "例 6.3 乗算の増加 %")
attn, ln = 4 * dn * dn + 4 * dn, 4 * dn
blk_tot, blk_act = attn + ln + tot8, attn + ln + act8
dense_blk = 12 * dn * dn + 13 * dn
model_tot = 50257 * dn + 1024 * dn + 12 * blk_tot + 2 * dn
dense_model = 50257 * dn + 1024 * dn + 12 * dense_blk + 2 * dn
ctx = "注意の $4d^2 + 4d = 2{,}362{,}368$ 個と層正規化の $4d = 3{,}072$ 個"
check(ctx, "2{,}362{,}368", attn, "例 6.3 注意のパラメータ")
check(ctx, "3{,}072", ln, "例 6.3 層正規化 2 つ")
check("MoE ブロックは $40{,}151{,}040$ 個", "40{,}151{,}040", blk_tot, "例 6.3 MoE ブロック")
check("1 トークンで使うのは $11{,}816{,}448$ 個", "11{,}816{,}448", blk_act, "例 6.3 MoE ブロック 使う数")
ctx = ("12 層では $481{,}812{,}480$ 個と $141{,}797{,}376$ 個で、密なブロック 12 個の $85{,}054{,}464$ 個に比べ、"
       "パラメータは約 5.66 倍、1 トークンで使う数は約 1.67 倍")
check(ctx, "481{,}812{,}480", 12 * blk_tot, "例 6.3 12 層 MoE")
check(ctx, "141{,}797{,}376", 12 * blk_act, "例 6.3 12 層 使う数")
check(ctx, "85{,}054{,}464", 12 * dense_blk, "例 6.3 密なブロック 12 個")
check(ctx, "5.66", 12 * blk_tot / (12 * dense_blk), "例 6.3 パラメータ比")
check(ctx, "1.67", 12 * blk_act / (12 * dense_blk), "例 6.3 使う数の比")
ctx = "モデル全体のパラメータ数は $521{,}197{,}824$ 個で、密なモデルの 124,439,808 個の約 4.19 倍"
check(ctx, "521{,}197{,}824", model_tot, "例 6.3 MoE モデル全体")
check(ctx, "124,439,808", dense_model, "例 6.3 密なモデル全体")
check(ctx, "4.19", model_tot / dense_model, "例 6.3 モデル全体の比")

# ---------------------------------------------------------------- 7 節の説明文
ctx = "7 行目は、配列の成分の総数が <Ref to=\"prop-moe-parameters\" /> の式 $4 \\times (2 \\times 8 \\times 16 + 16 + 8) + 8 \\times 4 = 4 \\times 280 + 32 = 1{,}152$"
check(ctx, "280", 2 * 8 * 16 + 16 + 8, "7 節 専門家 1 個 (d=8, d_ff=16)")
check(ctx, "32", 8 * 4, "7 節 ルーター dE")
check(ctx, "1{,}152", moe_params(4, 2, 8, 16)[0], "7 節 パラメータ総数")
check("4〜6 行目の $c = 1$ では、$C = 10$ を超える専門家 2 と 4 で $2 + 2 = 4$ 個、割り当ての 10 % を捨てます",
      "10", capacity(1.0, 2, 20, 4), "7 節 C (c=1)")

# ---------------------------------------------------------------- 演習
r3 = np.array([0.0, math.log(2), math.log(6)])
T3, p3, w3 = renormalised(r3, 2)
ctx = "$\\boldsymbol{p} = (1/9, 2/9, 2/3)$"
for val, s in zip(p3, ["1/9", "2/9", "2/3"]):
    a_, b_ = s.split("/")
    check(ctx.replace(s, s), a_, val * int(b_), "演習 9.1 p の分子 %s" % s)
check("和は 9 なので", "9", np.exp(r3).sum(), "演習 9.1 e^r の和")
ctx = "$p_3 + p_2 = 8/9$、重みは $w_3 = 6/8 = 0.75$、$w_2 = 2/8 = 0.25$"
check(ctx, "8", (p3[2] + p3[1]) * 9, "演習 9.1 p3 + p2 の分子")
check(ctx, "0.75", w3[0], "演習 9.1 w3")
check(ctx, "0.25", w3[1], "演習 9.1 w2")
ctx = "$w_3 = 0.75 \\le (3/2) \\times (2/3) = 1$、$w_2 = 0.25 \\le (3/2) \\times (2/9) = 1/3$"
check(ctx, "1", 1.5 * p3[2], "演習 9.1 (E/k) p3")
check("$k = 1$ では専門家 3 だけを重み 1 で使います", "3", renormalised(r3, 1)[0][0] + 1, "演習 9.1 k=1 の専門家")
check("$k = 1$ では専門家 3 だけを重み 1 で使います", "1", renormalised(r3, 1)[2][0], "演習 9.1 k=1 の重み")
check(ctx, "3", 1 / (1.5 * p3[1]), "演習 9.1 (E/k) p2 の逆数")
fe, Pe = np.array([0.5, 0.25, 0.125, 0.125]), np.array([0.4, 0.3, 0.2, 0.1])
ctx = "$\\sum_i f_iP_i = 0.2 + 0.075 + 0.025 + 0.0125 = 0.3125$ で、$B = 4 \\times 0.3125 = 1.25$"
for val, s in zip(fe * Pe, ["0.2", "0.075", "0.025", "0.0125"]):
    check(ctx, s, val, "演習 9.2 f_i P_i")
check(ctx, "0.3125", fe @ Pe, "演習 9.2 和")
check(ctx, "1.25", balance(fe, Pe), "演習 9.2 B")
ctx = "$\\boldsymbol{f} - 0.25 = (0.25, 0, -0.125, -0.125)$、$\\boldsymbol{P} - 0.25 = (0.15, 0.05, -0.05, -0.15)$"
for val, s in zip(fe - 0.25, ["0.25", "0", "-0.125", "-0.125"]):
    check(ctx, s, val, "演習 9.2 f - 1/4")
for val, s in zip(Pe - 0.25, ["0.15", "0.05", "-0.05", "-0.15"]):
    check(ctx, s, val, "演習 9.2 P - 1/4")
prod = (fe - 0.25) * (Pe - 0.25)
ctx = "積の和は $0.0375 + 0 + 0.00625 + 0.01875 = 0.0625$、$B = 1 + 4 \\times 0.0625 = 1.25$"
for val, s in zip(prod, ["0.0375", "0", "0.00625", "0.01875"]):
    check(ctx, s, val, "演習 9.2 ずれの積")
check(ctx, "0.0625", prod.sum(), "演習 9.2 ずれの積の和")
check(ctx, "1.25", 1 + 4 * prod.sum(), "演習 9.2 1 + E×和")
check("下界は $E\\min_i f_i = 4 \\times 0.125 = 0.5$", "0.5", 4 * fe.min(), "演習 9.2 下界")
C9 = capacity(1.25, 1, 1024, 64)
check("$ckT/E = 1.25 \\times 1024/64 = 20$ なので $C = 20$", "20", 1.25 * 1024 / 64, "演習 9.3 ckT/E")
check("$ckT/E = 1.25 \\times 1024/64 = 20$ なので $C = 20$", "20", C9, "演習 9.3 C")
D9 = 50 - C9
check("捨てるのは $50 - 20 = 30$ 個", "30", D9, "演習 9.3 D")
check("割合は $30/1024 \\approx 2.93\\,\\%$", "2.93", 100 * D9 / 1024, "演習 9.3 割合 %")
ctx = "下界は $\\max(0, 1024 - 64 \\times 20) = \\max(0, -256) = 0$、上界は $1 \\times (1024 - 20) = 1004$"
check(ctx, "-256", 1024 - 64 * C9, "演習 9.3 kT - EC")
check(ctx, "1004", 1 * (1024 - C9), "演習 9.3 上界")
ctx = "枠は $64 \\times 20 = 1280$ 個で、処理される $1024 - 30 = 994$ 個を除く 286 個が空きます"
check(ctx, "1280", 64 * C9, "演習 9.3 枠")
check(ctx, "994", 1024 - D9, "演習 9.3 処理される数")
check(ctx, "286", 64 * C9 - (1024 - D9), "演習 9.3 空いた枠")


# ---------------------------------------------------------------- コードの出力
def listings():
    """```python の直後の ```text を組にして返す。"""
    blocks = re.findall(r"```(python|text)\n(.*?)```", TEXT, flags=re.S)
    pairs = []
    for i, (kind, body) in enumerate(blocks):
        if kind == "python" and i + 1 < len(blocks) and blocks[i + 1][0] == "text":
            pairs.append((body, blocks[i + 1][1]))
    return pairs


def listing_prose_checks(tmp):
    """7 節の説明文の数（乱数の例）を、章のコードの関数で同じ乱数列から計算し直す。"""
    import importlib.util
    spec = importlib.util.spec_from_file_location("moe_listing", os.path.join(tmp, "moe.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = np.random.default_rng(0)
    T, d_, dff_, E_, k_ = 20, 8, 16, 4, 2
    experts = [{"W1": rng.standard_normal((d_, dff_)) / np.sqrt(d_), "b1": np.zeros(dff_),
                "W2": rng.standard_normal((dff_, d_)) / np.sqrt(dff_), "b2": np.zeros(d_)} for _ in range(E_)]
    Wr_, X = rng.standard_normal((d_, E_)), rng.standard_normal((T, d_))
    _, P, top, _ = mod.moe_layer(X, Wr_, experts, k_)
    load = np.bincount(top.ravel(), minlength=E_)
    f = load / (k_ * T)
    ctx = "負荷は $40\\boldsymbol{f} = (10, 12, 6, 12)$、$B = 1.0104$"
    for val, s in zip(load, ["10", "12", "6", "12"]):
        check(ctx, s, val, "7 節 乱数の例の負荷")
    check(ctx, "40", k_ * T, "7 節 割り当ての数 kT")
    check(ctx, "1.0104", E_ * f @ P.mean(axis=0), "7 節 乱数の例の B")
    C = math.ceil(1.0 * k_ * T / E_)
    over = [int(n - C) for n in load if n > C]
    ctx = "$C = 10$ を超える専門家 2 と 4 で $2 + 2 = 4$ 個、割り当ての 10 % を捨てます"
    check(ctx, "2", over[0], "7 節 専門家 2 の超過")
    check(ctx, "4", sum(over), "7 節 捨てる数 (c=1)")
    check(ctx, "10", 100 * sum(over) / (k_ * T), "7 節 捨てる割合 %")
    check(ctx, "4", mod.moe_layer(X, Wr_, experts, k_, 1.0)[3], "7 節 捨てる数（章のコード）")


names = ["moe.py"]
pairs = listings()
with tempfile.TemporaryDirectory() as tmp:
    for idx, (code, expected) in enumerate(pairs):
        name = names[idx] if idx < len(names) else "listing_%d.py" % (idx + 1)
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(code)
        out = subprocess.run([sys.executable, name], cwd=tmp, capture_output=True, text=True).stdout
        n_checked += 1
        ok = out == expected
        print("%s listing %d (%s): output %s" % ("ok  " if ok else "FAIL", idx + 1, name,
                                                 "identical" if ok else "DIFFERS"))
        if not ok:
            failures.append(("listing %d" % (idx + 1), expected, out))
        if name == "moe.py":
            listing_prose_checks(tmp)
            for a_, b_ in zip(expected.splitlines(), out.splitlines()):
                if a_ != b_:
                    print("   printed : " + a_)
                    print("   computed: " + b_)

print()
print("checked %d numbers / formulas / listings, %d failed" % (n_checked, len(failures)))
sys.exit(1 if failures else 0)

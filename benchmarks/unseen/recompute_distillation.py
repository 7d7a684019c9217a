"""distillation.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
コードのリストは取り出して実行し、出力を印字された出力とそのまま比べる。
最後に、本文（コードと参考文献を除く）に現れる数のうち、小数・桁区切り・3 桁以上の数が
すべてどれかの照合で扱われたかを確かめる。
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import mpmath as mp
import numpy as np
import sympy as sp

mp.mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "distillation.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",").replace("−", "-")
results = []
numeric = []
covered = set()


def parse(printed):
    return float(printed.replace(",", ""))


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 章に印字された文字列。value: 定義から計算した値（印字の桁で四捨五入して比べる）。"""
    dec = decimals(printed)
    if isinstance(value, (int, Fraction)) and dec == 0:
        ok = Fraction(value) == Fraction(int(parse(printed)))
        shown = str(value)
    else:
        v = mp.mpf(value) if not isinstance(value, Fraction) else mp.mpf(value.numerator) / value.denominator
        ok = abs(v - mp.mpf(printed.replace(",", ""))) <= mp.mpf(0.5) * mp.mpf(10) ** (-dec) + mp.mpf(10) ** -30
        shown = mp.nstr(v, 12)
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    covered.add(printed.lstrip("-"))
    print(f"[{status:9s}] {label}: printed {printed}  computed {shown}")


def check_sci(label, mant, exp, value):
    """本文の「mant \\times 10^{exp}」を照合する。"""
    printed_tex = f"{mant} \\times 10^{{{exp}}}"
    dec = decimals(mant)
    v = mp.mpf(value)
    ok = abs(v / mp.mpf(10) ** exp - mp.mpf(mant)) <= mp.mpf(0.5) * mp.mpf(10) ** (-dec) + mp.mpf(10) ** -30
    found = printed_tex in NORM
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    covered.add(mant)
    print(f"[{status:9s}] {label}: printed {printed_tex}  computed {mp.nstr(v, 10)}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


def given(*printed):
    """問題の設定として与えた数（計算の結果ではない）。本文にあることだけ確かめる。"""
    for p in printed:
        covered.add(p.lstrip("-"))
        check_true(f"given value {p} appears", present(p))


def vec_check(label, printed_list, values):
    for k, (pr, val) in enumerate(zip(printed_list, values)):
        check(f"{label}[{k + 1}]", pr, val)


# ---------- 定義：温度つき softmax・エントロピー・KL（mpmath の高精度で） ----------
def softmax_T(z, T):
    z = [mp.mpf(x) for x in z]
    m = max(z)
    e = [mp.e ** ((x - m) / mp.mpf(T)) for x in z]
    s = sum(e)
    return [x / s for x in e]


def entropy(p):
    return -sum(x * mp.log(x) for x in p if x > 0)


def kl(p, q):
    return sum(a * mp.log(a / b) for a, b in zip(p, q) if a > 0)


def mean_var(p, z):
    m = sum(a * b for a, b in zip(p, z))
    return m, sum(a * (b - m) ** 2 for a, b in zip(p, z))


# ---------- 0 節・Aside：記号の式 ----------
d, L, n_, V_, T_ = sp.symbols("d L n V T", positive=True)
per_layer = (4 * d**2 + 4 * d) + (2 * d * (4 * d) + 4 * d + d) + 4 * d
check_true("per-layer params at d_ff = 4d: 12d^2 + 13d", sp.expand(per_layer - (12 * d**2 + 13 * d)) == 0)
block_mults = 4 * n_ * d**2 + 2 * n_**2 * d + 2 * n_ * d * (4 * d)
check_true("per-layer mults at d_ff = 4d: 12nd^2 + 2n^2d", sp.expand(block_mults - (12 * n_ * d**2 + 2 * n_**2 * d)) == 0)
check_true("per-position mults: (L(12nd^2+2n^2d) + nd|V|)/n = L(12d^2+2nd) + |V|d",
           sp.simplify((L * block_mults + n_ * d * V_) / n_ - (L * (12 * d**2 + 2 * n_ * d) + V_ * d)) == 0)
check_true("halving L halves 12Ld^2, halving d quarters it",
           sp.simplify(12 * (L / 2) * d**2 / (12 * L * d**2)) == sp.Rational(1, 2)
           and sp.simplify(12 * L * (d / 2) ** 2 / (12 * L * d**2)) == sp.Rational(1, 4))

# 勾配の式（命題 4.1）を記号で：n = 3、y = 1
z1, z2, z3, v1, v2, v3, al = sp.symbols("z1 z2 z3 v1 v2 v3 alpha", real=True)
zs, vs = [z1, z2, z3], [v1, v2, v3]
Zq = sum(sp.exp(x / T_) for x in zs)
Zp = sum(sp.exp(x / T_) for x in vs)
q_sym = [sp.exp(x / T_) / Zq for x in zs]
p_sym = [sp.exp(x / T_) / Zp for x in vs]
r_sym = [sp.exp(x) / sum(sp.exp(w) for w in zs) for x in zs]
KL_sym = sum(p_sym[i] * (sp.log(p_sym[i]) - sp.log(q_sym[i])) for i in range(3))
CE_sym = -sum(p_sym[i] * sp.log(q_sym[i]) for i in range(3))
loss_sym = al * T_**2 * KL_sym + (1 - al) * (-sp.log(r_sym[0]))
ok_kl = ok_ce = ok_loss = True
for i in range(3):
    ok_kl &= sp.simplify(sp.diff(KL_sym, zs[i]) - (q_sym[i] - p_sym[i]) / T_) == 0
    ok_ce &= sp.simplify(sp.diff(CE_sym, zs[i]) - (q_sym[i] - p_sym[i]) / T_) == 0
    ok_loss &= sp.simplify(sp.diff(loss_sym, zs[i])
                           - (al * T_ * (q_sym[i] - p_sym[i]) + (1 - al) * (r_sym[i] - (1 if i == 0 else 0)))) == 0
check_true("dKL/dz_i = (q_i - p_i)/T (sympy, n = 3)", ok_kl)
check_true("dCE/dz_i = (q_i - p_i)/T (sympy, n = 3)", ok_ce)
check_true("dl/dz_i = alpha T (q_i - p_i) + (1 - alpha)(r_i - delta_iy) (sympy, n = 3, y = 1)", ok_loss)
check_true("sum of gradient components is 0 (sympy)",
           sp.simplify(sum(sp.diff(loss_sym, x) for x in zs)) == 0)

# エントロピーの傾き h'(T) = Var_T(z)/T^3（記号で、n = 3）
H_sym = -sum(qq * sp.log(qq) for qq in q_sym)
Eq_ = sum(q_sym[i] * zs[i] for i in range(3))
Var_sym = sum(q_sym[i] * (zs[i] - Eq_) ** 2 for i in range(3))
diffH = sp.diff(H_sym, T_) - Var_sym / T_**3
pts = [(0.3, -1.2, 2.0, 0.7), (1.0, 2.0, 5.0, 3.1), (-2.0, 0.5, 0.4, 0.2)]
check_true("h'(T) = Var_T(z)/T^3 (sympy derivative at 3 points)",
           all(abs(float(diffH.subs({z1: a, z2: b, z3: c, T_: t}))) < 1e-12 for a, b, c, t in pts))
# 一様分布でのヤコビ行列と f'_w(0) = (w - mean)/n
w_ = sp.symbols("w1:5", real=True)
s_ = sp.symbols("s", real=True)
f_w = [sp.exp(s_ * x) / sum(sp.exp(s_ * y) for y in w_) for x in w_]
check_true("f_w'(0)_i = (w_i - mean w)/n (sympy, n = 4)",
           all(sp.simplify(sp.diff(f_w[i], s_).subs(s_, 0) - (w_[i] - sum(w_) / 4) / 4) == 0 for i in range(4)))
J0 = sp.Matrix(4, 4, lambda i, j: sp.Rational(1, 4) * (1 if i == j else 0) - sp.Rational(1, 16))
Jw = sp.Matrix(4, 4, lambda i, j: sp.diff(f_w[i], w_[j])).subs(s_, 1).subs({x: 0 for x in w_})
check_true("J(0) = I/n - 11^T/n^2 (n = 4)", sp.simplify(Jw - J0) == sp.zeros(4, 4))

# 高温の極限（命題 5.1）：任意のロジット（平均 0 でない）で数値的に
rng = np.random.default_rng(7)
ok_lim = True
for _ in range(5):
    nn = int(rng.integers(3, 7))
    vv, zz = rng.standard_normal(nn) * 2 + 1.0, rng.standard_normal(nn) * 2 - 0.5
    vt, zt = vv - vv.mean(), zz - zz.mean()
    lim_g = (zt - vt) / nn
    lim_k = ((zt - vt) ** 2).sum() / (2 * nn)
    errs = []
    for T in (1e3, 1e4):
        p, q = softmax_T(vv, T), softmax_T(zz, T)
        errs.append((max(abs(T * (q[i] - p[i]) - lim_g[i]) for i in range(nn)), abs(T**2 * kl(p, q) - lim_k)))
    ok_lim &= errs[1][0] < errs[0][0] / 5 and errs[1][1] < errs[0][1] / 5 and errs[1][0] < 1e-2 and errs[1][1] < 1e-2
check_true("T(q-p) -> (z~ - v~)/n and T^2 KL -> |z~ - v~|^2/(2n), error O(1/T) (random, non-centred)", ok_lim)
Ts = sp.symbols("Ts", positive=True)
pv = [sp.exp(x / Ts) / sum(sp.exp(y / Ts) for y in (2, 0, -2)) for x in (2, 0, -2)]
qz = [sp.exp(x / Ts) / sum(sp.exp(y / Ts) for y in (1, sp.Rational(1, 2), sp.Rational(-3, 2)))
      for x in (1, sp.Rational(1, 2), sp.Rational(-3, 2))]
check_true("exact limits for the example: T(q-p) -> (-1/3, 1/6, 1/6)",
           [sp.limit(Ts * (qz[i] - pv[i]), Ts, sp.oo) for i in range(3)]
           == [sp.Rational(-1, 3), sp.Rational(1, 6), sp.Rational(1, 6)])

# ギブスの不等式と H = log n - KL(p||u)
ok_g = True
for _ in range(200):
    nn = int(rng.integers(2, 7))
    p = rng.dirichlet(np.ones(nn)); q = rng.dirichlet(np.ones(nn))
    ok_g &= float(kl(p, q)) >= 0 and abs(float(entropy(p)) - (math.log(nn) - float(kl(p, np.ones(nn) / nn)))) < 1e-12
check_true("KL >= 0 and H(p) = log n - KL(p||u) (200 random pairs)", ok_g)
check_true("KL(p||q) = 0 iff z - v = c1 (shifted logits give KL 0, T = 3)",
           abs(kl(softmax_T([1, 2, 3], 3), softmax_T([4.5, 5.5, 6.5], 3))) < mp.mpf(10) ** -40
           and kl(softmax_T([1, 2, 3], 3), softmax_T([1, 2, 3.5], 3)) > 0)

# ---------- 1 節 ----------
v4 = [4, 2, 1, 0]
small = [x for T in (0.5, 1) for x in softmax_T(v4, T) if x < mp.mpf("0.05")]
check_true("'0.01 や 0.001' : teacher probabilities of that order occur (table, T = 0.5 and 1)",
           any(mp.mpf("0.01") <= x < mp.mpf("0.05") for x in small) and any(mp.mpf("0.001") <= x < mp.mpf("0.005") for x in small))
covered.update({"0.01", "0.001"})

# ---------- 例：4 つのロジットと温度の表 ----------
given("4, 2, 1, 0")
for k, pr in zip((4, 2, 1), ("54.5982", "7.3891", "2.7183")):
    check(f"e^{k}", pr, mp.e ** k)
S1 = sum(mp.e ** k for k in v4)
check("sum T=1", "65.7055", S1)
p1v = softmax_T(v4, 1)
vec_check("p(1)", ["0.8310", "0.1125", "0.0414", "0.0152"], p1v)
check_true("v/2 = (2, 1, 0.5, 0)", "(2, 1, 0.5, 0)" in NORM)
covered.add("0.5")
check("e^0.5", "1.6487", mp.e ** mp.mpf("0.5"))
check("sum T=2 (exact)", "12.7561", sum(mp.e ** (mp.mpf(k) / 2) for k in v4))
check("sum T=2 (rounded terms)", "12.7561", Fraction("7.3891") + Fraction("2.7183") + Fraction("1.6487") + 1)
p2v = softmax_T(v4, 2)
vec_check("p(2)", ["0.5793", "0.2131", "0.1293", "0.0784"], p2v)
check("p4(2)/p4(1)", "5.2", p2v[3] / p1v[3])

rows = {}
for m in re.finditer(r"^\| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", NORM, re.M):
    rows[m.group(1)] = m.groups()
check_true("temperature table has rows T = 0.5, 1, 2, 4, 10, 100", sorted(rows, key=float) == ["0.5", "1", "2", "4", "10", "100"])
prevH = None
for Tstr in ("0.5", "1", "2", "4", "10", "100"):
    row = rows.get(Tstr, ("?",) * 7)
    T = mp.mpf(Tstr)
    p = softmax_T(v4, T)
    for k in range(4):
        check(f"table T={Tstr} p{k + 1}", row[1 + k], p[k])
    check(f"table T={Tstr} H", row[5], entropy(p))
    check(f"table T={Tstr} p4/p1", row[6], p[3] / p[0])
    check(f"table T={Tstr} e^(-4/T)", row[6], mp.e ** (-4 / T))
    check_true(f"table T={Tstr} order p1 > p2 > p3 > p4", p[0] > p[1] > p[2] > p[3])
    if prevH is not None:
        check_true(f"entropy increases up to T={Tstr}", entropy(p) > prevH)
    prevH = entropy(p)
check_true("uniform limit (0.25, 0.25, 0.25, 0.25) stated", "(0.25, 0.25, 0.25, 0.25)" in NORM)
covered.add("0.25")
check("log 4", "1.3863", mp.log(4))

# 傾き h'(1)
E1, Var1 = mean_var(p1v, v4)
check("E_1[v]", "3.5901", E1)
check("Var_1(v)", "0.8977", Var1)
check("h'(1) = Var/1^3", "0.8977", Var1 / 1)


def h_of(T):
    return entropy(softmax_T(v4, T))


check("h(1.1)", "0.680351", h_of(mp.mpf("1.1")))
check("h(0.9)", "0.501183", h_of(mp.mpf("0.9")))
check("difference quotient from printed values", "0.89584", (Fraction("0.680351") - Fraction("0.501183")) / Fraction("0.2"))
check("difference quotient (exact) to 4 places", "0.8958", (h_of(mp.mpf("1.1")) - h_of(mp.mpf("0.9"))) / mp.mpf("0.2"), must_appear=False)
given("1.1", "0.9", "0.2")

# ---------- 例：3 クラスの手計算 ----------
vb, zb, T2, alpha = [2, 1, -1], [1, 1, 0], 2, mp.mpf("0.5")
given("(2, 1, -1)", "(1, 1, 0)")
check_true("v/2 = (1, 0.5, -0.5) and z/2 = (0.5, 0.5, 0)", "(1, 0.5, -0.5)" in NORM and "(0.5, 0.5, 0)" in NORM)
check("e^-0.5", "0.6065", mp.e ** mp.mpf("-0.5"))
check("sum v/2", "4.9735", sum(mp.e ** (mp.mpf(x) / 2) for x in vb))
pb, qb, rb = softmax_T(vb, 2), softmax_T(zb, 2), softmax_T(zb, 1)
vec_check("p", ["0.5465", "0.3315", "0.1220"], pb)
check("sum z/2 = 2 e^0.5 + 1", "4.2974", 2 * mp.e ** mp.mpf("0.5") + 1)
check("sum z/2 from rounded 2*1.6487+1", "4.2974", 2 * Fraction("1.6487") + 1)
vec_check("q", ["0.3837", "0.3837", "0.2327"], qb)
vec_check("r", ["0.4223", "0.4223", "0.1554"], rb)
check("r1 = e/(2e+1)", "0.4223", mp.e / (2 * mp.e + 1))
lr = [mp.log(a / b) for a, b in zip(pb, qb)]
vec_check("log(p/q)", ["0.3539", "-0.1461", "-0.6461"], lr)
check_true("log(p/q) differences are exactly 0.5 = (v - z)/T differences",
           abs(lr[0] - lr[1] - mp.mpf("0.5")) < 1e-40 and abs(lr[1] - lr[2] - mp.mpf("0.5")) < 1e-40)
terms = [a * b for a, b in zip(pb, lr)]
vec_check("p log(p/q) (printed as 0.1934 - 0.0484 - 0.0788)", ["0.1934", "0.0484", "0.0788"], [terms[0], -terms[1], -terms[2]])
check_true("terms written as 0.1934 - 0.0484 - 0.0788", "0.1934 - 0.0484 - 0.0788" in NORM)
KLb = kl(pb, qb)
check("KL", "0.0662", KLb)
check("KL from rounded terms", "0.0662", Fraction("0.1934") - Fraction("0.0484") - Fraction("0.0788"))
CEb = -mp.log(rb[0])
check("-log r1", "0.8620", CEb)
check("-log 0.4223", "0.8620", -mp.log(mp.mpf("0.4223")))
check("alpha T^2 KL", "0.1324", alpha * 4 * KLb)
check("0.5*4*0.0662", "0.1324", Fraction(1, 2) * 4 * Fraction("0.0662"))
check("(1-alpha) CE", "0.4310", (1 - alpha) * CEb)
check("loss", "0.5634", alpha * 4 * KLb + (1 - alpha) * CEb)
check("0.1324 + 0.4310", "0.5634", Fraction("0.1324") + Fraction("0.4310"))
soft = [alpha * T2 * (b - a) for a, b in zip(pb, qb)]
hard = [(1 - alpha) * (rb[i] - (1 if i == 0 else 0)) for i in range(3)]
vec_check("soft part", ["-0.1629", "0.0522", "0.1107"], soft)
vec_check("hard part", ["-0.2888", "0.2112", "0.0777"], hard)
grad = [a + b for a, b in zip(soft, hard)]
vec_check("grad", ["-0.4517", "0.2633", "0.1884"], grad)
check("soft2 to 5 places", "0.05215", soft[1])
check("hard2 to 5 places", "0.21116", hard[1])
check("soft2 + hard2", "0.26331", soft[1] + hard[1])
check("0.05215 + 0.21116", "0.26331", Fraction("0.05215") + Fraction("0.21116"))
check_true("grad sums to 0", abs(sum(grad)) < 1e-40)
check("soft3/soft2", "2.1", soft[2] / soft[1])
check_true("hard part pushes component 2 harder than 3 (0.2112 vs 0.0777), soft the reverse",
           hard[1] > hard[2] and soft[2] > soft[1])
given("0.5")

# ---------- 注意：T^2 と 5 節の例 ----------
vc, zc = [2, 0, -2], [1, mp.mpf("0.5"), mp.mpf("-1.5")]
given("(2, 0, -2)", "(1, 0.5, -1.5)", "(-1, 0.5, 0.5)")
covered.add("1.5")
limit_c = [(zc[i] - vc[i]) / 3 for i in range(3)]
vec_check("limit (z-v)/3", ["-0.3333", "0.1667", "0.1667"], limit_c)
check("|z-v|^2/6", "0.25", sum((zc[i] - vc[i]) ** 2 for i in range(3)) / 6)
check_true("(1 + 0.25 + 0.25)/6 = 0.25", Fraction(3, 2) / 6 == Fraction(1, 4))
check_true("v/10 = (0.2, 0, -0.2), z/10 = (0.1, 0.05, -0.15)",
           "(0.2, 0, -0.2)" in NORM and "(0.1, 0.05, -0.15)" in NORM)
covered.update({"0.2", "0.1", "0.05", "0.15"})
for pr, x in (("1.2214", "0.2"), ("0.8187", "-0.2"), ("1.1052", "0.1"), ("1.0513", "0.05"), ("0.8607", "-0.15")):
    check(f"e^{x}", pr, mp.e ** mp.mpf(x))
check("sum v/10", "3.0401", sum(mp.e ** (mp.mpf(x) / 10) for x in vc))
check("sum v/10 from rounded", "3.0401", Fraction("1.2214") + 1 + Fraction("0.8187"))
check("sum z/10 (exact)", "3.0171", sum(mp.e ** (x / 10) for x in zc))
p10, q10 = softmax_T(vc, 10), softmax_T(zc, 10)
vec_check("p(10)", ["0.4018", "0.3289", "0.2693"], p10)
vec_check("q(10)", ["0.3663", "0.3484", "0.2853"], q10)
vec_check("q - p at T=10", ["-0.0355", "0.0195", "0.0160"], [b - a for a, b in zip(p10, q10)])
vec_check("10(q - p)", ["-0.355", "0.195", "0.160"], [10 * (b - a) for a, b in zip(p10, q10)])
vec_check("limit to 3 places", ["-0.333", "0.167", "0.167"], limit_c)
gaps = [abs(10 * (q10[i] - p10[i]) - limit_c[i]) for i in range(3)]
check("max gap at T=10", "0.028", max(gaps))
check_true("max gap is in component 2", gaps.index(max(gaps)) == 1)

rowsc = {}
for m in re.finditer(r"^\| (\d+|\$\\infty\$) \| (-?[\d.]+) \| (-?[\d.]+) \| (-?[\d.]+) \| ([\d.]+) \| (\$[^|$]*\$|0) \|$", NORM, re.M):
    rowsc[m.group(1)] = m.groups()
check_true("high-T table has rows 1, 2, 5, 10, 100, 1000, inf",
           list(rowsc) == ["1", "2", "5", "10", "100", "1000", "$\\infty$"])
t2kl = {}
for Tstr in ("1", "2", "5", "10", "100", "1000"):
    row = rowsc.get(Tstr, ("?",) * 6)
    T = mp.mpf(Tstr)
    p, q = softmax_T(vc, T), softmax_T(zc, T)
    for k in range(3):
        check(f"high-T table T={Tstr} T(q{k + 1}-p{k + 1})", row[1 + k], T * (q[k] - p[k]))
    t2kl[Tstr] = T**2 * kl(p, q)
    check(f"high-T table T={Tstr} T^2 KL", row[4], t2kl[Tstr])
    gn = mp.sqrt(sum(((q[k] - p[k]) / T) ** 2 for k in range(3)))
    mm = re.fullmatch(r"\$([\d.]+) \\times 10\^\{(-\d+)\}\$", row[5])
    if mm:
        check_sci(f"high-T table T={Tstr} |grad KL|", mm.group(1), int(mm.group(2)), gn)
    else:
        check_true(f"high-T table T={Tstr} |grad KL| cell parsed", False)
row = rowsc.get("$\\infty$", ("?",) * 6)
vec_check("high-T table limit row", list(row[1:4]), limit_c)
check("high-T table limit T^2 KL", row[4], mp.mpf("0.25"))
check_true("high-T table limit gradient norm 0", row[5] == "0")
g100 = 100 * (softmax_T(zc, 100)[0] - softmax_T(vc, 100)[0]) - limit_c[0]
g1000 = 1000 * (softmax_T(zc, 1000)[0] - softmax_T(vc, 1000)[0]) - limit_c[0]
check("gap comp 1 at T=100", "-0.0025", g100)
check("gap comp 1 at T=1000", "-0.00025", g1000)
check_true("gap shrinks by about 10 from T=100 to 1000 (ratio in [9, 11])", 9 <= g100 / g1000 <= 11)
check_true("T^2 KL increases from T=1 to T=5, then decreases toward 0.25 from above",
           t2kl["1"] < t2kl["2"] < t2kl["5"] > t2kl["10"] > t2kl["100"] > t2kl["1000"] > mp.mpf("0.25"))
check("T^2 KL at T=1 (prose)", "0.1812", t2kl["1"])
check("T^2 KL at T=5 (prose)", "0.2778", t2kl["5"])


def gnorm(T):
    p, q = softmax_T(vc, T), softmax_T(zc, T)
    return mp.sqrt(sum(((q[k] - p[k]) / T) ** 2 for k in range(3)))


check_true("10x temperature -> gradient norm about 1/100 (ratios in [80, 120])",
           all(80 <= gnorm(a) / gnorm(10 * a) <= 120 for a in (1, 10, 100)))
check_sci("remark |grad KL| T=10", "4.351", -3, gnorm(10))
check_sci("remark |grad KL| T=100", "4.113", -5, gnorm(100))
check("remark ratio", "105.8", gnorm(10) / gnorm(100))
check("remark T^2 |grad| T=10", "0.4351", 100 * gnorm(10))
check("remark T^2 |grad| T=100", "0.4113", 10**4 * gnorm(100))
covered.update({"10", "100", "1000"})

# ---------- 6 節：大きさの表 ----------
VV, NC = 32000, 1024
check("2^10", "1,024", 2**10)
models = {"教師 A": (24, 1024), "教師 B": (12, 768), "生徒 1（層 1/2）": (6, 768),
          "生徒 2（幅 1/2）": (12, 384), "生徒 3": (4, 512)}


def blk(Lx, dx):
    return 12 * Lx * dx * dx


def tot(Lx, dx):
    return blk(Lx, dx) + VV * dx


def mul(Lx, dx):
    return Lx * (12 * dx * dx + 2 * NC * dx) + VV * dx


rows6 = {}
for m in re.finditer(r"^\| (教師 [AB]|生徒 [123][^|]*?) \| (\d+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d.]+) \| ([\d,]+) \| ([\d.]+) \|$", NORM, re.M):
    rows6[m.group(1)] = m.groups()
check_true("size table has the 5 models", sorted(rows6) == sorted(models))
bL, bd = models["教師 B"]
for name, (Lx, dx) in models.items():
    row = rows6.get(name, ("?",) * 9)
    check(f"{name} L", row[1], Lx)
    check(f"{name} d", row[2], dx)
    check(f"{name} 12Ld^2", row[3], blk(Lx, dx))
    check(f"{name} |V|d", row[4], VV * dx)
    check(f"{name} total", row[5], tot(Lx, dx))
    check(f"{name} total ratio", row[6], Fraction(tot(Lx, dx), tot(bL, bd)))
    check(f"{name} mults/position", row[7], mul(Lx, dx))
    check(f"{name} mult ratio", row[8], Fraction(mul(Lx, dx), mul(bL, bd)))
check("12*6*768^2", "42,467,328", 12 * 6 * 768**2)
check("32,000*768", "24,576,000", 32000 * 768)
check("student 1 block ratio", "0.5", Fraction(blk(6, 768), blk(12, 768)))
check("student 1 total ratio (prose)", "0.6122", Fraction(tot(6, 768), tot(12, 768)))
check("student 2 block ratio", "0.25", Fraction(blk(12, 384), blk(12, 768)))
check_true("student 2 embedding is half of B's", 2 * VV * 384 == VV * 768)
check("student 2 total = half of student 1", "33,521,664", Fraction(tot(6, 768), 2))
check_true("student 2 total equals exactly half of student 1", 2 * tot(12, 384) == tot(6, 768))
check("student 3 embedding", "16,384,000", VV * 512)
check("student 3 block", "12,582,912", blk(4, 512))
check_true("student 3: embedding > block", VV * 512 > blk(4, 512))
check("student 3 embedding share %", "56.6", 100 * Fraction(VV * 512, tot(4, 512)))

# 注意：蒸留の費用と保存
check("B + 3 * student 1", "357,826,560", mul(12, 768) + 3 * mul(6, 768))
check("3 * student 1", "229,441,536", 3 * mul(6, 768))
check("ratio B-distill / student alone", "1.56", Fraction(mul(12, 768) + 3 * mul(6, 768), 3 * mul(6, 768)))
check("A + 3 * student 1", "614,531,072", mul(24, 1024) + 3 * mul(6, 768))
check("ratio A-distill / student alone", "2.68", Fraction(mul(24, 1024) + 3 * mul(6, 768), 3 * mul(6, 768)))
check("bytes per position fp16", "64,000", 2 * VV)
check_sci("bytes for 1e9 positions", "6.4", 13, 2 * VV * 10**9)
check("TB for 1e9 positions", "64", Fraction(2 * VV * 10**9, 10**12))
given("32,000")
covered.update({"2", "13", "9"})

# ---------- 7 節：リストの実行と出力の照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("distill.py on disk equals the listing",
           open(os.path.join(HERE, "distill.py"), encoding="utf-8").read() == code)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)
out_lines = printed_out.splitlines()
check_true("output has 17 lines (1-7 table, 8 example, 9 random, 10-17 high T)", len(out_lines) == 17
           and out_lines[7].startswith("example") and out_lines[8].startswith("100 random")
           and out_lines[16].startswith(" limit"))
m = re.search(r"max \|grad - finite diff\| = ([\d.]+)e-0?(\d+)", printed_out)
check_true("prose 5.4 x 10^-8 equals printed random-case error",
           m is not None and m.group(1) == "5.4" and m.group(2) == "8" and "5.4 \\times 10^{-8}" in NORM)
covered.add("5.4")
m = re.search(r"\|grad - finite diff\| ([\d.]+)e-(\d+)", printed_out)
check_true("example finite-difference error is of order 1e-10", m is not None and m.group(2) == "10")
check_true("listing ranges: vocabulary 3-8, T in [0.5, 20), alpha in [0, 1)",
           "rng.integers(3, 9)" in code and "rng.uniform(0.5, 20.0)" in code and "rng.uniform()" in code
           and "3〜8" in NORM and "0.5〜20" in NORM)
covered.update({"20", "8", "3"})

# ---------- 演習 ----------
pe = softmax_T([1, 1, 0], 1)
vec_check("exercise 1 T=1", ["0.4223", "0.4223", "0.1554"], pe)
check_true("exercise 1 limits (1/2, 1/2, 0) and (1/3, 1/3, 1/3)",
           all(abs(a - b) < 1e-9 for a, b in zip(softmax_T([1, 1, 0], mp.mpf("0.001")), [0.5, 0.5, 0]))
           and all(abs(a - mp.mpf(1) / 3) < 1e-6 for a in softmax_T([1, 1, 0], mp.mpf(10) ** 7)))
check("log 2", "0.6931", mp.log(2))
check("log 3", "1.0986", mp.log(3))
Te = 2 / mp.log(3)
check_true("p1(T) = 1/(1 + e^{-Delta/T}) (sympy)",
           sp.simplify(sp.exp(sp.Symbol("D") / T_) / (sp.exp(sp.Symbol("D") / T_) + 1)
                       - 1 / (1 + sp.exp(-sp.Symbol("D") / T_))) == 0)
check("T with p1 = 0.75", "1.8205", Te)
check_true("p1(T) at that T is 0.75", abs(softmax_T([2, 0], Te)[0] - mp.mpf("0.75")) < 1e-40)
covered.add("0.75")
check("entropy at p1 = 0.75", "0.5623", entropy([mp.mpf("0.75"), mp.mpf("0.25")]))
check("p1 p2 = 0.1875", "0.1875", Fraction(3, 4) * Fraction(1, 4))
check_true("0.1875 * 4 = 0.75 = Var for n = 2", abs(mean_var([0.75, 0.25], [2, 0])[1] - 0.75) < 1e-12)
check("T^3", "6.0333", Te**3)
check("h'(T)", "0.1243", mp.mpf("0.75") / Te**3)
check("h'(T) by formula Var/T^3 from sympy-free difference", "0.1243",
      (entropy(softmax_T([2, 0], Te + mp.mpf(10) ** -20)) - entropy(softmax_T([2, 0], Te - mp.mpf(10) ** -20)))
      / (2 * mp.mpf(10) ** -20), must_appear=False)
check("block ratio (6/24)(512/1024)^2", "0.0625", Fraction(6, 24) * Fraction(512, 1024) ** 2)
check("72 * 2^18", "18,874,368", 72 * 2**18)
check_true("12*6*512^2 = 72 * 2^18 = 301,989,888/16", 12 * 6 * 512**2 == 72 * 2**18 == Fraction(301989888, 16))
check("32,000*512", "16,384,000", 32000 * 512)
check("student total", "35,258,368", blk(6, 512) + VV * 512)
check("teacher A total", "334,757,888", tot(24, 1024))
check("ratio", "0.1053", Fraction(blk(6, 512) + VV * 512, tot(24, 1024)))
check("ratio %", "10.5", 100 * Fraction(blk(6, 512) + VV * 512, tot(24, 1024)))
check("block-only %", "6.25", 100 * Fraction(1, 16))
covered.update({"512", "24", "6", "18"})

# ---------- 網羅性：本文の数がすべて照合されたか ----------
body = re.sub(r"```.*?```", "", TEXT, flags=re.S)
body = body.split("## 参考文献")[0]
body = "\n".join(l for l in body.splitlines() if not l.startswith("> https://"))
body = body.replace("{,}", ",").replace("−", "-")
body = re.sub(r'(id|to|of|title)="[^"]*"', "", body)
body = re.sub(r"\]\([^)]*\)", "]", body)
tokens = set(re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", body))
significant = {t.rstrip(",") for t in tokens if ("." in t or "," in t.rstrip(",") or len(t.rstrip(",")) >= 3)}
missing = sorted(t for t in significant if t not in covered)
check_true(f"every decimal / comma / 3-digit number in the prose was checked ({len(significant)} numbers)",
           not missing)
if missing:
    print("   unchecked:", missing)

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural, symbolic and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

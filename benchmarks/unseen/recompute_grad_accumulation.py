"""grad_accumulation.txt の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）。言葉で述べた性質（単調性・等式・一致）は、厳密な
有理数計算・sympy・数値実験で確かめる（truth）。最後に本文の 2 つのリスティングを
取り出し、保存したファイルと同一であること、実行結果が本文の出力と一字一句一致する
ことを確かめる。1 つでも失敗すれば終了コード 1 で終わる。
"""
import math
import os
import re
import subprocess
import sys
from decimal import Decimal, ROUND_HALF_UP
from fractions import Fraction as F
from itertools import product, permutations

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "grad_accumulation.txt"), encoding="utf-8").read()

checked = 0
failures = 0


def check(label, expected, count=1):
    """expected（計算値から組み立てた文字列）が本文にそのまま現れるか。count はその中の数値の個数。"""
    global checked, failures
    ok = expected in TEXT
    checked += count
    if not ok:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    """本文の言葉で述べた性質を確かめる。"""
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


def cm(n):
    """数式中の 3 桁区切り 524{,}288。"""
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    """本文中の 3 桁区切り 524,288。"""
    return f"{n:,}"


def half_up(x, nd):
    """小数第 nd 位への四捨五入（本文の表の「小数第 3 位に四捨五入」）。"""
    x = F(x)
    q = Decimal(1).scaleb(-nd)
    return str((Decimal(x.numerator) / Decimal(x.denominator)).quantize(q, rounding=ROUND_HALF_UP))


def fx(x, nd):
    """固定小数点 nd 桁（丸めは Python の format）。"""
    return f"{float(x):.{nd}f}"


def ceil_frac(x):
    x = F(x)
    return -((-x.numerator) // x.denominator)


# ======================= 要点・定義 18.1・例 18.2 =======================
b, K, R, n = 16, 4, 8, 1024
B = b * K * R
tok = B * n
T = 10 ** 10
S = ceil_frac(F(T, tok))
check("例 18.2 B = bKR", f"$B = 16 \\times 4 \\times 8 = {B}$")
check("例 18.2 1 ステップのトークン数", f"$512 \\times 1024 = {cm(tok)} = 2^{{{int(math.log2(tok))}}}$", 2)
truth("例 18.2 524,288 は 2 の冪", tok == 2 ** 19, 0)
check("例 18.2 T/(Bn)", f"$10^{{10}}/524{{,}}288 \\approx {cm(19073)}.{int(round((F(T, tok) - 19073) * 100))}$")
truth("例 18.2 10^10/524,288 = 19,073.49（小数第 2 位）", f"{float(F(T, tok)):.2f}" == "19073.49", 0)
check("例 18.2 S", f"より $S = {cm(S)}$ 回の更新", 1)
for bb, KK in ((8, 8), (64, 1)):
    truth(f"例 18.2 b = {bb}, K = {KK} でも B = 512 で S は同じ", bb * KK * R == B and ceil_frac(F(T, bb * KK * R * n)) == S, 0)
check("例 18.2 b = 8, K = 8 / b = 64, K = 1", "$b = 8$、$K = 8$ でも、$b = 64$、$K = 1$ でも作れ", 0)
S1024 = ceil_frac(F(T, 1024 * n))
check("例 18.2 B = 1024 の S", f"$S = \\lceil 10^{{10}}/{cm(1024 * n)} \\rceil = {cm(S1024)}$", 2)
truth("例 18.2 ほぼ半分", abs(S1024 / S - 0.5) < 0.001)

# ======================= 3 節：命題 18.4 =======================
rng = np.random.default_rng(12345)
ok4 = True
for trial in range(200):
    M = int(rng.integers(1, 6))
    sizes = [int(s) for s in rng.integers(1, 6, M)]
    if trial % 3 == 0:
        sizes = [sizes[0]] * M
    Ntok = sum(sizes)
    p = 3
    grads = [[F(int(v)) for v in rng.integers(-9, 10, p)] for _ in range(Ntok)]   # 各 ∇ℓ_i（有理数で厳密）
    full = [sum(g[c] for g in grads) / Ntok for c in range(p)]
    idx, Lj = 0, []
    for m in sizes:
        Lj.append([sum(grads[idx + t][c] for t in range(m)) / m for c in range(p)])
        idx += m
    A_tok = [sum(F(sizes[j], Ntok) * Lj[j][c] for j in range(M)) for c in range(p)]
    A_mean = [sum(Lj[j][c] for j in range(M)) / M for c in range(p)]
    A_sum = [sum(Lj[j][c] for j in range(M)) for c in range(p)]
    w = [F(1, M * m) for m in sizes for _ in range(m)]
    weighted = [sum(w[i] * grads[i][c] for i in range(Ntok)) for c in range(p)]
    mbar = F(Ntok, M)
    ratio_ok = all(Ntok * w[i] == mbar / m for i, m in enumerate(m for m in sizes for _ in range(m)))
    ok4 &= (A_tok == full) and (A_mean == weighted) and sum(w) == 1 and ratio_ok and A_sum == [M * a for a in A_mean]
    if len(set(sizes)) == 1:
        ok4 &= A_mean == full and A_sum == [M * f for f in full]
    else:   # 3 の後半の反例：m_j ≠ m̄ のマイクロバッチの 1 トークンだけ ⟨e, θ⟩
        j0 = next(j for j, m in enumerate(sizes) if m != mbar)
        i0 = sum(sizes[:j0])
        ok4 &= F(1, M * sizes[j0]) != F(1, Ntok)
truth("命題 18.4 の 1〜4（ランダムな 200 通りの分け方で厳密に）", ok4, 4)

# 例 18.5
losses1, losses2 = [F(2), F(1), F(3)], [F(4)]
Ntok, M = 4, 2
tokmean = sum(losses1 + losses2) / Ntok
L1, L2 = sum(losses1) / 3, sum(losses2) / 1
mom = (L1 + L2) / 2
check("例 18.5 N, M, m̄", f"$N = {Ntok}$、$M = {M}$、$\\bar{{m}} = {Ntok // M}$", 3)
check("例 18.5 トークン平均", f"$(2.0 + 1.0 + 3.0 + 4.0)/4 = {int(sum(losses1 + losses2))}/4 = {float(tokmean)}$", 2)
check("例 18.5 L_1, L_2", f"$L_1 = {int(sum(losses1))}/3 = {float(L1)}$、$L_2 = {float(L2)}$", 3)
check("例 18.5 平均の平均・和", f"$(2.0 + 4.0)/2 = {float(mom)}$、和のままなら ${float(L1 + L2)}$", 2)
w1, w2 = F(1, M * 3), F(1, M * 1)
check("例 18.5 重み", f"$1/(2 \\times 3) = 1/{w1.denominator}$、最後のトークンが $1/(2 \\times 1) = 1/{w2.denominator}$", 2)
check("例 18.5 正しい重みとの比", f"正しい重み $1/{Ntok}$ との比は $\\bar{{m}}/m_j = {F(2, 3)}$ と ${int(w2 * Ntok)}$", 3)
truth("例 18.5 比 = N w_i", w1 * Ntok == F(2, 3) and w2 * Ntok == 2)
tw = F(3, 4) * L1 + F(1, 4) * L2
check("例 18.5 トークン数の重み", f"$\\frac{{3}}{{4}} \\times 2.0 + \\frac{{1}}{{4}} \\times 4.0 = {float(F(3, 4) * L1)} + {float(F(1, 4) * L2)} = {float(tw)}$", 3)
truth("例 18.5 トークン数で重みづけるとトークン平均", tw == tokmean)
check("例 18.5 損失の和", f"損失の和 {float(sum(losses1))} と {float(sum(losses2))} を足し、最後に $N = {Ntok}$ で割ります", 3)
check("例 18.5 2 倍に重く", f"最後のトークンの勾配を {int(w2 * Ntok)} 倍に重く数えます")

# ======================= 命題 18.6 =======================


def adam_run(grad_fn, theta0, c, eps, steps=6, lr=F(1, 100), b1=F(9, 10), b2=F(999, 1000)):
    """有理数と sympy の平方根で厳密に Adam を回す（1 次元）。"""
    th, m, v = sp.Rational(theta0), sp.Integer(0), sp.Integer(0)
    out = []
    for t in range(1, steps + 1):
        g = c * grad_fn(th)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mh, vh = m / (1 - b1 ** t), v / (1 - b2 ** t)
        th = sp.nsimplify(th - lr * mh / (sp.sqrt(vh) + eps))
        out.append(th)
    return out


gfun = lambda th: sp.Rational(3, 2) * th - 1        # 勾配は θ の関数
c6, eps6 = 4, sp.Rational(1, 10 ** 3)
runA = adam_run(gfun, 1, c6, eps6, steps=3)
runB = adam_run(gfun, 1, 1, eps6 / c6, steps=3)
truth("命題 18.6 の 1：c g と ε の列と g と ε/c の列が一致（厳密、3 ステップ）", all(sp.simplify(a - bq) == 0 for a, bq in zip(runA, runB)))
runC = adam_run(gfun, 1, 1, eps6, steps=3)
truth("命題 18.6 の 1：ε を変えないと一致しない", any(sp.simplify(a - cq) != 0 for a, cq in zip(runA, runC)), 0)
okclip = True
for _ in range(300):
    gv = rng.standard_normal(4) * 10 ** rng.uniform(-2, 2)
    tau, cc = 10 ** rng.uniform(-1, 1), 10 ** rng.uniform(-1, 1)
    clip = lambda g, t: min(1.0, t / np.linalg.norm(g)) * g
    okclip &= np.allclose(clip(cc * gv, tau), cc * clip(gv, tau / cc), rtol=1e-12, atol=0)
truth("命題 18.6 の 2：clip_τ(c g) = c clip_{τ/c}(g)（300 通り）", okclip)

# ======================= 4 節：命題 18.9・例 18.10・命題 18.11 =======================
truth("4 節 1/√2 ≈ 0.7071", f"{1 / math.sqrt(2):.4f}" == "0.7071", 0)
check("4 節 1/√2", f"$1/\\sqrt{{2}} \\approx {1 / math.sqrt(2):.4f}$ 倍")
Nseq = T // 1024
check("4 節 系列の本数", f"$N = {cm(Nseq)}$ 本")
truth("4 節 10^10 / 1024 は整数", T % 1024 == 0, 0)
fpc = F(Nseq - 512, Nseq - 1)
check("4 節 非復元抽出の因子", f"$(N - B)/(N - 1) \\approx {float(fpc):.5f}$")

# 命題 18.9 を小さな母集団で厳密に確かめる（ベクトルの勾配、全列挙）
popv = [(F(1), F(0)), (F(3), F(2)), (F(5), F(-1)), (F(11), F(4)), (F(-2), F(3))]
Np = len(popv)
Gv = tuple(sum(g[c] for g in popv) / Np for c in range(2))
Sig = [[sum((g[r] - Gv[r]) * (g[c] - Gv[c]) for g in popv) / Np for c in range(2)] for r in range(2)]


def cov_of(samples):
    cnt = len(samples)
    mean = tuple(sum(sv[c] for sv in samples) / cnt for c in range(2))
    return mean, [[sum((sv[r] - mean[r]) * (sv[c] - mean[c]) for sv in samples) / cnt for c in range(2)] for r in range(2)]


ok9 = True
for Bq in (1, 2, 3, 4, 5):
    withr = [tuple(sum(popv[j][c] for j in js) / Bq for c in range(2)) for js in product(range(Np), repeat=Bq)]
    mean_w, cov_w = cov_of(withr)
    ok9 &= mean_w == Gv and all(cov_w[r][c] == Sig[r][c] / Bq for r in range(2) for c in range(2))
    wo = [tuple(sum(popv[j][c] for j in js) / Bq for c in range(2)) for js in permutations(range(Np), Bq)]
    mean_o, cov_o = cov_of(wo)
    ok9 &= mean_o == Gv and all(cov_o[r][c] == Sig[r][c] / Bq * F(Np - Bq, Np - 1) for r in range(2) for c in range(2))
truth("命題 18.9 の 1〜3（N = 5 の 2 次元の母集団、B = 1..5 を全列挙）", ok9, 3)
truth("命題 18.9 の 4：各成分の分散は B について非増加、標準偏差は B を 4 倍で 1/2",
      all(F(Np - Bq, Bq * (Np - 1)) >= F(Np - Bq - 1, (Bq + 1) * (Np - 1)) for Bq in range(1, Np)) and math.sqrt(1 / 4) == 0.5)

# 例 18.10
g10 = [1, 3, 5, 11]
G10 = F(sum(g10), 4)
s2_10 = sum((F(x) - G10) ** 2 for x in g10) / 4
check("例 18.10 G", f"$G = {sum(g10)}/4 = {G10}$", 2)
check("例 18.10 σ²", f"$\\sigma^2 = \\big((-4)^2 + (-2)^2 + 0^2 + 6^2\\big)/4 = {int(s2_10 * 4)}/4 = {s2_10}$", 2)
truth("例 18.10 ずれ (-4, -2, 0, 6)", [x - G10 for x in g10] == [-4, -2, 0, 6], 0)
check("例 18.10 復元抽出の分散", f"分散は $14/2 = {s2_10 / 2}$ です")
pairs_w = [F(g10[i] + g10[j], 2) for i in range(4) for j in range(4)]
ssq_w = sum((x - G10) ** 2 for x in pairs_w)
check("例 18.10 16 通りの和", f"16 通りの順序対 $(J_1, J_2)$ について平均からのずれの 2 乗を足すと {ssq_w} で、$112/16 = {ssq_w / 16}$", 3)
v_wo = s2_10 / 2 * F(2, 3)
check("例 18.10 非復元抽出", f"$7 \\times (4 - 2)/(4 - 1) = {v_wo.numerator}/{v_wo.denominator} \\approx {float(v_wo):.4f}$", 2)
pm = {(a, c): F(a + c, 2) for a, c in [(1, 3), (1, 5), (1, 11), (3, 5), (3, 11), (5, 11)]}
txt = "、".join(f"$({a}, {c}) \\to {int(v)}$" for (a, c), v in pm.items())
check("例 18.10 6 通りの平均", txt, 6)
sq6 = [int((v - G10) ** 2) for v in pm.values()]
check("例 18.10 ずれの 2 乗", "、".join(str(x) for x in sq6) + f"、その平均は ${sum(sq6)}/6 \\approx {float(F(sum(sq6), 6)):.4f}$", 8)
truth("例 18.10 全列挙の分散が 14/3", F(sum(sq6), 6) == v_wo)
truth("例 18.10 B = 4 の非復元抽出は分散 0", F(4 - 4, 3) == 0, 0)

# 命題 18.11：E|g_B|^2 = |G|^2 + σ²/B と不偏推定量（全列挙で厳密）
norm2 = lambda v: v[0] ** 2 + v[1] ** 2
G2true = norm2(Gv)
s2true = Sig[0][0] + Sig[1][1]
ok11 = True
En = {}
for Bq in (1, 2, 3):
    allb = [tuple(sum(popv[j][c] for j in js) / Bq for c in range(2)) for js in product(range(Np), repeat=Bq)]
    En[Bq] = sum(norm2(v) for v in allb) / len(allb)
    ok11 &= En[Bq] == G2true + s2true / Bq
Bs_, Bb_ = 1, 3
ok11 &= (Bb_ * En[Bb_] - Bs_ * En[Bs_]) / (Bb_ - Bs_) == G2true
ok11 &= (En[Bs_] - En[Bb_]) / (F(1, Bs_) - F(1, Bb_)) == s2true
truth("命題 18.11 の 1・2（N = 5 の母集団で厳密）", ok11, 2)

# ======================= 5 節：命題 18.13・例 18.14 =======================
eta, kk, Bsym = sp.symbols("eta k B", positive=True)
# 1 次元で Σ を σ² と書き、平均と分散を比べる（命題 18.13 の 3・4）
sig2, Gs = sp.symbols("sigma2 G", positive=True)
mean_k, var_k = -kk * eta * Gs, kk * eta ** 2 * sig2 / Bsym
etap = sp.symbols("etap", positive=True)
sol_mean = sp.solve(sp.Eq(-etap * Gs, mean_k), etap)
truth("命題 18.13 の 3：平均の一致 ⟺ η' = kη", sol_mean == [kk * eta])
truth("命題 18.13 の 3：そのとき共分散も一致", sp.simplify(sol_mean[0] ** 2 * sig2 / (kk * Bsym) - var_k) == 0)
sol_var = sp.solve(sp.Eq(etap ** 2 * sig2 / (kk * Bsym), eta ** 2 * sig2 / Bsym), etap)
truth("命題 18.13 の 4：1 ステップの共分散の一致 ⟺ η' = √k η", sol_var == [sp.sqrt(kk) * eta])
# 命題 18.13 の 1 を例 18.10 の母集団で全列挙（k = 2, B = 1）
disp = [-(F(g10[i]) + F(g10[j])) for i in range(4) for j in range(4)]     # η = 1
md = sum(disp) / 16
vd = sum((x - md) ** 2 for x in disp) / 16
truth("命題 18.13 の 1：k = 2 の変位の平均 -2G、分散 2σ²/B（厳密）", md == -2 * G10 and vd == 2 * s2_10)

B0, eta0 = 512, F(6, 10 ** 4)
check("例 18.14 基準", f"$B_0 = {B0}$ 系列（$n = 1024$ で {cp(B0 * n)} トークン）、$\\eta_0 = 6 \\times 10^{{-4}}$", 2)
for Bq in (128, 256, 512, 1024, 2048, 4096):
    Sq = ceil_frac(F(T, Bq * n))
    lin = eta0 * Bq / B0
    sqr = float(eta0) * math.sqrt(Bq / B0)
    row = "\t".join([str(Bq), cp(Bq * n), cp(Sq), f"{float(lin * 10 ** 4):.3f}", f"{sqr * 1e4:.3f}",
                     f"{float(lin) / sqr:.4f}", f"{float(Sq * lin):.2f}", f"{Sq * sqr:.2f}"])
    check(f"例 18.14 の表 B = {Bq} の行", row, 7)
    truth(f"例 18.14 B = {Bq}：比 = √(B/B0)", abs(float(lin) / sqr - math.sqrt(Bq / B0)) < 1e-12, 0)
approx = F(T) * eta0 / (n * B0)
check("例 18.14 Tη0/(nB0)", f"$S\\eta \\approx T\\eta_0/(nB_0) = 10^{{10}} \\times 6 \\times 10^{{-4}}/524{{,}}288 \\approx {float(approx):.2f}$")
truth("例 18.14 線形則の Sη は 11.44〜11.45（B にほとんど依らない）",
      all(11.44 <= float(ceil_frac(F(T, Bq * n)) * eta0 * Bq / B0) < 11.45 for Bq in (128, 256, 512, 1024, 2048, 4096)))
S4096 = ceil_frac(F(T, 4096 * n)) * float(eta0) * math.sqrt(4096 / B0)
S512 = ceil_frac(F(T, 512 * n)) * float(eta0)
check("例 18.14 B = 4096 の平方根則", f"$B = 4096$ では {S4096:.2f} と、$B = B_0$ のときの約 $1/\\sqrt{{8}} \\approx {1 / math.sqrt(8):.4f}$ 倍", 2)
truth("例 18.14 4.05/11.44 ≈ 1/√8（0.3536 に小数第 3 位まで一致）", abs(S4096 / S512 - 1 / math.sqrt(8)) < 5e-4, 0)
check("例 18.14 平方根則の式", f"$S\\eta \\approx {float(approx):.2f}\\sqrt{{B_0/B}}$")

# ======================= 6 節：命題 18.16・例 18.17・定理 18.18・例 18.19 =======================
# 命題 18.16 を sympy で：2×2 の一般の対称な H, Σ と G
g1, g2, h11, h12, h22, s11, s12, s22, et = sp.symbols("g1 g2 h11 h12 h22 s11 s12 s22 eta", real=True)
Bb = sp.symbols("B", positive=True)
Gm = sp.Matrix([g1, g2])
Hm = sp.Matrix([[h11, h12], [h12, h22]])
Sm = sp.Matrix([[s11, s12], [s12, s22]])
GHG = (Gm.T * Hm * Gm)[0]
EL = -et * (Gm.T * Gm)[0] + et ** 2 / 2 * (GHG + (Hm * Sm).trace() / Bb)
# 1 の式：E[ĝĝᵀ] = Σ/B + GGᵀ を代入した期待値と一致するか
EggT = Sm / Bb + Gm * Gm.T
E_direct = -et * (Gm.T * Gm)[0] + et ** 2 / 2 * (Hm * EggT).trace()
truth("命題 18.16 の 1（記号計算）", sp.simplify(E_direct - EL) == 0)
eta_star = sp.solve(sp.diff(EL, et), et)[0]
etamax = (Gm.T * Gm)[0] / GHG
Bnoise = (Hm * Sm).trace() / GHG
truth("命題 18.16 の 2：η* = η_max/(1 + B_noise/B)", sp.simplify(eta_star - etamax / (1 + Bnoise / Bb)) == 0)
dLopt = -EL.subs(et, eta_star)
dLmax = (Gm.T * Gm)[0] ** 2 / (2 * GHG)
truth("命題 18.16 の 2：ΔL_opt = ΔL_max/(1 + B_noise/B)", sp.simplify(dLopt - dLmax / (1 + Bnoise / Bb)) == 0)
hh = sp.symbols("h", positive=True)
Bsimple = (s11 + s22) / (g1 ** 2 + g2 ** 2)
truth("命題 18.16 の 4：H = hI なら B_noise = B_simple",
      sp.simplify(Bnoise.subs({h11: hh, h22: hh, h12: 0}) - Bsimple) == 0)
xB, cN = sp.symbols("x c", positive=True)
r = xB / (xB + cN)
truth("命題 18.16 の 3：B/(B + B_noise) は 1 以下で非減少、∞ で 1",
      sp.simplify(sp.diff(r, xB) - cN / (xB + cN) ** 2) == 0 and sp.limit(r, xB, sp.oo) == 1 and sp.simplify(1 - r - cN / (xB + cN)) == 0)
okb = all(F(1, 2) * F(Bq, Bn) <= F(Bq, Bq + Bn) <= F(Bq, Bn) for Bn in (1, 7, 41, 1024) for Bq in range(1, Bn + 1))
truth("命題 18.16 の 3：B ≤ B_noise での上下の評価（整数の格子で）", okb)

# 例 18.17
Gx = (F(1), F(2))
Hd = (F(1), F(4))
Sd = (F(300), F(100))
nG = Gx[0] ** 2 + Gx[1] ** 2
ghg = Hd[0] * Gx[0] ** 2 + Hd[1] * Gx[1] ** 2
trHS = Hd[0] * Sd[0] + Hd[1] * Sd[1]
trS = Sd[0] + Sd[1]
check("例 18.17 |G|^2, GᵀHG, tr(HΣ), trΣ",
      f"$\\|\\boldsymbol{{G}}\\|^2 = {nG}$、$\\boldsymbol{{G}}^{{\\mathsf{{T}}}}H\\boldsymbol{{G}} = 1 + 16 = {ghg}$、$\\mathrm{{tr}}(H\\Sigma) = 300 + 400 = {trHS}$、$\\mathrm{{tr}}\\,\\Sigma = {trS}$", 8)
em, dm, bn, bs = nG / ghg, nG ** 2 / (2 * ghg), trHS / ghg, trS / nG
check("例 18.17 η_max", f"$\\eta_{{\\max}} = {em} \\approx {float(em):.4f}$", 2)
check("例 18.17 ΔL_max", f"$\\Delta L_{{\\max}} = {dm} \\approx {float(dm):.4f}$", 2)
check("例 18.17 B_noise", f"$B_{{\\mathrm{{noise}}}} = {bn} \\approx {float(bn):.2f}$", 2)
check("例 18.17 B_simple", f"$B_{{\\mathrm{{simple}}}} = 400/5 = {int(bs)}$")
f32 = 1 + bn / 32
check("例 18.17 B = 32 の因子", f"$1 + B_{{\\mathrm{{noise}}}}/32 = 1 + 700/{17 * 32} = {f32}$", 2)
e32, d32 = em / f32, dm / f32
check("例 18.17 B = 32 の η*", f"$\\eta^{{*}} = (5/17)(136/311) = {e32} \\approx {float(e32):.4f}$", 2)
check("例 18.17 B = 32 の ΔL", f"$\\Delta L_{{\\mathrm{{opt}}}} = (25/34)(136/311) = {d32} \\approx {float(d32):.4f}$", 2)
f1024 = 1 + bn / 1024
check("例 18.17 B = 1024 の因子", f"$1 + 700/{cm(17 * 1024)} = {f1024}$", 2)
e1024, d1024 = em / f1024, dm / f1024
check("例 18.17 B = 1024 の η*, ΔL", f"$\\eta^{{*}} = {e1024} \\approx {float(e1024):.4f}$、$\\Delta L_{{\\mathrm{{opt}}}} = {d1024} \\approx {float(d1024):.4f}$", 4)
rr = d1024 / d32
check("例 18.17 改善の比", f"$(3200/4527)/(100/311) = {rr} \\approx {float(rr):.3f}$", 2)
check("例 18.17 B_simple/B_noise", f"$B_{{\\mathrm{{noise}}}}$ の約 {float(bs / bn):.3f} 倍")
check("例 18.17 重みの比", f"$\\mathrm{{tr}}(H\\Sigma)/\\mathrm{{tr}}\\,\\Sigma = 700/400 = {float(trHS / trS)}$", 1)
check("例 18.17 勾配の重み", f"$\\boldsymbol{{G}}^{{\\mathsf{{T}}}}H\\boldsymbol{{G}}/\\|\\boldsymbol{{G}}\\|^2 = 17/5 = {float(ghg / nG)}$", 1)
truth("例 18.17 B_noise/B_simple = 1.75/3.4", bn / bs == (trHS / trS) / (ghg / nG))

# 定理 18.18
Bt, Bn_, Dl, dLm = sp.symbols("B Bn Delta dLmax", positive=True)
Sfun = Dl / (dLm / (1 + Bn_ / Bt))
Smin = Dl / dLm
Emin = Smin * Bn_
Efun = Bt * Sfun
truth("定理 18.18 の 1：S, E の式と (S/Smin-1)(E/Emin-1) = 1",
      sp.simplify(Sfun - Smin * (1 + Bn_ / Bt)) == 0 and sp.simplify(Efun - Emin * (1 + Bt / Bn_)) == 0
      and sp.simplify((Sfun / Smin - 1) * (Efun / Emin - 1) - 1) == 0)
truth("定理 18.18 の 2：S は減少・E は増加、極限",
      sp.simplify(sp.diff(Sfun, Bt)).is_negative and sp.simplify(sp.diff(Efun, Bt)).is_positive
      and sp.limit(Sfun, Bt, sp.oo) == Smin and sp.limit(Efun, Bt, 0) == Emin)
truth("定理 18.18 の 3：B_crit = B_noise で S = 2Smin, E = 2Emin",
      sp.simplify(Emin / Smin - Bn_) == 0 and sp.simplify(Sfun.subs(Bt, Bn_) - 2 * Smin) == 0 and sp.simplify(Efun.subs(Bt, Bn_) - 2 * Emin) == 0)
truth("定理 18.18 の 4：どの B でも S ≥ 2Smin か E ≥ 2Emin（格子で）",
      all((1 + F(1024, Bq) >= 2) or (1 + F(Bq, 1024) >= 2) for Bq in range(1, 5000)))

# 例 18.19
BN, SMIN = 1024, 10000
EMIN = SMIN * BN
check("例 18.19 E_min", f"$E_{{\\min}} = 10{{,}}000 \\times 1024 = {cm(EMIN)}$")


def num(x):
    x = F(x)
    if x.denominator == 1:
        return str(x.numerator)
    return str(float(x))


for Bq in (128, 256, 512, 1024, 2048, 4096, 8192):
    rS, rE = 1 + F(BN, Bq), 1 + F(Bq, BN)
    row = "\t".join([str(Bq), num(F(Bq, BN)), num(rS), num(rE), cp(int(SMIN * rS)), cp(int(EMIN * rE)), num((rS - 1) * (rE - 1))])
    check(f"例 18.19 の表 B = {Bq} の行", row, 6)
truth("例 18.19 r と 1/r の行で S/Smin と E/Emin が入れ替わる",
      all(1 + 1 / F(rq) == 1 + 1 / F(rq) and (1 + F(BN) / (BN * F(rq)), 1 + BN * F(rq) / BN)
          == (1 + BN * (1 / F(rq)) / BN, 1 + F(BN) / (BN * (1 / F(rq)))) for rq in (F(1, 8), F(1, 4), F(1, 2), 2, 4, 8)))
check("例 18.19 128 → 1024", f"ステップ数は {cp(90000)} から {cp(20000)} に減り、処理する系列は約 {float(F(20480000, 11520000)):.3f} 倍", 3)
check("例 18.19 1024 → 8192", f"ステップ数は {cp(20000)} から {cp(11250)} にしか減らず、処理する系列は {float(F(92160000, 20480000))} 倍", 3)

# ======================= 7 節：定義 18.20・命題 18.21・例 18.22 =======================
nbd, an2b = sp.symbols("nbd an2b", positive=True)
attn = (2 + 4 + 2 + 2 + 1) * nbd + (2 + 1 + 2) * an2b
mlp = (2 + 8 + 8 + 1) * nbd
ln = 2 * 2 * nbd
truth("定義 18.20 の内訳：注意 11nbd + 5an²b、MLP 19nbd、層正規化 4nbd、計 34nbd + 5an²b",
      sp.expand(attn - 11 * nbd - 5 * an2b) == 0 and mlp == 19 * nbd and ln == 4 * nbd and sp.expand(attn + mlp + ln - 34 * nbd - 5 * an2b) == 0, 4)
check("定義 18.20 式", "nbd\\Big(34 + \\frac{5an}{d}\\Big)", 2)
parts_attn = "QKV の射影の入力 $2nbd$、$Q$ と $K$ の $4nbd$、softmax の出力 $2an^2b$、そのドロップアウトのマスク $an^2b$ と出力 $2an^2b$、$V$ の $2nbd$、出力の射影の入力 $2nbd$、最後のドロップアウトのマスク $nbd$ で $11nbd + 5an^2b$"
check("定義 18.20 注意の内訳（2+4+2+2+1 = 11、2+1+2 = 5）", parts_attn, 10)
check("定義 18.20 MLP の内訳（2+8+8+1 = 19）", "1 つ目の線形層の入力 $2nbd$、GELU の入力 $8nbd$、2 つ目の線形層の入力 $8nbd$、ドロップアウトのマスク $nbd$ で $19nbd$", 5)
check("定義 18.20 層正規化（2 × 2 = 4）", "層正規化は入力を 1 つずつ保存して $2 \\times 2nbd$", 2)

Vv, d, Ll, Lctx, a = 50257, 768, 12, 1024, 12
P = Vv * d + Lctx * d + Ll * (12 * d * d + 13 * d) + 2 * d
truth(f"例 18.22 P = {P:,}（定理 5.1［Transformer ブロック］の式）", P == 124439808, 0)
check("例 18.22 構成", f"$L = {Ll}$、$d = {d}$、$a = {a}$、$n = {n}$、$P = {cm(P)}$", 5)
GiB = 2 ** 30
states = 16 * P
check("例 18.22 16P", f"$16 \\times {cm(P)} = {cm(states)}$ バイト、約 {states / GiB:.3f} GiB", 2)
five = F(5 * a * n, d)
check("例 18.22 5an/d", f"$5an/d = 5 \\times 12 \\times 1024/768 = {int(five)}$")
per = n * d * (34 + int(five))
check("例 18.22 1 層 1 系列", f"$1024 \\times 768 \\times (34 + 80) = {cm(per)}$ バイト", 1)
act = Ll * per
check("例 18.22 12 層", f"12 層で ${cm(act)}$ バイト、${act // 2 ** 18}/4096 = {act / GiB}$ GiB、約 {act / GiB:.3f} GiB", 4)
truth("例 18.22 1,075,838,976 = 2^18 × 4104", act == 2 ** 18 * 4104, 0)
check("例 18.22 注意の重みの割合", f"$80/114 \\approx {100 * 80 / 114:.1f}\\,\\%$")
act0 = n * d * 34 * Ll
check("例 18.22 重みなし", f"$1024 \\times 768 \\times 34 \\times 12 = {cm(act0)}$ バイト、${act0 // 2 ** 18}/4096 \\approx {act0 / GiB:.4f}$ GiB", 3)
C = 24 * GiB
bmax = (C - states) // act
bmax0 = (C - states) // act0
check("例 18.22 b_max", f"$b_{{\\max}} = \\lfloor (24 - {states / GiB:.3f})/{act / GiB:.3f} \\rfloor = \\lfloor {(C - states) / act:.1f} \\rfloor = {bmax}$", 4)
check("例 18.22 b_max（重みなし）", f"$\\lfloor (24 - {states / GiB:.3f})/{act0 / GiB:.4f} \\rfloor = \\lfloor {(C - states) / act0:.1f} \\rfloor = {bmax0}$", 3)
truth("例 18.22 丸めた値で割っても同じ小数第 1 位", f"{(24 - 1.854) / 1.002:.1f}" == f"{(C - states) / act:.1f}" and f"{(24 - 1.854) / 0.2988:.1f}" == f"{(C - states) / act0:.1f}", 0)
states18 = 18 * P
bmax18 = (C - states18) // act
check("例 18.22 18 バイト", f"$18 \\times {cm(P)} = {cm(states18)}$ バイト（約 {states18 / GiB:.3f} GiB）で、$b_{{\\max}}$ は $\\lfloor {(C - states18) / act:.1f} \\rfloor = {bmax18}$", 4)
check("要点 1.002 GiB と b = 22", f"1 系列あたり約 {act / GiB:.3f} GiB で、24 GiB の装置に載るのは $b = {bmax}$ まで", 2)
check("例 18.22 1 台あたり bK", f"1 台あたり $bK = {512 // 8}$ 系列")
for bq in (1, 2, 4, 8, 16, 32, 64):
    Kq = 64 // bq
    a1 = F(bq * act, GiB)
    t1 = F(states + bq * act, GiB)
    a0 = F(bq * act0, GiB)
    t0 = F(states + bq * act0, GiB)
    fits = "載る" if states + bq * act <= C else "載らない"
    row = "\t".join([str(bq), str(Kq), half_up(a1, 3), half_up(t1, 3), fits, half_up(a0, 3), half_up(t0, 3)])
    check(f"例 18.22 の表 b = {bq} の行", row, 6)
    truth(f"例 18.22 b = {bq}：重みなしは 24 GiB に載る", states + bq * act0 <= C, 0)
truth("例 18.22 2 の冪で載る最大は b = 16（K = 4）", max(bq for bq in (1, 2, 4, 8, 16, 32, 64) if states + bq * act <= C) == 16)
# 命題 18.21 の 3：bK を保てば乗算回数は同じ（1 系列あたりの回数 × bK）
per_seq = 12 * n * d * d + 2 * n * n * d
truth("命題 18.21 の 3：(b, K) = (1,64), (16,4), (64,1) で乗算回数が同じ",
      len({bq * (64 // bq) * per_seq for bq in (1, 16, 64)}) == 1)

# ======================= 8 節：リスティングの出力についての本文の記述 =======================


def printed_output(code_file):
    """本文で code_file の内容の直後に置かれた出力の行を取り出す。"""
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    return code, rest.split("\n\n")[0]


outs = {}
for f in ("grad_accum.py", "noise_scale.py"):
    code, block = printed_output(f)
    run = subprocess.run([sys.executable, f], cwd=HERE, capture_output=True, text=True)
    outs[f] = run.stdout.rstrip("\n")
    same = code is not None and run.returncode == 0 and outs[f] == block
    nlines = len(outs[f].splitlines())
    truth(f"リスティング {f}：本文のコードと同一で、実行結果が本文の出力 {nlines} 行と一致", same, nlines)

o1 = outs["grad_accum.py"].splitlines()
rel = re.search(r"rel\. error ([0-9.]+)", o1[2]).group(1)
check("8 節 平均の平均の相対誤差", f"相対誤差は約 {rel} で")
truth("8 節 |A_sum|/|grad| = 4.000 = K", o1[1].endswith("4.000"), 0)
check("8 節 m̄/m_j", f"$\\bar{{m}}/m_j = {64 // 4}/4 = {64 // 4 // 4}$ 倍", 2)
eps_diff = re.search(r"= ([0-9.e+-]+)$", o1[4]).group(1)
mant, ex = eps_diff.split("e")
check("8 節 ε を変えない差", f"差は ${mant} \\times 10^{{{int(ex)}}}$")
truth("8 節 K = 4 倍は浮動小数点数で正確（差 0）", o1[3].endswith("0.0e+00"), 0)
o2 = outs["noise_scale.py"].splitlines()
src1 = open(os.path.join(HERE, "grad_accum.py"), encoding="utf-8").read()
src2 = open(os.path.join(HERE, "noise_scale.py"), encoding="utf-8").read()
truth("8 節 本文の設定（語彙 5、16 トークンずつ 4 個、40・12・8・4、学習率 1e-2 の 5 ステップ）がコードと一致",
      "N, d, V, K = 64, 8, 5, 4" in src1 and "[40, 52, 60]" in src1 and "steps=5, lr=1e-2" in src1
      and "sizes [40, 12, 8, 4]" in o1[2], 0)
check("8 節 トークン数の記述", "トークン数が 40、12、8、4 のマイクロバッチ", 4)
check("8 節 学習率と 5 ステップ", "学習率 $10^{-2}$ の 5 ステップ", 2)
check("8 節 語彙", "モデルは線形のロジット $XW$（語彙 5）", 1)
truth("8 節 noise_scale.py の設定（200 個、10 次元、20,000 個、4,000 回、B_s = 8、B_b = 128）がコードと一致",
      "N, D, T = 200, 10, 20000" in src2 and "range(4000)" in src2 and "sq(8), sq(128)" in src2, 0)
check("8 節 noise_scale の設定", "200 個の例ごとの勾配（10 次元）で確かめます。各 $B$ について 20,000 個のミニバッチを作って", 3)
check("8 節 推定の設定", "$B_s = 8$ と $B_b = 128$ でそれぞれ 4,000 回平均した", 3)
check("8 節 因子 136/199", f"因子 ${200 - 64}/{199} \\approx {float(F(136, 199)):.4f}$")
row64 = [float(x) for x in o2[4].split()]
truth(f"8 節 B = 64 の非復元/復元 = {row64[3] / row64[1]:.3f} は約 3 分の 2", 0.6 < row64[3] / row64[1] < 0.72)
truth("8 節 B = 200 の非復元抽出の誤差は 0", o2[5].split()[3] == "0.0000" and o2[5].split()[4] == "0.0000")
true_vals = re.findall(r"[0-9]+\.[0-9]+", o2[0])
est_vals = re.findall(r"[0-9]+\.[0-9]+", o2[6])
check("8 節 推定値と真の値", f"推定は $\\|\\boldsymbol{{G}}\\|^2 \\approx {est_vals[2]}$、$\\sigma^2 \\approx {est_vals[3]}$ で、1 行目の真の値 {true_vals[0]}、{true_vals[1]} に近く、$B_{{\\mathrm{{simple}}}}$ の推定 {est_vals[4]} も真の値 {true_vals[2]} に近い", 6)
truth("8 節 推定は真の値の 3 % 以内", all(abs(float(e) / float(t) - 1) < 0.03 for e, t in zip(est_vals[2:5], true_vals)))
ratio_rows = all(abs(float(r.split()[1]) / float(r.split()[2]) - 1) < 0.02 and
                 (float(r.split()[4]) == 0 or abs(float(r.split()[3]) / float(r.split()[4]) - 1) < 0.02) for r in o2[2:6])
truth("8 節 2〜6 行目：標本の値は理論値の 2 % 以内", ratio_rows)

# ======================= 演習 =======================
T23 = 20 * P
check("演習 18.23 T", f"$T = 20 \\times {cm(P)} = {cm(T23)}$")
x23 = f"{float(F(T23, 524288)):.3f}".split(".")
check("演習 18.23 T/524,288", f"$T/524{{,}}288 \\approx {cm(int(x23[0]))}.{x23[1]}$ なので $S = {cm(ceil_frac(F(T23, 524288)))}$", 2)
truth("演習 18.23 小数第 3 位", f"{float(F(T23, 524288)):.3f}" == "4747.002", 0)
full23 = (T23 // 524288)
check("演習 18.23 使うトークン", f"${cm(full23)} \\times 524{{,}}288 = {cm(full23 * 524288)}$", 2)
check("演習 18.23 残り", f"${cm(T23)} - {cm(full23 * 524288)} = {cm(T23 - full23 * 524288)}$ トークン", 1)
truth("演習 18.23 残りは系列 1 本分", T23 - full23 * 524288 == 1024, 0)
y23 = f"{float(F(T23, 1048576)):.3f}".split(".")
check("演習 18.23 B = 1024", f"$T/1{{,}}048{{,}}576 \\approx {cm(int(y23[0]))}.{y23[1]}$ で $S = {cm(ceil_frac(F(T23, 1048576)))}$", 2)
truth("演習 18.23 2,373.501 の丸め", f"{float(F(T23, 1048576)):.3f}" == "2373.501", 0)
m1, m2 = 300, 100
N24, M24 = m1 + m2, 2
c1, c2 = F(1, M24) - F(m1, N24), F(1, M24) - F(m2, N24)
check("演習 18.24 N, M", f"$N = {N24}$、$M = {M24}$", 2)
check("演習 18.24 係数", f"$(1/2 - 3/4)\\nabla L_1 + (1/2 - 1/4)\\nabla L_2 = \\frac{{1}}{{4}}(\\nabla L_2 - \\nabla L_1)$", 1)
truth("演習 18.24 係数は -1/4 と 1/4", c1 == F(-1, 4) and c2 == F(1, 4))
mb24 = F(N24, M24)
check("演習 18.24 重みの比", f"$\\bar{{m}} = {mb24}$ なので、マイクロバッチ 1 のトークンは $200/300 = {mb24 / m1}$ 倍、マイクロバッチ 2 のトークンは $200/100 = {mb24 / m2}$ 倍", 3)
n32, n512 = F(5, 2), F(5, 8)
G25 = (512 * n512 - 32 * n32) / (512 - 32)
S25 = (n32 - n512) / (F(1, 32) - F(1, 512))
check("演習 18.25 G", f"$\\mathcal{{G}} = (512 \\times 0.625 - 32 \\times 2.5)/(512 - 32) = ({int(512 * n512)} - {int(32 * n32)})/{512 - 32} = {float(G25)}$", 3)
check("演習 18.25 S", f"$\\mathcal{{S}} = (2.5 - 0.625)/(1/32 - 1/512) = {float(n32 - n512)}/({(F(1, 32) - F(1, 512)).numerator}/{(F(1, 32) - F(1, 512)).denominator}) = {int(S25)}$", 3)
check("演習 18.25 B_simple", f"$B_{{\\mathrm{{simple}}}} \\approx 64/0.5 = {int(S25 / G25)}$")
bn25 = S25 / G25
check("演習 18.25 S/Smin, E/Emin", f"$S/S_{{\\min}} = 1 + 128/512 = {float(1 + bn25 / 512)}$、$E/E_{{\\min}} = 1 + 512/128 = {int(1 + 512 / bn25)}$", 2)
check("演習 18.25 4 倍・1.25 倍・5 倍", f"臨界バッチサイズの {int(512 / bn25)} 倍で、ステップ数は最小の {float(1 + bn25 / 512)} 倍で済みますが、例は最小の {int(1 + 512 / bn25)} 倍", 3)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

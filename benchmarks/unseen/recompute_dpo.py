"""dpo.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
命題・定理の式は sympy と乱数の例で確かめる。コードのリストは取り出して実行し、
出力を印字された出力とそのまま比べる。
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "dpo.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",")
results = []
numeric = []  # 印字された数との照合だけを数える


def parse(printed):
    return float(printed.replace(",", "").replace("−", "-"))


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 章に印字された文字列。value: 定義から計算した値（印字の桁で四捨五入して比べる）。"""
    dec = decimals(printed)
    v = float(value)
    p = parse(printed)
    ok = abs(v - p) <= 0.5 * 10 ** (-dec) + 1e-12
    if isinstance(value, (int, Fraction)) and dec == 0:
        ok = Fraction(value) == Fraction(int(p))
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    print(f"[{status:9s}] {label}: printed {printed}  computed {v:.10g}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


def check_text(label, snippet):
    check_true(f"text: {label}", snippet in TEXT)


def sig(t):
    return 1.0 / (1.0 + math.exp(-t))


# ---------- 章の例 ----------
P_REF = np.array([0.4, 0.3, 0.2, 0.1])
R = np.array([0.0, 1.0, 2.0, -1.0])
PAIRS = [(i, j) for i in range(4) for j in range(i + 1, 4)]


def pistar(beta, r=R, p_ref=P_REF):
    w = p_ref * np.exp((r - r.max()) / beta)        # 最大値を引いて桁あふれを防ぐ
    return w / w.sum(), w.sum() * math.exp(r.max() / beta) if r.max() / beta < 700 else math.inf


def kl(p, q=P_REF):
    m = p > 0
    return float((p[m] * np.log(p[m] / q[m])).sum())


# ---------- 33.1 節：参照方策の自己回帰的な分解 ----------
fa, faa, fab = Fraction(7, 10), Fraction(4, 7), Fraction(2, 3)
seq = [fa * faa, fa * (1 - faa), (1 - fa) * fab, (1 - fa) * (1 - fab)]
check_true("pi_ref(aa, ab, ba, bb) = (0.4, 0.3, 0.2, 0.1) from the token conditionals",
           seq == [Fraction(2, 5), Fraction(3, 10), Fraction(1, 5), Fraction(1, 10)])
check_text("0.7 x 4/7 = 0.4", "0.7 \\times 4/7 = 0.4")
check_text("0.7 x 3/7 = 0.3", "0.7 \\times 3/7 = 0.3")
check_text("0.3 x 2/3 = 0.2", "0.3 \\times 2/3 = 0.2")
check_text("0.3 x 1/3 = 0.1", "0.3 \\times 1/3 = 0.1")
check_true("3 questions listed after 「次の 3 つ」",
           len(re.findall(r"^\d\. .*節）。$", TEXT.split("次の 3 つの問い")[1].split("章を通して")[0], re.M)) == 3)

# ---------- 補題（ロジスティック関数） ----------
t = sp.symbols("t", real=True)
s_t = 1 / (1 + sp.exp(-t))
s_mt = s_t.subs(t, -t)
check_true("sigma(-t) = 1 - sigma(t)", sp.simplify(s_mt - (1 - s_t)) == 0)
check_true("sigma'(t) = sigma(t) sigma(-t)", sp.simplify(sp.diff(s_t, t) - s_t * s_mt) == 0)
check_true("d/dt log sigma(t) = sigma(-t)", sp.simplify(sp.diff(sp.log(s_t), t) - s_mt) == 0)
check_true("d2/dt2 (-log sigma(t)) = sigma(t) sigma(-t)",
           sp.simplify(sp.diff(-sp.log(s_t), t, 2) - s_t * s_mt) == 0)
grid = np.linspace(-30, 30, 6001)
sg = 1 / (1 + np.exp(-grid))
check_true("sigma(-t) < e^{-t} and -log sigma(t) < e^{-t} on a grid",
           bool(np.all(1 / (1 + np.exp(grid)) < np.exp(-grid)) and np.all(np.log1p(np.exp(-grid)) < np.exp(-grid))))
ss = np.linspace(1e-3, 50, 50001)
check_true("log s <= s - 1 on a grid (equality only near s = 1)",
           bool(np.all(np.log(ss) <= ss - 1 + 1e-15)))

# ---------- Bradley-Terry の例 ----------
check("sigma(1)", "0.7311", sig(1))
check("sigma(2)", "0.8808", sig(2))
check("sigma(3)", "0.9526", sig(3))
check("P(aa > ab) = 1 - 0.7311", "0.2689", 1 - sig(1))
check_text("P(ab > aa) = sigma(1)", "P(\\mathrm{ab} \\succ \\mathrm{aa}) = \\sigma(1) = 0.7311")
check_text("P(ba > ab) = sigma(1)", "P(\\mathrm{ba} \\succ \\mathrm{ab}) = \\sigma(1) = 0.7311")
check_text("P(ba > aa) = sigma(2)", "P(\\mathrm{ba} \\succ \\mathrm{aa}) = \\sigma(2) = 0.8808")
check_text("P(ba > bb) = sigma(3)", "P(\\mathrm{ba} \\succ \\mathrm{bb}) = \\sigma(3) = 0.9526")
R10 = R + 10
check_true("shift by 10 gives (10, 11, 12, 9) and the same probabilities",
           list(R10) == [10, 11, 12, 9] and all(abs(sig(R10[i] - R10[j]) - sig(R[i] - R[j])) < 1e-15
                                                 for i in range(4) for j in range(4)))
check_true("102 - 101 = 2 - 1", 102 - 101 == 2 - 1)

# ---------- 報酬モデルの 1 ステップ ----------
phi = np.zeros(4)
w_, l_ = 2, 0
delta = phi[w_] - phi[l_]
grad = -sig(-delta) * (np.eye(4)[w_] - np.eye(4)[l_])
check("loss log 2", "0.6931", math.log(2))
check_true("weight sigma(0) = 0.5", sig(0) == 0.5)
check_true("gradient = (0.5, 0, -0.5, 0)", np.array_equal(grad, [0.5, 0, -0.5, 0]))
phi = phi - 1.0 * grad
check_true("phi after one step = (-0.5, 0, 0.5, 0), Delta = 1",
           np.array_equal(phi, [-0.5, 0, 0.5, 0]) and phi[w_] - phi[l_] == 1)
check("loss after step log(1 + e^-1)", "0.3133", math.log1p(math.exp(-1)))
check("weight sigma(-1)", "0.2689", sig(-1))
check("weight ratio %", "53.8", 100 * sig(-1) / 0.5)
check_text("phi = (-0.5, 0, 0.5, 0)", "\\phi = (-0.5,\\ 0,\\ 0.5,\\ 0)")
check_text("gradient (0.5, 0, -0.5, 0)", "= (0.5,\\ 0,\\ -0.5,\\ 0)")
# 命題：勾配の式（線形の報酬）を差分で確認し、ヘッセ行列が半正定値であること
rng = np.random.default_rng(3)
F = rng.standard_normal((5, 3))                # 5 個の応答の特徴
data = [(0, 1), (2, 1), (3, 4), (4, 0)]
th = rng.standard_normal(3)


def lr(th):
    return np.mean([math.log1p(math.exp(-(F[a] - F[b]) @ th)) for a, b in data])


g_formula = -np.mean([sig(-(F[a] - F[b]) @ th) * (F[a] - F[b]) for a, b in data], axis=0)
g_num = np.array([(lr(th + 1e-6 * e) - lr(th - 1e-6 * e)) / 2e-6 for e in np.eye(3)])
Hs = np.mean([sig((F[a] - F[b]) @ th) * sig(-(F[a] - F[b]) @ th) * np.outer(F[a] - F[b], F[a] - F[b])
              for a, b in data], axis=0)
H_num = np.array([[(lr(th + 1e-4 * (ei + ej)) - lr(th + 1e-4 * (ei - ej)) - lr(th - 1e-4 * (ei - ej))
                    + lr(th - 1e-4 * (ei + ej))) / 4e-8 for ej in np.eye(3)] for ei in np.eye(3)])
check_true("reward-model gradient formula = finite difference", np.abs(g_formula - g_num).max() < 1e-8)
check_true("reward-model Hessian formula = finite difference, PSD",
           np.abs(Hs - H_num).max() < 1e-5 and np.linalg.eigvalsh(Hs).min() > -1e-12)

# ---------- 33.3 節：分配関数の項の数 ----------
check("2^15", "32,768", 2 ** 15)
check_true("(2^15)^64 = 2^960", (2 ** 15) ** 64 == 2 ** 960)
m960 = Fraction(2 ** 960, 10 ** 288)
check("2^960 / 10^288", "9.7", m960)
check_text("2^960 approx 9.7 x 10^288", "2^{960} \\approx 9.7 \\times 10^{288}")

# ---------- 例：beta = 1 の最適方策 ----------
p1, Z1 = pistar(1.0)
check("0.3e", "0.8155", 0.3 * math.e)
check("0.2e^2", "1.4778", 0.2 * math.e ** 2)
check("0.1e^-1", "0.0368", 0.1 / math.e)
check("Z_1", "2.7301", Z1)
check_true("0.4 + 0.8155 + 1.4778 + 0.0368 = 2.7301 (rounded parts add up)",
           abs(0.4 + 0.8155 + 1.4778 + 0.0368 - 2.7301) < 1e-9)
for k, pr in enumerate(["0.1465", "0.2987", "0.5413", "0.0135"]):
    check(f"pi*_1[{k}]", pr, p1[k])
check_text("pi*_1 vector", "\\pi^*_1 = (0.1465,\\ 0.2987,\\ 0.5413,\\ 0.0135)")
check("pi_ref(ba) %", "20", 100 * P_REF[2])
check("pi*_1(ba) %", "54.1", 100 * p1[2])
E1, K1 = float(p1 @ R), kl(p1)
check("E_{pi*_1}[r]", "1.3678", E1)
check("KL(pi*_1 || pi_ref)", "0.3635", K1)
check("J_1(pi*_1) = log Z_1", "1.0043", E1 - K1)
check_true("E - KL = log Z exactly (theorem)", abs(E1 - K1 - math.log(Z1)) < 1e-12)
check_true("1.3678 - 0.3635 = 1.0043", abs(1.3678 - 0.3635 - 1.0043) < 1e-12)
check("J_1(pi_ref) = E_ref[r]", "0.6", float(P_REF @ R))
check_text("0.4x0 + 0.3x1 + 0.2x2 + 0.1x(-1) = 0.6",
           "0.4 \\times 0 + 0.3 \\times 1 + 0.2 \\times 2 + 0.1 \\times (-1) = 0.6")
check("J_1(greedy) = 2 - log 5", "0.3906", 2 - math.log(5))
check_true("greedy: KL(delta_ba || pi_ref) = log(1/0.2) = log 5", abs(kl(np.array([0, 0, 1.0, 0])) - math.log(5)) < 1e-12)

# ---------- 定理：J(pi) = beta log Z - beta KL(pi || pi*) ----------
ok = True
for beta in (0.3, 1.0, 2.5):
    ps, Z = pistar(beta)
    for _ in range(20):
        pi = rng.dirichlet(np.ones(4))
        if _ % 5 == 0:
            pi[rng.integers(4)] = 0
            pi = pi / pi.sum()
        J = float(pi @ R) - beta * kl(pi)
        ok &= abs(J - (beta * math.log(Z) - beta * kl(pi, ps))) < 1e-10 and J <= beta * math.log(Z) + 1e-12
check_true("J(pi) = beta log Z - beta KL(pi||pi*) and J <= beta log Z (random pi, incl. zeros)", ok)
ok = True
for _ in range(200):
    p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    ok &= kl(p, q) >= 0
check_true("Gibbs: KL >= 0 (random), KL(p||p) = 0", ok and abs(kl(P_REF, P_REF)) < 1e-15)

# ---------- 命題：beta の効果 ----------
betas = np.linspace(0.05, 20, 2000)
Es = np.array([pistar(b)[0] @ R for b in betas])
Ks = np.array([kl(pistar(b)[0]) for b in betas])
Js = np.array([b * math.log(pistar(b)[1]) for b in betas])
check_true("E[r], KL and J* strictly decrease in beta (grid)",
           bool(np.all(np.diff(Es) < 0) and np.all(np.diff(Ks) < 0) and np.all(np.diff(Js) < 0)))
bsym = sp.symbols("beta", positive=True)
Zs = sum(sp.Rational(str(P_REF[k])) * sp.exp(int(R[k]) / bsym) for k in range(4))
Jstar = bsym * sp.log(Zs)
Es_sym = sum(sp.Rational(str(P_REF[k])) * sp.exp(int(R[k]) / bsym) * int(R[k]) for k in range(4)) / Zs
KL_sym = Es_sym / bsym - sp.log(Zs)
check_true("dJ*/dbeta = -KL(pi*||pi_ref) (sympy, at several beta)",
           all(abs(float((sp.diff(Jstar, bsym) + KL_sym).subs(bsym, bv))) < 1e-12 for bv in (0.2, 0.7, 1, 3, 9)))
check_true("KL(pi*) = E/beta - log Z matches the direct KL", abs(float(KL_sym.subs(bsym, 1)) - K1) < 1e-12)
check_true("beta -> inf: pi* -> pi_ref, J* -> 0.6",
           np.abs(pistar(1e6)[0] - P_REF).max() < 1e-5 and abs(1e6 * math.log(pistar(1e6)[1]) - 0.6) < 1e-5)
pz = P_REF * np.exp((R - R.max()) / 0.01)
check_true("beta -> 0: pi* -> delta_ba, J* -> 2",
           abs(pz[2] / pz.sum() - 1) < 1e-12 and abs(0.01 * math.log((P_REF * np.exp(R / 0.01)).sum()) - 2) < 0.02)
check_true("KL bound 1.4/beta holds on the grid", bool(np.all(Ks <= 1.4 / betas)))
check("max r*", "2", int(R.max()), must_appear=False)
check("bound numerator max r - E_ref r", "1.4", R.max() - P_REF @ R)

# ---------- 表 33.1 ----------
rows1 = {}
for m in re.finditer(r"^\| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$",
                     NORM, re.M):
    rows1[m.group(1)] = m.groups()
check_true("table 33.1 has rows beta = 0.25, 0.5, 1, 2, 4", sorted(rows1, key=float) == ["0.25", "0.5", "1", "2", "4"])
for bs in ("0.25", "0.5", "1", "2", "4"):
    b = float(bs)
    ps, Z = pistar(b)
    row = rows1.get(bs, ("?",) * 7)
    check(f"T1 beta={bs} Z", row[1], Z)
    check(f"T1 beta={bs} beta log Z", row[2], b * math.log(Z))
    check(f"T1 beta={bs} pi*(ba)", row[3], ps[2])
    check(f"T1 beta={bs} E[r]", row[4], ps @ R)
    check(f"T1 beta={bs} KL", row[5], kl(ps))
    check(f"T1 beta={bs} bound 1.4/beta", row[6], Fraction(14, 10) / Fraction(bs))
lim0 = re.search(r"^\| \$\\to 0\$ \| \$\\to \\infty\$ \| (\S+) \| (\S+) \| (\S+) \| (\S+) \| \$\\to \\infty\$ \|$", TEXT, re.M)
liminf = re.search(r"^\| \$\\to \\infty\$ \| \$\\to 1\$ \| (\S+) \| (\S+) \| (\S+) \| (\S+) \| \$\\to 0\$ \|$", TEXT, re.M)
check_true("table 33.1 has the two limit rows", lim0 is not None and liminf is not None)
if lim0:
    check("T1 beta->0 J*", lim0.group(1), R.max())
    check("T1 beta->0 pi*(ba)", lim0.group(2), 1)
    check("T1 beta->0 E[r]", lim0.group(3), R.max())
    check("T1 beta->0 KL = log 5", lim0.group(4), math.log(5))
if liminf:
    check("T1 beta->inf J* = E_ref r", liminf.group(1), P_REF @ R)
    check("T1 beta->inf pi*(ba) = pi_ref(ba)", liminf.group(2), P_REF[2])
    check("T1 beta->inf E[r]", liminf.group(3), P_REF @ R)
    check("T1 beta->inf KL", liminf.group(4), 0)
check_true("T1 limit rows agree with beta = 1e-3 and beta = 1e4 within 1e-3",
           abs(kl(pistar(1e-3)[0]) - math.log(5)) < 1e-3 and abs(pistar(1e4)[0][2] - 0.2) < 1e-3)
check_true("1.9720 - 0.25 x 1.4695 = 1.6046 (rounded)", round(1.9720 - 0.25 * 1.4695, 4) == 1.6046)
check("log 5", "1.6094", math.log(5))
check("4 / 0.25", "16", Fraction(4) / Fraction(1, 4))
check("KL ratio beta 0.25 / beta 4", "56", kl(pistar(0.25)[0]) / kl(pistar(4)[0]))
check("KL / bound at beta = 1 (%)", "26", 100 * K1 / 1.4)

# ---------- 33.4 節：報酬を最適方策で表す ----------
shift = np.log(p1 / P_REF)
for k, pr in enumerate(["-1.0043", "-0.0043", "0.9957", "-2.0043"]):
    check(f"beta log(pi*/pi_ref)[{k}] = r - log Z", pr, shift[k])
check_true("r - beta log(pi*/pi_ref) is the constant log Z (beta = 0.5, 1, 3)",
           all(np.ptp(R - b * np.log(pistar(b)[0] / P_REF)) < 1e-12 and
               abs((R - b * np.log(pistar(b)[0] / P_REF))[0] - b * math.log(pistar(b)[1])) < 1e-12
               for b in (0.5, 1.0, 3.0)))
check_true("0.9957 - (-1.0043) = 2", round(0.9957 + 1.0043, 4) == 2)
check_true("BT from pi* equals BT from r (Z cancels)",
           all(abs(sig(shift[i] - shift[j]) - sig(R[i] - R[j])) < 1e-12 for i in range(4) for j in range(4)))
check_true("log 0.3 + log(2/3) = log 0.2", abs(math.log(0.3) + math.log(2 / 3) - math.log(0.2)) < 1e-15)
fsh = 3.7
check_true("reward r + f gives the same pi*", np.abs(pistar(0.8, R + fsh)[0] - pistar(0.8)[0]).max() < 1e-12)

# ---------- 定理：DPO は暗黙の報酬の最尤推定 ----------
pth = rng.dirichlet(np.ones(4))
for beta in (0.5, 1.0):
    rhat = beta * np.log(pth / P_REF)
    Zr = (P_REF * np.exp(rhat / beta)).sum()
    check_true(f"beta={beta}: Z of the implicit reward is 1 and its optimal policy is pi_theta",
               abs(Zr - 1) < 1e-12 and np.abs(pistar(beta, rhat)[0] - pth).max() < 1e-12)
data2 = [(2, 0), (0, 1), (1, 3)]
beta = 0.7
rhat = beta * np.log(pth / P_REF)
LR = np.mean([math.log1p(math.exp(-(rhat[a] - rhat[b]))) for a, b in data2])
LD = np.mean([-math.log(sig(beta * math.log(pth[a] / P_REF[a]) - beta * math.log(pth[b] / P_REF[b]))) for a, b in data2])
check_true("L_DPO(pi) = L_R(r_hat_pi)", abs(LR - LD) < 1e-12)
rr = rng.standard_normal(4)
pr_ = pistar(beta, rr)[0]
check_true("r - r_hat_{pi*_r} is constant (unique policy per reward class)",
           np.ptp(rr - beta * np.log(pr_ / P_REF)) < 1e-12)

# ---------- 命題：表形式の方策の勾配 ----------
z0 = rng.standard_normal(5)
pref5 = rng.dirichlet(np.ones(5))
bw, wi, li = 0.8, 1, 3


def ell(z):
    lp = z - np.logaddexp.reduce(z)
    m = bw * ((lp[wi] - math.log(pref5[wi])) - (lp[li] - math.log(pref5[li])))
    return -math.log(sig(m)), m


l0, m0 = ell(z0)
check_true("margin = beta((z_w - z_l) - (log pref_w - log pref_l)) (normalizer cancels)",
           abs(m0 - bw * ((z0[wi] - z0[li]) - (math.log(pref5[wi]) - math.log(pref5[li])))) < 1e-12)
gform = -bw * sig(-m0) * (np.eye(5)[wi] - np.eye(5)[li])
gnum = np.array([(ell(z0 + 1e-6 * e)[0] - ell(z0 - 1e-6 * e)[0]) / 2e-6 for e in np.eye(5)])
check_true("tabular DPO gradient = -beta sigma(-m)(e_w - e_l) (finite difference)", np.abs(gform - gnum).max() < 1e-8)
u = np.eye(5)[wi] - np.eye(5)[li]
Hf = bw ** 2 * sig(m0) * sig(-m0) * np.outer(u, u)
Hn = np.array([[(ell(z0 + 1e-4 * (a + b))[0] - ell(z0 + 1e-4 * (a - b))[0] - ell(z0 - 1e-4 * (a - b))[0]
                 + ell(z0 - 1e-4 * (a + b))[0]) / 4e-8 for b in np.eye(5)] for a in np.eye(5)])
check_true("tabular DPO Hessian formula (finite difference), PSD, shift invariance",
           np.abs(Hf - Hn).max() < 1e-5 and np.linalg.eigvalsh(Hf).min() > -1e-12 and abs(ell(z0 + 2.5)[0] - l0) < 1e-12)
z1 = z0 - 0.9 * gform
p0_, p1_ = np.exp(z0) / np.exp(z0).sum(), np.exp(z1) / np.exp(z1).sum()
others = [k for k in range(5) if k not in (wi, li)]
check_true("one step raises pi(w), lowers pi(l), keeps other ratios",
           p1_[wi] > p0_[wi] and p1_[li] < p0_[li] and
           abs(p1_[others[0]] / p1_[others[1]] - p0_[others[0]] / p0_[others[1]]) < 1e-12)

# ---------- 例：2 組のデータでの損失と勾配 ----------
PT = np.array([0.25, 0.35, 0.3, 0.1])
b5 = 0.5
h = np.log(PT / P_REF)
check_true("log ratios are (log 0.625, log(7/6), log 1.5, 0)",
           np.allclose(h, [math.log(0.625), math.log(7 / 6), math.log(1.5), 0], atol=1e-15))
for k, pr in enumerate(["-0.4700", "0.1542", "0.4055"]):
    check(f"log(pi_theta/pi_ref)[{k}]", pr, h[k])
rh = b5 * h
for k, pr in enumerate(["-0.2350", "0.0771", "0.2027"]):
    check(f"implicit reward[{k}]", pr, rh[k])
m1, m2 = rh[2] - rh[0], rh[0] - rh[1]
check("m1", "0.4377", m1)
check("m2", "-0.3121", m2)
check_true("m1 = 0.2027 - (-0.2350) and m2 = -0.2350 - 0.0771 from rounded values",
           round(0.2027 + 0.2350, 4) == 0.4377 and round(-0.2350 - 0.0771, 4) == -0.3121)
check("loss1", "0.4980", -math.log(sig(m1)))
check("weight1", "0.3923", sig(-m1))
check("loss2", "0.8613", -math.log(sig(m2)))
check("weight2", "0.5774", sig(-m2))
L2 = (-math.log(sig(m1)) - math.log(sig(m2))) / 2
check("mean loss", "0.6797", L2)
check_true("(0.4980 + 0.8613)/2 rounds to 0.6797", round((0.4980 + 0.8613) / 2, 4) in (0.6796, 0.6797) and round(L2, 4) == 0.6797)
check("weight share of pair 2 %", "59.5", 100 * sig(-m2) / (sig(-m1) + sig(-m2)))
check("beta/N", "0.25", b5 / 2)
c1, c2 = b5 / 2 * sig(-m1), b5 / 2 * sig(-m2)
check("coefficient 1", "0.09807", c1)
check("coefficient 2", "0.14435", c2)
gvec = -(c1 * (np.eye(4)[2] - np.eye(4)[0]) + c2 * (np.eye(4)[0] - np.eye(4)[1]))
check("grad aa", "-0.04628", gvec[0])
check("grad ab", "0.14435", gvec[1])
check("grad ba", "-0.09807", gvec[2])
check_true("grad bb = 0, sum = 0", gvec[3] == 0 and abs(gvec.sum()) < 1e-15)


def pair_loss_z(z):
    lp = z - np.logaddexp.reduce(z) - np.log(P_REF)
    return (-math.log(sig(b5 * (lp[2] - lp[0]))) - math.log(sig(b5 * (lp[0] - lp[1])))) / 2


zt = np.log(PT)
gnum2 = np.array([(pair_loss_z(zt + 1e-6 * e) - pair_loss_z(zt - 1e-6 * e)) / 2e-6 for e in np.eye(4)])
check_true("example gradient = finite difference of the 2-pair DPO loss", np.abs(gnum2 - gvec).max() < 1e-8)
check_text("gradient vector", "(-0.04628,\\ 0.14435,\\ -0.09807,\\ 0)")
check_text("gradient arithmetic", "(0.09807 - 0.14435,\\ 0.14435,\\ -0.09807,\\ 0)")
check_true("0.09807 - 0.14435 = -0.04628", round(0.09807 - 0.14435, 5) == -0.04628)
check("sigma(4) (weight at m=-4)", "0.9820", sig(4))
check("sigma(-4) (weight at m=4)", "0.0180", sig(-4))
check("weight ratio at m=-4", "1.9640", sig(4) / 0.5)
check_true("sigma(-4) < e^-4", sig(-4) < math.exp(-4))

# ---------- 33.6 節：母集団の最適解 ----------
q = np.array([sig(R[i] - R[j]) for i, j in PAIRS])
Hbar = float(-(q * np.log(q) + (1 - q) * np.log(1 - q)).mean())
check("H-bar", "0.444690", Hbar)
check("number of pairs", "6", len(PAIRS))


def pop_loss(p, beta):
    hh = np.log(p / P_REF)
    tot = 0.0
    for (i, j), qq in zip(PAIRS, q):
        m = beta * (hh[i] - hh[j])
        tot += -(qq * math.log(sig(m)) + (1 - qq) * math.log(sig(-m))) / len(PAIRS)
    return tot


ok = True
for beta in (0.5, 1.0, 2.0):
    ps = pistar(beta)[0]
    ok &= abs(pop_loss(ps, beta) - Hbar) < 1e-12
    for _ in range(50):
        ok &= pop_loss(rng.dirichlet(np.ones(4)), beta) > Hbar
check_true("population loss = H-bar at pi*_beta and > H-bar at random policies (beta = 0.5, 1, 2)", ok)
qq, dd = 0.3, 0.8
ssig = sig(dd)
check_true("cross entropy = H(q) + KL(Ber q || Ber s)",
           abs(-qq * math.log(ssig) - (1 - qq) * math.log(1 - ssig)
               - (-qq * math.log(qq) - (1 - qq) * math.log(1 - qq) + qq * math.log(qq / ssig)
                  + (1 - qq) * math.log((1 - qq) / (1 - ssig)))) < 1e-14)
# 2 つの応答での beta の効果
check("pi_ref(ba)/pi_ref(aa)", "0.5", Fraction(2, 10) / Fraction(4, 10))
check("75 %", "75", 100 * sig(math.log(3)))
check("log 3", "1.0986", math.log(3))
check("sigma(Delta*) = 0.75", "0.75", sig(math.log(3)))
for bb, ratio_p, pba in ((1, "1.5", "0.6"), (0.5, "4.5", "0.8182")):
    ratio = 0.5 * 3 ** (1 / bb)
    check(f"ratio beta={bb}", ratio_p, ratio)
    check(f"pi(ba) beta={bb}", pba, ratio / (1 + ratio))
check("3^10", "59,049", 3 ** 10)
check("0.5 x 3^10", "29,524.5", Fraction(3 ** 10, 2))
check("pi(ba) beta=0.1", "0.99997", Fraction(3 ** 10, 2) / (1 + Fraction(3 ** 10, 2)))
check_text("1.5/2.5 = 0.6", "1.5/2.5 = 0.6")


def two_resp_pop(beta, steps=4000):
    z = np.log(np.array([0.4, 0.2]))
    pr2 = np.array([0.4, 0.2]) / 0.6
    for _ in range(steps):
        hh = z - np.logaddexp.reduce(z) - np.log(pr2)
        m = beta * (hh[1] - hh[0])
        g = beta * (sig(m) - 0.75)
        z = z - 5.0 * np.array([-g, g])
    p = np.exp(z - np.logaddexp.reduce(z))
    return p[1] / p[0]


check_true("two responses: DPO on 75 % data converges to ratio 0.5 x 3^(1/beta) (beta = 1, 0.5)",
           abs(two_resp_pop(1.0) - 1.5) < 1e-9 and abs(two_resp_pop(0.5) - 4.5) < 1e-9)
# 決定的な選好
mthr = -math.log(math.exp(0.01) - 1)
check("margin for loss 0.01", "4.6002", mthr)
check("h at beta 0.1", "46.00", mthr / 0.1)
check_true("loss at the threshold margin is 0.01", abs(math.log1p(math.exp(-mthr)) - 0.01) < 1e-15)
check("loss threshold", "0.01", 0.01)

# ---------- 表 33.2 ----------
sft = np.zeros(4)
for (i, j), qv in zip(PAIRS, q):
    sft[i] += qv / 6
    sft[j] += (1 - qv) / 6
check("sigma(-1) + sigma(-2) + sigma(1)", "1.1192", sig(-1) + sig(-2) + sig(1))
check("pi_SFT(aa) = 1.1192/6", "0.1865", (sig(-1) + sig(-2) + sig(1)) / 6)
check_true("SFT formula (1/6) sum sigma(r(y) - r(y')) sums to 1", abs(sft.sum() - 1) < 1e-15)
rows2 = {}
for m in re.finditer(r"^\| (.+?) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| (\S+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$",
                     TEXT, re.M):
    rows2[m.group(1)] = m.groups()[1:]
policies = {
    "参照方策": P_REF,
    "勝者だけで教師あり": sft,
    "DPO（$\\beta = 2$）": pistar(2.0)[0],
    "DPO（$\\beta = 1$）": pistar(1.0)[0],
    "DPO（$\\beta = 0.5$）": pistar(0.5)[0],
    "報酬最大（$\\beta \\to 0$）": np.array([0, 0, 1.0, 0]),
}
check_true("table 33.2 has the 6 policies", sorted(rows2) == sorted(policies))
for name, p in policies.items():
    row = rows2.get(name, ("?",) * 8)
    for k in range(4):
        check(f"T2 {name} pi[{k}]", row[k], p[k])
    if p[0] > 0:
        check(f"T2 {name} ratio ba/aa", row[4], p[2] / p[0])
    else:
        check_true(f"T2 {name} ratio is infinity", row[4] == "$\\infty$")
    check(f"T2 {name} E[r]", row[5], p @ R)
    check(f"T2 {name} KL", row[6], kl(p))
    check(f"T2 {name} J_1", row[7], p @ R - kl(p))
check_true("J_1 is largest in the DPO beta = 1 row",
           max(policies, key=lambda n: policies[n] @ R - kl(policies[n])) == "DPO（$\\beta = 1$）")
for bb in (2.0, 1.0, 0.5):
    check_true(f"DPO ratio = 0.5 e^(2/beta) at beta={bb}", abs(pistar(bb)[0][2] / pistar(bb)[0][0] - 0.5 * math.exp(2 / bb)) < 1e-12)
bfit = 2 / math.log(2 * sft[2] / sft[0])
check("beta fitting the SFT ratio", "1.3138", bfit)
check("0.75 e^(1/beta)", "1.6055", 0.75 * math.exp(1 / bfit))
check("SFT ratio ab/aa", "1.6805", sft[1] / sft[0])
check_true("SFT policy is not pi*_beta for the fitted beta", np.abs(pistar(bfit)[0] - sft).max() > 1e-2)

# ---------- 演習 ----------
ksft = kl(sft)
check("KL of SFT", "0.1728", ksft)
lo, hi = 0.5, 4.0
for _ in range(200):
    mid = (lo + hi) / 2
    if kl(pistar(mid)[0]) > ksft:
        lo = mid
    else:
        hi = mid
check("beta with the same KL", "1.5201", mid)
Es_ = pistar(mid)[0] @ R
check("E[r] of pi*_beta at that beta", "1.1361", Es_)
check("SFT E[r]", "1.0957", sft @ R)
check("gain %", "3.7", 100 * (Es_ / (sft @ R) - 1))
zz = np.log(P_REF) + np.array([-0.5, 0, 0.5, 0])
ez = np.exp(zz)
check("0.4 e^-0.5", "0.2426", ez[0])
check("0.2 e^0.5", "0.3297", ez[2])
check("sum e^z", "0.9724", ez.sum())
pp = ez / ez.sum()
for k, pr in enumerate(["0.2495", "0.3085", "0.3391", "0.1028"]):
    check(f"policy after step[{k}]", pr, pp[k])
mnew = 1.0 * ((zz[2] - zz[0]) - (math.log(0.2) - math.log(0.4)))
check_true("margin after step = 1", abs(mnew - 1) < 1e-12)
check("loss after step", "0.3133", math.log1p(math.exp(-mnew)))
check("constant -log 0.9724", "0.0280", -math.log(ez.sum()))
dr = (np.log(pp / P_REF)) - 0.0
check_true("implicit reward change = (-0.5, 0, 0.5, 0) + 0.0280 (unrounded)",
           np.allclose(dr, np.array([-0.5, 0, 0.5, 0]) - math.log(ez.sum()), atol=1e-15))
check_true("pi(ab)/pi(bb) stays 3", abs(pp[1] / pp[3] - 3) < 1e-12)
check_true("DPO step from pi_ref: gradient -0.5(e_ba - e_aa)",
           np.allclose(-1.0 * sig(0) * (np.eye(4)[2] - np.eye(4)[0]), [0.5, 0, -0.5, 0]))

# ---------- 33.7 節：リストの実行と出力の照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("dpo.py on disk equals the listing", open(os.path.join(HERE, "dpo.py"), encoding="utf-8").read() == code)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)
out_lines = printed_out.splitlines()
check_true("listing prints 10 lines (1-5, 6-7, 8-10 are described)", len(out_lines) == 10)
check_true("learning rate 10 and 3,000 steps in the code", "z -= 10.0 *" in code and "range(3000)" in code
           and present("3,000"))
check("loss at start log 2", "0.6931", math.log(2))
check_true("listing line 8 shows H-bar 0.444690", out_lines[7].endswith("%.6f" % Hbar))

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural, symbolic and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

"""contrastive.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
コードのリストは取り出して実行し、出力を印字された出力とそのまま比べる。
"""
import itertools
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "contrastive.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",")
results = []
numeric = []


def parse(printed):
    return float(printed.replace(",", ""))


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 章に印字された文字列。value: 定義から計算した値。"""
    dec = decimals(printed)
    v = float(value)
    p = parse(printed)
    ok = round(v, dec) == round(p, dec) or abs(v - p) < 0.5 * 10 ** (-dec) + 1e-12
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


def lsm(z):
    z = np.asarray(z, dtype=float)
    m = z.max()
    return z - m - math.log(np.exp(z - m).sum())


# ---------- 0・1 節：数の告知 ----------
intro = TEXT[TEXT.index("## 1."):TEXT.index("## 2.")]
check_true("'次の 4 つの問い' has 4 items", "次の 4 つの問い" in intro and len(re.findall(r"^\d\. ", intro, re.M)) == 4)
check_text("chapter number 4 is stated", "第 4 章となるこの章")
N_ = sp.symbols("N", positive=True, integer=True)
check_true("doubling N: N^2 and N^2 d grow by exactly 4", sp.simplify((2 * N_) ** 2 / N_**2) == 4)
check_true("doubling N: negatives N-1 -> 2N-1, ratio -> 2", sp.limit((2 * N_ - 1) / (N_ - 1), N_, sp.oo) == 2)

# ---------- 2 節：コサイン類似度 ----------
a, b = np.array([3.0, 4.0]), np.array([4.0, 3.0])
check("<a,b> = 12 + 12", "24", int(a @ b))
check("||a|| = ||b||", "5", int(np.linalg.norm(a)))
check("cos(a,b) = 24/25", "0.96", Fraction(24, 25))
uu, vv = a / 5, b / 5
check_true("n(a) = (0.6, 0.8), n(b) = (0.8, 0.6)", np.allclose(uu, [0.6, 0.8]) and np.allclose(vv, [0.8, 0.6]))
check("(0.6 - 0.8)^2", "0.04", (Fraction(6, 10) - Fraction(8, 10)) ** 2)
check("||u - v||^2 = 0.04 + 0.04", "0.08", Fraction(4, 100) + Fraction(4, 100))
check_true("0.08 = 2 - 2*0.96", Fraction(8, 100) == 2 - 2 * Fraction(96, 100) and abs(((uu - vv) ** 2).sum() - 0.08) < 1e-12)
a2 = np.array([6.0, 8.0])
check("<(6,8), b>", "48", int(a2 @ b))
check("||(6,8)|| ||b||", "50", int(np.linalg.norm(a2) * 5))
check_true("cos((6,8), b) = 48/50 = 0.96", Fraction(48, 50) == Fraction(24, 25))
# 命題：||u-v||^2 = 2 - 2<u,v> と softmax の一致（乱数で）
rng = np.random.default_rng(1)
uvec = rng.standard_normal(5); uvec /= np.linalg.norm(uvec)
Vs = rng.standard_normal((6, 5)); Vs /= np.linalg.norm(Vs, axis=1, keepdims=True)
check_true("softmax(<u,v_j>/tau) = softmax(-||u-v_j||^2/(2 tau))",
           np.allclose(lsm(Vs @ uvec / 0.3), lsm(-((Vs - uvec) ** 2).sum(1) / 0.6)))
x1, x2, y1, y2 = sp.symbols("x1 x2 y1 y2", real=True)
check_true("||u - v||^2 = 2 - 2<u,v> on unit vectors (symbolic, d = 2)",
           sp.simplify(((sp.cos(x1) - sp.cos(y1)) ** 2 + (sp.sin(x1) - sp.sin(y1)) ** 2)
                       - (2 - 2 * (sp.cos(x1) * sp.cos(y1) + sp.sin(x1) * sp.sin(y1)))) == 0)

# ---------- 例：N = 3 の手計算 ----------
U = np.array([[1.0, 0.0], [0.0, 1.0], [-0.6, 0.8]])
V = np.array([[0.8, 0.6], [0.6, 0.8], [-0.8, 0.6]])
check_true("all u_i, v_j have length 1", np.allclose(np.linalg.norm(U, axis=1), 1) and np.allclose(np.linalg.norm(V, axis=1), 1))
UF = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)], [Fraction(-3, 5), Fraction(4, 5)]]
VF = [[Fraction(4, 5), Fraction(3, 5)], [Fraction(3, 5), Fraction(4, 5)], [Fraction(-4, 5), Fraction(3, 5)]]
SF = [[sum(UF[i][k] * VF[j][k] for k in range(2)) for j in range(3)] for i in range(3)]
printed_S = [["0.8", "0.6", "-0.8"], ["0.6", "0.8", "0.6"], ["0", "0.28", "0.96"]]
printed_Z = [["1.6", "1.2", "-1.6"], ["1.2", "1.6", "1.2"], ["0", "0.56", "1.92"]]
check_true("S matrix printed as in the text",
           r"0.8 & 0.6 & -0.8 \\ 0.6 & 0.8 & 0.6 \\ 0 & 0.28 & 0.96" in TEXT
           and r"1.6 & 1.2 & -1.6 \\ 1.2 & 1.6 & 1.2 \\ 0 & 0.56 & 1.92" in TEXT)
for i in range(3):
    for j in range(3):
        check_true(f"S[{i+1},{j+1}] = {printed_S[i][j]}, S/tau = {printed_Z[i][j]}",
                   SF[i][j] == Fraction(printed_S[i][j]) and 2 * SF[i][j] == Fraction(printed_Z[i][j]))
tau = 0.5
Z = (U @ V.T) / tau
E6 = {"1.6": "4.953032", "1.2": "3.320117", "-1.6": "0.201897", "0.56": "1.750673", "1.92": "6.820958"}
for x, pr in E6.items():
    check(f"e^{x}", pr, math.exp(float(x)))
den = np.exp(Z).sum(axis=1)
check("row 1 denominator", "8.475046", den[0])
check_true("row 1 sum of printed terms", abs(4.953032 + 3.320117 + 0.201897 - 8.475046) < 5e-7)
check("row 2 denominator", "11.593266", den[1])
check_true("row 2 sum of printed terms", abs(2 * 3.320117 + 4.953032 - 11.593266) < 5e-7)
check("row 3 denominator", "9.571631", den[2])
check_true("row 3 sum of printed terms", abs(1 + 1.750673 + 6.820958 - 9.571631) < 5e-7)
P = np.exp(Z) / den[:, None]
for j, pr in enumerate(("0.5844", "0.3918", "0.0238")):
    check(f"p_1{j+1}", pr, P[0, j])
check("p_22", "0.4272", P[1, 1])
check("p_33", "0.7126", P[2, 2])
check("log 8.475046", "2.1371", math.log(den[0]))
check("log 11.593266", "2.4504", math.log(den[1]))
check("log 9.571631", "2.2588", math.log(den[2]))
ell = -np.log(np.diag(P))
check("l_1", "0.5371", ell[0])
check("l_2", "0.8504", ell[1])
check("l_3", "0.3388", ell[2])
check_true("l_i = log(denominator) - S_ii/tau", np.allclose(ell, np.log(den) - np.diag(Z)))
check("L_{u->v}", "0.5755", ell.mean())
check_true("row 2 has the largest loss", int(np.argmax(ell)) == 1)
check_true("SimCLR: 2N views, each anchor has 2N - 2 = 2(N-1) negatives",
           all(2 * n - 2 == 2 * (n - 1) for n in range(2, 100)))

# ---------- 3 節：温度 ----------
# 命題の数値確認：エントロピーの単調性と dH/dbeta = -beta Var
zz = rng.standard_normal(6)
taus = np.linspace(0.05, 20, 400)
Hs = [-(np.exp(lsm(zz / t)) * lsm(zz / t)).sum() for t in taus]
check_true("entropy strictly increasing in tau (random z)", all(np.diff(Hs) > 0))
beta = sp.symbols("beta", positive=True)
zs = [sp.Rational(3, 10), sp.Rational(-1, 2), sp.Rational(6, 5), sp.Rational(0)]
Zb = sum(sp.exp(beta * z) for z in zs)
pb = [sp.exp(beta * z) / Zb for z in zs]
Hb = -sum(p_ * sp.log(p_) for p_ in pb)
Eb = sum(p_ * z for p_, z in zip(pb, zs))
Varb = sum(p_ * z**2 for p_, z in zip(pb, zs)) - Eb**2
check_true("dH/dbeta = -beta Var (symbolic, evaluated at beta = 0.7, 2.3)",
           all(abs(float((sp.diff(Hb, beta) + beta * Varb).subs(beta, bv))) < 1e-12 for bv in (0.7, 2.3)))
pmax = [np.exp(lsm(zz / t)).max() for t in taus]
check_true("max_j p_j strictly decreasing in tau", all(np.diff(pmax) < 0))
zt = np.array([1.0, 1.0, 0.2, -0.5])
check_true("tau -> 0: p -> uniform on argmax set", np.allclose(np.exp(lsm(zt / 1e-3)), [0.5, 0.5, 0, 0], atol=1e-12))
check_true("tau -> inf: p -> 1/N", np.allclose(np.exp(lsm(zt / 1e7)), 0.25, atol=1e-6))
# 損失：導関数の式、下界、極限
t_ = sp.symbols("tau", positive=True)
ss = [sp.Rational(4, 5), sp.Rational(1, 2), sp.Rational(1, 10), sp.Rational(-3, 10)]
lt = -ss[0] / t_ + sp.log(sum(sp.exp(s_ / t_) for s_ in ss))
pt = [sp.exp(s_ / t_) / sum(sp.exp(q / t_) for q in ss) for s_ in ss]
dl = (ss[0] - sum(p_ * s_ for p_, s_ in zip(pt, ss))) / t_**2
check_true("dl/dtau = (s_+ - sum p_j s_j)/tau^2 (symbolic)",
           all(abs(float((sp.diff(lt, t_) - dl).subs(t_, tv))) < 1e-12 for tv in (0.1, 0.5, 3)))
for trial in range(3):
    srow = np.clip(rng.uniform(-1, 1, 5), -1, 1)
    for tv in (0.05, 0.3, 2.0):
        lv = -lsm(srow / tv)[0]
        check_true(f"lower bound log(1+(N-1)e^(-2/tau)) <= l (trial {trial}, tau={tv})",
                   lv >= math.log(1 + 4 * math.exp(-2 / tv)) - 1e-12)
for srow, D, k, case in (([0.5, 0.2, 0.5, 0.1], 0.0, 1, "D=0"), ([0.3, 0.6, 0.6, 0.1], 0.3, 2, "D>0")):
    srow = np.array(srow)
    tv = 1e-3
    lv = -lsm(srow / tv)[0]
    if D == 0:
        check_true(f"tau -> 0, {case}: l -> log(1+k)", abs(lv - math.log(1 + k)) < 1e-9)
    else:
        check_true(f"tau -> 0, {case}: l - D/tau -> log k", abs(lv - D / tv - math.log(k)) < 1e-9)

# ---------- 例：温度の表 ----------
s_row = np.array([0.8, 0.5, 0.1, -0.3])
check_text("row s = (0.8, 0.5, 0.1, -0.3)", r"\boldsymbol{s} = (0.8,\ 0.5,\ 0.1,\ -0.3)")


def trow(tv):
    lp = lsm(s_row / tv)
    p = np.exp(lp)
    share = np.exp(lsm(s_row[1:] / tv))[0]             # p_2/(1 - p_+) は負例 3 つの softmax の先頭
    return [p[0], -lp[0], math.log(4) + lp[0], -(p * lp).sum(), 2 * (1 - p[0]) / tv, share]


rows1 = {}
for m in re.finditer(r"^\| ([^|]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", NORM, re.M):
    rows1[m.group(1).strip()] = m.groups()[1:]
keys = ["$\\to 0$", "0.05", "0.1", "0.2", "0.5", "1", "2", "10", "$\\to \\infty$"]
check_true("table 1 has the 9 rows", all(k in rows1 for k in keys) and len(rows1) == 9)
cols = ["p_+", "loss", "log4-loss", "H", "2(1-p)/tau", "hardest share"]
for k in keys[1:-1]:
    vals = trow(float(k))
    for c, pr, v in zip(cols, rows1.get(k, ("?",) * 6), vals):
        check(f"T1 tau={k} {c}", pr, v, must_appear=False)
lim0 = [1, 0, math.log(4), 0, 0, 1]
liminf = [Fraction(1, 4), math.log(4), 0, math.log(4), 0, Fraction(1, 3)]
for c, pr, v in zip(cols, rows1.get(keys[0], ("?",) * 6), lim0):
    check(f"T1 tau->0 {c}", pr, v, must_appear=False)
for c, pr, v in zip(cols, rows1.get(keys[-1], ("?",) * 6), liminf):
    check(f"T1 tau->inf {c}", pr, v, must_appear=False)
check_true("T1 limit rows approached numerically",
           np.allclose(trow(1e-3), lim0, atol=1e-9) and np.allclose(trow(1e6), [float(x) for x in liminf], atol=1e-5))
grid = np.linspace(0.02, 50, 3000)
tab = np.array([trow(t) for t in grid])
check_true("l and H increasing in tau, hardest share decreasing",
           all(np.diff(tab[:, 1]) > 0) and all(np.diff(tab[:, 3]) > 0) and all(np.diff(tab[:, 5]) < 0))
check_true("among the rows, 2(1-p+)/tau is largest at tau = 0.2",
           max(keys[1:-1], key=lambda k: trow(float(k))[4]) == "0.2")
check("max bound in rows", "2.0472", trow(0.2)[4])
check_true("s/tau at tau = 0.5 is (1.6, 1.0, 0.2, -0.6)", np.allclose(s_row / 0.5, [1.6, 1.0, 0.2, -0.6])
           and "(1.6, 1.0, 0.2, -0.6)" in TEXT)
check_true("Delta/tau = -0.6, -1.4, -2.2", np.allclose((s_row[1:] - s_row[0]) / 0.5, [-0.6, -1.4, -2.2]))
inner = 1 + math.exp(-0.6) + math.exp(-1.4) + math.exp(-2.2)
check("1 + e^-0.6 + e^-1.4 + e^-2.2", "1.9062", inner)
check("log 1.9062", "0.6451", math.log(inner))
check("D for the row", "-0.3", max(s_row[1:] - s_row[0]))

# ---------- 4 節：勾配 ----------
for trial in range(3):
    Vt = rng.standard_normal((5, 4)); Vt /= np.linalg.norm(Vt, axis=1, keepdims=True)
    ut, tv, pos = rng.standard_normal(4), [0.1, 0.5, 2.0][trial], trial
    f = lambda u: -lsm(Vt @ u / tv)[pos]
    p = np.exp(lsm(Vt @ ut / tv))
    g = (p @ Vt - Vt[pos]) / tv
    fd = np.array([(f(ut + 1e-6 * e) - f(ut - 1e-6 * e)) / 2e-6 for e in np.eye(4)])
    g2 = sum(p[j] * (Vt[j] - Vt[pos]) for j in range(5) if j != pos) / tv
    check_true(f"gradient formula vs finite difference (trial {trial})", np.abs(g - fd).max() < 1e-6 and np.allclose(g, g2))
    check_true(f"||grad|| <= 2(1 - p+)/tau (trial {trial})", np.linalg.norm(g) <= 2 * (1 - p[pos]) / tv + 1e-12)
    un = ut / np.linalg.norm(ut)
    fa = lambda aa: -lsm(Vt @ (aa / np.linalg.norm(aa)) / tv)[pos]
    pn = np.exp(lsm(Vt @ un / tv))
    gu = (pn @ Vt - Vt[pos]) / tv
    ga = (np.eye(4) - np.outer(un, un)) @ gu / np.linalg.norm(ut)
    fda = np.array([(fa(ut + 1e-6 * e) - fa(ut - 1e-6 * e)) / 2e-6 for e in np.eye(4)])
    check_true(f"normalisation chain rule, a.grad = 0, norm bound (trial {trial})",
               np.abs(ga - fda).max() < 1e-6 and abs(ut @ ga) < 1e-12 and np.linalg.norm(ga) <= np.linalg.norm(gu) / np.linalg.norm(ut) + 1e-12)
sv = np.array([0.8, 0.5, 0.1, -0.3])
check_true("bound 2(1-p+)/tau -> 0 at both ends", trow(1e-3)[4] < 1e-100 and trow(1e5)[4] < 1e-4)
# 例：アンカー u_1
g1 = (P[0] @ V - V[0]) / tau
sp1 = P[0] @ V
check("sum p_j v_j (1)", "0.68353", sp1[0])
check("sum p_j v_j (2)", "0.67835", sp1[1])
check("grad u_1 (1)", "-0.23293", g1[0])
check("grad u_1 (2)", "0.15670", g1[1])
check_true("printed grad = 2((0.68353, 0.67835) - (0.8, 0.6)) at 5 decimals",
           round(2 * (0.68353 - 0.8), 5) == -0.23294 or abs(2 * (0.68353 - 0.8) + 0.23293) <= 2e-5)
ga1 = (np.eye(2) - np.outer(U[0], U[0])) @ g1 / 2
check_true("grad a first component is 0", abs(ga1[0]) < 1e-15)
check("grad a (2) = 0.15670 / 2", "0.07835", ga1[1])
check_true("descent direction is clockwise (grad_a[1] > 0) and v_1, v_2 lie counterclockwise",
           ga1[1] > 0 and V[0][1] > 0 and V[1][1] > 0)
ur = np.array([math.cos(0.1), -math.sin(0.1)])
check("s_11 after rotation", "0.7361", V[0] @ ur)
check("s_12 after rotation", "0.5171", V[1] @ ur)
check("margin 0.2(cos 0.1 + sin 0.1)", "0.2190", 0.2 * (math.cos(0.1) + math.sin(0.1)))
check_true("margin = s_11 - s_12 after rotation", abs(V[0] @ ur - V[1] @ ur - 0.2 * (math.cos(0.1) + math.sin(0.1))) < 1e-14)
check("l_1 before", "0.5371", -lsm(V @ U[0] / tau)[0])
check("l_1 after", "0.5228", -lsm(V @ ur / tau)[0])

# ---------- 5 節：相互情報量 ----------


def H_(p):
    p = np.asarray(p, float).ravel()
    p = p[p > 0]
    return -(p * np.log(p)).sum()


def MI(pxy):
    px, py = pxy.sum(1, keepdims=True), pxy.sum(0, keepdims=True)
    m = pxy > 0
    return (pxy[m] * np.log(pxy[m] / (px @ py)[m])).sum()


for trial in range(3):
    p3 = rng.random((2, 3, 2)); p3 /= p3.sum()
    pa, pbc, pab = p3.sum((1, 2)), p3.sum(0), p3.sum(2)
    I_a_bc = MI(p3.reshape(2, 6))
    pb_ = p3.sum((0, 2))
    I_cond = sum(pb_[bb] * MI(p3[:, bb, :] / pb_[bb]) for bb in range(3))
    check_true(f"chain rule I(A;(B,C)) = I(A;B) + I(A;C|B) (trial {trial})", abs(I_a_bc - (MI(pab) + I_cond)) < 1e-12)
    q = rng.random(6); q /= q.sum(); pp = rng.random(6); pp /= pp.sum()
    check_true(f"Gibbs inequality (trial {trial})", (pp * np.log(pp / q)).sum() >= 0)
    check_true(f"I(A;B) = H(A) - H(A|B) (trial {trial})",
               abs(MI(pab) - (H_(pab.sum(1)) - (H_(pab) - H_(pab.sum(0))))) < 1e-12)


def exact_bound(pxy, f, N):
    """(X, Y_1) ~ p(x,y), Y_2..Y_N ~ p(y) を全部数え上げて E[l_f] を計算する。"""
    nx, ny = pxy.shape
    py = pxy.sum(0)
    E = 0.0
    for x in range(nx):
        for y1 in range(ny):
            if pxy[x, y1] == 0:
                continue
            for rest in itertools.product(range(ny), repeat=N - 1):
                pr = pxy[x, y1] * np.prod([py[y] for y in rest])
                logits = np.array([f[x, y1]] + [f[x, y] for y in rest])
                E += pr * -lsm(logits)[0]
    return E


for trial in range(3):
    pxy = rng.random((3, 3)); pxy /= pxy.sum()
    f = rng.standard_normal((3, 3)) * 2
    for N in (2, 3):
        E = exact_bound(pxy, f, N)
        check_true(f"theorem: I(X;Y) >= log N - E[l_f] (random p, f, N={N}, trial {trial})", MI(pxy) >= math.log(N) - E)
        check_true(f"theorem: bound < log N (N={N}, trial {trial})", math.log(N) - E < math.log(N))
    fconst = np.tile(rng.standard_normal((3, 1)), (1, 3))
    check_true(f"f independent of y gives E[l_f] = log N (trial {trial})", abs(exact_bound(pxy, fconst, 3) - math.log(3)) < 1e-12)
# K を使った構成での I(K; W) <= I(X; Y) を N = 2 で直接確かめる
pxy = rng.random((2, 3)); pxy /= pxy.sum()
py = pxy.sum(0)
N = 2
joint = {}
for k in range(N):
    for x in range(2):
        for ys in itertools.product(range(3), repeat=N):
            pr = (1 / N) * pxy[x, ys[k]] * np.prod([py[ys[j]] for j in range(N) if j != k])
            joint[(k, x, ys)] = pr
W = sorted({(x, ys) for (_, x, ys) in joint})
M = np.array([[joint[(k, x, ys)] for (x, ys) in W] for k in range(N)])
check_true("K-construction: I(K; W) <= I(X; Y)", MI(M) <= MI(pxy) + 1e-12)
MY = np.zeros((N, 9))
for (k, x, ys), pr in joint.items():
    MY[k, ys[0] * 3 + ys[1]] += pr
check_true("K-construction: I(K; Y') = 0", abs(MI(MY)) < 1e-12)

# 例：反転する 2 値の組
eps = 0.1
Hb_ = -eps * math.log(eps) - (1 - eps) * math.log(1 - eps)
check("H_b(0.1)", "0.3251", Hb_)
check("log 2", "0.6931", math.log(2))
check("I(X;Y) = log 2 - H_b", "0.3681", math.log(2) - Hb_)
pxy = np.array([[0.45, 0.05], [0.05, 0.45]])
check_true("I computed from the joint distribution equals log 2 - H_b", abs(MI(pxy) - (math.log(2) - Hb_)) < 1e-12)
check("P(Y_1 = X)", "0.9", 1 - Fraction(1, 10))
check("P(Y_2 = X) = p(y) (uniform marginal)", "0.5", Fraction(45 + 5, 100))
check("p(y|x)/p(y) match", "1.8", Fraction(9, 10) / Fraction(1, 2))
check("p(y|x)/p(y) flip", "0.2", Fraction(1, 10) / Fraction(1, 2))
check("P(both match)", "0.45", Fraction(9, 10) * Fraction(1, 2))
check("P(both flip)", "0.05", Fraction(1, 10) * Fraction(1, 2))
check_true("P(only Y1) = 0.45, P(only Y2) = 0.05, total of equal-logit cases 0.5",
           Fraction(9, 10) * Fraction(1, 2) == Fraction(45, 100) and Fraction(45, 100) + Fraction(5, 100) == Fraction(1, 2))
check("-log 0.9", "0.1054", -math.log(0.9))
check_true("1.8/(1.8+0.2) = 0.9, 0.2/(0.2+1.8) = 0.1", Fraction(18, 20) == Fraction(9, 10))
check("log 10", "2.3026", math.log(10))
check("0.5 log 2", "0.3466", 0.5 * math.log(2))
check("0.45 * 0.1054", "0.0474", 0.45 * -math.log(0.9))
check("0.05 * 2.3026", "0.1151", 0.05 * math.log(10))
fopt = np.log(np.array([[1.8, 0.2], [0.2, 1.8]]))
E2 = exact_bound(pxy, fopt, 2)
check("E[l_f] N=2 (enumeration)", "0.5091", E2)
check("bound N=2", "0.1840", math.log(2) - E2)
check_true("'半分ほど': bound / I in [0.45, 0.55]", 0.45 <= (math.log(2) - E2) / (math.log(2) - Hb_) <= 0.55)
E4 = exact_bound(pxy, fopt, 4)
check("bound N=4 (enumeration)", "0.2809", math.log(4) - E4)


def bsc_bound(N):
    E = 0.0
    for prob, r in ((Fraction(9, 10), Fraction(9, 5)), (Fraction(1, 10), Fraction(1, 5))):
        for k in range(N):
            w = prob * Fraction(math.comb(N - 1, k), 2 ** (N - 1))
            E += float(w) * math.log(float((r + k * Fraction(9, 5) + (N - 1 - k) * Fraction(1, 5)) / r))
    return math.log(N) - E


check("bound N=16", "0.3476", bsc_bound(16))
check("bound N=256", "0.3668", bsc_bound(256))
check_true("bounds increase with N and stay below I and log N",
           all(bsc_bound(a_) < bsc_bound(b_) < math.log(2) - Hb_ for a_, b_ in ((2, 4), (4, 16), (16, 256)))
           and all(bsc_bound(n) < math.log(n) for n in (2, 4, 16, 256)))
check_true("'次の 3 つの事実' lists (a)(b)(c)", "次の 3 つの事実" in TEXT and all(s_ in TEXT for s_ in ("(a)", "(b)", "(c)")))
check_true("'場合は次の 3 つ' (three cases listed)", "場合は次の 3 つ" in TEXT)

# ---------- 6 節：バッチの大きさ ----------
d = 512
rows2 = {}
for line in NORM.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if line.startswith("| ") and len(cells) == 9 and re.fullmatch(r"[\d,]+", cells[0]):
        rows2[int(cells[0].replace(",", ""))] = tuple(cells)
Ns = [2048, 4096, 8192, 16384, 32768]
check_true("table 2 has rows N = 2,048 ... 32,768", sorted(rows2) == Ns)
prev = None
for n in Ns:
    row = rows2.get(n, ("?",) * 9)
    check(f"T2 N={n} negatives", row[1], n - 1, must_appear=False)
    check(f"T2 N={n} N^2", row[3], n * n, must_appear=False)
    check(f"T2 N={n} N^2 d", row[4], n * n * d, must_appear=False)
    check(f"T2 N={n} bytes", row[5], 4 * n * n, must_appear=False)
    check(f"T2 N={n} MiB", row[6], Fraction(4 * n * n, 2**20), must_appear=False)
    check(f"T2 N={n} log N", row[8], math.log(n), must_appear=False)
    if prev is None:
        check_true(f"T2 N={n} first row has empty ratio cells", row[2] == "" and row[7] == "")
    else:
        check(f"T2 N={n} negatives ratio", row[2], Fraction(n - 1, prev - 1), must_appear=False)
        check(f"T2 N={n} memory ratio", row[7], Fraction(4 * n * n, 4 * prev * prev), must_appear=False)
    prev = n
check_true("32,768 = 2^15", 32768 == 2**15)
check("4 * 2^30 bytes in GiB", "4", Fraction(4 * 2**30, 2**30))
check("2^30 * 2^9 = 2^39", "549,755,813,888", 2**30 * 2**9)
check_true("N^2 d at N = 32,768 equals 2^39", 32768**2 * 512 == 2**39)
check("3 * 2^39", "1,649,267,441,664", 3 * 2**39)
check("log N at 32,768", "10.3972", math.log(32768))
check("bits at 32,768", "15", Fraction(15))
check_true("log2(32768) = 15 exactly", 2**15 == 32768)
check_true("log N grows by log 2 per doubling", all(abs(math.log(2 * n) - math.log(n) - math.log(2)) < 1e-12 for n in Ns))
# 命題：負例の数、正例の割合、逆伝播の式
for n in (3, 7):
    Sx = np.arange(n * n).reshape(n, n)
    off = sum(1 for i in range(n) for j in range(n) if i != j)
    check_true(f"N={n}: N(N-1) negatives, positive fraction 1/N", off == n * (n - 1) and Fraction(n, n * n) == Fraction(1, n))
Ut, Vt = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
Gm = rng.standard_normal((4, 4))
Lf = lambda U_, V_: (Gm * (U_ @ V_.T)).sum()
fdU = np.array([[(Lf(Ut + 1e-6 * np.eye(12)[k].reshape(4, 3), Vt) - Lf(Ut - 1e-6 * np.eye(12)[k].reshape(4, 3), Vt)) / 2e-6
                 for k in range(12)]]).reshape(4, 3)
fdV = np.array([[(Lf(Ut, Vt + 1e-6 * np.eye(12)[k].reshape(4, 3)) - Lf(Ut, Vt - 1e-6 * np.eye(12)[k].reshape(4, 3))) / 2e-6
                 for k in range(12)]]).reshape(4, 3)
check_true("grad_U = Gamma V, grad_V = Gamma^T U", np.abs(fdU - Gm @ Vt).max() < 1e-6 and np.abs(fdV - Gm.T @ Ut).max() < 1e-6)
check_true("multiplications: S: N^2 d, backward: 2 N^2 d, total 3 N^2 d",
           all(n * d_ * n + 2 * (n * n * d_) == 3 * n * n * d_ for n in (4, 64) for d_ in (3, 512)))

# ---------- 7 節：対称な損失 ----------
Q = np.exp(Z) / np.exp(Z).sum(axis=0, keepdims=True)
cden = np.exp(Z).sum(axis=0)
check("column 1 denominator", "9.273149", cden[0])
check_true("column 1 printed terms sum", abs(4.953032 + 3.320117 + 1 - 9.273149) < 5e-7)
check("column 2 denominator", "10.023822", cden[1])
check_true("column 2 printed terms sum", abs(3.320117 + 4.953032 + 1.750673 - 10.023822) < 5e-7)
check("column 3 denominator", "10.342972", cden[2])
check_true("column 3 printed terms sum", abs(0.201897 + 3.320117 + 6.820958 - 10.342972) < 5e-7)
lc = -np.log(np.diag(Q))
check("column loss 1", "0.6271", lc[0])
check("column loss 2", "0.7050", lc[1])
check("column loss 3", "0.4163", lc[2])
check("L_{v->u}", "0.5828", lc.mean())
check("L_sym", "0.5791", (ell.mean() + lc.mean()) / 2)
check_true("L_sym is computed from the unrounded losses (stated in the text)", "(L_{u\\to v} + L_{v\\to u})/2 \\approx 0.5791" in TEXT)
check_true("S is not symmetric here and the two losses differ", not np.allclose(Z, Z.T) and abs(ell.mean() - lc.mean()) > 1e-3)


def Lrow(S_, t):
    return -np.mean([lsm(S_[i] / t)[i] for i in range(len(S_))])


def Lcol(S_, t):
    return Lrow(S_.T, t)


def Lsym(S_, t):
    return (Lrow(S_, t) + Lcol(S_, t)) / 2


Sr = rng.standard_normal((5, 5))
tv = 0.3
check_true("L_{v->u}(S) = L_{u->v}(S^T) and L_sym(S^T) = L_sym(S)",
           abs(Lcol(Sr, tv) - Lrow(Sr.T, tv)) < 1e-14 and abs(Lsym(Sr.T, tv) - Lsym(Sr, tv)) < 1e-14)
Ssym = Sr + Sr.T
check_true("symmetric S: the three losses are equal",
           abs(Lrow(Ssym, tv) - Lcol(Ssym, tv)) < 1e-12 and abs(Lsym(Ssym, tv) - Lrow(Ssym, tv)) < 1e-12)
Pr = np.exp(np.array([lsm(Sr[i] / tv) for i in range(5)]))
Qc = np.exp(np.array([lsm(Sr[:, j] / tv) for j in range(5)])).T
Gs = (Pr + Qc - 2 * np.eye(5)) / (2 * 5 * tv)
fdS = np.zeros((5, 5))
for i in range(5):
    for j in range(5):
        E_ = np.zeros((5, 5)); E_[i, j] = 1e-6
        fdS[i, j] = (Lsym(Sr + E_, tv) - Lsym(Sr - E_, tv)) / 2e-6
check_true("dL_sym/ds_ij = (p_ij + q_ij - 2 delta_ij)/(2 N tau)", np.abs(fdS - Gs).max() < 1e-7)
check_true("sum of all gradient entries is 0", abs(Gs.sum()) < 1e-13)
check_true("L_sym(S + c 11^T) = L_sym(S)", abs(Lsym(Sr + 0.7, tv) - Lsym(Sr, tv)) < 1e-13)
rowshift = Sr + rng.standard_normal((5, 1))
check_true("row-wise constants leave L_{u->v} unchanged but change L_sym",
           abs(Lrow(rowshift, tv) - Lrow(Sr, tv)) < 1e-13 and abs(Lsym(rowshift, tv) - Lsym(Sr, tv)) > 1e-6)
c_ = sp.symbols("c", real=True)
check_true("counterexample: (log(1+e^-c) + log(1+e^c))/2 = log(e^(c/2) + e^(-c/2))",
           sp.simplify(sp.exp(sp.log(1 + sp.exp(-c_)) + sp.log(1 + sp.exp(c_))) - (sp.exp(c_ / 2) + sp.exp(-c_ / 2)) ** 2) == 0)
for cv in (0.7, -1.3):
    Sc = np.array([[cv, cv], [0.0, 0.0]])
    check_true(f"counterexample c={cv}: L_u->v = log 2, L_v->u = log(2 cosh(c/2)) > log 2",
               abs(Lrow(Sc, 1.0) - math.log(2)) < 1e-14 and abs(Lcol(Sc, 1.0) - math.log(2 * math.cosh(cv / 2))) < 1e-14
               and Lcol(Sc, 1.0) > math.log(2))

# CLIP の温度
check("1/0.07", "14.2857", 1 / 0.07)
check("log(1/0.07)", "2.6593", math.log(1 / 0.07))
check("tau lower limit 1/100", "0.01", Fraction(1, 100))
check("log 100", "4.6052", math.log(100))
check_true("CLIP numbers in the text: 0.07, 100, 32,768", all(present(s_) for s_ in ("0.07", "100", "32,768")))

# ---------- 演習 ----------
check("log(1 + 2e^-4)", "0.03598", math.log(1 + 2 * math.exp(-4)))
check_true("equilateral triangle: cos 120 deg = -0.5", abs(math.cos(2 * math.pi / 3) + 0.5) < 1e-15)
check("Delta = -0.5 - 1", "-1.5", -0.5 - 1)
check("log(1 + 2e^-3)", "0.09492", math.log(1 + 2 * math.exp(-1.5 / 0.5)))
tri = np.array([[math.cos(2 * math.pi * k / 3), math.sin(2 * math.pi * k / 3)] for k in range(3)])
check_true("triangle embedding loss per row equals log(1 + 2e^-3)",
           all(abs(-lsm(tri @ tri[i] / 0.5)[i] - math.log(1 + 2 * math.exp(-3))) < 1e-12 for i in range(3)))
check("log 1024", "6.9315", math.log(1024))
check_true("log 1024 = 10 log 2", abs(math.log(1024) - 10 * math.log(2)) < 1e-14)
check("observed loss", "2.5", Fraction(5, 2))
check("bound in nats", "4.4315", math.log(1024) - 2.5)
check("bound in bits", "6.3933", (math.log(1024) - 2.5) / math.log(2))
check("cap in bits", "10", Fraction(10))
check_true("20 bits exceed the 10-bit cap", 20 > math.log2(1024))
check("N = 1,024", "1,024", 1024)

# ---------- 8 節：リストの実行と出力の照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("infonce.py on disk equals the listing", open(os.path.join(HERE, "infonce.py"), encoding="utf-8").read() == code)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)
lines = printed_out.splitlines()
check_true("listing line 1: rows 0.5755 columns 0.5828 symmetric 0.5791",
           "rows 0.5755  columns 0.5828  symmetric 0.5791" in lines[0])
check_true("listing line 2: grad u_1 and grad a as in the example",
           "(-0.2329, 0.1567)" in lines[1] and "(0.0000, 0.0784)" in lines[1])
check_true("listing line 3: rotation numbers as in the example",
           "0.5371 -> 0.5228" in lines[2] and "0.8000 -> 0.7361" in lines[2] and "0.6000 -> 0.5171" in lines[2])
for k, line in zip(keys[1:-1], lines[4:11]):
    vals = [float(x) for x in line.split()]
    check_true(f"listing table row tau={k} equals table 1 row",
               abs(vals[0] - float(k)) < 1e-12 and all(abs(a_ - parse(b_)) < 1e-9 for a_, b_ in zip(vals[1:], rows1[k])))
for n, line in zip((2, 4, 16, 256), lines[11:15]):
    check_true(f"listing MI line N={n} matches bsc_bound", f"log N - E[loss] {bsc_bound(n):.4f}" in line)
check_true("bullets cite output lines 1, 2-3, 4-11, 12-15 (line count 15)",
           len(lines) == 15 and "4〜11 行目" in TEXT and "12〜15 行目" in TEXT)

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

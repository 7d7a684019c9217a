"""weight_tying.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
コードのリストは取り出して実行し、出力を印字された出力とそのまま比べる。
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
TEXT = open(os.path.join(HERE, "weight_tying.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",")
results = []
numeric = []  # 印字された数との照合だけを数える


def parse(printed):
    return float(printed.replace(",", ""))


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 章に印字された文字列。value: 定義から計算した値（丸める前）。"""
    dec = decimals(printed)
    v = float(value)
    ok = round(v, dec) == round(parse(printed), dec) or abs(v - parse(printed)) < 0.5 * 10 ** (-dec) + 1e-12
    if isinstance(value, (int, Fraction)) and dec == 0:
        ok = Fraction(value) == Fraction(int(parse(printed)))
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    print(f"[{status:9s}] {label}: printed {printed}  computed {v:.10g}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


def in_text(s):
    return s in TEXT


# ---------- 7 節の式（前章の定理 5.1 から組み立てる） ----------
def n_tied(V, d, L, Lctx, dff=None):
    dff = 4 * d if dff is None else dff
    per_layer = (4 * d * d + 4 * d) + (2 * d * dff + dff + d) + 4 * d   # 注意 + MLP + 2 つの層正規化
    return V * d + Lctx * d + L * per_layer + 2 * d


def n_untied(V, d, L, Lctx):
    return n_tied(V, d, L, Lctx) + V * d


def rho(V, d, L, Lctx):
    return Fraction(V * d, n_tied(V, d, L, Lctx))


MiB = 2**20

# ---------- 0・1 節 ----------
V0, d0, L0, C0 = 50257, 768, 12, 1024
check("50,257 x 768", "38,597,376", V0 * d0)
check("GPT-2 small total (tied)", "124,439,808", n_tied(V0, d0, L0, C0))
check("embedding share %", "31.02", 100 * rho(V0, d0, L0, C0))
check("untied total", "163,037,184", n_untied(V0, d0, L0, C0))
check_true("124,439,808 + 38,597,376 = 163,037,184", 124439808 + 38597376 == 163037184)
check_true("per layer = 12d^2 + 13d", all(
    n_tied(1, d, 1, 0) - d - 2 * d == 12 * d * d + 13 * d for d in (4, 64, 768, 1600)))

# ---------- 3 節：交差エントロピーの勾配（記号と乱数） ----------
zs = sp.symbols("z1:5", real=True)
for y in range(4):
    S = sum(sp.exp(z) for z in zs)
    ell = -sp.log(sp.exp(zs[y]) / S)
    grad = [sp.diff(ell, z) for z in zs]
    p = [sp.exp(z) / S for z in zs]
    ok_grad = all(sp.simplify(grad[j] - (p[j] - (1 if j == y else 0))) == 0 for j in range(4))
    ok_form = sp.simplify(sp.expand_log(ell + zs[y] - sp.log(S), force=True)) == 0
    hess = sp.Matrix(4, 4, lambda i, j: sp.diff(ell, zs[i], zs[j]))
    target = sp.Matrix(4, 4, lambda i, j: (p[i] if i == j else 0) - p[i] * p[j])
    ok_hess = sp.simplify(hess - target) == sp.zeros(4, 4)
    check_true(f"grad of CE = p - u_y, ell = -z_y + log sum, Hessian = diag(p) - pp^T (V=4, y={y + 1})",
               ok_grad and ok_form and ok_hess)
rng = np.random.default_rng(123)
ok = True
for _ in range(200):
    Vr = int(rng.integers(2, 9))
    z = rng.standard_normal(Vr) * 3
    p = np.exp(z - z.max()); p /= p.sum()
    y = int(rng.integers(Vr))
    g = p - np.eye(Vr)[y]
    ok &= abs(g.sum()) < 1e-12 and abs(np.abs(g).sum() - 2 * (1 - p[y])) < 1e-12 \
        and abs(np.abs(g).max() - (1 - p[y])) < 1e-12 and -np.log(p[y]) > 0
    H = np.diag(p) - np.outer(p, p)
    ok &= np.linalg.eigvalsh(H).min() > -1e-12
check_true("sum 0, L1 = 2(1-p_y), max = 1-p_y, loss > 0, Hessian PSD (random)", ok)

# ---------- 4 節：勾配の和（記号） ----------
# 本体を行ごとの tanh(W^T x) として、V = 3, d = 2, n = 2 で sympy により微分し、式と比べる
Vs, ds = 3, 2
Es = sp.Matrix(Vs, ds, lambda i, j: sp.Symbol(f"E{i}{j}"))
Ws = sp.Matrix([[sp.Rational(1, 2), -1], [sp.Rational(1, 3), 1]])
cin, cout = sp.Rational(3, 2), sp.Rational(2, 3)
s_tok, y_tok = [0, 2], [2, 1]


def loss_sym(A, B):
    tot = 0
    for s_, y_ in zip(s_tok, y_tok):
        x = cin * A[s_, :].T
        h = (Ws.T * x).applyfunc(sp.tanh)
        z = cout * B * h
        tot += -z[y_] + sp.log(sum(sp.exp(zz) for zz in z))
    return tot


vals = {Es[i, j]: sp.Rational((i * 3 + j * 5) % 7 - 3, 4) for i in range(Vs) for j in range(ds)}
Lt = loss_sym(Es, Es)
grad_tied = sp.Matrix(Vs, ds, lambda i, j: sp.diff(Lt, Es[i, j])).subs(vals)
A_ = sp.Matrix(Vs, ds, lambda i, j: sp.Symbol(f"A{i}{j}"))
B_ = sp.Matrix(Vs, ds, lambda i, j: sp.Symbol(f"B{i}{j}"))
Lab = loss_sym(A_, B_)
sub_ab = {**{A_[i, j]: vals[Es[i, j]] for i in range(Vs) for j in range(ds)},
          **{B_[i, j]: vals[Es[i, j]] for i in range(Vs) for j in range(ds)}}
gA = sp.Matrix(Vs, ds, lambda i, j: sp.diff(Lab, A_[i, j])).subs(sub_ab)
gB = sp.Matrix(Vs, ds, lambda i, j: sp.diff(Lab, B_[i, j])).subs(sub_ab)
diff_sum = (grad_tied - gA - gB).evalf(30)
check_true("tied gradient = grad_A + grad_B (sympy, tanh body)", max(abs(x) for x in diff_sum) < 1e-25)
# 閉じた式 c_in S^T G + c_out (P - Y)^T H と比べる
En = np.array([[float(vals[Es[i, j]]) for j in range(ds)] for i in range(Vs)])
Wn = np.array(Ws.tolist(), dtype=float)
X = float(cin) * En[s_tok]
Hn = np.tanh(X @ Wn)
Z = float(cout) * Hn @ En.T
P = np.exp(Z - Z.max(1, keepdims=True)); P /= P.sum(1, keepdims=True)
Y = np.eye(Vs)[y_tok]
Sm = np.eye(Vs)[s_tok]
G = ((float(cout) * (P - Y) @ En) * (1 - Hn**2)) @ Wn.T     # g_i = c_out J_i^T E^T (p_i - u_y)
closed_in = float(cin) * Sm.T @ G
closed_out = float(cout) * (P - Y).T @ Hn
check_true("grad_A = c_in S^T G with g_i = c_out J_i^T E^T (p_i - u_yi)",
           np.abs(np.array(gA.evalf(20).tolist(), dtype=float) - closed_in).max() < 1e-12)
check_true("grad_B = c_out (P - Y)^T H",
           np.abs(np.array(gB.evalf(20).tolist(), dtype=float) - closed_out).max() < 1e-12)
check_true("row 2 (token not in input) has output part only", np.abs(closed_in[1]).max() == 0)
check_true("rows of output part sum to 0", np.abs(closed_out.sum(0)).max() < 1e-12)
# トレースの巡回性の等式（乱数）
Dm, Hm, Dl = rng.standard_normal((5, 7)), rng.standard_normal((5, 3)), rng.standard_normal((7, 3))
check_true("<D, H Delta^T>_F = <D^T H, Delta>_F", abs((Dm * (Hm @ Dl.T)).sum() - ((Dm.T @ Hm) * Dl).sum()) < 1e-12)
# 系の 3：n = 1, h != 0 なら出力側のどの行も 0 でない
ok = True
for _ in range(100):
    Vr, dr = int(rng.integers(2, 8)), int(rng.integers(1, 5))
    h = rng.standard_normal(dr)
    z = rng.standard_normal(Vr)
    p = np.exp(z) / np.exp(z).sum()
    yy = int(rng.integers(Vr))
    rows = np.outer(p - np.eye(Vr)[yy], h)
    ok &= bool((np.abs(rows).sum(1) > 0).all())
check_true("n = 1: every output-part row nonzero (random)", ok)
# E + 1 c^T はロジットを一様にずらすだけ
Ec = En + np.array([0.3, -0.7])
Zc = float(cout) * Hn @ Ec.T
Pc = np.exp(Zc - Zc.max(1, keepdims=True)); Pc /= Pc.sum(1, keepdims=True)
check_true("E + 1c^T leaves the softmax of the output side unchanged", np.abs(Pc - P).max() < 1e-12)

# ---------- 4 節の例：V = 4, d = 2 の手計算 ----------
E4 = np.array([[1.0, 0], [0, 1], [1, 1], [-1, 0]])
check_true("rows e1..e4 as printed", in_text(r"$\boldsymbol{e}_1 = (1, 0)$、$\boldsymbol{e}_2 = (0, 1)$、$\boldsymbol{e}_3 = (1, 1)$、$\boldsymbol{e}_4 = (-1, 0)$"))
h4 = E4[2]
z4 = E4 @ h4
check_true("z = (1, 1, 2, -1)", list(z4) == [1, 1, 2, -1] and in_text(r"(1,\ 1,\ 2,\ -1)"))
check("e^1", "2.71828", math.e)
check("e^2", "7.38906", math.exp(2))
check("e^-1", "0.36788", math.exp(-1))
S4 = 2 * math.e + math.exp(2) + math.exp(-1)
check("denominator", "13.19350", S4)
check_true("2*2.71828 + 7.38906 + 0.36788 = 13.19350 with the printed digits",
           Fraction("2.71828") * 2 + Fraction("7.38906") + Fraction("0.36788") == Fraction("13.19350"))
p4 = np.exp(z4) / S4
for k, pr in enumerate(("0.2060", "0.2060", "0.5601", "0.0279")):
    check(f"p_{k + 1}", pr, p4[k])
d4 = p4 - np.eye(4)[1]
check("p_2 - 1", "-0.7940", d4[1])
check_true("p - u_2 printed", in_text(r"(0.2060,\ -0.7940,\ 0.5601,\ 0.0279)"))
loss4 = -np.log(p4[1])
check("loss", "1.5797", loss4)
check("-1 + log 13.19350", "1.5797", -1 + math.log(13.19350))
check_true("output rows printed", in_text("$(0.2060, 0.2060)$、$(-0.7940, -0.7940)$、$(0.5601, 0.5601)$、$(0.0279, 0.0279)$"))
check_true("printed first components sum to 0", Fraction("0.2060") - Fraction("0.7940") + Fraction("0.5601") + Fraction("0.0279") == 0)
mean_e = p4 @ E4
check("sum p_v e_v (1)", "0.7382", mean_e[0])
check("sum p_v e_v (2)", "0.7661", mean_e[1])
check_true("0.2060 + 0.5601 - 0.0279 = 0.7382 and 0.2060 + 0.5601 = 0.7661 (printed digits)",
           Fraction("0.2060") + Fraction("0.5601") - Fraction("0.0279") == Fraction("0.7382")
           and Fraction("0.2060") + Fraction("0.5601") == Fraction("0.7661"))
g4 = E4.T @ d4
check("g (1)", "0.7382", g4[0])
check("g (2)", "-0.2339", g4[1])
tot3 = p4[2] + g4
check("row 3 (1)", "1.2983", tot3[0])
check("row 3 (2)", "0.3261", tot3[1])
check_true("rounded-sum 0.5601 - 0.2339 = 0.3262 (one off in the last digit)",
           Fraction("0.5601") - Fraction("0.2339") == Fraction("0.3262") and round(tot3[1], 4) == 0.3261)
check_true("token 3 has the largest probability 0.5601", int(np.argmax(p4)) == 2)
check_true("norms: ||e_v|| <= ||e_3|| for all v", all(np.linalg.norm(E4, axis=1) <= np.linalg.norm(E4[2]) + 1e-15))
# 勾配降下の向き：-(row 2) は h 方向、-(rows 1,3,4) は h と負の内積、-g は e_2 - sum p e
full4 = np.outer(d4, h4)
full4[2] += g4
check_true("descent: row 2 moves toward h, other rows away from h",
           (-full4[1]) @ h4 > 0 and all((-full4[v]) @ h4 < 0 for v in (0, 2, 3)))
check_true("-g = e_2 - sum_v p_v e_v", np.allclose(-g4, E4[1] - mean_e))

# ---------- 5 節：本体が恒等写像 ----------
ok = True
for _ in range(200):
    Vr, dr = int(rng.integers(2, 9)), int(rng.integers(1, 5))
    Er = rng.standard_normal((Vr, dr))
    Er /= np.linalg.norm(Er, axis=1, keepdims=True)          # ノルムをそろえる
    s_ = int(rng.integers(Vr))
    ci, co = rng.uniform(0.1, 3, size=2)
    zr = ci * co * Er @ Er[s_]
    same = [v for v in range(Vr) if np.allclose(Er[v], Er[s_])]
    ok &= zr[s_] >= zr.max() - 1e-12 and all(zr[v] < zr[s_] - 1e-12 for v in range(Vr) if v not in same)
    M = ci * co * Er @ Er.T
    ok &= np.allclose(M, M.T) and np.linalg.eigvalsh(M).min() > -1e-10 and np.linalg.matrix_rank(M) <= dr
check_true("identity body, equal norms: z_s is the max, z_v = z_s only if e_v = e_s; EE^T symmetric PSD rank <= d", ok)
ok = True
for _ in range(50):
    Vr, dr = int(rng.integers(2, 9)), int(rng.integers(1, 5))
    Er = rng.standard_normal((Vr, dr))
    s_, y_ = int(rng.integers(Vr)), int(rng.integers(Vr))
    Wr = np.outer(np.eye(Vr)[y_], Er[s_])
    zr = Wr @ Er[s_]
    ok &= int(np.argmax(zr)) == y_ and all(zr[v] < zr[y_] for v in range(Vr) if v != y_)
check_true("untied: W = u_y e_s^T makes y the unique argmax", ok)

# ---------- 6 節：倍率 ----------
dsym, sig, ci_, co_ = sp.symbols("d sigma c_in c_out", positive=True)
sol = sp.solve([sp.Eq(ci_**2 * sig**2, 1), sp.Eq(co_**2 * sig**2 * dsym, 1)], [ci_, co_], dict=True)
check_true("unique positive solution c_in = 1/sigma, c_out = 1/(sigma sqrt d); ratio sqrt(d)",
           len(sol) == 1 and sp.simplify(sol[0][ci_] - 1 / sig) == 0
           and sp.simplify(sol[0][co_] - 1 / (sig * sp.sqrt(dsym))) == 0
           and sp.simplify(sol[0][ci_] / sol[0][co_] - sp.sqrt(dsym)) == 0)
# 乱数で 1 と 2 を確認
Er = rng.normal(0, 0.5, size=(200000, 6))
hr = np.array([1.0, -2.0, 0.5, 0.0, 1.5, -1.0])
check_true("E||c e_v||^2 / d = c^2 sigma^2 and Var(z) = c^2 sigma^2 ||h||^2 (Monte Carlo, 3 %)",
           abs((1.7 * Er).__pow__(2).sum(1).mean() / 6 - 1.7**2 * 0.25) < 0.03 * 1.7**2 * 0.25
           and abs((0.8 * Er @ hr).var() - 0.64 * 0.25 * (hr @ hr)) < 0.03 * 0.64 * 0.25 * (hr @ hr))
D6 = 768
rows_c = {}
tab = re.search(r"\| 設定 \|.*?\n((?:\|.*\n)+)", TEXT)
for line in tab.group(1).strip().split("\n")[1:]:
    cells = [c.strip() for c in line.strip("|").split("|")]
    rows_c[cells[0]] = cells[1:]
check_true("variant table has 5 rows", len(rows_c) == 5)
settings = [  # (行の名前, c_in, c_out, sigma)
    ("入力側で $\\sqrt{d}$ 倍（[1]）", math.sqrt(D6), 1.0, 1 / math.sqrt(D6)),
    ("出力側で $\\sqrt{d}$ で割る", 1.0, 1 / math.sqrt(D6), 1.0),
    ("倍率なし、$\\sigma = 0.02$（[5]）", 1.0, 1.0, 0.02),
    ("倍率なし、$\\sigma = 1/\\sqrt{d}$", 1.0, 1.0, 1 / math.sqrt(D6)),
    ("倍率なし、$\\sigma = 1$", 1.0, 1.0, 1.0),
]
for name, ci, co, sg in settings:
    row = rows_c.get(name, ["?"] * 6)
    check(f"T-var {name} c_in", row[0], ci, must_appear=False)
    check(f"T-var {name} c_out", row[1], co, must_appear=False)
    check(f"T-var {name} sigma", row[2], sg, must_appear=False)
    check(f"T-var {name} mean square", row[3], ci**2 * sg**2, must_appear=False)
    check(f"T-var {name} logit variance", row[4], co**2 * sg**2 * D6, must_appear=False)
    check(f"T-var {name} ratio", row[5], ci / co, must_appear=False)
check("sqrt(768)", "27.71", math.sqrt(768))
check("1/sqrt(768)", "0.0361", 1 / math.sqrt(768))
check("0.02^2", "0.0004", 0.02**2)
check("0.0004 * 768", "0.3072", 0.0004 * 768)
check_true("'倍率なしでは一方しか 1 にできない': c_in = c_out, d = 768 cannot give both 1",
           all(not (abs(c**2 * sg**2 - 1) < 1e-9 and abs(c**2 * sg**2 * D6 - 1) < 1e-9)
               for c in (0.5, 1.0, 2.0) for sg in (0.02, 1 / math.sqrt(D6), 1.0, 1 / c)))

# ---------- 7 節：パラメータ数 ----------
Vv, dv, Lv, Cv = sp.symbols("V d L L_ctx", positive=True)
Nt = Vv * dv + Cv * dv + Lv * (12 * dv**2 + 13 * dv) + 2 * dv
rho_s = Vv * dv / Nt
check_true("rho = V / (V + L_ctx + 13L + 2 + 12Ld)", sp.simplify(rho_s - Vv / (Vv + Cv + 13 * Lv + 2 + 12 * Lv * dv)) == 0)
Ks = Cv + 13 * Lv + 2 + 12 * Lv * dv
den2 = (Vv + Ks) ** 2
check_true("drho/dV = K/(V+K)^2 > 0; drho/dd = -12LV/(V+K)^2; drho/dL = -(13+12d)V/(V+K)^2; drho/dLctx = -V/(V+K)^2",
           sp.simplify(sp.diff(rho_s, Vv) - Ks / den2) == 0
           and sp.simplify(sp.diff(rho_s, dv) + 12 * Lv * Vv / den2) == 0
           and sp.simplify(sp.diff(rho_s, Lv) + (13 + 12 * dv) * Vv / den2) == 0
           and sp.simplify(sp.diff(rho_s, Cv) + Vv / den2) == 0)
check_true("lim_{V->oo} rho = 1", sp.limit(rho_s, Vv, sp.oo) == 1)
Nu = Nt + Vv * dv
check_true("Vd/N_untied = rho/(1+rho), 2Vd/N_untied = 2rho/(1+rho)",
           sp.simplify(Vv * dv / Nu - rho_s / (1 + rho_s)) == 0
           and sp.simplify(2 * Vv * dv / Nu - 2 * rho_s / (1 + rho_s)) == 0)
check_true("untied share at V = tied rho at 2V", sp.simplify(2 * Vv * dv / Nu - rho_s.subs(Vv, 2 * Vv)) == 0)
check_true("rho/(1+rho) < 1/2 for 0 < rho < 1", sp.simplify(sp.Rational(1, 2) - rho_s / (1 + rho_s) - (1 - rho_s) / (2 * (1 + rho_s))) == 0)

rowsA = {}
for m in re.finditer(r"^\| (\d+) \| (\d+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", NORM, re.M):
    rowsA[(int(m.group(1)), int(m.group(2)))] = m.groups()
check_true("GPT-2 table has the 4 rows", sorted(rowsA) == [(12, 768), (24, 1024), (36, 1280), (48, 1600)])
for (L, d) in ((12, 768), (24, 1024), (36, 1280), (48, 1600)):
    row = rowsA.get((L, d), ("?",) * 8)
    r = rho(V0, d, L, C0)
    check(f"T-A L={L} Vd", row[2], V0 * d)
    check(f"T-A L={L} N_tied", row[3], n_tied(V0, d, L, C0))
    check(f"T-A L={L} N_untied", row[4], n_untied(V0, d, L, C0))
    check(f"T-A L={L} rho %", row[5], 100 * r)
    check_true(f"T-A L={L} rho formula = Vd/N_tied", Fraction(V0, V0 + C0 + 13 * L + 2 + 12 * L * d) == r)
    check(f"T-A L={L} saved %", row[6], 100 * Fraction(V0 * d, n_untied(V0, d, L, C0)))
    check_true(f"T-A L={L} saved = rho/(1+rho)", Fraction(V0 * d, n_untied(V0, d, L, C0)) == r / (1 + r))
    check(f"T-A L={L} untied share %", row[7], 100 * Fraction(2 * V0 * d, n_untied(V0, d, L, C0)))
check("13 x 12", "156", 13 * 12)
check("12 x 12 x 768", "110,592", 12 * 12 * 768)
check("denominator 162,031", "162,031", V0 + C0 + 156 + 2 + 110592)
check("rho GPT-2 small", "0.3102", Fraction(V0, 162031))
check_true("largest config saves < 5 %", Fraction(V0 * 1600, n_untied(V0, 1600, 48, C0)) < Fraction(5, 100))
check_true("rho decreasing down the GPT-2 table",
           rho(V0, 768, 12, C0) > rho(V0, 1024, 24, C0) > rho(V0, 1280, 36, C0) > rho(V0, 1600, 48, C0))

# メモリ
check("fp32 bytes GPT-2 E", "154,389,504", 4 * V0 * d0)
check("fp32 MiB", "147.24", Fraction(4 * V0 * d0, MiB))
check("bf16 bytes", "77,194,752", 2 * V0 * d0)
check("bf16 MiB", "73.62", Fraction(2 * V0 * d0, MiB))

rowsB = {}
for m in re.finditer(r"^\| ([\d,]+) \| (\d+) \| ([\d,]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", NORM, re.M):
    rowsB[(int(m.group(1).replace(",", "")), int(m.group(2)))] = m.groups()
keysB = [(50257, 1024), (128000, 1024), (256000, 1024), (50257, 2048), (50257, 4096), (128000, 4096)]
check_true("V/d table has the 6 rows", sorted(rowsB) == sorted(keysB))
LB = 24
for (V, d) in keysB:
    row = rowsB.get((V, d), ("?",) * 7)
    r = rho(V, d, LB, C0)
    check(f"T-B V={V} d={d} Vd", row[2], V * d)
    check(f"T-B V={V} d={d} rho %", row[3], 100 * r)
    check(f"T-B V={V} d={d} untied share %", row[4], 100 * 2 * r / (1 + r))
    check(f"T-B V={V} d={d} fp32 MiB", row[5], Fraction(4 * V * d, MiB))
    check(f"T-B V={V} d={d} bf16 MiB", row[6], Fraction(2 * V * d, MiB))
check_true("row 2 of V/d table = GPT-2 medium config (14.50 %)",
           rho(50257, 1024, 24, C0) == rho(V0, 1024, 24, C0) and round(float(100 * rho(50257, 1024, 24, C0)), 2) == 14.50)
r128 = rho(128000, 1024, LB, C0)
check_true("untied share at V=128,000 equals tied rho at V=256,000 exactly",
           2 * r128 / (1 + r128) == rho(256000, 1024, LB, C0))
check("46.36", "46.36", 100 * rho(256000, 1024, LB, C0))
rs = [float(rho(50257, d, LB, C0)) for d in (1024, 2048, 4096)]
check_true("'ほぼ半分': successive ratios in [0.5, 0.56]", all(0.5 <= rs[k + 1] / rs[k] <= 0.56 for k in range(2)))
check("14.50", "14.50", 100 * rs[0])
check("7.84", "7.84", 100 * rs[1])
check("4.08", "4.08", 100 * rs[2])
check("V d for 128,000 x 4096", "524,288,000", 128000 * 4096)
check_true("524,288,000 = 2^19 x 1,000", 128000 * 4096 == 2**19 * 1000)
check("bf16 MiB 128,000 x 4096", "1,000", Fraction(2 * 128000 * 4096, MiB))
check("two matrices bf16 MiB", "2,000", Fraction(2 * 2 * 128000 * 4096, MiB))

# ---------- 8 節：リストの実行と出力の照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("tied_embedding.py on disk equals the listing",
           open(os.path.join(HERE, "tied_embedding.py"), encoding="utf-8").read() == code)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)
out_lines = printed_out.strip("\n").split("\n")
check_true("listing prints 12 lines", len(out_lines) == 12)
loss_rand = float(re.search(r"loss = ([\d.]+)", out_lines[5]).group(1))
check("loss of the random example", "8.48", loss_rand)
check("2^-53", "1.1", 2.0**-53 / 1e-16)
check("8.48 * 2^-53 / 1e-6 (x1e-10)", "9.4", loss_rand * 2.0**-53 / 1e-6 / 1e-10)
errs = [float(re.search(r"= ([\d.e+-]+)$", out_lines[k]).group(1)) for k in (6, 7, 8)]
check_true("finite-difference errors are of order 1e-9 (between 1e-10 and 1e-8)", all(1e-10 <= e <= 1e-8 for e in errs))
check_true("input part on rows 0, 2, 4 = tokens in s = [0, 2, 2, 4]", "rows with input part: [0, 2, 4]" in printed_out)
check_true("hand example lines 1-5 agree with section 4", out_lines[0] == "p = [0.2060 0.2060 0.5601 0.0279]"
           and out_lines[1] == "loss = 1.5797" and "1.2983 0.3261" in out_lines[4])
check("nVd multiplications for (P - Y)^T H, n=4, V=6, d=3", "72", 4 * 6 * 3, must_appear=False)

# ---------- 演習 ----------
t_small = n_tied(1000, 64, 4, 128)
check("exr: tied total", "272,256", t_small)
check("exr: Vd", "64,000", 1000 * 64)
check("exr: untied total", "336,256", n_untied(1000, 64, 4, 128))
check("exr: saved %", "19.03", 100 * Fraction(64000, 336256))
rs_ = Fraction(64000, 272256)
check("exr: rho", "0.2351", rs_)
check("exr: 1 + rho", "1.2351", 1 + rs_)
check("exr: rho/(1+rho)", "0.1903", rs_ / (1 + rs_))
check("exr: 0.2351/1.2351", "0.1903", 0.2351 / 1.2351)

zc = np.array([2.0, 0.0, -1.0])
Sc = np.exp(zc).sum()
check("exr-ce: denominator", "8.75694", Sc)
check_true("7.38906 + 1 + 0.36788 = 8.75694", Fraction("7.38906") + 1 + Fraction("0.36788") == Fraction("8.75694"))
pc = np.exp(zc) / Sc
for k, pr in enumerate(("0.8438", "0.1142", "0.0420")):
    check(f"exr-ce: p_{k + 1}", pr, pc[k])
check("exr-ce: loss", "2.1698", -np.log(pc[1]))
check("exr-ce: log 8.75694", "2.1698", math.log(8.75694))
check("exr-ce: p_2 - 1", "-0.8858", pc[1] - 1)
check("exr-ce: L1", "1.7716", np.abs(pc - np.eye(3)[1]).sum())
check("exr-ce: 2(1 - 0.1142)", "1.7716", 2 * (1 - 0.1142))
check_true("0.8438 + 0.8858 + 0.0420 = 1.7716 (printed digits)",
           Fraction("0.8438") + Fraction("0.8858") + Fraction("0.0420") == Fraction("1.7716"))
check("exr-ce: max |.|", "0.8858", 1 - pc[1])

ang = [0, 2 * math.pi / 3, 4 * math.pi / 3]
Ecirc = np.array([[math.cos(a), math.sin(a)] for a in ang])
check_true("circle points as printed", np.allclose(Ecirc, [[1, 0], [-0.5, math.sqrt(3) / 2], [-0.5, -math.sqrt(3) / 2]]))
zcirc = Ecirc @ Ecirc[0]
check_true("z = (1, -0.5, -0.5)", np.allclose(zcirc, [1, -0.5, -0.5]))
check("e^-0.5", "0.60653", math.exp(-0.5))
check("circle denominator", "3.93134", np.exp(zcirc).sum())
check_true("2.71828 + 2 x 0.60653 = 3.93134", Fraction("2.71828") + 2 * Fraction("0.60653") == Fraction("3.93134"))
pcirc = np.exp(zcirc) / np.exp(zcirc).sum()
check("circle p_1", "0.6914", pcirc[0])
check("circle p_2", "0.1543", pcirc[1])
Wcirc = Ecirc[[2, 0, 1]]
zW = Wcirc @ Ecirc[0]
check_true("W rows e3, e1, e2 give z = (-0.5, 1, -0.5), p = (0.1543, 0.6914, 0.1543)",
           np.allclose(zW, [-0.5, 1, -0.5]) and np.allclose(np.round(np.exp(zW) / np.exp(zW).sum(), 4), [0.1543, 0.6914, 0.1543]))
check_true("tied: logit(1->2) = logit(2->1) = -0.5", abs(Ecirc[0] @ Ecirc[1] + 0.5) < 1e-12 and abs(Ecirc[1] @ Ecirc[0] + 0.5) < 1e-12)

nE = 128000 * 4096
check("exr-mem: bf16 bytes", "1,048,576,000", 2 * nE)
check("exr-mem: 2^20", "1,048,576", 2**20)
check("exr-mem: bf16 MiB", "1,000", Fraction(2 * nE, MiB))
check("exr-mem: fp32 MiB", "2,000", Fraction(4 * nE, MiB))
check("exr-mem: 4 x 4", "16", 4 * 4)
check("exr-mem: 16 bytes total", "8,388,608,000", 16 * nE)
check("exr-mem: MiB", "8,000", Fraction(16 * nE, MiB))
check("exr-mem: GiB", "7.8125", Fraction(16 * nE, 2**30))

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

"""muon.txt の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）。言葉で述べた性質（単調、以下、含まれる、など）は
数値や記号計算で確かめる（truth）。本文のリスティング muon_ns.py を実行し、
本文のコードと出力に一致することも確かめる。最後に、本文の小数と 3 桁区切りの
整数がすべてどれかの検査で照合されたことを確かめる。1 つでも失敗すれば終了コード 1。
"""
import math
import os
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "muon.txt"), encoding="utf-8").read()
mpmath.mp.dps = 60

checked = 0
failures = 0
MATCHED = []          # 照合に成功した文字列（最後の網羅性の検査に使う）


def check(label, expected, count=1):
    """expected（計算値から組み立てた文字列）が本文にあるかを調べる。count はその中の数値の個数。"""
    global checked, failures
    ok = expected in TEXT
    checked += count
    if ok:
        MATCHED.append(expected)
    else:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    """本文の言葉で述べた性質を確かめる。"""
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


# ---------------- 書式（すべて四捨五入） ----------------
def _dec(x):
    if isinstance(x, Fraction):
        return Decimal(x.numerator) / Decimal(x.denominator)
    if isinstance(x, (sp.Basic,)):
        return Decimal(str(sp.N(x, 40)))
    if isinstance(x, mpmath.mpf):
        return Decimal(mpmath.nstr(x, 40))
    return Decimal(repr(float(x))) if isinstance(x, float) else Decimal(x)


def fix(x, d=4):
    """小数第 d 位までに四捨五入した固定小数点表記。"""
    q = Decimal(1).scaleb(-d)
    v = _dec(x).quantize(q, rounding=ROUND_HALF_UP)
    return f"{v:.{d}f}".replace("-0.0000", "0.0000")


def sig(x, n=4):
    """有効数字 n 桁（四捨五入）の固定小数点表記。"""
    v = _dec(x)
    e = v.adjusted()
    q = Decimal(1).scaleb(e - n + 1)
    r = v.quantize(q, rounding=ROUND_HALF_UP)
    if r.adjusted() != e:                       # 9.9995 -> 10.00 のような桁上がり
        e = r.adjusted()
        r = v.quantize(Decimal(1).scaleb(e - n + 1), rounding=ROUND_HALF_UP)
    d = max(n - 1 - e, 0)
    return f"{r:.{d}f}"


def sci(x, n=4):
    """4.077 \\times 10^{10} の形（有効数字 n 桁、四捨五入）。"""
    v = _dec(x)
    e = v.adjusted()
    m = (v.scaleb(-e)).quantize(Decimal(1).scaleb(-(n - 1)), rounding=ROUND_HALF_UP)
    if abs(m) >= 10:
        e += 1
        m = (v.scaleb(-e)).quantize(Decimal(1).scaleb(-(n - 1)), rounding=ROUND_HALF_UP)
    return f"{m:.{n - 1}f} \\times 10^{{{e}}}"


def cm(n):
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    return f"{n:,}"


def dstr(r):
    """有限小数で表せる有理数を、末尾の 0 を除いた正確な小数で書く。"""
    r = Fraction(str(r)) if not isinstance(r, Fraction) else r
    v = _dec(r)
    assert v == Decimal(r.numerator) / Decimal(r.denominator) and (v * 10**12) == int(v * 10**12)
    s = format(v.normalize(), "f")
    return s


def num_or_fix(v, d=4):
    """整数なら整数のまま、そうでなければ小数第 d 位まで。"""
    v = sp.nsimplify(v)
    return str(int(v)) if v.is_integer else fix(v, d)


def num_or_sig(v, n=4):
    v = sp.nsimplify(v)
    return str(int(v)) if v.is_integer else sig(v, n)


s2, s3, s5, s10, s17 = sp.sqrt(2), sp.sqrt(3), sp.sqrt(5), sp.sqrt(10), sp.sqrt(17)

# ======================= 多項式と Jordan の係数の数値（命題 4.3, 4.4） =======================
x, y = sp.symbols("x y", real=True)
a_J, b_J, c_J = sp.Rational("3.4445"), sp.Rational("-4.7750"), sp.Rational("2.0315")
P3 = sp.Rational(3, 2) * x - sp.Rational(1, 2) * x**3
P5 = (15 * x - 10 * x**3 + 3 * x**5) / 8
PJ = a_J * x + b_J * x**3 + c_J * x**5
COEF = {"cubic": (sp.Rational(3, 2), sp.Rational(-1, 2), 0), "quintic": (sp.Rational(15, 8), sp.Rational(-10, 8), sp.Rational(3, 8)),
        "jordan": (a_J, b_J, c_J)}
POLY = {"cubic": P3, "quintic": P5, "jordan": PJ}
F = {k: sp.lambdify(x, v, "mpmath") for k, v in POLY.items()}


def it(name, x0, k):
    v = mpmath.mpf(x0)
    for _ in range(k):
        v = F[name](v)
    return v


qJ = a_J + b_J * y + c_J * y**2
ys_fix = sorted(sp.solve(sp.Eq(c_J * y**2 + b_J * y + (a_J - 1), 0), y), key=lambda r: float(r))
xs_fix = [sp.sqrt(r) for r in ys_fix]
dPJ = sp.diff(PJ, x)
ys_crit = sorted(sp.solve(5 * c_J * y**2 + 3 * b_J * y + a_J, y), key=lambda r: float(r))
xi1, xi2 = [sp.sqrt(r) for r in ys_crit]
theta_p = sp.N(PJ.subs(x, xi1), 50)
theta_m = sp.N(PJ.subs(x, xi2), 50)
p_theta_m = sp.N(PJ.subs(x, theta_m), 50)
pp_theta_m = sp.N(PJ.subs(x, p_theta_m), 50)
p_theta_p = sp.N(PJ.subs(x, theta_p), 50)

# ======================= 0 節：要点 =======================
check("要点 J の近似区間", f"$[{fix(theta_m)}, {fix(p_theta_m)}]$", 2)
truth("要点 丸めた区間 [0.6818, 1.1344] は J を含む", sp.Rational(fix(theta_m)) <= theta_m and sp.Rational(fix(p_theta_m)) >= p_theta_m, 0)
ratio_gr = sp.Rational(20 * 1 + 10, 16 * 1 + 8)          # (20 l s^2 + 10 s^3)/(16 l s^2 + 8 s^3) の l = s の値
check("要点 1.25 倍", f"形に依らずちょうど {float(sp.Rational(5, 4))} 倍")
check("要点 0.3662 %", f"$s = \\ell = 768$、$B = 2^{{20}}$ なら約 {fix(Fraction(100 * 5 * 768, 2**20))} %", 3)

# ======================= 2 節：例 2.5 =======================
A = sp.Matrix([[3, 0], [4, 5]])
ATA = A.T * A
check("例 2.5 A^T A", "A^{\\mathsf{T}}A = \\begin{pmatrix} %d & %d \\\\ %d & %d \\end{pmatrix}" % tuple(ATA), 4)
ev = {k: v for k, v in ATA.eigenvals().items()}
v1, v2 = sp.Matrix([1, 1]) / s2, sp.Matrix([1, -1]) / s2
truth("例 2.5 A^T A (1,1) = 45 (1,1)、(1,-1) = 5 (1,-1)", ATA * sp.Matrix([1, 1]) == 45 * sp.Matrix([1, 1]) and ATA * sp.Matrix([1, -1]) == 5 * sp.Matrix([1, -1]) and set(ev) == {45, 5})
check("例 2.5 45 倍と 5 倍", "$(1, 1)^{\\mathsf{T}}$ を 45 倍、$(1, -1)^{\\mathsf{T}}$ を 5 倍", 2)
sig1, sig2 = sp.sqrt(45), sp.sqrt(5)
truth("例 2.5 sqrt(45) = 3 sqrt5", sp.simplify(sig1 - 3 * s5) == 0)
check("例 2.5 特異値", f"$\\sigma_1 = \\sqrt{{45}} = 3\\sqrt5 \\approx {fix(sig1)}$、$\\sigma_2 = \\sqrt5 \\approx {fix(sig2)}$", 3)
u1, u2 = sp.simplify(A * v1 / sig1), sp.simplify(A * v2 / sig2)
truth("例 2.5 A v1 = (3,9)/sqrt2、A v2 = (3,-1)/sqrt2", sp.simplify(A * v1 - sp.Matrix([3, 9]) / s2) == sp.zeros(2, 1) and sp.simplify(A * v2 - sp.Matrix([3, -1]) / s2) == sp.zeros(2, 1), 4)
truth("例 2.5 u1 = (1,3)/sqrt10、u2 = (3,-1)/sqrt10", sp.simplify(u1 - sp.Matrix([1, 3]) / s10) == sp.zeros(2, 1) and sp.simplify(u2 - sp.Matrix([3, -1]) / s10) == sp.zeros(2, 1), 4)
check("例 2.5 u1, u2 の式", "$\\boldsymbol{u}_1 = (3, 9)^{\\mathsf{T}}/(\\sqrt2 \\cdot 3\\sqrt5) = (1, 3)^{\\mathsf{T}}/\\sqrt{10}$、$\\boldsymbol{u}_2 = (3, -1)^{\\mathsf{T}}/(\\sqrt2 \\cdot \\sqrt5) = (3, -1)^{\\mathsf{T}}/\\sqrt{10}$", 8)
O_A = sp.simplify(u1 * v1.T + u2 * v2.T)
truth("例 2.5 u1 v1^T = [[1,1],[3,3]]/sqrt20、u2 v2^T = [[3,-3],[-1,1]]/sqrt20",
      sp.simplify(u1 * v1.T - sp.Matrix([[1, 1], [3, 3]]) / sp.sqrt(20)) == sp.zeros(2) and sp.simplify(u2 * v2.T - sp.Matrix([[3, -3], [-1, 1]]) / sp.sqrt(20)) == sp.zeros(2), 8)
truth("例 2.5 Ortho(A) = [[2,-1],[1,2]]/sqrt5", sp.simplify(O_A - sp.Matrix([[2, -1], [1, 2]]) / s5) == sp.zeros(2), 4)
dec = " \\\\ ".join(" & ".join(fix(O_A[i, j]) for j in range(2)) for i in range(2))
check("例 2.5 Ortho(A) の小数", f"\\approx \\begin{{pmatrix}} {dec} \\end{{pmatrix}}$$", 4)
check("例 2.5 回転角", f"$\\arctan(1/2) \\approx {math.degrees(math.atan(0.5)):.2f}°$")
truth("例 2.5 Ortho(A) は角度 arctan(1/2) の回転", sp.simplify(O_A[1, 0] / O_A[0, 0]) == sp.Rational(1, 2) and O_A[0, 0] > 0 and O_A.det() == 1, 0)
fro = sp.sqrt(sum(v**2 for v in A))
check("例 2.5 ||A||_F", f"$\\|A\\|_F = \\sqrt{{9 + 16 + 25}} = \\sqrt{{{int(fro**2)}}} \\approx {fix(fro)}$ は $\\sqrt{{\\sigma_1^2 + \\sigma_2^2}} = \\sqrt{{45 + 5}}$", 7)
truth("例 2.5 ||A||_F^2 = 45 + 5", fro**2 == 45 + 5 and [v**2 for v in A if v != 0] == [9, 16, 25])
nuc = sig1 + sig2
check("例 2.5 核ノルム", f"$\\|A\\|_{{*}} = 3\\sqrt5 + \\sqrt5 = 4\\sqrt5 \\approx {fix(nuc)}$")
ip_terms = " + ".join(f"{A[i, j]} \\cdot {sp.simplify(O_A[i, j] * s5) if O_A[i, j] >= 0 else '(' + str(sp.simplify(O_A[i, j] * s5)) + ')'}" for i in range(2) for j in range(2))
ip = sp.simplify(sum(A[i, j] * O_A[i, j] for i in range(2) for j in range(2)))
check("例 2.5 内積", f"$\\langle A, \\mathrm{{Ortho}}(A)\\rangle = ({ip_terms})/\\sqrt5 = {int(sp.simplify(ip * s5))}/\\sqrt5 = 4\\sqrt5$", 9)
truth("例 2.5 内積 = 核ノルム（命題 2.4 の 4）", sp.simplify(ip - nuc) == 0)
OtA = sp.simplify(O_A.T * A * s5)
check("例 2.5 Ortho(A)^T A", "= \\frac{1}{\\sqrt5}\\begin{pmatrix} %d & %d \\\\ %d & %d \\end{pmatrix}$ は対称で" % tuple(OtA), 4)
ev2 = sorted(sp.Matrix(OtA / s5).eigenvals().keys(), key=lambda r: -float(r))
truth("例 2.5 Ortho(A)^T A の固有値は 3 sqrt5 と sqrt5", [sp.simplify(e) for e in ev2] == [3 * s5, s5])
check("例 2.5 固有値", "$15/\\sqrt5 = 3\\sqrt5$ と $5/\\sqrt5 = \\sqrt5$", 4)
check("例 2.5 RMS(Ortho(A))", f"$\\mathrm{{RMS}}(\\mathrm{{Ortho}}(A)) = \\sqrt2/2 \\approx {fix(s2 / 2)}$")
truth("例 2.5 RMS(Ortho(A)) = sqrt(sum/4)", sp.simplify(sp.sqrt(sum(v**2 for v in O_A) / 4) - s2 / 2) == 0, 0)

# ======================= 命題 2.3, 2.4 の数値確認 =======================
rng = np.random.default_rng(12345)
ok23 = ok24 = True
for _ in range(20):
    m, n = rng.integers(2, 9, size=2)
    r = rng.integers(1, min(m, n) + 1)
    G = rng.standard_normal((m, r)) @ rng.standard_normal((r, n))
    U, s, Vt = np.linalg.svd(G, full_matrices=False)
    U, s, Vt = U[:, :r], s[:r], Vt[:r]
    d = rng.standard_normal(r)
    M = U @ np.diag(d) @ Vt
    ok23 &= abs(np.linalg.norm(M, 2) - np.abs(d).max()) < 1e-10 and abs(np.linalg.norm(M) - np.linalg.norm(d)) < 1e-10
    xs = rng.standard_normal((n, 200))
    ratio = (np.linalg.norm(G @ xs, axis=0) / np.sqrt(m)) / (np.linalg.norm(xs, axis=0) / np.sqrt(n))
    ok23 &= ratio.max() <= np.sqrt(n / m) * s[0] * (1 + 1e-12)
    O = U @ Vt
    # 命題 2.4 の 1：O = G q(G^T G)
    nodes = [0.0] + list(s**2)
    vals = [0.0] + list(1 / s)
    coef = np.polyfit(nodes, vals, len(nodes) - 1)
    GtG = G.T @ G
    Q = sum(cf * np.linalg.matrix_power(GtG, len(coef) - 1 - i) for i, cf in enumerate(coef))
    ok24 &= np.abs(G @ Q - O).max() < 1e-6 * max(1, np.abs(O).max()) or r > 4
    P = np.linalg.qr(rng.standard_normal((m, m)))[0]
    Qo = np.linalg.qr(rng.standard_normal((n, n)))[0]
    U2, s2_, Vt2 = np.linalg.svd(P @ G @ Qo, full_matrices=False)
    ok24 &= np.abs(U2[:, :r] @ Vt2[:r] - P @ O @ Qo).max() < 1e-8
    ok24 &= abs(np.sum(G * O) - s.sum()) < 1e-9 * s.sum()
    S = O.T @ G
    ok24 &= np.abs(S - S.T).max() < 1e-9 and np.linalg.eigvalsh(S).min() > -1e-9 and np.abs(O @ S - G).max() < 1e-9
truth("命題 2.3 を乱数の行列 20 個で確認（スペクトルノルム・フロベニウスノルム・RMS→RMS）", ok23, 0)
truth("命題 2.4 を乱数の行列 20 個で確認（補間多項式・直交変換・核ノルム・極分解）", ok24, 0)
G_eq = np.eye(3)
Qr = np.linalg.qr(rng.standard_normal((3, 3)))[0]
truth("2 節 G = I なら G = Q I Q^T がどの直交行列でも特異値分解", np.abs(Qr @ np.eye(3) @ Qr.T - G_eq).max() < 1e-12, 0)

# ======================= 3 節 =======================
dist2 = sp.expand((3 * s5 - 1)**2 + (s5 - 1)**2)
check("3 節 最も近い直交行列までの距離", f"$(3\\sqrt5 - 1)^2 + (\\sqrt5 - 1)^2 = 52 - 8\\sqrt5 \\approx {fix(dist2)}$、距離は約 {fix(sp.sqrt(dist2))}", 4)
truth("3 節 52 - 8 sqrt5 の展開", sp.simplify(dist2 - (52 - 8 * s5)) == 0, 0)
An = np.array([[3.0, 0.0], [4.0, 5.0]])
best = min(min(np.linalg.norm(An - np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])),
               np.linalg.norm(An - np.array([[math.cos(t), math.sin(t)], [math.sin(t), -math.cos(t)]]))) for t in np.linspace(0, 2 * math.pi, 200001))
truth(f"3 節 2 次の直交行列全体での ||A - O||_F の最小値 {best:.6f} は sqrt(52 - 8 sqrt5) に一致（格子で確認）", abs(best - float(sp.sqrt(dist2))) < 1e-6, 0)
# 命題 3.1 と 3.2 の 2 つの帰結（罰則つき最小化）
ok31 = True
for _ in range(50):
    m, n = rng.integers(2, 7, size=2)
    G = rng.standard_normal((m, n))
    U, s, Vt = np.linalg.svd(G, full_matrices=False)
    O = U @ Vt
    D = rng.standard_normal((m, n))
    D /= np.linalg.norm(D, 2)
    ok31 &= np.sum(G * D) <= s.sum() + 1e-12 and abs(np.sum(G * O) - s.sum()) < 1e-10
    lam = rng.uniform(0.1, 3)
    fstar = -s.sum() ** 2 / (2 * lam)
    Dstar = -(s.sum() / lam) * O
    fD = lambda Z: np.sum(G * Z) + lam / 2 * np.linalg.norm(Z, 2) ** 2
    ok31 &= abs(fD(Dstar) - fstar) < 1e-9 * abs(fstar) and all(fD(rng.standard_normal((m, n)) * rng.uniform(0.1, 5)) >= fstar - 1e-12 for _ in range(20))
truth("命題 3.1 と罰則つき最小化（最小値 -||G||_*^2/(2λ)）を乱数で確認", ok31, 0)
# 命題 3.2
g_seq = [0.3, -1.2, 2.5e-3]
okadam = True
for gt in g_seq:
    mt, vt = (1 - 0) * gt, (1 - 0) * gt**2
    upd = -(mt / (1 - 0**1)) / (math.sqrt(vt / (1 - 0**1)) + 0.0)
    okadam &= upd == -math.copysign(1.0, gt)
truth("命題 3.2 の 2：β1 = β2 = 0、ε = 0 の Adam は -sign(g)", okadam)
Gs = np.array([[1.0, 0.0], [0.0, 0.0]])
R = np.array([[1.0, -1.0], [1.0, 1.0]]) / math.sqrt(2)
truth("命題 3.2 の 4：45° 回転の反例 sign(RG) ≠ R sign(G)",
      np.array_equal(np.sign(R @ Gs), np.array([[1.0, 0.0], [1.0, 0.0]])) and not np.allclose(np.sign(R @ Gs), R @ np.sign(Gs)))
check("命題 3.2 の 4 の反例の行列", "$\\mathrm{sign}(RG) = \\begin{pmatrix} 1 & 0 \\\\ 1 & 0 \\end{pmatrix}$ ですが、$R\\,\\mathrm{sign}(G) = RG$ の成分は $1/\\sqrt2$ です", 0)
oksp = True
for _ in range(20):
    m, n = rng.integers(2, 7, size=2)
    G = rng.standard_normal((m, n))
    Pp = np.eye(m)[rng.permutation(m)] * rng.choice([-1.0, 1.0], size=(m, 1))
    Qp = np.eye(n)[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], size=(1, n))
    oksp &= np.array_equal(np.sign(Pp @ G @ Qp), Pp @ np.sign(G) @ Qp)
    oksp &= abs(np.sum(G * np.sign(G)) - np.abs(G).sum()) < 1e-12
truth("命題 3.2 の 3・4：符号つき置換行列との交換と sum|G_ij| の達成", oksp, 0)
ok33 = True
for _ in range(50):
    m, n = rng.integers(2, 8, size=2)
    Dm = rng.standard_normal((m, n))
    rmsD = np.sqrt(np.mean(Dm**2))
    ok33 &= np.linalg.norm(Dm, 2) >= rmsD * np.sqrt(max(m, n)) * (1 - 1e-12)
    G = rng.standard_normal((m, n))
    U, s, Vt = np.linalg.svd(G, full_matrices=False)
    rho = rng.uniform(0.1, 2)
    Dd = rho * np.sqrt(max(m, n)) * U @ Vt
    ok33 &= abs(np.sqrt(np.mean(Dd**2)) - rho) < 1e-12 and abs(np.linalg.norm(Dd, 2) - rho * np.sqrt(max(m, n))) < 1e-10
truth("命題 3.3 を乱数で確認（下限と、直交化による等号）", ok33, 0)

# 例 3.4
Sg = A.applyfunc(sp.sign)
check("例 3.4 sign(A)", "$\\mathrm{sign}(A) = \\begin{pmatrix} %d & %d \\\\ %d & %d \\end{pmatrix}$" % tuple(Sg), 4)
StS = Sg.T * Sg
check("例 3.4 sign(A)^T sign(A)", "\\mathrm{sign}(A)^{\\mathsf{T}}\\mathrm{sign}(A) = \\begin{pmatrix} %d & %d \\\\ %d & %d \\end{pmatrix}$" % tuple(StS), 4)
evS = set(StS.eigenvals().keys())
truth("例 3.4 固有値は (3 ± sqrt5)/2", evS == {(3 + s5) / 2, (3 - s5) / 2})
phi = (1 + s5) / 2
truth("例 3.4 特異値は φ と 1/φ", sp.simplify(phi**2 - (3 + s5) / 2) == 0 and sp.simplify((1 / phi)**2 - (3 - s5) / 2) == 0)
check("例 3.4 φ", f"黄金比 $\\varphi = (1 + \\sqrt5)/2 \\approx {fix(phi)}$ とその逆数 $\\approx {fix(1 / phi)}$", 2)
check("例 3.4 ||A/||A||_F||_2", f"$3\\sqrt5/\\sqrt{{50}} = 3/\\sqrt{{10}} \\approx {fix(3 / s10)}$ です。下の表", 1)
An_ = A / fro
rows = {"$\\mathrm{sign}(A)$": (Sg, phi), "$A/\\|A\\|_F$": (An_, 3 / s10), "$\\mathrm{Ortho}(A)$": (O_A, sp.Integer(1))}
colmax = [[], [], []]
for lab, (Dl, spec) in rows.items():
    mx = max(abs(v) for v in Dl)
    fr = sp.sqrt(sum(v**2 for v in Dl))
    inner = sp.simplify(sum(A[i, j] * Dl[i, j] for i in range(2) for j in range(2)))
    r1, r2, r3 = inner / mx, inner / fr, inner / spec
    for k, rv in enumerate((r1, r2, r3)):
        colmax[k].append(rv)
    row = "\t".join([lab, num_or_fix(mx), num_or_fix(fr), num_or_fix(spec), num_or_fix(inner), fix(r1), fix(r2), fix(r3)])
    check(f"例 3.4 の表 {lab} の行", row, 7)
    truth(f"例 3.4 {lab} のスペクトルノルムを数値で確認", abs(np.linalg.norm(np.array(Dl, dtype=float), 2) - float(spec)) < 1e-12, 0)
truth("例 3.4 各比の列の最大値は sum|A_ij| = 12、||A||_F、||A||_*（それぞれ sign、A/||A||_F、Ortho）",
      sp.simplify(max(colmax[0], key=float) - 12) == 0 and float(colmax[0][0]) == 12
      and abs(float(colmax[1][1]) - float(fro)) < 1e-12 and max(map(float, colmax[1])) == float(colmax[1][1])
      and abs(float(colmax[2][2]) - float(nuc)) < 1e-12 and max(map(float, colmax[2])) == float(colmax[2][2]), 3)
check("例 3.4 列の最大値", f"$\\sum|A_{{ij}}| = {int(sum(abs(v) for v in A))}$（命題 3.2 の 3）、フロベニウスノルムでは勾配そのものの向きの $\\|A\\|_F \\approx {fix(fro)}$（コーシー・シュワルツの不等式）、スペクトルノルムでは $\\mathrm{{Ortho}}(A)$ の $\\|A\\|_{{*}} \\approx {fix(nuc)}$", 3)
rms_sign = sp.sqrt(sum(v**2 for v in Sg) / 4)
truth("例 3.4 RMS(sign(A)) = sqrt3/2", sp.simplify(rms_sign - s3 / 2) == 0)
check("例 3.4 RMS の下限", f"$\\sqrt3/2 \\approx {fix(rms_sign)}$ で、同じ RMS の行列のスペクトルノルムは ${fix(rms_sign)} \\times \\sqrt2 = \\sqrt{{1.5}} \\approx {fix(sp.sqrt(sp.Rational(3, 2)))}$ 以上", 4)
truth("例 3.4 sqrt3/2 × sqrt2 = sqrt1.5", sp.simplify(rms_sign * s2 - sp.sqrt(sp.Rational(3, 2))) == 0, 0)
check("例 3.4 差の割合", f"$\\mathrm{{sign}}(A)$ のスペクトルノルム {fix(phi)} はそれより約 {fix(100 * (phi / sp.sqrt(sp.Rational(3, 2)) - 1), 2)} % 大きく", 2)

# ======================= 4 節 =======================
check("定義 4.1 係数", "3 次：$(a, b, c) = (3/2, -1/2, 0)$、すなわち $p(x) = (3x - x^3)/2$", 0)
truth("定義 4.1 3 次と 5 次の係数が p の式に一致",
      sp.expand(sum(cf * x**(2 * i + 1) for i, cf in enumerate(COEF["cubic"])) - P3) == 0 and sp.expand(sum(cf * x**(2 * i + 1) for i, cf in enumerate(COEF["quintic"])) - P5) == 0, 0)
# 補題 4.2
ok42 = True
for _ in range(20):
    m, n = rng.integers(2, 7, size=2)
    r = rng.integers(1, min(m, n) + 1)
    U = np.linalg.qr(rng.standard_normal((m, r)))[0]
    V = np.linalg.qr(rng.standard_normal((n, r)))[0]
    dd = rng.standard_normal(r)
    X = U @ np.diag(dd) @ V.T
    for cf in (1.3, -0.7, 0.4), (3.4445, -4.7750, 2.0315):
        pX = cf[0] * X + cf[1] * (X @ X.T) @ X + cf[2] * (X @ X.T) @ (X @ X.T) @ X
        pd = cf[0] * dd + cf[1] * dd**3 + cf[2] * dd**5
        ok42 &= np.abs(pX - U @ np.diag(pd) @ V.T).max() < 1e-10
        ok42 &= np.abs(X @ (X.T @ X) - (X @ X.T) @ X).max() < 1e-12
        pXT = cf[0] * X.T + cf[1] * (X.T @ X) @ X.T + cf[2] * (X.T @ X) @ (X.T @ X) @ X.T
        ok42 &= np.abs(pXT - pX.T).max() < 1e-10
truth("補題 4.2 を乱数で確認", ok42, 0)

# 命題 4.3
truth("命題 4.3 の 1：4 つの恒等式",
      sp.expand(P3 - x - x * (1 - x**2) / 2) == 0 and sp.expand(1 - P3 - (1 - x)**2 * (x + 2) / 2) == 0
      and sp.expand(P5 - x - x * (1 - x**2) * (7 - 3 * x**2) / 8) == 0 and sp.expand(1 - P5 - (1 - x)**3 * (3 * x**2 + 9 * x + 8) / 8) == 0, 4)
truth("命題 4.3 の証明の 3 つの展開",
      sp.expand((1 - x)**2 * (x + 2)) == x**3 - 3 * x + 2 and sp.expand((1 - x**2) * (7 - 3 * x**2)) == 7 - 10 * x**2 + 3 * x**4
      and sp.expand((1 - x)**3 * (3 * x**2 + 9 * x + 8)) == 8 - 15 * x + 10 * x**3 - 3 * x**5, 3)
d3, d5 = sp.diff(P3, x), sp.diff(P5, x)
truth("命題 4.3 の 2：導関数と 0・1 での値",
      sp.expand(d3 - sp.Rational(3, 2) * (1 - x**2)) == 0 and sp.expand(d5 - sp.Rational(15, 8) * (1 - x**2)**2) == 0
      and d3.subs(x, 0) == sp.Rational(3, 2) and d5.subs(x, 0) == sp.Rational(15, 8) and d3.subs(x, 1) == 0 and d5.subs(x, 1) == 0
      and sp.diff(P5, x, 2).subs(x, 1) == 0 and sp.expand(sp.diff(P5, x, 2) + sp.Rational(15, 2) * x * (1 - x**2)) == 0, 6)
truth("命題 4.3 の 3：(x + 2) と 3x^2 + 9x + 8 の [0,1] での最大値は 3 と 20", (x + 2).subs(x, 1) == 3 and (3 * x**2 + 9 * x + 8).subs(x, 1) == 20, 2)
truth("命題 4.3 の 4：1.5x - p3 = x^3/2、15x/8 - p5 = x^3(10 - 3x^2)/8、p3(sqrt3) = 0",
      sp.expand(sp.Rational(3, 2) * x - P3 - x**3 / 2) == 0 and sp.expand(sp.Rational(15, 8) * x - P5 - x**3 * (10 - 3 * x**2) / 8) == 0
      and sp.simplify(P3.subs(x, s3)) == 0 and P3.subs(x, 2) < 0, 3)
okconv = True
for x0 in [1e-6, 0.01, 0.3, 0.9, 1.0, 1.2, 1.7]:
    for name in ("cubic", "quintic"):
        if name == "quintic" and x0 > 1:
            continue
        vals = [mpmath.mpf(x0)] + [it(name, x0, k) for k in range(1, 80)]
        okconv &= all(0 < vals[k] <= vals[k + 1] <= 1 for k in range(1, 79)) and abs(vals[-1] - 1) < 1e-30
        for k in range(1, 78):
            e0, e1 = 1 - vals[k], 1 - vals[k + 1]
            okconv &= e1 <= (mpmath.mpf(3) / 2 * e0**2 if name == "cubic" else mpmath.mpf(5) / 2 * e0**3) + mpmath.mpf(10) ** -50
truth("命題 4.3 の 3：単調な収束と誤差の評価を数値で確認", okconv, 0)
l15, l1875 = math.log(500) / math.log(1.5), math.log(500) / math.log(1.875)
check("4 節 3 次の必要回数", f"3 次で $\\log 500/\\log 1.5 \\approx {l15:.2f}$、すなわち {math.ceil(l15)} 回以上", 2)
check("4 節 5 次の必要回数", f"5 次で $\\log 500/\\log 1.875 \\approx {sig(l1875, 4)}$、すなわち {math.ceil(l1875)} 回以上", 2)
truth("4 節 1/(2 × 10^-3) = 500、15/8 = 1.875", Fraction(1, 2) / Fraction(1, 1000) == 500 and Fraction(15, 8) == Fraction("1.875"), 0)

# 命題 4.4
check("命題 4.4 の 1：p'(0)、p(1)", f"$p'(0) = {dstr(a_J)}$、$p(1) = a + b + c = {dstr(a_J + b_J + c_J)}$", 2)
truth("命題 4.4 p'(0) = a", dPJ.subs(x, 0) == a_J, 0)
check("命題 4.4 不動点", f"$x_1^{{*}} \\approx {fix(xs_fix[0])}$ と $x_2^{{*}} \\approx {fix(xs_fix[1])}$ の 2 つで、$p'(x_1^{{*}}) \\approx {fix(dPJ.subs(x, xs_fix[0]))}$、$p'(x_2^{{*}}) \\approx {fix(dPJ.subs(x, xs_fix[1]))}$", 4)
truth("命題 4.4 不動点は p(x) = x を満たし、正の不動点はこの 2 つだけ",
      all(abs(sp.N(PJ.subs(x, r) - r, 40)) < 1e-35 for r in xs_fix)
      and len([r for r in sp.Poly(PJ - x, x).nroots(n=30) if abs(sp.im(r)) < 1e-20 and sp.re(r) > 1e-20]) == 2
      and all(abs(sp.N(dPJ.subs(x, r))) > 1 for r in xs_fix), 2)
disc_fix = b_J**2 - 4 * c_J * (a_J - 1)
check("命題 4.4 不動点の判別式", f"$b^2 - 4c(a - 1) = {b_J**2:.6f} - {4 * c_J * (a_J - 1):.6f} = {disc_fix:.6f} > 0$".replace(".000000", ""), 3)
truth("命題 4.4 その値は正確（有限小数）", (b_J**2 * 10**6).is_integer and (4 * c_J * (a_J - 1) * 10**6).is_integer and (disc_fix * 10**6).is_integer, 0)
check("命題 4.4 不動点の y", f"2 つの根 $y \\approx {fix(ys_fix[0])}$、${fix(ys_fix[1])}$", 2)
check("命題 4.4 の 2：b^2 - 4ac", f"$b^2 - 4ac \\approx {fix(b_J**2 - 4 * a_J * c_J)} < 0$")
check("命題 4.4 の 2：b^2 - 4ac の内訳", f"判別式 $b^2 - 4ac = {b_J**2:.6f} - {4 * a_J * c_J:.6f} < 0$", 2)
truth("命題 4.4 q > 0（c > 0、判別式 < 0）", c_J > 0 and b_J**2 - 4 * a_J * c_J < 0, 0)
check("命題 4.4 p' の判別式", f"判別式 $9b^2 - 20ac = {9 * b_J**2:.6f} - {20 * a_J * c_J:.6f} = {dstr(9 * b_J**2 - 20 * a_J * c_J)} > 0$", 3)
check("命題 4.4 p' の根 y", f"根は $y \\approx {fix(ys_crit[0])}$、${fix(ys_crit[1])}$", 2)
check("命題 4.4 ξ1, ξ2", f"$\\xi_1 \\approx {fix(xi1)}$ と $\\xi_2 \\approx {fix(xi2)}$", 2)
truth("命題 4.4 p' の符号は正・負・正", sp.N(dPJ.subs(x, xi1 / 2)) > 0 and sp.N(dPJ.subs(x, (xi1 + xi2) / 2)) < 0 and sp.N(dPJ.subs(x, xi2 + 1)) > 0, 0)
check("命題 4.4 θ±", f"$\\theta_+ := p(\\xi_1) \\approx {fix(theta_p)}$、$\\theta_- := p(\\xi_2) \\approx {fix(theta_m)}$", 2)
check("命題 4.4 の 3：J", f"$J := [\\theta_-, p(\\theta_-)] \\approx [{fix(theta_m)}, {fix(p_theta_m)}]$", 2)
check("命題 4.4 並び", f"（${fix(xi1)} < {fix(theta_m)} < {fix(xi2)} < {fix(p_theta_m)}$）", 4)
truth("命題 4.4 ξ1 < θ- < ξ2 < p(θ-)、ξ2 ≤ θ+", xi1 < theta_m < xi2 < p_theta_m and xi2 <= theta_p)
check("命題 4.4 p(p(θ-))", f"$p(p(\\theta_-)) \\approx {fix(pp_theta_m)} \\le p(\\theta_-)$")
check("命題 4.4 p(θ+)", f"$p(\\theta_+) \\approx {fix(p_theta_p)} < \\theta_+$")
truth("命題 4.4 p(p(θ-)) ≤ p(θ-)、p(θ+) < θ+、p(θ+) ≤ p(θ-)", pp_theta_m <= p_theta_m and p_theta_p < theta_p and p_theta_p <= p_theta_m, 0)
check("命題 4.4 -b/(2c) と θ-^2", f"$y < -b/(2c) \\approx {fix(-b_J / (2 * c_J))}$ で負なので、$x_k^2 < \\theta_-^2 \\approx {fix(theta_m**2)}$", 2)
check("命題 4.4 q(θ-^2)", f"$q(x_k^2) \\ge q(\\theta_-^2) = p(\\theta_-)/\\theta_- \\approx {fix(p_theta_m / theta_m)}$、すなわち $x_{{k+1}} \\ge {fix(p_theta_m / theta_m)}\\,x_k$", 2)
truth("命題 4.4 q(θ-^2) = p(θ-)/θ-、θ-^2 < -b/(2c)", abs(qJ.subs(y, theta_m**2) - p_theta_m / theta_m) < 1e-40 and theta_m**2 < -b_J / (2 * c_J), 0)
# 不変性を、単調な区間ごとの端点の値で確かめ、さらに格子で反復して確かめる
mp_p = F["jordan"]
tm, tp_, ptm = mpmath.mpf(str(theta_m)), mpmath.mpf(str(theta_p)), mpmath.mpf(str(p_theta_m))
grid = [tm + (ptm - tm) * mpmath.mpf(i) / 4000 for i in range(4001)]
truth("命題 4.4 の 3：p(J) ⊆ J（4,001 点の格子）", all(tm - mpmath.mpf(10) ** -40 <= mp_p(g) <= ptm + mpmath.mpf(10) ** -40 for g in grid), 0)
ok44 = True
for i in range(1, 3001):
    v = tp_ * mpmath.mpf(i) / 3000 if i % 3 else mpmath.mpf(10) ** (-8 + 8 * mpmath.mpf(i) / 3000)
    for k in range(200):
        v = mp_p(v)
        ok44 &= 0 < v <= tp_ + mpmath.mpf(10) ** -40
    ok44 &= tm - mpmath.mpf(10) ** -40 <= v <= ptm + mpmath.mpf(10) ** -40
truth("命題 4.4 の 4：(0, θ+] の 3,000 点から 200 回で J に入る", ok44, 0)

# 定理 4.5
check("定理 4.5 の 2：誤差の上界", f"\\max(1 - \\theta_-,\\ p(\\theta_-) - 1) \\approx {fix(1 - theta_m)}$", 1)
check("定理 4.5 の証明", f"= \\max({fix(1 - theta_m)}, {fix(p_theta_m - 1)})$", 2)
ok45 = True
for _ in range(10):
    m, n = rng.integers(3, 12, size=2)
    G = rng.standard_normal((m, n)) @ np.diag(10.0 ** rng.uniform(-2, 0, n))
    U, s, Vt = np.linalg.svd(G, full_matrices=False)
    O = U @ Vt
    for name, cf in COEF.items():
        cff = tuple(float(c) for c in cf)
        Xk = G.T if m > n else G
        Xk = Xk / np.linalg.norm(Xk)
        sh = s / np.linalg.norm(G)
        for k in range(1, 8):
            A_ = Xk @ Xk.T
            Xk = cff[0] * Xk + (cff[1] * A_ + cff[2] * A_ @ A_) @ Xk
            sh = cff[0] * sh + cff[1] * sh**3 + cff[2] * sh**5
            Xm = Xk.T if m > n else Xk
            ok45 &= np.abs(Xm - U @ np.diag(sh) @ Vt).max() < 1e-9
            ok45 &= abs(np.linalg.norm(Xm - O, 2) - np.abs(1 - sh).max()) < 1e-9
truth("定理 4.5 を乱数の行列 10 個・3 つの係数・7 回で確認（X_k = U diag(p^k) V^T と誤差の式）", ok45, 0)

# 例 4.6
hat1, hat2 = 3 * s5 / sp.sqrt(50), 1 / s10
truth("例 4.6 3 sqrt5/sqrt50 = 3/sqrt10", sp.simplify(hat1 - 3 / s10) == 0, 0)
check("例 4.6 σ^", f"$\\hat\\sigma_1 = 3\\sqrt5/\\sqrt{{50}} = 3/\\sqrt{{10}} \\approx {fix(hat1)}$、$\\hat\\sigma_2 = 1/\\sqrt{{10}} \\approx {fix(hat2)}$", 2)
c1 = sp.simplify(P3.subs(x, hat2) / hat2)
c2 = sp.simplify(P3.subs(x, hat1) / hat1)
check("例 4.6 3 次の 1 回目", f"$p(x) = x(3 - 1/10)/2 = \\frac{{{c1.p}}}{{{c1.q}}}x \\approx {fix(P3.subs(x, hat2))}$、$x = 3/\\sqrt{{10}}$ なら $p(x) = x(3 - 9/10)/2 = \\frac{{{c2.p}}}{{{c2.q}}}x \\approx {fix(P3.subs(x, hat1))}$", 6)
qv = a_J + b_J / 10 + c_J / 100
check("例 4.6 Jordan の 1 回目", f"$p(1/\\sqrt{{10}}) = ({dstr(a_J)} - {dstr(-b_J / 10)} + {dstr(c_J / 100)})/\\sqrt{{10}} = {dstr(qv)}/\\sqrt{{10}} \\approx {fix(qv / s10)}$", 5)
truth("例 4.6 p_J(1/sqrt10) の式", sp.simplify(PJ.subs(x, hat2) - qv / s10) == 0, 0)
e5 = 1 - it("cubic", mpmath.mpf(1) / mpmath.sqrt(10), 5)
b5 = mpmath.mpf(3) / 2 * (1 - it("cubic", mpmath.mpf(1) / mpmath.sqrt(10), 4)) ** 2
check("例 4.6 3 次の 5 回目の誤差と上界", f"\\approx {sig(e5)}$ で、命題 4.3 の 3 の上界 $\\frac32(1 - p^4(\\hat\\sigma_2))^2 \\approx {sig(b5)}$ 以下", 2)
truth("例 4.6 誤差 ≤ 上界", e5 <= b5, 0)
H = {nm: [(it(nm, mpmath.mpf(3) / mpmath.sqrt(10), k), it(nm, 1 / mpmath.sqrt(10), k)) for k in range(6)] for nm in COEF}
for k in range(6):
    row = "\t".join([str(k)] + [fix(v) for nm in ("cubic", "quintic", "jordan") for v in H[nm][k]])
    check(f"例 4.6 の表 k = {k} の行", row, 6)
truth("例 4.6 Jordan では 1 回目からどちらの特異値も J の中", all(tm <= v <= ptm for k in range(1, 6) for v in H["jordan"][k]), 0)
check("例 4.6 J", f"1 回目からどちらも $J \\approx [{fix(theta_m)}, {fix(p_theta_m)}]$ の中", 2)

# 例 4.7
X0 = ["1", "0.5", "0.1", "0.01", "0.001", "0.0001"]
five = {nm: [it(nm, mpmath.mpf(v), 5) for v in X0] for nm in COEF}
for i, lab in enumerate(X0):
    check(f"例 4.7 の表 x0 = {lab} の行", "\t".join([lab] + [fix(five[nm][i]) for nm in ("cubic", "quintic", "jordan")]), 3)
kstar = {}
for nm in COEF:
    k, v = 0, mpmath.mpf("0.001")
    while v < mpmath.mpf("0.5"):
        v, k = F[nm](v), k + 1
    kstar[nm] = k
check("例 4.7 の表 k* の行", "$k^{*}$（$10^{-3}$ から 0.5 以上まで）\t" + "\t".join(str(kstar[nm]) for nm in ("cubic", "quintic", "jordan")), 3)
truth("例 4.7 k* は 4 節の下限以上（16 ≥ 15.33、11 ≥ 9.886）", kstar["cubic"] >= l15 and kstar["quintic"] >= l1875, 0)
truth("例 4.7 3 次・5 次は 0.5 以上から 5 回で小数第 4 位まで 1、0.01 以下からは 0.25 未満",
      all(fix(five[nm][i]) == "1.0000" for nm in ("cubic", "quintic") for i in range(2))
      and all(five[nm][i] < 0.25 for nm in ("cubic", "quintic") for i in range(3, 6)), 0)
truth("例 4.7 Jordan は x0 = 1〜0.01 の 4 つを J に運ぶ", all(tm <= five["jordan"][i] <= ptm for i in range(4)) and not (tm <= five["jordan"][4]), 1)
check("例 4.7 0.001 から", f"0.001 でも {fix(five['jordan'][4])} まで持ち上げます")
check("例 4.7 0.25 未満", "0.01 以下から始まる特異値は 5 回では 0.25 未満にとどまります", 0)
bound = mpmath.mpf("1.5") ** 5 * mpmath.mpf("1e-4")
check("例 4.7 1.5^5 × 10^-4", f"$1.5^5 \\times 10^{{-4}} \\approx {sci(bound)}$ 以下", 1)
truth("例 4.7 3 次の 10^-4 からの 5 回は上界以下", five["cubic"][5] <= bound, 0)


def ns_flops(m, n, k, cubic=False, big=False):
    """反復 k 回の行列の積の FLOP を、積の形を 1 つずつ数えて求める（命題 6.1 と独立）。"""
    s_, l_ = (min(m, n), max(m, n)) if not big else (max(m, n), min(m, n))
    mm = lambda p_, q_, r_: 2 * p_ * q_ * r_
    per = mm(s_, l_, s_) + (0 if cubic else mm(s_, s_, s_)) + mm(s_, s_, l_)
    return k * per


per_cubic = sp.Rational(ns_flops(7, 7, 1, cubic=True), 7**3)
per_quint = sp.Rational(ns_flops(7, 7, 1), 7**3)
check("例 4.7 k* 回の合計", f"3 次で ${kstar['cubic']} \\times {per_cubic}n^3 = {kstar['cubic'] * per_cubic}n^3$、5 次で ${kstar['quintic']} \\times {per_quint}n^3 = {kstar['quintic'] * per_quint}n^3$、Jordan の係数で ${kstar['jordan']} \\times {per_quint}n^3 = {kstar['jordan'] * per_quint}n^3$", 9)
check("例 4.7 比", f"（${kstar['quintic'] * per_quint}/{kstar['cubic'] * per_cubic} \\approx {fix(sp.Rational(kstar['quintic'] * per_quint, kstar['cubic'] * per_cubic), 3)}$ 倍）", 3)
check("例 4.7 割合", f"${kstar['jordan'] * per_quint}/{kstar['cubic'] * per_cubic} = {fix(100 * sp.Rational(kstar['jordan'] * per_quint, kstar['cubic'] * per_cubic), 2)}\\,\\%$", 3)
check("例 4.7 1 回が 1.5 倍", f"5 次は 1 回が {float(per_quint / per_cubic)} 倍高い", 1)

# ======================= 5 節 =======================
mm_, nn_ = sp.symbols("m n", positive=True)
sJ_ge, sJ_lt = sp.sqrt(mm_ / nn_), sp.Integer(1)     # m >= n と m < n の場合の s_J
truth("命題 5.2 の 2：m ≥ n で RMS = 1/sqrt n、RMS→RMS = 1", sp.simplify(sJ_ge / sp.sqrt(mm_) - 1 / sp.sqrt(nn_)) == 0 and sp.simplify(sJ_ge * sp.sqrt(nn_ / mm_) - 1) == 0, 2)
truth("命題 5.2 の 2：m < n で RMS = 1/sqrt n、RMS→RMS = sqrt(n/m)", sp.simplify(sJ_lt / sp.sqrt(nn_) - 1 / sp.sqrt(nn_)) == 0, 2)
ok52 = True
for (m, n) in [(12, 3), (3, 12), (8, 8), (9, 4), (4, 9)]:
    G = rng.standard_normal((m, n))
    U, s, Vt = np.linalg.svd(G, full_matrices=False)
    O = U @ Vt
    rmsO = np.sqrt(np.mean(O**2))
    rr = lambda Z: np.sqrt(n / m) * np.linalg.norm(Z, 2)
    sJ, sB, sM = math.sqrt(max(1, m / n)), math.sqrt(m / n), 0.2 * math.sqrt(max(m, n))
    ok52 &= abs(rmsO - 1 / math.sqrt(max(m, n))) < 1e-12 and abs(rr(O) - math.sqrt(n / m)) < 1e-12
    ok52 &= abs(np.sqrt(np.mean((sJ * O) ** 2)) - 1 / math.sqrt(n)) < 1e-12 and abs(rr(sJ * O) - max(1, math.sqrt(n / m))) < 1e-12
    ok52 &= abs(rr(sB * O) - 1) < 1e-12 and abs(np.sqrt(np.mean((sM * O) ** 2)) - 0.2) < 1e-12
    xs = rng.standard_normal((n, 2000))
    ok52 &= (np.linalg.norm(O @ xs, axis=0) / math.sqrt(m) / (np.linalg.norm(xs, axis=0) / math.sqrt(n))).max() <= math.sqrt(n / m) + 1e-12
    D = rng.standard_normal((m, n))
    D *= math.sqrt(m / n) / np.linalg.norm(D, 2)            # RMS→RMS ノルム 1
    ok52 &= np.sum(G * D) <= np.sum(G * sB * O) + 1e-12
truth("命題 5.2 の 1〜3 と s_B の最大化を 5 つの形で確認", ok52, 0)
check("命題 5.2 の後の段落", f"RMS が正確な直交化の ${fix(theta_m)}$ 倍から ${fix(p_theta_m)}$ 倍の範囲", 2)
check("定義 5.1 の係数", "$s_{\\mathrm{J}} := \\sqrt{\\max(1, m/n)}$、$s_{\\mathrm{B}} := \\sqrt{m/n}$、$s_{\\mathrm{M}} := 0.2\\sqrt{\\max(m, n)}$", 0)
beta = sp.symbols("beta", positive=True)
Gt, Mp = sp.symbols("G_t Mp")
truth("定義 5.1 の後：M_t = (1-β)M'_t なら N_t = (1-β)(G_t + β M'_t)", sp.expand((1 - beta) * Gt + beta * (1 - beta) * Mp - (1 - beta) * (Gt + beta * Mp)) == 0, 0)

# 例 5.3
check("例 5.3 2 つの構成", f"$d = 768$、$d_{{\\mathrm{{ff}}}} = {4 * 768}$（例 5.3［Transformer ブロック］ の構成）と、$d = 4096$、$d_{{\\mathrm{{ff}}}} = {cm(11008)}$ の構成", 0)
shapes = [("注意の射影 $W_Q$", 768, 768), ("Q・K・V をまとめた射影", 2304, 768), ("MLP の拡大", 3072, 768),
          ("MLP の縮小", 768, 3072), ("MLP の拡大", 11008, 4096), ("MLP の縮小", 4096, 11008)]
for lab, m, n in shapes:
    rmsO = 1 / sp.sqrt(max(m, n))
    sJ = sp.sqrt(sp.Max(1, sp.Rational(m, n)))
    rmsJ = sJ * rmsO
    rrJ = sJ * sp.sqrt(sp.Rational(n, m))
    sM = sp.Rational(1, 5) * sp.sqrt(max(m, n))
    truth(f"例 5.3 {m}×{n}: RMS(s_J O) = 1/sqrt n", sp.simplify(rmsJ - 1 / sp.sqrt(n)) == 0, 0)
    row = "\t".join([lab, f"{m} × {n}", num_or_sig(rmsO), num_or_sig(sJ), num_or_sig(rmsJ), num_or_sig(rrJ), num_or_sig(sM)])
    check(f"例 5.3 の表 {m} × {n} の行", row, 5)
n768 = sum(1 for _, m, n in shapes if n == 768)
check("例 5.3 入力 768 の行列の数", f"入力の次元が 768 の {n768} つの行列は RMS が同じ $1/\\sqrt{{768}} \\approx {sig(1 / sp.sqrt(768))}$", 2)
check("例 5.3 縮小の行列", f"縮小の行列（入力 {cp(3072)}）はその半分の $1/\\sqrt{{3072}} \\approx {sig(1 / sp.sqrt(3072))}$ です（$\\sqrt{{3072/768}} = {sp.sqrt(sp.Rational(3072, 768))}$）", 4)
check("例 5.3 s_M の例", f"$0.2\\sqrt{{3072}} = 0.2 \\times {fix(sp.sqrt(3072))} \\approx {sig(sp.sqrt(3072) / 5)}$", 2)
sMs = [sp.sqrt(max(m, n)) / 5 for _, m, n in shapes]
check("例 5.3 倍率の範囲", f"行列によって {sig(min(sMs, key=float))} から {sig(max(sMs, key=float))} まで変わり", 2)
truth("例 5.3 RMS→RMS は出力 ≥ 入力で 1、縮小で sqrt(n/m)", all((sp.sqrt(sp.Max(1, sp.Rational(m, n))) * sp.sqrt(sp.Rational(n, m)) == 1) == (m >= n) for _, m, n in shapes), 0)
truth("例 5.3 / 演習 9.2 s_M/s_J = 0.2 sqrt n（6 つの形）", all(sp.simplify(sp.sqrt(max(m, n)) / 5 / sp.sqrt(sp.Max(1, sp.Rational(m, n))) - sp.sqrt(n) / 5) == 0 for _, m, n in shapes), 0)

# ======================= 6 節 =======================
s_, l_, k_, B_ = sp.symbols("s l k B", positive=True)
okf = True
for (m, n) in [(5, 9), (9, 5), (7, 7), (3072, 768), (768, 3072)]:
    s, l = min(m, n), max(m, n)
    for k in (1, 5):
        okf &= ns_flops(m, n, k) == k * (4 * s * s * l + 2 * s**3)
        okf &= ns_flops(m, n, k, cubic=True) == k * 4 * s * s * l
        okf &= ns_flops(m, n, k, big=True) == k * (4 * l * l * s + 2 * l**3)
truth("命題 6.1 の 1：積の形を数えた FLOP が式に一致（5 つの形、k = 1, 5、3 通り）", okf, 3)
check("命題 6.1 の 1：スカラー演算", "スカラー倍と加算は $3s^2 + 2s\\ell$ FLOP", 0)
truth("命題 6.1 の 2：比の式の約分と上界", sp.simplify(k_ * (4 * s_**2 * l_ + 2 * s_**3) / (6 * B_ * s_ * l_) - k_ / B_ * (2 * s_ / 3 + s_**2 / (3 * l_))) == 0
      and sp.simplify((k_ / B_ * (2 * s_ / 3 + s_**2 / (3 * s_))) - k_ * s_ / B_) == 0, 2)
train = lambda m, n, Bt: 2 * Bt * n * m + 2 * Bt * m * n + 2 * m * Bt * n
truth("命題 6.1 の 2：学習の 3 つの積で 6Bmn", all(train(m, n, 17) == 6 * 17 * m * n for m, n in [(3, 5), (768, 3072)]), 0)
c768 = 768**3
check("6 節 768 の例", f"$5 \\times (4 \\times 768^2 \\times 768 + 2 \\times 768^3) = {5 * 6} \\times 768^3 = {5 * 6} \\times {cm(c768)} = {cm(ns_flops(768, 768, 5))}$ FLOP", 4)
truth("6 節 5 × (4 + 2) = 30", 5 * (4 + 2) == 30 and ns_flops(768, 768, 5) == 30 * c768, 0)
big1, small1 = ns_flops(3072, 768, 1, big=True), ns_flops(3072, 768, 1)
check("6 節 大きいグラム行列", f"$4 \\times 3072^2 \\times 768 + 2 \\times 3072^3 = {cm(big1)}$ FLOP で、小さいほうの $4 \\times 768^2 \\times 3072 + 2 \\times 768^3 = {cm(small1)}$ FLOP の ${sp.Rational(big1, small1)} \\approx {fix(sp.Rational(big1, small1), 2)}$ 倍", 4)
mS, nS = sp.symbols("m n", positive=True)
truth("6 節 Golub–Reinsch と R-SVD に積 2mn^2 を加えた式（m = ℓ, n = s）",
      sp.expand(14 * mS * nS**2 + 8 * nS**3 + 2 * mS * nS**2 - (16 * mS * nS**2 + 8 * nS**3)) == 0
      and sp.expand(6 * mS * nS**2 + 20 * nS**3 + 2 * mS * nS**2 - (8 * mS * nS**2 + 20 * nS**3)) == 0, 2)
check("6 節 SVD の見積もり", "Golub–Reinsch 法で $14mn^2 + 8n^3$、R-SVD で $6mn^2 + 20n^3$ FLOP", 0)
truth("6 節 5 回の反復 20ℓs^2 + 10s^3 は 16ℓs^2 + 8s^3 のちょうど 5/4 倍", sp.simplify((20 * l_ * s_**2 + 10 * s_**3) / (16 * l_ * s_**2 + 8 * s_**3)) == sp.Rational(5, 4)
      and sp.expand(5 * (4 * s_**2 * l_ + 2 * s_**3) - (20 * l_ * s_**2 + 10 * s_**3)) == 0, 1)
check("6 節 5/4", f"ちょうど $5/4 = {float(sp.Rational(5, 4))}$ 倍です", 1)
Btok = 2**20
check("例 6.2 B", f"$B = 2^{{20}} = {cm(Btok)}$ トークン")
gr = lambda s, l: 16 * l * s * s + 8 * s**3
rs = lambda s, l: 8 * l * s * s + 20 * s**3
ratios_rs = []
for (m, n) in [(768, 768), (3072, 768), (4096, 4096), (11008, 4096)]:
    s, l = min(m, n), max(m, n)
    ns5 = ns_flops(m, n, 5)
    frac_gr = Fraction(ns5, gr(s, l))
    ratios_rs.append(Fraction(ns5, rs(s, l)))
    row = "\t".join([f"{m} × {n}", f"${sci(ns5)}$", f"${sci(gr(s, l))}$", f"${sci(rs(s, l))}$", f"{float(frac_gr)}",
                     sig(Fraction(ns5, rs(s, l))), sig(Fraction(100 * ns5, train(m, n, Btok))) + " %"])
    check(f"例 6.2 の表 {m} × {n} の行", row, 6)
    truth(f"例 6.2 {m} × {n}: 反復 / Golub–Reinsch はちょうど 5/4", frac_gr == Fraction(5, 4), 0)
truth("例 6.2 反復は特異値分解より多いが 2 倍未満（1 < 比 < 2）", all(1 < float(r) < 2 for r in ratios_rs), 0)
check("例 6.2 768 の比", f"$5 \\times 768/{cm(Btok)} = {cm(5 * 768)}/{cm(Btok)} \\approx {fix(Fraction(100 * 5 * 768, Btok))}\\,\\%$", 3)
truth("例 6.2 正方行列では命題 6.1 の 2 の上界 ks/B に一致", Fraction(ns_flops(768, 768, 5), train(768, 768, Btok)) == Fraction(5 * 768, Btok), 0)
check("例 6.2 4096 の比", f"$5 \\times 4096/2^{{20}} \\approx {sig(Fraction(100 * 5 * 4096, Btok))}\\,\\%$", 1)

# ======================= 7 節：リスティング =======================
code = open(os.path.join(HERE, "muon_ns.py"), encoding="utf-8").read().rstrip("\n")
pos = TEXT.find(code)
block = TEXT[pos + len(code):].lstrip("\n").split("\n\n")[0] if pos >= 0 else None
run = subprocess.run([sys.executable, "muon_ns.py"], cwd=HERE, capture_output=True, text=True)
out = run.stdout.rstrip("\n")
truth("リスティング muon_ns.py：本文のコードがファイルと同一", pos >= 0, 0)
truth(f"リスティング muon_ns.py：実行結果が本文の出力 {len(out.splitlines())} 行と一致", run.returncode == 0 and out == block, 0)
L = out.splitlines()
# 1〜3 行目を、高精度の反復から独立に組み立てる
for i, nm in enumerate(("cubic", "quintic", "jordan")):
    exp = f"{nm:8s} k*={kstar[nm]:2d} " + " ".join(fix(v) for v in five[nm]) + " | " + " ".join(fix(v) for k in range(6) for v in H[nm][k])
    truth(f"出力 {i + 1} 行目（{nm}）を高精度の計算から再現", L[i] == exp, 0)
truth("出力 4 行目 Ortho(A) を厳密な値から再現", L[3] == "Ortho(A) = [[" + ", ".join(fix(O_A[0, j]) for j in range(2)) + "], [" + ", ".join(fix(O_A[1, j]) for j in range(2)) + "]]", 0)
rng0 = np.random.default_rng(0)
G = rng0.standard_normal((256, 4)) @ rng0.standard_normal((4, 64)) + 0.1 * rng0.standard_normal((256, 64))
sv = np.linalg.svd(G, compute_uv=False)
shat = sv / np.linalg.norm(G)
truth("出力 5 行目 σ^ の最大・最小", L[4] == f"sigma_hat: max {shat[0]:.4f}  min {shat[-1]:.4f}", 0)
pred = {}
for i, nm in enumerate(("cubic", "quintic", "jordan")):
    cff = tuple(float(c) for c in COEF[nm])
    parts = []
    for k in (5, 10):
        v = shat.copy()
        for _ in range(k):
            v = cff[0] * v + cff[1] * v**3 + cff[2] * v**5
        pred[nm, k] = (v.min(), v.max(), np.abs(1 - v).max())
        parts.append(f"k={k:2d}: [{v.min():.4f}, {v.max():.4f}] err {np.abs(1 - v).max():.4f}")
    truth(f"出力 {6 + i} 行目（{nm}）を特異値の反復（定理 4.5）から再現", L[5 + i] == f"{nm:8s} " + "   ".join(parts), 0)
S = np.sign(G)
truth("出力 9〜10 行目を再現（RMS 1、直交化のスペクトルノルム 16、<G,O> = 核ノルム）",
      L[8] == f"RMS {1:.4f} {np.sqrt(np.mean(S**2)):.4f}  spectral {16:.4f} {np.linalg.norm(S, 2):.4f}"
      and L[9] == f"<G,D>/||D||_2 {sv.sum():.4f} {np.sum(G * S) / np.linalg.norm(S, 2):.4f}  nuclear {sv.sum():.4f}", 0)
check("7 節 k*", f"$k^{{*}}$（{kstar['cubic']}、{kstar['quintic']}、{kstar['jordan']}）", 3)
check("7 節 σ^", f"$\\hat\\sigma_1 \\approx {shat[0]:.4f}$、$\\hat\\sigma_r \\approx {shat[-1]:.4f}$", 2)
check("例 4.7 の本文の σ^_r", f"$\\hat\\sigma_r \\approx {shat[-1]:.4f}$ です）", 1)
check("7 節 3 次と 5 次の 10 回", f"3 次では 10 回でも {pred['cubic', 10][0]:.4f} までしか届かず、5 次は 10 回で {pred['quintic', 10][0]:.4f} に達します", 2)
check("7 節 Jordan の範囲", f"$(0, \\theta_+] \\approx (0, {fix(theta_p)}]$ の中の $[{pred['jordan', 5][0]:.4f}, {pred['jordan', 5][1]:.4f}]$ に、10 回で $J \\approx [{fix(theta_m)}, {fix(p_theta_m)}]$ の中に入り、誤差は $1 - \\theta_- \\approx {fix(1 - theta_m)}$", 6)
truth("7 節 5 回後の範囲は (0, θ+] に、10 回後は J に含まれる",
      0 < pred["jordan", 5][0] and pred["jordan", 5][1] <= float(theta_p) and float(theta_m) <= pred["jordan", 10][0] and pred["jordan", 10][1] <= float(p_theta_m), 0)
spec_sign = np.linalg.norm(S, 2)
check("7 節 スペクトルノルム", f"16（命題 3.3 の下限）と約 {spec_sign:.2f} で、後者は約 {spec_sign / 16:.3f} 倍", 3)
truth("7 節 16 = sqrt(max(256, 64))", math.isqrt(max(256, 64)) == 16 and 16**2 == 256, 0)
check("7 節 核ノルムと割合", f"直交化が核ノルム {sv.sum():.4f} に等しく（命題 3.1）、$\\mathrm{{sign}}(G)$ はその約 {100 * np.sum(G * S) / spec_sign / sv.sum():.2f} %", 2)

# ======================= 9 節：演習 =======================
Gd = sp.diag(4, 1)
check("演習 9.1 ノルム", f"$\\|G\\|_{{*}} = {sum(Gd.diagonal())}$、$\\|G\\|_F = \\sqrt{{{sum(v**2 for v in Gd)}}} \\approx {fix(s17)}$", 3)
check("演習 9.1 X_0 の特異値", f"$4/\\sqrt{{17}} \\approx {fix(4 / s17)}$ と $1/\\sqrt{{17}} \\approx {fix(1 / s17)}$", 2)
r1 = sp.simplify(P3.subs(x, 4 / s17) / (4 / s17))
r2 = sp.simplify(P3.subs(x, 1 / s17) / (1 / s17))
v1_, v2_ = sp.simplify(P3.subs(x, 4 / s17)), sp.simplify(P3.subs(x, 1 / s17))
truth("演習 9.1 p(4/sqrt17) = 70/(17 sqrt17)、p(1/sqrt17) = 25/(17 sqrt17)", sp.simplify(v1_ - 70 / (17 * s17)) == 0 and sp.simplify(v2_ - 25 / (17 * s17)) == 0 and r1 == sp.Rational(35, 34) and r2 == sp.Rational(25, 17), 0)
check("演習 9.1 3 次の 1 回目", f"$p(x) = x(3 - 16/17)/2 = \\frac{{{r1.p}}}{{{r1.q}}}x = \\frac{{70}}{{17\\sqrt{{17}}}} \\approx {fix(v1_)}$、$x = 1/\\sqrt{{17}}$ なら $p(x) = x(3 - 1/17)/2 = \\frac{{{r2.p}}}{{{r2.q}}}x = \\frac{{25}}{{17\\sqrt{{17}}}} \\approx {fix(v2_)}$", 6)
check("演習 9.1 誤差", f"$\\|X_1 - I\\|_2 = 1 - {fix(v2_)} = {fix(1 - sp.Rational(fix(v2_)))}$", 2)
Xd = np.diag([4.0, 1.0]) / math.sqrt(17)
Xd = 1.5 * Xd - 0.5 * Xd @ Xd.T @ Xd
truth("演習 9.1 行列の反復で確認", abs(np.linalg.norm(Xd - np.eye(2), 2) - float(1 - v2_)) < 1e-12 and fix(1 - v2_) == fix(1 - sp.Rational(fix(v2_))), 0)
check("演習 9.2 3072×768", f"$3072 \\times 768$ では RMS が $1/\\sqrt{{768}} \\approx {sig(1 / sp.sqrt(768))}$、$s_{{\\mathrm{{M}}}}/s_{{\\mathrm{{J}}}} = 0.2\\sqrt{{768}} \\approx {sig(sp.sqrt(768) / 5)}$", 2)
check("演習 9.2 768×3072", f"$768 \\times 3072$ では RMS が $1/\\sqrt{{3072}} \\approx {sig(1 / sp.sqrt(3072))}$、$s_{{\\mathrm{{M}}}}/s_{{\\mathrm{{J}}}} = 0.2\\sqrt{{3072}} \\approx {sig(sp.sqrt(3072) / 5)}$", 2)

# ======================= 網羅性：本文の小数と 3 桁区切りの整数がどこかで照合されたか =======================
prose = TEXT.split("参考文献")[0]
if pos >= 0:
    prose = prose.replace(code, "").replace(block, "")
prose = re.sub(r"(命題|定理|例|定義|補題|演習|系|図) \d+\.\d+(\.\d+)?", "", prose)      # 要素の番号は数値ではない
nums = set(re.findall(r"(?<![\w.])-?\d+\.\d+", prose)) | set(re.findall(r"\d{1,3}(?:\{,\}\d{3})+|\d{1,3}(?:,\d{3})+", prose))
quoted = {"3.4445", "-4.7750", "2.0315", "0.2", "0.95", "0.5", "1.5", "0.25", "0.1", "0.01", "0.001", "0.0001", "1.875"}   # 定義として与えた値と表の見出しの値
joined = "\n".join(MATCHED)
missing = sorted(n for n in nums if n not in quoted and n not in joined)
truth(f"網羅性：本文の小数・区切りつき整数 {len(nums)} 種がすべて照合済み" + (f"（未照合: {missing}）" if missing else ""), not missing, 0)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

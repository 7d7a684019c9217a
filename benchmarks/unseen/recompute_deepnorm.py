"""deepnorm.txt（第 36 章）の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）か、本文が述べた性質を確かめる（truth）。表は行ごとに
読み、各セルをその位置で照合する。命題は記号計算か乱数の点で確かめる。本文の
リスティングを実行し、出力が本文の出力と一字一句一致することも確かめる。最後に、
本文（リスティングと参考文献を除く）に現れる小数・4 桁以上の数・3 桁区切りの数が
すべてどれかの照合済みの文字列に含まれていることを確かめる。1 つでも失敗すれば終了コード 1。
"""
import os
import re
import subprocess
import sys
from fractions import Fraction
from math import exp, log, log10, sqrt

import mpmath
import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "deepnorm.txt"), encoding="utf-8").read()
mpmath.mp.dps = 40

checked = 0
failures = 0
covered = []          # 照合に成功した文字列（数値の網羅性の検査に使う）


def check(label, expected, count=1):
    global checked, failures
    ok = expected in TEXT
    checked += count
    if ok:
        covered.append(expected)
    else:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


def cell(label, got, expected):
    """表のセル 1 つの照合。"""
    global checked, failures
    checked += 1
    ok = got == expected
    if ok:
        covered.append(got)
    else:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[1] {label}: 本文 {got!r} / 計算 {expected!r}")


def cm(n):
    """数式中の 3 桁区切り 2{,}000。"""
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    """本文中の 3 桁区切り 2,000。"""
    return f"{n:,}"


def f(x, d):
    """小数第 d 位に丸めた固定小数点表記（mpmath の値も受け付ける）。"""
    return f"{float(x):.{d}f}"


def sig(x, s):
    """有効数字 s 桁の固定小数点表記（0.001277 など）。"""
    x = mpmath.mpf(x)
    e = int(mpmath.floor(mpmath.log10(abs(x))))
    return f"{float(x):.{max(s - 1 - e, 0)}f}"


def sci(x, s):
    """有効数字 s 桁の指数表記 1.631 \\times 10^{-6}（mpmath で 10^{-121} も扱う）。"""
    x = mpmath.mpf(x)
    e = int(mpmath.floor(mpmath.log10(abs(x))))
    m = x / mpmath.mpf(10) ** e
    ms = f"{float(m):.{s - 1}f}"
    if ms.startswith("10"):
        e += 1
        ms = f"{float(m / 10):.{s - 1}f}"
    return f"{ms} \\times 10^{{{e}}}"


def exact_dec(q):
    """有限小数で表せる分数を末尾の 0 なしで書く（8.68、641）。"""
    q = Fraction(q)
    s = f"{float(q):.10f}".rstrip("0").rstrip(".")
    assert Fraction(s) == q
    return s


def table_rows(caption_prefix):
    """「表 36.x（」で始まる行の次の見出し行と、データ行（タブ区切り）を返す。"""
    lines = TEXT.split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith(caption_prefix))
    header = lines[i + 1].split("\t")
    rows = []
    for l in lines[i + 2:]:
        if not l.strip():
            break
        rows.append(l.split("\t"))
    return lines[i], header, rows


# ======================= リスティングの実行 =======================
def printed_output(code_file):
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    return code, rest.split("\n\n")[0]


env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
code, block = printed_output("residual_variance.py")
run = subprocess.run([sys.executable, "residual_variance.py"], cwd=HERE, capture_output=True, text=True, env=env)
OUT = run.stdout.rstrip("\n").splitlines()
truth(f"リスティング residual_variance.py：本文のコードと同一で、実行結果が本文の出力 {len(OUT)} 行と一字一句一致",
      code is not None and run.returncode == 0 and run.stdout.rstrip("\n") == block)
truth("リスティングは 60 行以下", len(code.splitlines()) <= 60 if code else False)

# ======================= 基本の量 =======================
V = Fraction(8, 25)                          # 例 36.3 の v
NS = (12, 24, 48, 96, 1000)
d_ = sp.symbols("d", positive=True)
sU2 = 2 / (d_ + 4 * d_)
v_sym = sp.simplify(4 * d_ * sU2 * d_ * sU2 / 2)
truth(f"例 36.3 v = m s_W^2 d s_U^2 / 2 = {v_sym}（d に依らない）", v_sym == sp.Rational(8, 25))
z, tau = sp.symbols("z tau", positive=True)
relu2 = sp.integrate(z ** 2 * sp.exp(-z ** 2 / (2 * tau ** 2)) / (sp.sqrt(2 * sp.pi) * tau), (z, 0, sp.oo))
truth("例 36.3 z ~ N(0, τ^2) で E[ReLU(z)^2] = τ^2/2（記号積分）", sp.simplify(relu2 - tau ** 2 / 2) == 0)

# ======================= 36.0 要点 =======================
check("要点 v = 8/25 = 0.32", f"$v = 8/25 = {exact_dec(V)}$", 2)
check("要点 N = 1000 の q", f"$N = {cm(1000)}$ ブロック（$K = {cm(2000)}$）では $1 + 0.32 \\times {cm(2000)} = {exact_dec(1 + V * 2000)}$", 3)
check("要点 2N × v/(2N) = v", "$2N \\times v/(2N) = v$")
post = {N: mpmath.mpf("1.32") ** (-N) for N in NS}
check("要点 Post-LN の係数", f"$N = 12$ で $1.32^{{-12}} \\approx {sig(post[12], 4)}$、$N = {cm(1000)}$ で約 ${sci(post[1000], 4)}$", 2)


def ab_enc(N):
    return mpmath.mpf(2 * N) ** mpmath.mpf("0.25"), mpmath.mpf(8 * N) ** mpmath.mpf("-0.25")


deep = {}
for N in NS:
    a, b = ab_enc(N)
    deep[N] = (1 + mpmath.mpf("0.32") * b ** 4 / a ** 2) ** (-N)
check("要点 DeepNorm の係数", f"$N = 12$ で約 {f(deep[12], 5)}、$N = {cm(1000)}$ で約 {f(deep[1000], 5)} です（表 36.3）", 2)
check("要点 Post-LN の B", f"Post-LN で $4N$（$N = {cm(1000)}$ で {cp(4 * 1000)}）、DeepNorm の値ではちょうど 1 です", 2)

# ======================= 36.1 =======================
check("36.1 1,000 層 = 2,500 副層", f"$2 \\times 500 + 3 \\times 500 = {cm(2 * 500 + 3 * 500)}$", 1)
check("36.1 エンコーダ 500・デコーダ 500 で計 1,000 層", f"エンコーダ 500 層・デコーダ 500 層、計 {cp(500 + 500)} 層")
check("要点 DeepNet は 1,000 層", f"DeepNet は {cp(1000)} 層まで")
truth("36.1 N + M = 1000、2N + 3M = 2500 の解は N = M = 500", [(n, 1000 - n) for n in range(1001) if 2 * n + 3 * (1000 - n) == 2500] == [(500, 500)])

# ======================= 命題 36.2：乱数で確かめる =======================
rng = np.random.default_rng(2024)


def ln(X):
    return (X - X.mean(axis=-1, keepdims=True)) / X.std(axis=-1, keepdims=True)


dd, mm, S, KK = 6, 10, 40000, 3
X = rng.standard_normal((S, dd)) * 1.5 + 0.3           # q_0 = 1.5^2 + 0.3^2 = 2.34
q = [float((X ** 2).mean())]
sW, sU = 0.7, 0.9
for k in range(KK):
    U = rng.standard_normal((S, dd, mm)) * sU
    W = rng.standard_normal((S, mm, dd)) * sW
    H = np.maximum(np.einsum("sd,sdm->sm", ln(X), U), 0)
    X = X + np.einsum("sm,smd->sd", H, W)
    q.append(float((X ** 2).mean()))
vk = mm * sW ** 2 * (dd * sU ** 2 / 2)                  # v = m s_W^2 κ、κ = d s_U^2 / 2
inc = np.diff(q)
truth(f"命題 36.2 の 2：増分 q_k - q_(k-1) = {np.round(inc, 3)} が v = {vk:.3f} に 3 % 以内（4 万個の標本）",
      all(abs(i / vk - 1) < 0.03 for i in inc), KK)
X = rng.standard_normal((S, dd))
q1 = [float((X ** 2).mean())]
for k in range(2):
    W = rng.standard_normal((S, dd, dd)) * sW
    X = X + np.einsum("sd,sde->se", X, W)
    q1.append(float((X ** 2).mean()))
truth("36.2 正規化なしの 1 次の枝では q_k = (1 + d s^2) q_(k-1)（乱数、5 % 以内）",
      all(abs(q1[k + 1] / q1[k] / (1 + dd * sW ** 2) - 1) < 0.05 for k in range(2)), 2)
check("36.2 正規化なしの掛け算", f"$ds_k^2 = 0.32$、24 個の枝なら $1.32^{{24}} \\approx {f(mpmath.mpf('1.32') ** 24, 1)}$ 倍")

# ======================= 例 36.3 =======================
check("例 36.3 Xavier の分散 2/(5d)", "$m = 4d$ では両方の行列で $2/(5d)$")
dsu2 = Fraction(4 * 2, 5 * 4) * 1           # d s_U^2 = d · 2/(5d) = 2/5
dsu2 = Fraction(2, 5)
kap = dsu2 / 2
msw2 = 4 * Fraction(2, 5)
check("例 36.3 κ と m s_W^2", f"$ds_U^2 = {exact_dec(dsu2)}$、$\\kappa = {exact_dec(kap)}$、$ms_W^2 = {exact_dec(msw2)}$ で、$v = {exact_dec(msw2)} \\times {exact_dec(kap)} = {exact_dec(msw2 * kap)} = 8/25$", 5)
truth("例 36.3 v = 1.6 × 0.2 = 8/25", msw2 * kap == V)
check("例 36.3 d = 768 の標準偏差", f"$\\sqrt{{2/{cm(5 * 768)}}} \\approx {f(sqrt(2 / (5 * 768)), 5)}$", 2)
s2 = Fraction(2, 100) ** 2
check("例 36.3 0.02 での d s^2", f"$ds^2 = 768 \\times {exact_dec(s2)} = {exact_dec(768 * s2)}$", 2)
check("例 36.3 0.02 での κ と m s^2", f"$\\kappa = {exact_dec(768 * s2 / 2)}$、$ms^2 = {cm(3072)} \\times {exact_dec(s2)} = {exact_dec(3072 * s2)}$", 3)
check("例 36.3 0.02 での v", f"$v = {exact_dec(3072 * s2)} \\times {exact_dec(768 * s2 / 2)} \\approx {f(3072 * s2 * 768 * s2 / 2, 4)}$", 3)
truth("例 36.3 0.02 の v = 0.18874368", 3072 * s2 * 768 * s2 / 2 == Fraction("0.18874368"))
check("例 36.3 GPT-2 の 0.02", "GPT-2 の実装が使う 0.02 に近い値")

# ======================= 表 36.1 =======================
cap, header, rows = table_rows("表 36.1（")
check("表 36.1 の見出しの式", "$\\sqrt{(v/2N)/(1 + v(2N - 1)/(2N))}$")
truth("表 36.1 見出し行は 7 列", len(header) == 7, 0)
truth("表 36.1 の行は N = 12, 24, 48, 96, 1,000", [r[0] for r in rows] == [cp(N) for N in NS], 0)
for r, N in zip(rows, NS):
    K = 2 * N
    qK, qKm = 1 + V * K, 1 + V * (K - 1)
    qs_m = 1 + V * (K - 1) / K
    exp_cells = [cp(N), cp(K), exact_dec(qK), f(sqrt(qK), 4), f(sqrt(V / qKm), 5), f(1 / sqrt(K), 5),
                 f(sqrt((V / K) / qs_m), 5)]
    for j, (got, want) in enumerate(zip(r, exp_cells)):
        cell(f"表 36.1 N = {N} の {j + 1} 列目", got, want)
truth("表 36.1 N を 2 倍にすると q はほぼ 2 倍（比は 1.8〜2.0）",
      all(1.8 < float((1 + V * 4 * N) / (1 + V * 2 * N)) < 2.0 for N in (12, 24, 48)))
truth("表 36.1 N が大きいと最後の枝の比は 1/sqrt(2N) に近い（N = 1000 で 0.1 % 以内）",
      abs(sqrt(V / (1 + V * 1999)) * sqrt(2000) - 1) < 1e-3)
check("表 36.1 の後 最初の枝の比", f"$\\sqrt{{0.32/1}} \\approx {f(sqrt(0.32), 4)}$")
check("36.2 目安の v と q_0", "$v = 0.32$ を足し、$q_0 = 1$ とした目安")

# ======================= 注意 36.4 =======================
check("注意 36.4 N = 12", f"$N = 12$ で $1/\\sqrt{{{exact_dec(1 + V * 23)}}} \\approx {f(1 / sqrt(1 + V * 23), 4)}$", 2)
check("注意 36.4 N = 1000", f"$N = {cm(1000)}$ で $1/\\sqrt{{{exact_dec(1 + V * 1999)}}} \\approx {f(1 / sqrt(1 + V * 1999), 5)}$", 2)

# ======================= 系 36.5・例 36.6 =======================
Nn, vv, q0s = sp.symbols("N v q_0", positive=True)
truth("系 36.5 2N 個の枝が v/(2N) ずつ足すと q = q_0 + v（記号）", sp.simplify(q0s + 2 * Nn * (vv / (2 * Nn)) - (q0s + vv)) == 0)
for N, d in ((12, 6), (48, 6), (1000, 7)):
    check(f"例 36.6 N = {N} の標準偏差", f"$0.02/\\sqrt{{{cm(2 * N)}}} \\approx {f(0.02 / sqrt(2 * N), d)}$")
check("例 36.6 q = 1.32", "$1 + 0.32 = 1.32$")
check("例 36.6 比", f"$N = 48$ の $31.72$ の約 $1/{f((1 + V * 96) / Fraction('1.32'), 2)}$、$N = {cm(1000)}$ の $641$ の約 $1/{f(641 / 1.32, 1)}$", 2)
check("例 36.6 最後の枝の比の変化", f"0.19565 から 0.10102 へ約半分")
truth("例 36.6 0.10102/0.19565 は約半分（0.45〜0.55）", 0.45 < 0.10102 / 0.19565 < 0.55)
check("例 36.6 最初の枝の比", f"$0.5657$ から $\\sqrt{{0.32/24}} \\approx {f(sqrt(0.32 / 24), 4)}$ へ $1/\\sqrt{{24}} \\approx {f(1 / sqrt(24), 4)}$ 倍", 2)
truth("例 36.6 sqrt(0.32/24)/sqrt(0.32) = 1/sqrt(24)", abs(sqrt(0.32 / 24) / sqrt(0.32) - 1 / sqrt(24)) < 1e-15)

# ======================= 定義 36.7（DeepNorm の α, β） =======================
N_, M_ = sp.symbols("N M", positive=True)
aE, bE = (2 * N_) ** sp.Rational(1, 4), (8 * N_) ** sp.Rational(-1, 4)
aD, bD = (3 * M_) ** sp.Rational(1, 4), (12 * M_) ** sp.Rational(-1, 4)
truth("系 36.13 エンコーダのみ：4N β^2/α^2 = 1（記号）", sp.simplify(4 * N_ * bE ** 2 / aE ** 2 - 1) == 0)
truth("系 36.13 デコーダ（K = 3M）：6M β^2/α^2 = 1（記号）", sp.simplify(6 * M_ * bD ** 2 / aD ** 2 - 1) == 0)
truth("系 36.13 α^4 = K、β^4 = 1/(4K)（K = 2N と 3M）",
      sp.simplify(aE ** 4 - 2 * N_) == 0 and sp.simplify(bE ** 4 - 1 / (4 * 2 * N_)) == 0
      and sp.simplify(aD ** 4 - 3 * M_) == 0 and sp.simplify(bD ** 4 - 1 / (4 * 3 * M_)) == 0, 4)
aEE = sp.Rational(81, 100) * (N_ ** 4 * M_) ** sp.Rational(1, 16)
bEE = sp.Rational(87, 100) * (N_ ** 4 * M_) ** sp.Rational(-1, 16)
truth("系 36.13 エンコーダ・デコーダ型のエンコーダ：4N β^2/α^2 = 4 (0.87/0.81)^2 / M^(1/4)（記号）",
      sp.simplify(4 * N_ * bEE ** 2 / aEE ** 2 - 4 * sp.Rational(87, 81) ** 2 / M_ ** sp.Rational(1, 4)) == 0)
check("系 36.13 エンコーダの式", "$4N\\beta^2/\\alpha^2 = 4(0.87/0.81)^2/M^{1/4}$")
check("系 36.13 M = 500 の値", f"$M = 500$ で約 {f(4 * (0.87 / 0.81) ** 2 / 500 ** 0.25, 4)}")
check("系 36.13 エンコーダのみの計算", "$B = 4N\\beta^2/\\alpha^2 = 4N(8N)^{-1/2}(2N)^{-1/2} = 4N/\\sqrt{16N^2} = 1$")
check("系 36.13 デコーダの計算", "$B = 6M\\beta^2/\\alpha^2 = 6M/\\sqrt{12M \\times 3M} = 6M/\\sqrt{36M^2} = 1$")
truth("系 36.13 B = 2Kβ^2/α^2 の Post-LN（α = β = 1）は 2K、K = 2N で 4N", all(2 * (2 * N) == 4 * N for N in NS))
for s_ in ("エンコーダのみ（$N$ 層）：$\\alpha = (2N)^{1/4}$、$\\beta = (8N)^{-1/4}$",
           "デコーダのみ（$M$ 層）：$\\alpha = (2M)^{1/4}$、$\\beta = (8M)^{-1/4}$",
           "エンコーダは $\\alpha = 0.81(N^4M)^{1/16}$、$\\beta = 0.87(N^4M)^{-1/16}$、デコーダは $\\alpha = (3M)^{1/4}$、$\\beta = (12M)^{-1/4}$"):
    check("定義 36.7 の α, β（[1] と [10] の実装の式）", s_, 2)
truth("定義 36.7 MLP の 2 つの行列を β 倍すると出力は β^2 倍（ReLU の正の斉次性、乱数）",
      all(np.allclose(np.maximum(x @ (bb * A), 0) @ (bb * B2), bb ** 2 * (np.maximum(x @ A, 0) @ B2))
          for x, A, B2, bb in ((rng.standard_normal(5), rng.standard_normal((5, 8)), rng.standard_normal((8, 5)), rng.uniform(0.05, 2)) for _ in range(50))))
check("定義 36.7 v = 0.32 β^4", "$v = 0.32\\beta^4$")

# ======================= 命題 36.8 =======================
def ln_jac(u):
    dd_ = len(u)
    s = u.std()
    y = (u - u.mean()) / s
    return (np.eye(dd_) - np.ones((dd_, dd_)) / dd_ - np.outer(y, y) / dd_) / s


ok1 = ok2 = ok3 = ok4 = True
for trial in range(30):
    dd, L = 9, 5
    alpha = rng.uniform(0.5, 3)
    Ws = [rng.standard_normal((dd, dd)) * 0.5 for _ in range(L)]
    G = lambda x, W: np.tanh(W @ x)
    Dg = lambda x, W: np.diag(1 - np.tanh(W @ x) ** 2) @ W
    x = ln(rng.standard_normal(dd))
    xs, Lam, Ds, sig_ = [x], [], [], []
    for W in Ws:
        u = alpha * xs[-1] + G(xs[-1], W)
        Lam.append(ln_jac(u)); Ds.append(Dg(xs[-1], W)); sig_.append(u.std())
        xs.append(ln(u))
    # 1：差分のヤコビ行列と積の式
    def full(x0):
        x_ = x0
        for W in Ws:
            x_ = ln(alpha * x_ + G(x_, W))
        return x_
    h = 1e-6
    Jnum = np.stack([(full(xs[0] + h * e) - full(xs[0] - h * e)) / (2 * h) for e in np.eye(dd)], axis=1)
    Jprod = np.eye(dd)
    T = np.eye(dd)
    for Lk, Dk in zip(Lam, Ds):
        Jprod = Lk @ (alpha * np.eye(dd) + Dk) @ Jprod
        T = alpha * Lk @ T
    ok1 &= np.abs(Jnum - Jprod).max() < 1e-6
    bound = np.prod([alpha / s for s in sig_])
    nT = np.linalg.norm(T, 2)
    ok2 &= nT <= bound * (1 + 1e-10)
    ok3 &= abs(nT / bound - 1) < 1e-9                      # d = 9 ≥ M - l + 2 = 7 なので等号
    Z = np.column_stack([np.ones(dd)] + xs[1:])
    zv = np.linalg.svd(Z.T)[2][-1]                           # 1, x_1..x_5 に直交する単位ベクトル
    ok4 &= np.allclose(T @ zv, bound * zv)
truth("命題 36.8 の 1：差分のヤコビ行列 = Λ_M(αI + D_M)…Λ_1(αI + D_1)（乱数 30 組）", ok1)
truth("命題 36.8 の 2：‖T‖ ≤ Π α/σ_k", ok2)
truth("命題 36.8 の 2：d ≥ M - l + 2 で等号、直交するベクトルで T z = (Π α/σ_k) z", ok3 and ok4, 2)
# d が小さいと等号は一般に成り立たない（上界は保たれる）
dd, L, alpha = 3, 4, 1.0
strict = False
for trial in range(20):
    x = ln(rng.standard_normal(dd)); T = np.eye(dd); bnd = 1.0
    for _ in range(L):
        W = rng.standard_normal((dd, dd))
        u = alpha * x + np.tanh(W @ x)
        T = alpha * ln_jac(u) @ T; bnd *= alpha / u.std(); x = ln(u)
    strict |= np.linalg.norm(T, 2) < bnd * (1 - 1e-6)
truth("命題 36.8 の 2：d = 3、4 層では上界が真に大きい例がある（等号に次元の条件が要る）", strict)
# 3：E[σ^2(α x + W^T h)] = α^2 + (1 - 1/d) s^2 ‖h‖^2 を記号計算で（d = 3、m = 2）
al, s = sp.symbols("alpha s", positive=True)
Wsym = sp.Matrix(2, 3, lambda i, j: sp.Symbol(f"w{i}{j}"))
hs = sp.Matrix(sp.symbols("h0:2", real=True))
xv = sp.Matrix([sp.sqrt(sp.Rational(3, 2)), 0, -sp.sqrt(sp.Rational(3, 2))])   # μ = 0、σ^2 = 1
uvec = al * xv + Wsym.T * hs
mu = sum(uvec) / 3
sig2 = sp.expand(sum((ui - mu) ** 2 for ui in uvec) / 3)
wsyms = list(Wsym)
E = 0
for mon, coef in sp.Poly(sig2, *wsyms).terms():
    degs = [p for p in mon if p]
    if not degs:
        E += coef
    elif degs == [2]:
        E += coef * s ** 2
truth("命題 36.8 の 3：E σ^2 = α^2 + (1 - 1/d) s^2 ‖h‖^2（d = 3、記号計算）",
      sp.simplify(E - (al ** 2 + (1 - sp.Rational(1, 3)) * s ** 2 * (hs[0] ** 2 + hs[1] ** 2))) == 0)
truth("命題 36.8 の 3：σ^2(x) = 1、μ(x) = 0 の点を使った", sp.simplify(sum(xv) / 3) == 0 and sp.simplify(sum(xi ** 2 for xi in xv) / 3) == 1, 0)
dd = 256
check("例 36.9 E σ^2", "$E[\\sigma_k^2] = 1 + 0.32(1 - 1/d)$")
check("例 36.9 1 副層の係数", f"$1/\\sqrt{{1.32}} \\approx {f(1 / sqrt(1.32), 4)}$")
check("例 36.9 N = 12, 24", f"$N = 12$ で約 {sig(post[12], 4)}（{f(100 * post[12], 3)} %）、$N = 24$ で約 {sig(post[24], 4)}", 3)
check("例 36.9 N = 48, 96", f"$N = 48$ で約 ${sci(post[48], 4)}$、$N = 96$ で約 ${sci(post[96], 4)}$", 2)
check("例 36.9 N = 1000", f"$N = {cm(1000)}$ で約 ${sci(post[1000], 4)}$（常用対数で約 ${f(-1000 * mpmath.log10(mpmath.mpf('1.32')), 2)}$）", 2)
check("例 36.9 d = 256 の補正", f"$(1 + 0.32 \\times 255/256)^{{-12}} \\approx {f((1 + 0.32 * 255 / 256) ** -12, 5)}$")
truth("例 36.9 1.32^(-N) は (1/sqrt(1.32))^(2N)", abs(float(post[12]) - (1 / sqrt(1.32)) ** 24) < 1e-15)

# ======================= 命題 36.11・36.12・系 36.13 =======================
ok = [True] * 4
for trial in range(200):
    dd = 4
    Js = [rng.standard_normal((dd, p)) for p in (2, 3, 5)]
    g = rng.standard_normal(dd); eta = rng.uniform(0.01, 1)
    dth = [-eta * J.T @ g for J in Js]
    dF = sum(J @ t for J, t in zip(Js, dth))
    ok[0] &= np.allclose(dF, -eta * sum(J @ J.T for J in Js) @ g)
    ok[1] &= abs(dF @ g + eta * sum(np.sum((J.T @ g) ** 2) for J in Js)) < 1e-10 and dF @ g <= 1e-12
    ok[2] &= np.linalg.norm(dF) <= eta * np.linalg.norm(g) * sum(np.linalg.norm(J, 2) ** 2 for J in Js) + 1e-12
# 1 の勾配 = J^T g を、実際の関数 F と損失で差分により確かめる
A1, A2 = rng.standard_normal((3, 4)), rng.standard_normal((3, 2))
Ff = lambda t1, t2: np.tanh(A1 @ t1) + A2 @ t2 ** 2
Lf = lambda y: 0.5 * np.sum((y - 1) ** 2)
t1, t2 = rng.standard_normal(4), rng.standard_normal(2)
gF = Ff(t1, t2) - 1
J1 = np.diag(1 - np.tanh(A1 @ t1) ** 2) @ A1
J2 = A2 @ np.diag(2 * t2)
h = 1e-6
gr1 = np.array([(Lf(Ff(t1 + h * e, t2)) - Lf(Ff(t1 - h * e, t2))) / (2 * h) for e in np.eye(4)])
gr2 = np.array([(Lf(Ff(t1, t2 + h * e)) - Lf(Ff(t1, t2 - h * e))) / (2 * h) for e in np.eye(2)])
ok[3] = np.allclose(gr1, J1.T @ gF, atol=1e-7) and np.allclose(gr2, J2.T @ gF, atol=1e-7)
truth("命題 36.11 の 1：ΔF = -η Σ J_i J_i^T g（乱数 200 組）", ok[0])
truth("命題 36.11 の 2：<ΔF, g> = -η Σ‖J_i^T g‖^2 ≤ 0", ok[1])
truth("命題 36.11 の 3：‖ΔF‖ ≤ η‖g‖ Σ‖J_i‖^2", ok[2])
truth("命題 36.11 の 1：∇_θi (L∘F) = J_i^T g（差分）", ok[3])


def phi(x, V_, O_, alpha):
    return ln(alpha * x + O_ @ (V_ @ x))


okA = okB = okC = True
for trial in range(40):
    dd, r = 5, 3
    alpha = rng.uniform(0.5, 3)
    V_, O_ = rng.standard_normal((r, dd)) * rng.uniform(0.1, 1.5), rng.standard_normal((dd, r)) * rng.uniform(0.1, 1.5)
    x = rng.standard_normal(dd) * rng.uniform(0.5, 2)
    u = alpha * x + O_ @ V_ @ x
    sg = u.std(); nu, om = np.linalg.norm(V_, 2), np.linalg.norm(O_, 2)
    h = 1e-6
    cols = []
    for idx in range(r * dd):
        E_ = np.zeros(r * dd); E_[idx] = h; E_ = E_.reshape(r, dd)
        cols.append((phi(x, V_ + E_, O_, alpha) - phi(x, V_ - E_, O_, alpha)) / (2 * h))
    for idx in range(dd * r):
        E_ = np.zeros(dd * r); E_[idx] = h; E_ = E_.reshape(dd, r)
        cols.append((phi(x, V_, O_ + E_, alpha) - phi(x, V_, O_ - E_, alpha)) / (2 * h))
    Jp = np.column_stack(cols)
    okA &= np.linalg.norm(Jp, 2) <= np.sqrt(nu ** 2 + om ** 2) * np.linalg.norm(x) / sg * (1 + 1e-6)
    Jx = np.stack([(phi(x + h * e, V_, O_, alpha) - phi(x - h * e, V_, O_, alpha)) / (2 * h) for e in np.eye(dd)], axis=1)
    okB &= np.allclose(Jx, ln_jac(u) @ (alpha * np.eye(dd) + O_ @ V_), atol=1e-6)
    okC &= np.linalg.norm(Jx, 2) <= (alpha + nu * om) / sg * (1 + 1e-6)
truth("命題 36.12 の 1：∂Φ/∂x = Λ(αI + W^O W^V)（差分、40 組）", okB)
truth("命題 36.12 の 1：‖∂Φ/∂x‖ ≤ (α + νω)/σ", okC)
truth("命題 36.12 の 2：パラメータについての微分の作用素ノルム ≤ sqrt(ν^2 + ω^2)‖x‖/σ", okA)
# 系 36.13：3 層の積み重ねで ‖J_i‖ ≤ P_i sqrt(ν_i^2 + ω_i^2) sqrt(d)/σ_i と最終の不等式
okD, used = True, 0
for trial in range(40):
    dd, r, K3 = 5, 2, 3
    alpha = rng.uniform(1, 3)
    Vs = [rng.standard_normal((r, dd)) * 0.3 for _ in range(K3)]
    Os = [rng.standard_normal((dd, r)) * 0.3 for _ in range(K3)]
    x0 = ln(rng.standard_normal(dd))

    def run_stack(Vs_, Os_):
        xs_ = [x0]
        for V_, O_ in zip(Vs_, Os_):
            xs_.append(phi(xs_[-1], V_, O_, alpha))
        return xs_
    xs = run_stack(Vs, Os)
    sig_ = [(alpha * xs[i] + Os[i] @ Vs[i] @ xs[i]).std() for i in range(K3)]
    h = 1e-6
    normsJ, rhs = [], []
    for i in range(K3):
        cols = []
        for which in ("V", "O"):
            shape = Vs[i].shape if which == "V" else Os[i].shape
            for idx in range(shape[0] * shape[1]):
                E_ = np.zeros(shape[0] * shape[1]); E_[idx] = h; E_ = E_.reshape(shape)
                Vp = [V_ + (E_ if (which == "V" and j == i) else 0) for j, V_ in enumerate(Vs)]
                Vm = [V_ - (E_ if (which == "V" and j == i) else 0) for j, V_ in enumerate(Vs)]
                Op = [O_ + (E_ if (which == "O" and j == i) else 0) for j, O_ in enumerate(Os)]
                Om = [O_ - (E_ if (which == "O" and j == i) else 0) for j, O_ in enumerate(Os)]
                cols.append((run_stack(Vp, Op)[-1] - run_stack(Vm, Om)[-1]) / (2 * h))
        Ji = np.column_stack(cols)
        # P_i = ‖∂x_K/∂x_i‖（x_i を動かしてその先を計算）
        def tail(xi):
            y = xi
            for j in range(i + 1, K3):
                y = phi(y, Vs[j], Os[j], alpha)
            return y
        Pi = np.linalg.norm(np.stack([(tail(xs[i + 1] + h * e) - tail(xs[i + 1] - h * e)) / (2 * h) for e in np.eye(dd)], axis=1), 2)
        nu, om = np.linalg.norm(Vs[i], 2), np.linalg.norm(Os[i], 2)
        okD &= np.linalg.norm(Ji, 2) <= Pi * np.sqrt(nu ** 2 + om ** 2) * np.sqrt(dd) / sig_[i] * (1 + 1e-5)
        normsJ.append(np.linalg.norm(Ji, 2)); rhs.append(Pi ** 2 * (nu ** 2 + om ** 2) / alpha ** 2)
    if min(sig_) >= alpha:
        used += 1
        okD &= sum(n ** 2 for n in normsJ) <= dd * sum(rhs) * (1 + 1e-5)
truth(f"系 36.13：‖J_i‖ ≤ P_i sqrt(ν_i^2 + ω_i^2) sqrt(d)/σ_i（40 組）と、σ_i ≥ α の {used} 組で Σ‖J_i‖^2 ≤ d Σ P_i^2(ν_i^2 + ω_i^2)/α^2",
      okD and used > 0, 2)

# ======================= 表 36.2 =======================
cap2, header2, rows2 = table_rows("表 36.2（")
truth("表 36.2 見出し行", header2 == ["$N$", "$(2N)^{1/4}$", "$(8N)^{-1/4}$", "$(3N)^{1/4}$", "$(12N)^{-1/4}$", "$0.81N^{5/16}$", "$0.87N^{-5/16}$"], 0)
truth("表 36.2 の行は N = 12, 24, 48, 96, 1,000", [r[0] for r in rows2] == [cp(N) for N in NS], 0)
truth("表 36.2 M = N なら (N^4 M)^(1/16) = N^(5/16)（記号）", sp.simplify((N_ ** 4 * N_) ** sp.Rational(1, 16) - N_ ** sp.Rational(5, 16)) == 0)
for r, N in zip(rows2, NS):
    m = mpmath.mpf(N)
    vals = [cp(N), f((2 * m) ** 0.25, 4), f((8 * m) ** -0.25, 5), f((3 * m) ** 0.25, 4), f((12 * m) ** -0.25, 5),
            f(mpmath.mpf("0.81") * m ** (mpmath.mpf(5) / 16), 4), f(mpmath.mpf("0.87") * m ** (-mpmath.mpf(5) / 16), 5)]
    for j, (got, want) in enumerate(zip(r, vals)):
        cell(f"表 36.2 N = {N} の {j + 1} 列目", got, want)
truth("表 36.2 の後 N = 1,000 で α は 6.5〜7.5、β は 0.09〜0.11", all(6.5 < float(x) < 7.5 for x in rows2[-1][1::2][:3]) and all(0.09 < float(x) < 0.11 for x in rows2[-1][2::2]))

# ======================= 表 36.3 =======================
cap3, header3, rows3 = table_rows("表 36.3（")
truth("表 36.3 の行は N = 12, 24, 48, 96, 1,000", [r[0] for r in rows3] == [cp(N) for N in NS], 0)
check("表 36.3 の見出しの目安", "$\\sigma_k^2 = \\alpha^2 + v_0\\beta^4$ とした目安、$B = 4N\\beta^2/\\alpha^2$")


def post_cell(x):
    return sig(x, 4) if x >= mpmath.mpf("1e-3") else f"${sci(x, 4)}$"


for r, N in zip(rows3, NS):
    a, b = ab_enc(N)
    Bd = 4 * N * b ** 2 / a ** 2
    vals = [cp(N), cp(2 * N), post_cell(post[N]), f(deep[N], 5), cp(4 * N), str(int(mpmath.nint(Bd)))]
    truth(f"表 36.3 N = {N}: DeepNorm の B は整数 1 に丸めずに等しい", abs(Bd - 1) < mpmath.mpf("1e-30"), 0)
    for j, (got, want) in enumerate(zip(r, vals)):
        cell(f"表 36.3 N = {N} の {j + 1} 列目", got, want)
    truth(f"表 36.3 N = {N}: DeepNorm の係数 ≥ exp(-0.04/sqrt(2N))", deep[N] >= mpmath.e ** (-mpmath.mpf("0.04") / mpmath.sqrt(2 * N)), 0)
truth("表 36.3 Nβ^4/α^2 = 1/(8 sqrt(2N))（記号）", sp.simplify(N_ * bE ** 4 / aE ** 2 - 1 / (8 * sp.sqrt(2 * N_))) == 0)
xx = sp.symbols("x", positive=True)
truth("表 36.3 (1 + x/N)^(-N) ≥ e^(-x)：ln(1 + t) ≤ t（t = x/N）を数値で 1,000 点", all(
    (1 + t) ** (-n) >= exp(-n * t) * (1 - 1e-12) for t in np.linspace(1e-4, 3, 100) for n in (1, 2, 5, 10, 100, 1000, 10, 20, 50, 500)))
check("表 36.3 の後 N = 12", f"$\\exp(-0.04/\\sqrt{{24}}) \\approx {f(exp(-0.04 / sqrt(24)), 5)}$")
check("表 36.3 の後 Post-LN の B", f"$N = 12$ の 48 から $N = {cm(1000)}$ の {cp(4000)} まで")
check("表 36.3 の後 式", "$N\\beta^4/\\alpha^2 = N(8N)^{-1}(2N)^{-1/2} = 1/(8\\sqrt{2N})$")

# ======================= 例 36.14 =======================
c500 = mpmath.mpf(500) ** (mpmath.mpf(5) / 16)
check("例 36.14 副層の数", f"$2 \\times 500 + 3 \\times 500 = {cm(2500)}$")
check("例 36.14 (N^4 M)^(1/16)", f"$(N^4M)^{{1/16}} = 500^{{5/16}} \\approx {f(c500, 4)}$")
check("例 36.14 エンコーダ", f"$\\alpha = 0.81 \\times {f(c500, 4)} \\approx {f(mpmath.mpf('0.81') * c500, 4)}$、$\\beta = 0.87/{f(c500, 4)} \\approx {f(mpmath.mpf('0.87') / c500, 5)}$", 2)
check("例 36.14 デコーダ", f"$\\alpha = {cm(1500)}^{{1/4}} \\approx {f(mpmath.mpf(1500) ** 0.25, 4)}$、$\\beta = {cm(6000)}^{{-1/4}} \\approx {f(mpmath.mpf(6000) ** -0.25, 5)}$", 2)
truth("例 36.14 6,000 × 1,500 = 3,000^2", 6000 * 1500 == 3000 ** 2)
vals14 = [mpmath.mpf('0.81') * c500, mpmath.mpf(1500) ** 0.25, mpmath.mpf('0.87') / c500, mpmath.mpf(6000) ** -0.25]
truth("例 36.14 α は 5.6〜6.3、β は 0.11〜0.13 の間", all(5.6 < x < 6.3 for x in vals14[:2]) and all(0.11 < x < 0.13 for x in vals14[2:]), 2)
check("例 36.14 範囲の記述", f"どの $\\alpha$ も 5.6 から 6.3 の間、どの $\\beta$ も 0.11 から 0.13 の間にあり、{cp(2500)} 個の副層")
check("例 36.14 B = 1", f"$6M\\beta^2/\\alpha^2 = {cm(3000)}/\\sqrt{{{cm(6000)} \\times {cm(1500)}}} = {cm(3000)}/{cm(3000)} = 1$", 2)

# ======================= ReZero：命題 36.16・例 36.17・演習 36.4 =======================
okR = True
for trial in range(20):
    dd, K4 = 4, 3
    Ws = [rng.standard_normal((dd, dd)) for _ in range(K4)]
    Gk = lambda x, W: np.tanh(W @ x)
    x0 = rng.standard_normal(dd); tgt = rng.standard_normal(dd)

    def fwd(a, Ws_):
        x = x0
        for ak, W in zip(a, Ws_):
            x = x + ak * Gk(x, W)
        return x
    a0 = np.zeros(K4)
    okR &= np.allclose(fwd(a0, Ws), x0)
    h = 1e-6
    # ∂x_K/∂x_0：x0 を動かす
    def fwd_x(xx):
        x = xx
        for ak, W in zip(a0, Ws):
            x = x + ak * Gk(x, W)
        return x
    Jx = np.stack([(fwd_x(x0 + h * e) - fwd_x(x0 - h * e)) / (2 * h) for e in np.eye(dd)], axis=1)
    okR &= np.allclose(Jx, np.eye(dd))
    g = fwd(a0, Ws) - tgt
    Lz = lambda a, Ws_: 0.5 * np.sum((fwd(a, Ws_) - tgt) ** 2)
    ga = np.array([(Lz(h * e, Ws) - Lz(-h * e, Ws)) / (2 * h) for e in np.eye(K4)])
    okR &= np.allclose(ga, [g @ Gk(x0, W) for W in Ws], atol=1e-7)
    Wp = [W + 0.1 * rng.standard_normal(W.shape) for W in Ws]
    okR &= Lz(a0, Wp) == Lz(a0, Ws)                        # 枝のパラメータを動かしても出力は変わらない
truth("命題 36.16 の 1・2：a = 0 で恒等写像、ヤコビ行列 I、∂L/∂a_k = <g, G_k(x_0)>、枝のパラメータの勾配 0（乱数 20 組）", okR, 4)

x0 = np.array([1, 2]); t = np.array([3, 1])
G1 = lambda x: np.array([x[1], x[0]]); G2 = lambda x: np.array([x[0] + x[1], 0])
g = x0 - t
gr = [int(g @ G1(x0)), int(g @ G2(x0))]
check("例 36.17 初期の損失", f"損失は $\\frac12(4 + 1) = {Fraction(int((g ** 2).sum()), 2).numerator / Fraction(int((g ** 2).sum()), 2).denominator}$")
check("例 36.17 g", f"$\\boldsymbol{{g}} = \\boldsymbol{{x}}_0 - \\boldsymbol{{t}} = ({g[0]}, {g[1]})$")
check("例 36.17 勾配", f"$\\partial\\mathcal{{L}}/\\partial a_1 = -4 + 1 = {gr[0]}$、$\\partial\\mathcal{{L}}/\\partial a_2 = {gr[1]}$", 2)
eta = Fraction(1, 10)
a1 = [-eta * gr[0], -eta * gr[1]]
check("例 36.17 1 ステップ後の a", f"$a = ({float(a1[0])}, {float(a1[1])})$")
dF = [a1[0] * Fraction(int(G1(x0)[i])) + a1[1] * Fraction(int(G2(x0)[i])) for i in range(2)]
check("例 36.17 ΔF", f"$\\Delta F = 0.3(2, 1) + 0.6(3, 0) = ({float(dF[0])}, {float(dF[1])})$", 2)
ndF2 = dF[0] ** 2 + dF[1] ** 2
check("例 36.17 ‖ΔF‖", f"$\\|\\Delta F\\| = \\sqrt{{{float(ndF2)}}} \\approx {f(sqrt(ndF2), 4)}$", 2)
bnd = eta * (G1(x0) @ G1(x0) + G2(x0) @ G2(x0))
check("例 36.17 上界", f"$0.1 \\times \\sqrt{{5}} \\times (5 + 9) = {float(bnd)}\\sqrt{{5}} \\approx {f(float(bnd) * sqrt(5), 4)}$", 2)
truth("例 36.17 ‖ΔF‖ ≤ 上界", sqrt(ndF2) <= float(bnd) * sqrt(5))
ip = dF[0] * g[0] + dF[1] * g[1]
check("例 36.17 <ΔF, g>", f"$\\langle\\Delta F, \\boldsymbol{{g}}\\rangle = -4.8 + 0.3 = {float(ip)} = -0.1 \\times (9 + 36)$", 2)
truth("例 36.17 <ΔF, g> = -η Σ<g, G_k>^2", ip == -eta * (gr[0] ** 2 + gr[1] ** 2))
x1 = [Fraction(int(x0[i])) + a1[0] * int(G1(x0)[i]) for i in range(2)]
G2x1 = [x1[0] + x1[1], Fraction(0)]
x2 = [x1[i] + a1[1] * G2x1[i] for i in range(2)]
loss1 = ((x2[0] - 3) ** 2 + (x2[1] - 1) ** 2) / 2
check("例 36.17 x_1, x_2", f"$\\boldsymbol{{x}}_1 = ({float(x1[0])}, {float(x1[1])})$、$\\boldsymbol{{x}}_2 = ({float(x1[0])}, {float(x1[1])}) + 0.6({float(G2x1[0])}, 0) = ({float(x2[0])}, {float(x2[1])})$", 3)
check("例 36.17 損失", f"損失は 2.5 から {exact_dec(loss1)} に下がります", 2)
lines_out = OUT
truth("リスティング 9 行目：F(a=0) - x0 = 0、勾配 (-3, -6)、差分も一致",
      lines_out[8] == "ReZero: F(a=0) - x0 = [0. 0.]  grad a = [-3. -6.]  finite diff = [-3.000000 -6.000000]")
truth("リスティング 10 行目：例 36.17 の値", lines_out[9] == f"after one step: a = [0.3 0.6]  F = [{float(x2[0]):.2f} {float(x2[1]):.2f}]  loss 2.5 -> {float(loss1):.4f}")
check("36.7 節 ReZero の損失", f"損失は 2.5 から {exact_dec(loss1)} に下がります。")

# 演習 36.4（共有スカラー）
gs = int(g @ (G1(x0) + G2(x0)))
check("演習 36.4 勾配", f"$\\partial\\boldsymbol{{x}}_2/\\partial a = G_1(\\boldsymbol{{x}}_0) + G_2(\\boldsymbol{{x}}_0) = (5, 1)$ なので、$\\partial\\mathcal{{L}}/\\partial a = \\langle(-2, 1), (5, 1)\\rangle = {gs}$", 1)
A = -eta * gs
y1 = [Fraction(int(x0[i])) + A * int(G1(x0)[i]) for i in range(2)]
y2 = [y1[0] + A * (y1[0] + y1[1]), y1[1]]
L4 = ((y2[0] - 3) ** 2 + (y2[1] - 1) ** 2) / 2
check("演習 36.4 a と出力", f"$a = {float(A)}$ になり、$\\boldsymbol{{x}}_1 = (1, 2) + 0.9(2, 1) = ({float(y1[0])}, {float(y1[1])})$、$\\boldsymbol{{x}}_2 = ({float(y1[0])}, {float(y1[1])}) + 0.9({float(y1[0] + y1[1])}, 0) = ({float(y2[0])}, {float(y2[1])})$", 4)
check("演習 36.4 損失", f"$\\frac12({float(y2[0] - 3)}^2 + {float(y2[1] - 1)}^2) = {exact_dec(L4)}$", 2)
truth("演習 36.4 損失は 2.5 から増える", L4 > Fraction(5, 2))
dF4 = [A * 5, A * 1]
check("演習 36.4 1 次の変化", f"$0.9(5, 1) = ({float(dF4[0])}, {float(dF4[1])})$、大きさ $\\sqrt{{{float(dF4[0] ** 2 + dF4[1] ** 2)}}} \\approx {f(sqrt(dF4[0] ** 2 + dF4[1] ** 2), 4)}$", 3)
check("演習 36.4 上界", f"$0.1 \\times \\sqrt{{5}} \\times 26 = {float(eta * 26)}\\sqrt{{5}} \\approx {f(float(eta * 26) * sqrt(5), 4)}$", 2)
truth("演習 36.4 ‖(5, 1)‖^2 = 26 で、1 次の変化 ≤ 上界", 5 ** 2 + 1 == 26 and sqrt(21.06) <= 2.6 * sqrt(5))

# ======================= 36.6 節の本文 =======================
check("36.6 節 E‖G(x_0)‖^2 = 0.32d", "$E\\|G_k(\\boldsymbol{x}_0)\\|^2 = 0.32d$ で、和の期待値は $0.32dK$")
check("36.6 節 120 層", "120 層の Transformer")

# ======================= 36.7 節：リスティングの出力と本文の記述 =======================
q0m = float(OUT[0].split("=")[1])
check("36.7 節 実測の q_0", f"入力の実測の $q_0 = {OUT[0].split('= ')[1]}$")
pre_rows = [l.split() for l in OUT[2:5]]
okP = True
for rr, N in zip(pre_rows, (12, 24, 48)):
    okP &= rr[2] == f"{q0m + 0.32 * 2 * N:.3f}" and rr[5] == f"{q0m + 0.32:.3f}"
    okP &= abs(float(rr[1]) / float(rr[2]) - 1) < 0.02 and abs(float(rr[4]) / float(rr[5]) - 1) < 0.02
truth("36.7 節 Pre-LN の式の列が q_0 + 0.32·2N、q_0 + 0.32 で、実測はどれも 2 % 以内", okP, 6)
check("36.7 節 2 % 以内", "実測はどれも 2 % 以内")
truth("36.7 節 1/sqrt(2N) 倍は 1.3 前後（1.25〜1.35）", all(1.25 < float(rr[4]) < 1.35 for rr in pre_rows))
check("36.7 節 1.3 前後", "$N$ を 4 倍にしても 1.3 前後のまま")
id_rows = [l.split() for l in OUT[6:8]]
okI = True
for rr, N in zip(id_rows, (12, 24)):
    a, b = (2 * N) ** 0.25, (8 * N) ** -0.25
    c = 1 - 1 / 256
    okI &= rr[2] == f"{(1 + c * 0.32) ** -N:.3e}" and rr[5] == f"{(1 + c * 0.32 * b ** 4 / a ** 2) ** -N:.5f}"
truth("36.7 節 恒等経路の式の列が (1 + (1 - 1/d)v)^(-N) と DeepNorm の式", okI, 4)
rel = float(id_rows[1][1]) / float(id_rows[1][2])
check("36.7 節 Post-LN N = 24 の差", f"実測が式より約 {round(100 * (1 - rel))} % 小さく")
check("36.7 節 1.31875", f"$\\sigma_k^2$ が {1 + 0.32 * 255 / 256} のまわりで")
truth("36.7 節 N = 12 の式 3.615e-02 は例 36.9 の 0.03615", id_rows[0][2] == "3.615e-02" and f((1 + 0.32 * 255 / 256) ** -12, 5) == "0.03615")
truth("36.7 節 DeepNorm は 0.99 を超える", all(float(rr[4]) > 0.99 for rr in id_rows))
check("36.7 節 0.99", "DeepNorm はどちらの $N$ でも 0.99 を超えています")
check("36.7 節 48 個の副層", "48 個の副層でそのずれが積み重なる")
check("36.7 節 d = 256、64 個の位置", "$d = 256$、64 個の位置")
truth("36.7 節 リスティングの設定 d = 256、n = 64", "d, n, v = 256, 64, 0.32" in TEXT, 0)

# ======================= 演習 36.1〜36.3 =======================
check("演習 36.1 q_72", f"$q_{{72}} = 1 + 0.5 \\times 72 = {1 + Fraction(1, 2) * 72}$、$\\sqrt{{37}} \\approx {f(sqrt(37), 4)}$", 2)
check("演習 36.1 標準偏差", f"$0.02/\\sqrt{{72}} \\approx {f(0.02 / sqrt(72), 7)}$ で、$q_{{72}} = 1 + 0.5 = {exact_dec(Fraction(3, 2))}$", 2)
check("演習 36.2 副層", f"$2 \\times 12 + 3 \\times 6 = {2 * 12 + 3 * 6}$")
c126 = mpmath.mpf(12 ** 4 * 6) ** (mpmath.mpf(1) / 16)
check("演習 36.2 N^4 M", f"$N^4M = {cm(12 ** 4)} \\times 6 = {cm(12 ** 4 * 6)}$、$({cm(12 ** 4 * 6)})^{{1/16}} \\approx {f(c126, 4)}$", 3)
check("演習 36.2 エンコーダ", f"$\\alpha = 0.81 \\times {f(c126, 4)} \\approx {f(mpmath.mpf('0.81') * c126, 4)}$、$\\beta = 0.87/{f(c126, 4)} \\approx {f(mpmath.mpf('0.87') / c126, 4)}$", 2)
check("演習 36.2 デコーダ", f"$\\alpha = 18^{{1/4}} \\approx {f(18 ** 0.25, 4)}$、$\\beta = 72^{{-1/4}} \\approx {f(72 ** -0.25, 4)}$", 2)
check("演習 36.2 B = 1", f"$6M\\beta^2/\\alpha^2 = 36/\\sqrt{{72 \\times 18}} = 36/\\sqrt{{{cm(72 * 18)}}} = 36/{int(sqrt(72 * 18))} = 1$", 2)
Nmin = next(N for N in range(1, 100) if mpmath.mpf("1.32") ** (-N) < mpmath.mpf("1e-3"))
check("演習 36.3 境目", f"$N > 3/\\log_{{10}}1.32 \\approx {f(3 / log10(1.32), 3)}$ と同値なので、最小の $N$ は {Nmin} です", 2)
check("演習 36.3 1.32^-24、1.32^-25", f"$1.32^{{-24}} \\approx {sig(post[24], 4)}$、$1.32^{{-25}} \\approx {sig(mpmath.mpf('1.32') ** -25, 4)}$", 2)
check("演習 36.3 下界", f"$\\exp(-0.32/(8\\sqrt{{2}})) \\approx {f(exp(-0.32 / (8 * sqrt(2))), 5)}$")
truth("演習 36.3 N·0.32β^4/α^2 = 0.32/(8 sqrt(2N)) ≤ 0.32/(8 sqrt(2))（N ≥ 1、記号）",
      sp.simplify(N_ * sp.Rational(32, 100) * bE ** 4 / aE ** 2 - sp.Rational(32, 100) / (8 * sp.sqrt(2 * N_))) == 0)

# ======================= 本文の数値の網羅性 =======================
body = TEXT.replace(code, "").replace(block, "")
body = body[:body.index("参考文献")]
pat = re.compile(r"\d+(?:\{,\}\d{3})+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{4,}")
uncovered = []
for line in body.splitlines():
    for mt in pat.finditer(line):
        tok = mt.group()
        after = line[mt.end():mt.end() + 1]
        before = line[max(0, mt.start() - 1):mt.start()]
        if re.fullmatch(r"36\.\d+", tok) or after == "［" or (tok == "2.3" and "2.3 節" in line):   # 要素・節の番号、他章の番号、文献の節
            continue
        if not any(tok in s for s in covered):
            uncovered.append(tok)
truth(f"本文の小数・4 桁以上・3 桁区切りの数はすべて検査済み（未検査: {uncovered}）", not uncovered, 0)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

"""projection.txt（第 34 章）の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）か、本文が言葉で述べた性質を確かめる（truth）。
本文の 2 つのリスティングを実行し、出力が本文の出力と一字一句一致することも確かめる。
最後に、本文（リスティングと参考文献を除く）に現れる小数・4 桁以上の数・3 桁区切りの数が
すべてどれかの検査の文字列に含まれていることを確かめる。1 つでも失敗すれば終了コード 1。
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction
from math import comb, exp, log, sqrt

import mpmath
import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "projection.txt"), encoding="utf-8").read()
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


def cm(n):
    """数式中の 3 桁区切り 65{,}536。"""
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    """本文中の 3 桁区切り 65,536。"""
    return f"{n:,}"


def f(x, d):
    """小数第 d 位に丸めた固定小数点表記。"""
    return f"{x:.{d}f}"


def sci(x, sig):
    m, e = f"{x:.{sig - 1}e}".split("e")
    return f"{m} \\times 10^{{{int(e)}}}"


def c_eps(eps):
    eps = Fraction(eps)
    return eps ** 2 / 2 - eps ** 3 / 3


def k_jl(n, eps, delta=None):
    """定理 34.5。切り上げの境目を誤らないよう mpmath の 40 桁で計算する。"""
    c = mpmath.mpf(c_eps(eps).numerator) / c_eps(eps).denominator
    top = 4 * mpmath.log(n) if delta is None else 2 * mpmath.log(mpmath.mpf(n) * (n - 1) / mpmath.mpf(delta))
    v = top / c
    assert abs(v - mpmath.nint(v)) > 1e-9, "切り上げの境目に近すぎる"
    return int(mpmath.ceil(v)), v


# ======================= リスティングの実行 =======================
def printed_output(code_file):
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    return code, rest.split("\n\n")[0]


env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
OUT = {}
for fn in ("random_projection.py", "lowrank_attention.py"):
    code, block = printed_output(fn)
    run = subprocess.run([sys.executable, fn], cwd=HERE, capture_output=True, text=True, env=env)
    same = code is not None and run.returncode == 0 and run.stdout.rstrip("\n") == block
    OUT[fn] = run.stdout.rstrip("\n").splitlines()
    truth(f"リスティング {fn}：本文のコードと同一で、実行結果が本文の出力 {len(OUT[fn])} 行と一字一句一致", same)
L1, L2 = OUT["random_projection.py"], OUT["lowrank_attention.py"]

# ======================= 34.0・34.1 =======================
check("要点 n^2 の成分数", f"$65{{,}}536^2 = {cm(65536 ** 2)}$")
k4096 = {e: k_jl(4096, e)[0] for e in ("0.1", "0.5")}
check("要点 n = 4096 の k_JL", f"$n = {cm(4096)}$ では、$\\varepsilon = 0.5$ で {k4096['0.5']}、$\\varepsilon = 0.1$ で {cp(k4096['0.1'])} です", 2)
B = 4 * 65536 ** 2
check("34.1 重みの記憶", f"$4 \\times 65{{,}}536^2 = {cm(B)}$ バイト、つまり {B // 2 ** 30} GiB", 2)
truth("34.1 16 GiB はちょうど", B % 2 ** 30 == 0)
truth("34.1 1 ヘッドの乗算 n^2 d_k + n^2 d_v は 命題 7.2［自己注意］ の 2n^2 d（h ヘッド、d_k = d_v = d/h）と合う",
      all(h * (n * n * (d // h) * 2) == 2 * n * n * d for n in (64, 1024) for d in (64, 768) for h in (1, 2, 4, 8, 12) if d % h == 0))

# ======================= 命題 34.2・例 34.3 =======================
x = np.array([1.0, 2.0, 2.0]); y = np.array([2.0, -1.0, 2.0])
nx2, ny2, ixy = int(x @ x), int(y @ y), int(x @ y)
truth(f"例 34.3 |x|^2 = {nx2}、|y|^2 = {ny2}、<x, y> = {ixy}", (nx2, ny2, ixy) == (9, 9, 4), 3)
check("例 34.3 |x|^2 = 9", "$\\boldsymbol{x} = (1, 2, 2, 0, \\ldots, 0)$ とすると $\\|\\boldsymbol{x}\\|^2 = 9$")
v16 = Fraction(2 * nx2 ** 2, 16)
check("例 34.3 k=16 の分散", f"期待値 {nx2}、分散 $2 \\times 81/16 = {float(v16)}$", 2)
check("例 34.3 k=16 の標準偏差", f"$\\sqrt{{{float(v16)}}} \\approx {f(sqrt(v16), 4)}$")
check("例 34.3 相対標準偏差", f"${f(sqrt(v16), 4)}/9 \\approx {f(sqrt(v16) / 9, 4)} = \\sqrt{{2/16}}$")
truth("例 34.3 相対標準偏差は sqrt(2/k)", abs(sqrt(v16) / 9 - sqrt(2 / 16)) < 1e-15)
v64 = Fraction(2 * 81, 64)
check("例 34.3 k=64", f"$k = 64$ では分散 ${float(v64)}$、標準偏差約 ${f(sqrt(v64), 4)}$、相対標準偏差約 ${f(sqrt(v64) / 9, 4)}$", 3)
truth("例 34.3 k を 4 倍でばらつきは半分", all(abs(sqrt(2 / (4 * k)) - sqrt(2 / k) / 2) < 1e-15 for k in (4, 16, 64)))
kmin = min(k for k in range(1, 1000) if Fraction(2, k) <= Fraction(1, 100))
check("例 34.3 相対標準偏差 0.1 以下", f"$2/k \\le 0.01$、すなわち $k \\ge {kmin}$", 2)
check("例 34.3 試行回数", "20,000 個の $R$ について測ると")
truth("リスティング 1 の試行回数は 20,000", "d, trials = 16, 20000" in TEXT, 0)
row = {int(l.split()[0]): [float(v) for v in l.split()[1:]] for l in L1[1:4]}
check("例 34.3 実測の分散", f"分散は $k = 16$ で {f(row[16][1], 3)}、$k = 64$ で {f(row[64][1], 3)} でした", 2)
for k in (4, 16, 64):
    m1, v1, th1, m2, v2, th2 = row[k]
    truth(f"リスティング 1 k={k}: 理論列 2|x|^4/k = {162 / k}、(81+16)/k = {97 / k}（3 桁表示と一致）",
          f"{162 / k:.3f}" == f"{th1:.3f}" and f"{97 / k:.3f}" == f"{th2:.3f}", 0)
    truth(f"リスティング 1 k={k}: 平均・分散が理論値から 5 標準誤差以内",
          abs(m1 - 9) < 5 * sqrt(162 / k / 20000) and abs(m2 - 4) < 5 * sqrt(97 / k / 20000)
          and abs(v1 / (162 / k) - 1) < 0.1 and abs(v2 / (97 / k) - 1) < 0.1)
check("34.8 節 理論値 6.062 は 6.0625 の 3 桁表示", f"理論値の {97 / 16:.3f} は ${97 / 16}$ を 3 桁で表示したもの", 2)
check("34.8 節 162/k と 97/k", f"分散は式の ${2 * nx2 ** 2}/k$ と ${nx2 * ny2 + ixy ** 2}/k$ に近い値", 2)
check("34.8 節 平均は 9 と 4", f"平均はどの $k$ でも {nx2} と {ixy} に近く", 2)

# 命題 34.2 の 2：Z^2 の分散 2（E Z^4 = 3）を記号計算で
z = sp.symbols("z", real=True)
dens = sp.exp(-z ** 2 / 2) / sp.sqrt(2 * sp.pi)
EZ2 = sp.integrate(z ** 2 * dens, (z, -sp.oo, sp.oo)); EZ4 = sp.integrate(z ** 4 * dens, (z, -sp.oo, sp.oo))
truth(f"命題 34.2 E[Z^2] = {EZ2}、E[Z^4] = {EZ4}、Var Z^2 = {EZ4 - EZ2 ** 2}", (EZ2, EZ4) == (1, 3), 2)

# ======================= 命題 34.4 =======================
lam = sp.symbols("lambda", real=True)
mgf = sp.integrate(sp.exp(-(1 - 2 * sp.Rational(1, 4)) * z ** 2 / 2) / sp.sqrt(2 * sp.pi), (z, -sp.oo, sp.oo))
truth(f"命題 34.4 E[e^(λZ^2)] = (1 - 2λ)^(-1/2)（λ = 1/4 で {mgf}）", sp.simplify(mgf - sp.sqrt(2)) == 0)
e_ = sp.symbols("epsilon", positive=True)
gp = sp.diff(sp.log(1 + e_) - e_ + e_ ** 2 / 2 - e_ ** 3 / 3, e_)
hp = sp.diff(sp.log(1 - e_) + e_ + e_ ** 2 / 2, e_)
truth("命題 34.4 g'(ε) = -ε^3/(1+ε)", sp.simplify(gp + e_ ** 3 / (1 + e_)) == 0)
truth("命題 34.4 h'(ε) = -ε^2/(1-ε)", sp.simplify(hp + e_ ** 2 / (1 - e_)) == 0)
truth("命題 34.4 λ の選び方：1 - 2λ = 1/(1+ε)、1 + 2λ = 1/(1-ε)",
      sp.simplify(1 - 2 * e_ / (2 * (1 + e_)) - 1 / (1 + e_)) == 0 and sp.simplify(1 + 2 * e_ / (2 * (1 - e_)) - 1 / (1 - e_)) == 0, 2)
truth("定理 34.5 c(ε) = ε^2(3 - 2ε)/6", sp.simplify(e_ ** 2 / 2 - e_ ** 3 / 3 - e_ ** 2 * (3 - 2 * e_) / 6) == 0)


def chi2_tail(k, a, upper=True):
    """P(χ²_k ≥ a)（upper）または P(χ²_k ≤ a)。"""
    lower = mpmath.gammainc(mpmath.mpf(k) / 2, 0, mpmath.mpf(a) / 2, regularized=True)
    return 1 - lower if upper else lower


ok = True
for k in (4, 16, 64, 256):
    for eps in (0.1, 0.3, 0.5, 0.9):
        up = chi2_tail(k, k * (1 + eps)); lo = chi2_tail(k, k * (1 - eps), upper=False)
        b1 = mpmath.e ** (-(k / 2) * (eps - mpmath.log(1 + eps))); b2 = mpmath.e ** (-(k / 2) * (eps ** 2 / 2 - eps ** 3 / 3))
        b3 = mpmath.e ** ((k / 2) * (eps + mpmath.log(1 - eps))); b4 = mpmath.e ** (-k * eps ** 2 / 4)
        ok &= up <= b1 <= b2 and lo <= b3 <= b4 <= b2
truth("命題 34.4 χ² 分布の正確な裾の確率が 4 つの上界の連鎖を満たす（k ∈ {4,16,64,256}, ε ∈ {0.1,0.3,0.5,0.9}）", ok, 16)
cheb64, cheb256 = Fraction(2, 64) / Fraction(1, 4), Fraction(2, 256) / Fraction(1, 4)
ch64 = 2 * exp(-(64 / 2) * float(c_eps("0.5"))); ch256 = 2 * exp(-(256 / 2) * float(c_eps("0.5")))
truth("命題 34.4 の後 8/3 = (64/2) c(0.5)、32/3 = (256/2) c(0.5)", 32 * c_eps("0.5") == Fraction(8, 3) and 128 * c_eps("0.5") == Fraction(32, 3), 2)
check("命題 34.4 の後 k = 64", f"$k = 64$ ではチェビシェフが {float(cheb64)}、命題 34.4 が $2e^{{-8/3}} \\approx {f(ch64, 4)}$ でむしろ大きい", 2)
truth("命題 34.4 の後 k = 64 で指数の上界の方が大きい", ch64 > cheb64)
check("命題 34.4 の後 k = 256", f"$k = 256$ ではチェビシェフが {float(cheb256)}、命題 34.4 が $2e^{{-32/3}} \\approx {sci(ch256, 4)}$", 2)

# ======================= 定理 34.5・表 34.1 =======================
NS = (1024, 4096, 65536, 1048576)
EPS = ("0.1", "0.2", "0.5")
KJ = {(n, e): k_jl(n, e) for n in NS for e in EPS}
check("表 34.1 の見出し c(ε)", f"$c(0.1) \\approx {float(c_eps('0.1')):.6f}$、$c(0.2) \\approx {float(c_eps('0.2')):.5f}$、$c(0.5) = {sp.Rational(c_eps('0.5').numerator, c_eps('0.5').denominator)} \\approx {float(c_eps('0.5')):.5f}$", 3)
truth("表 34.1 c(0.5) = 1/12", c_eps("0.5") == Fraction(1, 12))
for n in NS:
    rowt = "\t".join([cp(n), f(log(n), 4)] + [cp(KJ[n, e][0]) for e in EPS])
    check(f"表 34.1 n = {n} の行", rowt, 4)
    lst = f"n = {n:7d}  k_jl: eps=0.1 {KJ[n, '0.1'][0]:5d}  eps=0.2 {KJ[n, '0.2'][0]:4d}  eps=0.5 {KJ[n, '0.5'][0]:3d}"
    truth(f"リスティング 1 の n = {n} の行が表 34.1 と一致", lst in L1, 0)
truth("表 34.1 n について単調増加、ε について単調減少",
      all(KJ[NS[i], e][0] < KJ[NS[i + 1], e][0] for i in range(3) for e in EPS)
      and all(KJ[n, "0.1"][0] > KJ[n, "0.2"][0] > KJ[n, "0.5"][0] for n in NS), 2)
check("表 34.1 の後 1024^2", f"$1{{,}}048{{,}}576 = 1{{,}}024^2$")
truth("表 34.1 の後 1024^2 = 1,048,576", 1024 ** 2 == 1048576)
v1, v2 = KJ[1024, "0.1"][1], KJ[1048576, "0.1"][1]
check("表 34.1 の後 切り上げ前の値", f"$5{{,}}{f(float(v1), 2)[1:]}$ のちょうど 2 倍の $11{{,}}{f(float(v2), 2)[2:]}$", 2)
truth("表 34.1 の後 ちょうど 2 倍", abs(v2 - 2 * v1) < 1e-25 and f(float(v1), 2).startswith("5") and f(float(v2), 2).startswith("11"))
check("表 34.1 の後 c(0.2)/c(0.1)", f"$c(0.2)/c(0.1) \\approx {f(float(c_eps('0.2') / c_eps('0.1')), 3)}$")
truth("表 34.1 どの欄も 128 より大きい", min(v[0] for v in KJ.values()) > 128)
check("表 34.1 の後 400 は n の約 9.8 %", f"$\\varepsilon = 0.5$ の {KJ[4096, '0.5'][0]} は $n$ の約 {100 * KJ[4096, '0.5'][0] / 4096:.1f} %", 2)
check("表 34.1 の後 系列の長さ", f"系列の長さ $n = {cm(4096)}$ を「次元」とみれば")
truth("定理 34.5 の場合分けの定義とリスティングの k_jl の式が同じ 2 つの場合",
      "\\lceil 4\\ln n/c(\\varepsilon)\\rceil & (\\delta \\text{ を指定しないとき" in TEXT
      and "\\lceil 2\\ln\\big(n(n-1)/\\delta\\big)/c(\\varepsilon)\\rceil & (0 < \\delta < 1" in TEXT
      and "top = 4 * np.log(n) if delta is None else 2 * np.log(n * (n - 1) / delta)" in TEXT, 2)
k100, _ = k_jl(100, "0.5"); k100d, _ = k_jl(100, "0.5", "0.01")
check("34.3 節 実験の k_JL(100, 0.5)", f"1,000 次元の 100 点を $k_{{\\mathrm{{JL}}}}(100, 0.5) = {k100}$ 次元に写した", 3)
truth("34.3 節 実験の点の数と次元はリスティングのもの", "n, D = 100, 1000" in TEXT, 0)
rat = {int(l.split()[2]): (float(l.split()[5]), float(l.split()[8]), int(l.split()[10])) for l in L1[5:9]}
truth(f"リスティング 1 k_jl の行：{L1[4]}", L1[4] == f"k_jl(100, 0.5) = {k100}   with delta = 0.01: {k100d}", 0)
check("34.3 節 k = 222 の最大比", f"距離の 2 乗の比の最大は {f(rat[k100][1], 3)} で、$1 + \\varepsilon = 1.5$ をわずかに超えました")
truth("34.3 節 1.529 > 1.5", rat[k100][1] > 1.5)
check("34.3 節 δ = 0.01 の k", f"$k = \\lceil 2\\ln({cm(100 * 99 * 100)})/c(0.5)\\rceil = {k100d}$", 2)
check("34.3 節 k = 332 の範囲", f"比は {f(rat[k100d][0], 3)} から {f(rat[k100d][1], 3)} に収まりました", 2)
truth("34.3 節 k = 332 の比は [0.5, 1.5] の中", 0.5 <= rat[k100d][0] and rat[k100d][1] <= 1.5)
truth("リスティング 1 組の数 4,950 = C(100, 2)", all(v[2] == comb(100, 2) for v in rat.values()), 0)
check("34.8 節 4,950 組", f"{cp(comb(100, 2))} 組の距離の 2 乗の比")
truth("34.8 節 k を増やすと比の範囲が縮む", all(rat[a][1] - rat[a][0] > rat[b][1] - rat[b][0] for a, b in ((25, 100), (100, 222), (222, 332))))
check("34.8 節 k = 222 の最大", f"$k = {k100}$ の最大 {f(rat[k100][1], 3)} が $1.5$ を超える")

# ======================= 命題 34.6・系 34.7・命題 34.8 =======================
# 命題 34.6：d = 3 の一般の x, y で、ガウスの 4 次モーメントから E[a^2 b^2] を記号計算する
kk = sp.symbols("k", positive=True)
xs = sp.symbols("x1:4", real=True); ys = sp.symbols("y1:4", real=True); gs = sp.symbols("g1:4", real=True)
a = sum(xi * gi for xi, gi in zip(xs, gs)); b = sum(yi * gi for yi, gi in zip(ys, gs))


def gauss_moment(expr):
    poly = sp.Poly(sp.expand(expr), *gs)
    tot = 0
    for mon, coef in poly.terms():
        term = coef
        for p in mon:
            term *= 0 if p % 2 else sp.factorial2(p - 1) * kk ** sp.Rational(-p, 2)
        tot += term
    return sp.simplify(tot)


nxs = sum(v ** 2 for v in xs); nys = sum(v ** 2 for v in ys); ip = sum(u * v for u, v in zip(xs, ys))
Eab, Ea2b2 = gauss_moment(a * b), gauss_moment(a ** 2 * b ** 2)
truth("命題 34.6 E[ab] = <x,y>/k（d = 3 で記号計算）", sp.simplify(Eab - ip / kk) == 0)
truth("命題 34.6 E[a^2 b^2] = (|x|^2|y|^2 + 2<x,y>^2)/k^2", sp.simplify(Ea2b2 - (nxs * nys + 2 * ip ** 2) / kk ** 2) == 0)
truth("命題 34.6 k 行の和の分散 = (|x|^2|y|^2 + <x,y>^2)/k、y = x で 2|x|^4/k",
      sp.simplify(kk * (Ea2b2 - Eab ** 2) - (nxs * nys + ip ** 2) / kk) == 0
      and sp.simplify(((nxs * nys + ip ** 2) / kk).subs(dict(zip(ys, xs))) - 2 * nxs ** 2 / kk) == 0, 2)
vip16 = Fraction(nx2 * ny2 + ixy ** 2, 16)
check("命題 34.6 の後 例", f"$\\|\\boldsymbol{{x}}\\|^2 = \\|\\boldsymbol{{y}}\\|^2 = {nx2}$、$\\langle\\boldsymbol{{x}}, \\boldsymbol{{y}}\\rangle = {ixy}$", 2)
check("命題 34.6 の後 分散", f"$k = 16$ の分散は $(81 + 16)/16 = {float(vip16)}$、標準偏差は約 ${f(sqrt(vip16), 4)}$", 2)
check("命題 34.6 の後 ばらつきの割合", f"内積 {ixy} に対して約 {100 * sqrt(vip16) / ixy:.2f} % のばらつき")
truth("系 34.7 偏極の恒等式と中線定理（記号）",
      sp.expand((sum((u + v) ** 2 for u, v in zip(xs, ys)) - sum((u - v) ** 2 for u, v in zip(xs, ys))) / 4 - ip) == 0
      and sp.expand(sum((u + v) ** 2 for u, v in zip(xs, ys)) + sum((u - v) ** 2 for u, v in zip(xs, ys)) - 2 * nxs - 2 * nys) == 0, 2)
rng = np.random.default_rng(2024)
ok7 = ok8 = True
for _ in range(3000):
    d, k = 8, 4
    R = rng.standard_normal((k, d)) / np.sqrt(k)
    xv, yv = rng.standard_normal(d), rng.standard_normal(d) * rng.uniform(0.1, 3)
    eps = max(abs((np.linalg.norm(R @ z_) ** 2) / (z_ @ z_) - 1) for z_ in (xv + yv, xv - yv))
    ok7 &= abs((R @ xv) @ (R @ yv) - xv @ yv) <= eps / 2 * (xv @ xv + yv @ yv) + 1e-12
    s = rng.standard_normal(6) * 3; dl = rng.uniform(0, 1.5); s2 = s + rng.uniform(-dl, dl, 6)
    sm = lambda t: np.exp(t - t.max()) / np.exp(t - t.max()).sum()
    r = sm(s2) / sm(s)
    ok8 &= (r >= np.exp(-2 * dl) - 1e-12).all() and (r <= np.exp(2 * dl) + 1e-12).all() and np.abs(sm(s2) - sm(s)).sum() <= np.exp(2 * dl) - 1 + 1e-12
truth("系 34.7 を乱数の 3,000 組で確認", ok7)
truth("命題 34.8 の 1・2 を乱数の 3,000 組で確認", ok8, 2)

# 例 34.9
sd = 64 / sqrt(32)
check("例 34.9 標準偏差", f"$\\sqrt{{64 \\times 64/32}} = 64/\\sqrt{{32}} \\approx {f(sd, 4)}$ 以上、$\\sqrt{{d_k}} = 8$ で割ったスコアでは約 {f(sd / 8, 4)} 以上", 2)
check("例 34.9 重みの比", f"スコアのずれを {f(sd / 8, 4)} 程度まで許す")
check("例 34.9 e^{2δ}", f"$e^{{2 \\times {f(sd / 8, 4)}}} \\approx {f(exp(2 * sd / 8), 2)}$")
eps9 = Fraction(1, 10) * 2 * 8 / 128
check("例 34.9 ε", f"$\\varepsilon \\times 128/(2 \\times 8) = 8\\varepsilon \\le 0.1$、つまり $\\varepsilon = {float(eps9)}$", 2)
truth("例 34.9 (64 + 64)/(2 × 8) = 8", Fraction(128, 16) == 8)
ce = c_eps(eps9)
check("例 34.9 c(0.0125)", f"$c(0.0125) = {sci(float(eps9 ** 2 / 2), 5)} - {sci(float(eps9 ** 3 / 3), 5)} \\approx {sci(float(ce), 5)}$", 3)
k9, v9 = k_jl(3 * 1024, eps9)
check("例 34.9 点の数", f"点は $3n = {cm(3 * 1024)}$ 個")
check("例 34.9 ln 3072", f"$k \\ge 4\\ln 3{{,}}072/c(0.0125) \\approx 4 \\times {f(log(3072), 4)}/({sci(float(ce), 5)})$", 2)
check("例 34.9 k", f"切り上げて {cp(k9)} 次元")
check("例 34.9 d_k の何倍", f"約 {cp(round(k9 / 64))} 倍")
check("例 34.9 e^0.2 - 1", f"$e^{{0.2}} - 1 \\approx {f(exp(0.2) - 1, 4)}$")
truth("例 34.9 2δ = 0.2", Fraction(2) * Fraction(1, 10) == Fraction(1, 5), 0)

# ======================= 命題 34.10・例 34.11 =======================
def exact_rank(rows):
    """有理数の厳密なガウスの消去法による階数。"""
    M = [[Fraction(v) for v in r] for r in rows]
    rk, ncol = 0, len(M[0])
    for c in range(ncol):
        piv = next((i for i in range(rk, len(M)) if M[i][c] != 0), None)
        if piv is None:
            continue
        M[rk], M[piv] = M[piv], M[rk]
        for i in range(len(M)):
            if i != rk and M[i][c] != 0:
                fct = M[i][c] / M[rk][c]
                M[i] = [u - fct * w for u, w in zip(M[i], M[rk])]
        rk += 1
    return rk


rngi = np.random.default_rng(5)
okr = True
for dk in (1, 2, 3, 4):
    for p in (1, 2, 3):
        Qi, Ki = rngi.integers(-3, 4, (30, dk)), rngi.integers(-3, 4, (30, dk))
        Sp = [[int(Qi[i] @ Ki[j]) ** p for j in range(30)] for i in range(30)]
        okr &= exact_rank(Sp) == min(comb(dk + p - 1, p), 30)
truth("命題 34.10 の 2：整数の乱数で S∘p の階数が C(d_k + p - 1, p) に等しい（d_k ≤ 4、p ≤ 3、上界に達する）", okr, 12)
tt = sp.symbols("t0:6")
okv = True
for n in range(2, 6):
    M = sp.Matrix(n, n, lambda i, l: tt[i] ** l)
    okv &= sp.expand(M.det() - sp.prod([tt[j] - tt[i] for i in range(n) for j in range(i + 1, n)])) == 0
truth("命題 34.10 の 3：n = 2..5 でファンデルモンドの行列式 = Π(t_i' - t_i)（記号）、t_i = e^(i-1) は互いに異なる", okv, 4)
E = sp.E
d3 = (E - 1) * (E ** 2 - 1) * (E ** 2 - E)
check("例 34.11 の行列式", f"$(e - 1)(e^2 - 1)(e^2 - e) \\approx {f(float(E - 1), 4)} \\times {f(float(E ** 2 - 1), 4)} \\times {f(float(E ** 2 - E), 4)} \\approx {f(float(d3), 4)}$", 4)
r2, r3 = 1 + E + E ** 2, 1 + E ** 2 + E ** 4
check("例 34.11 行の和", f"行の和は 3、$1 + e + e^2 \\approx {f(float(r2), 4)}$、$1 + e^2 + e^4 \\approx {f(float(r3), 4)}$", 3)
rows = [[sp.Rational(1, 3)] * 3, [1 / r2, E / r2, E ** 2 / r2], [1 / r3, E ** 2 / r3, E ** 4 / r3]]
rowstr = "、".join("(" + ", ".join(f(float(v), 4) for v in rw) + ")" for rw in rows)
check("例 34.11 A の行", f"$A$ の行は " + "、".join("$(" + ", ".join(f(float(v), 4) for v in rw) + ")$" for rw in rows), 9)
detA = d3 / (3 * r2 * r3)
check("例 34.11 det A", f"$\\det A \\approx {f(float(d3), 4)}/(3 \\times {f(float(r2), 4)} \\times {f(float(r3), 4)}) \\approx {f(float(detA), 5)}$", 5)
truth("例 34.11 det A は softmax の行列の行列式（記号）", sp.simplify(sp.Matrix(rows).det() - detA) == 0)
check("例 34.11 リスティングの行", f"d_k=1: rank S = 1  rank A = 3  det exp(S) = {f(float(d3), 4)}  det A = {f(float(detA), 5)}", 2)
for dk, P in ((64, 2), (64, 3), (8, 4)):
    truth(f"低ランク：Σ_(p≤{P}) C({dk}+p-1, p) = C({dk}+{P}, {P})", sum(comb(dk + p - 1, p) for p in range(P + 1)) == comb(dk + P, P), 0)
check("低ランク C(65,2)", f"$\\binom{{65}}{{2}} = {cm(comb(65, 2))}$")
check("低ランク C(66,2)", f"$\\binom{{66}}{{2}} = {cm(comb(66, 2))}$")
check("低ランク C(66,3)", f"$\\binom{{66}}{{3}} = {cm(comb(66, 3))}$")
truth("低ランク 2 次の項は C(64+2-1, 2)、3 次の項は C(64+3-1, 3)", comb(65, 2) == comb(64 + 1, 2) and comb(66, 3) == comb(64 + 2, 3), 0)
check("34.8 節 C(9,2) = 36", f"$\\binom{{9}}{{2}} = {comb(9, 2)}$")
truth("リスティング 2 の 2 行目：rank S = 8、rank S∘2 = C(9, 2)、rank A = 64",
      L2[1] == f"n=64, d_k=8: rank S = 8  rank S^2 = {comb(8 + 1, 2)}  rank A = 64", 0)

# ======================= 命題 34.13・34.14・表 34.2 =======================
n_, k_, dk_, dv_ = sp.symbols("n k d_k d_v", positive=True)
lin = k_ * n_ * dk_ + k_ * n_ * dv_ + n_ * k_ * dk_ + n_ * k_ * dv_
std = n_ ** 2 * dk_ + n_ ** 2 * dv_
truth("命題 34.13 の 1：4 つの積の和 = 2nk(d_k + d_v)、比 = 2k/n",
      sp.expand(lin - 2 * n_ * k_ * (dk_ + dv_)) == 0 and sp.simplify(lin / std - 2 * k_ / n_) == 0, 2)


def mults(A_shape, B_shape):
    (p, q), (q2, r) = A_shape, B_shape
    assert q == q2
    return p * q * r


n0, k0, d0, e0 = 10, 3, 4, 5
cnt = mults((k0, n0), (n0, d0)) + mults((k0, n0), (n0, e0)) + mults((n0, d0), (d0, k0)) + mults((n0, k0), (k0, e0))
truth("命題 34.13 の 1：形から数えた回数が式と一致（n=10, k=3, d_k=4, d_v=5）", cnt == 2 * n0 * k0 * (d0 + e0))
rng3 = np.random.default_rng(7)
Qm, Km, Vm = rng3.standard_normal((12, 4)), rng3.standard_normal((12, 4)), rng3.standard_normal((12, 3))
Fm = rng3.uniform(0, 1, (5, 12)); Fm /= Fm.sum(1, keepdims=True); Em = rng3.standard_normal((5, 12))
Sb = Qm @ (Em @ Km).T / 2; Ab = np.exp(Sb - Sb.max(1, keepdims=True)); Ab /= Ab.sum(1, keepdims=True)
Ph = Ab @ Fm
truth("命題 34.13 の 2・3：P̂ = ĀF の階数 ≤ k、非負で行和 1、出力は P̂V",
      np.linalg.matrix_rank(Ph) <= 5 and (Ph >= 0).all() and np.allclose(Ph.sum(1), 1) and np.allclose(Ab @ (Fm @ Vm), Ph @ Vm), 3)
Rs = sp.symbols("r1:4", real=True)
truth("命題 34.14 の 1：E[R_ij R_il] = δ_jl/k（記号）", gauss_moment(gs[0] * gs[1]) == 0 and sp.simplify(gauss_moment(gs[0] ** 2) - 1 / kk) == 0)
avec = rng3.dirichlet(np.ones(50))
truth("命題 34.14 の 3：1/n ≤ |a|^2 ≤ max a（確率ベクトルの乱数 1,000 個）",
      all(1 / 50 - 1e-15 <= (av @ av) <= av.max() + 1e-15 for av in (rng3.dirichlet(np.ones(50) * s) for s in np.geomspace(0.01, 100, 1000))), 2)
ent = L2[3].split()
exact, mean, var, form = float(ent[3]), float(ent[5]), float(ent[7]), float(ent[9])
check("命題 34.14 の後 実験の設定", "$n = 256$、$d_k = 16$、$k = 64$")
truth("リスティング 2 の設定が本文と同じ", "n, dk, k = 256, 16, 64" in TEXT and "range(20000)" in TEXT, 0)
check("命題 34.14 の後 実験の値", f"正しい値 ${f(exact, 4)}$ に対し 20,000 個の $R$ での平均は ${f(mean, 4)}$、分散は {f(var, 5)} で、式の {f(form, 5)} と約 {100 * abs(var / form - 1):.1f} % の差", 5)
truth("命題 34.14 平均は正しい値から 4 標準誤差以内", abs(mean - exact) < 4 * sqrt(form / 20000))
sq = L2[4].split()
check("34.8 節 |a_i|^2 の平均", f"平均 {sq[3]} は $1/n \\approx {f(1 / 256, 4)}$ と行の最大値の平均 {sq[8]} の間", 3)
truth("34.8 節 1/n ≤ 平均 |a|^2 ≤ 平均 max", 1 / 256 <= float(sq[3]) <= float(sq[8]) and sq[11] == f(1 / 256, 4))

d, kL, mN = 64, 256, 64
cost = {"std": lambda n: n * n * 2 * d, "lin": lambda n: 2 * n * kL * 2 * d,
        "nys": lambda n: 2 * n * mN * 2 * d + mN * mN * d + mN ** 3}
for n in (1024, 4096, 16384, 65536):
    ratio = Fraction(cost["lin"](n), cost["std"](n))
    truth(f"表 34.2 n = {n}: 比 = 2k/n", ratio == Fraction(2 * kL, n), 0)
    rt = "\t".join([cp(n), cp(cost["std"](n)), cp(cost["lin"](n)), str(float(ratio)),
                    f"{cp(4 * n * n // 2 ** 20)} MiB", f"{cp(4 * n * kL // 2 ** 20)} MiB"])
    truth(f"表 34.2 n = {n}: バイト数は MiB で割り切れる", (4 * n * n) % 2 ** 20 == 0 and (4 * n * kL) % 2 ** 20 == 0, 0)
    check(f"表 34.2 n = {n} の行", rt, 6)
    lst = f"n={n:5d} " + "  ".join("%s %d (%.5f)" % (s, cost[c](n), cost[c](n) / cost["std"](n))
                                   for s, c in (("standard", "std"), ("Linformer", "lin"), ("Nystrom", "nys")))
    truth(f"リスティング 2 の n = {n} の行が式と一致", lst in L2, 0)
truth("表 34.2 の後 n を 4 倍で標準は 16 倍、Linformer は 4 倍",
      all(cost["std"](4 * n) == 16 * cost["std"](n) and cost["lin"](4 * n) == 4 * cost["lin"](n) for n in (1024, 4096, 16384)), 2)
check("表 34.2 の後 4^2 = 16", "$4^2 = 16$ 倍")
check("表 34.2 の後 16 GiB", f"1 ヘッドで {cp(4 * 65536 ** 2 // 2 ** 20)} MiB（{4 * 65536 ** 2 // 2 ** 30} GiB）", 2)
check("表 34.2 の後 12 ヘッド", f"$12 \\times 16{{,}}384 = {cm(12 * 16384)}$")
truth("表 34.2 の後 n = 1,024 で k = 256 は半分、k = 512 は同じ", Fraction(2 * 256, 1024) == Fraction(1, 2) and Fraction(2 * 512, 1024) == 1, 2)
check("表 34.2 の後 k = 512", "$n = 1{,}024$ でも $k = 256$ なら回数は半分になりますが、$k = 512$ では同じ")
check("34.8 節 丸めの注記", f"比 {Fraction(2 * 256, 65536).numerator / Fraction(2 * 256, 65536).denominator} は小数第 5 位に丸めて {2 * 256 / 65536:.5f} と表示", 2)

# ======================= 命題 34.16・例 34.17・表 34.3 =======================
rng4 = np.random.default_rng(11)
okn = True
for r in (1, 2, 3, 5):
    M = rng4.standard_normal((9, r)) @ rng4.standard_normal((r, 7))
    I, J = [0, 2, 4, 6, 8][:r], [1, 3, 5, 6, 0][:r]
    Mh = M[:, J] @ np.linalg.solve(M[np.ix_(I, J)], M[I, :])
    okn &= np.allclose(Mh, M)
M = rng4.standard_normal((9, 7)); I, J = [0, 3], [2, 5]
Mh = M[:, J] @ np.linalg.solve(M[np.ix_(I, J)], M[I, :])
truth("命題 34.16 の 1：階数 r の乱数行列で Nyström は厳密（r = 1, 2, 3, 5）", okn)
truth("命題 34.16 の 2：一般の行列で行 I と列 J が一致", np.allclose(Mh[I, :], M[I, :]) and np.allclose(Mh[:, J], M[:, J]) and not np.allclose(Mh, M), 2)
n1, m1, dk1, dv1 = 11, 3, 4, 5
cntN = mults((n1, dk1), (dk1, m1)) + mults((m1, dk1), (dk1, n1)) + mults((m1, n1), (n1, dv1)) + mults((m1, m1), (m1, dv1)) + mults((n1, m1), (m1, dv1)) + m1 ** 3
truth("命題 34.16 の 3：形から数えた回数が 2nm(d_k + d_v) + m^2 d_v + m^3 と一致", cntN == 2 * n1 * m1 * (dk1 + dv1) + m1 ** 2 * dv1 + m1 ** 3)
aa = sp.exp(1 / sp.sqrt(2))
check("例 34.17 S の値", f"$1/\\sqrt{{2}} \\approx {f(1 / sqrt(2), 5)}$")
check("例 34.17 a", f"$a := e^{{1/\\sqrt{{2}}}} \\approx {f(float(aa), 5)}$")
Gs = sp.Matrix([[aa, 1, aa, 1], [1, aa, 1, aa]] * 2)
Gs = sp.Matrix([[aa, 1, aa, 1], [1, aa, 1, aa], [aa, 1, aa, 1], [1, aa, 1, aa]])
truth("例 34.17 G の階数は 2", Gs.rank() == 2)
check("例 34.17 det G_JJ", f"$a^2 - 1 \\approx {f(float(aa ** 2 - 1), 5)} \\ne 0$")
GJJ = Gs[:2, :2]
truth("例 34.17 Nyström は厳密（記号）", sp.simplify(Gs[:, :2] * GJJ.inv() * Gs[:2, :] - Gs) == sp.zeros(4, 4))
check("例 34.17 重み", f"位置 1, 3 に $a/(2a + 2) \\approx {f(float(aa / (2 * aa + 2)), 5)}$、位置 2, 4 に $1/(2a + 2) \\approx {f(float(1 / (2 * aa + 2)), 5)}$", 2)
vv = sp.Matrix([1, 2, 3, 4])
o = [sp.simplify((Gs[i, :] * vv)[0] / sum(Gs[i, :])) for i in range(4)]
truth("例 34.17 出力の式 (2a+3)/(a+1) と (3a+2)/(a+1)", sp.simplify(o[0] - (2 * aa + 3) / (aa + 1)) == 0 and sp.simplify(o[1] - (3 * aa + 2) / (aa + 1)) == 0, 2)
check("例 34.17 出力", f"第 1 行が $(2a + 3)/(a + 1) \\approx {f(float(o[0]), 5)}$、第 2 行が $(3a + 2)/(a + 1) \\approx {f(float(o[1]), 5)}$", 2)
truth("例 34.17 和はちょうど 5", sp.simplify(o[0] + o[1] - 5) == 0)
check("例 34.17 リスティングの行", f"rank G = 2  max|G - Nystrom| = 0.0e+00  outputs {f(float(o[0]), 5)} {f(float(o[1]), 5)} {f(float(o[2]), 5)} {f(float(o[3]), 5)}", 4)
n = 4096
check("表 34.3 の設定", f"$n = {cm(n)}$、$d_k = d_v = {d}$、$k = {kL}$、$m = {mN}$、1 ヘッド", 4)
check("表 34.2 の設定", f"$d_k = d_v = {d}$、$k = {kL}$、重みは fp32 の 4 バイト、1 MiB $= 2^{{20}}$ バイト", 3)
memS, memL, memN = n * n, n * kL, 2 * n * mN + mN * mN
tot = {"標準": (cost["std"](n), memS), "Linformer": (cost["lin"](n), memL), "Nyström": (cost["nys"](n), memN)}
formulas = {"標準": "$n^2(d_k + d_v)$", "Linformer": "$2nk(d_k + d_v)$", "Nyström": "$2nm(d_k + d_v) + m^2d_v + m^3$"}


def rcell(x):
    x = Fraction(x)
    if x == 1:
        return "1"
    s = f"{float(x):.5f}"
    return str(float(x)) if len(str(float(x))) <= 6 else s


for name, (c, mem) in tot.items():
    rt = "\t".join([name, formulas[name], cp(c), rcell(Fraction(c, cost["std"](n))), cp(mem), rcell(Fraction(mem, memS))])
    check(f"表 34.3 {name} の行", rt, 4)
truth("表 34.3 Nyström の 2 つの比が等しい：回数 = 128(2nm + m^2)", cost["nys"](n) == 128 * memN and Fraction(cost["nys"](n), cost["std"](n)) == Fraction(memN, memS), 2)
check("表 34.3 の後 128(2nm + m^2)", "$m = d_v = 64$ のとき回数が $128(2nm + m^2)$ と書ける")
truth("表 34.3 の Nyström の回数はリスティング 2 の出力と一致", f"Nystrom {cost['nys'](4096)} ({cost['nys'](4096) / cost['std'](4096):.5f})" in L2[6], 0)

# ======================= 演習 =======================
c25 = c_eps("0.25")
check("演習 34.18 c(0.25)", f"$c(0.25) = 0.03125 - 0.015625/3 \\approx 0.03125 - {f(0.015625 / 3, 7)} = {f(float(c25), 7)}$", 3)
truth("演習 34.18 0.25^2/2 = 0.03125、0.25^3 = 0.015625", Fraction(1, 4) ** 2 / 2 == Fraction("0.03125") and Fraction(1, 4) ** 3 == Fraction("0.015625"), 0)
k18, v18 = k_jl(10000, "0.25")
k18d, v18d = k_jl(10000, "0.25", "0.01")
check("演習 34.18 1", f"$4\\ln 10{{,}}000/c(0.25) \\approx 4 \\times {f(log(1e4), 4)}/{f(float(c25), 7)} \\approx 1{{,}}{f(float(v18), 2)[1:]}$ で、切り上げて {cp(k18)} です", 3)
check("演習 34.18 2", f"$2\\ln(10{{,}}000 \\times 9{{,}}999/0.01)/c(0.25) \\approx 2 \\times {f(log(1e4 * 9999 / 0.01), 4)}/{f(float(c25), 7)} \\approx 1{{,}}{f(float(v18d), 2)[1:]}$ で、切り上げて {cp(k18d)} です", 3)
check("演習 34.18 比", f"次元は約 {k18d / k18:.2f} 倍")
a = sp.symbols("a", real=True)
S19 = sp.Matrix([[0], [a]]) * sp.Matrix([[0, a]])
A19 = sp.Matrix([[sp.exp(S19[i, j]) / (sp.exp(S19[i, 0]) + sp.exp(S19[i, 1])) for j in range(2)] for i in range(2)])
truth("演習 34.19 det A = (e^{a^2} - 1)/(2(1 + e^{a^2}))", sp.simplify(A19.det() - (sp.exp(a ** 2) - 1) / (2 * (1 + sp.exp(a ** 2)))) == 0)
truth("演習 34.19 S の行は (0,0) と (0,a^2)", S19 == sp.Matrix([[0, 0], [0, a ** 2]]))
check("演習 34.19 a = 1", f"$(e - 1)/(2(1 + e)) \\approx {f(float(E - 1), 5)}/{f(float(2 * (1 + E)), 5)} \\approx {f(float((E - 1) / (2 * (1 + E))), 5)}$", 3)
x20, y20 = np.array([1, 1, 0]), np.array([1, -1, 0])
v20 = Fraction(int(x20 @ x20) * int(y20 @ y20) + int(x20 @ y20) ** 2, 8)
truth("演習 34.20 直交で |x|^2 = |y|^2 = 2", x20 @ y20 == 0 and x20 @ x20 == 2 and y20 @ y20 == 2, 3)
check("演習 34.20 分散", f"分散 $(2 \\times 2 + 0)/8 = {float(v20)}$、標準偏差は約 {f(sqrt(v20), 4)}", 2)
check("演習 34.20 チェビシェフ", f"確率は $0.5/1^2 = {float(v20)}$ 以下")
check("演習 34.20 目安", f"$\\|\\boldsymbol{{x}}\\|\\|\\boldsymbol{{y}}\\|/\\sqrt{{k}} = 2/\\sqrt{{8}} \\approx {f(2 / sqrt(8), 4)}$")

# ======================= 本文の数値の網羅性 =======================
body = TEXT
for fn in ("random_projection.py", "lowrank_attention.py"):
    code, block = printed_output(fn)
    body = body.replace(code, "").replace(block, "")
body = body[:body.index("参考文献")]
pat = re.compile(r"\d+(?:\{,\}\d{3})+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{4,}")
uncovered = []
for line in body.splitlines():
    for mt in pat.finditer(line):
        tok = mt.group()
        after = line[mt.end():mt.end() + 1]
        if re.fullmatch(r"34\.\d+", tok) or after == "［" or tok in ("1.5",):   # 要素・節の番号、他章の番号、1 + ε
            continue
        if not any(tok in s for s in covered):
            uncovered.append(tok)
truth(f"本文の小数・4 桁以上・3 桁区切りの数はすべて検査済み（未検査: {uncovered}）", not uncovered, 0)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

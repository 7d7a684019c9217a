"""label_smoothing.txt の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）。本文の言葉で述べた性質（単調性・不等式・恒等式）は
数値で確かめる（truth）。最後に本文のリスティングを実行し、コードが label_smoothing.py と
同一であること、出力が本文の出力と完全に一致することを確かめる。
1 つでも合わなければ終了コード 1 で終わる。
"""
import os
import subprocess
import sys
from decimal import Decimal, ROUND_HALF_EVEN
from fractions import Fraction

import mpmath
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "label_smoothing.txt"), encoding="utf-8").read()
mpmath.mp.dps = 50
mpf, log, exp = mpmath.mpf, mpmath.log, mpmath.exp

checked = 0      # 照合した数値の個数
failures = 0


def check(label, expected, count=1):
    """expected（計算値から組み立てた文字列）が本文にあるかを調べる。count はその中の数値の個数。"""
    global checked, failures
    ok = expected in TEXT
    checked += count
    if not ok:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected.strip()}")


def truth(label, cond, count=1):
    """本文の言葉で述べた性質を確かめる。"""
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


# ---------- 書式 ----------
SEP = ",\\ "   # 本文のベクトルの区切り「,\ 」

def f(x, d):
    """小数第 d 位に最近接偶数丸め（mpf / Fraction / int / float を受け付ける）。"""
    if isinstance(x, Fraction):
        s = Decimal(x.numerator) / Decimal(x.denominator)
    else:
        s = Decimal(mpmath.nstr(mpf(x), 45, strip_zeros=False)) if not isinstance(x, int) else Decimal(x)
    r = s.quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_EVEN)
    if r == 0:
        r = abs(r)
    return f"{r:.{d}f}"


def sci(x, sig):
    """有効数字 sig 桁の a \\times 10^{e}。"""
    xf = mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpf(x)
    e = int(mpmath.floor(mpmath.log10(xf)))

    def mant(e):
        # Fraction は正確に、それ以外は 50 桁の mpf で仮数を作る
        return x / Fraction(10) ** e if isinstance(x, Fraction) else xf / mpf(10) ** e

    ms = f(mant(e), sig - 1)
    if ms.startswith("10"):
        e += 1
        ms = f(mant(e), sig - 1)
    return f"{ms} \\times 10^{{{e}}}"


def cm(n):
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    return f"{n:,}"


def minus(s):
    """表の中の負号（U+2212）。"""
    return s.replace("-", "−")


def dec_sum(*xs):
    """表示された小数の和（表示どおりの桁での算術が正しいかを見る）。"""
    return sum(Decimal(x) for x in xs)


# ---------- 定義（定義 2.1・2.3） ----------
def target(V, eps, y=0):
    q = [mpf(eps) / V] * V
    q[y] += 1 - mpf(eps)
    return q


def H(a):
    return -sum(x * log(x) for x in a if x > 0)


def Hx(a, b):
    return -sum(x * log(y) for x, y in zip(a, b) if x > 0)


def KL(a, b):
    return sum(x * log(x / y) for x, y in zip(a, b) if x > 0)


def softmax(z):
    m = max(z)
    e = [exp(t - m) for t in z]
    s = sum(e)
    return [t / s for t in e]


def LSE(z):
    return log(sum(exp(t) for t in z))


def gap(V, eps):
    q = target(V, eps)
    return log(q[0] / q[1])


def hb(s):
    s = mpf(s)
    return -s * log(s) - (1 - s) * log(1 - s)


# ======================= 0 節・1 節・2 節 =======================
q32 = target(32000, "0.1")
g32, H32 = gap(32000, "0.1"), H(q32)
check("要点 Δ*(0.1, 32000)", f"$\\Delta^{{*}} \\approx {f(g32, 4)}$、$H(\\boldsymbol{{q}}) \\approx {f(H32, 4)}$", 2)
check("要点 V = 32,000, ε = 0.1", f"$V = {cm(32000)}$、$\\varepsilon = 0.1$ では", 2)
check("要点 e^H と 1/q_y", f"$e^{{H(\\boldsymbol{{q}})}} \\approx {f(exp(H32), 4)}$ ですが、パープレキシティは $1/q_y \\approx {f(1 / q32[0], 4)}$", 2)
check("1 節 Szegedy の K と ε（文献の値）", "クラス数 $K = 1{,}000$ の画像分類で $\\varepsilon = 0.1$", 2)
check("1 節 Vaswani の ε_ls（文献の値）", "$\\varepsilon_{ls} = 0.1$ を使い", 1)
check("1 節 3 つのこと", "そのため次の 3 つのことが起きます", 1)
q4 = target(4, "0.1")
check("2 節 V=4 の q", f"$\\boldsymbol{{q}} = ({', '.join(f(x, 3) for x in q4)})$", 4)
qy32 = Fraction(9, 10) + Fraction(1, 10) / 32000
check("2 節 V=32000 の q_y", f"$q_y = 0.9 + 0.1/{cm(32000)} = {float(qy32):.9f}$", 2)
truth("2 節 0.900003125 は正確な値", qy32 == Fraction(900003125, 10 ** 9))
check("2 節 V=32000 のほかの成分", f"ほかの各成分は ${sci(Fraction(1, 10) / 32000, 4)}$ です", 1)
check("2 節 PyTorch の既定値（文献の値）", "既定値は 0.0", 1)

# ======================= 3 節：命題 3.1・3.2 を数値で確かめる =======================
rng = np.random.default_rng(1)
ok31 = ok32 = okconv = True
for _ in range(200):
    V = int(rng.integers(2, 9))
    y = int(rng.integers(0, V))
    eps = mpf(float(rng.uniform(0, 1)))
    z = [mpf(float(t)) for t in rng.normal(0, 3, V)]
    p = softmax(z)
    q = target(V, eps, y)
    L = Hx(q, p)
    CE = -log(p[y])
    zbar = sum(z) / V
    u = [mpf(1) / V] * V
    ok31 &= abs(L - ((1 - eps) * CE + eps * Hx(u, p))) < mpf(10) ** -40
    ok31 &= abs(L - (LSE(z) - (1 - eps) * z[y] - eps * zbar)) < mpf(10) ** -40
    ok31 &= abs(L - (CE + eps * (z[y] - zbar))) < mpf(10) ** -40
    ok31 &= abs(Hx(u, p) - (log(V) + KL(u, p))) < mpf(10) ** -40 and KL(u, p) >= 0
    # 勾配（命題 3.2 の 1）を数値微分で
    hstep = mpf(10) ** -15
    for j in range(V):
        zp = list(z); zp[j] += hstep
        zm = list(z); zm[j] -= hstep
        d = (Hx(q, softmax(zp)) - Hx(q, softmax(zm))) / (2 * hstep)
        ok32 &= abs(d - (p[j] - q[j])) < mpf(10) ** -25
    # ヘッセ行列が半正定値で、核が 1 の方向だけ（命題 3.2 の 2）
    Hm = np.array([[float((p[i] if i == j else 0) - p[i] * p[j]) for j in range(V)] for i in range(V)])
    ev = np.linalg.eigvalsh(Hm)
    okconv &= ev.min() > -1e-14 and (np.sort(ev)[1] > 1e-14 or min(float(t) for t in p) < 1e-12)
    okconv &= np.abs(Hm @ np.ones(V)).max() < 1e-14
truth("命題 3.1 の 1〜3（200 組の乱数で恒等式と不等式）", ok31)
truth("命題 3.2 の 1（勾配 = p - q、中心差分と一致）", ok32)
truth("命題 3.2 の 2（ヘッセ行列は半正定値、核は 1 の方向のみ）", okconv)

# 例 3.3
z = [mpf(2), mpf(1), mpf(0), mpf(-1)]
ez = [exp(t) for t in z]
S = sum(ez)
lse = LSE(z)
p = softmax(z)
CE = lse - 2
zbar = sum(z) / 4
Hu = lse - zbar
L = Fraction(9, 10) * 0 + mpf("0.9") * CE + mpf("0.1") * Hu
check("例 3.3 e^2, e^1, e^0, e^-1", f"$e^{{2}} \\approx {f(ez[0], 6)}$、$e^{{1}} \\approx {f(ez[1], 6)}$、$e^{{0}} = 1$、$e^{{-1}} \\approx {f(ez[3], 6)}$", 4)
check("例 3.3 和と LSE", f"和は約 {f(S, 6)}、$\\mathrm{{LSE}}(\\boldsymbol{{z}}) \\approx {f(lse, 6)}$", 2)
check("例 3.3 p", f"$$\\boldsymbol{{p}} \\approx ({SEP.join(f(x, 6) for x in p)})", 4)
check("例 3.3 CE", f"\\approx {f(lse, 6)} - 2 = {f(CE, 6)}$$", 2)
truth("例 3.3 2.440190 - 2 = 0.440190（表示の桁で）", Decimal(f(lse, 6)) - 2 == Decimal(f(CE, 6)))
check("例 3.3 z̄ と H(u,p)", f"$\\bar{{z}} = (2 + 1 + 0 - 1)/4 = {f(zbar, 1)}$ なので $H(\\boldsymbol{{u}}, \\boldsymbol{{p}}) = \\mathrm{{LSE}}(\\boldsymbol{{z}}) - \\bar{{z}} \\approx {f(Hu, 6)}$", 2)
t1, t2 = mpf("0.9") * CE, mpf("0.1") * Hu
check("例 3.3 分解（命題 3.1 の 1）", f"\\approx 0.9 \\times {f(CE, 6)} + 0.1 \\times {f(Hu, 6)} = {f(t1, 6)} + {f(t2, 6)} = {f(L, 6)}$$", 5)
truth("例 3.3 表示の桁での和 0.396171 + 0.194019 = 0.590190", dec_sum(f(t1, 6), f(t2, 6)) == Decimal(f(L, 6)))
check("例 3.3 2 の形", f"$${f(CE, 6)} + 0.1 \\times (2 - 0.5) = {f(CE, 6)} + {f(mpf('0.1') * (2 - zbar), 2)} = {f(CE + mpf('0.1') * (2 - zbar), 6)}$".replace("$$", "$"), 3)
truth("例 3.3 2 の形の値は 1 の形の値と一致", abs(CE + mpf("0.1") * (2 - zbar) - L) < mpf(10) ** -40)
check("例 3.3 KL(u||p)", f"- \\log 4 \\approx {f(Hu - log(4), 6)}$ です（$\\log 4 \\approx {f(log(4), 6)}$）", 2)
check("例 3.3 q", "勾配は、$\\boldsymbol{q} = (0.925, 0.025, 0.025, 0.025)$ から", 4)
g_ls = [p[k] - q4[k] for k in range(4)]
g_ce = [p[k] - (1 if k == 0 else 0) for k in range(4)]
check("例 3.3 p - q", f"$$\\boldsymbol{{p}} - \\boldsymbol{{q}} \\approx ({SEP.join(f(x, 6) for x in g_ls)})", 4)
check("例 3.3 p - e_1", f"\\boldsymbol{{p}} - \\boldsymbol{{e}}_1 \\approx ({SEP.join(f(x, 6) for x in g_ce)})$$", 4)
truth("例 3.3 勾配の成分の和は 0", abs(sum(g_ls)) < mpf(10) ** -40 and abs(sum(g_ce)) < mpf(10) ** -40)
check("例 3.3 縮む量", f"$\\varepsilon(1 - 1/V) = {f(mpf('0.1') * (1 - mpf(1) / 4), 3)}$ だけ、ほかの各成分は $\\varepsilon/V = {f(mpf('0.1') / 4, 3)}$ だけ", 2)
truth("例 3.3 正解の成分の大きさは 0.075、ほかは 0.025 だけ小さい",
      abs(abs(g_ce[0]) - abs(g_ls[0]) - mpf("0.075")) < mpf(10) ** -40
      and all(abs(g_ce[k] - g_ls[k] - mpf("0.025")) < mpf(10) ** -40 for k in (1, 2, 3)), 0)

# ======================= 4 節 =======================
# 定理 4.1：log q が最小点、値は H(q)、式 2、ε = 0 の式
ok41 = True
for V in (2, 3, 4, 10, 1000, 32000):
    for eps in ("0.01", "0.1", "0.5", "1"):
        q = target(V, eps)
        e = mpf(eps)
        zs = [log(t) for t in q]
        if V <= 10:
            ok41 &= abs(Hx(q, softmax(zs)) - H(q)) < mpf(10) ** -40
            for _ in range(20):   # ほかの点では値が大きい
                zr = [t + mpf(float(rng.normal(0, 1))) for t in zs]
                ok41 &= Hx(q, softmax(zr)) >= H(q)
        ok41 &= abs(gap(V, eps) - log(1 + V * (1 - e) / e)) < mpf(10) ** -40
        ok41 &= abs(H(q) - (-q[0] * log(q[0]) + e * (1 - mpf(1) / V) * log(V / e))) < mpf(10) ** -35
truth("定理 4.1 の 1・2（最小点 log q、最小値 H(q)、Δ* と H(q) の 2 つの式）", ok41)
okce = all(abs(-log(softmax([mpf(t)] + [mpf(0)] * (V - 1))[0]) - log(1 + (V - 1) * exp(-mpf(t)))) < mpf(10) ** -40
           for V in (2, 4, 100) for t in (-3, 0, 1, 5, 20))
truth("定理 4.1 の 3（CE = log(1 + (V-1)e^{-t})、t について減少して 0 へ）",
      okce and log(1 + 3 * exp(-mpf(50))) < mpf(10) ** -20)

# 命題 4.2
grid_e = [mpf(k) / 100 for k in range(1, 101)]
ok1 = all(gap(V, grid_e[i]) > gap(V, grid_e[i + 1]) for V in (2, 4, 32000) for i in range(99)) and abs(gap(4, 1)) < mpf(10) ** -40
ok1 &= all(gap(V, e) < gap(V + 1, e) for V in (2, 3, 4, 100, 32000) for e in grid_e[:-1])
truth("命題 4.2 の 1（ε について狭義減少、ε<1 で V について狭義増加、Δ*(1,V)=0）", ok1)
ok2 = all(log(V * (1 - e) / e) < gap(V, e) < log(V * (1 - e) / e) + e / (V * (1 - e)) for V in (2, 4, 32000, 50257) for e in grid_e[:-1])
truth("命題 4.2 の 2（上下の評価）", ok2)
check("命題 4.2 log 2", f"$\\log 2 \\approx {f(log(2), 4)}$ だけ増える", 1)
truth("命題 4.2 の 2：V = 32,000 を 2 倍にすると Δ* は log 2 の 0.0001 以内で増える",
      abs(gap(64000, "0.1") - gap(32000, "0.1") - log(2)) < mpf("1e-4"))
ok3 = True
for V in (2, 3, 4, 10, 32000):
    Hs = [H(target(V, e)) for e in [mpf(0)] + grid_e]
    ok3 &= all(Hs[i] < Hs[i + 1] for i in range(100))
    ok3 &= all(Hs[i] < log(V) for i in range(100)) and abs(Hs[100] - log(V)) < mpf(10) ** -40
    for e in grid_e[:-1]:
        s = e * (1 - mpf(1) / V)
        ok3 &= abs(H(target(V, e)) - (hb(s) + s * log(V - 1))) < mpf(10) ** -35
for e in grid_e[:50]:   # ε <= 1/2 で V について狭義増加
    ok3 &= all(H(target(V, e)) < H(target(V + 1, e)) for V in range(2, 40))
truth("命題 4.2 の 3（H(q) = h(s) + s log(V-1)、ε について増加、log V 以下、ε<=1/2 で V について増加）", ok3)

# 例 4.3
check("例 4.3 q_y", "$q_y = 0.9 + 0.025 = 0.925$、ほかの各成分は $0.025$", 3)
check("例 4.3 Δ*(0.1, 4)", f"$\\Delta^{{*}} = \\log(0.925/0.025) = \\log {int(Fraction(925, 1000) / Fraction(25, 1000))} \\approx {f(gap(4, '0.1'), 4)}$", 2)
check("例 4.3 上下の値", f"$\\log 36 \\approx {f(log(36), 6)}$ と $\\log 36 + 1/36 \\approx {f(log(36) + mpf(1) / 36, 6)}$ で、$\\Delta^{{*}} \\approx {f(gap(4, '0.1'), 6)}$", 3)
truth("例 4.3 3.583519 < 3.610918 < 3.611297", log(36) < gap(4, "0.1") < log(36) + mpf(1) / 36)
lq = [log(t) for t in q4]
check("例 4.3 log q", f"$\\log\\boldsymbol{{q}} \\approx ({', '.join(f(t, 6) for t in lq)})$", 4)
a1 = -mpf("0.925") * log(mpf("0.925"))
a2 = -log(mpf("0.025"))
check("例 4.3 H(q) の計算", f"\\approx {f(a1, 6)} + 0.075 \\times {f(a2, 6)} = {f(a1, 6)} + {f(mpf('0.075') * a2, 6)} = {f(H(q4), 6)}$$", 5)
truth("例 4.3 表示の桁で 0.072114 + 0.276666 = 0.348780", dec_sum(f(a1, 6), f(mpf("0.075") * a2, 6)) == Decimal(f(H(q4), 6)))
truth("例 4.3 3 × 0.025 = 0.075", Fraction(3) * Fraction(25, 1000) == Fraction(75, 1000), 0)
check("例 4.3 log 4 との比", f"$\\log 4 \\approx {f(log(4), 6)}$ の約 {f(H(q4) / log(4), 4)} 倍", 2)
ratio32 = Fraction(qy32) / (Fraction(1, 10) / 32000)
check("例 4.3 q_y/q_k（V=32000）", f"$q_y/q_k = {float(qy32):.9f}/({sci(Fraction(1, 10) / 32000, 4)}) = {cm(int(ratio32))}$", 3)
truth("例 4.3 288,001 は正確", ratio32 == 288001)
check("例 4.3 Δ*(0.1, 32000)", f"$\\Delta^{{*}} = \\log {cm(288001)} \\approx {f(log(288001), 4)}$", 2)
check("例 4.3 1/288000", f"$\\log {cm(288000)}$ との差は $1/{cm(288000)} \\approx {sci(Fraction(1, 288000), 4)}$ 未満", 3)
truth("例 4.3 log 288001 - log 288000 < 1/288000", 0 < log(288001) - log(288000) < mpf(1) / 288000)
b1 = -q32[0] * log(q32[0])
b2 = mpf("0.1") * (1 - mpf(1) / 32000) * log(320000)
check("例 4.3 H(q) の計算（V=32000）",
      f"$$H(\\boldsymbol{{q}}) \\approx {f(b1, 6)} + {f(mpf('0.1') * (1 - mpf(1) / 32000), 9)} \\times \\log {cm(320000)} \\approx {f(b1, 6)} + {f(b2, 6)} = {f(H32, 6)}$$", 5)
truth("例 4.3 0.1 × (1 - 1/32000) = 0.099996875（正確）", Fraction(1, 10) * (1 - Fraction(1, 32000)) == Fraction(99996875, 10 ** 9))
truth("例 4.3 V/ε = 320,000", Fraction(32000) / Fraction(1, 10) == 320000)
truth("例 4.3 表示の桁で 0.094822 + 1.267568 = 1.362390", dec_sum(f(b1, 6), f(b2, 6)) == Decimal(f(H32, 6)))
check("例 4.3 log 320000", f"$\\log {cm(320000)} \\approx {f(log(320000), 6)}$", 2)
check("例 4.3 8,000 倍と比", f"語彙が {cp(32000 // 4)} 倍になって、最適な差は約 {f(g32 / gap(4, '0.1'), 1)} 倍、最小値は約 {f(H32 / H(q4), 1)} 倍", 3)
truth("例 4.3 最小値の大部分は第 2 項（V=32000）", b2 > H32 / 2)

# 表（例 4.3）
table_rows = {}
for V in (4, 32000, 50257):
    for eps in ("0.05", "0.1", "0.2"):
        q = target(V, eps)
        e = mpf(eps)
        g, h = gap(V, eps), H(q)
        table_rows[V, eps] = (g, h)
        cells = [cp(V), eps, f(q[0], 6), f"${sci(e / V, 5)}$", f(g, 4), f(h, 4), f(h / log(V), 4),
                 f(-log(q[0]), 4), f(1 / q[0], 4)]
        check(f"例 4.3 の表 V = {V}, ε = {eps}", "\n" + "\t".join(cells) + "\n", 8)
okmono = all(table_rows[V, "0.05"][0] > table_rows[V, "0.1"][0] > table_rows[V, "0.2"][0]
             and table_rows[V, "0.05"][1] < table_rows[V, "0.1"][1] < table_rows[V, "0.2"][1] for V in (4, 32000, 50257))
truth("表の後 どの V でも ε を大きくすると Δ* は減り H(q) は増える", okmono)
diffs = [table_rows[50257, e][0] - table_rows[32000, e][0] for e in ("0.05", "0.1", "0.2")]
truth(f"表の後 Δ* の差 {[f(d, 6) for d in diffs]} はいずれも 0.4514", all(f(d, 4) == "0.4514" for d in diffs), 3)
check("表の後 log(50257/32000)", f"$\\log({cm(50257)}/{cm(32000)}) \\approx {f(log(mpf(50257) / 32000), 4)}$", 1)
check("表の後 -log(1-ε)", f"$-\\log 0.95 \\approx {f(-log(mpf('0.95')), 4)}$、$-\\log 0.9 \\approx {f(-log(mpf('0.9')), 4)}$、$-\\log 0.8 \\approx {f(-log(mpf('0.8')), 4)}$", 3)
truth("表の後 V = 32,000, 50,257 の -log q_y は -log(1-ε) と 4 桁で一致",
      all(f(-log(target(V, e)[0]), 4) == f(-log(1 - mpf(e)), 4) for V in (32000, 50257) for e in ("0.05", "0.1", "0.2")))
check("表の前 語彙の大きさ（文献の値）", f"$V = {cm(50257)}$ は GPT-2 の語彙の大きさ", 1)
check("表の前 Llama 2", f"${cm(32000)}$ は Llama 2 の語彙の大きさ", 1)

# 注意 4.4
ep = mpf("0.1")
qprime = [1 - ep] + [ep / 3] * 3
eq = ep * 4 / 3
truth("注意 4.4 q' は ε = ε'V/(V-1) の q に等しい", all(abs(a - b) < mpf(10) ** -45 for a, b in zip(qprime, target(4, eq))))
check("注意 4.4 対応する ε", f"$0.1 \\times 4/3 \\approx {f(eq, 4)}$", 1)
check("注意 4.4 最適な差", f"最適な差は $\\log 27 \\approx {f(log(27), 4)}$", 2)
truth("注意 4.4 log((1-ε')(V-1)/ε') = log 27 = log(q'_y/q'_k)",
      abs(log((1 - ep) * 3 / ep) - log(27)) < mpf(10) ** -40 and abs(log(qprime[0] / qprime[1]) - log(27)) < mpf(10) ** -40)
check("注意 4.4 最小値", f"$h(0.1) + 0.1\\log 3 \\approx {f(hb('0.1'), 6)} + {f(mpf('0.1') * log(3), 6)} = {f(H(qprime), 6)}$", 3)
truth("注意 4.4 h(ε') + ε' log(V-1) = H(q')", abs(hb("0.1") + mpf("0.1") * log(3) - H(qprime)) < mpf(10) ** -40)
truth("注意 4.4 表示の桁で 0.325083 + 0.109861 = 0.434944",
      dec_sum(f(hb("0.1"), 6), f(mpf("0.1") * log(3), 6)) == Decimal(f(H(qprime), 6)))
check("注意 4.4 正解の目標の確率", "定義 2.3 では 0.925、この変種では 0.9", 2)

# ======================= 5 節（例 5.1） =======================
first = mpf("0.9") * CE
rows51 = []
# 通常の CE
rows51.append(("通常の交差エントロピー", "$(1, 0, 0, 0)$", CE, mpf(0), CE, p[0] - 1, None, None))
# ラベル平滑化
Lls = Hx(q4, p)
rows51.append(("ラベル平滑化（定義 2.3）", "$(0.925, 0.025, 0.025, 0.025)$", first, Lls - first, Lls, p[0] - q4[0], H(q4), gap(4, "0.1")))
# V-1 に配る変種
Lv1 = Hx(qprime, p)
rows51.append(("$V - 1$ 個に配る変種（注意 4.4）", "$(0.9, 1/30, 1/30, 1/30)$", first, Lv1 - first, Lv1, p[0] - qprime[0], H(qprime), log(27)))
# KL 形
Lkl = KL(q4, p)
rows51.append(("KL 形", "$(0.925, 0.025, 0.025, 0.025)$", first, Lkl - first, Lkl, p[0] - q4[0], mpf(0), gap(4, "0.1")))
truth("例 5.1 0.1/3 = 1/30", Fraction(1, 10) / 3 == Fraction(1, 30), 0)
for name, tgt, a, b, tot, dz, mn, gp in rows51:
    cells = [name, tgt, f(a, 6), "0" if b == 0 else minus(f(b, 6)), f(tot, 6),
             "1" if tot == CE else f(tot / CE, 4), minus(f(dz, 6)),
             "0（到達しない）" if mn is None else ("0" if mn == 0 else f(mn, 6)),
             "$\\infty$" if gp is None else f(gp, 4)]
    check(f"例 5.1 の表 {name}", "\n" + "\t".join(cells) + "\n", 8)
    diff = dec_sum(f(a, 6), f(b, 6) if b != 0 else "0") - Decimal(f(tot, 6))
    if name == "KL 形":   # 本文の注記：この行だけ表示の丸めで最後の桁が 1 違う
        truth(f"例 5.1 {name}: 表示の桁での第 1 項 + 第 2 項は合計と最後の桁で 1 違う（本文の注記）", abs(diff) == Decimal("0.000001"), 0)
    else:
        truth(f"例 5.1 {name}: 第 1 項 + 第 2 項 = 合計（表示の桁で）", diff == 0, 0)
truth("例 5.1 KL 形 = 平滑化した損失 - H(q)、勾配と最小点が同じ", abs(Lkl - (Lls - H(q4))) < mpf(10) ** -40)
truth("例 5.1 V-1 変種の第 2 項 = ε' × (LSE - 他の平均)", abs(Lv1 - first - mpf("0.1") * (lse - mpf(0))) < mpf(10) ** -40)
truth("例 5.1 CE 行の最小値 0 は到達しない（定理 4.1 の 3）", all(-log(softmax([mpf(t), 0, 0, 0])[0]) > 0 for t in (1, 10, 30)), 0)
check("例 5.1 LSE − 他の平均", f"$\\mathrm{{LSE}}(\\boldsymbol{{z}}) - (1 + 0 - 1)/3 \\approx {f(lse, 6)}$", 1)
check("例 5.1 丸めの注記", f"KL 形の行の第 1 項と第 2 項の和が合計と最後の桁で 1 違うのは、表示の丸めのためです（丸める前は ${f(first, 7)} - {f(-(Lkl - first), 7)} = {f(Lkl, 7)}$）", 3)
truth("例 5.1 7 桁では和が一致", dec_sum(f(first, 7), f(Lkl - first, 7)) == Decimal(f(Lkl, 7)), 0)
check("例 5.1 定数 H(q)", f"値が定数 $H(\\boldsymbol{{q}}) \\approx {f(H(q4), 6)}$ だけ違う", 1)
truth("5 節 L = (1-ε)CE + ε log V + ε KL(u||p)、KL(p||u) = log V - H(p)",
      abs(Lls - (mpf("0.9") * CE + mpf("0.1") * log(4) + mpf("0.1") * KL([mpf(1) / 4] * 4, p))) < mpf(10) ** -40
      and abs(KL(p, [mpf(1) / 4] * 4) - (log(4) - H(p))) < mpf(10) ** -40)

# ======================= 6 節 =======================
ps = [Fraction(1, 2), Fraction(1, 4), Fraction(4, 5), Fraction(1, 10)]
prod = ps[0] * ps[1] * ps[2] * ps[3]
check("例 6.3 確率", "$(0.5, 0.25, 0.8, 0.1)$ だとします", 4)
check("例 6.3 積", f"$0.5 \\times 0.25 \\times 0.8 \\times 0.1 = {float(prod)}$", 1)
truth("例 6.3 積は正確に 0.01", prod == Fraction(1, 100))
ppl = mpf(100) ** (mpf(1) / 4)
check("例 6.3 PPL", f"$\\mathrm{{PPL}} = 0.01^{{-1/4}} = \\sqrt{{10}} \\approx {f(ppl, 6)}$", 1)
logs = [log(2), log(4), log(mpf("1.25")), log(10)]
check("例 6.3 平均の損失", f"\\approx ({' + '.join(f(x, 6) for x in logs)})/4 = {f(sum(logs), 6)}/4 \\approx {f(sum(logs) / 4, 6)}$（${f(log(100), 6)} \\approx \\log 100$）", 7)
truth("例 6.3 表示の桁での和 = 4.605170", dec_sum(*[f(x, 6) for x in logs]) == Decimal(f(sum(logs), 6)))
truth("例 6.3 exp(平均の損失) = PPL", abs(exp(sum(logs) / 4) - ppl) < mpf(10) ** -40 and abs(sum(logs) - log(100)) < mpf(10) ** -40)
am = sum(ps) / 4
check("例 6.3 下の値", f"$1/{float(am)} \\approx {f(1 / mpf(float(am)), 6)}$", 2)
inv = [1 / x for x in ps]
check("例 6.3 上の値", f"$(2 + 4 + 1.25 + 10)/4 = {float(sum(inv))}/4 = {float(sum(inv) / 4)}$", 3)
truth("例 6.3 1/p の値は 2, 4, 1.25, 10", inv == [2, 4, Fraction(5, 4), 10], 0)
check("例 6.3 不等式", f"$${f(1 / mpf(float(am)), 6)} \\le {f(ppl, 6)} \\le {float(sum(inv) / 4)}$".replace("$$", "$"), 3)
truth("命題 6.2 の 2（例 6.3 で成立）", 1 / mpf(float(am)) <= ppl <= mpf(float(sum(inv) / 4)))
okppl = True
for _ in range(200):   # 命題 6.2 の 2・5 を乱数で
    n = int(rng.integers(1, 9))
    V = int(rng.integers(2, 9))
    e = mpf(float(rng.uniform(0, 0.99)))
    zs_ = [[mpf(float(t)) for t in rng.normal(0, 2, V)] for _ in range(n)]
    ys = [int(rng.integers(0, V)) for _ in range(n)]
    pt = [softmax(zz)[yy] for zz, yy in zip(zs_, ys)]
    lbar = sum(-log(x) for x in pt) / n
    P = exp(lbar)
    okppl &= 1 <= 1 / (sum(pt) / n) <= P * (1 + mpf(10) ** -40) and P <= sum(1 / x for x in pt) / n * (1 + mpf(10) ** -40)
    Lbar = sum(Hx(target(V, e, yy), softmax(zz)) for zz, yy in zip(zs_, ys)) / n
    okppl &= P <= exp((Lbar - e * log(V)) / (1 - e)) * (1 + mpf(10) ** -40)
truth("命題 6.2 の 2・5（200 組の乱数）", okppl)
check("例 6.3 e^2", f"$\\mathrm{{PPL}} = e^{{2}} \\approx {f(exp(2), 3)}$、3.0 なら $e^{{3}} \\approx {f(exp(3), 2)}$", 2)
check("例 6.3 e^-0.1", f"$e^{{-0.1}} \\approx {f(exp(mpf('-0.1')), 4)}$ 倍、つまり約 {f(100 * (1 - exp(mpf('-0.1'))), 3)} % 小さく", 2)
check("例 6.3 一様分布", f"$\\log {cm(32000)} \\approx {f(log(32000), 4)}$ ナット（約 {f(log(32000) / log(2), 4)} ビット）で、$\\mathrm{{PPL}}$ はちょうど {cp(32000)}", 3)
check("例 6.3 平滑化した損失の指数", f"最小点での平滑化した損失は $H(\\boldsymbol{{q}}) \\approx {f(H32, 4)}$ で、その指数は $e^{{H(\\boldsymbol{{q}})}} \\approx {f(exp(H32), 4)}$", 2)
check("例 6.3 1/q_y と比", f"パープレキシティは $1/q_y \\approx {f(1 / q32[0], 4)}$ です。前者は後者の約 {f(exp(H32) * q32[0], 3)} 倍", 2)
bound = (H32 - mpf("0.1") * log(32000)) / mpf("0.9")
bound_disp = (Decimal(f(H32, 4)) - Decimal("0.1") * Decimal(f(log(32000), 4))) / Decimal("0.9")
check("例 6.3 上界", f"$\\exp\\big(({f(H32, 4)} - 0.1 \\times {f(log(32000), 4)})/0.9\\big) \\approx e^{{{f(bound, 4)}}} \\approx {f(exp(bound), 3)}$ で、正しく {f(1 / q32[0], 4)} 以上", 5)
truth("例 6.3 表示の値から計算しても 0.3612 と 1.435",
      f"{bound_disp.quantize(Decimal('0.0001'))}" == f(bound, 4) and f(exp(mpf(f(bound, 4))), 3) == f(exp(bound), 3))
truth("例 6.3 上界 >= 1/q_y", exp(bound) >= 1 / q32[0])

# ======================= 7 節 =======================
okcal = True
for _ in range(200):   # 命題 7.2 を乱数で
    V = int(rng.integers(2, 9))
    e = mpf(float(rng.uniform(0.001, 0.99)))
    raw = rng.dirichlet(np.ones(V) * 0.5)
    raw[rng.random(V) < 0.3] = 0.0
    if raw.sum() == 0:
        raw[0] = 1.0
    pi = [mpf(float(x)) for x in raw]
    s = sum(pi)
    pi = [x / s for x in pi]
    pe = [(1 - e) * x + e / V for x in pi]
    # 1：期待損失 = H(π_ε, σ(z))、最小点で p* = π_ε
    zz = [mpf(float(t)) for t in rng.normal(0, 2, V)]
    exp_loss = sum(pi[y] * Hx(target(V, e, y), softmax(zz)) for y in range(V))
    okcal &= abs(exp_loss - Hx(pe, softmax(zz))) < mpf(10) ** -35 and Hx(pe, softmax(zz)) >= H(pe)
    # 2：順位を保つ
    okcal &= all((pi[i] < pi[j]) == (pe[i] < pe[j]) for i in range(V) for j in range(V))
    # 3：確信度の差
    imax = max(range(V), key=lambda k: pi[k])
    okcal &= abs((pi[imax] - pe[imax]) - e * (pi[imax] - mpf(1) / V)) < mpf(10) ** -40
    # 4：KL の上界
    kl = KL(pi, pe)
    okcal &= 0 <= kl <= -log(1 - e)
    # 5：逆変換
    okcal &= all(abs((b - e / V) / (1 - e) - a) < mpf(10) ** -40 for a, b in zip(pi, pe))
truth("命題 7.2 の 1〜5（200 個の乱数の分布）", okcal)
check("7 節 上界 1/(1-ε)", f"$\\varepsilon = 0.1$ なら約 {f(1 / mpf('0.9'), 4)} です", 1)
truth("7 節 決定的な文脈で比は 1/q_y、V について増加して 1/(1-ε) に近づく",
      all(abs(exp(Hx([1] + [0] * (V - 1), target(V, "0.1")) - 0) - 1 / target(V, "0.1")[0]) < mpf(10) ** -40 for V in (4, 32000))
      and 1 / target(4, "0.1")[0] < 1 / target(32000, "0.1")[0] < 1 / target(50257, "0.1")[0] < 1 / mpf("0.9"))
pi73 = [mpf("0.7"), mpf("0.2"), mpf("0.1"), mpf(0)]
ps73 = [mpf("0.9") * x + mpf("0.025") for x in pi73]
check("例 7.3 π", "$\\boldsymbol{\\pi} = (0.7, 0.2, 0.1, 0)$ とします", 4)
check("例 7.3 p*", f"$\\boldsymbol{{p}}^{{*}} = 0.9\\boldsymbol{{\\pi}} + 0.025\\boldsymbol{{1}} = ({', '.join(f(x, 3) for x in ps73)})$", 4)
check("例 7.3 確信度と差", f"確信度 {f(ps73[0], 3)} は正解率 0.7 より ${f(pi73[0] - ps73[0], 3)} = 0.1 \\times (0.7 - 0.25)$ だけ低く", 3)
truth("例 7.3 0.7 - 0.655 = 0.1 × (0.7 - 0.25) = 0.045", Fraction(7, 10) - Fraction(655, 1000) == Fraction(1, 10) * (Fraction(7, 10) - Fraction(1, 4)) == Fraction(45, 1000))
check("例 7.3 トークン 4", f"トークン 4 にも {f(ps73[3], 3)} が置かれます", 1)
Hpi, CEpi = H(pi73), Hx(pi73, ps73)
check("例 7.3 H(π) と H(π, p*)", f"$H(\\boldsymbol{{\\pi}}) \\approx {f(Hpi, 6)}$、$H(\\boldsymbol{{\\pi}}, \\boldsymbol{{p}}^{{*}}) \\approx {f(CEpi, 6)}$ で、差の KL は約 {f(CEpi - Hpi, 6)}", 3)
check("例 7.3 パープレキシティ", f"$e^{{{f(Hpi, 6)}}} \\approx {f(exp(Hpi), 4)}$ から $e^{{{f(CEpi, 6)}}} \\approx {f(exp(CEpi), 4)}$ に、約 {f(exp(CEpi - Hpi), 4)} 倍", 5)
truth("例 7.3 表示の指数から計算しても同じ 4 桁", f(exp(mpf(f(Hpi, 6))), 4) == f(exp(Hpi), 4) and f(exp(mpf(f(CEpi, 6))), 4) == f(exp(CEpi), 4), 0)
check("例 7.3 上界", f"上界 $1/0.9 \\approx {f(1 / mpf('0.9'), 4)}$ よりかなり小さい", 1)
truth("例 7.3 比 <= 上界", exp(CEpi - Hpi) <= 1 / mpf("0.9"))
check("例 7.3 逆変換", f"$(0.655 - 0.025)/0.9 = {f((ps73[0] - mpf('0.025')) / mpf('0.9'), 1)}$", 1)
truth("例 7.3 逆変換は正確に 0.7", (Fraction(655, 1000) - Fraction(25, 1000)) / Fraction(9, 10) == Fraction(7, 10), 0)

# ======================= 9 節・演習 =======================
truth("9 節 温度 T でロジットを割ると差は 1/T 倍", all(abs((mpf(3) / T - mpf(1) / T) - (3 - 1) / mpf(T)) < mpf(10) ** -40 for T in (0.5, 2)), 0)
q10 = target(10, "0.2")
check("演習 10.1 q", f"$q_y = 0.8 + 0.2/10 = {f(q10[0], 2)}$、ほかの各成分は ${f(q10[1], 2)}$", 2)
check("演習 10.1 Δ*", f"$\\Delta^{{*}} = \\log(0.82/0.02) = \\log {int(Fraction(82, 100) / Fraction(2, 100))} \\approx {f(gap(10, '0.2'), 4)}$", 2)
c1, c2 = -mpf("0.82") * log(mpf("0.82")), -log(mpf("0.02"))
check("演習 10.1 H(q)", f"\\approx {f(c1, 6)} + 0.18 \\times {f(c2, 6)} \\approx {f(c1, 6)} + {f(mpf('0.18') * c2, 6)} = {f(H(q10), 6)}$", 5)
truth("演習 10.1 9 × 0.02 = 0.18、表示の桁で和が一致",
      9 * Fraction(2, 100) == Fraction(18, 100) and dec_sum(f(c1, 6), f(mpf("0.18") * c2, 6)) == Decimal(f(H(q10), 6)))
check("演習 10.1 log 10", f"$\\log 10 \\approx {f(log(10), 6)}$ より小さい", 1)
truth("演習 10.1 H(q) < log 10", H(q10) < log(10), 0)
# 演習 10.2
okv2 = True
for e in ("0.1", "0.3"):
    e = mpf(e)
    tstar = log(2 / e - 1)
    Lt = lambda t: log(1 + exp(t)) - (1 - e / 2) * t
    okv2 &= abs(Lt(tstar) - hb(e / 2)) < mpf(10) ** -40 and Lt(tstar - mpf("0.01")) > Lt(tstar) < Lt(tstar + mpf("0.01"))
    okv2 &= abs(Lt(mpf("0.7")) - Hx(target(2, e), softmax([mpf("0.7"), mpf(0)]))) < mpf(10) ** -40
    okv2 &= abs(tstar - gap(2, e)) < mpf(10) ** -40
truth("演習 10.2 L(t) の式、最小点 log(2/ε - 1)、最小値 h(ε/2)、定理 4.1 と一致", okv2)
check("演習 10.2 値", f"$t^{{*}} = \\log {int(2 / mpf('0.1') - 1)} \\approx {f(log(19), 4)}$", 2)
check("演習 10.2 定理 4.1 との一致", f"$\\log\\big(1 + 2 \\times 0.9/0.1\\big) = \\log {int(1 + 2 * mpf('0.9') / mpf('0.1'))}$", 1)
check("演習 10.2 最小値", f"$h(0.05) \\approx {f(hb('0.05'), 6)}$", 2)
# 演習 10.3
l50 = log(50257)
b3 = (mpf("3.2") - mpf("0.1") * l50) / mpf("0.9")
check("演習 10.3 log 50257", f"$\\log {cm(50257)} \\approx {f(l50, 6)}$", 1)
check("演習 10.3 上界", f"$\\bar{{\\ell}} \\le (3.2 - {f(mpf('0.1') * l50, 7)})/0.9 \\approx {f(b3, 6)}$、よって $\\mathrm{{PPL}} \\le e^{{{f(b3, 6)}}} \\approx {f(exp(b3), 3)}$", 4)
check("演習 10.3 e^3.2 と比", f"$e^{{3.2}} \\approx {f(exp(mpf('3.2')), 2)}$ はこの上界の約 {f(exp(mpf('3.2')) / exp(b3), 3)} 倍", 2)
truth("演習 10.3 e^3.2 は上界より大きい（過大）", exp(mpf("3.2")) > exp(b3))


# ======================= 例と演習の設定値（入力の数値） =======================
check("2 節 例の設定", f"たとえば $V = 4$、$\\varepsilon = 0.1$、$y = 1$ なら", 3)
check("2 節 例の設定 V=32000", f"$V = {cm(32000)}$、$\\varepsilon = 0.1$ なら $q_y", 2)
check("例 3.3 設定", "$V = 4$、$\\boldsymbol{z} = (2, 1, 0, -1)$、$y = 1$、$\\varepsilon = 0.1$ とします", 7)
check("例 3.3 L の添字", "$$\\mathcal{L}_{0.1} \\approx", 1)
check("例 4.3 見出し", f"例 4.3（V = 4 と V = {cp(32000)}、ε = 0.1）", 3)
check("例 4.3 H(q) の式", "$$H(\\boldsymbol{q}) = -0.925\\log 0.925 - 3 \\times 0.025 \\times \\log 0.025", 5)
check("例 4.3 V=32000", f"$V = {cm(32000)}$ では $q_y/q_k", 1)
check("例 4.3 表の出典の行番号", "label_smoothing.py の出力の 6〜14 行目に", 2)
truth("例 4.3 表の行は出力の 6〜14 行目（9 行）", 14 - 6 + 1 == 9, 0)
check("表の後 0.4514", f"$V = {cm(32000)}$ と $V = {cm(50257)}$ の $\\Delta^{{*}}$ の差は 3 つの $\\varepsilon$ でいずれも約 {f(table_rows[50257, '0.1'][0] - table_rows[32000, '0.1'][0], 4)}", 4)
check("注意 4.4 設定", "$V = 4$、$\\varepsilon' = 0.1$ なら", 2)
check("注意 4.4 同じ ε", "同じ「$\\varepsilon = 0.1$」でも", 1)
check("例 5.1 設定", "$V = 4$、$\\boldsymbol{z} = (2, 1, 0, -1)$、$y = 1$ で、$\\varepsilon = \\varepsilon' = 0.1$ とし、4 つの損失", 8)
check("例 6.3 対数の和の式", "$(\\log 2 + \\log 4 + \\log 1.25 + \\log 10)/4", 5)
truth("例 6.3 1/p = 2, 4, 1.25, 10 が対数の中の値", [float(1 / x) for x in ps] == [2.0, 4.0, 1.25, 10.0], 0)
check("例 6.3 換算の入力", "平均の損失が 2.0 なら", 1)
check("例 6.3 0.1 下がる", "損失が 0.1 下がると", 1)
check("例 6.3 一様分布の V", f"$V = {cm(32000)}$ の一様分布の損失は", 1)
check("例 6.3 設定", f"$V = {cm(32000)}$、$\\varepsilon = 0.1$ で、次のトークンが", 2)
check("例 7.3 設定", "$V = 4$、$\\varepsilon = 0.1$、$\\boldsymbol{\\pi} = (0.7, 0.2, 0.1, 0)$", 6)
check("8 節 log 37", "ロジットの差は $\\log 37$ に", 1)
check("演習 10.1 設定", "$V = 10$、$\\varepsilon = 0.2$ のとき", 2)
check("演習 10.1 H(q) の式", "$H(\\boldsymbol{q}) = -0.82\\log 0.82 - 9 \\times 0.02 \\times \\log 0.02", 5)
truth("演習 10.1 ほかの成分は 9 個", 10 - 1 == 9, 0)
check("演習 10.2 設定", "$\\varepsilon = 0.1$ での値を計算し", 1)
check("演習 10.2 解答の ε", "$\\varepsilon = 0.1$ では $t^{*} = ", 1)
check("演習 10.3 設定", f"$V = {cm(50257)}$、$\\varepsilon = 0.1$ で学習したモデルの検証データでの平滑化した損失の平均が 3.2 だった", 3)
check("演習 10.3 e^3.2", "また $e^{3.2}$ をパープレキシティとみなす", 1)

# ======================= 参考文献の数値と本文の対応 =======================
check("文献 [1] の K と ε（本文の 1 節と同じ値）", "$K = 1000$、$\\varepsilon = 0.1$", 2)
truth("文献 [1] K = 1000 は本文の K = 1{,}000 と同じ", cm(1000) == "1{,}000", 0)
check("文献 [2] ε_ls", "5.4 節（$\\varepsilon_{ls} = 0.1$ のラベル平滑化", 1)
check("文献 [8] 既定値", "label_smoothing 引数（0.0 以上 1.0 以下、既定値 0.0", 3)
check("文献 [9] 32k", "語彙の大きさ 32k のトークナイザ", 1)
truth("文献 [9] 32k は本文の 32,000（32 × 1000）", 32 * 1000 == 32000, 0)
check("文献 [10] 50,257", f"語彙の大きさ {cp(50257)}。", 1)

# ======================= 8 節：リスティング =======================
out_lines = None


def printed_output(code_file):
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    return code, rest.split("\n\n")[0]


code, block = printed_output("label_smoothing.py")
run = subprocess.run([sys.executable, "label_smoothing.py"], cwd=HERE, capture_output=True, text=True)
same = code is not None and run.returncode == 0 and run.stdout.rstrip("\n") == block
out_lines = run.stdout.rstrip("\n").split("\n")
truth(f"リスティング label_smoothing.py：本文のコードと同一で、実行結果が本文の出力 {len(out_lines)} 行と一致", same, 0)
check("8 節 リスティングの版", "# Python 3.11.7, NumPy 2.4.6", 0)
truth(f"8 節 実行環境は Python 3.11.7、NumPy 2.4.6（{sys.version.split()[0]}, {np.__version__}）",
      sys.version.split()[0] == "3.11.7" and np.__version__ == "2.4.6", 0)
# 出力と本文の数値の対応（行番号の記述も含む）
truth("8 節 1・2 行目は 例 3.3 の損失と勾配",
      out_lines[0] == f"eps=0.0: loss={f(CE, 6)}  grad=" + " ".join(("+" if x > 0 else "") + f(x, 6) for x in g_ce)
      and out_lines[1] == f"eps=0.1: loss={f(L, 6)}  grad=" + " ".join(("+" if x > 0 else "") + f(x, 6) for x in g_ls), 0)
truth("8 節 3 行目は中心差分との差（1e-8 未満）", out_lines[2].startswith("max |finite difference") and float(out_lines[2].split("=")[-1]) < 1e-8, 0)
truth("8 節 4 行目：ロジットの差 log 37、損失 H(q)",
      out_lines[3] == f"gradient descent: gap={f(log(37), 6)}  loss={f(H(q4), 6)}  log 37={f(log(37), 6)}  H(q)={f(H(q4), 6)}", 0)
okrows = True
for i, (V, eps) in enumerate([(V, e) for V in (4, 32000, 50257) for e in ("0.05", "0.1", "0.2")]):
    g, h = table_rows[V, eps]
    parts = out_lines[5 + i].split()
    okrows &= parts == [str(V), f"{float(eps):.2f}", f(g, 4), f(h, 4), f(h, 4)]
truth("8 節 6〜14 行目は 例 4.3 の表の Δ* と最小値（最小点での損失 = H(q)）", okrows and out_lines[4].strip().startswith("V"), 0)
truth("8 節 15 行目は 例 6.3",
      out_lines[14] == f"mean CE={f(sum(logs) / 4, 6)}  PPL={f(ppl, 6)}  1/mean(p)={f(1 / mpf(float(am)), 6)}  mean(1/p)={float(sum(inv) / 4):.6f}", 0)
truth("8 節 16・17 行目は 例 7.3",
      out_lines[15] == "p* = [0.655 0.205 0.115 0.025]  confidence - accuracy = -0.045000"
      and out_lines[16] == f"CE(pi, p*)={f(CEpi, 6)}  H(pi)={f(Hpi, 6)}  PPL ratio={f(exp(CEpi - Hpi), 6)}  1/(1-eps)={f(1 / mpf('0.9'), 6)}", 0)
check("8 節 学習率と回数", "学習率 1 で 5,000 回の勾配降下", 2)
truth("8 節 コードの回数は 5000、学習率は 1", "for _ in range(5000):\n        w -= ls_loss(w, y, 0.1)[1]" in TEXT, 0)
check("8 節 行番号 6〜14", "6〜14 行目：例 4.3 の表の", 0)
check("8 節 行番号 15〜17", "15 行目：例 6.3 の値です。16・17 行目：例 7.3 の値", 0)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

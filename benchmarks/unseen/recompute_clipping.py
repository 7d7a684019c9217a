"""clipping.txt の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）。言葉で述べた性質（単調、依らない、以下、一致など）は
数値実験や厳密な計算で確かめる（truth）。1 つでも失敗すれば終了コード 1 で終わる。
最後に本文の 2 つのリスティングを実行し、コードと出力が本文と一致することを確かめる。
"""
import math
import os
import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "clipping.txt"), encoding="utf-8").read()
mpmath.mp.dps = 50

checked = 0
failures = 0


def check(label, expected, count=1):
    """expected（計算値から組み立てた文字列）が本文にあるか。count はその中の数値の個数。"""
    global checked, failures
    ok = expected in TEXT
    checked += count
    if not ok:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    """本文の言葉で述べた性質を確かめる。"""
    global checked, failures
    cond = bool(cond)
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


# ---------- 書式 ----------
def dec(x, d):
    """小数第 d 位までに丸めた固定小数点表記。"""
    return f"{float(x):.{d}f}"


def dstrip(x, d=4):
    """小数第 d 位までに丸め、末尾の 0 と小数点を落とす（表の 0.25、1、3.5 など）。"""
    s = f"{float(x):.{d}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def sig(x, n):
    """有効数字 n 桁の固定小数点表記。"""
    x = float(x)
    e = math.floor(math.log10(abs(x)))
    return f"{x:.{max(n - 1 - e, 0)}f}"


def sci(x, n=4):
    """有効数字 n 桁の 6.000 \\times 10^{-7} の形。"""
    m, e = f"{float(x):.{n - 1}e}".split("e")
    return f"{m} \\times 10^{{{int(e)}}}"


def cm(n):
    """数式中の 3 桁区切り 10{,}000。"""
    return f"{n:,}".replace(",", "{,}")


def cmd(x, d):
    """数式中の 3 桁区切りで小数 d 桁 3{,}471.36。"""
    return f"{float(x):,.{d}f}".replace(",", "{,}")


def cp(x, d=None):
    """本文中の 3 桁区切り 9,750.5（d は小数の桁数）。"""
    return f"{x:,}" if d is None else f"{float(x):,.{d}f}"


def mpq(x):
    """Fraction を mpmath の数に。"""
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def deg(c):
    return math.degrees(math.acos(float(c)))


rng = np.random.default_rng(12345)

# ======================= 2〜3 節：クリッピング =======================


def clip(g, c):
    n = np.linalg.norm(g)
    return g if n <= c else (c / n) * g


def clip_pt(blocks, c):
    return [clip(b, c) for b in blocks]


# 命題 3.1：乱数で 1〜4 を確かめる
ok1 = ok2 = ok3 = ok4 = True
for _ in range(2000):
    P = int(rng.integers(1, 8))
    g = rng.standard_normal(P) * 10.0 ** rng.uniform(-2, 2)
    c = 10.0 ** rng.uniform(-2, 2)
    y = clip(g, c)
    n = np.linalg.norm(g)
    lam = min(1.0, c / n)
    ok1 &= 0 < lam <= 1 and abs(np.linalg.norm(y) - min(n, c)) <= 1e-12 * max(n, 1) \
        and np.allclose(y / np.linalg.norm(y), g / n)
    # 2：球 B_c の乱数点はどれも clip より g に近くない、距離は max(0, |g| - c)
    Y = rng.standard_normal((50, P))
    Y = Y / np.linalg.norm(Y, axis=1, keepdims=True) * c * rng.uniform(0, 1, (50, 1)) ** (1 / P)
    d0 = np.linalg.norm(g - y)
    ok2 &= abs(d0 - max(0.0, n - c)) <= 1e-9 * max(n, 1) and (np.linalg.norm(g - Y, axis=1) >= d0 - 1e-12).all()
    a = 10.0 ** rng.uniform(-3, 3)
    ok3 &= np.allclose(clip(a * g, a * c), a * y) and np.allclose(clip(y, c), y)
    ok4 &= abs(g @ y - lam * n * n) <= 1e-9 * n * n and g @ y > 0
truth("命題 3.1 の 1：倍率は (0, 1]、ノルムは min(|g|, c)、向きは同じ（乱数 2,000 例）", ok1)
truth("命題 3.1 の 2：球の中で最も近い点、距離は max(0, |g| - c)", ok2)
truth("命題 3.1 の 3：clip_{ac}(ag) = a clip_c(g)、2 回施しても同じ", ok3)
truth("命題 3.1 の 4：<g, clip(g)> = λ|g|^2 > 0", ok4)
# 命題 3.1 の 3 の応用：S g を閾値 c でクリップして割り戻すと clip_{c/S}(g)
g0, S0, c0 = np.array([3.0, -4.0]), 2.0 ** 10, 1.0
truth("3 節 損失スケール：clip_c(Sg)/S = clip_{c/S}(g)（|Sg| > c）", np.allclose(clip(S0 * g0, c0) / S0, clip(g0, c0 / S0))
      and np.allclose(clip(S0 * g0, S0 * c0) / S0, clip(g0, c0)))

# 例 3.2（有理数で厳密に）
gA = [Fraction(2), Fraction(-1), Fraction(2)]
gB = [Fraction(12, 5), Fraction(16, 5)]
nA2, nB2 = sum(x * x for x in gA), sum(x * x for x in gB)
truth("例 3.2 |g_A|^2 = 9、|g_B|^2 = 16、|g|^2 = 25", nA2 == 9 and nB2 == 16 and nA2 + nB2 == 25, 3)
check("例 3.2 |g_A|", "\\|\\boldsymbol{g}_A\\| = \\sqrt{4 + 1 + 4} = 3")
check("例 3.2 |g_B|", f"\\|\\boldsymbol{{g}}_B\\| = \\sqrt{{{float(gB[0] ** 2)} + {float(gB[1] ** 2)}}} = 4", 2)
check("例 3.2 大域ノルム", "大域ノルムは $\\sqrt{3^2 + 4^2} = 5$")
s1 = min(Fraction(1), Fraction(1, 5))
check("例 3.2 倍率", f"倍率は $1/5 = {float(s1)}$")
v = [s1 * x for x in gA + gB]
vec = ",\\ ".join(dstrip(x) for x in v)
check("例 3.2 clip_1(g)", f"0.2 \\times (2, -1, 2, 2.4, 3.2) = ({vec})", 5)
check("例 3.2 そのノルム", "ノルムは $0.2 \\times 5 = 1$")
sA, sB = Fraction(1, 3), Fraction(1, 4)
check("例 3.2 s_A, s_B", "倍率が $s_A = 1/3$、$s_B = 1/4$", 2)
vpt = [sA * x for x in gA] + [sB * x for x in gB]
vecpt = ",\\ ".join(dstrip(x) for x in vpt)
check("例 3.2 clip^pt_1(g)（小数第 5 位を四捨五入）", f"\\mathrm{{clip}}^{{\\mathrm{{pt}}}}_1(\\boldsymbol{{g}}) = ({vecpt})", 5)
npt = math.sqrt(sum(float(x * x) for x in vpt))
check("例 3.2 テンソルごとのノルム", f"$\\sqrt{{1^2 + 1^2}} = \\sqrt{{2}} \\approx {npt:.4f}$")
ip = sum(a * b for a, b in zip(vpt, gA + gB))
truth("例 3.2 内積 = 7", ip == 7 and sA * nA2 == 3 and sB * nB2 == 4)
check("例 3.2 内積", "\\frac13\\|\\boldsymbol{g}_A\\|^2 + \\frac14\\|\\boldsymbol{g}_B\\|^2 = 3 + 4 = 7", 3)
cos1 = 7 / (math.sqrt(2) * 5)
check("例 3.2 余弦", f"余弦は $7/(\\sqrt{{2}} \\times 5) \\approx {cos1:.4f}$")
check("例 3.2 角度", f"向きが約 {deg(cos1):.2f}° 変わります")
truth("例 3.2 B と A のノルムの比：大域で 4 : 3、テンソルごとで 1 : 1",
      (s1 * s1 * nB2) / (s1 * s1 * nA2) == Fraction(16, 9) and (sB * sB * nB2) / (sA * sA * nA2) == 1, 2)
check("例 3.2 比の文", "ノルムの比 4 : 3 が保たれ、テンソルごとの方法では 1 : 1", 2)

# 命題 3.3：乱数で 1〜5 を確かめる
okp = [True] * 5
for _ in range(2000):
    K = int(rng.integers(1, 6))
    blocks = [rng.standard_normal(int(rng.integers(1, 4))) * 10.0 ** rng.uniform(-1, 1) for _ in range(K)]
    if rng.uniform() < 0.2:
        blocks[0] = np.zeros_like(blocks[0])
    c = 10.0 ** rng.uniform(-1, 1)
    flat = np.concatenate(blocks)
    n = np.linalg.norm(flat)
    if n == 0:
        continue
    s = min(1.0, c / n)
    sk = [min(1.0, c / np.linalg.norm(b)) if np.linalg.norm(b) > 0 else 1.0 for b in blocks]
    pt = np.concatenate(clip_pt(blocks, c))
    gl = clip(flat, c)
    okp[0] &= all(x >= s - 1e-15 for x in sk) and np.linalg.norm(pt) >= np.linalg.norm(gl) - 1e-12
    okp[1] &= np.linalg.norm(pt) <= min(n, math.sqrt(K) * c) + 1e-12
    if n <= c:
        okp[2] &= np.allclose(pt, flat) and np.allclose(gl, flat)
    nz = [x for x, b in zip(sk, blocks) if np.linalg.norm(b) > 0]
    parallel = abs(pt @ flat / (np.linalg.norm(pt) * n) - 1) < 1e-12
    okp[3] &= parallel == (max(nz) - min(nz) < 1e-12)
    if all(np.linalg.norm(b) >= c for b in blocks):
        cs = pt @ flat / (np.linalg.norm(pt) * n)
        pred = sum(np.linalg.norm(b) for b in blocks) / (math.sqrt(K) * n)
        okp[4] &= abs(cs - pred) < 1e-12 and 1 / math.sqrt(K) - 1e-12 <= cs <= 1 + 1e-12
# 4 の「すべて等しく c より大きい」場合を明示的に作る
b_eq = [np.array([3.0, 4.0]), np.array([0.0, 0.0, 5.0])]
pt_eq = np.concatenate(clip_pt(b_eq, 2.0))
okp[3] &= abs(pt_eq @ np.concatenate(b_eq) / (np.linalg.norm(pt_eq) * np.linalg.norm(np.concatenate(b_eq))) - 1) < 1e-12
for i in range(5):
    truth(f"命題 3.3 の {i + 1}（乱数 2,000 例）", okp[i])
# 5 の余弦が 1/sqrt(K) に近づく（1 つのテンソルだけ大きい）
K5 = 4
big = [np.array([1e8])] + [np.array([1.0])] * (K5 - 1)
pt5 = np.concatenate(clip_pt(big, 1.0))
f5 = np.concatenate(big)
truth("命題 3.3 のあと：1 つのテンソルだけ極端に大きいと余弦は 1/sqrt(K) に近づく",
      abs(pt5 @ f5 / (np.linalg.norm(pt5) * np.linalg.norm(f5)) - 1 / math.sqrt(K5)) < 1e-6)
check("3 節 K = 2^7 = 128", f"$K = 2^{{7}} = {2 ** 7}$ 個なら $\\sqrt{{128}}\\,c \\approx {math.sqrt(128):.2f}\\,c$", 2)

# 例 3.4 の表
rows34 = []
for c in (Fraction(1), Fraction(2), Fraction(7, 2), Fraction(4), Fraction(6)):
    s = min(Fraction(1), c / 5)
    sa = min(Fraction(1), c / 3)
    sb = min(Fraction(1), c / 4)
    ng = min(Fraction(5), c)
    npt2 = min(Fraction(3), c) ** 2 + min(Fraction(4), c) ** 2
    npt_ = math.sqrt(npt2)
    cs = float(9 * sa + 16 * sb) / (5 * npt_)
    truth(f"例 3.4 c = {float(c)}: テンソルごとのノルム^2 = (s_A 3)^2 + (s_B 4)^2", npt2 == (3 * sa) ** 2 + (4 * sb) ** 2, 0)
    row = "\t".join([dstrip(c), dstrip(s), dstrip(sa), dstrip(sb), dstrip(ng), dstrip(npt_), dstrip(cs)])
    check(f"例 3.4 の表 c = {float(c)} の行", row, 6)
    rows34.append((c, ng, npt_))
truth("例 3.4 どの行でもテンソルごとのノルム >= 大域のノルム、大域のノルムは c について単調非減少",
      all(p >= float(q) for _, q, p in rows34) and all(rows34[i][1] <= rows34[i + 1][1] for i in range(4)), 2)
check("例 3.4 c = 1, 2 の余弦", f"$(3 + 4)/(\\sqrt{{2}} \\times 5) \\approx {cos1:.4f}$ で、下限の $1/\\sqrt{{2}} \\approx {1 / math.sqrt(2):.4f}$", 2)
check("例 3.4 3.5/4", f"$3.5/4 = {3.5 / 4}$ 倍")
vv = [float(x) for x in gA] + [float(Fraction(7, 8) * x) for x in gB]
check("例 3.4 c = 3.5 のベクトル", "(" + ", ".join(dstrip(x) for x in vv) + ")", 5)
check("例 3.4 c = 3.5 のノルム", f"$\\sqrt{{9 + {float(Fraction(7, 8) ** 2 * 16)}}} = \\sqrt{{21.25}} \\approx {math.sqrt(21.25):.4f}$", 2)
cos35 = 23 / (5 * math.sqrt(21.25))
truth("例 3.4 9 + 0.875 × 16 = 23", 9 + Fraction(7, 8) * 16 == 23)
check("例 3.4 c = 3.5 の余弦", f"$(9 + 0.875 \\times 16)/(5\\sqrt{{21.25}}) = 23/(5\\sqrt{{21.25}}) \\approx {cos35:.4f}$（約 {deg(cos35):.2f}°）", 3)
check("例 3.4 c = 4", "大域の方法は 0.8 倍に縮めます")

# ======================= 4 節：Adam =======================
b1, b2 = Fraction(9, 10), Fraction(999, 1000)


def adam_exact(gs, b1=b1, b2=b2):
    """ε = 0 の Adam の比 m̂/sqrt(v̂) を mpmath で（m, v は有理数で厳密に）。"""
    m = v = Fraction(0)
    out = []
    for t, g in enumerate(gs, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mh = m / (1 - b1 ** t)
        vh = v / (1 - b2 ** t)
        if vh == 0:               # それまでの勾配がすべて 0：m も 0 で更新は 0
            out.append(mpmath.mpf(0))
            continue
        out.append(mpq(mh) / mpmath.sqrt(mpq(vh)))
    return out


# 命題 4.2：閉じた式と重みの和（有理数で厳密）
ok42 = True
for _ in range(200):
    t = int(rng.integers(1, 30))
    gs = [Fraction(int(x), 7) for x in rng.integers(-20, 21, t)]
    m = v = Fraction(0)
    for g in gs:
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
    ok42 &= m == (1 - b1) * sum(b1 ** (t - i) * gs[i - 1] for i in range(1, t + 1))
    ok42 &= v == (1 - b2) * sum(b2 ** (t - i) * gs[i - 1] ** 2 for i in range(1, t + 1))
    ok42 &= (1 - b1) * sum(b1 ** (t - i) for i in range(1, t + 1)) == 1 - b1 ** t
tt = sp.symbols("t", positive=True, integer=True)
bb, jj = sp.symbols("beta j", positive=True)
geo = sp.simplify((1 - bb) * sp.summation(bb ** jj, (jj, 0, tt - 1)) - (1 - bb ** tt))
truth("命題 4.2 の 1：m_t, v_t の閉じた式と重みの和 1 - β^t（有理数 200 例と sympy）", ok42 and geo == 0, 2)
gc = [Fraction(3, 10)] * 25
truth("命題 4.2 の 2：一定の勾配で m̂_t = g、v̂_t = g^2", all(abs(r - 1) < mpmath.mpf(10) ** -40 for r in adam_exact(gc)), 2)
truth("命題 4.2 の 3：E[m_t] = (1 - β1^t) μ（重みの和から）", True, 0)
check("4 節 m_1 = 0.1 g_1", f"$m_1 = {float(1 - b1)}\\,g_1$ で、勾配の {int((1 - b1) * 100)} % しかありません", 2)

# 命題 4.3
ok431 = True
for t in (1, 5, 40):
    for g, eps in ((Fraction(1, 50), 0.0), (Fraction(-3), 0.0), (Fraction(1, 50), 1e-3)):
        r = float(adam_exact([g] * t)[-1])
        step = abs(r * abs(float(g)) / (abs(float(g)) + eps))
        ok431 &= abs(step - abs(float(g)) / (abs(float(g)) + eps)) < 1e-12 and step <= 1 + 1e-15
for _ in range(50):   # t = 1 は勾配によらず |Δθ_1| = |g|/(|g| + ε) <= 1
    g = Fraction(int(rng.integers(1, 1000)), int(rng.integers(1, 1000)))
    ok431 &= abs(abs(adam_exact([g])[0]) - 1) < mpmath.mpf(10) ** -40
truth("命題 4.3 の 1：一定の勾配と t = 1 で |Δθ| = η|g|/(|g| + ε) <= η", ok431)
ok432 = True
for _ in range(20):
    gs = [Fraction(int(x), 13) for x in rng.integers(-9, 10, 15)]
    if gs[0] == 0:
        gs[0] = Fraction(1)
    a = Fraction(int(rng.integers(1, 1000)), 7)
    ok432 &= all(abs(x - y) < mpmath.mpf(10) ** -40 for x, y in zip(adam_exact(gs), adam_exact([a * g for g in gs])))
truth("命題 4.3 の 2：ε = 0 で勾配を a 倍しても更新は同じ", ok432)

gam = b1 ** 2 / b2


def B(t, b1=b1, b2=b2):
    gm = b1 ** 2 / b2
    return (mpq(1 - b1) * mpmath.sqrt(mpq(1 - b2 ** t)) * mpmath.sqrt(mpq(1 - gm ** t))
            / (mpq(1 - b1 ** t) * mpmath.sqrt(mpq(1 - b2)) * mpmath.sqrt(mpq(1 - gm))))


def Binf(b1=b1, b2=b2):
    gm = b1 ** 2 / b2
    return mpq(1 - b1) / mpmath.sqrt(mpq((1 - b2) * (1 - gm)))


ok433 = True
for t in (1, 2, 10, 37, 100):
    worst = [(b1 / b2) ** (t - i) for i in range(1, t + 1)]
    ok433 &= abs(abs(adam_exact(worst)[-1]) - B(t)) < mpmath.mpf(10) ** -35      # 等号
    for _ in range(300):                                                        # 乱数の列は B_t を超えない
        gs = [Fraction(int(x), 11) for x in rng.integers(-30, 31, t)]
        if all(g == 0 for g in gs):
            continue
        if gs[-1] == 0 and all(g == 0 for g in gs):
            continue
        r = adam_exact(gs)[-1]
        ok433 &= abs(r) <= B(t) + mpmath.mpf(10) ** -35
    grow = [Fraction(int(rng.integers(1, 5))) * (b1 / b2) ** (t - i) * (1 + Fraction(int(x), 50)) for i, x in
            zip(range(1, t + 1), rng.integers(-3, 4, t))]
    ok433 &= abs(adam_exact(grow)[-1]) <= B(t) + mpmath.mpf(10) ** -35
truth("命題 4.3 の 3：|Δθ_t| <= η B_t（乱数の列 1,500 例）、等号の列で一致", ok433, 2)
truth("命題 4.3 の 3：B_1 = 1、B_t → B_∞", abs(B(1) - 1) < mpmath.mpf(10) ** -45 and abs(B(20000) - Binf()) < mpmath.mpf(10) ** -6, 2)
# 4：E[g] = μ、E[g^2] = ν なら |μ| <= sqrt(ν)（分散 >= 0）。一般の形は sympy で
mu, sd = sp.symbols("mu sigma", real=True)
truth("命題 4.3 の 4：ν - μ^2 = 分散 >= 0", sp.simplify((mu ** 2 + sd ** 2) - mu ** 2 - sd ** 2) == 0)

check("4 節 γ", f"$\\gamma = 0.81/0.999 \\approx {float(gam):.4f}$")
check("4 節 B_∞（丸めた 1 - γ から）", f"$B_\\infty = 0.1/\\sqrt{{0.001 \\times {float(1 - gam):.4f}}} \\approx {float(Binf()):.3f}$", 2)
truth("4 節 丸めた 0.1892 で計算しても 7.270", f"{0.1 / math.sqrt(0.001 * 0.1892):.3f}" == f"{float(Binf()):.3f}")
check("4 節 β2/β1", f"$\\beta_2/\\beta_1 = {float(b2 / b1):.2f}$ 倍")
truth("4 節 β2/β1 はちょうど 1.11", b2 / b1 == Fraction(111, 100))
check("要点 最悪の場合", f"約 ${float(Binf()):.3f}\\,\\eta$ に達します")

# 例 4.4 の表
cells44 = {
    1: ["1", dstrip(1 - b1), dstrip(1 / (1 - b1)), dstrip(1 - b2), cp(int(1 / (1 - b2))),
        sig(float(1 - b1) / math.sqrt(float(1 - b2)), 4), dstrip(B(1))],
    10: ["10", dec(1 - b1 ** 10, 4), dec(1 / (1 - b1 ** 10), 4), sig(1 - b2 ** 10, 4), dec(1 / (1 - b2 ** 10), 2),
         sig(float(1 - b1 ** 10) / math.sqrt(float(1 - b2 ** 10)), 4), dec(B(10), 4)],
    100: ["100", dec(1 - b1 ** 100, 5), dec(1 / (1 - b1 ** 100), 7), sig(1 - b2 ** 100, 4), dec(1 / (1 - b2 ** 100), 3),
          sig(float(1 - b1 ** 100) / math.sqrt(float(1 - b2 ** 100)), 4), dec(B(100), 4)],
    1000: ["1,000", f"$1 - {sci(b1 ** 1000)}$", dec(1 / (1 - b1 ** 1000), 4), dec(1 - b2 ** 1000, 4),
           dec(1 / (1 - b2 ** 1000), 4), sig(float(1 - b1 ** 1000) / math.sqrt(float(1 - b2 ** 1000)), 4), dec(B(1000), 4)],
}
truth("例 4.4 t = 1 の行は厳密（0.1、10、0.001、1,000、B_1 = 1）",
      1 - b1 == Fraction(1, 10) and 1 / (1 - b1) == 10 and 1 - b2 == Fraction(1, 1000) and 1 / (1 - b2) == 1000, 0)
for t, cells in cells44.items():
    check(f"例 4.4 の表 t = {t} の行", "\t".join(cells), 6)
check("例 4.4 0.9^10", f"$0.9^{{10}} = {b1 ** 10.0:.10f}$ なので $1 - 0.9^{{10}} = {float(1 - b1 ** 10):.10f}$、倍率は約 {float(1 / (1 - b1 ** 10)):.4f}", 3)
truth("例 4.4 0.9^10 は正確に 0.3486784401", b1 ** 10 == Fraction(3486784401, 10 ** 10))
x100 = b1 ** 100
check("例 4.4 0.9^100", f"$0.9^{{100}} \\approx {sci(x100)}$ で、倍率は約 $1 + {sci(1 / (1 - x100) - 1)}$", 2)
check("例 4.4 t = 1,000 の β2 の倍率", f"$t = 1{{,}}000$ でもまだ約 {float(1 / (1 - b2 ** 1000)):.4f} 倍")
pw, tthr = Fraction(1), None
for t in range(1, 100000):
    pw *= b2
    if 1 / (1 - pw) <= Fraction(101, 100):
        tthr = t
        break
check("例 4.4 倍率が 1.01 以下になる t", f"倍率が 1.01 以下になるのは $t \\ge {cm(tthr)}$ から")
unc = [((1 - 0.9 ** t) / math.sqrt(1 - 0.999 ** t), t) for t in range(1, 100001)]   # 浮動小数点で十分（最大の位置は t = 12）
umax, targ = max(unc)
check("例 4.4 補正なしの比 t = 1", f"$t = 1$ で $0.1/\\sqrt{{0.001}} \\approx {math.sqrt(10):.3f}$ 倍")
check("例 4.4 補正なしの比の最大", f"$t = {targ}$ で最大の約 {umax:.3f} 倍")
check("例 4.4 補正なしの比 t = 1,000", f"$t = 1{{,}}000$ でも約 {unc[999][0]:.3f} 倍残ります")
truth("例 4.4 補正なしの比は 1 以上（v の偏りのほうが大きい）", all(u >= 1 for u, _ in unc[:5000]))
truth("例 4.4 B_t は表の t = 1, 10, 100, 1,000 で増え、B_∞ 未満", B(1) < B(10) < B(100) < B(1000) < Binf(), 2)
check("例 4.4 B_∞", f"$B_\\infty \\approx {float(Binf()):.3f}$ に近づいていきます")
check("要点 β1 の倍率", f"$\\beta_1 = 0.9$ なら {dstrip(1 / (1 - b1))}、約 {float(1 / (1 - b1 ** 10)):.4f}、約 {float(1 / (1 - b1 ** 100)):.7f}", 3)
check("要点 β2 の倍率", f"$\\beta_2 = 0.999$ なら {cp(int(1 / (1 - b2)))}、約 {float(1 / (1 - b2 ** 10)):.2f}、約 {float(1 / (1 - b2 ** 100)):.3f}", 3)

# ======================= 5 節：スケジュール =======================


def eta(t, T, W, emax, emin):
    """定義 5.1（mpmath）。"""
    if t <= W:
        return mpmath.mpf(emax) * t / W
    return emin + (emax - emin) * (1 + mpmath.cos(mpmath.pi * (t - W) / (T - W))) / 2


def closed(T, W, emax, emin):
    return mpmath.mpf(emax) * T / 2 + mpmath.mpf(emin) * (T - W + 1) / 2


ok52 = [True] * 4
for _ in range(60):
    T = int(rng.integers(2, 400))
    W = int(rng.integers(1, T))
    emax = mpmath.mpf(rng.uniform(0.5, 2))
    emin = emax * mpmath.mpf(rng.uniform(0, 0.9))
    e = [eta(t, T, W, emax, emin) for t in range(1, T + 1)]
    N = T - W
    ok52[0] &= all(e[i] < e[i + 1] for i in range(W - 1)) and all(e[i] > e[i + 1] for i in range(W - 1, T - 1)) \
        and abs(e[-1] - emin) < mpmath.mpf(10) ** -40 and max(range(T), key=lambda i: e[i]) == W - 1
    ok52[1] &= all(abs(e[W - 1 + j] + e[T - 1 - j] - emax - emin) < mpmath.mpf(10) ** -40 for j in range(N + 1))
    S = mpmath.fsum(e)
    ok52[2] &= abs(S - closed(T, W, emax, emin)) < mpmath.mpf(10) ** -35
    ok52[3] &= abs(S / (emax * T) - (mpmath.mpf(1) / 2 + emin / emax * (T - W + 1) / (2 * T))) < mpmath.mpf(10) ** -35
    # 連続時間の積分との差は η_min/2
    integ = emax * W / 2 + mpmath.quad(lambda x: emin + (emax - emin) * (1 + mpmath.cos(mpmath.pi * x / N)) / 2, [0, N])
    ok52[3] &= abs(S - integ - emin / 2) < mpmath.mpf(10) ** -30
for i in range(4):
    truth(f"命題 5.2 の {i + 1}（乱数 60 通りの T, W, η）", ok52[i])
Tt, Ww = sp.symbols("T W", positive=True)
truth("命題 5.2 の 3 の式変形（sympy）：η_max(W+1)/2 + (N-1)η_max/2 + (N+1)η_min/2 = η_max T/2 + η_min(T-W+1)/2",
      sp.simplify(sp.Symbol("a") * (Ww + 1) / 2 + (Tt - Ww - 1) * sp.Symbol("a") / 2 + (Tt - Ww + 1) * sp.Symbol("b") / 2
                  - (sp.Symbol("a") * Tt / 2 + sp.Symbol("b") * (Tt - Ww + 1) / 2)) == 0)
truth("命題 5.2 の 4：η_min = 0 なら比はちょうど 1/2（W, T に依らない）",
      all(abs(mpmath.fsum(eta(t, T, W, 1, 0) for t in range(1, T + 1)) / T - mpmath.mpf(1) / 2) < mpmath.mpf(10) ** -35
          for T, W in ((10, 1), (10, 9), (101, 37), (300, 150))))

# 例 5.3
T, W, EM, Em = 10000, 500, Fraction(3, 10000), Fraction(3, 100000)
N = T - W
check("例 5.3 N", f"$N = {cm(N)}$")
rows53 = [(1, "ウォームアップ"), (250, "ウォームアップ"), (500, "境目"), (1000, "減衰"), (2875, "減衰"),
          (5250, "減衰"), (7625, "減衰"), (9000, "減衰"), (10000, "減衰")]
for t, phase in rows53:
    e = eta(t, T, W, mpmath.mpf(EM.numerator) / EM.denominator, mpmath.mpf(Em.numerator) / Em.denominator)
    frac = "−" if t < W else dstrip(Fraction(t - W, N), 5) if t in (500, 2875, 5250, 7625, 10000) else sig(Fraction(t - W, N), 4)
    row = "\t".join([cp(t), phase, frac, f"${sci(e)}$", dec(e / (mpmath.mpf(3) / 10000), 4)])
    check(f"例 5.3 の表 t = {t} の行", row, 3 if t < W else 4)
check("例 5.3 中点", f"$t = W + N/2 = {cm(W + N // 2)}$")
check("例 5.3 中点の値", f"$\\eta_t = (\\eta_{{\\max}} + \\eta_{{\\min}})/2 = {float((EM + Em) / 2) * 1e4:.2f} \\times 10^{{-4}}$")
truth("例 5.3 中点の値は 1.65e-4", (EM + Em) / 2 == Fraction(165, 1000000))
check("例 5.3 ±2,375", f"$\\pm {cm(5250 - 2875)}$ ステップ")
truth("例 5.3 2,875 と 7,625 は中点から ±2,375", 7625 - 5250 == 5250 - 2875 == 2375 and Fraction(2875 - W, N) == Fraction(1, 4))
c4 = (1 + math.cos(math.pi / 4)) / 2
check("例 5.3 cos(π/4)", f"$\\cos(\\pi/4) \\approx {math.cos(math.pi / 4):.4f}$")
check("例 5.3 比の計算", f"$0.1 + 0.9 \\times {c4:.4f} \\approx {0.1 + 0.9 * c4:.4f}$ と $0.1 + 0.9 \\times {1 - c4:.4f} \\approx {0.1 + 0.9 * (1 - c4):.4f}$", 4)
truth("例 5.3 丸めた 0.8536、0.1464 で計算しても 0.8682、0.2318", f"{0.1 + 0.9 * 0.8536:.4f}" == "0.8682" and f"{0.1 + 0.9 * 0.1464:.4f}" == "0.2318")
check("例 5.3 足すと 1.1", f"足すと ${float((EM + Em) / EM)} = (\\eta_{{\\max}} + \\eta_{{\\min}})/\\eta_{{\\max}}$")
check("例 5.3 最初のステップ", f"$\\eta_{{\\max}}/W = 3 \\times 10^{{-4}}/500 = {int(EM / W * 10 ** 7)} \\times 10^{{-7}}$")
S53 = EM * T / 2 + Em * (T - W + 1) / 2
check("例 5.3 合計", f"$3 \\times 10^{{-4}} \\times 10{{,}}000/2 + 3 \\times 10^{{-5}} \\times {cm(T - W + 1)}/2 = {float(EM * T / 2)} + {float(Em * (T - W + 1) / 2)} = {float(S53)}$", 4)
check("例 5.3 一定の合計", f"$3 \\times 10^{{-4}} \\times 10{{,}}000 = {int(EM * T)}$")
check("例 5.3 比", f"比は {float(S53 / (EM * T))}、約 {float(S53 / (EM * T)) * 100:.2f} %", 2)
wu = EM * (W + 1) / 2
check("例 5.3 ウォームアップ部", f"$3 \\times 10^{{-4}} \\times 501/2 = {float(wu)}$ で、全体の約 {float(wu / S53) * 100:.3f} %", 2)
truth("例 5.3 数値の和（mpmath）が閉じた式に一致",
      abs(mpmath.fsum(eta(t, T, W, mpmath.mpf(3) / 10000, mpmath.mpf(3) / 100000) for t in range(1, T + 1)) - mpmath.mpf(S53.numerator) / S53.denominator) < mpmath.mpf(10) ** -30)

# 定義 5.4：Vaswani のスケジュールとの一致、η_max
ok54 = True
for d_, W_ in ((512, 4000), (64, 10), (1024, 777)):
    for t in list(range(1, 3 * W_, max(1, W_ // 50))) + [W_]:
        va = mpmath.mpf(d_) ** -0.5 * min(mpmath.mpf(t) ** -0.5, t * mpmath.mpf(W_) ** -1.5)
        em = (mpmath.mpf(d_) * W_) ** -0.5
        mine = em * t / W_ if t <= W_ else em * mpmath.sqrt(mpmath.mpf(W_) / t)
        ok54 &= abs(va - mine) < mpmath.mpf(10) ** -40
truth("定義 5.4 逆平方根 = Vaswani らの式（η_max = (dW)^{-1/2}）", ok54)
check("定義 5.4 η_max（d = 512、W = 4,000）", f"$\\eta_{{\\max}} = 1/\\sqrt{{{cm(512 * 4000)}}} \\approx {sci(1 / math.sqrt(512 * 4000))}$", 2)


def sched(kind, T, W, emax=1, emin=0):
    out = []
    for t in range(1, T + 1):
        if t <= W:
            out.append(mpmath.mpf(emax) * t / W)
        elif kind == "const":
            out.append(mpmath.mpf(emax))
        elif kind == "linear":
            out.append(emin + (emax - emin) * mpmath.mpf(T - t) / (T - W))
        elif kind == "isqrt":
            out.append(emax * mpmath.sqrt(mpmath.mpf(W) / t))
        else:
            out.append(eta(t, T, W, emax, emin))
    return out


ok55 = [True] * 3
for _ in range(40):
    T_ = int(rng.integers(2, 500))
    W_ = int(rng.integers(1, T_))
    emax, emin = mpmath.mpf(rng.uniform(0.5, 2)), mpmath.mpf(rng.uniform(0, 0.4))
    ok55[0] &= abs(mpmath.fsum(sched("const", T_, W_, emax)) - emax * (T_ - mpmath.mpf(W_ - 1) / 2)) < mpmath.mpf(10) ** -35
    lin = sched("linear", T_, W_, emax, emin)
    ok55[1] &= abs(mpmath.fsum(lin) - closed(T_, W_, emax, emin)) < mpmath.mpf(10) ** -35 and abs(lin[-1] - emin) < mpmath.mpf(10) ** -40
    isq = sched("isqrt", T_, W_, emax)
    inner = mpmath.fsum(isq[W_:]) / emax
    lo = 2 * mpmath.sqrt(W_) * (mpmath.sqrt(T_ + 1) - mpmath.sqrt(W_ + 1))
    hi = 2 * mpmath.sqrt(W_) * (mpmath.sqrt(T_) - mpmath.sqrt(W_))
    ok55[2] &= lo <= inner <= hi and abs(isq[-1] - emax * mpmath.sqrt(mpmath.mpf(W_) / T_)) < mpmath.mpf(10) ** -40
for i in range(3):
    truth(f"命題 5.5 の {i + 1}（乱数 40 通り）", ok55[i])
truth("命題 5.5 の 3：比の上界 (W+1)/(2T) + 2 sqrt(W/T) は T → ∞ で 0 に近づく",
      all((W + 1) / (2 * T_) + 2 * math.sqrt(W / T_) > (W + 1) / (2 * 10 * T_) + 2 * math.sqrt(W / (10 * T_)) for T_ in (10 ** 4, 10 ** 6))
      and (W + 1) / (2 * 10 ** 12) + 2 * math.sqrt(W / 10 ** 12) < 1e-4)
check("命題 5.5 のあと 1/4 の位置", f"余弦が $(1 + \\cos(\\pi/4))/2 \\approx {c4:.4f}$、線形が {1 - 0.25}", 2)
check("命題 5.5 のあと 3/4 の位置", f"余弦が約 {1 - c4:.4f}、線形が {0.25}", 2)

# 例 5.6 の表
tot = {k: mpmath.fsum(sched(k, T, W, 1, em)) for k, em in (("const", 0), ("linear", 0), ("cos", 0))}
tot["cos10"] = mpmath.fsum(sched("cos", T, W, 1, mpmath.mpf(1) / 10))
tot["isqrt"] = mpmath.fsum(sched("isqrt", T, W, 1))
fin = {"const": 1, "linear": 0, "cos": 0, "cos10": 0.1, "isqrt": math.sqrt(W / T)}
truth("例 5.6 一定・線形・余弦・余弦 10 % の合計は厳密に 9,750.5、5,000、5,000、5,475.05",
      abs(tot["const"] - mpmath.mpf("9750.5")) < 1e-30 and abs(tot["linear"] - 5000) < 1e-30
      and abs(tot["cos"] - 5000) < 1e-30 and abs(tot["cos10"] - mpmath.mpf("5475.05")) < 1e-30, 0)
check("例 5.6 の表 一定", "\t".join(["一定", "1", cp(float(tot["const"]), 1), dstrip(tot["const"] / T, 5), "1"]), 3)
check("例 5.6 の表 線形減衰", "\t".join(["線形減衰", "$(T - t)/(T - W)$", cp(int(round(float(tot["linear"])))), dstrip(tot["linear"] / T, 5), "0"]), 3)
check("例 5.6 の表 余弦減衰", "\t".join(["余弦減衰", "$(1 + \\cos(\\pi(t - W)/(T - W)))/2$", cp(int(round(float(tot["cos"])))), dstrip(tot["cos"] / T, 5), "0"]), 3)
check("例 5.6 の表 余弦減衰（10 %）", "\t".join(["余弦減衰（10 %）", "$0.1 + 0.9\\,(1 + \\cos(\\pi(t - W)/(T - W)))/2$",
                                              cp(float(tot["cos10"]), 2), dstrip(tot["cos10"] / T, 6), "0.1"]), 3)
check("例 5.6 の表 逆平方根", "\t".join(["逆平方根", "$\\sqrt{W/t}$", cp(float(tot["isqrt"]), 2), dec(tot["isqrt"] / T, 5),
                                       dec(fin["isqrt"], 4)]), 3)
check("例 5.6 一定の合計", f"$10{{,}}000 - {W - 1}/2 = {cmd(Fraction(T) - Fraction(W - 1, 2), 1)}$")
truth("例 5.6 10,000 - 499/2 = 9,750.5", Fraction(T) - Fraction(W - 1, 2) == Fraction(19501, 2))
check("例 5.6 失う量", f"失うのは ${float(Fraction(W - 1, 2))}$、{float(Fraction(W - 1, 2) / T * 100)} % だけ", 2)
check("例 5.6 余弦 10 %", f"$5{{,}}000 + 0.1 \\times {cm(T - W + 1)}/2 = 5{{,}}475.05$ で、比は例 5.3 と同じ {float(S53 / (EM * T))}", 2)
truth("例 5.6 余弦 10 % の比 = 例 5.3 の比", abs(tot["cos10"] / T - mpmath.mpf((S53 / (EM * T)).numerator) / (S53 / (EM * T)).denominator) < 1e-30)
check("例 5.6 逆平方根のウォームアップ部", f"逆平方根の合計は ${float(Fraction(W + 1, 2))}$ と")
lo = 2 * math.sqrt(500) * (math.sqrt(10001) - math.sqrt(501))
hi = 2 * math.sqrt(500) * (100 - math.sqrt(500))
inner = float(tot["isqrt"] - mpmath.mpf(W + 1) / 2)
check("例 5.6 和の下界", f"$2\\sqrt{{500}}\\,(\\sqrt{{10{{,}}001}} - \\sqrt{{501}}) \\approx {cmd(lo, 2)}$")
check("例 5.6 和の上界", f"$2\\sqrt{{500}}\\,(100 - \\sqrt{{500}}) \\approx {cmd(hi, 2)}$")
check("例 5.6 実際の和", f"実際の値は約 {cp(inner, 2)}")
truth("例 5.6 下界 <= 実際の和 <= 上界", lo <= inner <= hi)
check("例 5.6 最終値", f"$\\sqrt{{500/10{{,}}000}} = \\sqrt{{0.05}} \\approx {math.sqrt(0.05):.4f}$")
check("例 5.6 約 22 %", f"最大値の約 {round(math.sqrt(0.05) * 100)} % を保ちます")

# ======================= 6 節 =======================
ok61 = True
for _ in range(300):
    T_ = int(rng.integers(1, 60))
    c = 10.0 ** rng.uniform(-1, 1)
    etas = rng.uniform(0, 1, T_)
    K = int(rng.integers(1, 4))
    th = np.zeros(3 * K)
    th_pt = np.zeros(3 * K)
    for t in range(T_):
        gg = rng.standard_normal(3 * K) * 10.0 ** rng.uniform(-2, 3)
        step = etas[t] * clip(gg, c)
        ok61 &= abs(np.linalg.norm(step) - etas[t] * min(np.linalg.norm(gg), c)) < 1e-9 * max(1, np.linalg.norm(gg))
        th -= step
        th_pt -= etas[t] * np.concatenate(clip_pt(np.split(gg, K), c))
    ok61 &= np.linalg.norm(th) <= c * etas.sum() + 1e-12 and np.linalg.norm(th_pt) <= math.sqrt(K) * c * etas.sum() + 1e-12
truth("命題 6.1：1 歩は η_t min(|g|, c)、移動距離 <= c Σ η_t（テンソルごとは sqrt(K) c）（乱数 300 例）", ok61, 3)
check("6 節 移動距離の上界", f"どんな勾配の列に対しても {float(S53)} 以下です")
# 注意 6.2：倍率が全ステップで同じなら、クリッピングは Adam の更新を変えない
gs = [Fraction(int(x), 9) for x in rng.integers(-40, 41, 30)]
gs[0] = Fraction(5)
lam = Fraction(1, 37)
truth("注意 6.2：全ステップ同じ倍率のクリッピングは ε = 0 の Adam の更新を変えない",
      all(abs(x - y) < mpmath.mpf(10) ** -40 for x, y in zip(adam_exact(gs), adam_exact([lam * g for g in gs]))))

# ======================= 要点 =======================
check("要点 合計の式", "$\\eta_{\\max}T/2 + \\eta_{\\min}(T - W + 1)/2$")

# ======================= 演習 =======================
g91A, g91B = [Fraction(3), Fraction(4)], [Fraction(-12)]
n91 = math.isqrt(int(sum(x * x for x in g91A + g91B)))
truth("演習 9.1 ノルム 5、12、13", sum(x * x for x in g91A) == 25 and sum(x * x for x in g91B) == 144 and n91 == 13, 3)
check("演習 9.1 ノルム", "$\\|\\boldsymbol{g}_A\\| = 5$、$\\|\\boldsymbol{g}_B\\| = 12$、$\\|\\boldsymbol{g}\\| = \\sqrt{25 + 144} = 13$", 5)
c91 = Fraction(13, 5)
s91 = c91 / 13
check("演習 9.1 大域", f"大域の倍率は $2.6/13 = {float(s91)}$ で、結果は $(" + ", ".join(dstrip(s91 * x) for x in g91A + g91B) + ")$、ノルムは $2.6$", 5)
sa91, sb91 = c91 / 5, c91 / 12
pt91 = [sa91 * x for x in g91A] + [sb91 * x for x in g91B]
check("演習 9.1 テンソルごと", f"$s_A = 2.6/5 = {float(sa91)}$、$s_B = 2.6/12 \\approx {float(sb91):.4f}$ で、結果は $("
      + ", ".join(dstrip(x) for x in pt91) + f")$、ノルムは $2.6\\sqrt{{2}} \\approx {2.6 * math.sqrt(2):.4f}$", 6)
truth("演習 9.1 テンソルごとのノルム^2 = 2 × 2.6^2", sum(x * x for x in pt91) == 2 * c91 ** 2)
cos91 = 17 / (13 * math.sqrt(2))
ptf = np.array([float(x) for x in pt91])
gf = np.array([3.0, 4.0, -12.0])
truth("演習 9.1 余弦を直接計算しても同じ", abs(ptf @ gf / (np.linalg.norm(ptf) * np.linalg.norm(gf)) - cos91) < 1e-14)
check("演習 9.1 余弦", f"$(5 + 12)/(\\sqrt{{2}} \\times 13) = 17/(13\\sqrt{{2}}) \\approx {cos91:.4f}$（約 {deg(cos91):.2f}°）で、下限 $1/\\sqrt{{2}} \\approx {1 / math.sqrt(2):.4f}$", 3)

T2, W2, EM2, Em2 = 1000, 100, Fraction(1, 1000), Fraction(1, 10000)
S92 = EM2 * T2 / 2 + Em2 * (T2 - W2 + 1) / 2
check("演習 9.2 合計", f"$10^{{-3}} \\times 1{{,}}000/2 + 10^{{-4}} \\times {T2 - W2 + 1}/2 = {float(EM2 * T2 / 2)} + {float(Em2 * (T2 - W2 + 1) / 2)} = {float(S92)}$", 3)
check("演習 9.2 一定の合計", f"$10^{{-3}} \\times 1{{,}}000 = {int(EM2 * T2)}$ なので、比は {float(S92 / (EM2 * T2))}", 2)
check("演習 9.2 命題 5.2 の 4 の式", f"$\\frac12 + 0.1 \\times \\frac{{901}}{{2{{,}}000}} = {float(Fraction(1, 2) + Fraction(1, 10) * Fraction(901, 2000))}$")
wu2 = EM2 * (W2 + 1) / 2
check("演習 9.2 ウォームアップ部", f"$10^{{-3}} \\times 101/2 = {float(wu2)}$ で、合計の約 {float(wu2 / S92) * 100:.3f} %", 2)
truth("演習 9.2 数値の和が一致", abs(mpmath.fsum(eta(t, T2, W2, mpmath.mpf(1) / 1000, mpmath.mpf(1) / 10000) for t in range(1, T2 + 1))
                                - mpmath.mpf(S92.numerator) / S92.denominator) < 1e-30)

b2g = Fraction(95, 100)
check("演習 9.3 t = 1", f"$1/(1 - 0.95) = {int(1 / (1 - b2g))}$")
check("演習 9.3 t = 10", f"$0.95^{{10}} \\approx {float(b2g ** 10):.4f}$ より $1/(1 - 0.95^{{10}}) \\approx {float(1 / (1 - b2g ** 10)):.4f}$", 2)
gam3 = b1 ** 2 / b2g
check("演習 9.3 γ", f"$\\gamma = 0.81/0.95 \\approx {float(gam3):.4f}$")
Binf3 = Binf(b1, b2g)
check("演習 9.3 B_∞", f"$B_\\infty = 0.1/\\sqrt{{0.05 \\times {float(1 - gam3):.4f}}} \\approx {float(Binf3):.3f}$", 2)
truth("演習 9.3 丸めた 0.1474 でも 1.165", f"{0.1 / math.sqrt(0.05 * 0.1474):.3f}" == f"{float(Binf3):.3f}")
check("演習 9.3 比較", f"{cp(int(1 / (1 - b2)))} 倍・約 {float(1 / (1 - b2 ** 10)):.2f} 倍・約 {float(Binf()):.3f}", 3)
check("演習 9.3 最悪の 1 歩", f"$\\eta$ の約 {float(Binf3):.3f} 倍にとどまります")
truth("演習 9.3 β2 を小さくすると B_∞ は小さい", Binf3 < Binf())

# ======================= 7 節：リスティング =======================
check("7 節 18 行目の説明", f"10,000 項を直接足した合計と命題 5.2 の 3 の式が、小数第 6 位まで {float(S53)} で一致", 2)
check("7 節 adam_bias.py の説明", f"$B_\\infty \\approx {float(Binf()):.4f}$ と", 1)
check("7 節 Kingma と Ba の値", f"$(1 - \\beta_1)/\\sqrt{{1 - \\beta_2}} \\approx {float(mpq(1 - b1) / mpmath.sqrt(mpq(1 - b2))):.4f}$")


# リスティングの設定と本文の説明の対応
clip_code = open(os.path.join(HERE, "clip_schedule.py"), encoding="utf-8").read()
adam_code = open(os.path.join(HERE, "adam_bias.py"), encoding="utf-8").read()
truth("7 節 clip_schedule.py の設定が例 3.2・例 5.3 と同じ（g、T = 10,000、W = 500、3e-4、3e-5）",
      "np.array([2.0, -1.0, 2.0]), np.array([2.4, 3.2])" in clip_code and "T, W, emax, emin = 10000, 500, 3e-4, 3e-5" in clip_code, 0)
truth("7 節 adam_bias.py の t = 10^6、勾配 0.02 と 1,000 ステップ、平均 2e-4・標準偏差 1e-3、1,000 倍",
      "bound(10 ** 6)" in adam_code and "np.full((1000, 1), 0.02)" in adam_code and "* 1e-3 + 2e-4" in adam_code
      and "adam_steps(1000 * gs)" in adam_code, 0)
check("7 節 t = 10^6", "$t = 10^{6}$ で計算した")
check("7 節 一定の勾配", "一定の勾配 0.02 では 1,000 ステップのどの更新も", 2)
check("7 節 正規乱数の勾配", "平均 $2 \\times 10^{-4}$、標準偏差 $10^{-3}$ の正規乱数の勾配を 1,000 倍しても", 3)


def printed_output(code_file):
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    return code, rest.split("\n\n")[0]


for f in ("clip_schedule.py", "adam_bias.py"):
    code, block = printed_output(f)
    run = subprocess.run([sys.executable, f], cwd=HERE, capture_output=True, text=True)
    same_code = code is not None
    same_out = same_code and run.returncode == 0 and run.stdout.rstrip("\n") == block
    truth(f"リスティング {f}：本文のコードと同一", same_code, 0)
    n_lines = len(run.stdout.strip("\n").splitlines())
    truth(f"リスティング {f}：実行結果が本文の出力 {n_lines} 行と一致", same_out, n_lines)

print(f"\n照合した数値・性質の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

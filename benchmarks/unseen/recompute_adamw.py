"""adamw.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
8 節のリストは取り出して実行し、出力を印字された出力とそのまま比べる。
最後に、本文（コードと参考文献を除く）に現れる小数・桁区切りの数・4 桁以上の数が、
すべてどれかの照合で確かめられたことを確認する（照合漏れの検出）。
"""
import math
import os
import re
import struct
import subprocess
import sys
from fractions import Fraction

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "adamw.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",")
results = []
covered = set()  # 照合済みの印字文字列（桁区切りはカンマ）


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def check(label, printed, value, must_appear=True, tol=None):
    """printed: 章に印字された文字列（桁区切りは , ）。value: 定義から計算した値。
    printed の小数の桁で丸めて一致するか（|差| <= 0.5 ulp）を調べる。"""
    dec = decimals(printed)
    p = Fraction(printed.replace(",", ""))
    v = Fraction(value) if isinstance(value, (int, Fraction)) else Fraction(float(value))
    half = Fraction(1, 2 * 10**dec)
    ok = abs(v - p) <= half + Fraction(1, 10**12) if tol is None else abs(v - p) <= tol
    if isinstance(value, (int, Fraction)) and dec == 0 and tol is None:
        ok = v == p
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    covered.add(printed)
    print(f"[{status:9s}] {label}: printed {printed}  computed {float(v):.12g}")


def sci(label, mant, exp, value):
    """「1.526 \\times 10^{-13}」の形の印字を照合する。"""
    s = f"{mant} \\times 10^{{{exp}}}"
    check(label, mant, value / 10.0**exp, must_appear=False)
    ok = s in TEXT
    results.append(ok)
    print(f"[{'ok' if ok else 'NOT FOUND':9s}] {label}: text contains {s}")


def setting(label, printed):
    """著者が選んだ設定値・引用した値（計算の入力）。本文にあることだけを確かめる。"""
    ok = present(printed)
    results.append(ok)
    covered.add(printed)
    print(f"[{'ok' if ok else 'NOT FOUND':9s}] setting/cited {label}: {printed}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


b1, b2 = Fraction(9, 10), Fraction(999, 1000)
B1, B2 = 0.9, 0.999


def B_t(t, b1=B1, b2=B2):
    g = b1 * b1 / b2
    return (1 - b1) * math.sqrt(1 - b2**t) / ((1 - b1**t) * math.sqrt(1 - b2)) * math.sqrt((1 - g**t) / (1 - g))


def B_inf(b1=B1, b2=B2):
    return (1 - b1) / math.sqrt((1 - b2) * (1 - b1 * b1 / b2))


def neff(t, b2=B2):
    return (1 + b2) * (1 - b2**t) / ((1 - b2) * (1 + b2**t))


def adam_ratio(gs, b1=B1, b2=B2, eps=0.0, correct=True):
    """定義どおりの Adam（1 成分）。最後の m_hat/(sqrt(v_hat)+eps)。"""
    m = v = 0.0
    for t, g in enumerate(gs, 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
    mh, vh = (m / (1 - b1**t), v / (1 - b2**t)) if correct else (m, v)
    return mh / (math.sqrt(vh) + eps)


# ---------------- 設定値・引用値 ----------------
for s in ("0.001", "0.9", "0.999", "0.98", "0.95"):
    setting("Adam hyper-parameters (Kingma-Ba defaults / Vaswani / GPT-3)", s)
for s in ("10^{-8}", "10^{-9}"):
    ok = s in TEXT
    results.append(ok)
    print(f"[{'ok' if ok else 'NOT FOUND':9s}] setting/cited epsilon {s}")
setting("Vaswani warmup steps", "4,000")
setting("GPT-3 weight decay", "0.1")
for sec in ("2.1", "3.1", "5.3"):
    setting("section number of a cited paper", sec)
setting("ZeRO example: 1.5e9 parameters -> 24 GB", "24")
check("ZeRO example 15 億 x 16 bytes = 24 GB", "24", Fraction(15 * 10**8 * 16, 10**9))

# ---------------- 0 節・3 節：補正しない比の最大 ----------------
unc = lambda t: (1 - B1**t) / math.sqrt(1 - B2**t)
ts = np.arange(1, 2_000_001)
vals = (1 - B1**ts) / np.sqrt(1 - B2**ts)
check("argmax_t (1-b1^t)/sqrt(1-b2^t)", "12", int(ts[np.argmax(vals)]))
check("max uncorrected ratio", "6.5685", unc(12))
check_true("uncorrected ratio decreasing for t >= 12 and tends to 1",
           np.all(np.diff(vals[11:]) <= 1e-15) and abs(vals[-1] - 1) < 1e-9)
check_true("text: '最大で約 6.5685 倍（$t = 12$）' and '$t = 12$ で最大の約 6.5685'",
           "6.5685 倍（$t = 12$）" in TEXT and "$t = 12$ で最大の約 6.5685" in TEXT)

# ---------------- 定理（記号計算と数値） ----------------
x1, x2 = sp.symbols("beta1 beta2", positive=True)
lhs = (1 - x1) ** 2 * x2 - (1 - x2) * (x2 - x1**2)
check_true("(1-b1)^2 b2 - (1-b2)(b2-b1^2) = (b2-b1)^2 (sympy)", sp.expand(lhs - (x2 - x1) ** 2) == 0)
expansion = x2 - 2 * x1 * x2 + x1**2 * x2 - x2 + x1**2 + x2**2 - x1**2 * x2
check_true("printed expansion equals both sides", sp.expand(expansion - lhs) == 0)
Binf_sym = (1 - x1) / sp.sqrt((1 - x2) * (1 - x1**2 / x2))
Binf_sym2 = sp.sqrt(1 + (x2 - x1) ** 2 / ((1 - x2) * (x2 - x1**2)))
check_true("two forms of B_inf agree (squares, sympy)",
           sp.simplify(Binf_sym**2 - Binf_sym2**2) == 0)
check_true("B_1 = 1 for several (b1, b2)", all(abs(B_t(1, a, b) - 1) < 1e-12
                                              for a in (0.0, 0.5, 0.9, 0.95) for b in (0.9, 0.99, 0.999)))
check("B_inf default", "7.2703", B_inf())
check_true("B_t -> B_inf (t = 10^6)", abs(B_t(10**6) - B_inf()) < 1e-9)
# 最悪の列で等号、ランダムな列では以下
rng = np.random.default_rng(123)
ok_worst = ok_rand = True
for t in (1, 2, 5, 37, 100, 400):
    worst = [(B1 / B2) ** (t - i) for i in range(1, t + 1)]
    ok_worst &= abs(abs(adam_ratio(worst)) - B_t(t)) < 1e-9 * B_t(t)
    for _ in range(200):
        gs = rng.standard_normal(t) * rng.uniform(0.01, 3, t) + rng.uniform(-1, 1)
        ok_rand &= abs(adam_ratio(gs)) <= B_t(t) * (1 + 1e-12)
check_true("equality at g_i = (b1/b2)^(t-i)", ok_worst)
check_true("random sequences never exceed B_t", ok_rand)
# 最悪の列の近くをずらすと比は下がる（等号はその列だけ）
t = 30
worst = np.array([(B1 / B2) ** (t - i) for i in range(1, t + 1)])
check_true("perturbing the worst sequence lowers the ratio",
           all(abs(adam_ratio(worst + 1e-3 * rng.standard_normal(t))) < B_t(t) for _ in range(50)))
# gamma >= 1 では発散
check_true("gamma > 1 (b1 = 0.9, b2 = 0.8): B_t grows without bound",
           B_t(10, 0.9, 0.8) < B_t(100, 0.9, 0.8) < B_t(1000, 0.9, 0.8) < B_t(2000, 0.9, 0.8) and B_t(2000, 0.9, 0.8) > 1e5)
g1 = lambda t: (1 - 0.9) * math.sqrt(1 - 0.81**t) / ((1 - 0.9**t) * math.sqrt(1 - 0.81)) * math.sqrt(t)
check_true("gamma = 1 (b2 = b1^2 = 0.81): B_t = const * sqrt(t) grows without bound",
           g1(100) < g1(10000) < g1(10**6) and g1(10**6) > 200)
check_true("B_inf >= 1 with equality iff b1 = b2 (grid)",
           all(B_inf(a, b) >= 1 - 1e-12 for a in np.linspace(0, 0.95, 20) for b in np.linspace(0.5, 0.999, 20) if a * a < b)
           and abs(B_inf(0.9, 0.9) - 1) < 1e-12 and B_inf(0.9, 0.91) > 1)
check("beta1/beta2", "0.9009", B1 / B2)
check("beta2/beta1", "1.11", B2 / B1)
check("spike limit 0.1/sqrt(0.001)", "3.1623", 0.1 / math.sqrt(0.001))
# 原論文の上界との関係
check("KB first bound (1-b1)/sqrt(1-b2)", "3.1623", (1 - B1) / math.sqrt(1 - B2))
check_true("defaults fall in KB's first case: 1 - b1 > sqrt(1 - b2)", 1 - B1 > math.sqrt(1 - B2))
check("beta2 = 0.99: 1 - b1 = sqrt(1 - b2) = 0.1", "0.1", math.sqrt(1 - 0.99))
check("(b2 - b1)^2 at b2 = 0.99", "0.0081", (Fraction(99, 100) - b1) ** 2)
check("1 - b2 at 0.99", "0.01", 1 - Fraction(99, 100))
check("b2 - b1^2 at 0.99", "0.18", Fraction(99, 100) - b1 * b1)
check("1 + 0.0081/(0.01*0.18)", "5.5", 1 + Fraction(81, 10000) / (Fraction(1, 100) * Fraction(18, 100)))
check("B_inf at b2 = 0.99", "2.3452", B_inf(0.9, 0.99))
check_true("B_inf(0.99) computed both ways", abs(math.sqrt(5.5) - B_inf(0.9, 0.99)) < 1e-12)

# ---------------- 例：最初のステップ ----------------
check("first step uncorrected 0.1/sqrt(0.001) = sqrt(10)", "3.1623", math.sqrt(10))
check("3/(3+1e-8)", "1.000000", 3 / (3 + 1e-8))
check("0.002/(0.002+1e-8)", "0.999995", 0.002 / (0.002 + 1e-8))
check_true("0.002/(0.002+1e-8) = 1/(1+5e-6)", Fraction(2, 1000) / (Fraction(2, 1000) + Fraction(1, 10**8))
           == 1 / (1 + Fraction(5, 10**6)))
sci("5e-6 in 1/(1 + 5e-6)", "5", -6, 1e-8 / 0.002)
check("ratio of gradients 3/0.002", "1,500", Fraction(3) / Fraction(2, 1000))
setting("gradient component of the example", "0.002")
check("m_1 = 0.1 x 3", "0.3", Fraction(1, 10) * 3)
check("m_1 = 0.1 x 0.002", "0.0002", Fraction(1, 10) * Fraction(2, 1000))
check("uncorrected, g = 3", "3.162277", 0.3 / (math.sqrt(0.009) + 1e-8))
check("uncorrected, g = -0.002", "3.161778", 0.0002 / (math.sqrt(4e-9) + 1e-8))
check_true("m_1 = 0.1 g, v_1 = 0.001 g^2 for g = 3 and -0.002 (0.3, 0.009, 0.0002, 4e-9)",
           abs(0.1 * 3 - 0.3) < 1e-15 and abs(0.001 * 9 - 0.009) < 1e-15
           and abs(0.1 * 0.002 - 0.0002) < 1e-18 and abs(0.001 * 0.002**2 - 4e-9) < 1e-22)
check("vhat_1/v_1 = 1/(1-b2), so sqrt(v_1) = sqrt(vhat_1)/sqrt(1000)", "1000", 1 / (1 - b2))
check("EMA length 1/(1-b1)", "10", 1 / (1 - b1))
check("EMA length 1/(1-b2)", "1,000", 1 / (1 - b2))
check("B_{100} in remark", "2.243364", B_t(100))
check_true("corrected first step: |m_hat|/sqrt(v_hat) = 1 for any g", all(
    abs(abs(adam_ratio([g])) - 1) < 1e-15 for g in (3.0, -0.002, 1e-3, 7.5)))

# ---------------- 命題：n_eff ----------------
tt, bb = sp.symbols("t beta", positive=True)
w2sum = (1 - bb) ** 2 * (1 - bb ** (2 * tt)) / ((1 - bb**tt) ** 2 * (1 - bb**2))
check_true("sum w^2 simplifies to (1-b)(1+b^t)/((1+b)(1-b^t)) (sympy)",
           sp.simplify(w2sum - (1 - bb) * (1 + bb**tt) / ((1 + bb) * (1 - bb**tt))) == 0)
ok = True
for t in (1, 2, 3, 10, 57, 1000):
    w = np.array([(1 - B2) * B2 ** (t - i) / (1 - B2**t) for i in range(1, t + 1)])
    ok &= abs(1 / (w**2).sum() - neff(t)) < 1e-9 * t and abs(w.sum() - 1) < 1e-12
check_true("n_eff formula equals 1/sum w^2 (numeric)", ok)
check_true("n_eff(1) = 1, increasing, <= t", abs(neff(1) - 1) < 1e-12
           and all(neff(t + 1) > neff(t) for t in range(1, 20000)) and all(neff(t) <= t + 1e-9 for t in range(1, 20000)))
check("lim n_eff = 1.999/0.001", "1,999", (1 + b2) / (1 - b2))
check_true("text: 1.999/0.001", "1.999/0.001" in TEXT)
# 分散の式をモンテカルロで（正規分布）
rng = np.random.default_rng(7)
gs = rng.standard_normal((10, 200000))
vh = sum((1 - B2) * B2 ** (10 - i) * gs[i - 1] ** 2 for i in range(1, 11)) / (1 - B2**10)
check_true("Monte Carlo: std(v_hat_10)/E = sqrt(2/n_eff(10)) within 1 %",
           abs(vh.std() / vh.mean() - math.sqrt(2 / neff(10))) < 0.01 * math.sqrt(2 / neff(10)))
check("ln 3 / (-ln 0.999)", "1098.06", math.log(3) / -math.log(0.999))
check("first t with n_eff >= half the limit", "1,099", next(t for t in range(1, 5000) if neff(t) >= neff(10**7) / 2 - 1e-9))
check_true("n_eff(t)/t >= 0.99 for t <= 100 ('ほぼ t')", all(neff(t) / t >= 0.99 for t in range(1, 101)))
check_true("relative std >= 0.4472 for t <= 10", all(math.sqrt(2 / neff(t)) >= math.sqrt(2 / neff(10)) for t in range(1, 11)))

# ---------------- 表 1（β1 = 0.9, β2 = 0.999） ----------------
rows = {}
for m in re.finditer(r"^\| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", NORM, re.M):
    rows[int(m.group(1))] = m.groups()
check_true("table 1 has rows t = 1, 5, 10, 100, 1000, 10000", sorted(rows) == [1, 5, 10, 100, 1000, 10000])
for t, r in sorted(rows.items()):
    setting(f"T1 row t = {t}", r[0])
    check(f"T1 t={t} 1-b1^t", r[1], 1 - b1**t)
    check(f"T1 t={t} 1-b2^t", r[2], 1 - b2**t)
    check(f"T1 t={t} uncorrected ratio", r[3], unc(t))
    check(f"T1 t={t} n_eff", r[4], neff(t))
    check(f"T1 t={t} sqrt(2/n_eff)", r[5], math.sqrt(2 / neff(t)))
check("sqrt(2/n_eff(10)) in prose", "0.4472", math.sqrt(2 / neff(10)))

# ---------------- 4 節：スケール不変性・損失スケーリング ----------------
check("2^16", "65,536", 2**16)
sci("1e-8 / 2^16", "1.526", -13, 1e-8 / 2**16)
rng = np.random.default_rng(3)
G = rng.standard_normal(40) * 0.01
c = 37.5
check_true("scale invariance: Adam(c g, c eps) = Adam(g, eps) (c = 37.5)",
           abs(adam_ratio(c * G, eps=c * 1e-8) - adam_ratio(G, eps=1e-8)) < 1e-12)

# ---------------- ε の命題 ----------------
for g, pr in ((1e-4, "0.999900"), (1e-6, "0.990099"), (1e-10, "0.009901")):
    check(f"|g|/(|g|+eps) at |g| = {g:g}", pr, g / (g + 1e-8))
check("|g| = eps gives 1/2", "0.5", Fraction(1, 2))
check("99 eps gives 0.99", "0.99", Fraction(99, 100))
check_true("effect below 1 % for |g| >= 1e-6", 1e-8 / (1e-6 + 1e-8) < 0.01)
check_true("|g|/(|g|+eps) increasing in |g|", all(a / (a + 1e-8) < b / (b + 1e-8) for a, b in zip(np.logspace(-12, 0, 50)[:-1], np.logspace(-12, 0, 50)[1:])))
mh, vh_, eps = 3e-10, 4e-20, 1e-8
check_true("prop-epsilon 2: |m/eps - m/(sqrt v + eps)| <= |m| sqrt v / eps^2",
           abs(mh / eps - mh / (math.sqrt(vh_) + eps)) <= abs(mh) * math.sqrt(vh_) / eps**2)

# ---------------- 5 節：L2 と AdamW ----------------
def run(f_grad, lam, eps, decoupled, steps=60, lr=1e-2, theta0=(1.0, -2.0, 0.5)):
    th = np.array(theta0)
    m = v = np.zeros_like(th)
    for t in range(1, steps + 1):
        g = f_grad(th) + (0 if decoupled else lam * th)
        m = B1 * m + (1 - B1) * g
        v = B2 * v + (1 - B2) * g * g
        st = (m / (1 - B1**t)) / (np.sqrt(v / (1 - B2**t)) + eps)
        th = th - lr * (st + (lam * th if decoupled else 0))
    return th


fg = lambda th: np.array([2.0, 0.5, 1.0]) * (th - np.array([0.3, 0.1, -0.2]))
c = 7.0
check_true("prop-l2-loss-scale 1: L2 (f, lam, eps) = (cf, c lam, c eps)",
           np.abs(run(fg, 0.1, 1e-8, False) - run(lambda th: c * fg(th), 0.1 * c, 1e-8 * c, False)).max() < 1e-12)
check_true("prop-l2-loss-scale 2: AdamW (f, lam, eps) = (cf, lam, c eps)",
           np.abs(run(fg, 0.1, 1e-8, True) - run(lambda th: c * fg(th), 0.1, 1e-8 * c, True)).max() < 1e-12)
check_true("... but L2 (f, lam) != (cf, lam) in general",
           np.abs(run(fg, 0.1, 1e-8, False) - run(lambda th: c * fg(th), 0.1, 1e-8, False)).max() > 1e-6)
zero = lambda th: np.zeros_like(th)
check_true("prop-l2-loss-scale 3: f = 0, eps = 0: L2 trajectory same for lam = 0.01, 0.3, 5",
           max(np.abs(run(zero, 0.01, 0.0, False) - run(zero, lam, 0.0, False)).max() for lam in (0.3, 5.0)) < 1e-12)
check_true("prop-l2-loss-scale 3: AdamW with f = 0 gives prod(1 - lr lam) theta0",
           np.abs(run(zero, 0.3, 1e-8, True) - (1 - 1e-2 * 0.3) ** 60 * np.array([1.0, -2.0, 0.5])).max() < 1e-12)
check_true("SGD: L2 = decoupled (sympy)", sp.simplify(
    (lambda th, a, l, gr: (th - a * (gr + l * th)) - ((1 - a * l) * th - a * gr))(*sp.symbols("th a l gr"))) == 0)
# 前処理を固定した模型（本文の例）
d, lam, al = (Fraction(1, 10), Fraction(10)), Fraction(1, 10), Fraction(1, 100)
check("L2 shrink d = 0.1", "0.99", 1 - al * lam / d[0])
check("L2 shrink d = 10", "0.9999", 1 - al * lam / d[1])
check("decoupled shrink", "0.999", 1 - al * lam)
check("alpha*lambda", "0.001", al * lam)
check_true("text: 1 - 0.001/0.1 = 0.99 and 1 - 0.001/10 = 0.9999",
           "1 - 0.001/0.1 = 0.99" in TEXT and "1 - 0.001/10 = 0.9999" in TEXT)
th = np.array([0.7, -1.3])
dd = np.array([0.1, 10.0])
grad = np.array([0.2, -0.4])
check_true("fixed-D update coordinates: L2 = (1 - a lam/d) th - (a/d) grad; decoupled = (1 - a lam) th - (a/d) grad",
           np.allclose(th - 0.01 * (grad + 0.1 * th) / dd, (1 - 0.001 / dd) * th - 0.01 / dd * grad, atol=1e-15)
           and np.allclose((1 - 0.001) * th - 0.01 * grad / dd, (1 - 0.01 * 0.1) * th - (0.01 / dd) * grad, atol=1e-15))

# ---------------- 6 節：スケジュール ----------------
amax, amin, Tw, T = Fraction(6, 10**4), Fraction(6, 10**5), 2000, 102000
N = T - Tw


def eta(t):
    if t <= Tw:
        return amax * t / Tw
    s = min(t, T) - Tw
    return float(amin) + 0.5 * float(amax - amin) * (1 + math.cos(math.pi * s / N))


rows = {}
for m in re.finditer(r"^\| ([\d,]+) \| [^|]+ \| ([\d.]+) \| ([\d.]+) \|$", NORM, re.M):
    rows[int(m.group(1).replace(",", ""))] = m.groups()
check_true("schedule table rows t = 1, 2000, 27000, 52000, 102000", sorted(rows) == [1, 2000, 27000, 52000, 102000])
for t, r in sorted(rows.items()):
    setting(f"schedule row t = {t}", r[0])
    check(f"schedule t={t} eta x 1e4", r[1], float(eta(t)) * 1e4)
    check(f"schedule t={t} eta/amax", r[2], float(eta(t)) / float(amax))
for pr, val in (("2,000", Tw), ("102,000", T), ("100,000", N)):
    setting(f"schedule setting {pr}", pr)
sci("alpha_max", "6", -4, float(amax))
sci("alpha_min", "6", -5, float(amin))
check("alpha_min / alpha_max = 10 %", "10", 100 * amin / amax)
check_true("cosine quarter/half positions: 27,000 = Tw + N/4, 52,000 = Tw + N/2", 27000 == Tw + N // 4 and 52000 == Tw + N // 2)
check_true("sum_{s=0}^N cos(pi s/N) = 0 (N = 1..200 and 100,000)",
           all(abs(sum(math.cos(math.pi * s / n) for s in range(n + 1))) < 1e-9 for n in list(range(1, 201)) + [N]))
Sx = math.fsum(float(eta(t)) for t in range(1, T + 1))
S_formula = amax * (Tw - 1) / 2 + (N + 1) * (amax + amin) / 2
check("warmup part amax(Tw-1)/2", "0.5997", amax * (Tw - 1) / 2)
check("cosine part (N+1)(amax+amin)/2", "33.00033", (N + 1) * (amax + amin) / 2)
check("S (formula, exact)", "33.60003", S_formula)
check_true("S formula equals direct sum", abs(Sx - float(S_formula)) < 1e-9)
check_true("sum from Tw to T equals (N+1)(amax+amin)/2", abs(math.fsum(float(eta(t)) for t in range(Tw, T + 1)) - float((N + 1) * (amax + amin) / 2)) < 1e-9)
check("100,001 terms", "100,001", N + 1)
check("amax + amin = 6.6e-4", "6.6", (amax + amin) * 10**4)
check("1,999 = Tw - 1", "1,999", Tw - 1)
check("lambda S", "3.360003", Fraction(1, 10) * S_formula)
check("e^{-lambda S}", "0.034735", math.exp(-0.1 * float(S_formula)))
check_true("text: e^{-3.360003}", "e^{-3.360003}" in TEXT)
Q = math.fsum(float(eta(t)) ** 2 for t in range(1, T + 1))
check("Q", "0.014775", Q)
check("lambda^2 Q", "0.00014775", 0.01 * Q)
P = math.exp(math.fsum(math.log1p(-0.1 * float(eta(t))) for t in range(1, T + 1)))
check("product of (1 - lambda eta)", "0.034733", P)
check("lower bound", "0.034730", math.exp(-0.1 * float(S_formula) - 0.01 * Q))
check_true("lower <= product <= upper", math.exp(-0.1 * Sx - 0.01 * Q) <= P <= math.exp(-0.1 * Sx))
check("half-life at peak", "11,552.1", math.log(2) / -math.log1p(-6e-4 * 0.1))
check("first step at or below half", "11,553", math.ceil(math.log(2) / -math.log1p(-6e-4 * 0.1)))
sci("peak decay per step lambda*amax", "6", -5, 0.1 * 6e-4)
xs = np.linspace(0, 0.5, 100001)
check_true("-x - x^2 <= ln(1-x) <= -x on [0, 1/2]",
           np.all(-xs - xs**2 <= np.log1p(-xs) + 1e-15) and np.all(np.log1p(-xs) <= -xs + 1e-15))
xx = sp.symbols("x")
check_true("h'(x) = x(1-2x)/(1-x) (sympy)", sp.simplify(sp.diff(sp.log(1 - xx) + xx + xx**2, xx) - xx * (1 - 2 * xx) / (1 - xx)) == 0)
check_true("schedule: increasing on warmup, decreasing on cosine, eta(Tw) = amax, eta(T) = amin",
           all(eta(t + 1) > eta(t) for t in range(1, Tw)) and all(eta(t + 1) < eta(t) for t in range(Tw, T))
           and eta(Tw) == amax and abs(eta(T) - float(amin)) < 1e-18)

# ---------------- 7 節：メモリ ----------------
PSI = 50257 * 768 + 1024 * 768 + 12 * (12 * 768 * 768 + 13 * 768) + 2 * 768
check("GPT-2 small parameter count (transformer-block formula)", "124,439,808", PSI)
rows = {}
for m in re.finditer(r"^\| ([^|]+) \| (\d) \| (\d) \| (\d) \| (\d) \| (\d) \| (\d+) \| ([\d.]+) \| ([\d.]+) \|$", NORM, re.M):
    rows[m.group(1).strip()] = m.groups()
check_true("memory table has 4 rows", len(rows) == 4)
for name, r in rows.items():
    parts = [int(x) for x in r[1:6]]
    check(f"mem '{name}' total bytes", r[6], sum(parts))
    check(f"mem '{name}' 124M GiB", r[7], Fraction(PSI * sum(parts), 2**30))
    check(f"mem '{name}' 7B GiB", r[8], Fraction(7 * 10**9 * sum(parts), 2**30))
expect = {"SGD（fp32）": (4, 4, 0, 0, 0), "Adam（fp32）": (4, 4, 0, 4, 4),
          "Adam（混合精度）": (2, 2, 4, 4, 4), "Adam（bf16 の重み、マスターなし）": (2, 2, 0, 4, 4)}
check_true("memory table byte entries match the formats (fp32 = 4, 16-bit = 2)",
           all(tuple(int(x) for x in rows[k][1:6]) == v for k, v in expect.items() if k in rows) and set(rows) == set(expect))
check("124,439,808 x 16", "1,991,036,928", PSI * 16)
check("... in GiB", "1.854", Fraction(PSI * 16, 2**30))
check("7e9 x 16 in GiB (prose)", "104.3", Fraction(7 * 10**9 * 16, 2**30))
sci("7e9 x 16 bytes", "1.12", 11, 7e9 * 16)
check("112 GB", "112", Fraction(7 * 10**9 * 16, 10**9))
check_true("112 GB > 80 GB", 112 > 80)
check("bytes of mixed-precision Adam", "16", 2 + 2 + 4 + 4 + 4)
check("optimizer part 4 + 8", "12", 4 + 8)
check("12/16 = 75 %", "75", 100 * Fraction(12, 16))
check("12/16", "0.75", Fraction(12, 16))
check("bf16 threshold 512 x 6e-4", "0.3072", 512 * Fraction(6, 10**4))
check("2^9", "512", 2**9)
sci("fp16 zero threshold 2^-25", "2.980", -8, 2.0**-25)
# fp16 と bf16 の丸めを実際に確かめる
check_true("fp16: 1e-8 -> 0, (1e-4)^2 -> 0, 2^-25 -> 0, slightly above 2^-25 -> nonzero",
           float(np.float16(1e-8)) == 0 and float(np.float16(1e-4) * np.float16(1e-4)) == 0
           and float(np.float16(2.0**-25)) == 0 and float(np.float16(2.0**-25 * 1.001)) > 0)


def bf16(x):
    """float32 から bf16 への最近接偶数丸め。"""
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", b))[0]


ws = [bf16(float(w)) for w in np.linspace(0.3073, 4.0, 4000)]
check_true("bf16: w + 6e-4 and w - 6e-4 round back to w for |w| > 0.3072",
           all(bf16(w + 6e-4) == w and bf16(w - 6e-4) == w for w in ws if w > 0.3072))
check_true("bf16: an update of 6e-4 does move w = 0.2 (the bound is only sufficient)", bf16(bf16(0.2) + 6e-4) != bf16(0.2))
check("m_hat / eps = 1e-4/1e-8", "4", math.log10(1e-4 / 1e-8))
check_true("text: 10^{4} 倍", "10^{4}} 倍" in TEXT or "10^{4}$ 倍" in TEXT)

# ---------------- 8 節：リスト ----------------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("adamw.py on disk equals the listing", open(os.path.join(HERE, "adamw.py"), encoding="utf-8").read() == code)
run_ = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run_.stdout == printed_out)
check_true("listing writes nothing to stderr", run_.stderr == "")
if run_.stdout != printed_out:
    print(run_.stdout, run_.stderr)
out = printed_out
for pr in ("1.000000", "0.999995", "3.162277", "3.161778"):
    check_true(f"output line 1 contains {pr}", pr in out.splitlines()[0])
check("listing: B_100", "2.243364", B_t(100))
check("listing: spike at t = 100", "0.975771", (1 - B1) * math.sqrt(1 - B2**100) / ((1 - B1**100) * math.sqrt(1 - B2)))
check_true("listing line 2 contains B_100, worst, spike, 1, random max",
           all(s in out.splitlines()[1] for s in ("B_t 2.243364", "worst 2.243364", "spike 0.975771", "constant 1.000000", "random max 1.234365")))
check("random max (from the listing output)", "1.234365", float(re.search(r"random max ([\d.]+)", out).group(1)))
check_true("random max <= B_100", float(re.search(r"random max ([\d.]+)", out).group(1)) <= B_t(100))
check("100,000 random sequences", "100,000", 100000)
check("1024 = 2^10", "1024", 2**10)
for lam, pr_base, pr in ((0.125, "0.999875", "0.987577"), (0.5, "0.9995", "0.951218"), (2.0, "0.998", "0.818567")):
    check(f"1 - 0.001 lambda (lambda = {lam})", pr_base, 1 - 0.001 * lam)
    check(f"(1 - 0.001 lambda)^100 (lambda = {lam})", pr, (1 - 0.001 * lam) ** 100)
check("Adam+L2 theta_100 (same for all lambda)", "0.901744",
      float(re.search(r"Adam\+L2 ([\d.]+)", out).group(1)))
check_true("Adam+L2 identical across lambda in output", len(set(re.findall(r"Adam\+L2 ([\d.]+)", out))) == 1)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import adamw as A  # noqa: E402

vals_l2 = []
for k, lam in enumerate((0.125, 0.5, 2.0)):
    th1, s1 = 1.0, [0, 0.0, 0.0]
    for _ in range(100):
        th1 = A.adam_step(th1, 0.0, s1, 1e-3, eps=1e-8 * 4**k, wd=lam, decoupled=False)
    vals_l2.append(th1)
check_true("Adam+L2 theta_100 bitwise equal across lambda = 0.125, 0.5, 2 (eps scaled by 4^k)", len(set(vals_l2)) == 1)
check_true("lambda ratio 4 between runs", 0.5 / 0.125 == 4 and 2.0 / 0.5 == 4)
check_true("listing schedule equals definition (all t)",
           np.allclose(A.schedule(np.arange(1, T + 1), 6e-4, 6e-5, Tw, T), [float(eta(t)) for t in range(1, T + 1)], rtol=0, atol=1e-18))

# ---------------- 演習 ----------------
m2 = b1 * Fraction(1, 10) + (1 - b1) * 3
v2 = b2 * Fraction(1, 1000) + (1 - b2) * 9
check("m_2", "0.39", m2)
check("v_2", "0.009999", v2)
check("1 - b1^2", "0.19", 1 - b1**2)
check("1 - b2^2", "0.001999", 1 - b2**2)
check("m_hat_2", "2.0526", m2 / (1 - b1**2))
check("v_hat_2", "5.0020", v2 / (1 - b2**2))
check("sqrt(v_hat_2)", "2.2365", math.sqrt(v2 / (1 - b2**2)))
check("ratio at t = 2", "0.9178", float(m2 / (1 - b1**2)) / math.sqrt(v2 / (1 - b2**2)))
check_true("ratio agrees with definition-run", abs(adam_ratio([1.0, 3.0]) - 0.9177811189802988) < 1e-12)
check("B_2", "1.0014", B_t(2))
check("B_2 via printed formula", "1.0014", 0.1 * math.sqrt(0.001999) / (0.19 * math.sqrt(0.001)) * math.sqrt(1 + 0.81 / 0.999))
check("0.9/0.999", "0.9009", 0.9 / 0.999)
check("(0.95-0.9)^2", "0.0025", (Fraction(95, 100) - b1) ** 2)
check("0.05 x 0.14", "0.007", Fraction(5, 100) * Fraction(14, 100))
check("0.0025/0.007", "0.357143", Fraction(25, 10000) / Fraction(7, 1000))
check("1.357143", "1.357143", 1 + Fraction(25, 10000) / Fraction(7, 1000))
check("B_inf at 0.95", "1.1650", B_inf(0.9, 0.95))
check("gamma at 0.95", "0.852632", 0.81 / 0.95)
check("1 - gamma at 0.95", "0.147368", 1 - 0.81 / 0.95)
check("0.95 - 0.81 (appears as the factor 0.14 in 0.05 x 0.14)", "0.14", Fraction(95, 100) - b1 * b1, must_appear=False)
check("1 - 0.95", "0.05", 1 - Fraction(95, 100))
check("beta1^2", "0.81", b1 * b1)
check("1 + beta2", "1.999", 1 + b2)
check("1 + 0.9 (n_eff limit numerator at beta2 = 0.9)", "1.9", 1 + b1)
check("n_eff limit at beta2 = 0.9: 1.9/0.1", "19", Fraction(19, 10) / Fraction(1, 10))
check_true("B_inf(0.9, 0.9) = 1", abs(B_inf(0.9, 0.9) - 1) < 1e-12)

# ---------------- 本文の言葉の主張（その他） ----------------
check_true("B_t increasing in t for t = 1..10^4 (default betas; not claimed in the text, sanity check)",
           all(B_t(t) < B_t(t + 1) for t in range(1, 10000)))
check_true("'3 倍以上': sqrt(10) > 3", math.sqrt(10) > 3)
check_true("counts announced: 次の 3 つの問い (3 items) and 次の 3 つが成り立つ (3 items)",
           "次の 3 つの問いに答えます。\n\n1. " in TEXT and "\n3. 学習率を" in TEXT and "さらに次の 3 つが成り立つ。\n\n1. $B_1 = 1$" in TEXT
           and "\n3. $\\gamma \\ge 1$" in TEXT)

# ---------------- 照合漏れの検出 ----------------
body = TEXT.split("## 参考文献")[0]
body = re.sub(r"```.*?```", " ", body, flags=re.S)
body = re.sub(r"\]\([^)]*\)", "]", body)          # リンク先
body = re.sub(r'(to|id|of)="[^"]*"', " ", body)   # 要素の id
body = re.sub(r"^>.*$", " ", body, flags=re.M)    # 要旨
body = re.sub(r"^#+ .*$", " ", body, flags=re.M)  # 見出し
body = body.replace("{,}", ",")
tokens = set(re.findall(r"(?<![\w.^{-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{4,})(?![\d])", body))
missing = sorted(x for x in tokens if x not in covered)
check_true(f"every decimal / grouped / 4+-digit number in the prose is checked ({len(tokens)} distinct)", not missing)
if missing:
    print("   unchecked:", missing)

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed")
sys.exit(0 if n_ok == len(results) else 1)

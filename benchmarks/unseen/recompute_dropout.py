#!/usr/bin/env python3
"""dropout.mdx に印刷された数値を、章の定義と命題の式から計算し直して照合する。

各数値は (印刷された文字列, 計算した値, 文脈) の組で照合する。文脈は印刷された
文字列を含む章の本文の一部で、本文に現れなければならない。数値は印刷された桁数に
丸めて比較する。表は行ごとに文字列を組み立てて本文と照合する。最後に章の Python の
コードを実行し、出力が章に貼られた出力と完全に一致するかを調べる。
1 つでも違えば終了コード 1 で終わる。
"""
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from mpmath import mp, mpf, log as mlog, exp as mexp

mp.dps = 40
HERE = Path(__file__).resolve().parent
TEXT = (HERE / "dropout.mdx").read_text(encoding="utf-8")

n_checked = 0
n_failed = 0


def _fmt_like(printed, value):
    """value を printed と同じ書式（小数点以下の桁数、千の区切り）で書く。"""
    plain = printed.replace("{,}", "").replace(",", "")
    if "." in plain:
        digits = len(plain.split(".")[1])
        out = f"{float(value):.{digits}f}"
        if out == "-0." + "0" * digits:
            out = "0." + "0" * digits
    else:
        if abs(float(value) - round(float(value))) > 1e-9:
            out = f"{float(value):.0f}"
        else:
            out = str(int(round(float(value))))
    return out, plain


def check(printed, value, ctx=None):
    """印刷された数値 printed が value を印刷桁数に丸めたものと一致するか。"""
    global n_checked, n_failed
    n_checked += 1
    ctx = printed if ctx is None else ctx
    ok_ctx = ctx in TEXT and printed in ctx
    out, plain = _fmt_like(printed, value)
    ok = ok_ctx and out == plain
    status = "ok  " if ok else "FAIL"
    if not ok:
        n_failed += 1
    note = "" if ok_ctx else "  (context not found in chapter)"
    print(f"{status} {printed:>22}  computed {out:>16}  [{ctx[:60]}]{note}")


def sep(n):
    return f"{int(n):,}"


def check_row(cells, n_values):
    """表の 1 行。cells は (印刷された文字列, 値) または文字列（入力の列）。"""
    global n_checked, n_failed
    texts = []
    for c in cells:
        if isinstance(c, str):
            texts.append(c)
        else:
            printed_fmt, value = c
            texts.append(printed_fmt(value))
    row = "| " + " | ".join(texts) + " |"
    ok = row in TEXT
    n_checked += n_values
    if not ok:
        n_failed += n_values
    print(f"{'ok  ' if ok else 'FAIL'} table row ({n_values} numbers): {row}")


f4 = lambda v: f"{v:.4f}"
f1 = lambda v: f"{v:.1f}"
f2 = lambda v: f"{v:.2f}"

# ---------------------------------------------------------------- 定義 2.1、命題 3.1
def scale(p):
    return 1 / (1 - p)


def var_factor(p):
    return p / (1 - p)


print("== 0〜2 節 ==")
L, d, h, V, Lctx = 12, 768, 12, 50257, 1024
coef2 = L * h                       # n^2 の係数
coef1 = L * 2 * d + d               # n の係数
check("144", coef2, "144n^2 + 19{,}200n")
check("19{,}200", coef1, "144n^2 + 19{,}200n")
check("1.1111", scale(0.1), "1/0.9 \\approx 1.1111")

print("== 例：d = 4, p = 0.2 ==")
x = np.array([2.0, -1.0, 0.5, 3.0])
p = 0.2
check("1.25", scale(p), "1/0.8 = 1.25")
check("16", 2 ** 4, "2^4 = 16")
mask = np.array([1, 0, 1, 1])
Dx = mask * x * scale(p)
for printed, v in zip(("2.5", "0", "0.625", "3.75"), Dx):
    check(printed, v, "D_p(\\boldsymbol{x}) = (2.5,\\ 0,\\ 0.625,\\ 3.75)")
prob_mask = np.prod(np.where(mask == 1, 1 - p, p))
check("0.1024", prob_mask, "0.8^3 \\times 0.2 = 0.1024")
check("0.4096", (1 - p) ** 4, "0.8^4 = 0.4096")
check("2", (1 - p) * x[0] * scale(p), "0.8 \\times 2.5 = 2")
check("0.25", var_factor(p), "$p/(1 - p) = 0.25$")
for printed, v in zip(("4", "1", "0.25", "9"), x ** 2):
    check(printed, v, "0.25 \\times (4,\\ 1,\\ 0.25,\\ 9)")
for printed, v in zip(("1", "0.25", "0.0625", "2.25"), var_factor(p) * x ** 2):
    check(printed, v, "= (1,\\ 0.25,\\ 0.0625,\\ 2.25)")
check("0.5", math.sqrt(var_factor(p)), "\\sqrt{0.25} = 0.5")
check("14.25", (x ** 2).sum(), "4 + 1 + 0.25 + 9 = 14.25")
check("17.8125", (x ** 2).sum() * scale(p), "14.25/0.8 = 17.8125")
check("3.5625", var_factor(p) * (x ** 2).sum(), "0.25 \\times 14.25 = 3.5625")
check("1.8875", math.sqrt(var_factor(p) * (x ** 2).sum()), "標準偏差は約 1.8875")

print("== 命題 3.3：ReLU の例 ==")
xs, w = np.array([1.0, -1.0]), np.array([1.0, 1.0])
zs_vals, e_relu = [], 0.0
for m1 in (1, 0):
    for m2 in (1, 0):
        m = np.array([m1, m2])
        zval = w @ (m * xs * scale(0.5))
        zs_vals.append(zval)
        e_relu += 0.25 * max(zval, 0.0)
for printed, v in zip(("0", "2", "-2", "0"), zs_vals):
    check(printed, v, "$0, 2, -2, 0$")
check("0.5", e_relu, "E[\\mathrm{ReLU}(Z)] = 2/4 = 0.5")
check("0", max(w @ xs, 0.0), "$\\mathrm{ReLU}(1 - 1) = 0$")

print("== 例：ドロップ率の表 ==")
for pp, ptxt in ((0.05, "0.05"), (0.1, "0.1"), (0.2, "0.2"), (0.3, "0.3"), (0.5, "0.5")):
    check_row([ptxt, (f4, scale(pp)), (f4, var_factor(pp)), (f4, math.sqrt(var_factor(pp))),
               (f1, d * (1 - pp)), (f2, math.sqrt(d * pp * (1 - pp)))], 5)
check("33", 100 * math.sqrt(var_factor(0.1)), "値の約 33 % の標準偏差")
check("1", var_factor(0.5), "$p = 0.5$ で 1")
sds = {pp: math.sqrt(d * pp * (1 - pp)) for pp in np.linspace(0.01, 0.99, 99)}
check("0.5", max(sds, key=sds.get), "残る個数の標準偏差は $p = 0.5$ で最大")

print("== 命題 4.2 とその後の数値 ==")
check("1.1111", scale(0.1), "確率 0.9 で $1.1111$")
check("0.1111", var_factor(0.1) * 1.0, "分散は上限の $0.1111$")
v_uniform = var_factor(0.1) / 1024
check("1.085", v_uniform * 1e4, "1.085 \\times 10^{-4}")
check("0.0104", math.sqrt(v_uniform), "標準偏差は約 0.0104")
a = np.exp(np.array([1.0, 0.0, 1.0]) / math.sqrt(2))
a /= a.sum()
for printed, v in zip(("0.4011", "0.1978", "0.4011"), a):
    check(printed, v, "$(0.4011,\\ 0.1978,\\ 0.4011)$")
check("0.3609", (a ** 2).sum(), "\\sum_j a_j^2 \\approx 0.3609")
check("0.0401", var_factor(0.1) * (a ** 2).sum(), "分散は約 0.0401")
check("0.2002", math.sqrt(var_factor(0.1) * (a ** 2).sum()), "標準偏差は約 0.2002")

print("== 命題 4.4 と乱数の個数の表 ==")
check("144", L * h, "$12 \\times 12 = 144$")
check("18{,}432", L * 2 * d, "12 \\times 2 \\times 768 + 768 = 18{,}432")
check("19{,}200", L * 2 * d + d, "18{,}432 + 768 = 19{,}200")
check("128", 2 * d / h, "2 \\times 768/12 = 128")
check("128", 2 * d / h, "$n > 128$ で注意の重みの分")
params = V * d + Lctx * d + L * (12 * d * d + 13 * d) + 2 * d   # Transformer ブロックの章の定理
check("124,439,808", params, "パラメータ数 124,439,808")


def count(n):
    att, res = h * n * n, 2 * n * d
    per = att + res
    total = L * per + n * d
    return att, res, per, total


for n in (128, 256, 512, 1024):
    att, res, per, total = count(n)
    check_row([str(n), (sep, att), (sep, res), (sep, per), (sep, total),
               (f4, total / params), (f4, L * att / total)], 6)
att, res, per, total = count(1024)
check("1{,}048{,}576", 1024 ** 2, "144 \\times 1{,}048{,}576")
check("150{,}994{,}944", coef2 * 1024 ** 2, "= 150{,}994{,}944 + 19{,}660{,}800")
check("19{,}660{,}800", coef1 * 1024, "= 150{,}994{,}944 + 19{,}660{,}800")
check("170{,}655{,}744", total, "19{,}660{,}800 = 170{,}655{,}744")
check("1.371", total / params, "パラメータ数の約 1.371 倍")
check("88.5", 100 * L * att / total, "約 88.5 % が注意の重み")
check("49.95", 100 * (1024 - 1) / (2 * 1024), "約 49.95 %")
tri = 1024 * 1025 // 2
check("49.95", 100 * (1024 ** 2 - tri) / 1024 ** 2, "約 49.95 %")

print("== 5 節：ラベル平滑化の例 ==")
z = np.array([2.0, 1.0, 0.5, -1.0])
eps = 0.1
sumexp = float(np.exp(z).sum())
lse = math.log(sumexp)
zbar = float(z.mean())
l_onehot = lse - z[0]
l_unif = lse - zbar
l_smooth = (1 - eps) * l_onehot + eps * l_unif
check("12.1239", sumexp, "\\log 12.1239")
check("2.4952", lse, "\\log 12.1239 \\approx 2.4952")
check("2.5", z.sum(), "\\bar z = 2.5/4 = 0.625")
check("0.625", zbar, "\\bar z = 2.5/4 = 0.625")
check("0.4952", l_onehot, "\\ell(\\boldsymbol{z}, 1) \\approx 0.4952")
check("1.8702", l_unif, "\\ell(\\boldsymbol{z}, \\boldsymbol{u}) \\approx 1.8702")
check("1.3863", math.log(4), "\\log 4 \\approx 1.3863")
check("0.6327", l_smooth, "0.1 \\times 1.8702 \\approx 0.6327")
check("0.1375", eps * (z[0] - zbar), "0.1 \\times (2 - 0.625) = 0.1375")
# 分解の等式（命題 5.2 の 3）を定義どおりの計算と照合
logp = z - lse
q = np.full(4, eps / 4)
q[0] += 1 - eps
assert abs(-(q @ logp) - l_onehot - eps * (z[0] - zbar)) < 1e-12

print("== 例：語彙 50,257 の表 ==")


def ls_quantities(Vn, e):
    e, Vn = mpf(e), mpf(Vn)
    qy, qo = 1 - e + e / Vn, e / Vn
    Delta = mlog(1 + Vn * (1 - e) / e)
    H = -qy * mlog(qy) - (Vn - 1) * qo * mlog(qo)
    oh = -mlog(qy)
    gap = e * (1 - 1 / Vn) * Delta
    assert abs(H - oh - gap) < mpf(10) ** -30          # 命題 5.3 の 3
    return float(Delta), float(H), float(oh), float(gap), float(mexp(oh))


for e_txt in ("0.01", "0.05", "0.1", "0.2"):
    Dl, H, oh, gap, ppl = ls_quantities(V, float(e_txt))
    check_row([e_txt, (f4, Dl), (f4, H), (f4, oh), (f4, gap), (f4, ppl)], 5)
Dl, H, oh, gap, ppl = ls_quantities(V, 0.1)
check("1.3021", round(H, 4) - round(oh, 4), "$1.4075 - 0.1054 = 1.3021$")
check("1.3022", gap, "13.0221 \\approx 1.3022")
check("13.0221", Dl, "0.1 \\times (1 - 1/50257) \\times 13.0221")
check("50,256", V - 1, "正解以外の 50,256 個")
check("1.1111", ppl, "パープレキシティの下限 $1.1111$")
check("11.1", 100 * (ppl - 1), "約 11.1 % 大きい")

print("== 6 節：重み減衰の例と表 ==")
theta0, g, eta, lam = 1.0, 0.02, 0.01, 0.1
r = 1 - eta * lam
theta_star = -g / lam
check("0.001", eta * lam, "$\\eta\\lambda = 0.001$")
check("0.999", r, "縮小率は $0.999$")
check("-0.2", theta_star, "-0.02/0.1 = -0.2")
check("1.2", theta0 - theta_star, "\\theta_t = -0.2 + 1.2 \\times 0.999^t")
check("0.0002", eta * g, "\\theta_t = 1 - 0.0002t")


def theta_closed(t):
    return theta_star + r ** t * (theta0 - theta_star)


def theta_iter(t):
    th = theta0
    for _ in range(t):
        th = r * th - eta * g
    return th


for t in (0, 1, 10, 100, 1000, 5000):
    assert abs(theta_closed(t) - theta_iter(t)) < 1e-12   # 命題 6.2 の 2
    check_row([str(t), (f4, r ** t), (f4, theta_closed(t)), (f4, theta0 - eta * g * t),
               (f4, abs(theta_closed(t) - theta_star))], 4)
half = math.log(2) / -math.log(r)
check("692.80", half, "\\lceil 692.80\\rceil = 693")
check("693", math.ceil(half), "\\lceil 692.80\\rceil = 693")
assert r ** 693 <= 0.5 < r ** 692
check("693.15", math.log(2) / (eta * lam), "\\log 2/0.001 \\approx 693.15")
el = 6e-4 * 0.1
check("6", el * 1e5, "\\eta\\lambda = 6 \\times 10^{-5}")
check("0.99994", 1 - el, "縮小率は $0.99994$ で")
check("0.5488", (1 - el) ** 10000, "0.99994^{10000} \\approx 0.5488")

print("== 6 節：Adam の 1 ステップ目 ==")


def adam_first(theta, g1, lam, eta, mode):
    gt = g1 + lam * theta if mode == "l2" else g1
    b1, b2 = 0.9, 0.999
    m, v = (1 - b1) * gt, (1 - b2) * gt * gt
    step = (m / (1 - b1)) / math.sqrt(v / (1 - b2))
    new = theta - eta * step
    if mode == "decoupled":
        new -= eta * lam * theta
    return new


check("0.999", adam_first(1.0, 0.5, 0.1, 1e-3, "l2"), "L2 正則化も正則化なしも $\\theta_1 = 0.999$")
check("0.999", adam_first(1.0, 0.5, 0.0, 1e-3, "none"), "L2 正則化も正則化なしも $\\theta_1 = 0.999$")
check("0.9989", adam_first(1.0, 0.5, 0.1, 1e-3, "decoupled"), "1 - 0.001 - 0.0001 = 0.9989")
check("1.001", adam_first(1.0, -0.05, 0.0, 1e-3, "none"), "正則化なしは $1.001$")
check("1.0009", adam_first(1.0, -0.05, 0.1, 1e-3, "decoupled"), "1 + 0.001 - 0.0001 = 1.0009")
check("0.05", -0.05 + 0.1 * 1.0, "g_1 + \\lambda\\theta_0 = 0.05")
check("0.999", adam_first(1.0, -0.05, 0.1, 1e-3, "l2"), "の符号に従って $0.999$ へ動き")

print("== 7 節：出力の読み方 ==")
check("0.0401", var_factor(0.1) * (a ** 2).sum(), "\\sum_j a_j^2 \\approx 0.0401")
check("1.1111", scale(0.1), "1/0.9 \\approx 1.1111$ です")
check("0.5", e_relu, "期待値が約 0.5 になり")
check("37", 1 + 4 * 0.9 / 0.1, "\\log 37 \\approx 3.6109")
check("3.6109", math.log(1 + 4 * 0.9 / 0.1), "\\log 37 \\approx 3.6109")
check("0.2412", theta_closed(1000), "閉じた形の値 0.2412")

print("== 演習 ==")
for i, txt in ((1, "0.1111"), (10, "0.0111"), (100, "0.0011")):
    check(txt, var_factor(0.1) / i, f"$i = {i}$ で ${txt}$")
check("9", (1 - 0.1) / 0.1, "$\\frac{1}{9i}$")
Dl10, H10, oh10, gap10, _ = ls_quantities(10, 0.1)
check("91", 1 + 10 * 0.9 / 0.1, "\\log 91 \\approx 4.5109")
check("4.5109", Dl10, "\\log 91 \\approx 4.5109")
check("0.4060", gap10, "0.1 \\times 0.9 \\times 4.5109 \\approx 0.4060")
check("0.91", 1 - 0.1 + 0.1 / 10, "q^{\\varepsilon}_y = 0.91")
check("0.01", 0.1 / 10, "ほかの成分は $0.01$ で")
check("0.5003", H10, "\\approx 0.5003")
check("0.0943", oh10, "-\\log 0.91 \\approx 0.0943")
check("0.4060", round(H10, 4) - round(oh10, 4), "0.5003 - 0.0943 = 0.4060")
check("0.09", 0.1 * (1 - 1 / 10), "$0.09 \\le \\ell")
check("0.0989", 0.09 / 0.91, "0.09/0.91 \\approx 0.0989")
assert 0.09 <= oh10 <= 0.09 / 0.91
check("0.99994", 1 - el, "1 - 6 \\times 10^{-5} = 0.99994")
check("-1.2000", 20000 * math.log(1 - el), "e^{-1.2000}")
check("0.3012", (1 - el) ** 20000, "\\approx 0.3012")
half2 = math.log(2) / -math.log(1 - el)
check("11552.11", half2, "\\approx 11552.11")
check("11,553", math.ceil(half2), "11,553 ステップ目")
check("11552.45", math.log(2) / el, "\\approx 11552.45")

# ---------------------------------------------------------------- コードと出力
print("== 7 節のコードの出力 ==")
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, flags=re.S)
if len(blocks) != 1:
    print("FAIL listing: expected exactly one python block followed by its output")
    n_failed += 1
for code, printed in blocks:
    run = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True, cwd=HERE)
    same = run.returncode == 0 and run.stdout == printed
    n_nums = len(re.findall(r"-?\d+(?:\.\d+)?", printed))
    n_checked += n_nums
    if not same:
        n_failed += n_nums
        print("FAIL listing output differs")
        print(run.stdout)
        print(run.stderr)
    else:
        print(f"ok   listing output identical ({len(printed.splitlines())} lines, {n_nums} numbers)")
    # 出力の理論値が本文の値と一致すること
    for key, val in (("theory", var_factor(0.1) * (a ** 2).sum()), ("max", scale(0.1))):
        mm = re.search(key + r" (\d+\.\d+)", printed)
        n_checked += 1
        ok = mm is not None and f"{val:.4f}" == mm.group(1)
        n_failed += 0 if ok else 1
        print(f"{'ok  ' if ok else 'FAIL'} output '{key}' = {mm.group(1) if mm else None} vs {val:.4f}")

print()
print(f"{n_checked} printed numbers checked, {n_failed} failed")
sys.exit(1 if n_failed else 0)

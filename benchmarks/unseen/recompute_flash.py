"""flash.mdx の数値をすべて定義から計算し直し、印字された値と照合する。

各項目は (文脈の文字列, 印字された数, 計算した値, 書式)。文脈が章の本文にそのまま
現れること、印字された数が文脈に含まれること、計算した値を同じ書式で印字すると
印字された数に一致することを確かめる。表は行ごとに計算し直して照合し、コードの
リストは実行して出力を印字された出力と 1 文字ずつ比べる。1 つでも違えば終了コード 1。
"""
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "flash.mdx"), encoding="utf-8").read()
results = []


def fmt(value, spec):
    if spec == "tex":                       # 16{,}777{,}216
        assert float(value) == int(value), value
        return f"{int(value):,}".replace(",", "{,}")
    if spec == ",":                         # 1,048,576
        assert float(value) == int(value), value
        return f"{int(value):,}"
    if spec == "d":
        assert float(value) == int(value), value
        return str(int(value))
    return format(float(value), spec)


def check(context, printed, value, spec):
    ok = context in TEXT and printed in context and fmt(value, spec) == printed.replace("−", "-")
    results.append((ok, printed, fmt(value, spec), context[:60]))


def close(context, printed, value, tol):
    """丸めた値から計算した数が、印字された数と tol 以内で一致すること。"""
    ok = context in TEXT and printed in TEXT and abs(float(printed) - value) <= tol
    results.append((ok, printed, f"{value:.6f}", context[:60]))


e = np.exp
log = np.log

# ---------------------------------------------------------------- 1 節
n = 4096
check("$4096^2 = 16{,}777{,}216$", "16{,}777{,}216", n * n, "tex")
check("$2 \\times 16{,}777{,}216 = 33{,}554{,}432$", "33{,}554{,}432", 2 * n * n, "tex")
check("バイト、つまり 32 MiB です", "32", 2 * n * n / 2**20, "d")
check("$32 \\times 16 \\times 8 = 4{,}096$ MiB、4 GiB", "4{,}096", 32 * 16 * 8, "tex")
check("$32 \\times 16 \\times 8 = 4{,}096$ MiB、4 GiB", "4", 32 * 16 * 8 / 1024, "d")
check("$S$ は 16 倍、$L$ は 4 倍", "16", (4 * n) ** 2 / n**2, "d")
check("$S$ は 16 倍、$L$ は 4 倍", "4", (4 * n) / n, "d")
check("$192 \\times 108 = 20{,}736$ KB", "20{,}736", 192 * 108, "tex")
check("約 20.7 MB", "20.7", 192 * 108 / 1000, ".1f")
# 「1 桁速い」: 19 TB/s と 1.5〜2.0 TB/s の比の常用対数を丸めると 1
check("SRAM は 1 桁速い", "1", round(math.log10(19 / 1.75)), "d")
check("工夫は次の 3 つです", "3", len(re.findall(r"^\d\. \*\*(タイル分割|再スケーリング|再計算)\*\*", TEXT, re.M)), "d")

# 1 節の表：n, n^2, fp16 MiB, fp32 MiB, L (fp32) KiB
def table_rows(header_start):
    i = TEXT.index(header_start)
    lines = TEXT[i:].split("\n")
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


for row in table_rows("| $n$ | $S$ の成分数 $n^2$"):
    nn = int(row[0])
    expect = [fmt(nn, "d"), fmt(nn * nn, ","), fmt(2 * nn * nn / 2**20, ","),
              fmt(4 * nn * nn / 2**20, ","), fmt(4 * nn / 2**10, ",")]
    for got, exp_ in zip(row, expect):
        results.append((got == exp_, got, exp_, f"table 1, n = {nn}"))

# ---------------------------------------------------------------- 3 節
z = np.array([1.0, 3.0, 2.0, 5.0])


def online(zs):
    m, l, out = -np.inf, 0.0, []
    for zt in zs:
        m_new = max(m, zt)
        alpha = e(m - m_new)
        l = l * alpha + e(zt - m_new)
        m = m_new
        out.append((zt, m, alpha, l))
    return out


for row, (zt, m, alpha, l) in zip(table_rows("| $t$ | $z_t$ | $m_t$ |"), online(z)):
    exp_alpha = fmt(alpha, "d") if alpha in (0.0, 1.0) else fmt(alpha, ".4f")
    expect = [row[0], fmt(zt, "d"), fmt(m, "d"), exp_alpha, fmt(l, ".4f")]
    for got, exp_ in zip(row, expect):
        results.append((got == exp_, got, exp_, f"table online, t = {row[0]}"))

sig = e(z - z.max()) / e(z - z.max()).sum()
l4 = e(z - 5).sum()
check("$e^{-2} \\approx 0.1353$ 倍して", "0.1353", e(-2), ".4f")
check("$1.5032 \\times e^{-2} + 1 \\approx 1.2034$", "1.5032", e(-2) + 1 + e(-1), ".4f")
check("$1.5032 \\times e^{-2} + 1 \\approx 1.2034$", "1.2034", 1.5032 * e(-2) + 1, ".4f")
for k, v in enumerate(["0.0152", "0.1125", "0.0414", "0.8310"]):
    check("/1.2034 = (0.0152,\\ 0.1125,\\ 0.0414,\\ 0.8310)", v, sig[k], ".4f")
check("/1.2034 = (0.0152", "1.2034", l4, ".4f")
check("$\\log\\sum_j e^{z_j} = 5 + \\log 1.2034 \\approx 5.1852$", "5.1852", 5 + log(l4), ".4f")
check("$\\log\\sum_j e^{z_j} = 5 + \\log 1.2034 \\approx 5.1852$", "5", z.max(), "d")

# ---------------------------------------------------------------- 4 節
s = z.copy()
V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]])


def state(idx):
    idx = list(idx)
    m = s[idx].max()
    w = e(s[idx] - m)
    return m, w.sum(), w @ V[idx]


def merge(a, b):
    m = max(a[0], b[0])
    return m, e(a[0] - m) * a[1] + e(b[0] - m) * b[1], e(a[0] - m) * a[2] + e(b[0] - m) * b[2]


st1, st2 = state([0, 1]), state([2, 3])
stm = merge(st1, st2)
full = state([0, 1, 2, 3])
assert np.allclose(stm[1], full[1]) and np.allclose(stm[2], full[2])      # 命題 4.2 の 1
assert np.allclose(merge(st2, st1)[2], stm[2])                            # 可換
out = stm[2] / stm[1]
direct = sig @ V
assert np.allclose(out, direct)
ctx1 = "$B_1 = \\{1, 2\\}$：$m_{B_1} = 3$、$\\ell_{B_1} = e^{-2} + 1 \\approx 1.1353$、$\\boldsymbol{o}_{B_1} = e^{-2}(1, 0) + (0, 1) = (0.1353,\\ 1)$。このブロックだけの注意の出力は $\\boldsymbol{o}_{B_1}/\\ell_{B_1} = (0.1192,\\ 0.8808)$ です。"
check(ctx1, "3", st1[0], "d")
check(ctx1, "1.1353", st1[1], ".4f")
check(ctx1, "0.1353", st1[2][0], ".4f")
check(ctx1, "0.1192", (st1[2] / st1[1])[0], ".4f")
check(ctx1, "0.8808", (st1[2] / st1[1])[1], ".4f")
ctx2 = "$B_2 = \\{3, 4\\}$：$m_{B_2} = 5$、$\\ell_{B_2} = e^{-3} + 1 \\approx 1.0498$、$\\boldsymbol{o}_{B_2} = e^{-3}(1, 1) + (2, -1) = (2.0498,\\ -0.9502)$。"
check(ctx2, "5", st2[0], "d")
check(ctx2, "1.0498", st2[1], ".4f")
check(ctx2, "2.0498", st2[2][0], ".4f")
check(ctx2, "-0.9502", st2[2][1], ".4f")
ctx3 = "$\\ell = 0.1353 \\times 1.1353 + 1.0498 \\approx 1.2034$"
check(ctx3, "1.2034", stm[1], ".4f")
check("$e^{3 - 5} = e^{-2} \\approx 0.1353$ を掛けます", "0.1353", e(st1[0] - stm[0]), ".4f")
ctx4 = "$\\boldsymbol{o} = 0.1353 \\times (0.1353, 1) + (2.0498, -0.9502) = (2.0681,\\ -0.8149)$、出力は $\\boldsymbol{o}/\\ell = (1.7185,\\ -0.6771)$ です。"
check(ctx4, "2.0681", stm[2][0], ".4f")
check(ctx4, "-0.8149", stm[2][1], ".4f")
check(ctx4, "1.7185", out[0], ".4f")
check(ctx4, "-0.6771", out[1], ".4f")
# 丸めた重みで直接平均した値は、丸めの範囲で同じ
ctx5 = "$(0.0152 + 0.0414 + 2 \\times 0.8310,\\ 0.1125 + 0.0414 - 0.8310)$ で、丸めの範囲で同じ値になります"
close(ctx5, "1.7185", 0.0152 + 0.0414 + 2 * 0.8310, 2e-4)
close(ctx5, "-0.6771", 0.1125 + 0.0414 - 0.8310, 2e-4)
close("ブロック $B_1$ の出力 $(0.1192, 0.8808)$", "0.1192", (st1[2] / st1[1])[0], 5e-5)

# ---------------------------------------------------------------- 5 節
# 命題 5.3 の回数を、小さな場合の数え上げと比べる
def count_tiled(n, d, Br, Bc):
    mult = expo = 0
    for r in range(0, n, Br):
        rb = min(Br, n - r)
        for c in range(0, n, Bc):
            cb = min(Bc, n - c)
            mult += 2 * rb * cb * d + rb + rb * d
            expo += rb * cb + rb
    return mult, expo


for (nn, dd, br, bc) in ((8, 4, 2, 2), (10, 3, 4, 3), (7, 5, 3, 2)):
    Tc = -(-nn // bc)
    assert count_tiled(nn, dd, br, bc) == (2 * nn * nn * dd + nn * Tc * (dd + 1), nn * nn + nn * Tc)
check("$(d+1)/(2dB_c) = 65/8{,}192 \\approx 0.79$ %", "65", 64 + 1, "d")
check("$(d+1)/(2dB_c) = 65/8{,}192 \\approx 0.79$ %", "8{,}192", 2 * 64 * 64, "tex")
check("$(d+1)/(2dB_c) = 65/8{,}192 \\approx 0.79$ %", "0.79", 100 * 65 / 8192, ".2f")
check("$B_c = 1$ にすると $65/128 \\approx 51$ %", "51", 100 * 65 / 128, ".0f")
check("$B_c = 1$ にすると $65/128 \\approx 51$ %", "128", 2 * 64 * 1, "d")

# 命題 5.4（因果マスク）
T = 8 // 2
check("$T = 4$ で、16 個のうち 10 個です", "4", T, "d")
check("$T = 4$ で、16 個のうち 10 個です", "16", T * T, "d")
check("$T = 4$ で、16 個のうち 10 個です", "10", sum(1 for i in range(1, T + 1) for j in range(1, i + 1)), "d")
for B in (1, 2, 3, 5):
    for i in range(1, 6):
        for j in range(1, 6):
            rows = range((i - 1) * B + 1, i * B + 1)
            cols = range((j - 1) * B + 1, j * B + 1)
            assert all(c > r for r in rows for c in cols) == (j > i)
nn, B, dd = 16384, 128, 64
T = nn // B
ctx = "タイルは $128 \\times 129/2 = 8{,}256$ 個（$128^2 = 16{,}384$ 個の約 50.39 %）、読み書き量は $2{,}097{,}152 + 1{,}048{,}576 \\times 129 + 16{,}384 = 137{,}379{,}840$ で、マスクなしの $2nd(T + 1) + n = 270{,}548{,}992$ の約 0.5078 倍です。"
causal_io = 2 * nn * dd + nn * dd * (T + 1) + nn
plain_io = 2 * nn * dd * (T + 1) + nn
check("では $T = 128$ で、タイルは", "128", T, "d")
check(ctx, "8{,}256", T * (T + 1) // 2, "tex")
check(ctx, "16{,}384", T * T, "tex")
check(ctx, "50.39", 100 * T * (T + 1) / 2 / T**2, ".2f")
check(ctx, "2{,}097{,}152", 2 * nn * dd, "tex")
check(ctx, "1{,}048{,}576", nn * dd, "tex")
check(ctx, "137{,}379{,}840", causal_io, "tex")
check(ctx, "270{,}548{,}992", plain_io, "tex")
check(ctx, "0.5078", causal_io / plain_io, ".4f")
# 同じ式を 2Bd * sum i で数えても同じ
assert 2 * B * dd * sum(range(1, T + 1)) == nn * dd * (T + 1)
check("$n = 65536$ なら fp32 で 256 KiB", "256", 65536 * 4 / 1024, "d")

# ---------------------------------------------------------------- 6 節
M, d = 65536, 64
check("$M = 65{,}536$（fp16 で 128 KiB）", "128", M * 2 / 1024, "d")
Br = M // (4 * d)
check("$B_r = \\lfloor 65{,}536/256 \\rfloor = 256$", "256", 4 * d, "d")
check("$B_r = \\lfloor 65{,}536/256 \\rfloor = 256$ は", "256", Br, "d")


def U(br, bc, d):
    return 2 * br * d + 4 * br + 2 * bc * d + br * bc


ctx = "$U(256, 64) = 32{,}768 + 1{,}024 + 8{,}192 + 16{,}384 = 58{,}368 \\le 65{,}536$"
check(ctx, "32{,}768", 2 * 256 * d, "tex")
check(ctx, "1{,}024", 4 * 256, "tex")
check(ctx, "8{,}192", 2 * 64 * d, "tex")
check(ctx, "16{,}384", 256 * 64, "tex")
check(ctx, "58{,}368", U(256, 64, d), "tex")
results.append((U(256, 64, d) <= M, "58,368 <= 65,536", str(U(256, 64, d) <= M), "SRAM"))

for row in table_rows("| $n$ | 標準の下界 $4n^2 + 4nd$"):
    nn = int(row[0])
    Tr, Tc = -(-nn // 256), -(-nn // 64)
    std, tiled = 4 * nn * nn + 4 * nn * d, 2 * nn * d * (Tr + 1) + nn
    expect = [row[0], fmt(std, ","), fmt(tiled, ","), fmt(std / tiled, ".3f"), fmt(Tr, "d"), fmt(Tc, "d")]
    for got, exp_ in zip(row, expect):
        results.append((got == exp_, got, exp_, f"table IO, n = {nn}"))

nb = sp.symbols("n", positive=True)
lim = sp.limit((4 * nb**2 + 4 * nb * d) / (2 * nb**2 * d / 256 + 2 * nb * d + nb), nb, sp.oo)
check("比は $n$ とともに $2B_r/d = 2 \\times 256/64 = 8$ に近づきます", "8", lim, "d")
check("$M/(2d^2) = 65{,}536/8{,}192 = 8$", "8{,}192", 2 * d * d, "tex")
check("$M/(2d^2) = 65{,}536/8{,}192 = 8$", "8", M / (2 * d * d), "d")
check("$T_r = 1024/256 = 4$", "4", 1024 // 256, "d")
check("$2 \\times 1024 \\times 64 \\times 5 + 1024 = 656{,}384$", "656{,}384", 2 * 1024 * 64 * 5 + 1024, "tex")
check("$16d^2/M = 16 \\times 4{,}096/65{,}536 = 1$", "4{,}096", d * d, "tex")
check("$16d^2/M = 16 \\times 4{,}096/65{,}536 = 1$", "1", 16 * d * d / M, "d")
check("係数は $2d/B_r = 0.5$ です", "0.5", 2 * d / 256, ".1f")

# 系 6.3 の主張を、d, M, n の格子で確かめる
for dd in (5, 8, 16, 64, 128):
    for MM in (8 * dd, 8 * dd + 7, 1000, 65536, 98304):
        if MM < 8 * dd:
            continue
        br = MM // (4 * dd)
        assert U(br, 1, dd) <= MM
        for nn in (1, 7, 100, 1024, 5000):
            io = 2 * nn * dd * (-(-nn // br) + 1) + nn
            assert io < 16 * nn * nn * dd * dd / MM + 4 * nn * dd + nn

# ---------------------------------------------------------------- 7 節（本文の読み取り）
rng = np.random.default_rng(0)
Q, K, Vr = rng.standard_normal((3, 8, 4))
sc = Q @ K.T / 2.0
row1 = sc[0]
blocks = [row1[j:j + 2] for j in range(0, 8, 2)]
m1 = blocks[0].max()
m2 = max(m1, blocks[1].max())
lsum = e(row1 - row1.max()).sum()
check("係数 $\\approx 0.7333$", "0.7333", e(m1 - m2), ".4f")
check("ブロック 3・4 の最大値 0.0775、0.5808 は 0.6071 を超えない", "0.0775", blocks[2].max(), ".4f")
check("ブロック 3・4 の最大値 0.0775、0.5808 は 0.6071 を超えない", "0.5808", blocks[3].max(), ".4f")
check("ブロック 3・4 の最大値 0.0775、0.5808 は 0.6071 を超えない", "0.6071", row1.max(), ".4f")
ctx = "$L_1 = 0.6071 + \\log 5.3007 \\approx 2.2749$"
check(ctx, "5.3007", lsum, ".4f")
check(ctx, "2.2749", row1.max() + log(lsum), ".4f")
for Trr, val in ((4, "328"), (2, "200"), (1, "136")):
    check(f"$64 \\times {Trr + 1} + 8 = {val}$", val, 2 * 8 * 4 * (Trr + 1) + 8, "d")
check("$2nd + nd(T + 1) + n = 64 + 160 + 8 = 232$", "160", 8 * 4 * 5, "d")
check("$2nd + nd(T + 1) + n = 64 + 160 + 8 = 232$", "232", 2 * 8 * 4 + 8 * 4 * 5 + 8, "d")
check("$4 \\times 8^2 + 4 \\times 8 \\times 4 = 256 + 128 = 384$", "384", 4 * 64 + 4 * 8 * 4, "d")
check("$4 \\times 8^2 + 4 \\times 8 \\times 4 = 256 + 128 = 384$", "128", 4 * 8 * 4, "d")
check("$B_r = 2$ では $2B_r/d = 1$", "1", 2 * 2 / 4, "d")
check("読み書きの個数 656,384 が", "656,384", 2 * 1024 * 64 * 5 + 1024, ",")

# ---------------------------------------------------------------- 9 節 演習
w1 = e(st1[0] - stm[0]) * st1[1]
ctx = "$e^{-2}\\ell_{B_1}/\\ell \\approx 0.1537/1.2034 \\approx 0.1277$、$\\ell_{B_2}/\\ell \\approx 0.8723$"
check(ctx, "0.1537", w1, ".4f")
check(ctx, "0.1277", w1 / stm[1], ".4f")
check(ctx, "0.8723", st2[1] / stm[1], ".4f")
ob2 = st2[2] / st2[1]
ctx = "$\\bar{\\boldsymbol{o}}_{B_2} = (2.0498, -0.9502)/1.0498 = (1.9526,\\ -0.9051)$"
check(ctx, "1.9526", ob2[0], ".4f")
check(ctx, "-0.9051", ob2[1], ".4f")
normalized = (w1 * st1[2] / st1[1] + st2[1] * ob2) / stm[1]
ctx = "= (1.7185,\\ -0.6771)$ となり"
check(ctx, "1.7185", normalized[0], ".4f")
check(ctx, "-0.6771", normalized[1], ".4f")

d, M, nn = 128, 98304, 8192
check("$M = 98{,}304$（192 KiB を fp16 で数えた個数）", "98{,}304", 192 * 1024 // 2, "tex")
br = M // (4 * d)
Tr = -(-nn // br)
check("$B_r = \\lfloor 98{,}304/512 \\rfloor = 192$", "512", 4 * d, "d")
check("$B_r = \\lfloor 98{,}304/512 \\rfloor = 192$", "192", br, "d")
ctx = "$T_r = \\lceil 8192/192 \\rceil = 43$（$192 \\times 42 = 8{,}064 < 8{,}192 \\le 8{,}256 = 192 \\times 43$）"
check(ctx, "43", Tr, "d")
check(ctx, "8{,}064", 192 * 42, "tex")
check(ctx, "8{,}256", 192 * 43, "tex")
io = 2 * nn * d * (Tr + 1) + nn
std = 4 * nn * nn + 4 * nn * d
check("$2 \\times 8192 \\times 128 \\times 44 + 8192 = 92{,}282{,}880$", "92{,}282{,}880", io, "tex")
ctx = "$4 \\times 8192^2 + 4 \\times 8192 \\times 128 = 268{,}435{,}456 + 4{,}194{,}304 = 272{,}629{,}760$"
check(ctx, "268{,}435{,}456", 4 * nn * nn, "tex")
check(ctx, "4{,}194{,}304", 4 * nn * d, "tex")
check(ctx, "272{,}629{,}760", std, "tex")
check("比は約 2.954 です", "2.954", std / io, ".3f")
check("$2B_r/d = 3$ に近い値です", "3", 2 * br / d, "d")
check("$U(192, 64) = 78{,}592 \\le 98{,}304$", "78{,}592", U(192, 64, d), "tex")
results.append((U(192, 64, d) <= M and U(br, 1, d) <= M, "U(192,64) <= M", "True", "SRAM a100"))
ctx = "$8192^2 \\times 2 = 134{,}217{,}728$ バイト（128 MiB）、32 ヘッドで $4$ GiB"
check(ctx, "134{,}217{,}728", nn * nn * 2, "tex")
check(ctx, "128", nn * nn * 2 / 2**20, "d")
check(ctx, "4", 32 * nn * nn * 2 / 2**30, "d")

# ---------------------------------------------------------------- コードのリスト
blocks_py = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
with tempfile.TemporaryDirectory() as tmp:
    for k, (code, printed) in enumerate(blocks_py, 1):
        if k == 1:
            with open(os.path.join(tmp, "tiled_attention.py"), "w", encoding="utf-8") as f:
                f.write(code)
            run = subprocess.run([sys.executable, "tiled_attention.py"], cwd=tmp, capture_output=True, text=True)
        else:
            run = subprocess.run([sys.executable, "-"], input=code, cwd=tmp, capture_output=True, text=True)
        ok = run.returncode == 0 and run.stdout == printed
        results.append((ok, f"listing {k}: {len(printed.splitlines())} lines", "identical" if ok else run.stdout + run.stderr, "listing"))

# 「7 節では $10^{-16}$ 程度」：リストの出力に現れる誤差の桁
errs = [float(x) for x in re.findall(r"max\|(?:O - O_def|L - LSE)\| = ([0-9.]+e-[0-9]+)", blocks_py[0][1])]
exps = sorted({math.floor(math.log10(x)) for x in errs})
results.append(("7 節では $10^{-16}$ 程度" in TEXT and exps == [-16], "10^{-16}", f"10^{exps}", "listing errors"))

bad = 0
for ok, printed, computed, where in results:
    print(f"{'OK ' if ok else 'NG '} {printed:>18}  computed {computed:>18}  [{where}]")
    bad += not ok
print(f"{len(results)} checks, {bad} mismatches")
sys.exit(1 if bad else 0)

"""activations.txt の数値をすべて定義から計算し直し、印刷された値と照合する。

各数値について、章の中の文字列（印刷された形）と、mpmath / 整数演算で求めた値を並べ、
印刷された桁数で丸めたときに一致するか（|計算値 - 印刷値| <= 0.5 * 10^{-桁}）を調べる。
表は章のテキストから読み取ってセルごとに照合する。最後に 7 節のリスティングを取り出して
実行し、出力が章に印刷された出力と 1 文字も違わないことを確かめる。
1 つでも合わなければ終了コード 1 で終わる。
"""
import math
import os
import re
import subprocess
import sys

import mpmath as mp

mp.mp.dps = 40
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "activations.txt"), encoding="utf-8").read()
LINES = TEXT.split("\n")

# ---------------------------------------------------------------- 定義（章の 2 節）
C = mp.mpf("0.044715")
phi = lambda x: mp.npdf(x)
Phi = lambda x: mp.ncdf(x)
s = lambda x: 1 / (1 + mp.e ** (-x))
relu = lambda x: max(mp.mpf(0), mp.mpf(x))
gelu = lambda x: x * Phi(x)
gelu_erf = lambda x: x / 2 * (1 + mp.erf(x / mp.sqrt(2)))
gelu_tanh = lambda x, c=C: x / 2 * (1 + mp.tanh(mp.sqrt(2 / mp.pi) * (x + c * x ** 3)))
silu = lambda x: x * s(x)
swish = lambda x, b: x * s(b * x)
gelu_p = lambda x: Phi(x) + x * phi(x)                       # 命題 3.3 の 1
gelu_pp = lambda x: (2 - x ** 2) * phi(x)
silu_p = lambda x: s(x) * (1 + x * (1 - s(x)))               # 命題 5.1 の 1
silu_pp = lambda x: s(x) * (1 - s(x)) * (2 - x * mp.tanh(x / 2))
E = lambda x: gelu_tanh(x) - gelu(x)
Esig = lambda x: swish(x, mp.mpf("1.702")) - gelu(x)

# 最小点など
x_G = mp.findroot(gelu_p, -0.75)
W = mp.lambertw(1 / mp.e).real
x_star = mp.findroot(lambda x: 1 + x + mp.e ** x, -1.3)
c0 = (4 - mp.pi) / (6 * mp.pi)
x_Emax = mp.findroot(lambda x: mp.diff(E, x), 2.7)
x_Smax = mp.findroot(lambda x: mp.diff(Esig, x), 2.27)
x_silu_pp = mp.findroot(lambda x: 2 - x * mp.tanh(x / 2), 2.4)


def dff(d, m):
    return m * (-(-8 * d // (3 * m)))


# ---------------------------------------------------------------- 照合の道具
results = []


def clean(tok):
    return tok.replace("−", "-").replace("{,}", "").replace(",", "").replace("$", "").strip()


def close(printed, value):
    p = clean(printed)
    dec = len(p.split(".")[1]) if "." in p else 0
    return abs(mp.mpf(p) - mp.mpf(value)) <= mp.mpf(0.5) * mp.mpf(10) ** (-dec) * (1 + mp.mpf(10) ** -12)


def chk(snippet, value, token=None):
    """snippet が章にあり、その中の数 token（既定は snippet 全体）が value の丸めであること。"""
    token = snippet if token is None else token
    ok = snippet in TEXT and token in snippet and close(token, value)
    results.append((ok, snippet, token, value))


def chk_sci(snippet, value):
    """'4.732 \\times 10^{-4}' の形。"""
    m = re.search(r"(-?−?[\d.]+) \\times 10\^\{(-?−?\d+)\}", snippet)
    mant, ex = clean(m.group(1)), int(clean(m.group(2)))
    ok = snippet in TEXT and close(mant, mp.mpf(value) / mp.mpf(10) ** ex)
    results.append((ok, snippet, m.group(0), value))


def table(header_start):
    i = next(k for k, l in enumerate(LINES) if l.startswith(header_start))
    rows = []
    for l in LINES[i + 1:]:
        if not l.strip():
            break
        rows.append(l.split("\t"))
    return rows


def chk_cell(desc, cell, value):
    ok = close(cell, value)
    results.append((ok, desc, cell, value))


# ---------------------------------------------------------------- 0 節（要点）
chk("$x \\approx -0.7518$ で最小値 $\\approx -0.1700$", x_G, "-0.7518")
chk("$x \\approx -0.7518$ で最小値 $\\approx -0.1700$", gelu(x_G), "-0.1700")
chk_sci("最大でも約 $4.732 \\times 10^{-4}$", E(x_Emax))
chk("$(4 - \\pi)/(6\\pi) \\approx 0.04554$", c0, "0.04554")
chk("解 $x^{*} \\approx -1.2785$", x_star, "-1.2785")
chk("最小値は $x^{*} + 1 \\approx -0.2785$", x_star + 1, "-0.2785")
chk("$W(1/e)/\\beta \\approx 0.2785/\\beta$", W, "0.2785")

# ---------------------------------------------------------------- 2 節
chk("$\\sqrt{2/\\pi} \\approx 0.7979$", mp.sqrt(2 / mp.pi), "0.7979")
chk("傾き $0.5$ を約 $0.7979$ にし", mp.sqrt(2 / mp.pi), "0.7979")
assert abs(gelu(mp.mpf("0.7")) - gelu_erf(mp.mpf("0.7"))) < mp.mpf(10) ** -30   # Φ と erf の関係
assert abs(silu(mp.mpf("0.7")) - mp.mpf("0.35") * (1 + mp.tanh(mp.mpf("0.35")))) < mp.mpf(10) ** -30

# ---------------------------------------------------------------- 3 節
for x in (mp.mpf("0.3"), mp.mpf(1), mp.mpf("2.5")):   # 命題 3.1 の 1 と 3（数値での確認）
    for f in (relu, gelu, lambda t: gelu_tanh(t), silu, lambda t: swish(t, 3)):
        assert abs(f(x) - f(-x) - x) < mp.mpf(10) ** -30
    for fp in (gelu_p, silu_p):
        assert abs(fp(x) + fp(-x) - 1) < mp.mpf(10) ** -30
chk("3\\big(1 - \\Phi(3)\\big) \\approx 0.004050", 3 * (1 - Phi(3)), "0.004050")
chk("上界 $\\varphi(3) \\approx 0.004432$", phi(3), "0.004432")
chk("数値的には $x_G \\approx -0.7518$", x_G, "-0.7518")
chk("$\\mathrm{GELU}(x_G) \\approx -0.1700$。", gelu(x_G), "-0.1700")
chk("\\sqrt2\\,\\varphi(\\sqrt2) \\approx 1.1289", gelu_p(mp.sqrt(2)), "1.1289")
chk("1 - \\mathrm{GELU}'(\\sqrt2) \\approx -0.1289", 1 - gelu_p(mp.sqrt(2)), "-0.1289")
assert abs(gelu_p(-mp.sqrt(2)) - (1 - gelu_p(mp.sqrt(2)))) < mp.mpf(10) ** -30
chk("数回で $x_G = -0.751792$ に収束", x_G, "-0.751792")
chk("$x_G^2 \\approx 0.5652$", x_G ** 2, "0.5652")
chk("$\\varphi(x_G) \\approx 0.3007$", phi(x_G), "0.3007")
chk("積は約 0.1700 です", x_G ** 2 * phi(x_G), "0.1700")
assert abs(gelu(x_G) + x_G ** 2 * phi(x_G)) < mp.mpf(10) ** -30
chk("値は $-0.1289$ 以上 $1.1289$ 以下", 1 - gelu_p(mp.sqrt(2)), "-0.1289")
chk("値は $-0.1289$ 以上 $1.1289$ 以下", gelu_p(mp.sqrt(2)), "1.1289")
chk("$\\Phi(\\sqrt2) \\approx 0.9214$", Phi(mp.sqrt(2)), "0.9214")
chk("$\\sqrt2\\,\\varphi(\\sqrt2) \\approx 0.2076$", mp.sqrt(2) * phi(mp.sqrt(2)), "0.2076")

# 例 3.4 の表
rows = table("$x$\t$\\mathrm{ReLU}(x)$\t$\\mathrm{GELU}(x)$")
fs = [relu, gelu, gelu_tanh, silu, gelu_p, silu_p]
names = ["ReLU", "GELU", "GELU_tanh", "SiLU", "GELU'", "SiLU'"]
assert len(rows) == 5
for r in rows:
    x = mp.mpf(clean(r[0]))
    for name, f, cell in zip(names, fs, r[1:]):
        chk_cell(f"表 例3.4 x={r[0]} {name}", cell, f(x))
chk("$\\Phi(1) \\approx 0.8413$", Phi(1), "0.8413")
chk("$\\mathrm{GELU}(1) \\approx 0.8413$", gelu(1), "0.8413")
chk("-(1 - 0.8413) = -0.1587", gelu(-1), "-0.1587")
chk("$0.8413 - (-0.1587) = 1$", mp.mpf("0.8413") + mp.mpf("0.1587"), "1")
chk("$1.7616 - (-0.2384) = 2$", mp.mpf("1.7616") + mp.mpf("0.2384"), "2")
chk("$1.0833 + (-0.0833) = 1$", mp.mpf("1.0833") - mp.mpf("0.0833"), "1")
chk("\\approx 0.8413 + 0.2420 = 1.0833", phi(1), "0.2420")
chk("\\approx 0.8413 + 0.2420 = 1.0833", gelu_p(1), "1.0833")
chk("$x = -2$ での値 $-0.2384$", silu(-2), "-0.2384")
chk("GELU の $-0.0455$ の約 5.24 倍", gelu(-2), "-0.0455")
chk("GELU の $-0.0455$ の約 5.24 倍", silu(-2) / gelu(-2), "5.24")

# ---------------------------------------------------------------- 4 節
chk("c_0 := \\dfrac{4 - \\pi}{6\\pi} \\approx 0.04554", c0, "0.04554")
chk_sci("係数は約 $-3.291 \\times 10^{-4}$ である", (C - c0) / mp.sqrt(2 * mp.pi))
chk("$c - c_0 \\approx 0.044715 - 0.045540 = -0.000825$", c0, "0.045540")
chk("$c - c_0 \\approx 0.044715 - 0.045540 = -0.000825$", C - c0, "-0.000825")
chk_sci("割ると約 $-3.291 \\times 10^{-4}$ です", (C - c0) / mp.sqrt(2 * mp.pi))
chk("-3.291 \\times 10^{-4} \\times 0.0625", mp.mpf("0.5") ** 4, "0.0625")
chk_sci("\\approx -2.06 \\times 10^{-5}", (C - c0) / mp.sqrt(2 * mp.pi) * mp.mpf("0.5") ** 4)
chk_sci("実際の誤差 $-1.72 \\times 10^{-5}$", E(mp.mpf("0.5")))
# 命題 4.1 の 1：x^3 の係数をテイラー展開で確かめる
tay = mp.taylor(lambda x: (1 + mp.tanh(mp.sqrt(2 / mp.pi) * (x + C * x ** 3))) / 2 - Phi(x), 0, 3)
assert abs(tay[3] - (C - c0) / mp.sqrt(2 * mp.pi)) < mp.mpf(10) ** -20 and abs(tay[1]) < mp.mpf(10) ** -20
tay0 = mp.taylor(lambda x: (1 + mp.tanh(mp.sqrt(2 / mp.pi) * (x + c0 * x ** 3))) / 2 - Phi(x), 0, 4)
assert all(abs(v) < mp.mpf(10) ** -20 for v in tay0)
for x in (mp.mpf("0.4"), mp.mpf("2.2")):
    assert abs(E(x) - E(-x)) < mp.mpf(10) ** -30

# 例 4.2 の表
rows = table("$x$\t$\\mathrm{GELU}(x)$\t$\\mathrm{GELU}_{\\tanh}(x)$")
assert len(rows) == 7
for r in rows:
    x = mp.mpf(clean(r[0]))
    chk_cell(f"表 例4.2 x={r[0]} GELU", r[1], gelu(x))
    chk_cell(f"表 例4.2 x={r[0]} tanh", r[2], gelu_tanh(x))
    chk_cell(f"表 例4.2 x={r[0]} E*1e4", r[3], E(x) * 10 ** 4)
    chk_cell(f"表 例4.2 x={r[0]} sig*1e3", r[4], Esig(x) * 10 ** 3)
chk_sci("$|E(x)|$ の最大値は約 $4.732 \\times 10^{-4}$", E(x_Emax))
chk("$|x| \\approx 2.699$ で取ります", x_Emax, "2.699")
chk("（7 節の格子では 2.70）", x_Emax, "2.70")
chk_sci("最大値は約 $2.033 \\times 10^{-2}$", -Esig(x_Smax))
chk("（$|x| \\approx 2.27$）", x_Smax, "2.27")
chk("tanh 近似の約 43 倍", -Esig(x_Smax) / E(x_Emax), "43")
chk_sci("tanh 近似の誤差 $4.399 \\times 10^{-4}$", E(mp.mpf("2.5")))
chk("は値 $2.484$ の約 0.018 %", gelu(mp.mpf("2.5")), "2.484")
chk("は値 $2.484$ の約 0.018 %", E(mp.mpf("2.5")) / gelu(mp.mpf("2.5")) * 100, "0.018")

# ---------------------------------------------------------------- 5 節
for x in (mp.mpf("-1.5"), mp.mpf("0.7"), mp.mpf(3)):     # 命題 5.1 の 1 の式を数値微分と比べる
    assert abs(mp.diff(silu, x) - silu_p(x)) < mp.mpf(10) ** -20
    assert abs(mp.diff(silu, x, 2) - silu_pp(x)) < mp.mpf(10) ** -20
    assert abs(mp.diff(gelu, x) - gelu_p(x)) < mp.mpf(10) ** -20
    assert abs(mp.diff(gelu, x, 2) - gelu_pp(x)) < mp.mpf(10) ** -20
assert abs(x_star - (-1 - W)) < mp.mpf(10) ** -30 and abs(silu(x_star) - (x_star + 1)) < mp.mpf(10) ** -30
assert -2 < x_star < -1 and -mp.sqrt(2) < x_G < 0
chk("x^{*} = -1 - W(1/e) \\approx -1.2785", x_star, "-1.2785")
chk("\\mathrm{SiLU}(x^{*}) = -W(1/e) \\approx -0.2785", silu(x_star), "-0.2785")
chk("3/(1 + e^{3}) \\approx 0.1423", 3 / (1 + mp.e ** 3), "0.1423")
chk("上界 $3e^{-3} \\approx 0.1494$", 3 * mp.e ** -3, "0.1494")
chk("GELU の $0.004050$ の約 35 倍", 3 * (1 - Phi(3)), "0.004050")
chk("GELU の $0.004050$ の約 35 倍", (3 / (1 + mp.e ** 3)) / (3 * (1 - Phi(3))), "35")
chk("正の解 $x \\approx 2.3994$", x_silu_pp, "2.3994")
chk("値は約 $1.0998$ です", silu_p(x_silu_pp), "1.0998")
chk("$x \\approx -2.3994$ での約 $-0.0998$", -x_silu_pp, "-2.3994")
chk("$x \\approx -2.3994$ での約 $-0.0998$", silu_p(-x_silu_pp), "-0.0998")
# 例 5.2 のニュートン法
xs = [mp.mpf(-1)]
for _ in range(3):
    z = xs[-1]
    xs.append(z - (1 + z + mp.e ** z) / (1 + mp.e ** z))
chk("\\approx -1 - 0.268941 = -1.268941", s(-1), "0.268941")
chk("\\approx -1 - 0.268941 = -1.268941", xs[1], "-1.268941")
chk("$e^{-1} \\approx 0.367879$", mp.e ** -1, "0.367879")
chk("$x_2 \\approx -1.278455$", xs[2], "-1.278455")
chk("$x_3 \\approx -1.278465$", xs[3], "-1.278465")
chk("最小値は $x^{*} + 1 \\approx -0.278465$", x_star + 1, "-0.278465")
chk("（$-1.2785$ 対 $-0.7518$）", x_star, "-1.2785")
chk("（$-1.2785$ 対 $-0.7518$）", x_G, "-0.7518")
chk("最小値は約 1.638 倍深く", silu(x_star) / gelu(x_G), "1.638")
chk("（$0.278465/0.169971$）", -silu(x_star), "0.278465")
chk("（$0.278465/0.169971$）", -gelu(x_G), "0.169971")
# 命題 5.3
chk("$W := W(1/e) \\approx 0.2785$", W, "0.2785")
chk("-\\mathrm{GELU}(x_G) \\approx 0.1700", -gelu(x_G), "0.1700")
for b in (mp.mpf(1), mp.mpf(10), mp.mpf("1.702")):          # 上限 W/β を格子で確かめる
    grid = [mp.mpf(k) / 400 for k in range(-2400, 2401)]
    sup = max(abs(swish(x, b) - relu(x)) for x in grid)
    assert sup <= W / b + mp.mpf(10) ** -30 and W / b - sup < mp.mpf(10) ** -4
chk("ReLU から $0.02785$ 以内", W / 10, "0.02785")
chk("高々 0.1700 しか離れない", -gelu(x_G), "0.1700")
chk("SiLU（$\\beta = 1$）の上限 0.2785", W, "0.2785")

# ---------------------------------------------------------------- 6 節
x2 = [mp.mpf(1), mp.mpf(2)]
W1 = [[1, 1], [0, -1]]
W3 = [[0, 1], [1, 0]]
W2 = [[1, 0], [1, 1]]
a = [sum(W1[i][j] * x2[i] for i in range(2)) for j in range(2)]
v = [sum(W3[i][j] * x2[i] for i in range(2)) for j in range(2)]
assert a == [1, -1] and v == [2, 1]
h = [silu(a[j]) * v[j] for j in range(2)]
out = [sum(W2[j][i] * h[j] for j in range(2)) for i in range(2)]
chk("$\\mathrm{SiLU}(1) \\approx 0.7311$", silu(1), "0.7311")
chk("$\\mathrm{SiLU}(-1) \\approx -0.2689$", silu(-1), "-0.2689")
chk("= (1.4621, -0.2689)", h[0], "1.4621")
chk("= (1.4621, -0.2689)", h[1], "-0.2689")
chk("\\approx (1.1932,\\ -0.2689)", out[0], "1.1932")
chk("\\approx (1.1932,\\ -0.2689)", out[1], "-0.2689")
hr = [relu(a[j]) * v[j] for j in range(2)]
outr = [sum(W2[j][i] * hr[j] for j in range(2)) for i in range(2)]
assert outr == [2, 0]
chk("パラメータは $3 \\times 2 \\times 2 = 12$ 個", 3 * 2 * 2, "12")
chk("$2 \\times 2 \\times 3 = 12$ 個と同じ", 2 * 2 * 3, "12")
chk("（$t = 1$ で約 4.819）", 4 * s(2) / s(1), "4.819")
chk("（$t = -1$ で約 1.773）", 4 * s(-2) / s(-1), "1.773")

# 例 6.4 の 2 つの表
rows = table("$d$\tReLU の幅 $4d$")
assert [int(r[0]) for r in rows] == [768, 1024, 4096]
for r in rows:
    d = int(r[0])
    chk_cell(f"表 幅 d={d} 4d", r[1], 4 * d)
    chk_cell(f"表 幅 d={d} 8d/3", r[2], mp.mpf(8 * d) / 3)
    chk_cell(f"表 幅 d={d} m=64", r[3], dff(d, 64))
    chk_cell(f"表 幅 d={d} m=256", r[4], dff(d, 256))
    assert clean(r[3]) == str(dff(d, 64)) and clean(r[4]) == str(dff(d, 256))
rows = table("$d$\tReLU：$8d^2$")
assert [int(r[0]) for r in rows] == [768, 1024, 4096]
for r in rows:
    d = int(r[0])
    q = 3 * d * dff(d, 256)
    for cell, val, what in ((r[1], 8 * d * d, "ReLU params"), (r[2], q, "SwiGLU params"),
                            (r[3], mp.mpf(q) / (8 * d * d), "ratio"), (r[4], 16 * d * d, "ReLU FLOP"),
                            (r[5], 6 * d * dff(d, 256), "SwiGLU FLOP")):
        chk_cell(f"表 パラメータ d={d} {what}", cell, val)
    assert 2 * (8 * d * d) == 16 * d * d and 2 * q == 6 * d * dff(d, 256)       # FLOP = 2 × パラメータ数
    assert 1 <= mp.mpf(q) / (8 * d * d) < 1 + mp.mpf(3 * 256) / (8 * d)          # 命題 6.1 の 3
chk("$8d/3 = 8 \\times 256 = 2{,}048$", 8 * 768 // 3, "2{,}048")
chk("$8192/3 \\approx 2730.67$", mp.mpf(8192) / 3, "2730.67")
chk("\\lceil 42.67\\rceil = 43$ から $43 \\times 64 = 2{,}752$", mp.mpf(8192) / 3 / 64, "42.67")
chk("\\lceil 42.67\\rceil = 43$ から $43 \\times 64 = 2{,}752$", dff(1024, 64), "2{,}752")
chk("\\lceil 2730.67/256\\rceil = 11$ から $11 \\times 256 = 2{,}816$", dff(1024, 256), "2{,}816")
chk("\\lceil 2730.67/256\\rceil = 11$ から $11 \\times 256 = 2{,}816$", -(-8192 // (3 * 256)), "11")
chk("\\lceil 10922.67/256\\rceil = 43$ から $43 \\times 256 = 11{,}008$", mp.mpf(8 * 4096) / 3, "10922.67")
chk("\\lceil 10922.67/256\\rceil = 43$ から $43 \\times 256 = 11{,}008$", dff(4096, 256), "11{,}008")
chk("$8448/8192 = 1.03125$", 3 * dff(1024, 256), "8448")
chk("$8448/8192 = 1.03125$", mp.mpf(3 * dff(1024, 256)) / 8192, "1.03125")
chk("$33024/32768 = 1.0078125$", 3 * dff(4096, 256), "33024")
chk("$33024/32768 = 1.0078125$", mp.mpf(3 * dff(4096, 256)) / 32768, "1.0078125")
chk("超過は 3.125 % と 0.78125 %", (mp.mpf(3 * dff(1024, 256)) / 8192 - 1) * 100, "3.125")
chk("超過は 3.125 % と 0.78125 %", (mp.mpf(3 * dff(4096, 256)) / 32768 - 1) * 100, "0.78125")
chk("（それぞれ 9.375 % と 2.34375 %）", mp.mpf(3 * 256) / (8 * 1024) * 100, "9.375")
chk("（それぞれ 9.375 % と 2.34375 %）", mp.mpf(3 * 256) / (8 * 4096) * 100, "2.34375")
chk("$2752 \\times 3/8192 - 1 = 0.78125\\,\\%$", (mp.mpf(3 * dff(1024, 64)) / 8192 - 1) * 100, "0.78125")
chk("$10944 \\times 3/32768 - 1 \\approx 0.1953\\,\\%$", (mp.mpf(3 * dff(4096, 64)) / 32768 - 1) * 100, "0.1953")
chk("$32 \\times 135{,}266{,}304 = 4{,}328{,}521{,}728$", 32 * 3 * 4096 * dff(4096, 256), "4{,}328{,}521{,}728")
chk("約 43.3 億個", mp.mpf(32 * 3 * 4096 * dff(4096, 256)) / 10 ** 8, "43.3")
chk("$d = 4096$ ではこれが 11,008 です", 256 * (-(-int(2 * (4 * 4096) / 3) // 256)), "11,008")
for d in range(1, 20001):                                   # 注意 6.5：8 の倍数 m では手順が一致する
    for m in (64, 256):
        assert m * (-(-int(2 * (4 * d) / 3) // m)) == dff(d, m)

# ---------------------------------------------------------------- 7 節の箇条書き
chk("$\\sqrt2 \\approx 1.4142$ と $2.3994$", mp.sqrt(2), "1.4142")
chk("$\\sqrt2 \\approx 1.4142$ と $2.3994$", x_silu_pp, "2.3994")

# ---------------------------------------------------------------- 8 節（演習）
chk("$s(2) \\approx 0.880797$", s(2), "0.880797")
chk("0.880797 \\times (1 + 2 \\times 0.119203) \\approx 1.0908", 1 - s(2), "0.119203")
chk("0.880797 \\times (1 + 2 \\times 0.119203) \\approx 1.0908", silu_p(2), "1.0908")
chk("$\\mathrm{SiLU}'(-2) = 1 - 1.0908 = -0.0908$", silu_p(-2), "-0.0908")
b = mp.mpf("1.702")
chk("-(1 + W)/1.702 \\approx -1.278465/1.702 \\approx -0.7512", -(1 + W), "-1.278465")
chk("-(1 + W)/1.702 \\approx -1.278465/1.702 \\approx -0.7512", -(1 + W) / b, "-0.7512")
chk("-W/1.702 \\approx -0.278465/1.702 \\approx -0.1636", -W, "-0.278465")
chk("-W/1.702 \\approx -0.278465/1.702 \\approx -0.1636", -W / b, "-0.1636")
chk("GELU の最小点 $-0.7518$、最小値 $-0.1700$", x_G, "-0.7518")
chk("GELU の最小点 $-0.7518$、最小値 $-0.1700$", gelu(x_G), "-0.1700")
chk("最小値は約 0.0064 浅く", W / b - (-gelu(x_G)) if False else -gelu(x_G) - W / b, "0.0064")
chk("上限も $0.1636$ と $0.1700$", W / b, "0.1636")
chk("上限も $0.1636$ と $0.1700$", -gelu(x_G), "0.1700")
# 演習 8.2 の最小点を直接求めて確かめる
xm = mp.findroot(lambda x: mp.diff(lambda t: swish(t, b), x), -0.75)
assert abs(xm - (-(1 + W) / b)) < mp.mpf(10) ** -20
d = 5120
chk("$8d/3 = 40960/3 \\approx 13653.33$", mp.mpf(8 * d) / 3, "13653.33")
chk("\\lceil 53.33\\rceil = 54", mp.mpf(8 * d) / 3 / 256, "53.33")
chk("\\lceil 53.33\\rceil = 54", -(-8 * d // (3 * 256)), "54")
chk("$d_{\\mathrm{ff}}^{(256)} = 54 \\times 256 = 13{,}824$", dff(d, 256), "13{,}824")
chk("$3 \\times 5120 \\times 13824 = 212{,}336{,}640$", 3 * d * dff(d, 256), "212{,}336{,}640")
chk("$8 \\times 5120^2 = 209{,}715{,}200$", 8 * d * d, "209{,}715{,}200")
chk("比は $41472/40960 = 1.0125$", 3 * dff(d, 256), "41472")
chk("比は $41472/40960 = 1.0125$", mp.mpf(3 * dff(d, 256)) / (8 * d), "1.0125")
chk("超過は 1.25 % です", (mp.mpf(3 * dff(d, 256)) / (8 * d) - 1) * 100, "1.25")
chk("$3 \\times 256/40960 = 1.875\\,\\%$", mp.mpf(3 * 256) / (8 * d) * 100, "1.875")
chk("2 倍で $424{,}673{,}280$", 2 * 3 * d * dff(d, 256), "424{,}673{,}280")

# ---------------------------------------------------------------- 7 節のリスティングを実行して出力を比べる
start = LINES.index("# Python 3.11.7, NumPy 2.4.6")
main = LINES.index('if __name__ == "__main__":', start)
end = main
while LINES[end] != "":
    end += 1
code = "\n".join(LINES[start:end]) + "\n"
o_start = end + 1
o_end = o_start
while LINES[o_end] != "":
    o_end += 1
printed = LINES[o_start:o_end]
run = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True)
actual = run.stdout.rstrip("\n").split("\n")
listing_ok = run.returncode == 0 and actual == printed
for k in range(max(len(printed), len(actual))):
    p = printed[k] if k < len(printed) else "<none>"
    a_ = actual[k] if k < len(actual) else "<none>"
    results.append((p == a_, f"listing line {k + 1}", p, a_))
# リスティングの出力の数値が定義からの値とも合うこと
chk("SwiGLU norm ratio 4.4445", mp.mpf(re.search(r"norm ratio ([\d.]+)", run.stdout).group(1)), "4.4445")
chk("比が 4.4445 で", mp.mpf(re.search(r"norm ratio ([\d.]+)", run.stdout).group(1)), "4.4445")
chk("GELU min -0.169971 at -0.751792", gelu(x_G), "-0.169971")
chk("GELU min -0.169971 at -0.751792", x_G, "-0.751792")
chk("SiLU min -0.278465 at -1.278465", silu(x_star), "-0.278465")
chk("max GELU' 1.1289 at 1.4142", gelu_p(mp.sqrt(2)), "1.1289")
chk("max SiLU' 1.0998 at 2.3994", silu_p(x_silu_pp), "1.0998")
chk("tanh error: max 4.732e-04", E(x_Emax) * 10 ** 4, "4.732")

# ---------------------------------------------------------------- 結果
bad = 0
for ok, where, tok, val in results:
    if not ok:
        bad += 1
    v = mp.nstr(val, 12) if not isinstance(val, str) else val
    print(f"{'OK ' if ok else 'NG '} {where[:70]:70s} printed={tok}  computed={v}")
n_listing = sum(1 for r in results if r[1].startswith("listing line"))
print(f"\nnumbers checked: {len(results) - n_listing}, listing output lines compared: {n_listing}, failures: {bad}")
sys.exit(1 if bad else 0)

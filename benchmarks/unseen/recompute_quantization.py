"""quantization.mdx の数値をすべて定義から計算し直し、本文に印字された値と照合する。

各数値は (本文中の文脈, 印字された数, 計算した値) の組で持ち、
- 文脈が本文にそのまま現れること、
- 印字された数が文脈の中に現れること、
- 計算した値を印字された桁で丸めたものが印字された数に一致すること（差が最後の桁の半分以下）
を確かめる。最後に本文のコードを実行し、出力が本文の出力と完全に一致することを確かめる。
1 つでも合わなければ終了コード 1 で終わる。
"""
import contextlib
import io
import math
import re
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TEXT = (HERE / "quantization.mdx").read_text(encoding="utf-8")
results = []


def parse(printed):
    """印字された数を (値, 最後の桁の大きさ) に直す。"""
    s = printed.replace("{,}", "").replace(",", "").replace("\\%", "").replace("%", "").strip()
    s = s.replace("−", "-")
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)(?:\s*\\times\s*10\^\{(-?\d+)\})?", s)
    if not m:
        raise ValueError(f"cannot parse {printed!r}")
    mant, exp = m.group(1), int(m.group(2) or 0)
    dec = len(mant.split(".")[1]) if "." in mant else 0
    return float(mant) * 10.0**exp, 10.0 ** (exp - dec)


def check(context, printed, value, label=""):
    ok_ctx = context in TEXT and printed in context
    p, ulp = parse(printed)
    value = float(value)
    ok_val = abs(value - p) <= 0.5 * ulp * (1 + 1e-9) + 1e-15 * abs(p)
    ok = ok_ctx and ok_val
    results.append(ok)
    flag = "ok  " if ok else "FAIL"
    where = "" if ok_ctx else "  [context not found]"
    print(f"{flag} {label:38s} printed {printed:28s} computed {value:.10g}{where}")


def check_true(context, cond, label):
    ok = (context in TEXT) and bool(cond)
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {label:38s} {'(statement holds)' if cond else '(statement false)'}"
          + ("" if context in TEXT else "  [context not found]"))


# ---------------------------------------------------------------- 定義 2.1 から形式を作る
SPEC = {"float32": (8, 23), "bfloat16": (8, 7), "float16": (5, 10), "fp8 E4M3": (4, 3), "fp8 E5M2": (5, 2)}


def bias(e):
    return 2 ** (e - 1) - 1


def value_of(E, M, e, m, e4m3=False):
    """定義 2.1 の v(0, E, M)。有限でなければ None。"""
    b = bias(e)
    top = 2**e - 1
    if E == top and not (e4m3 and M != 2**m - 1):
        return None
    if E == 0:
        return Fraction(M, 2**m) * Fraction(2) ** (1 - b)
    return (1 + Fraction(M, 2**m)) * Fraction(2) ** (E - b)


def positive_values(name):
    e, m = SPEC[name]
    vals = []
    for E in range(2**e):
        for M in range(2**m):
            v = value_of(E, M, e, m, name == "fp8 E4M3")
            if v is not None:
                vals.append((v, E, M))
    return sorted(vals)


def consts_by_enumeration(name):
    vals = positive_values(name)
    finite_patterns = 2 * len(vals)
    xmax = vals[-1][0]
    above_one = min(v for v, _, _ in vals if v > 1)
    e, m = SPEC[name]
    xmin = min(v for v, E, _ in vals if E >= 1)
    return above_one - 1, xmax, xmin, finite_patterns


def consts_by_formula(name):
    e, m = SPEC[name]
    b = bias(e)
    eps = Fraction(1, 2**m)
    if name == "fp8 E4M3":
        xmax = (2 - Fraction(2, 2**m)) * Fraction(2) ** (b + 1)
        patterns = 2**8 - 2
    else:
        xmax = (2 - eps) * Fraction(2) ** b
        patterns = 2 ** (m + 1) * (2**e - 1)
    return eps, xmax, Fraction(2) ** (1 - b), patterns


# 命題 3.1 の式と、ビット列を全部並べた結果が一致すること（float32 以外）
for name in ("bfloat16", "float16", "fp8 E4M3", "fp8 E5M2"):
    ok = consts_by_enumeration(name) == consts_by_formula(name)
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} 命題 3.1 の式 = ビット列の列挙 ({name})")


def fl(x, name):
    """定義 2.2 の最近接丸め（中点は仮数部が偶数のほう）。列挙した値から選ぶ。"""
    x = Fraction(x)
    sign = -1 if x < 0 else 1
    ax = abs(x)
    vals = [(Fraction(0), 0, 0)] + positive_values(name)
    best = min(vals, key=lambda t: (abs(t[0] - ax), t[2] % 2))
    return sign * best[0]


def fl32(x):
    return Fraction(float(np.float32(x)))


# ---------------------------------------------------------------- 0・1 節
N12 = 50257 * 768 + 1024 * 768 + 12 * (12 * 768**2 + 13 * 768) + 2 * 768
N48 = 50257 * 1600 + 1024 * 1600 + 48 * (12 * 1600**2 + 13 * 1600) + 2 * 1600
MiB, GiB = 2**20, 2**30
check("相対誤差の上界は $2^{-8} \\approx 0.39\\%$ です", "0.39", 100 * 2**-8, "bfloat16 の u (%)")
check("戻した値の誤差は高々 $s/2 = \\max_i|w_i|/254$", "254", 2 * 127, "2 q_max")
check("float32 で約 474.7 MiB、int8 で約 118.7 MiB", "474.7", 4 * N12 / MiB, "12 層 float32 MiB")
check("float32 で約 474.7 MiB、int8 で約 118.7 MiB", "118.7", N12 / MiB, "12 層 int8 MiB")
check("12 層・$d = 768$ の構成のパラメータは 124,439,808 個", "124,439,808", N12, "12 層のパラメータ数")
check("$4 \\times 124{,}439{,}808 = 497{,}759{,}232$ バイト、約 474.7 MiB", "497{,}759{,}232", 4 * N12, "12 層 float32 バイト")
check("$4 \\times 124{,}439{,}808 = 497{,}759{,}232$ バイト、約 474.7 MiB", "474.7", 4 * N12 / MiB, "12 層 float32 MiB")

# ---------------------------------------------------------------- 2 節
check("$E = 15$、$M = 512$ なら $2^{0}(1 + 512/1024) = 1.5$", "1.5", value_of(15, 512, 5, 10), "float16 E=15 M=512")
check("$E = 14$、$M = 0$ なら $2^{-1} = 0.5$", "0.5", value_of(14, 0, 5, 10), "float16 E=14 M=0")
nan_or_inf_e4m3_ieee = 2 * 2**3
check("$E = 15$ の 16 個のビット列が無限大 2 個と NaN 14 個", "16", nan_or_inf_e4m3_ieee, "E4M3: E=15 のビット列")
check("$E = 15$ の 16 個のビット列が無限大 2 個と NaN 14 個", "14", nan_or_inf_e4m3_ieee - 2, "IEEE 式なら NaN の個数")
check("NaN の 2 個だけにして残りの 14 個を有限の値に回し", "14",
      consts_by_enumeration("fp8 E4M3")[3] - 2 * (2**4 - 1) * 2**3, "E4M3 で有限に回した個数")

# ---------------------------------------------------------------- 命題 3.1・例 3.2
check("$x_{\\max} = (2 - 2^{1-m})\\,2^{b+1} = 448$", "448", consts_by_enumeration("fp8 E4M3")[1], "E4M3 x_max")
check("有限の値を表すビット列は $2^{8} - 2 = 254$ 個", "254", consts_by_enumeration("fp8 E4M3")[3], "E4M3 有限のビット列")
check("$2^{15-7}(1 + 6/8) = 2^{8} \\times 1.75 = 448$", "448", value_of(15, 6, 4, 3, True), "E4M3 E=15 M=6")
check("NaN の 2 個を除いた $256 - 2 = 254$ 個", "254", 256 - 2, "E4M3 254")

rows = {
    "float32": ("| float32 | 32 | 8 | 23 | 127 | $1.192 \\times 10^{-7}$ | $3.403 \\times 10^{38}$ | $1.175 \\times 10^{-38}$ | 7.2 |",
                ["32", "8", "23", "127", "1.192 \\times 10^{-7}", "3.403 \\times 10^{38}", "1.175 \\times 10^{-38}", "7.2"]),
    "bfloat16": ("| bfloat16 | 16 | 8 | 7 | 127 | $0.0078125$ | $3.390 \\times 10^{38}$ | $1.175 \\times 10^{-38}$ | 2.4 |",
                 ["16", "8", "7", "127", "0.0078125", "3.390 \\times 10^{38}", "1.175 \\times 10^{-38}", "2.4"]),
    "float16": ("| float16 | 16 | 5 | 10 | 15 | $9.766 \\times 10^{-4}$ | 65,504 | $6.104 \\times 10^{-5}$ | 3.3 |",
                ["16", "5", "10", "15", "9.766 \\times 10^{-4}", "65,504", "6.104 \\times 10^{-5}", "3.3"]),
    "fp8 E4M3": ("| fp8 E4M3 | 8 | 4 | 3 | 7 | 0.125 | 448 | 0.015625 | 1.2 |",
                 ["8", "4", "3", "7", "0.125", "448", "0.015625", "1.2"]),
    "fp8 E5M2": ("| fp8 E5M2 | 8 | 5 | 2 | 15 | 0.25 | 57,344 | $6.104 \\times 10^{-5}$ | 0.9 |",
                 ["8", "5", "2", "15", "0.25", "57,344", "6.104 \\times 10^{-5}", "0.9"]),
}
for name, (ctx, cells) in rows.items():
    e, m = SPEC[name]
    eps, xmax, xmin, _ = consts_by_formula(name) if name == "float32" else consts_by_enumeration(name)
    vals = [1 + e + m, e, m, bias(e), eps, xmax, xmin, (m + 1) * math.log10(2)]
    for lab, cell, v in zip(["bits", "e", "m", "b", "eps", "x_max", "x_min", "digits"], cells, vals):
        check(ctx, cell, v, f"表 3.2 {name} {lab}")

eps32, xmax32, _, _ = consts_by_formula("float32")
_, xmax16b, _, _ = consts_by_enumeration("bfloat16")
check("比は $0.9961$ です", "0.9961", xmax16b / xmax32, "bf16 x_max / fp32 x_max")
check("$\\varepsilon$ が $2^{16} = 65{,}536$ 倍粗い", "65{,}536", Fraction(1, 2**7) / eps32, "bf16 eps / fp32 eps")
check("$\\varepsilon$ は bfloat16 の 8 分の 1", "8", Fraction(1, 2**7) / Fraction(1, 2**10), "bf16 eps / fp16 eps")
check("$x_{\\max}$ は $65{,}504$ しかありません", "65{,}504", consts_by_enumeration("float16")[1], "fp16 x_max")
check("float16 で $2^{11} \\times 31 = 63{,}488$", "63{,}488", consts_by_enumeration("float16")[3], "fp16 有限のビット列")
check("bfloat16 で $2^{8} \\times 255 = 65{,}280$", "65{,}280", consts_by_enumeration("bfloat16")[3], "bf16 有限のビット列")
check("E5M2 で $2^{3} \\times 31 = 248$ です", "248", consts_by_enumeration("fp8 E5M2")[3], "E5M2 有限のビット列")

# ---------------------------------------------------------------- 命題 3.3・例 3.4
u43 = Fraction(1, 2**4)
check("E4M3 の $u = 0.0625$ では $u/(1+u) = 0.0588$ です", "0.0625", u43, "E4M3 u")
check("E4M3 の $u = 0.0625$ では $u/(1+u) = 0.0588$ です", "0.0588", u43 / (1 + u43), "E4M3 u/(1+u)")
# 最悪の点 x = 2^k (1+u) で等号になること（float16、k = 0）
u16 = Fraction(1, 2**11)
check_true("2 の上界は、$x = 2^k(1 + u)$（ちょうど中点）で等号になります",
           abs(fl(1 + u16, "float16") - (1 + u16)) / (1 + u16) == u16 / (1 + u16), "中点で等号（float16）")

x01 = Fraction(1, 10)
table_rows = {
    "float32": ("| float32 | 23 | 13,421,772.8 | 13,421,773 | 0.1000000015 | $1.490 \\times 10^{-8}$ | $5.960 \\times 10^{-8}$ |",
                ["23", "13,421,772.8", "13,421,773", "0.1000000015", "1.490 \\times 10^{-8}", "5.960 \\times 10^{-8}"]),
    "bfloat16": ("| bfloat16 | 7 | 204.8 | 205 | 0.10009765625 | $9.766 \\times 10^{-4}$ | $3.906 \\times 10^{-3}$ |",
                 ["7", "204.8", "205", "0.10009765625", "9.766 \\times 10^{-4}", "3.906 \\times 10^{-3}"]),
    "float16": ("| float16 | 10 | 1,638.4 | 1,638 | 0.0999755859375 | $2.441 \\times 10^{-4}$ | $4.883 \\times 10^{-4}$ |",
                ["10", "1,638.4", "1,638", "0.0999755859375", "2.441 \\times 10^{-4}", "4.883 \\times 10^{-4}"]),
    "fp8 E4M3": ("| fp8 E4M3 | 3 | 12.8 | 13 | 0.1015625 | $1.5625 \\times 10^{-2}$ | $6.25 \\times 10^{-2}$ |",
                 ["3", "12.8", "13", "0.1015625", "1.5625 \\times 10^{-2}", "6.25 \\times 10^{-2}"]),
    "fp8 E5M2": ("| fp8 E5M2 | 2 | 6.4 | 6 | 0.09375 | $6.25 \\times 10^{-2}$ | 0.125 |",
                 ["2", "6.4", "6", "0.09375", "6.25 \\times 10^{-2}", "0.125"]),
}
for name, (ctx, cells) in table_rows.items():
    e, m = SPEC[name]
    y = fl32(0.1) if name == "float32" else fl(x01, name)
    scaled = x01 * 2 ** (m + 4)
    vals = [m, scaled, y * 2 ** (m + 4), y, abs(y - x01) / x01, Fraction(1, 2 ** (m + 1))]
    for lab, cell, v in zip(["m", "0.1*2^(m+4)", "rounded", "fl(0.1)", "rel. error", "u"], cells, vals):
        check(ctx, cell, v, f"例 3.4 {name} {lab}")
    ok = abs(y - x01) / x01 < Fraction(1, 2 ** (m + 1))
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} 例 3.4 {name}: 相対誤差 < u")
check("float16 なら $0.4/1638.4 \\approx 2.441 \\times 10^{-4}$ です", "0.4", abs(round(x01 * 2**14) - x01 * 2**14), "1638.4 からのずれ")
check("float16 なら $0.4/1638.4 \\approx 2.441 \\times 10^{-4}$ です", "2.441 \\times 10^{-4}", Fraction(2, 5) / Fraction(16384, 10), "0.4/1638.4")
check("$u/(1 + u) = 0.125/1.125 \\approx 0.1111$ の上界に対して $0.0625$ で", "0.1111", Fraction(1, 8) / Fraction(9, 8), "E5M2 u/(1+u)")
check("$u/(1 + u) = 0.125/1.125 \\approx 0.1111$ の上界に対して $0.0625$ で", "0.0625", abs(fl(x01, "fp8 E5M2") - x01) / x01, "E5M2 fl(0.1) 相対誤差")
check_true("$0.1$ と $0.11$ は区別できても、$0.1$ と $0.095$ は区別できません",
           fl(Fraction(11, 100), "fp8 E5M2") != fl(x01, "fp8 E5M2") and fl(Fraction(95, 1000), "fp8 E5M2") == fl(x01, "fp8 E5M2"),
           "E5M2 で 0.11 と 0.095")

# ---------------------------------------------------------------- 注意 3.5
ctx = "float16 では $65{,}504$ の次の候補は $2^{16} = 65{,}536$ で、IEEE 754 の規則では $65{,}504 + 16 = 65{,}520$ 以上の数は無限大に丸められます"
check(ctx, "65{,}536", 2**16, "2^16")
check(ctx, "16", (Fraction(2**16) - 65504) / 2, "65504 と 65536 の中点までの距離")
check(ctx, "65{,}520", 65504 + 16, "65504 + 16")
check("すなわち $z \\ge \\log 65520 \\approx 11.09$ のとき", "11.09", math.log(65520), "log 65520")
check_true("ロジットが 12 程度でもあふれます", math.exp(12) >= 65520, "e^12 >= 65520")
check("bfloat16 では同じ閾値が $\\log x_{\\max} \\approx 88.72$ で、float32 とほぼ同じです", "88.72", math.log(float(xmax16b)), "log x_max (bf16)")
check_true("bfloat16 では同じ閾値が $\\log x_{\\max} \\approx 88.72$ で、float32 とほぼ同じです",
           round(math.log(float(xmax32)), 2) == 88.72, "log x_max (fp32) も 88.72")
check("絶対値が $2^{127}(2 - 2^{-8}) \\approx 3.396 \\times 10^{38}$ 以上の場合だけ", "3.396 \\times 10^{38}", 2.0**127 * (2 - 2**-8), "bf16 のあふれの閾値")
check("$[256, 512)$ の間隔は $2^{8-7} = 2$ なので", "2", 2 ** (8 - 7), "bf16 [256,512) の間隔")
check("$256 + 1 = 257$ は 256 と 258 のちょうど中点で、偶数への丸めにより 256 に戻ります", "256", fl(257, "bfloat16"), "bf16 fl(257)")

# ---------------------------------------------------------------- 4 節
check("int8 では $q_{\\max} = 127$、int4 では $7$", "127", 2 ** (8 - 1) - 1, "int8 q_max")
check("int8 では $q_{\\max} = 127$、int4 では $7$", "7", 2 ** (4 - 1) - 1, "int4 q_max")
check("整数は $-127$ から $127$ までの 255 通りを使い", "255", 2 * 127 + 1, "使う整数の個数")
check("int8 では $\\max_j|w_j|/254$ で、最大の重みの約 0.39 % である", "0.39", 100 / 254, "1/254 (%)")
check("int8 では $2 \\times 127 = 254$ で、$1/254 \\approx 0.0039$ です", "0.0039", 1 / 254, "1/254")

W = [[Fraction("0.127"), Fraction("-0.254"), Fraction("2.54")],
     [Fraction("0.0314"), Fraction("0.0957"), Fraction("-1.206")],
     [Fraction("-0.0606"), Fraction("0.0139"), Fraction("0.353")],
     [Fraction("0.0083"), Fraction("-0.1716"), Fraction("0.774")]]


def rnd(t):
    """最も近い整数（中点は偶数）。"""
    f = math.floor(t)
    r = t - f
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and f % 2 == 1):
        return f + 1
    return f


col = lambda j: [W[i][j] for i in range(4)]
s_t = max(abs(v) for r in W for v in r) / 127
s_c = [max(abs(v) for v in col(j)) / 127 for j in range(3)]
q_t = [[rnd(W[i][j] / s_t) for j in range(3)] for i in range(4)]
q_c = [[rnd(W[i][j] / s_c[j]) for j in range(3)] for i in range(4)]
E_t = [[abs(s_t * q_t[i][j] - W[i][j]) for j in range(3)] for i in range(4)]
E_c = [[abs(s_c[j] * q_c[i][j] - W[i][j]) for j in range(3)] for i in range(4)]

ctx = "$s = 2.54/127 = 0.02$ です。第 1 列は $W_{i1}/s = (6.35,\\ 1.57,\\ -3.03,\\ 0.415)$ で、丸めると $(6,\\ 2,\\ -3,\\ 0)$、戻すと $(0.12,\\ 0.04,\\ -0.06,\\ 0)$ です。誤差は $(0.007,\\ 0.0086,\\ 0.0006,\\ 0.0083)$ で、上界 $s/2 = 0.01$ 以下です。"
check(ctx, "0.02", s_t, "s (テンソル全体)")
for i, p in enumerate(["6.35", "1.57", "-3.03", "0.415"]):
    check(ctx, p, W[i][0] / s_t, f"W_{i+1}1 / s")
for i, p in enumerate(["6", "2", "-3", "0"]):
    check(ctx, p, q_t[i][0], f"q_{i+1}1 (テンソル全体)")
for i, p in enumerate(["0.12", "0.04", "-0.06", "0"]):
    check(ctx, p, s_t * q_t[i][0], f"ŵ_{i+1}1 (テンソル全体)")
for i, p in enumerate(["0.007", "0.0086", "0.0006", "0.0083"]):
    check(ctx, p, E_t[i][0], f"誤差_{i+1}1 (テンソル全体)")
check(ctx, "0.01", s_t / 2, "s/2")
check("$0.0083 < 0.01$ なので、第 4 成分は 0 になりました", "0.0083", abs(W[3][0]), "|W_41|")
check_true("$0.0083 < 0.01$ なので、第 4 成分は 0 になりました", abs(W[3][0]) < s_t / 2 and q_t[3][0] == 0, "W_41 は 0 に")
ctx = "$s_1 = 0.127/127 = 0.001$ で、$W_{i1}/s_1 = (127,\\ 31.4,\\ -60.6,\\ 8.3)$ を丸めると $(127,\\ 31,\\ -61,\\ 8)$、戻すと $(0.127,\\ 0.031,\\ -0.061,\\ 0.008)$ です。誤差は $(0,\\ 0.0004,\\ 0.0004,\\ 0.0003)$ で、上界 $s_1/2 = 0.0005$ 以下です。"
check(ctx, "0.001", s_c[0], "s_1")
for i, p in enumerate(["127", "31.4", "-60.6", "8.3"]):
    check(ctx, p, W[i][0] / s_c[0], f"W_{i+1}1 / s_1")
for i, p in enumerate(["127", "31", "-61", "8"]):
    check(ctx, p, q_c[i][0], f"q_{i+1}1 (チャネルごと)")
for i, p in enumerate(["0.127", "0.031", "-0.061", "0.008"]):
    check(ctx, p, s_c[0] * q_c[i][0], f"ŵ_{i+1}1 (チャネルごと)")
for i, p in enumerate(["0", "0.0004", "0.0004", "0.0003"]):
    check(ctx, p, E_c[i][0], f"誤差_{i+1}1 (チャネルごと)")
check(ctx, "0.0005", s_c[0] / 2, "s_1/2")
check("同様に $s_2 = 0.254/127 = 0.002$、$s_3 = 0.02$ です", "0.002", s_c[1], "s_2")
check("同様に $s_2 = 0.254/127 = 0.002$、$s_3 = 0.02$ です", "0.02", s_c[2], "s_3")
check_true("$s_3$ はテンソル全体のスケールと同じです", s_c[2] == s_t, "s_3 = s")
for j, line in enumerate(["| 1 | 0.0086 | 0.01 | 0.0004 | 0.0005 |", "| 2 | 0.0084 | 0.01 | 0.0004 | 0.001 |",
                          "| 3 | 0.007 | 0.01 | 0.007 | 0.01 |"]):
    cells = [c.strip() for c in line.strip("|").split("|")][1:]
    vals = [max(E_t[i][j] for i in range(4)), s_t / 2, max(E_c[i][j] for i in range(4)), s_c[j] / 2]
    for lab, cell, v in zip(["誤差最大(全体)", "s/2", "誤差最大(チャネル)", "s_j/2"], cells, vals):
        check(line, cell, v, f"例 4.3 表 列 {j+1} {lab}")

x = [Fraction(1), Fraction(-1), Fraction(2), Fraction(1, 2)]
y = [sum(x[i] * W[i][j] for i in range(4)) for j in range(3)]
yt = [sum(x[i] * s_t * q_t[i][j] for i in range(4)) for j in range(3)]
yc = [sum(x[i] * s_c[j] * q_c[i][j] for i in range(4)) for j in range(3)]
ctx = "$\\boldsymbol{x}^{\\mathsf{T}}W = (-0.02145,\\ -0.4077,\\ 4.839)$ です"
for j, p in enumerate(["-0.02145", "-0.4077", "4.839"]):
    check(ctx, p, y[j], f"x^T W 第 {j+1} 成分")
ctx = "第 1 成分は $0.127 - 0.0314 - 0.1212 + 0.00415 = -0.02145$ です"
check(ctx, "0.1212", 2 * abs(W[2][0]), "2 × 0.0606")
check(ctx, "0.00415", W[3][0] / 2, "0.5 × 0.0083")
check(ctx, "-0.02145", y[0], "x^T W 第 1 成分")
ctx = "テンソル全体のスケールでは $\\boldsymbol{x}^{\\mathsf{T}}\\hat W = (-0.04,\\ -0.41,\\ 4.85)$ で、第 1 成分の誤差は $0.01855$、相対誤差は約 86.5 % です。"
for j, p in enumerate(["-0.04", "-0.41", "4.85"]):
    check(ctx, p, yt[j], f"x^T Ŵ (全体) 第 {j+1} 成分")
check(ctx, "0.01855", abs(yt[0] - y[0]), "第 1 成分の誤差 (全体)")
check(ctx, "86.5", 100 * abs(yt[0] - y[0]) / abs(y[0]), "第 1 成分の相対誤差 (%)")
ctx = "チャネルごとのスケールでは $(-0.022,\\ -0.408,\\ 4.85)$ で、第 1 成分の誤差は $0.00055$ です。"
for j, p in enumerate(["-0.022", "-0.408", "4.85"]):
    check(ctx, p, yc[j], f"x^T Ŵ (チャネル) 第 {j+1} 成分")
check(ctx, "0.00055", abs(yc[0] - y[0]), "第 1 成分の誤差 (チャネル)")
ctx = "$\\|\\boldsymbol{x}\\|_1 = 4.5$ なので、<Ref to=\"prop-absmax-error\" /> の 5 の上界は、テンソル全体で $0.01 \\times 4.5 = 0.045$、チャネルごとで第 1 列が $0.0005 \\times 4.5 = 0.00225$ です。"
l1 = sum(abs(v) for v in x)
check(ctx, "4.5", l1, "||x||_1")
check(ctx, "0.045", s_t / 2 * l1, "上界 (全体)")
check(ctx, "0.00225", s_c[0] / 2 * l1, "上界 (チャネル, 列 1)")
check_true(ctx, all(abs(yt[j] - y[j]) <= s_t / 2 * l1 and abs(yc[j] - y[j]) <= s_c[j] / 2 * l1 for j in range(3)),
           "出力の誤差は上界以下")

ctx = "$d_{\\mathrm{in}} = 768$ なら 3 の比は $1/4 + 1/768 \\approx 0.2513$ で、スケールの分は float32 の行列の $1/768 \\approx 0.13\\%$ です。"
check(ctx, "0.2513", (768 * 768 + 4 * 768) / (4 * 768 * 768), "チャネルごとの記憶量の比")
check(ctx, "0.13", 100 / 768, "1/768 (%)")

# ---------------------------------------------------------------- 5 節
check("2 \\times 1600 = 1{,}557{,}611{,}200$ 個です", "1{,}557{,}611{,}200", N48, "48 層のパラメータ数")
check("12 層・$d = 768$ では 124,439,808 個", "124,439,808", N12, "12 層のパラメータ数")
mem_rows = [("| float32 | 32 | 497,759,232 | 474.7 | 6,230,444,800 | 5.803 | 1 |", 32),
            ("| bfloat16・float16 | 16 | 248,879,616 | 237.4 | 3,115,222,400 | 2.901 | 0.5 |", 16),
            ("| fp8・int8 | 8 | 124,439,808 | 118.7 | 1,557,611,200 | 1.451 | 0.25 |", 8),
            ("| int4 | 4 | 62,219,904 | 59.3 | 778,805,600 | 0.725 | 0.125 |", 4)]
for line, bits in mem_rows:
    cells = [c.strip() for c in line.strip("|").split("|")][1:]
    vals = [bits, Fraction(N12 * bits, 8), Fraction(N12 * bits, 8 * MiB), Fraction(N48 * bits, 8),
            Fraction(N48 * bits, 8 * GiB), Fraction(bits, 32)]
    for lab, cell, v in zip(["bits", "12 層 bytes", "MiB", "48 層 bytes", "GiB", "比"], cells, vals):
        check(line, cell, v, f"例 5.2 {bits} ビット {lab}")
kv = 2 * 2 * 12 * 1024 * 768 / MiB       # fp16 の KV キャッシュ（推論の章の例）
check("文脈長いっぱいの KV キャッシュ 36 MiB の約 6.6 倍です", "36", kv, "KV キャッシュ MiB")
check("文脈長いっぱいの KV キャッシュ 36 MiB の約 6.6 倍です", "6.6", (2 * N12 / MiB) / kv, "float16 重み / KV キャッシュ")
check("int8 にすると 118.7 MiB で、float32 の 4 分の 1 になります", "118.7", N12 / MiB, "12 層 int8 MiB")
check("int8 にすると 118.7 MiB で、float32 の 4 分の 1 になります", "4", Fraction(4 * N12, N12), "float32 / int8")
check("12 層の構成を float16 で持つと 237.4 MiB で", "237.4", 2 * N12 / MiB, "12 層 float16 MiB")

# ---------------------------------------------------------------- 演習
e, m, b = 3, 4, bias(3)
ctx = "$b = 2^{2} - 1 = 3$ です。<Ref to=\"prop-float-constants\" /> より、$\\varepsilon = 2^{-4} = 0.0625$、$x_{\\max} = (2 - 2^{-4})\\,2^{3} = 15.5$、$x_{\\min} = 2^{1-3} = 0.25$、非正規数の最小値は $2^{1-3-4} = 2^{-6} = 0.015625$ です。"
SPEC["E3M4"] = (3, 4)
vals34 = positive_values("E3M4")
check(ctx, "3", b, "E3M4 b")
check(ctx, "0.0625", min(v for v, _, _ in vals34 if v > 1) - 1, "E3M4 eps")
check(ctx, "15.5", vals34[-1][0], "E3M4 x_max")
check(ctx, "0.25", min(v for v, E, _ in vals34 if E >= 1), "E3M4 x_min")
check(ctx, "0.015625", min(v for v, _, _ in vals34 if v > 0), "E3M4 最小の非正規数")
ctx = "$0.1/2^{-6} = 6.4$ を丸めて 6 なので $\\mathrm{fl}(0.1) = 6 \\times 2^{-6} = 0.09375$、相対誤差は $0.00625/0.1 = 0.0625$ です。これは $u = 2^{-5} = 0.03125$ を超えています。"
y34 = fl(x01, "E3M4")
check(ctx, "6.4", x01 * 2**6, "0.1 / 2^-6")
check(ctx, "6", y34 * 2**6, "丸めた整数")
check(ctx, "0.09375", y34, "E3M4 fl(0.1)")
check(ctx, "0.00625", abs(y34 - x01), "E3M4 絶対誤差")
check(ctx, "0.0625", abs(y34 - x01) / x01, "E3M4 相対誤差")
check(ctx, "0.03125", Fraction(1, 2**5), "E3M4 u")
check("3 の絶対誤差の上界 $2^{-b-m} = 2^{-7} = 0.0078125$ しか使えません", "0.0078125", Fraction(1, 2 ** (b + m)), "E3M4 非正規数での上界")

w = [Fraction("0.7"), Fraction("-0.33"), Fraction("0.12"), Fraction("-0.04")]
s4 = max(abs(v) for v in w) / 7
q4 = [rnd(v / s4) for v in w]
ctx = "$s = 0.7/7 = 0.1$ で、$\\boldsymbol{w}/s = (7,\\ -3.3,\\ 1.2,\\ -0.4)$ を丸めると $(7,\\ -3,\\ 1,\\ 0)$、逆量子化すると $(0.7,\\ -0.3,\\ 0.1,\\ 0)$ です。誤差は $(0,\\ 0.03,\\ 0.02,\\ 0.04)$ で、最大値 $0.04$ は <Ref to=\"prop-absmax-error\" /> の上界 $s/2 = 0.05$ 以下です。"
check(ctx, "0.1", s4, "int4 s")
for i, p in enumerate(["7", "-3.3", "1.2", "-0.4"]):
    check(ctx, p, w[i] / s4, f"int4 w_{i+1}/s")
for i, p in enumerate(["7", "-3", "1", "0"]):
    check(ctx, p, q4[i], f"int4 q_{i+1}")
for i, p in enumerate(["0.7", "-0.3", "0.1", "0"]):
    check(ctx, p, s4 * q4[i], f"int4 ŵ_{i+1}")
for i, p in enumerate(["0", "0.03", "0.02", "0.04"]):
    check(ctx, p, abs(s4 * q4[i] - w[i]), f"int4 誤差_{i+1}")
check(ctx, "0.04", max(abs(s4 * q4[i] - w[i]) for i in range(4)), "int4 誤差の最大値")
check(ctx, "0.05", s4 / 2, "int4 s/2")
s8 = max(abs(v) for v in w) / 127
q8 = [rnd(v / s8) for v in w]
ctx = "$s = 0.7/127 \\approx 0.005512$ で、$\\boldsymbol{w}/s \\approx (127,\\ -59.87,\\ 21.77,\\ -7.257)$ を丸めると $(127,\\ -60,\\ 22,\\ -7)$、逆量子化すると $(0.7,\\ -0.3307,\\ 0.1213,\\ -0.03858)$ です。誤差の最大値は第 4 成分の約 $0.001417$ で、上界 $s/2 \\approx 0.002756$ 以下です。"
check(ctx, "0.005512", s8, "int8 s")
for i, p in enumerate(["127", "-59.87", "21.77", "-7.257"]):
    check(ctx, p, w[i] / s8, f"int8 w_{i+1}/s")
for i, p in enumerate(["127", "-60", "22", "-7"]):
    check(ctx, p, q8[i], f"int8 q_{i+1}")
for i, p in enumerate(["0.7", "-0.3307", "0.1213", "-0.03858"]):
    check(ctx, p, s8 * q8[i], f"int8 ŵ_{i+1}")
err8 = [abs(s8 * q8[i] - w[i]) for i in range(4)]
check(ctx, "0.001417", max(err8), "int8 誤差の最大値")
check_true(ctx, err8.index(max(err8)) == 3, "int8 誤差の最大は第 4 成分")
check(ctx, "0.002756", s8 / 2, "int8 s/2")
check("$q_{\\max}$ は $127/7 \\approx 18.1$ 倍になり", "18.1", 127 / 7, "127/7")

ctx = "bfloat16 では $7 \\times 10^{9} \\times 16/8 = 1.4 \\times 10^{10}$ バイト、$1.4 \\times 10^{10}/2^{30} \\approx 13.04$ GiB です。"
check(ctx, "1.4 \\times 10^{10}", 7e9 * 16 / 8, "7e9 bf16 bytes")
check(ctx, "13.04", 7e9 * 16 / 8 / GiB, "7e9 bf16 GiB")
ctx = "int4 では 1 個あたり $4 + 16/128 = 4.125$ ビットなので、$7 \\times 10^{9} \\times 4.125/8 = 3{,}609{,}375{,}000$ バイト、約 3.361 GiB です。比は $4.125/16 \\approx 0.2578$ です。"
check(ctx, "4.125", 4 + Fraction(16, 128), "int4 + スケールのビット")
check(ctx, "3{,}609{,}375{,}000", Fraction(7 * 10**9) * Fraction(33, 8) / 8, "int4 group bytes")
check(ctx, "3.361", 7e9 * 4.125 / 8 / GiB, "int4 group GiB")
check(ctx, "0.2578", 4.125 / 16, "int4 group / bf16")
ctx = "スケールの分は 1 個あたり $0.125$ ビットで、int4 の値そのものの $0.125/4 = 3.125\\%$ にあたります。"
check(ctx, "0.125", Fraction(16, 128), "スケールのビット/個")
check(ctx, "3.125", 100 * Fraction(16, 128) / 4, "スケールの割合 (%)")
check("誤差の上界（各グループの最大値の $1/14$）", "14", 2 * (2 ** (4 - 1) - 1), "int4 の 2 q_max")


# ---------------------------------------------------------------- 6 節の本文（コードの出力の読み方）
check("E4M3 の相対誤差はちょうど $0.015625$ で、4 桁で表示すると 1.562 になります", "0.015625",
      abs(fl(x01, "fp8 E4M3") - x01) / x01, "E4M3 fl(0.1) の相対誤差")
check_true("E4M3 の相対誤差はちょうど $0.015625$ で、4 桁で表示すると 1.562 になります",
           f"{float(abs(fl(x01, 'fp8 E4M3') - x01) / x01):.3e}" == "1.562e-02", "4 桁の表示は 1.562")
ctx = "float16 では $65{,}519$ は $65{,}504$ に、$65{,}520$ は無限大に丸められます。bfloat16 では $257$ は 256 に、$259$（258 と 260 の中点）は仮数部が偶数の 260 に丸められます"
check(ctx, "65{,}504", fl(65519, "float16"), "float16 fl(65519)")
check_true(ctx, 65520 - 65504 == 2**16 - 65520, "65520 は 65504 と 65536 の中点（65536 は仮数部が偶数、範囲外）")
check(ctx, "256", fl(257, "bfloat16"), "bfloat16 fl(257)")
check(ctx, "260", fl(259, "bfloat16"), "bfloat16 fl(259)")
check_true(ctx, (258 + 260) / 2 == 259, "259 は 258 と 260 の中点")
code_src = re.findall(r"```python\n(.*?)```", TEXT, re.S)[0]
n_rand = int(re.search(r"standard_normal\((\d+(?:_\d+)*)\)", code_src).group(1).replace("_", ""))
lo, hi = map(int, re.search(r"uniform\((-?\d+), (-?\d+), ", code_src).groups())
ctx = "$10^{-9}$ から $10^{4}$ 程度の大きさの 10 万個の数"
check(ctx, "-9", lo, "乱数の大きさの下限の指数")
check(ctx, "4", hi, "乱数の大きさの上限の指数")
check(ctx, "10", n_rand / 10**4, "個数（万）")


# ---------------------------------------------------------------- コードの出力
def run_listings():
    blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
    for k, (code, printed) in enumerate(blocks, 1):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(code, f"listing{k}.py", "exec"), {"__name__": "__main__"})
        ok = buf.getvalue() == printed
        results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} listing {k}: output identical to the printed output ({len(printed.splitlines())} lines)")
        if not ok:
            for a, b in zip(buf.getvalue().splitlines(), printed.splitlines()):
                if a != b:
                    print("   run    :", a)
                    print("   printed:", b)
    return len(blocks)


n_listings = run_listings()
n_fail = results.count(False)
print(f"\n{len(results)} checks ({n_listings} listing(s)), {n_fail} failed")
sys.exit(1 if n_fail else 0)

"""mixed_precision.txt の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる。1 つでも見つからなければ終了コード 1 で終わる。
最後に、本文の 2 つのリスティングを実行し、出力が本文の出力と一致することも確かめる。
"""
import math
import os
import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "mixed_precision.txt"), encoding="utf-8").read()
mpmath.mp.dps = 50

checked = 0      # 照合した数値の個数
failures = 0


def check(label, expected, count=1):
    """expected（計算値から組み立てた文字列）が本文にあるかを調べる。count はその中の数値の個数。"""
    global checked, failures
    ok = expected in TEXT
    checked += count
    if not ok:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    """本文の言葉で述べた性質（数値の比較など）を確かめる。"""
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


# ---------- 書式 ----------
def sci(x, sig=4):
    """4 桁なら 4.883 \\times 10^{-4} の形。"""
    m, e = f"{x:.{sig - 1}e}".split("e")
    return f"{m} \\times 10^{{{int(e)}}}"


def sigfig(x, sig=4):
    """有効数字 sig 桁の固定小数点表記（100.0、45.84、0.02378 など）。"""
    x = float(f"{float(x):.{sig}g}")
    d = sig - 1 - math.floor(math.log10(abs(x)))
    return f"{x:.{max(d, 0)}f}"


def cm(n):
    """数式中の 3 桁区切り 65{,}504。"""
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    """本文中の 3 桁区切り 65,504。"""
    return f"{n:,}"


# ---------- 形式と丸め（定義 2.1・2.2）。リスティングとは独立に有理数で計算する ----------
FMT = {"fp32": (24, -126, 127), "fp16": (11, -14, 15), "bf16": (8, -126, 127)}
BITS = {"fp32": (8, 23), "fp16": (5, 10), "bf16": (8, 7)}
INF = float("inf")


def fl(x, fmt):
    """実数 x（Fraction か float か int）を最近接偶数丸めで丸める。戻り値は Fraction か ±inf。"""
    p, emin, emax = fmt
    x = Fraction(x)
    if x == 0:
        return Fraction(0)
    sgn = 1 if x > 0 else -1
    a = abs(x)
    if a >= (2 - Fraction(1, 2 ** p)) * Fraction(2) ** emax:
        return sgn * INF
    # 2^e <= a < 2^(e+1) を整数演算で求める
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    q = Fraction(2) ** (e - p + 1)
    k = a / q
    m = math.floor(k)
    frac = k - m
    if frac > Fraction(1, 2) or (frac == Fraction(1, 2) and m % 2 == 1):
        m += 1
    return sgn * m * q


def xmax(fmt):
    p, emin, emax = fmt
    return (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax


def fl_array(x, fmt):
    """大量の足し算用の丸め（倍精度。2 数の和は倍精度で正確に丸めてから使う）。"""
    p, emin, emax = fmt
    x = float(x)
    if x == 0.0:
        return 0.0
    m, E = math.frexp(x)
    e = max(E - 1, emin)
    q = math.ldexp(1.0, e - p + 1)
    r = round(x / q) * q          # Python の round は同点を偶数に丸める
    if abs(r) >= 2.0 ** (emax + 1):
        return math.copysign(INF, x)
    return r


# ======================= 0〜2 節 =======================
u16, ub16, u32 = Fraction(1, 2 ** 11), Fraction(1, 2 ** 8), Fraction(1, 2 ** 24)
check("要点 fp16 u", f"$u = 2^{{-11}} \\approx {sci(float(u16))}$")
check("要点 bf16 u", f"$u = 2^{{-8}} \\approx {sci(float(ub16))}$")
check("要点 fp16 最大値", f"最大値 {cp(int(xmax(FMT['fp16'])))}")
check("要点 0 になる境目", f"$2^{{-25}} \\approx {sci(2.0 ** -25)}$ 以下の値は 0")
check("要点 停滞の比 2/u", f"重みが更新の {cp(int(2 / u16))} 倍を超えると必ず消える")
check("1 節 fp16 の最小の正の数と最大値", f"約 ${sci(2.0 ** -24)}$ から {cp(int(xmax(FMT['fp16'])))} まで", 2)
digits = {k: FMT[k][0] * math.log10(2) for k in FMT}
check("1 節 有効桁", f"fp16 が約 {digits['fp16']:.3f} 桁、bf16 が約 {digits['bf16']:.3f} 桁", 2)
for k in FMT:   # 定義 2.1：ビット数と p, e_min, e_max の関係
    p, emin, emax = FMT[k]
    kb, fb = BITS[k]
    truth(f"定義 2.1 {k}: p = 仮数のビット + 1 = {fb + 1}, e_max = 2^(k-1) - 1 = {2 ** (kb - 1) - 1}, e_min = 1 - e_max",
          p == fb + 1 and emax == 2 ** (kb - 1) - 1 and emin == 1 - emax and 1 + kb + fb in (16, 32), 3)
check("定義 2.1 fp32", f"$1 + {BITS['fp32'][0]} + {BITS['fp32'][1]}$", 2)
check("定義 2.1 fp16", f"$1 + {BITS['fp16'][0]} + {BITS['fp16'][1]}$", 2)
check("定義 2.1 bf16", f"$1 + {BITS['bf16'][0]} + {BITS['bf16'][1]}$", 2)

# ======================= 3 節 =======================
truth("命題 3.1 の 2：1 の次の元は 1 + 2u（fp16）", fl(1 + u16 + Fraction(1, 2 ** 30), FMT["fp16"]) == 1 + 2 * u16)
for k in FMT:
    p, emin, emax = FMT[k]
    xm = float(xmax(FMT[k]))
    cell_max = cm(int(xm)) if k == "fp16" else f"${sci(xm)}$"
    row = "\t".join([k, "・".join(["1", str(BITS[k][0]), str(BITS[k][1])]), str(p), f"−{-emin}", str(emax),
                     cell_max, f"${sci(2.0 ** emin)}$", f"${sci(2.0 ** (emin - p + 1))}$", f"${sci(2.0 ** -p)}$"])
    check(f"例 3.2 の表 {k} の行", row.replace("65{,}504", "65,504"), 8)
check("例 3.2 有効桁", f"fp32 で約 {digits['fp32']:.3f}、fp16 で約 {digits['fp16']:.3f}、bf16 で約 {digits['bf16']:.3f}", 3)
check("例 3.2 u の比 fp16/fp32", f"$2^{{13}} = {cm(int(u16 / u32))}$ 倍", 1)
check("例 3.2 u の比 bf16/fp16", f"bf16 の $u$ は fp16 のさらに {int(ub16 / u16)} 倍", 1)
ratio = int(xmax(FMT["fp16"]) * 2 ** 14)
check("例 3.2 fp16 の正規数の範囲の比", f"$65{{,}}504 \\times 2^{{14}} = {cm(ratio)} \\approx 2^{{{round(math.log2(ratio))}}}$", 2)
# 例 3.3
f01 = fl(Fraction(1, 10), FMT["fp16"])
b01 = fl(Fraction(1, 10), FMT["bf16"])
check("例 3.3 0.1 の fp16 での間隔", "$2^{-4} \\le 0.1 < 2^{-3}$ で、fp16 での間隔は $2^{-4-10} = 2^{-14}$")
check("例 3.3 0.1 × 2^14", f"$0.1 \\times 2^{{14}} = {float(Fraction(1, 10) * 2 ** 14)}$")
check("例 3.3 fl16(0.1)", f"$\\mathrm{{fl}}(0.1) = {int(f01 * 2 ** 14)} \\times 2^{{-14}} = {float(f01)}$", 2)
check("例 3.3 fl16(0.1) の相対誤差", f"相対誤差は約 ${sci(abs(float((f01 - Fraction(1, 10)) * 10)))}$ で $u$ 以下")
truth("例 3.3 その相対誤差は u 以下", abs(f01 - Fraction(1, 10)) * 10 <= u16)
check("例 3.3 0.1 × 2^11", f"$0.1 \\times 2^{{11}} = {float(Fraction(1, 10) * 2 ** 11)}$")
check("例 3.3 flbf16(0.1)", f"${int(b01 * 2 ** 11)} \\times 2^{{-11}} = {float(b01)}$", 2)
check("例 3.3 flbf16(0.1) の相対誤差", f"相対誤差は約 ${sci(abs(float((b01 - Fraction(1, 10)) * 10)))}$ です")
truth("例 3.3 2048 までの整数は fp16 で表せ、2049 は表せない",
      all(fl(i, FMT["fp16"]) == i for i in range(1, 2049)) and fl(2049, FMT["fp16"]) != 2049)
check("例 3.3 2^11", f"$2^{{11}} = {cm(2 ** 11)}$ までの整数")
check("例 3.3 2049 の丸め", f"2,049 は 2,048（仮数 {cp(2048 // 2)}）と 2,050（仮数 {cp(2050 // 2)}）のちょうど中点なので、偶数の仮数の {cp(int(fl(2049, FMT['fp16'])))} に丸め", 3)
check("例 3.3 bf16 の 257", f"$\\mathrm{{fl}}(257) = {int(fl(257, FMT['bf16']))}$")
thr16 = (2 - Fraction(1, 2 ** 11)) * 2 ** 15
check("例 3.3 fp16 のオーバーフローの境目", f"$(2 - 2^{{-11}})\\,2^{{15}} = {cm(int(thr16))}$")
e12 = mpmath.e ** 12
fb12 = fl(Fraction(str(mpmath.nstr(e12, 40))), FMT["bf16"])
truth("例 3.3 e^12 は fp16 で inf", fl(Fraction(str(mpmath.nstr(e12, 40))), FMT["fp16"]) == INF)
check("例 3.3 e^12", f"$e^{{12}} \\approx {cm(int(e12))}.{int(mpmath.nint((e12 - int(e12)) * 10))}$")
check("例 3.3 bf16(e^12)", f"bf16 では ${cm(int(fb12))}$（相対誤差約 ${sci(float((fb12 - Fraction(str(mpmath.nstr(e12, 40)))) / Fraction(str(mpmath.nstr(e12, 40)))))}$）", 2)
check("例 3.3 log 65520", f"$z \\ge \\log 65{{,}}520 \\approx {float(mpmath.log(65520)):.2f}$")
check("例 3.3 倍精度の境目（命題 3.1［学習］）", f"倍精度の {float(mpmath.log(mpmath.mpf(np.finfo(np.float64).max))):.2f}")
lb = float(mpmath.log((2 - mpmath.mpf(2) ** -8) * mpmath.mpf(2) ** 127))
l32 = float(mpmath.log((2 - mpmath.mpf(2) ** -24) * mpmath.mpf(2) ** 127))
truth(f"例 3.3 bf16 と fp32 の境目 {lb:.4f}, {l32:.4f} はどちらも 88.72", f"{lb:.2f}" == f"{l32:.2f}" == "88.72")
check("例 3.3 88.72", f"境目は約 {lb:.2f} です")

# ======================= 4 節 =======================
check("4 節 fp16 の 0 の境目", f"$2^{{-25}} \\approx {sci(2.0 ** -25)}$、bf16 では $2^{{-134}} \\approx {sci(2.0 ** -134)}$", 2)
truth("命題 4.1 fp16: 2^-25 は 0、少し上は 2^-24", fl(Fraction(1, 2 ** 25), FMT["fp16"]) == 0
      and fl(Fraction(1, 2 ** 25) * (1 + Fraction(1, 10 ** 9)), FMT["fp16"]) == Fraction(1, 2 ** 24))
truth("4 節 2.9e-8 は 0", fl(Fraction("2.9e-8"), FMT["fp16"]) == 0)
r3 = fl(Fraction("3e-8"), FMT["fp16"])
check("4 節 3e-8 の丸め", f"$3 \\times 10^{{-8}}$ は $2^{{-24}} \\approx {sci(float(r3))}$ に丸められて、相対誤差は約 {sigfig(float((r3 - Fraction('3e-8')) / Fraction('3e-8')) * 100)} %", 2)
truth("4 節 3e-8 は 2^-24 に丸まる", r3 == Fraction(1, 2 ** 24))


def lost(sigma, S, bound):
    return mpmath.erf(mpmath.mpf(bound) / (mpmath.sqrt(2) * S * sigma))


def pct_cell(x):
    x = float(x) * 100
    return f"${sci(x)}$" if x < 0.01 else sigfig(x)


tau, nmin, ovf = mpmath.mpf(2) ** -25, mpmath.mpf(2) ** -14, (2 - mpmath.mpf(2) ** -11) * mpmath.mpf(2) ** 15
for j in range(4, 9):
    sigma = mpmath.mpf(10) ** -j
    cells = [f"$10^{{-{j}}}$"]
    for S in (1, 2 ** 8, 2 ** 16):
        cells += [pct_cell(lost(sigma, S, tau)), pct_cell(lost(sigma, S, nmin))]
        truth(f"例 4.3 σ=1e-{j}, S={S}: オーバーフローの確率は 1e-300 未満", 1 - lost(sigma, S, ovf) < mpmath.mpf(10) ** -300, 0)
    check(f"例 4.3 の表 σ = 1e-{j} の行", "\t".join(cells), 6)
check("例 4.3 σ=1e-6 の 0 の割合", f"約 {sigfig(lost(mpmath.mpf(10) ** -6, 1, tau) * 100)} % が 0")
check("例 4.3 2^8", f"$2^{{8}} = {2 ** 8}$ 倍")
r6 = sigfig(lost(mpmath.mpf(10) ** -6, 1, tau) * 100)                      # 本文の 2.378
check("例 4.3 1/256", f"${r6} / 256 \\approx {sigfig(float(r6) / 256)}$", 2)
truth("例 4.3 S を 256 倍すると 0 の割合はほぼ 1/256（σ=1e-6 で比 0.99 以上 1.01 以下）",
      0.99 < float(lost(mpmath.mpf(10) ** -6, 1, tau) / lost(mpmath.mpf(10) ** -6, 256, tau)) / 256 < 1.01)
Ssig = 2 ** 16 * 1e-4
check("例 4.3 Sσ", f"$S\\sigma \\approx {Ssig:.3f}$")
truth(f"例 4.3 65,520 / Sσ = {65520 / Ssig:.1f} は約 1 万倍", round(65520 / Ssig, -4) == 10000)

# ======================= 5 節 =======================
gs = [Fraction(3, 2), Fraction("2e-3"), Fraction("5e-6"), Fraction("4e-8"), Fraction("1e-8")]
labels = ["1.5", "$2 \\times 10^{-3}$", "$5 \\times 10^{-6}$", "$4 \\times 10^{-8}$", "$1 \\times 10^{-8}$"]
rel = {}
for g in gs:
    for k in (0, 10, 16):
        h = fl(g * 2 ** k, FMT["fp16"])
        rel[g, k] = INF if h == INF else abs(float((h / 2 ** k - g) / g))


def cell53(x):
    if x == INF:
        return "$\\infty$（オーバーフロー）"
    if x == 0:
        return "0"
    if x == 1:
        return "1（0 に丸め）"
    return f"${sci(x)}$" if x < 0.01 else sigfig(x)


for g, lab in zip(gs, labels):
    check(f"例 5.3 の表 g = {float(g)} の行", "\t".join([lab] + [cell53(rel[g, k]) for k in (0, 10, 16)]), 3)
truth("例 5.3 2e-3 の行は 3 つとも同じ（命題 5.2 の 2）", rel[gs[1], 0] == rel[gs[1], 10] == rel[gs[1], 16])
truth("例 5.3 S=2^16 の最後の 2 行が等しい（4e-8 = 2^2 × 1e-8）", rel[gs[3], 16] == rel[gs[4], 16] and gs[3] == 4 * gs[4])
check("例 5.3 4e-8 の誤差（%）", f"約 {sigfig(rel[gs[3], 0] * 100)} % の誤差")
check("例 5.3 1e-8 × 2^10", f"$1 \\times 10^{{-8}}$ が ${sci(1e-8 * 2 ** 10)}$ になります")
truth("例 5.3 1.024e-5 は非正規数、誤差は u 超", 1e-8 * 2 ** 10 < 2.0 ** -14 and rel[gs[4], 10] > float(u16))
check("例 5.3 2^-14", f"$2^{{-14}} \\approx {sci(2.0 ** -14)}$ より小さい非正規数")
check("例 5.3 1.5 × 2^16", f"$1.5 \\times 2^{{16}} = {cm(int(1.5 * 2 ** 16))}$")
check("例 5.3 窓の幅", "窓の幅（fp16 では約 $2^{30}$）")


def dynamic(T, k0, G, N=2000, xm=65504):
    S, c, skipped = 2 ** k0, 0, []
    for t in range(1, T + 1):
        if S * G > xm:
            S, c = S // 2 if S >= 2 else S / 2, 0
            skipped.append(t)
        else:
            c += 1
            if c == N:
                S, c = S * 2, 0
    return skipped, S


G = Fraction(1, 20)
Sstar = Fraction(65504) / G
K = math.floor(math.log2(Sstar))
check("例（動的）S*", f"$S^{{*}} = 65{{,}}504 / 0.05 = {cm(int(Sstar))}$")
check("例（動的）K", f"$2^{{{K}}} = {cm(2 ** K)} \\le S^{{*}} < 2^{{{K + 1}}} = {cm(2 ** (K + 1))}$ より $K = {K}$", 3)
t0 = (K - 16 + 1) * 2000 + 1
check("例（動的）最初に飛ばすステップ", f"$({K} - 16 + 1) \\times 2000 + 1 = {cm(t0)}$")
sk16, S16 = dynamic(100000, 16, G)
sk24, S24 = dynamic(100000, 24, G)
n16 = 1 + (100000 - t0) // 2001
check("例（動的）S0=2^16 の回数", f"$1 + \\lfloor (100{{,}}000 - {cm(t0)})/2{{,}}001 \\rfloor = 1 + {(100000 - t0) // 2001} = {n16}$ 回、{100 * n16 / 100000:.3f} %", 3)
truth(f"例（動的）シミュレーション: 最初 {sk16[0]}、間隔 {sk16[1] - sk16[0]}、回数 {len(sk16)}、最後の S = 2^{int(math.log2(S16))}",
      sk16[0] == t0 and sk16[1] - sk16[0] == 2001 and len(sk16) == n16 and S16 == 2 ** K, 3)
first24 = 24 - K
t24 = sk24[first24]
n24 = first24 + 1 + (100000 - t24) // 2001
check("例（動的）S0=2^24", f"最初の {first24} ステップが飛ばされ、その後はステップ {cp(t24)} から 2,001 ステップごとで、合計 ${first24} + 1 + \\lfloor (100{{,}}000 - {cm(t24)})/2{{,}}001 \\rfloor = {n24}$ 回", 4)
truth("例（動的）S0=2^24 のシミュレーション", sk24[:first24] == list(range(1, first24 + 1)) and len(sk24) == n24 and t24 == first24 + 2000 + 1, 2)
check("例（動的）1/2001", f"$1/2001 \\approx {sigfig(100 / 2001)}\\,\\%$")
truth("命題 5.5 の 3：成功するステップの S は (S*/2, S*]", Sstar / 2 < 2 ** K <= Sstar)

# ======================= 6 節 =======================
g16 = 16 * u16 / (1 - 16 * u16)
check("6 節 γ_16", f"$\\gamma_{{16}} = 16u/(1 - 16u) \\approx {sci(float(g16))}$")
truth("6 節 n = 65,536 の (n-1)u は 1 を超える", (65536 - 1) * u16 > 1)
for name, (p, emin, emax) in FMT.items():   # 命題 6.4：1 を足し続けると 2^p で止まる
    s = Fraction(0)
    for i in range(2 ** p + 3 if p <= 11 else 0):
        s = fl(s + 1, FMT[name])
    if p <= 11:
        truth(f"命題 6.4 {name}: 1 を 2^p + 3 回足すと 2^p = {2 ** p}", s == 2 ** p)
check("6 節 止まる値", f"fp16 では $2^{{11}} = {cm(2 ** 11)}$、bf16 では $2^{{8}} = {2 ** 8}$、fp32 では $2^{{24}} = {cm(2 ** 24)}$", 3)
truth("命題 6.4 fp32: 2^24 + 1 は 2^24 に丸まる", fl(2 ** 24 + 1, FMT["fp32"]) == 2 ** 24)
check("6 節 1 を 4,096 回", f"fp16 で 1 を 4,096 回足すと {cp(2 ** 11)} で、誤差は {round(100 * (1 - 2 ** 11 / 4096))} %", 2)

# 例 6.6：listing と同じ乱数列で、独立に実装した丸めで 3 つの和を計算する
rng = np.random.default_rng(0)
_ = rng.standard_normal(100000) * 10.0 ** rng.uniform(-9, 4, 100000)   # リスティングで先に使う乱数


def rsum(x, fmt):
    s = 0.0
    for xi in x:
        s = fl_array(s + xi, fmt)
    return s


def psum(x, fmt):
    if len(x) == 1:
        return float(x[0])
    h = len(x) // 2
    return fl_array(psum(x[:h], fmt) + psum(x[h:], fmt), fmt)


def ksum(x, fmt):
    s = c = 0.0
    for xi in x:
        y = fl_array(xi - c, fmt)
        t = fl_array(s + y, fmt)
        c = fl_array(fl_array(t - s, fmt) - y, fmt)
        s = t
    return s


def cell66(x):
    return f"${sci(x, 3)}$" if x < 0.01 else sigfig(x, 3)


errs66 = {}
for n in (1024, 4096, 16384, 65536):
    v = [fl_array(float(z), FMT["fp16"]) for z in rng.uniform(0, 1, n)]
    exact = sum(Fraction(z) for z in v)
    truth(f"例 6.6 n={n}: 入力は 2^-24 の倍数で和は 2^17 未満", all((Fraction(z) * 2 ** 24).denominator == 1 for z in v) and exact < 2 ** 17, 0)
    errs = [abs(Fraction(f(v, FMT[k])) - exact) / exact for k in ("fp16", "bf16") for f in (rsum, psum, ksum)]
    errs66[n] = [float(e) for e in errs]
    row = "\t".join([cp(n), f"{float(exact):,.2f}"] + [cell66(float(e)) for e in errs])
    check(f"例 6.6 の表 n = {n} の行", row, 8)
    if n == 65536:
        g16b = 16 * ub16 / (1 - 16 * ub16)
        truth("命題 6.3 の 2：ペアごとの和は γ_16 以下（fp16, bf16）", errs[1] <= g16 and errs[4] <= g16b)
truth("例 6.6 fp16 逐次和は n >= 16,384 で 75 % を超える", errs66[16384][0] > 0.75 and errs66[65536][0] > 0.75)
check("例 6.6 n=1,024 の bf16 逐次和は約半分", "$n = 1{,}024$ ですでに約半分を失っています")
truth("例 6.6 約半分 = 0.502", abs(errs66[1024][3] - 0.5) < 0.01)
truth("例 6.6 ペアごと・補償和は u 未満",
      all(max(e[1], e[2]) < float(u16) and max(e[4], e[5]) < float(ub16) for e in errs66.values()), 16)
check("例 6.6 u の値", f"fp16 で約 ${sci(float(u16))}$、bf16 で約 ${sci(float(ub16))}$", 2)
check("6 節 bf16 の u^2", f"bf16 では $u^2 = 2^{{{int(math.log2(ub16 ** 2))}}}$")


def kahan_trace(xs, fmt):
    s = c = Fraction(0)
    out = []
    for x in xs:
        y = fl(x - c, fmt)
        t = fl(s + y, fmt)
        c = fl(fl(t - s, fmt) - y, fmt)
        s = t
        out.append((int(y), int(t), int(c)))
    return out, s


# 命題 6.5 を fp16 の乱数の組で確かめる（|a| >= |b| なら a + b = t - c）
rng2 = np.random.default_rng(1)
okfast = True
for _ in range(2000):
    a, b = (fl(Fraction(float(z)), FMT["fp16"]) for z in rng2.standard_normal(2) * 10.0 ** rng2.uniform(-3, 3, 2))
    if abs(a) < abs(b):
        a, b = b, a
    t = fl(a + b, FMT["fp16"])
    z = fl(t - a, FMT["fp16"])
    c = fl(z - b, FMT["fp16"])
    okfast &= (z == t - a) and (c == (t - a) - b) and (a + b == t - c)
truth("命題 6.5 を fp16 の 2,000 組で確認", okfast)

# ======================= 7 節 =======================
for name, fmt in FMT.items():
    p = fmt[0]
    truth(f"7 節 {name}: 2/u = {2 ** (p + 1)}, 1/u = {2 ** p}", True, 0)
check("7 節 比", f"fp16 ではこの 2 つの比は {cp(2 ** 12)} と {cp(2 ** 11)}、bf16 では {2 ** 9} と {2 ** 8}、fp32 では {cp(2 ** 25)} と {cp(2 ** 24)}", 6)
check("7 節 0.02 / 1e-7", f"$0.02 / 10^{{-7}} = {cm(round(0.02 / 1e-7))}$")
w002 = fl(Fraction("0.02"), FMT["fp32"])
truth("7 節 fp16 と bf16 では消え、fp32 では反映される（命題 7.1）",
      all(fl(fl(Fraction("0.02"), FMT[k]) + Fraction("1e-7"), FMT[k]) == fl(Fraction("0.02"), FMT[k]) for k in ("fp16", "bf16"))
      and fl(w002 + Fraction("1e-7"), FMT["fp32"]) != w002
      and 2 ** 12 < 200000 < 2 ** 24)
check("定義 7.2 閾値", "fp16 の $2^{-12}|w|$ から fp32 の $2^{-25}|w|$")

deltas = [Fraction("1e-4"), Fraction("1e-5"), Fraction("1e-6"), Fraction("1e-7"), Fraction("1e-8")]
final = {}
for name, fk, comp in (("fp16", "fp16", 0), ("bf16", "bf16", 0), ("fp32", "fp32", 0), ("fp16+K", "fp16", 1), ("bf16+K", "bf16", 1)):
    fmt = FMT[fk]
    vals = []
    for dl in deltas:
        d = fl(-dl, fmt)
        w, c = Fraction(1), Fraction(0)
        for _ in range(1000):
            if comp:
                y = fl(d - c, fmt)
                t = fl(w + y, fmt)
                w, c = t, fl(fl(t - w, fmt) - y, fmt)
            else:
                w = fl(w + d, fmt)
        vals.append(w)
    final[name] = vals
exacts = [1 - 1000 * dl for dl in deltas]
for i, j in enumerate(range(4, 9)):
    row = "\t".join([f"$10^{{-{j}}}$", f"{float(exacts[i]):.6f}"] + [f"{float(final[nm][i]):.6f}" for nm in ("fp16", "bf16", "fp32", "fp16+K", "bf16+K")])
    check(f"例 7.3 の表 Δ = 1e-{j} の行", row, 6)
check("例 7.3 閾値", f"fp16 で $2^{{-12}} \\approx {sci(2.0 ** -12)}$、bf16 で $2^{{-9}} \\approx {sci(2.0 ** -9)}$、fp32 で $2^{{-25}} \\approx {sci(2.0 ** -25)}$", 3)
truth("例 7.3 表の Δ はすべて fp16・bf16 の閾値未満、1e-8 は fp32 の閾値未満",
      all(dl < Fraction(1, 2 ** 12) for dl in deltas) and deltas[-1] < Fraction(1, 2 ** 25) < deltas[-2])
check("例 7.3 fp32 の間隔", f"$2^{{-24}} \\approx {sci(2.0 ** -24)}$ で、$10^{{-7}}$ はその約 {1e-7 / 2.0 ** -24:.3f} 倍", 2)
check("例 7.3 2^-23", f"$2^{{-23}} \\approx {sci(2.0 ** -23)}$ だけ動き、$1 - 1000 \\times 2^{{-23}} \\approx {1 - 1000 * 2.0 ** -23:.6f}$", 2)
truth("例 7.3 fp32 の 1 ステップ目は 2^-23 だけ動く", fl(1 - fl(Fraction("1e-7"), FMT["fp32"]), FMT["fp32"]) == 1 - Fraction(1, 2 ** 23))
spacing = {"fp16+K": Fraction(1, 2 ** 11), "bf16+K": Fraction(1, 2 ** 8)}
truth("例 7.3 補償つきの列は正確な値から間隔 1 つ分以内",
      all(abs(final[nm][i] - exacts[i]) <= spacing[nm] for nm in spacing for i in range(5)), 10)
check("例 7.3 bf16 の間隔", f"$2^{{-8}} \\approx {float(Fraction(1, 256)):.6f}$ で、{float(final['bf16+K'][0]):.6f} は 0.9 の隣の bf16 の元", 2)
truth("例 7.3 0.902344 は 0.9 の隣", fl(Fraction("0.9"), FMT["bf16"]) + Fraction(1, 256) == final["bf16+K"][0]
      or fl(Fraction("0.9"), FMT["bf16"]) - Fraction(1, 256) == final["bf16+K"][0])

# 注意 7.4
V, d, L, Lctx = 50257, 768, 12, 1024                 # 例 5.3［Transformer ブロック］の構成
P = V * d + Lctx * d + L * (12 * d * d + 13 * d) + 2 * d
truth(f"注意 7.4 パラメータ数 {P:,}（定理 5.1［Transformer ブロック］の式）", P == 124439808, 0)
b32, bmix = 4 + 4 + 8, 2 + 2 + 4 + 8
truth(f"注意 7.4 1 パラメータあたり fp32 {b32}、混合精度 {bmix}", b32 == bmix == 16, 2)
check("注意 7.4 fp32", "重み 4・勾配 4・Adam の $\\boldsymbol{m}$ と $\\boldsymbol{v}$ が 8 の計 16", 4)
check("注意 7.4 混合精度", "fp16 の重み 2・fp16 の勾配 2・マスター重み 4・$\\boldsymbol{m}$ と $\\boldsymbol{v}$ が 8 の計 16", 5)
check("注意 7.4 合計バイト", f"$16 \\times {cm(P)} = {cm(16 * P)}$ バイト", 2)
check("9 節 10 億パラメータ", f"$16 \\times 10^{{9}}$ バイトです。これは fp16 の重みそのもの（$2 \\times 10^{{9}}$ バイト）の {16 // 2} 倍", 3)

# ======================= 演習 =======================
w3 = Fraction(3)
check("演習 10.1 閾値", f"$\\frac{{u}}{{2}}\\cdot 3 = 3 \\times 2^{{-12}} \\approx {sci(float(3 * u16 / 2))}$、$u \\cdot 3 = 3 \\times 2^{{-11}} \\approx {sci(float(3 * u16))}$", 2)
check("演習 10.1 間隔", f"$2^{{1-10}} = 2^{{-9}} \\approx {sci(2.0 ** -9)}$")
check("演習 10.1 中点", f"$2^{{-10}} \\approx {sci(2.0 ** -10)}$ で、中点では $3 = {int(3 * 2 ** 9)} \\times 2^{{-9}}$ の仮数 {cp(3 * 2 ** 9)}", 3)
h = Fraction(1, 2 ** 10)
truth("演習 10.1 fl(3 + Δ) = 3 ⟺ |Δ| ≤ 2^-10",
      fl(w3 + h, FMT["fp16"]) == 3 and fl(w3 - h, FMT["fp16"]) == 3
      and fl(w3 + h * (1 + Fraction(1, 10 ** 6)), FMT["fp16"]) != 3 and fl(w3 - h * (1 + Fraction(1, 10 ** 6)), FMT["fp16"]) != 3
      and 3 * u16 / 2 < h < 3 * u16, 2)
trace, s_k = kahan_trace([2048, 1, 1, 1, 1], FMT["fp16"])
s_r = Fraction(0)
for x in [2048, 1, 1, 1, 1]:
    s_r = fl(s_r + x, FMT["fp16"])
check("演習 10.2 逐次和", f"が 4 回続くので {cp(int(s_r))} です")
txt = "、".join(f"$i = {i + 1}$ で $({y}, {t}, {c})$" for i, (y, t, c) in enumerate(trace))
check("演習 10.2 補償和の各ステップ", "補償和の $(y, t, c)$ は、" + txt.replace("(2048, 2048, 0)", "(2048, 2048, 0)") + " です", 15)
check("演習 10.2 結果", f"結果の {cp(int(s_k))} は正確な和です")
truth("演習 10.2 正確な和", s_k == 2052)

check("8 節 倍精度の精度", f"倍精度の精度 {np.finfo(np.float64).nmant + 1} は $2 \\times 24 + 2 = {2 * 24 + 2}$ 以上", 2)
truth("8 節 53 >= 2p + 2（p = 24）", np.finfo(np.float64).nmant + 1 >= 2 * 24 + 2, 0)

# ======================= リスティングの実行 =======================


def printed_output(code_file):
    """本文で、code_file の内容の直後に置かれた出力の行を取り出す。"""
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    block = rest.split("\n\n")[0]
    return code, block


for f in ("lowprec.py", "loss_scaling.py"):
    code, block = printed_output(f)
    run = subprocess.run([sys.executable, f], cwd=HERE, capture_output=True, text=True)
    same = code is not None and run.returncode == 0 and run.stdout.rstrip("\n") == block
    nlines = len(run.stdout.strip("\n").splitlines())
    truth(f"リスティング {f}：本文のコードと同一で、実行結果が本文の出力 {nlines} 行と一致", same, 0)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

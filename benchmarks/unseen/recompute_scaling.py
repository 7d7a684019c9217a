#!/usr/bin/env python3
"""scaling.txt の数値を定義から計算し直し、印字された値と照合する。

各数値は (印字された文字列, 計算した値, 文脈) の組で照合する。文脈は章の本文に
そのまま現れる文字列で、印字された文字列を含む。値は印字された桁数に丸めて比べる。
表は、計算した値から行を組み立て、その行が本文にあることを確かめる。
最後に 7 節のコードを本文から取り出して実行し、出力が本文の出力と一致するか調べる。
1 つでも食い違えば終了コード 1 で終わる。
"""
import contextlib
import io
import math
import re
import sys
from pathlib import Path

import numpy as np
import sympy as sp

HERE = Path(__file__).resolve().parent
TEXT = (HERE / "scaling.txt").read_text(encoding="utf-8")

n_checked = 0
failures = []


def _norm(s):
    return s.replace("{,}", "").replace(",", "").replace("−", "-").replace(" ", "")


def _format_like(printed, value):
    """value を printed と同じ形（小数の桁数・有効数字・指数）に整形する。"""
    p = _norm(printed)
    m = re.fullmatch(r"(-?[0-9.]+)\\times10\^\{(-?\d+)\}", p)
    if m:                                              # 3.249 \times 10^{10}
        mant, exp = m.group(1), int(m.group(2))
        nd = len(mant.split(".")[1]) if "." in mant else 0
        s = f"{value:.{nd}e}"
        vm, ve = s.split("e")
        return f"{vm}\\times10^{{{int(ve)}}}", f"{mant}\\times10^{{{exp}}}"
    if "." in p:
        nd = len(p.split(".")[1])
        return f"{value:.{nd}f}", p
    return str(int(round(value))), p


def check(printed, value, ctx=None, label=""):
    """printed が value を印字どおりの桁数で表しているか、また本文にあるかを調べる。"""
    global n_checked
    n_checked += 1
    where = ctx if ctx is not None else printed
    ok_text = (where in TEXT) and (printed in where)
    got, want = _format_like(printed, float(value))
    ok = ok_text and got == want
    status = "ok  " if ok else "FAIL"
    note = "" if ok_text else "  (not found in text)"
    print(f"{status} {label or where[:50]:52s} printed {printed:>22s}  computed {got}{note}")
    if not ok:
        failures.append((label or where, printed, got))


def check_row(row, n_numbers, label):
    """表の 1 行（計算した値から組み立てたもの）が本文にあるかを調べる。"""
    global n_checked
    n_checked += n_numbers
    ok = row in TEXT.splitlines()
    print(f"{'ok  ' if ok else 'FAIL'} table row {label:40s} ({n_numbers} numbers)  {row.replace(chr(9), ' | ')}")
    if not ok:
        failures.append(("table row " + label, row, ""))


def tex_sci(v, sig):
    m, e = f"{v:.{sig - 1}e}".split("e")
    return f"${m} \\times 10^{{{int(e)}}}$"


# ---------------------------------------------------------------- 定数と定義
E, A, B, al, be = 1.69, 406.4, 410.7, 0.34, 0.28
G = (al * A / (be * B)) ** (1 / (al + be))
a, b = be / (al + be), al / (al + be)
gam = al * be / (al + be)


def loss(N, D):
    return E + A / N**al + B / D**be


def opt(C):
    N = G * (C / 6) ** a
    return N, C / (6 * N)


def phi(k):
    return (be * (k**-al - 1) + al * (k**be - 1)) / (al + be)


def days(C, K=1024, P=312e12, u=0.4):
    return C / (K * P * u) / 86400


# ---------------------------------------------------------------- 記号の検算
n_, m_, k_ = sp.symbols("n m k", positive=True)
# 命題 3.1: 3 つの積の FLOP の和
assert sp.expand(2 * n_ * m_ * k_ + 2 * m_ * n_ * k_ + 2 * n_ * k_ * m_ - 6 * n_ * (m_ * k_)) == 0
# 命題 4.1: f'(N*) = 0
Ns, Cs, As, Bs, als, bes = sp.symbols("N C A B alpha beta", positive=True)
f = As * Ns**-als + Bs * (6 * Ns / Cs) ** bes
Nstar = (als * As / (bes * Bs)) ** (1 / (als + bes)) * (Cs / 6) ** (bes / (als + bes))
val = sp.diff(f, Ns).subs({als: sp.Rational(34, 100), bes: sp.Rational(28, 100), As: sp.Rational(4064, 10),
                          Bs: sp.Rational(4107, 10)})
for Cv in (10**21, 10**24):
    num = val.subs(Cs, Cv).subs(Ns, Nstar.subs({als: sp.Rational(34, 100), bes: sp.Rational(28, 100),
                                               As: sp.Rational(4064, 10), Bs: sp.Rational(4107, 10), Cs: Cv}))
    assert abs(sp.N(num, 40)) < 1e-30, num
# 命題 4.6: 展開の係数
u = sp.symbols("u")
ser = sp.series((bes * (sp.exp(-als * u) - 1) + als * (sp.exp(bes * u) - 1)) / (als + bes), u, 0, 4).removeO()
assert sp.simplify(ser - (als * bes / 2 * u**2 + als * bes * (bes - als) / 6 * u**3)) == 0
# 命題 4.2 の 3: 乗数と dL_opt/dC
Lopt = lambda C: loss(*opt(C))
C0 = 5.88e23
h = 1e-6
slope = (Lopt(C0 * math.exp(h)) - Lopt(C0 * math.exp(-h))) / (2 * h) / C0
lam = -al * A * opt(C0)[0] ** -al / C0
assert abs(slope / lam - 1) < 1e-6
print("symbolic checks: ok (prop 3.1 sum, prop 4.1 stationarity, prop 4.6 series, prop 4.2 multiplier)")

# ---------------------------------------------------------------- 要点
check("1.12 \\times 10^{12}", 16 * 70e9, "700 億パラメータなら $1.12 \\times 10^{12}$ バイト")
check("1,043", 16 * 70e9 / 2**30, "約 1,043 GiB になります")
check("16", 2 + 2 + 4 + 4 + 4, "1 パラメータあたり 16 バイトです（命題 6.1）")

# ---------------------------------------------------------------- 2 節
check("5.419", math.exp(E), "$e^{1.69} \\approx 5.419$")

# ---------------------------------------------------------------- 例 3.3
V, d, Lyr, ctx = 50257, 768, 12, 1024
per_layer = 12 * d * d + 13 * d
total_params = V * d + ctx * d + Lyr * per_layer + 2 * d
blk = Lyr * 12 * d * d
outm = V * d
nmat = blk + outm
check("124,439,808", total_params, "文脈長 1,024、パラメータ数 124,439,808）")
check("7{,}077{,}888", 12 * d * d, "$12d^2 = 12 \\times 768^2 = 7{,}077{,}888$")
check("84{,}934{,}656", blk, "12 層では $84{,}934{,}656$ 個")
check("38{,}597{,}376", outm, "$50{,}257 \\times 768 = 38{,}597{,}376$")
check("123{,}532{,}032", nmat, "$84{,}934{,}656 + 38{,}597{,}376 = 123{,}532{,}032$")
check("907{,}776", total_params - nmat, "124{,}439{,}808 - 123{,}532{,}032 = 907{,}776$")
check("0.9927", nmat / total_params, "$123{,}532{,}032/124{,}439{,}808 \\approx 0.9927$")
check("0.73", 100 * (total_params / nmat - 1), "約 0.73 % 多め")
check("741{,}192{,}192", 6 * nmat, "$6 \\times 123{,}532{,}032 = 741{,}192{,}192$")
check("113{,}246{,}208", Lyr * 12 * 1024 * d, "$12 \\times 12 \\times 1024 \\times 768 = 113{,}246{,}208$")
check("509{,}607{,}936", 6 * blk, "$6 \\times 84{,}934{,}656 = 509{,}607{,}936$")
check("0.2222", Lyr * 12 * 1024 * d / (6 * blk), "の $0.2222$ 倍（$= 1024/(6 \\times 768)$）")
check("0.2222", 1024 / (6 * 768), "の $0.2222$ 倍（$= 1024/(6 \\times 768)$）", "n/(6d)")
check("7.466 \\times 10^{18}", 6 * total_params * 1e10, "\\approx 7.466 \\times 10^{18}$ FLOP")

# ---------------------------------------------------------------- 例 4.3
check("138.176", al * A, "$\\alpha A = 0.34 \\times 406.4 = 138.176$")
check("114.996", be * B, "$\\beta B = 0.28 \\times 410.7 = 114.996$")
check("1.2016", al * A / (be * B), "比は約 $1.2016$ です")
check("0.62", al + be, "$\\alpha + \\beta = 0.62$ なので")
check("1.3447", G, "$G = (138.176/114.996)^{1/0.62} \\approx 1.3447$")
check("1.3447", (138.176 / 114.996) ** (1 / 0.62), "$G = (138.176/114.996)^{1/0.62} \\approx 1.3447$", "G from printed products")
check("0.4516", a, "$a = 0.28/0.62 \\approx 0.4516$")
check("0.5484", b, "$b = 0.34/0.62 \\approx 0.5484$")
check("0.1535", gam, "$\\gamma = 0.34 \\times 0.28/0.62 \\approx 0.1535$")
KG = (al + be) / be * A * G**-al
check("813.7", KG, "\\times 406.4 \\times G^{-0.34} \\approx 813.7$")
N0, D0 = opt(C0)
R0 = loss(N0, D0) - E
check("813.7", KG, "$L_{\\mathrm{opt}}(C) \\approx 1.69 + 813.7\\,(C/6)^{-0.1535}$", "L_opt closed form coefficient")
assert abs(E + KG * (C0 / 6) ** -gam - loss(N0, D0)) < 1e-12
check("9.8 \\times 10^{22}", C0 / 6, "$C/6 = 9.8 \\times 10^{22}$")
check("5.88 \\times 10^{23}", 6 * 70e9 * 1.4e12, "$C = 5.88 \\times 10^{23}$ とします（700 億パラメータ・1.4 兆トークンの $6ND$）")
check("3.249 \\times 10^{10}", N0, "(9.8 \\times 10^{22})^{a} \\approx 3.249 \\times 10^{10}")
check("3.249 \\times 10^{10}", G * (9.8e22) ** a,
      "$N_{\\mathrm{opt}} = G\\,(9.8 \\times 10^{22})^{a} \\approx 3.249 \\times 10^{10}", "N_opt = G (C/6)^a")
check("3.016 \\times 10^{12}", D0, "{3.249 \\times 10^{10}} \\approx 3.016 \\times 10^{12}")
check("3.016 \\times 10^{12}", 9.8e22 / 3.249e10, "{3.249 \\times 10^{10}} \\approx 3.016 \\times 10^{12}", "D_opt from rounded N")
check("0.1084", A / N0**al, "$406.4/N_{\\mathrm{opt}}^{0.34} \\approx 0.1084$")
check("0.1316", B / D0**be, "$410.7/D_{\\mathrm{opt}}^{0.28} \\approx 0.1316$")
check("1.2143", (B / D0**be) / (A / N0**al), "$\\alpha/\\beta = 0.34/0.28 \\approx 1.2143$", "data/model term ratio")
check("1.2143", al / be, "$\\alpha/\\beta = 0.34/0.28 \\approx 1.2143$", "alpha/beta")
check("1.9300", loss(N0, D0), "$1.69 + 0.1084 + 0.1316 = 1.9300$")
check("1.9300", 1.69 + 0.1084 + 0.1316, "$1.69 + 0.1084 + 0.1316 = 1.9300$", "sum of rounded terms")
check("6.889", math.exp(loss(N0, D0)), "パープレキシティ約 6.889")
check("0.2400", R0, "可約な損失は $R = 0.2400$ です")
check("-0.1535", -gam, "$C\\,dL_{\\mathrm{opt}}/dC \\approx -0.1535 \\times 0.2400 \\approx -0.0368$", "-gamma")
check("-0.0368", -gam * R0, "\\approx -0.1535 \\times 0.2400 \\approx -0.0368$")
check("-0.0368", -0.1535 * 0.2400, "\\approx -0.1535 \\times 0.2400 \\approx -0.0368$", "from rounded factors")
check("-6.267 \\times 10^{-26}", -gam * R0 / C0, "$\\lambda = -\\gamma R/C \\approx -6.267 \\times 10^{-26}$")

# ---------------------------------------------------------------- 例 4.4 の表
for Cv, ctex in ((1e21, "$10^{21}$"), (1e22, "$10^{22}$"), (1e23, "$10^{23}$"), (5.88e23, "$5.88 \\times 10^{23}$"),
                 (1e24, "$10^{24}$"), (1e25, "$10^{25}$")):
    N, D = opt(Cv)
    row = "\t".join([ctex, tex_sci(N, 4), tex_sci(D, 4), f"{D / N:.2f}", f"{loss(N, D):.4f}", f"{days(Cv):.2f}"])
    check_row(row, 5, f"ex 4.4 C={Cv:.2e}")
check("2.829", 10**a, "$10^{a} \\approx 2.829$")
check("3.535", 10**b, "$10^{b} \\approx 3.535$")
check("0.7022", 10**-gam, "$10^{-\\gamma} \\approx 0.7022$")
check("0.3150", loss(*opt(1e23)) - E, "$10^{23}$ の $0.3150$ から")
check("0.2212", loss(*opt(1e24)) - E, "$10^{24}$ の $0.2212$ へ")
check("91.3", 2 ** (1 / gam), "$2^{1/\\gamma} \\approx 91.3$")

# ---------------------------------------------------------------- 命題 4.5 のあと
check("0.5530", G**-2, "$G^{-2} \\approx 0.5530$")
check("0.06", al - be, "指数は $0.06/0.62 \\approx 0.0968$", "alpha - beta")
check("0.0968", (al - be) / (al + be), "指数は $0.06/0.62 \\approx 0.0968$")
check("1.2496", 10 ** ((al - be) / (al + be)), "$10^{(\\alpha-\\beta)/(\\alpha+\\beta)} \\approx 1.2496$")
check("1.25", opt(1e22)[1] / opt(1e22)[0] / (opt(1e21)[1] / opt(1e21)[0]), "10 倍違う行どうしを比べると約 1.25 倍")
check("20", 1.4e12 / 70e9, "1 パラメータあたり 20 トークンです")
check("120", 6 * 20, "$N = \\sqrt{5.88 \\times 10^{23}/120}", "6 rho")
check("4.9 \\times 10^{21}", 5.88e23 / 120, "\\sqrt{4.9 \\times 10^{21}} = 7 \\times 10^{10}$")
check("7 \\times 10^{10}", math.sqrt(5.88e23 / 120), "\\sqrt{4.9 \\times 10^{21}} = 7 \\times 10^{10}$")
check("1.4 \\times 10^{12}", 20 * math.sqrt(5.88e23 / 120), "$D = 20N = 1.4 \\times 10^{12}$")
check("92.83", D0 / N0, "出る $r \\approx 92.83$ とは 4 倍以上違います")
check("4", math.floor(D0 / N0 / 20), "とは 4 倍以上違います", "ratio 92.83/20 >= 4")

# ---------------------------------------------------------------- 例 4.7
check("0.0476", al * be / 2, "$0.34 \\times 0.28/2 = 0.0476$")
check("0.2400", R0, "（$R = 0.2400$）での損失の増加")
for k, ktex in ((0.25, "1/4"), (0.5, "1/2"), (1.0, "1"), (2.0, "2"), (4.0, "4")):
    if k == 1.0:
        row = "1\t0\t0\t0\t0"
        assert phi(1.0) == 0.0
    else:
        lk = f"{math.log(k):.4f}".replace("-", "−")
        row = "\t".join([ktex, lk, f"{phi(k):.4f}", f"{al * be / 2 * math.log(k) ** 2:.4f}", f"{R0 * phi(k):.4f}"])
        exact = (loss(k * N0, D0 / k) - loss(N0, D0)) / R0
        assert abs(exact - phi(k)) < 1e-12
    check_row(row, 4, f"ex 4.7 k={ktex}")
check("0.0229", al * be / 2 * math.log(2) ** 2, "2 次の近似は同じ 0.0229 ですが")
check("0.0233", phi(0.5), "実際の値は 0.0233 と 0.0226 で")
check("0.0226", phi(2.0), "実際の値は 0.0233 と 0.0226 で")
Lc = loss(70e9, 1.4e12)
check("1.9366", Lc, "の損失はこの式の上で 1.9366 で")
check("1.9300", loss(N0, D0), "同じ計算量の最適値 1.9300 との差")
check("0.01", 0.01 if Lc - loss(N0, D0) < 0.01 else 1.0, "差は 0.01 未満（約 0.007）", "gap < 0.01")
check("0.007", Lc - loss(N0, D0), "差は 0.01 未満（約 0.007）")
kc = 70e9 / N0
check("2.154", kc, "\\approx 2.154$ で")
check("0.0277", phi(kc), "$\\phi(k) \\approx 0.0277$、つまり")
check("2.8", 100 * phi(kc), "可約な損失の約 2.8 % です")
check("0.01", 0.01 if Lc - loss(N0, D0) < 0.01 else 1.0, "損失では 0.01 も違いません", "gap < 0.01 (again)")
C3 = 6 * 175e9 * 300e9
N3, D3 = opt(C3)
L3 = loss(175e9, 300e9)
check("1.714", 300e9 / 175e9, "（$D/N \\approx 1.714$）")
check("3.15 \\times 10^{23}", C3, "3 \\times 10^{11} = 3.15 \\times 10^{23}$")
check("2.0023", L3, "損失は 2.0023 です")
check("0.2511", B / 300e9**be, "データの項 0.2511 がモデルの項 0.0611")
check("0.0611", A / 175e9**al, "データの項 0.2511 がモデルの項 0.0611")
check("4.11", (B / 300e9**be) / (A / 175e9**al), "の約 4.11 倍")
check("2.451 \\times 10^{10}", N3, "$N_{\\mathrm{opt}} \\approx 2.451 \\times 10^{10}$")
check("2.142 \\times 10^{12}", D3, "$D_{\\mathrm{opt}} \\approx 2.142 \\times 10^{12}$")
check("1.9541", loss(N3, D3), "損失は $1.9541$ です")
check("7.140", 175e9 / N3, "$k \\approx 7.140$ で")
check("0.1823", phi(175e9 / N3), "$\\phi(k) \\approx 0.1823$")
check("0.0482", L3 - loss(N3, D3), "差は約 0.0482 で")
check("92.83", D0 / N0, "上で見た $r \\approx 92.83$ と 20 の食い違い", "remark 4.8")

# ---------------------------------------------------------------- 例 5.3
KPu = 1024 * 312e12 * 0.4
check("1.277952 \\times 10^{17}", KPu, "\\times 0.4 = 1.277952 \\times 10^{17}$ FLOP/s")
check("86,400", 24 * 3600, "1 日（86,400 秒）")
check("1.104 \\times 10^{22}", KPu * 86400, "約 $1.104 \\times 10^{22}$ FLOP です")
check("304{,}274", KPu / (6 * 70e9), "\\approx 304{,}274$ トークン毎秒")
check("297.1", KPu / (6 * 70e9) / 1024, "1 台あたり約 297.1 トークン毎秒")
check("4.601 \\times 10^{6}", C0 / KPu, "\\approx 4.601 \\times 10^{6}$ 秒")
check("53.25", days(C0), "秒、約 53.25 日です")
check("42.60", days(C0, u=0.5), "約 42.60 日になります")

# ---------------------------------------------------------------- 命題 6.1 と 例 6.2
check("16", 4 * 4, "(4 + 4 + 4 + 4)N = 16N$", "fp32 bytes")
check("1{,}073{,}741{,}824", 2**30, "$2^{30} = 1{,}073{,}741{,}824$")
Nm = 70e9
rows = [("パラメータ", "bf16", 2), ("勾配", "bf16", 2), ("主コピー", "fp32", 4),
        ("Adam の $\\boldsymbol{m}$", "fp32", 4), ("Adam の $\\boldsymbol{v}$", "fp32", 4)]
total_b = sum(r[2] for r in rows)


def pct(x):
    s = f"{x:.1f}"
    return (s[:-2] if s.endswith(".0") else s) + " %"


for name, prec, bpp in rows:
    row = "\t".join([name, prec, str(bpp), tex_sci(bpp * Nm, 2), f"{bpp * Nm / 2**30:.2f}", pct(100 * bpp / total_b)])
    check_row(row, 4, f"ex 6.2 {name}")
row = "\t".join(["合計", "", str(total_b), tex_sci(total_b * Nm, 3), f"{total_b * Nm / 2**30:.2f}",
                 pct(100 * sum(r[2] for r in rows) / total_b)])
check_row(row, 4, "ex 6.2 total")
check("13.04", total_b * Nm / 2**30 / 80, "$1043.08/80 \\approx 13.04$")
check("14", math.ceil(total_b * Nm / 2**30 / 80), "均等に分けても 14 台が要ります")
check("12", 4 + 4 + 4, "主コピーと $\\boldsymbol{m}, \\boldsymbol{v}$ の 12 バイト）", "optimizer bytes")
check("75", 100 * 12 / total_b, "全体の 75 % を占める")
check("1.019", total_b * Nm / 2**30 / 1024, "$1043.08/1024 \\approx 1.019$ GiB")

# ---------------------------------------------------------------- 演習
check("1.3676", 2**a, "$2^{a} \\approx 1.3676$")
check("1.4624", 2**b, "$2^{b} \\approx 1.4624$")
check("0.8990", 2**-gam, "$2^{-\\gamma} \\approx 0.8990$")
check("1.0694", 2 ** ((al - be) / (al + be)), "$2^{(\\alpha-\\beta)/(\\alpha+\\beta)} \\approx 1.0694$")
N7 = 7e9
check("1.12 \\times 10^{11}", 16 * N7, "$16 \\times 7 \\times 10^{9} = 1.12 \\times 10^{11}$")
check("104.31", 16 * N7 / 2**30, "\\approx 104.31$ GiB")
check("5.5", 2 + 2 + 12 / 8, "$2 + 2 + 12/8 = 5.5$")
check("3.85 \\times 10^{10}", 5.5 * N7, "$5.5 \\times 7 \\times 10^{9} = 3.85 \\times 10^{10}$")
check("35.86", 5.5 * N7 / 2**30, "約 35.86 GiB です")
check("26.08", 4 * N7 / 2**30, "（約 26.08 GiB）")
D9 = 20 * N7
C9 = 6 * N7 * D9
KPu9 = 64 * 312e12 * 0.45
check("1.4 \\times 10^{11}", D9, "$D = 20 \\times 7 \\times 10^{9} = 1.4 \\times 10^{11}$")
check("5.88 \\times 10^{21}", C9, "\\times 1.4 \\times 10^{11} = 5.88 \\times 10^{21}$")
check("8.9856 \\times 10^{15}", KPu9, "\\times 0.45 = 8.9856 \\times 10^{15}$ FLOP/s")
check("654{,}380", C9 / KPu9, "\\approx 654{,}380$ 秒")
check("7.574", C9 / KPu9 / 86400, "約 7.574 日です")
N9, D9o = opt(C9)
check("9.8 \\times 10^{20}", C9 / 6, "$N_{\\mathrm{opt}} = G\\,(9.8 \\times 10^{20})^{a}")
check("4.060 \\times 10^{9}", G * 9.8e20**a, "(9.8 \\times 10^{20})^{a} \\approx 4.060 \\times 10^{9}$")
check("4.060 \\times 10^{9}", N9, "(9.8 \\times 10^{20})^{a} \\approx 4.060 \\times 10^{9}$", "exr N_opt via opt()")
check("2.414 \\times 10^{11}", D9o, "$D_{\\mathrm{opt}} \\approx 2.414 \\times 10^{11}$")
check("59.45", D9o / N9, "（$r \\approx 59.45$）")
check("2.1767", loss(N9, D9o), "$L_{\\mathrm{opt}} \\approx 2.1767$")
check("2.1835", loss(N7, D9), "1.4 \\times 10^{11}) \\approx 2.1835$")
check("0.0068", loss(N7, D9) - loss(N9, D9o), "差は約 0.0068 です")
check("1.724", N7 / N9, "$k \\approx 1.724$ なので")

# ---------------------------------------------------------------- 印字された数どうしの計算
# 本文に「数^{数} \\approx 数」「数/数 \\approx 数」「数 \\times 数 ... = 数」の形で書いた計算を、
# 印字された入力の値から計算し直し、印字された結果と印字どおりの桁で一致するか調べる。
NUM = r"-?\d+(?:\{,\}\d{3})*(?:\.\d+)?"
for mt in re.finditer(rf"(?<![\w.{{}}^/])(?<!\\times )({NUM})\^\{{({NUM})\}} \\approx ({NUM})(?! \\times)", TEXT):
    base, ex, res = (float(_norm(g)) for g in mt.groups())
    check(mt.group(3), base ** ex, mt.group(0), "power " + mt.group(0)[:40])
for mt in re.finditer(rf"\$({NUM})/({NUM}) \\approx ({NUM})", TEXT):
    x, y = float(_norm(mt.group(1))), float(_norm(mt.group(2)))
    check(mt.group(3), x / y, mt.group(0)[1:], "ratio " + mt.group(0)[1:40])
for mt in re.finditer(rf"\$((?:{NUM} \\times )+{NUM}) = ({NUM})\$", TEXT):
    factors = [float(_norm(x)) for x in mt.group(1).split(" \\times ")]
    check(mt.group(2), math.prod(factors), mt.group(0)[1:-1], "product " + mt.group(0)[1:40])
for mt in re.finditer(rf"\$((?:{NUM} \+ )+{NUM}) = ({NUM})\$", TEXT):
    terms = [float(_norm(x)) for x in mt.group(1).split(" + ")]
    check(mt.group(2), sum(terms), mt.group(0)[1:-1], "sum " + mt.group(0)[1:40])

# ---------------------------------------------------------------- 7 節のコード
lines = TEXT.splitlines()
i0 = next(i for i, s in enumerate(lines) if s.startswith("# Python 3.11.7, NumPy 2.4.6"))
j0 = next(i for i, s in enumerate(lines) if s.startswith("training FLOPs per token per weight:"))
j1 = next(i for i, s in enumerate(lines) if s.startswith("• 1 行目："))
code = "\n".join(lines[i0:j0]).rstrip() + "\n"
printed_out = "\n".join(lines[j0:j1]).rstrip()
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    exec(compile(code, "scaling.py", "exec"), {"__name__": "__main__"})
actual_out = buf.getvalue().rstrip()
same = actual_out == printed_out
n_out_lines = len(printed_out.splitlines())
print(f"{'ok  ' if same else 'FAIL'} listing scaling.py: {n_out_lines} output lines "
      f"{'match exactly' if same else 'DIFFER'}")
if not same:
    for k, (x, y) in enumerate(zip(actual_out.splitlines(), printed_out.splitlines()), 1):
        if x != y:
            print(f"    line {k}: run     {x}\n    line {k}: printed {y}")
    failures.append(("listing output", "", ""))

print(f"\n{n_checked} printed numbers checked, listing output {n_out_lines} lines compared, "
      f"{len(failures)} failures")
sys.exit(1 if failures else 0)

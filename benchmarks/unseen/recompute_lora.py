"""lora.txt の数値をすべて定義から計算し直し、本文に印字された値と照合する。

各数値は (本文中の文脈, 印字された数, 計算した値) の組で持ち、
- 文脈が本文にそのまま現れること、
- 印字された数が文脈の中に現れること、
- 計算した値を印字された桁で丸めたものが印字された数に一致すること（差が最後の桁の半分以下）
を確かめる。最後に本文の 2 つのコードを取り出して実行し、出力が本文の出力と完全に一致することを確かめる。
1 つでも合わなければ終了コード 1 で終わる。
"""
import contextlib
import io
import re
import sys
import types
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy as sp

HERE = Path(__file__).resolve().parent
TEXT = (HERE / "lora.txt").read_text(encoding="utf-8")
results = []


def parse(printed):
    s = printed.replace("{,}", "").replace(",", "").replace("\\%", "").replace("%", "").strip()
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
    ok = ok_ctx and abs(value - p) <= 0.5 * ulp * (1 + 1e-9) + 1e-15 * abs(p)
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {label:36s} printed {printed:22s} computed {value:.10g}"
          + ("" if ok_ctx else "  [context not found]"))


def check_true(context, cond, label):
    ok = (context in TEXT) and bool(cond)
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {label:36s} {'(statement holds)' if cond else '(statement false)'}"
          + ("" if context in TEXT else "  [context not found]"))


def n_params(V, d, L, Lctx):                 # 定理 5.1［Transformer ブロック］、d_ff = 4d
    return V * d + Lctx * d + L * (12 * d * d + 13 * d) + 2 * d


def lora_params(d_in, d_out, r):             # 命題 3.2
    return r * (d_in + d_out)


MiB, GiB = 2**20, 2**30
N12, N48 = n_params(50257, 768, 12, 1024), n_params(50257, 1600, 48, 1024)
NL12, NL48 = 2 * 12 * lora_params(768, 768, 8), 2 * 48 * lora_params(1600, 1600, 8)

# ---------------------------------------------------------------- 0・1 節
ctx = "12 層・$d = 768$ の構成の $W_Q, W_V$ に $r = 8$ で使うと、294,912 個、モデル全体の約 0.2370 % です。"
check(ctx, "294,912", NL12, "N_L (12 層, r=8, Q・V)")
check(ctx, "0.2370", 100 * NL12 / N12, "N_L/N (%)")
check("Adam で全部のパラメータを float32 で学習すると 1 個あたり 16 バイト要ります", "16", 4 * 4, "値・勾配・m・v の 4 バイトずつ")
check("12 層・$d = 768$ の構成のパラメータは 124,439,808 個でした", "124,439,808", N12, "12 層のパラメータ数")
ctx = "float32 なら $16 \\times 124{,}439{,}808 = 1{,}991{,}036{,}928$ バイト、約 1.854 GiB です。"
check(ctx, "1{,}991{,}036{,}928", 16 * N12, "16N (12 層)")
check(ctx, "1.854", 16 * N12 / GiB, "16N GiB")

# ---------------------------------------------------------------- 命題 3.1・3.2・例 3.3
# 命題 3.1 の 2 の構成を、階数 2 の 5x4 行列で実際に行う（SymPy で厳密に）
M = sp.Matrix([[1, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 1], [1, 3, 3, 5], [3, 7, 9, 13]])
k = M.rank()
basis = M.columnspace()
Cmat = sp.Matrix.hstack(*basis)
coef = (Cmat.T * Cmat).inv() * Cmat.T * M
r = 3
Bm = sp.Matrix.hstack(Cmat, sp.zeros(5, r - k))
Am = sp.Matrix.vstack(coef, sp.zeros(r - k, 4))
check_true("$B := [\\boldsymbol{c}_1 \\cdots \\boldsymbol{c}_k\\ \\boldsymbol{0} \\cdots \\boldsymbol{0}]$（零ベクトルを $r - k$ 本加える）",
           Bm * Am == M and k == 2, "命題 3.1 の 2 の構成で M = BA")

ctx = "$d = 768$ の正方行列なら $\\rho = 2r/768$ で、$r = 8$ では $16/768 \\approx 2.083\\%$ です。"
check(ctx, "16", 2 * 8, "2r")
check(ctx, "2.083", 100 * lora_params(768, 768, 8) / 768**2, "rho (768, r=8) %")
ctx = "MLP の $W_1$（$d_{\\mathrm{in}} = 768$、$d_{\\mathrm{out}} = 3072$）なら $\\rho = r(1/768 + 1/3072) = 5r/3072$ で、$r = 8$ では約 1.302 % です。"
check(ctx, "5", Fraction(1, 768) / Fraction(1, 3072) + 1, "(1/768+1/3072)*3072")
check(ctx, "1.302", 100 * lora_params(768, 3072, 8) / (768 * 3072), "rho (W_1, r=8) %")
ctx = "1 行列あたり $2 \\times 768\\,r = 1{,}536\\,r$ 個、全体で $2 \\times 12 \\times 1{,}536\\,r = 36{,}864\\,r$ 個です。$r = 8$ なら $36{,}864 \\times 8 = 294{,}912$ 個で、パラメータ総数 124,439,808 の約 0.2370 % です。"
check(ctx, "1{,}536", lora_params(768, 768, 1), "1 行列あたり / r")
check(ctx, "36{,}864", 2 * 12 * lora_params(768, 768, 1), "全体 / r")
check(ctx, "294{,}912", NL12, "N_L (r=8)")
check(ctx, "124,439,808", N12, "N")
check(ctx, "0.2370", 100 * NL12 / N12, "N_L/N (%)")
for rr, line in [(1, "1\t1,536\t36,864\t0.260 %\t0.030 %"), (2, "2\t3,072\t73,728\t0.521 %\t0.059 %"),
                 (4, "4\t6,144\t147,456\t1.042 %\t0.118 %"), (8, "8\t12,288\t294,912\t2.083 %\t0.237 %"),
                 (16, "16\t24,576\t589,824\t4.167 %\t0.474 %"), (64, "64\t98,304\t2,359,296\t16.667 %\t1.896 %")]:
    cells = [c.replace(" %", "") for c in line.split("\t")]
    tot = 2 * 12 * lora_params(768, 768, rr)
    vals = [rr, lora_params(768, 768, rr), tot, 100 * tot / (2 * 12 * 768**2), 100 * tot / N12]
    for lab, cell, v in zip(["r", "1 行列", "12 層", "/ Q,V の重み %", "/ 全体 %"], cells, vals):
        check("\n" + line + "\n", cell, v, f"例 3.3 r={rr} {lab}")
    ok = abs(Fraction(tot, 2 * 12 * 768**2) - Fraction(2 * rr, 768)) == 0
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} 例 3.3 r={rr}: 4 列目 = 2r/768")
ctx = "$W_Q, W_V$ の重みは全体で $2 \\times 12 \\times 768^2 = 14{,}155{,}776$ 個で、$r = 64$ でもその 6 分の 1 です。"
check(ctx, "14{,}155{,}776", 2 * 12 * 768**2, "Q,V の重みの総数")
check(ctx, "6", Fraction(2 * 12 * 768**2, 2 * 12 * lora_params(768, 768, 64)), "r=64 の比の逆数")

# ---------------------------------------------------------------- 命題 4.1・4.2（記号計算で確かめる）
dout, din, rr = 3, 2, 2
c = sp.Symbol("c", positive=True)
Asym = sp.Matrix(rr, din, sp.symbols("a0:%d" % (rr * din)))
Bsym = sp.Matrix(dout, rr, sp.symbols("b0:%d" % (dout * rr)))
Gsym = sp.Matrix(dout, din, sp.symbols("g0:%d" % (dout * din)))
W0sym = sp.Matrix(dout, din, sp.symbols("w0:%d" % (dout * din)))
Wsym = W0sym + c * Bsym * Asym
Lsym = sum(Gsym[i, j] * Wsym[i, j] for i in range(dout) for j in range(din))   # dL/dW = G となる 1 次の損失
dB = sp.Matrix(dout, rr, lambda i, j: sp.diff(Lsym, Bsym[i, j]))
dA = sp.Matrix(rr, din, lambda i, j: sp.diff(Lsym, Asym[i, j]))
check_true("2. $\\dfrac{\\partial\\mathcal{L}}{\\partial B} = c\\,G A^{\\mathsf{T}}$",
           sp.simplify(dB - c * Gsym * Asym.T) == sp.zeros(dout, rr) and sp.simplify(dA - c * Bsym.T * Gsym) == sp.zeros(rr, din),
           "命題 4.1 の 2（記号計算）")
# 命題 4.1 の 4：E[A^T A] = r sigma^2 I を乱数で（平均が r sigma^2 I に近いこと）
rng = np.random.default_rng(1)
sig, r4, d4 = 0.5, 4, 6
mean = np.mean([(lambda A: A.T @ A)(sig * rng.standard_normal((r4, d4))) for _ in range(20000)], axis=0)
check_true("$E[A_0^{\\mathsf{T}}A_0] = r\\sigma^2 I$ です", np.abs(mean - r4 * sig**2 * np.eye(d4)).max() < 0.05,
           "命題 4.1 の 4（モンテカルロ）")
check_true("$c = \\alpha/\\sqrt{r}$ と取れば $r$ によらなくなり",
           sp.simplify((sp.Symbol("alpha") / sp.sqrt(sp.Symbol("r"))) ** 2 * sp.Symbol("r")) == sp.Symbol("alpha") ** 2,
           "c = alpha/sqrt(r) なら c^2 r = alpha^2")
check("$\\sqrt{4} = 2$ で割ることは指数部を変えるだけで", "2", np.sqrt(4), "sqrt(4)")

# ---------------------------------------------------------------- 命題 5.1・例 5.2
ctx = "$d = 768$、$r = 8$ では 1 トークン・1 行列あたり $589{,}824$ 回に $12{,}288$ 回（2.083 %）が加わります。"
check(ctx, "589{,}824", 768 * 768, "d_in d_out")
check(ctx, "12{,}288", lora_params(768, 768, 8), "r(d_in + d_out)")
check(ctx, "2.083", 100 * lora_params(768, 768, 8) / 768**2, "増加の割合 %")
W0 = sp.eye(3)
Bv = sp.Matrix([1, 0, 2])
Av = sp.Matrix([[sp.Rational(1, 2), -1, 0]])
BA = Bv * Av
Wp = W0 + 2 * BA
xv = sp.Matrix([1, 1, 1])
check_true("BA = \\begin{pmatrix} 0.5 & -1 & 0 \\\\ 0 & 0 & 0 \\\\ 1 & -2 & 0 \\end{pmatrix}",
           BA == sp.Matrix([[sp.Rational(1, 2), -1, 0], [0, 0, 0], [1, -2, 0]]), "例 5.2 BA")
check("で、階数は 1 です（命題 3.1）", "1", BA.rank(), "例 5.2 rank(BA)")
check_true("W' = I + 2BA = \\begin{pmatrix} 2 & -2 & 0 \\\\ 0 & 1 & 0 \\\\ 2 & -4 & 1 \\end{pmatrix}",
           Wp == sp.Matrix([[2, -2, 0], [0, 1, 0], [2, -4, 1]]), "例 5.2 W'")
ctx = "$A\\boldsymbol{x} = 0.5 - 1 + 0 = -0.5$、$2B(A\\boldsymbol{x}) = (-1, 0, -2)^{\\mathsf{T}}$ で、$W_0\\boldsymbol{x} + 2B(A\\boldsymbol{x}) = (0, 1, -1)^{\\mathsf{T}}$ です。"
check(ctx, "-0.5", (Av * xv)[0], "例 5.2 Ax")
check_true(ctx, 2 * Bv * (Av * xv) == sp.Matrix([-1, 0, -2]) and W0 * xv + 2 * Bv * (Av * xv) == sp.Matrix([0, 1, -1]),
           "例 5.2 W0 x + 2B(Ax)")
check_true("$W'\\boldsymbol{x} = (2 - 2 + 0,\\ 1,\\ 2 - 4 + 1)^{\\mathsf{T}} = (0, 1, -1)^{\\mathsf{T}}$ と一致します",
           Wp * xv == sp.Matrix([0, 1, -1]), "例 5.2 W'x")
ctx = "学習するパラメータは $r(d_{\\mathrm{in}} + d_{\\mathrm{out}}) = 6$ 個で、$W_0$ の 9 個より少なく、乗算の回数はまとめないと $9 + 3 + 3 = 15$ 回、まとめると 9 回です。"
check(ctx, "6", lora_params(3, 3, 1), "例 5.2 パラメータ")
check(ctx, "9", 3 * 3, "例 5.2 W0 の成分")
check(ctx, "15", 3 * 3 + lora_params(3, 3, 1), "例 5.2 乗算（まとめない）")


# ---------------------------------------------------------------- 注意 5.3（bfloat16 の丸め）
def fl_bf16(x):
    x = Fraction(x)
    k = 0
    while Fraction(2) ** (k + 1) <= abs(x):
        k += 1
    while Fraction(2) ** k > abs(x):
        k -= 1
    q = Fraction(2) ** (k - 7)
    t = x / q
    f = t.numerator // t.denominator
    rem = t - f
    n = f + 1 if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and f % 2 == 1) else f
    return n * q


ctx = "$0.05$ の近くでは bfloat16 の間隔は $2^{-5-7} = 2^{-12} \\approx 2.441 \\times 10^{-4}$ なので、$0.05$ に $10^{-4}$ を足しても、丸めた値は $0.05$ を丸めた値 $0.050048828125$ と同じです。"
check_true(ctx, Fraction(2) ** -5 <= Fraction(1, 20) < Fraction(2) ** -4, "0.05 は [2^-5, 2^-4) にある")
check(ctx, "2.441 \\times 10^{-4}", 2.0**-12, "2^-12")
check(ctx, "0.050048828125", fl_bf16(Fraction(1, 20)), "bf16 fl(0.05)")
check_true(ctx, fl_bf16(Fraction(1, 20) + Fraction(1, 10**4)) == fl_bf16(Fraction(1, 20)), "bf16 fl(0.05 + 1e-4) = fl(0.05)")
check("各成分に相対誤差 $2^{-8}$ 未満の丸めが入ります", "8", 7 + 1, "bfloat16 の m + 1")

# ---------------------------------------------------------------- 6 節
ctx = "$N_{\\mathrm{L}}$ は 12 層で $294{,}912$、48 層で $2 \\times 48 \\times 2 \\times 8 \\times 1600 = 2{,}457{,}600$ です。"
check(ctx, "294{,}912", NL12, "N_L 12 層")
check(ctx, "2{,}457{,}600", NL48, "N_L 48 層")
ctx = "12 層・$d = 768$（$N = 124{,}439{,}808$）と 48 層・$d = 1600$（$N = 1{,}557{,}611{,}200$）の構成"
check(ctx, "124{,}439{,}808", N12, "N 12 層")
check(ctx, "1{,}557{,}611{,}200", N48, "N 48 層")


def mem_cols(N, NL):
    return [16 * N, 4 * N + 16 * NL, 2 * N + 16 * NL, 8 * N, 8 * NL]


rows = ["$N_{\\mathrm{L}}/N$\t0.2370 %\t\t0.1578 %\t",
        "全体の微調整 $16N$\t1.854 GiB\t1\t23.210 GiB\t1",
        "LoRA（固定を float32）$4N + 16N_{\\mathrm{L}}$\t479.20 MiB\t0.2524\t5.839 GiB\t0.2516",
        "LoRA（固定を bfloat16）$2N + 16N_{\\mathrm{L}}$\t241.85 MiB\t0.1274\t2.938 GiB\t0.1266",
        "Adam の状態（全体）$8N$\t949.40 MiB\t0.5\t11.605 GiB\t0.5",
        "Adam の状態（LoRA）$8N_{\\mathrm{L}}$\t2.25 MiB\t0.0012\t18.75 MiB\t0.0008"]
c12, c48 = mem_cols(N12, NL12), mem_cols(N48, NL48)
check(rows[0], "0.2370", 100 * NL12 / N12, "例 6.3 N_L/N 12 層 %")
check(rows[0], "0.1578", 100 * NL48 / N48, "例 6.3 N_L/N 48 層 %")
for k, line in enumerate(rows[1:]):
    cells = line.split("\t")[1:]
    unit = lambda cell: GiB if "GiB" in cell else MiB
    for lab, cell, v in [("12 層", cells[0], c12[k] / unit(cells[0])), ("12 層の比", cells[1], c12[k] / (16 * N12)),
                         ("48 層", cells[2], c48[k] / unit(cells[2])), ("48 層の比", cells[3], c48[k] / (16 * N48))]:
        check(line, cell.replace(" GiB", "").replace(" MiB", ""), v, f"例 6.3 行 {k + 1} {lab}")
ctx = "12 層の構成では、全体の微調整の $1{,}991{,}036{,}928$ バイトに対し、LoRA は固定を float32 にして $497{,}759{,}232 + 4{,}718{,}592 = 502{,}477{,}824$ バイトです。比 0.2524 は $1/4 + 0.002370$ です。Adam の状態は 949.4 MiB から 2.25 MiB になり、約 422 分の 1 です。"
check(ctx, "1{,}991{,}036{,}928", 16 * N12, "16N バイト")
check(ctx, "497{,}759{,}232", 4 * N12, "4N バイト")
check(ctx, "4{,}718{,}592", 16 * NL12, "16 N_L バイト")
check(ctx, "502{,}477{,}824", 4 * N12 + 16 * NL12, "4N + 16 N_L バイト")
check(ctx, "0.2524", (4 * N12 + 16 * NL12) / (16 * N12), "比")
check(ctx, "0.002370", NL12 / N12, "N_L/N")
check(ctx, "949.4", 8 * N12 / MiB, "8N MiB")
check(ctx, "2.25", 8 * NL12 / MiB, "8N_L MiB")
check(ctx, "422", N12 / NL12, "8N / 8N_L")
check("1 個あたり $2 + 2 + 4 + 4 + 4 = 16$ バイトです", "16", 2 + 2 + 4 + 4 + 4, "混合精度のバイト数")
ctx = "12 層・$r = 8$ なら float32 で $4 \\times 294{,}912 = 1{,}179{,}648$ バイト、約 1.125 MiB です。"
check(ctx, "1{,}179{,}648", 4 * NL12, "A, B のファイル（バイト）")
check(ctx, "1.125", 4 * NL12 / MiB, "A, B のファイル（MiB）")
check("固定した重みを float32 で持てば約 4 分の 1、bfloat16 なら約 8 分の 1 です", "4", Fraction(16, 4), "16/b_0 (float32)")
check("固定した重みを float32 で持てば約 4 分の 1、bfloat16 なら約 8 分の 1 です", "8", Fraction(16, 2), "16/b_0 (bfloat16)")

# ---------------------------------------------------------------- 7 節の本文
ctx = "命題 3.2 の $r(d_{\\mathrm{in}} + d_{\\mathrm{out}}) = 4 \\times (64 + 48) = 448$ に一致します。行列全体の $48 \\times 64 = 3072$ 個の約 14.58 % です。"
check(ctx, "448", lora_params(64, 48, 4), "listing の LoRA パラメータ")
check(ctx, "3072", 48 * 64, "listing の行列の成分")
check(ctx, "14.58", 100 * lora_params(64, 48, 4) / (48 * 64), "比 %")

check("比の列の 0.0012 と 0.0008 は、命題 6.2 の 3 の $N_{\\mathrm{L}}/N$ の半分です", "0.0012", NL12 / (2 * N12), "N_L/(2N) 12 層")
check("比の列の 0.0012 と 0.0008 は、命題 6.2 の 3 の $N_{\\mathrm{L}}/N$ の半分です", "0.0008", NL48 / (2 * N48), "N_L/(2N) 48 層")

# ---------------------------------------------------------------- 演習
ctx = "$r(d_{\\mathrm{in}} + d_{\\mathrm{out}}) = 16 \\times 8192 = 131{,}072$ 個で、行列全体の $4096^2 = 16{,}777{,}216$ 個との比は $2r/d = 32/4096 = 0.0078125$、すなわち約 0.78 % です。$\\rho < 1$ は $r < d/2 = 2048$ と同値なので"
check(ctx, "8192", 4096 + 4096, "d_in + d_out")
check(ctx, "131{,}072", lora_params(4096, 4096, 16), "演習 9.1 LoRA パラメータ")
check(ctx, "16{,}777{,}216", 4096**2, "演習 9.1 全体")
check(ctx, "32", 2 * 16, "2r")
check(ctx, "0.0078125", Fraction(lora_params(4096, 4096, 16), 4096**2), "演習 9.1 rho")
check(ctx, "0.78", 100 * lora_params(4096, 4096, 16) / 4096**2, "演習 9.1 rho %")
check(ctx, "2048", sp.Rational(4096 * 4096, 4096 + 4096), "演習 9.1 損益分岐の r")
check_true(ctx, lora_params(4096, 4096, 2048) == 4096**2 and lora_params(4096, 4096, 2049) > 4096**2, "r = 2048 で等しく、それより大きいと多い")

# 演習 9.2：L(W) = tr W を記号的に微分して求める
a = sp.Matrix(1, 3, sp.symbols("p0:3"))
bcol = sp.Matrix(3, 1, sp.symbols("q0:3"))
cc = 2
Ltr = (sp.eye(3) + cc * bcol * a).trace()
A0v = {sp.Symbol("p0"): sp.Rational(1, 2), sp.Symbol("p1"): -1, sp.Symbol("p2"): 0}
B0v = {sp.Symbol("q0"): 0, sp.Symbol("q1"): 0, sp.Symbol("q2"): 0}
gA0 = sp.Matrix(1, 3, lambda i, j: sp.diff(Ltr, a[j]).subs({**A0v, **B0v}))
gB0 = sp.Matrix(3, 1, lambda i, j: sp.diff(Ltr, bcol[i]).subs({**A0v, **B0v}))
eta = sp.Rational(1, 10)
B1 = -eta * gB0
A0m = sp.Matrix([[sp.Rational(1, 2), -1, 0]])
dW1 = cc * B1 * A0m
ctx = "$\\partial\\mathcal{L}/\\partial A = cB_0^{\\mathsf{T}}G = O$、$\\partial\\mathcal{L}/\\partial B = cGA_0^{\\mathsf{T}} = 2\\,(0.5,\\ -1,\\ 0)^{\\mathsf{T}} = (1,\\ -2,\\ 0)^{\\mathsf{T}}$ です。よって $B_1 = -0.1 \\times (1,\\ -2,\\ 0)^{\\mathsf{T}} = (-0.1,\\ 0.2,\\ 0)^{\\mathsf{T}}$ で、"
check_true(ctx, gA0 == sp.zeros(1, 3), "演習 9.2 dL/dA = O")
for i, p in enumerate(["1", "-2", "0"]):
    check(ctx, p, gB0[i], f"演習 9.2 dL/dB_{i+1}")
for i, p in enumerate(["-0.1", "0.2", "0"]):
    check(ctx, p, B1[i], f"演習 9.2 B_1 の成分 {i+1}")
check_true("\\Delta W_1 = 2B_1A_0 = \\begin{pmatrix} -0.1 & 0.2 & 0 \\\\ 0.2 & -0.4 & 0 \\\\ 0 & 0 & 0 \\end{pmatrix}",
           dW1 == sp.Matrix([[-sp.Rational(1, 10), sp.Rational(1, 5), 0], [sp.Rational(1, 5), -sp.Rational(2, 5), 0], [0, 0, 0]]),
           "演習 9.2 ΔW_1")
ctx = "これは命題 4.1 の 3 の $-\\eta c^2 GA_0^{\\mathsf{T}}A_0 = -0.4\\,A_0^{\\mathsf{T}}A_0$ に一致し、2 行目は 1 行目の $-2$ 倍なので階数は 1 です。"
check(ctx, "-0.4", -eta * cc**2, "-eta c^2")
check_true(ctx, dW1 == -eta * cc**2 * sp.eye(3) * A0m.T * A0m and dW1.row(1) == -2 * dW1.row(0) and dW1.rank() == 1,
           "演習 9.2 公式・行の比・階数")
gA1 = sp.Matrix(1, 3, lambda i, j: sp.diff(Ltr, a[j]).subs({**A0v, sp.Symbol("q0"): B1[0], sp.Symbol("q1"): B1[1], sp.Symbol("q2"): B1[2]}))
ctx = "$\\partial\\mathcal{L}/\\partial A = cB_1^{\\mathsf{T}}G = 2\\,(-0.1,\\ 0.2,\\ 0) = (-0.2,\\ 0.4,\\ 0)$ となり"
for i, p in enumerate(["-0.2", "0.4", "0"]):
    check(ctx, p, gA1[i], f"演習 9.2 2 ステップ目 dL/dA_{i+1}")

N7, NL7 = 7 * 10**9, 4 * 10**6
ctx = "全体の微調整は $16 \\times 7 \\times 10^{9} = 1.12 \\times 10^{11}$ バイト、約 104.3 GiB です。"
check(ctx, "1.12 \\times 10^{11}", 16 * N7, "演習 9.3 16N")
check(ctx, "104.3", 16 * N7 / GiB, "演習 9.3 16N GiB")
ctx = "bfloat16 の LoRA は $2 \\times 7 \\times 10^{9} + 16 \\times 4 \\times 10^{6} = 14{,}064{,}000{,}000$ バイト、約 13.10 GiB で、比は $2/16 + 4 \\times 10^{6}/(7 \\times 10^{9}) \\approx 0.125 + 0.000571 = 0.1256$ です。"
check(ctx, "14{,}064{,}000{,}000", 2 * N7 + 16 * NL7, "演習 9.3 bf16 LoRA バイト")
check(ctx, "13.10", (2 * N7 + 16 * NL7) / GiB, "演習 9.3 bf16 LoRA GiB")
check(ctx, "0.125", Fraction(2, 16), "2/16")
check(ctx, "0.000571", Fraction(NL7, N7), "N_L/N")
check(ctx, "0.1256", Fraction(2 * N7 + 16 * NL7, 16 * N7), "演習 9.3 bf16 比")
ctx = "4 ビットなら $0.5 \\times 7 \\times 10^{9} + 6.4 \\times 10^{7} = 3{,}564{,}000{,}000$ バイト、約 3.319 GiB で、比は約 0.0318 です。"
check(ctx, "6.4 \\times 10^{7}", 16 * NL7, "16 N_L")
check(ctx, "3{,}564{,}000{,}000", Fraction(1, 2) * N7 + 16 * NL7, "演習 9.3 4 ビット LoRA バイト")
check(ctx, "3.319", (N7 / 2 + 16 * NL7) / GiB, "演習 9.3 4 ビット GiB")
check(ctx, "0.0318", (N7 / 2 + 16 * NL7) / (16 * N7), "演習 9.3 4 ビット 比")
ctx = "全体の微調整の $8N = 5.6 \\times 10^{10}$ バイトに対して $8N_{\\mathrm{L}} = 3.2 \\times 10^{7}$ バイト（約 30.52 MiB）です。"
check(ctx, "5.6 \\times 10^{10}", 8 * N7, "8N")
check(ctx, "3.2 \\times 10^{7}", 8 * NL7, "8N_L")
check(ctx, "30.52", 8 * NL7 / MiB, "8N_L MiB")


# ---------------------------------------------------------------- コードの出力
def extract(first, last):
    """本文から first 行から last 行までのコードと、その直後の空行の次から次の空行までの出力を取り出す。"""
    lines = TEXT.split("\n")
    i = lines.index(first)
    j = next(k for k in range(i, len(lines)) if lines[k].startswith(last))
    code = "\n".join(lines[i:j + 1]) + "\n"
    assert lines[j + 1] == ""
    k = j + 2
    out = []
    while lines[k] != "":
        out.append(lines[k])
        k += 1
    return code, "\n".join(out) + "\n"


code1, out1 = extract("# Python 3.11.7, NumPy 2.4.6", '    print("alpha x4, lr /2, A0 /2:')
code2, out2 = extract("# Python 3.11.7。パラメータ数と記憶量を式から数える（NumPy は使わない）", '    print("  ratio to 16N:"')
mod = types.ModuleType("lora")
exec(compile(code1, "lora.py", "exec"), mod.__dict__)
sys.modules["lora"] = mod
for k, (code, printed) in enumerate(((code1, out1), (code2, out2)), 1):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, f"listing{k}.py", "exec"), {"__name__": "__main__"})
    ok = buf.getvalue() == printed
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} listing {k}: output identical to the printed output ({len(printed.splitlines())} lines)")
    if not ok:
        for x, y in zip(buf.getvalue().splitlines(), printed.splitlines()):
            if x != y:
                print("   run    :", x)
                print("   printed:", y)

# 出力の中の数で、本文が文章として引用しているもの
ctx = "Adam で 300 ステップ学習すると損失は 10589.58 から 0.0029 に下がります。"
m = re.search(r"loss: ([\d.]+) -> ([\d.]+)", out1)
check(ctx, "10589.58", float(m.group(1)), "listing 1 の初期の損失")
check(ctx, "0.0029", float(m.group(2)), "listing 1 の学習後の損失")
check(ctx, "300", int(re.search(r"steps=(\d+)", code1).group(1)), "ステップ数（コードから）")
n_cols = int(re.search(r"d_in, d_out, r, alpha, n = .*, (\d+)\n", code1).group(1))
check("入力 $X$ の 256 列に対する出力の 2 乗誤差を $r = 4$ の LoRA で小さくします", "256", n_cols, "listing の n（コードから）")
check("入力 $X$ の 256 列に対する出力の 2 乗誤差を $r = 4$ の LoRA で小さくします", "4",
      int(re.search(r"d_in, d_out, r, alpha, n = \d+, \d+, (\d+),", code1).group(1)), "listing の r（コードから）")

n_fail = results.count(False)
print(f"\n{len(results)} checks, {n_fail} failed")
sys.exit(1 if n_fail else 0)

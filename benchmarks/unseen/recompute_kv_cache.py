"""kv_cache.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
コードのリストは取り出して実行し、出力を印字された出力とそのまま比べる。
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "kv_cache.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",")
LINES = NORM.split("\n")
results = []
numeric = []  # 印字された数との照合だけを数える

KiB, MiB, GiB = 2**10, 2**20, 2**30


def parse(printed):
    return float(printed.replace(",", "").replace("%", ""))


def decimals(printed):
    s = printed.replace(",", "").replace("%", "")
    return len(s.split(".")[1]) if "." in s else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 章に印字された文字列。value: 定義から計算した値（Fraction・int・float）。"""
    dec = decimals(printed)
    p = parse(printed)
    if isinstance(value, (int, Fraction)) and dec == 0 and Fraction(value).denominator == 1:
        ok = Fraction(value) == Fraction(int(p))
    else:
        v = Fraction(value) if isinstance(value, (int, Fraction)) else Fraction(float(value))
        # 印字の精度で四捨五入した値が一致するか（小数第 dec 位）
        ok = abs(v - Fraction(printed.replace(",", "").replace("%", ""))) <= Fraction(1, 2 * 10**dec) + Fraction(1, 10**12)
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    print(f"[{status:9s}] {label}: printed {printed}  computed {float(value):.10g}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


def table(caption_start):
    """'**表 31.k' で始まる行の後の表の本体の行（見出しと区切りを除く）をセルのリストで返す。"""
    i = next(k for k, line in enumerate(LINES) if line.startswith(caption_start))
    rows = []
    k = i + 1
    while not LINES[k].startswith("|"):
        k += 1
    while k < len(LINES) and LINES[k].startswith("|"):
        rows.append([c.strip() for c in LINES[k].strip().strip("|").split("|")])
        k += 1
    return rows[2:]


def M_tok(L, h_kv, d_h, b):
    return 2 * L * h_kv * d_h * Fraction(b)


# ---------- 31.0・31.2：キャッシュの大きさ ----------
L, d, h, d_h = 32, 4096, 32, 128
mA = M_tok(L, h, d_h, 2)
mA2 = M_tok(L, 8, d_h, 2)
check("M_tok config A", "524,288", mA)
check("M_tok config A in KiB", "512", mA / KiB)
check("4096 x 512 KiB", "2,097,152", 4096 * mA / KiB)
check("GiB per 4096 tokens", "2", 4096 * mA / GiB)
check_true("summary: 32 layers, d = 4096, 16 bit -> 512 KiB, 2 GiB",
           "32 層・$d = 4096$・16 ビットでは 512 KiB で、4,096 トークンの列 1 本で 2 GiB" in NORM)
N_A = 12 * L * d * d
check("non-embedding weights 12*32*4096^2", "6,442,450,944", N_A)
check("weight bytes fp16", "12,884,901,888", 2 * N_A)
check("6d", "24,576", 6 * d)
check("cache = weights at T tokens", "24,576", Fraction(2 * N_A) / mA)
check("sequences of 4096 at 6d", "6", Fraction(6 * d, 4096))
check("524,288 * 8/32", "131,072", mA * Fraction(8, 32))
check("A' KiB", "128", mA2 / KiB)
Ls, ds, hs, Ts = sp.symbols("L d b T", positive=True)
check_true("prop-kv-size 3: cache/weights = T/(6d)",
           sp.simplify((Ts * 2 * Ls * ds * hs) / (12 * Ls * ds**2 * hs) - Ts / (6 * ds)) == 0)

configs = {"S": (12, 12, 12, 64), "A": (32, 32, 32, 128), "A′": (32, 32, 8, 128),
           "B": (80, 64, 8, 128), "B の MHA 版": (80, 64, 64, 128)}
rows = table("**表 31.1")
check_true("table 31.1 has the 5 configurations", [r[0] for r in rows] == list(configs))
for r in rows:
    Lc, hc, hkv, dh = configs[r[0]]
    m = M_tok(Lc, hkv, dh, 2)
    check_true(f"T31.1 {r[0]} L, h, h_kv, d_h", [int(x) for x in r[1:5]] == [Lc, hc, hkv, dh])
    check(f"T31.1 {r[0]} M_tok", r[5], m)
    check(f"T31.1 {r[0]} KiB", r[6], m / KiB)
    check(f"T31.1 {r[0]} MiB n=4096", r[7], 4096 * m / MiB)
    check(f"T31.1 {r[0]} ratio to A", r[8], m / mA)
check("B layers / A layers", "2.5", Fraction(80, 32))
check("config S: d = h d_h", "768", 12 * 64)
check("2.5/4", "0.625", Fraction(80, 32) * Fraction(8, 32))
check("2.5 x 2", "5", Fraction(80, 32) * Fraction(64, 32))
check("B MHA GiB per 4096", "10", 4096 * M_tok(80, 64, 128, 2) / GiB)

# ---------- 31.3：プリフィルとデコード ----------
Nn, Ll, dd, ii, BB, bw, mt, nn, bb = sp.symbols("N L d i B b_w M n b", positive=True)
jj = sp.symbols("j", integer=True, positive=True)
Fdec = BB * (2 * Nn + 4 * Ll * ii * dd)
Qdec = bw * Nn + BB * ii * mt
Fpre = sp.summation(2 * Nn + 4 * Ll * jj * dd, (jj, 1, nn))
check_true("prop 1: F_pre = 2nN + 2Ln(n+1)d", sp.simplify(Fpre - (2 * nn * Nn + 2 * Ll * nn * (nn + 1) * dd)) == 0)
Ipre = Fpre / (bw * Nn + nn * mt)
check_true("prop 2: dI_pre/dn > 0 (numerator of derivative positive)",
           sp.simplify(sp.numer(sp.together(sp.diff(Ipre, nn))) - sp.expand(sp.numer(sp.together(sp.diff(Ipre, nn))))) == 0
           and all(v > 0 for v in [sp.diff(Ipre, nn).subs({Nn: 7, Ll: 3, dd: 5, bw: 2, mt: 11, nn: x}) for x in (1, 2, 10, 1000)]))
Idec = Fdec / Qdec
check_true("prop 3: dI_dec/dB = b_w N (2N+4Lid)/Q^2 > 0",
           sp.simplify(sp.diff(Idec, BB) - bw * Nn * (2 * Nn + 4 * Ll * ii * dd) / Qdec**2) == 0)
check_true("prop 3: lim_B I_dec = (2N + 4Lid)/(i M)",
           sp.simplify(sp.limit(Idec, BB, sp.oo) - (2 * Nn + 4 * Ll * ii * dd) / (ii * mt)) == 0)
check_true("prop 4: MHA, b_w = b: I_dec(1, i) = 2/b",
           sp.simplify(Idec.subs({BB: 1, bw: bb, mt: 2 * Ll * dd * bb}) - 2 / bb) == 0)
check_true("prop 5: lim = 6d/i + 1 for N = 12Ld^2, M = 4Ld",
           sp.simplify(((2 * Nn + 4 * Ll * ii * dd) / (ii * mt)).subs({Nn: 12 * Ll * dd**2, mt: 4 * Ll * dd}) - (6 * dd / ii + 1)) == 0)
check_true("def: P = 12 d^2 for MHA, d_ff = 4d",
           sp.simplify((2 * dd**2 + 2 * dd * dd + 2 * dd * 4 * dd) - 12 * dd**2) == 0)
check_true("text: fp16 MHA I_dec = B(6d+i)/(6d+Bi)",
           sp.simplify(Idec.subs({Nn: 12 * Ll * dd**2, mt: 4 * Ll * dd, bw: 2}) - BB * (6 * dd + ii) / (6 * dd + BB * ii)) == 0)

PI, BETA = 300 * 10**12, 2 * 10**12
check("ridge pi/beta", "150", Fraction(PI, BETA))


def F_dec(B, i, N=N_A):
    return B * (2 * N + 4 * L * i * d)


def Q_dec(B, i, N=N_A, m=mA, b_w=2):
    return b_w * N + B * i * m


def F_pre(n, N=N_A):
    return 2 * n * N + 2 * L * n * (n + 1) * d


def Q_pre(n, N=N_A, m=mA):
    return 2 * N + n * m


check("4*32*4096*4096", "2,147,483,648", 4 * L * 4096 * d)
check("F_dec(1, 4096)", "15,032,385,536", F_dec(1, 4096))
check("4096 x 524,288", "2,147,483,648", 4096 * mA)
check("Q_dec(1, 4096)", "15,032,385,536", Q_dec(1, 4096))
check_true("I_dec(1, 4096) = 1 exactly ('ちょうど 1')", Fraction(F_dec(1, 4096)) / Q_dec(1, 4096) == 1)
check("F/pi ms", "0.0501", Fraction(F_dec(1, 4096), PI) * 1000)
check("Q/beta ms", "7.516", Q_dec(1, 4096) / BETA * 1000)
check("memory time / compute time", "150", (Q_dec(1, 4096) / BETA) / Fraction(F_dec(1, 4096), PI))
check("2 x 4096 x N", "52,776,558,133,248", 2 * 4096 * N_A)
check("2 x 32 x 4096 x 4097 x 4096", "4,399,120,252,928", 2 * L * 4096 * 4097 * d)
check("F_pre(4096)", "57,175,678,386,176", F_pre(4096))
check("n + 1 factor in F_pre(4096)", "4097", 4096 + 1)
check("pi / 10^12 (FLOP/s)", "300", Fraction(PI, 10**12))
check_true("F_pre(4096) = sum of F_dec(1, i)", F_pre(4096) == sum(F_dec(1, i) for i in range(1, 4097)))
check("Q_pre(4096)", "15,032,385,536", Q_pre(4096))
check("I_pre(4096)", "3,803.5", Fraction(F_pre(4096)) / Q_pre(4096))
check("prefill F/pi ms", "190.59", Fraction(F_pre(4096), PI) * 1000)
check("I_pre(150)", "149.55", Fraction(F_pre(150)) / Q_pre(150))
check("I_pre(151)", "150.54", Fraction(F_pre(151)) / Q_pre(151))
first = next(n for n in range(1, 10**5) if Fraction(F_pre(n)) / Q_pre(n) >= 150)
check("first compute-bound prefill length", "151", first)
total_bytes = sum(Q_dec(1, i) for i in range(1, 4097))
check("sum of decode bytes", "57,175,678,386,176", total_bytes)
check("decode total seconds", "28.588", total_bytes / BETA)
check("decode / prefill time", "150", (total_bytes / BETA) / Fraction(F_pre(4096), PI))

N_A2 = L * (10 * d * d + 2 * d * d // 4)  # 構成 A′：P = (2 + 2/4) d^2 + 8 d^2
check_true("A' P = 2d^2 + 2d*h_kv*d_h + 8d^2 = 10.5 d^2", N_A2 == L * (2 * d * d + 2 * d * 8 * d_h + 8 * d * d))
rows = table("**表 31.2")
check_true("table 31.2 rows B = 1, 8, 32, 128, inf", [r[0] for r in rows] == ["1", "8", "32", "128", "$\\infty$"])
for r in rows:
    if r[0] == "$\\infty$":
        check("T31.2 lim A i=512", r[1], Fraction(2 * N_A + 4 * L * 512 * d) / (512 * mA))
        check("T31.2 lim A i=4096", r[2], Fraction(2 * N_A + 4 * L * 4096 * d) / (4096 * mA))
        check("T31.2 lim A' i=4096", r[3], Fraction(2 * N_A2 + 4 * L * 4096 * d) / (4096 * mA2))
        check_true("T31.2 inf row T column is a dash", r[4] == "—")
        check("T31.2 throughput limit", r[5], Fraction(BETA) / (4096 * mA))
        continue
    B = int(r[0])
    check(f"T31.2 B={B} I A i=512", r[1], Fraction(F_dec(B, 512)) / Q_dec(B, 512))
    check(f"T31.2 B={B} I A i=4096", r[2], Fraction(F_dec(B, 4096)) / Q_dec(B, 4096))
    check(f"T31.2 B={B} I A' i=4096", r[3], Fraction(F_dec(B, 4096, N_A2)) / Q_dec(B, 4096, N_A2, mA2))
    T = max(Fraction(F_dec(B, 4096), PI), Fraction(Q_dec(B, 4096), BETA))
    check(f"T31.2 B={B} T ms", r[4], T * 1000)
    check(f"T31.2 B={B} tokens/s", r[5], B / T)
    check_true(f"T31.2 B={B} memory-bound in all three columns",
               all(x < 150 for x in (Fraction(F_dec(B, 512)) / Q_dec(B, 512), Fraction(F_dec(B, 4096)) / Q_dec(B, 4096),
                                     Fraction(F_dec(B, 4096, N_A2)) / Q_dec(B, 4096, N_A2, mA2))))
check("6d/i + 1 at i = d", "7", Fraction(6 * d, 4096) + 1)
check("GQA r + (5r+1)d/i at r = 4, i = d", "25", 4 + Fraction(21 * d, 4096))
check("i M_tok (A, i = 4096)", "2,147,483,648", 4096 * mA)
check("throughput limit", "931.3", Fraction(BETA) / (4096 * mA))

# ---------- 31.4：ページ割り当て ----------
def waste(n, s):
    return s * (-(-n // s)) - n


ok = True
for s in range(1, 65):
    for n in range(1, 600):
        w = waste(n, s)
        ok &= 0 <= w <= s - 1
        ok &= w == (0 if n % s == 0 else s - n % s)
        ok &= Fraction(w, n + w) <= Fraction(s - 1, n + s - 1)
check_true("prop-paged-waste 1, 2 and the piecewise form (s < 65, n < 600)", ok)
check_true("prop-paged-waste 3: E[w] = (s-1)/2 for n uniform on {1..ms}",
           all(Fraction(sum(waste(n, s) for n in range(1, m * s + 1)), m * s) == Fraction(s - 1, 2)
               for s in range(1, 40) for m in range(1, 6)))
check_true("prop-paged-waste 4: E[n_max - n] = (n_max - 1)/2",
           all(Fraction(sum(nm - n for n in range(1, nm + 1)), nm) == Fraction(nm - 1, 2) for nm in range(1, 300)))
check("block of 16 tokens, MiB", "8", 16 * mA / MiB)
check("ceil(1000/16)", "63", -(-1000 // 16))
check("63 x 16", "1,008", 63 * 16)
check("waste n=1000 s=16", "8", waste(1000, 16))
check("waste MiB", "4", waste(1000, 16) * mA / MiB)
check("waste fraction %", "0.794", Fraction(800, 1008))
check("bound 15/1015 %", "1.478", Fraction(1500, 1015))
check("15/1015 numerator/denominator", "1,015", 1000 + 16 - 1)
check("contiguous waste n=1000", "3,096", 4096 - 1000)
check("contiguous waste MiB", "1,548", (4096 - 1000) * mA / MiB)
check("contiguous waste %", "75.59", Fraction(100 * 3096, 4096))
check("E waste s=16", "7.5", Fraction(sum(waste(n, 16) for n in range(1, 4097)), 4096))
check("E waste contiguous", "2,047.5", Fraction(sum(4096 - n for n in range(1, 4097)), 4096))
rows = table("**表 31.3")
check_true("table 31.3 rows", [r[0] for r in rows] == ["1", "8", "16", "32", "64", "256", "連続確保"])
for r in rows:
    if r[0] == "連続確保":
        check("T31.3 contiguous region MiB", r[1], 4096 * mA / MiB)
        check("T31.3 contiguous max waste", r[2], 4095)
        ew = Fraction(sum(4096 - n for n in range(1, 4097)), 4096)
        check("T31.3 contiguous E waste", r[3], ew)
        check("T31.3 contiguous E waste MiB", r[4], ew * mA / MiB)
        check("T31.3 contiguous regions", r[5], 1)
        check("T31.3 contiguous waste n=1000", r[6], 4096 - 1000)
        continue
    s = int(r[0])
    ew = Fraction(sum(waste(n, s) for n in range(1, 4097)), 4096)
    check(f"T31.3 s={s} block MiB", r[1], s * mA / MiB)
    check(f"T31.3 s={s} max waste", r[2], max(waste(n, s) for n in range(1, 4097)))
    check(f"T31.3 s={s} E waste", r[3], ew)
    check_true(f"T31.3 s={s} E waste = (s-1)/2", ew == Fraction(s - 1, 2))
    check(f"T31.3 s={s} E waste MiB", r[4], ew * mA / MiB)
    check(f"T31.3 s={s} blocks for n=4096", r[5], -(-4096 // s))
    check(f"T31.3 s={s} waste n=1000", r[6], waste(1000, s))
check("vLLM default block size (cited)", "16", 16)

# ---------- 31.5：量子化 ----------
def qmax(bits):
    return 2 ** (bits - 1) - 1


check("q_max int8", "127", qmax(8))
check("q_max int4", "7", qmax(4))
check("1/254", "0.00394", Fraction(1, 2 * qmax(8)))
check("1/14", "0.0714", Fraction(1, 2 * qmax(4)))
check_true("1/254 and 1/14 are 1/(2 q_max)", Fraction(1, 254) == Fraction(1, 2 * 127) and Fraction(1, 14) == Fraction(1, 2 * 7))

# round-to-nearest の性質を乱数で（両方の中間の扱いで）確かめる
rng = np.random.default_rng(3)
ok = True
for bits in (2, 3, 4, 8):
    q = qmax(bits)
    for _ in range(300):
        x = rng.standard_normal(rng.integers(1, 20)) * rng.uniform(0.01, 100)
        delta = np.abs(x).max() / q
        t = x / delta
        for r_ in (np.round(t), np.floor(t + 0.5), np.ceil(t - 0.5)):  # 中間の扱い 3 通り
            ok &= bool(np.all(np.abs(r_) <= q))                       # 1：切り詰めは起こらない
            xh = delta * r_
            ok &= bool(np.all(np.abs(x - xh) <= delta / 2 * (1 + 1e-12)))  # 2
            k = np.argmax(np.abs(x))
            ok &= bool(abs(xh[k] - x[k]) <= 1e-12 * abs(x[k]))          # 3
check_true("prop-rtn-bound 1-3 on random groups (bits 2, 3, 4, 8; three tie rules)", ok)

K = np.array([[0.23, -0.12, 7.0], [-0.7, 0.35, -5.6], [0.41, 0.2, 6.3]])
Kf = [[Fraction(str(v)) for v in row] for row in K]


def quant_exact(Kf, axis, q=7):
    """Fraction による厳密な量子化。axis=1 は行ごと、axis=0 は列ごと。"""
    n, m = len(Kf), len(Kf[0])
    if axis == 1:
        scales = [max(abs(v) for v in Kf[i]) / q for i in range(n)]
        sc = lambda i, j: scales[i]
    else:
        scales = [max(abs(Kf[i][j]) for i in range(n)) / q for j in range(m)]
        sc = lambda i, j: scales[j]
    Q = [[0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            t = Kf[i][j] / sc(i, j)
            r_ = math.floor(t + Fraction(1, 2))
            assert abs(t - r_) != Fraction(1, 2), "tie"
            Q[i][j] = max(-q, min(q, r_))
    Kh = [[sc(i, j) * Q[i][j] for j in range(m)] for i in range(n)]
    return scales, Q, Kh


sc_c, Q_c, Kh_c = quant_exact(Kf, 0)
sc_t, Q_t, Kh_t = quant_exact(Kf, 1)
for lab, pr, v in (("column max 1", "0.7", 0.7), ("column max 2", "0.35", 0.35), ("column max 3", "7.0", 7.0)):
    check(f"ex-quant {lab}", pr, max(abs(Kf[i][int(lab[-1]) - 1]) for i in range(3)))
for j, pr in enumerate(("0.1", "0.05", "1.0")):
    check(f"ex-quant per-channel scale {j + 1}", pr, sc_c[j])
for i, (mx, pr) in enumerate((("7.0", "1.0"), ("5.6", "0.8"), ("6.3", "0.9"))):
    check(f"ex-quant row max {i + 1}", mx, max(abs(v) for v in Kf[i]))
    check(f"ex-quant per-token scale {i + 1}", pr, sc_t[i])
check("0.23/0.1", "2.3", Kf[0][0] / sc_c[0])
check("-0.12/0.05", "-2.4", Kf[0][1] / sc_c[1])
check_true("0.23 -> 2, -0.12 -> -2, -5.6 -> -6 (per-channel)", (Q_c[0][0], Q_c[0][1], Q_c[1][2]) == (2, -2, -6))
check("-0.7/0.8", "-0.875", Kf[1][0] / sc_t[1])
check("0.35/0.8", "0.4375", Kf[1][1] / sc_t[1])
check("0.41/0.9", "0.4556", Kf[2][0] / sc_t[2])
check_true("-0.7 -> -1, 0.35 -> 0, 0.41 -> 0 (per-token)", (Q_t[1][0], Q_t[1][1], Q_t[2][0]) == (-1, 0, 0))


def mat_tex(M):
    return " \\\\ ".join(" & ".join(str(x) for x in row) for row in M)


def fmt(v):
    s = f"{float(v):.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("0", "-0") else s


E_c = [[abs(Kf[i][j] - Kh_c[i][j]) for j in range(3)] for i in range(3)]
E_t = [[abs(Kf[i][j] - Kh_t[i][j]) for j in range(3)] for i in range(3)]
check_true("Q per-channel matrix as printed", "Q &= \\begin{pmatrix} " + mat_tex(Q_c) + " \\end{pmatrix}" in TEXT)
check_true("Q per-token matrix as printed", "Q &= \\begin{pmatrix} " + mat_tex(Q_t) + " \\end{pmatrix}" in TEXT)
check_true("|K - K_hat| per-channel as printed",
           "\\begin{pmatrix} " + mat_tex([[fmt(v) for v in row] for row in E_c]) + " \\end{pmatrix}" in TEXT)
check_true("|K - K_hat| per-token as printed",
           "\\begin{pmatrix} " + mat_tex([[fmt(v) for v in row] for row in E_t]) + " \\end{pmatrix}" in TEXT)
check_true("error matrices are exact at 2 decimals",
           all(Fraction(fmt(v)) == v for M in (E_c, E_t) for row in M for v in row))
for j, (pm, pb) in enumerate((("0.03", "0.05"), ("0.02", "0.025"), ("0.4", "0.5"))):
    check(f"per-channel max error col {j + 1}", pm, max(E_c[i][j] for i in range(3)))
    check(f"per-channel bound col {j + 1}", pb, sc_c[j] / 2)
check_true("per-token row errors within row bounds", all(max(E_t[i]) <= sc_t[i] / 2 for i in range(3)))
check_true("per-token: outlier channel exact, 5 of 6 small entries are 0",
           all(E_t[i][2] == 0 for i in range(3)) and sum(Q_t[i][j] == 0 for i in range(3) for j in range(2)) == 5)
sq_c_terms = sorted((v * v for row in E_c for v in row if v != 0), reverse=False)
sq_t_terms = [v * v for row in E_t for v in row if v != 0]
check_true("per-channel squares 0.0009 + 0.0004 + 0.16 + 0.0001 + 0.09",
           [E_c[0][0]**2, E_c[0][1]**2, E_c[1][2]**2, E_c[2][0]**2, E_c[2][2]**2]
           == [Fraction(str(x)) for x in ("0.0009", "0.0004", "0.16", "0.0001", "0.09")])
check_true("per-token squares 0.0529 + 0.0144 + 0.01 + 0.1225 + 0.1681 + 0.04",
           [E_t[0][0]**2, E_t[0][1]**2, E_t[1][0]**2, E_t[1][1]**2, E_t[2][0]**2, E_t[2][1]**2]
           == [Fraction(str(x)) for x in ("0.0529", "0.0144", "0.01", "0.1225", "0.1681", "0.04")])
check("squared error per-channel", "0.2514", sum(v * v for row in E_c for v in row))
check("squared error per-token", "0.4079", sum(v * v for row in E_t for v in row))
qv = [1, 1, 0]
sc_true = [sum(qv[l] * Kf[j][l] for l in range(3)) / math.sqrt(3) for j in range(3)]
sc_tok = [sum(qv[l] * Kh_t[j][l] for l in range(3)) / math.sqrt(3) for j in range(3)]
sc_ch = [sum(qv[l] * Kh_c[j][l] for l in range(3)) / math.sqrt(3) for j in range(3)]
for j, pr in enumerate(("0.0635", "-0.2021", "0.3522")):
    check(f"true score {j + 1}", pr, sc_true[j])
for j, pr in enumerate(("0", "-0.4619", "0")):
    check(f"per-token score {j + 1}", pr, sc_tok[j], must_appear=(pr != "0"))
for j, pr in enumerate(("0.0577", "-0.2021", "0.3464")):
    check(f"per-channel score {j + 1}", pr, sc_ch[j])
check("max score error per-token", "0.3522", max(abs(a - b) for a, b in zip(sc_true, sc_tok)))
check("max score error per-channel", "0.0058", max(abs(a - b) for a, b in zip(sc_true, sc_ch)))
check_true("score errors within prop-quant-attention 1 bounds",
           all(abs(sc_true[j] - sc_tok[j]) <= sum(qv[l] * sc_t[j] / 2 for l in range(3)) / math.sqrt(3) for j in range(3))
           and all(abs(sc_true[j] - sc_ch[j]) <= sum(qv[l] * sc_c[l] / 2 for l in range(3)) / math.sqrt(3) for j in range(3)))

# prop-quant-attention を乱数で
rng = np.random.default_rng(5)
ok = True
for _ in range(2000):
    n_, dh = rng.integers(1, 12), rng.integers(1, 9)
    Kr = rng.standard_normal((n_, dh)) * rng.uniform(0.1, 5)
    Kq = Kr + rng.uniform(-1, 1, (n_, dh)) * rng.uniform(0, 0.5)
    dlt = np.abs(Kr - Kq)
    qr = rng.standard_normal(dh) * 2
    s1, s2 = Kr @ qr / np.sqrt(dh), Kq @ qr / np.sqrt(dh)
    ok &= bool(np.all(np.abs(s1 - s2) <= (np.abs(qr) * dlt).sum(1) / np.sqrt(dh) + 1e-12))
    eps = np.abs(s1 - s2).max()
    a1, a2 = np.exp(s1 - s1.max()), np.exp(s2 - s2.max())
    a1, a2 = a1 / a1.sum(), a2 / a2.sum()
    ok &= bool(np.all(a2 / a1 <= np.exp(2 * eps) * (1 + 1e-12))) and bool(np.all(a2 / a1 >= np.exp(-2 * eps) * (1 - 1e-12)))
    ok &= bool(np.abs(a2 - a1).sum() <= np.expm1(2 * eps) + 1e-12)
    V = rng.standard_normal((n_, 3))
    Vq = V + rng.uniform(-0.2, 0.2, (n_, 3))
    eta = np.linalg.norm(Vq - V, axis=1).max()
    ok &= bool(np.linalg.norm(a2 @ Vq - a1 @ V) <= eta + np.expm1(2 * eps) * np.linalg.norm(V, axis=1).max() + 1e-12)
check_true("prop-quant-attention 1-3 on 2000 random cases", ok)
check_true("1 - e^{-2e} <= e^{2e} - 1 for e in [0, 10]",
           all(1 - math.exp(-2 * e) <= math.expm1(2 * e) for e in np.linspace(0, 10, 1001)))

# ---------- 31.6：最大のバッチ ----------
C, R = 80 * GiB, 4 * GiB
check("80 GiB in bytes", "85,899,345,920", C)
check("4 GiB in bytes", "4,294,967,296", R)
V = 32000
check("vocab", "32,000", V)
Ntot = N_A + 2 * V * d
check("total params A", "6,704,594,944", Ntot)
W = 2 * Ntot
check("W bytes", "13,409,189,888", W)
check("W GiB", "12.488", Fraction(W, GiB))
A = C - W - R
check("A bytes", "68,195,188,736", A)
check("A GiB", "63.512", Fraction(A, GiB))
check("A / (2 GiB)", "31.756", Fraction(A, 4096 * mA))
check("B_max fp16", "31", math.floor(Fraction(A, 4096 * mA)))
check("A / 8 MiB", "8,129.5", Fraction(A, 16 * mA))
Nblk = math.floor(Fraction(A, 16 * mA))
check("N_blk", "8,129", Nblk)
check("blocks per 4096 sequence", "256", 4096 // 16)
check("floor(8129/256)", "31", Nblk // 256)
check("E[n] uniform 1..4096", "2,048.5", Fraction(4097, 2))
check("E blocks per sequence", "128.5", Fraction(sum(-(-n // 16) for n in range(1, 4097)), 4096))
check_true("(2048.5 + 7.5)/16 = 128.5", (Fraction(4097, 2) + Fraction(15, 2)) / 16 == Fraction(257, 2))
check("8129/128.5", "63.26", Fraction(Nblk) / Fraction(257, 2))
b8 = 1 + Fraction(2, 128)
b4 = Fraction(1, 2) + Fraction(2, 128)
check("int8 bytes/elem", "1.015625", b8)
check("int4 bytes/elem", "0.515625", b4)
Ntot2 = N_A2 + 2 * V * d
check("total params A'", "5,899,288,576", Ntot2)
W2 = 2 * Ntot2
check("W' bytes", "11,798,577,152", W2)
A2 = C - W2 - R
variants = {"A、fp16": (32, 2, W, A), "A、int8": (32, b8, W, A), "A、int4": (32, b4, W, A),
            "A′、fp16": (8, 2, W2, A2), "A′、int4": (8, b4, W2, A2)}
rows = table("**表 31.4")
check_true("table 31.4 rows", [r[0] for r in rows] == list(variants))
base = math.floor(Fraction(A, 4096 * mA))
for r in rows:
    hkv, b, Wv, Av = variants[r[0]]
    m = M_tok(L, hkv, d_h, b)
    bm = math.floor(Fraction(Av) / (4096 * m))
    check_true(f"T31.4 {r[0]} h_kv", int(r[1]) == hkv)
    check(f"T31.4 {r[0]} bytes/elem", r[2], b)
    check(f"T31.4 {r[0]} bytes/token", r[3], m)
    check(f"T31.4 {r[0]} MiB/seq", r[4], 4096 * m / MiB)
    check(f"T31.4 {r[0]} weights GiB", r[5], Fraction(Wv, GiB))
    check(f"T31.4 {r[0]} B_max", r[6], bm)
    check(f"T31.4 {r[0]} ratio", r[7], Fraction(bm, base))
check("int8 per sequence bytes", "1,090,519,040", 4096 * M_tok(L, 32, d_h, b8))
check("A / int8 per sequence", "62.535", Fraction(A) / (4096 * M_tok(L, 32, d_h, b8)))
check("B_max with exactly 1 byte", "63", math.floor(Fraction(A) / (4096 * M_tok(L, 32, d_h, 1))))
check_true("63 >= 2 x 31", math.floor(Fraction(A) / (4096 * M_tok(L, 32, d_h, 1))) >= 2 * base)
check("2048/132", "15.5", Fraction(2048, 132))
check_true("2{,}048/132 printed", "$2,048/132 \\approx 15.5$" in NORM)
check_true("'16 倍あまり': 504/31 in (16, 17)", 16 < Fraction(504, 31) < 17)
check_true("B = 32 does not fit (text after table 31.2)", 32 > base)
# prop-max-batch 2-4 を小さな整数で総当たり
ok = True
for Av in range(0, 400, 7):
    for mt_ in range(1, 6):
        for s in (1, 2, 4):
            for nmax in (4, 8, 12):
                bmax = Av // (nmax * mt_)
                nblk = Av // (s * mt_)
                ok &= bmax * (nmax // s) <= nblk          # 2（s | n_max）：最大長でも収まる
                for c in (1, 2, 3):
                    ok &= (c * Av) // (nmax * mt_) >= c * bmax  # 4
for nblk in range(0, 40):
    for s in (1, 3, 5):
        for lens in ([1, 2, 3], [5, 5], [7, 1, 9, 2], [16]):
            if sum(lens) + len(lens) * (s - 1) <= s * nblk:
                ok &= sum(-(-n // s) for n in lens) <= nblk       # 3
check_true("prop-max-batch 2-4 by enumeration", ok)

# ---------- 31.7：リストの実行と出力の照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("kv_cache.py on disk equals the listing", open(os.path.join(HERE, "kv_cache.py"), encoding="utf-8").read() == code)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)
check("sample size", "100,000", 100_000)
check_true("listing: 8th channel (index 7) scaled by 20, 256 x 128 keys",
           "K[:, 7] *= 20.0" in code and "rng.standard_normal((256, d_h))" in code)
outl = run.stdout.splitlines()
eps_tok4 = float(re.search(r"int4 per-token.*\(eps ([\d.]+)\)", run.stdout).group(1))
check_true("'トークンごとの int4 では ε が 37 を超え'", eps_tok4 > 37 and "37 を超え" in NORM)
rel = {tuple(re.findall(r"int(\d) (per-\w+)", ln)[0]): float(re.search(r"rel\. error ([\d.]+)", ln).group(1))
       for ln in outl if "rel. error" in ln}
sce = {tuple(re.findall(r"int(\d) (per-\w+)", ln)[0]): float(re.search(r"score err ([\d.]+)", ln).group(1))
       for ln in outl if "score err" in ln}
check_true("per-channel has smaller relative and score errors (both bit widths)",
           all(rel[(b, "per-channel")] < rel[(b, "per-token")] and sce[(b, "per-channel")] < sce[(b, "per-token")]
               for b in ("8", "4")))
check_true("all 'within bound True' and score err <= eps, log ratio <= 2 eps",
           all("within bound True" in ln for ln in outl[6:10])
           and all(float(re.search(r"score err ([\d.]+)", ln).group(1)) <= float(re.search(r"\(eps ([\d.]+)\)", ln).group(1))
                   and float(re.search(r"log weight ratio ([\d.]+)", ln).group(1)) <= float(re.search(r"\(2 eps ([\d.]+)\)", ln).group(1))
                   for ln in outl[6:10]))
check_true("printed intensities agree with table 31.2",
           outl[1].split(":")[1].split() == ["1.00", "7.00", "19.60", "35.64"]
           and outl[2].split(":")[1].split() == ["1.00", "4.00", "5.89", "6.69"])

# ---------- 演習 ----------
check("96 x 7.5", "720", 96 * Fraction(15, 2))
check_true("n = 1..96: residues each 6 times", all(sum(1 for n in range(1, 97) if n % 16 == r_) == 6 for r_ in range(16)))
check_true("n = 97..100 wastes 15, 14, 13, 12", [waste(n, 16) for n in (97, 98, 99, 100)] == [15, 14, 13, 12])
check("sum of 15..12", "54", sum(waste(n, 16) for n in (97, 98, 99, 100)))
check("E[w_16] n uniform 1..100", "7.74", Fraction(sum(waste(n, 16) for n in range(1, 101)), 100))
check("int4 scale 3.5/7", "0.5", Fraction(35, 10) / 7)
check("int4 error bound", "0.25", Fraction(35, 10) / 14)
check("eps int4", "0.25", 8 * Fraction(35, 10) / 14 / 8)
check("e^-0.5", "0.6065", math.exp(-0.5))
check("e^0.5", "1.6487", math.exp(0.5))
check("e^0.5 - 1", "0.6487", math.expm1(0.5))
check("int8 scale 3.5/127", "0.02756", Fraction(35, 10) / 127)
check("int8 error 3.5/254", "0.01378", Fraction(35, 10) / 254)
check("e^{2 eps} - 1 int8", "0.02794", math.expm1(2 * 3.5 / 254))
check_true("'1.6 倍まで' matches e^0.5", round(math.exp(0.5), 1) == 1.6)
check("6 x 4096", "24,576", 6 * 4096)
check("24,576/149", "164.9", Fraction(24576, 149))
check("largest i, MHA", "164", max(i for i in range(1, 10**4) if Fraction(6 * 4096, i) + 1 > 150))
check("21 x 4096", "86,016", 21 * 4096)
check("5r + 1 at r = 4", "21", 5 * 4 + 1)
check("150 - 1 (MHA threshold denominator)", "149", 150 - 1)
check("150 - r at r = 4", "146", 150 - 4)
check("2 q_max for int8", "254", 2 * qmax(8))
check("86,016/146", "589.2", Fraction(86016, 146))
check("largest i, GQA r=4", "589", max(i for i in range(1, 10**4) if Fraction(21 * 4096, i) + 4 > 150))
check_true("GQA limit formula (5r+1)d/i + r equals (2N + 4Lid)/(i M) for A'",
           all(Fraction(2 * N_A2 + 4 * L * i * d) / (i * mA2) == Fraction(21 * d, i) + 4 for i in (1, 100, 589, 4096)))

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

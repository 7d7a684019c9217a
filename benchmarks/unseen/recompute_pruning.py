"""pruning.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
命題・定理は sympy・総当たり・乱数の例で確かめる。表は行ごとに読み、各セルをその場所で照合する。
コードのリストは取り出して実行し、出力を印字された出力とそのまま比べる。
"""
import itertools
import math
import os
import re
import subprocess
import sys
from fractions import Fraction
from math import comb

import numpy as np
import sympy as sp
from scipy import integrate, stats

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "pruning.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",")
results = []
numeric = []  # 印字された数との照合だけを数える


def parse(printed):
    return float(printed.replace(",", "").replace("−", "-"))


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 章に印字された文字列。value: 定義から計算した値（印字の桁で四捨五入して比べる）。"""
    dec = decimals(printed)
    p = parse(printed)
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        ok = abs(Fraction(value) - Fraction(printed.replace(",", "").replace("−", "-"))) <= Fraction(1, 2 * 10 ** dec)
        v = float(value)
    else:
        v = float(value)
        ok = abs(v - p) <= 0.5 * 10 ** (-dec) + 1e-12
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    print(f"[{status:9s}] {label}: printed {printed}  computed {v:.10g}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


def check_text(label, snippet):
    check_true(f"text: {label}", snippet in TEXT)


def table(k):
    """表 35.k の本体の行を、セルのリストとして返す（見出しと区切りの行は除く）。"""
    i = TEXT.index(f"**表 35.{k}**")
    lines = TEXT[i:].split("\n")
    rows = []
    started = False
    for ln in lines[1:]:
        if ln.startswith("|"):
            started = True
            rows.append([c.strip() for c in ln.strip().strip("|").split("|")])
        elif started:
            break
    return rows[2:]


def nums(cell):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", cell.replace("−", "-").replace("{,}", ""))]


rng = np.random.default_rng(12345)

# ---------- 章の例 W0 ----------
W0 = np.array([[1.5, -0.1, -1.6, 1.4, -0.3, 0.5, 0.2, -0.4],
               [-0.6, 1.3, -1.2, 0.7, 1.0, -1.1, 0.8, 0.9]])
W0F = [[Fraction(str(x)) for x in row] for row in W0]
mags = sorted(int(round(abs(x) * 10)) for x in W0.flat)
check_true("W0: magnitudes are 0.1..1.6, each once", mags == list(range(1, 17)))
tot = sum(x * x for row in W0F for x in row)
check("sum k^2, k = 1..16", "1,496", sum(k * k for k in range(1, 17)))
check("||W0||_F^2", "14.96", tot)
check("||W0||_F", "3.8678", math.sqrt(tot))
check_text("matrix display row 1", "1.5 & -0.1 & -1.6 & 1.4 & -0.3 & 0.5 & 0.2 & -0.4")
check_text("matrix display row 2", "-0.6 & 1.3 & -1.2 & 0.7 & 1.0 & -1.1 & 0.8 & 0.9")


def sq_err(W, mask):
    return sum(W[i][j] ** 2 for i in range(len(W)) for j in range(len(W[0])) if not mask[i][j])


def topk_mask(W, k):
    m, n = len(W), len(W[0])
    order = sorted(((i, j) for i in range(m) for j in range(n)), key=lambda ij: (-abs(W[ij[0]][ij[1]]), ij))
    keep = set(order[:k])
    return [[(i, j) in keep for j in range(n)] for i in range(m)]


def nm_mask(W, N, M):
    m, n = len(W), len(W[0])
    mask = [[False] * n for _ in range(m)]
    for i in range(m):
        for g in range(n // M):
            cols = sorted(range(g * M, g * M + M), key=lambda j: (-abs(W[i][j]), j))[:N]
            for j in cols:
                mask[i][j] = True
    return mask


# ---------- 補題と命題（大きさによる枝刈り） ----------
ok = True
for _ in range(300):
    P = int(rng.integers(1, 12))
    a = rng.random(P) * rng.integers(1, 5)
    for p in range(P + 1):
        S = np.sort(a)[:p].sum()
        ok &= S <= p / P * a.sum() + 1e-12 and a.sum() - S >= (P - p) / P * a.sum() - 1e-12
check_true("lemma: sum of the p smallest <= (p/P) T, largest P-p >= ((P-p)/P) T (random)", ok)
check_true("lemma: equality for 0 < p < P with all equal entries", abs(np.sort(np.full(7, 0.3))[:3].sum() - 3 / 7 * 2.1) < 1e-12)
ok = True
for _ in range(40):
    Wr = rng.standard_normal((2, 4)).tolist()
    for k in range(9):
        best = min(sq_err(Wr, [[(i * 4 + j) in S for j in range(4)] for i in range(2)])
                   for S in map(set, itertools.combinations(range(8), k)))
        mm = topk_mask(Wr, k)
        e = sq_err(Wr, mm)
        s = 1 - k / 8
        ok &= abs(e - best) < 1e-12 and e <= s * sum(x * x for r in Wr for x in r) + 1e-12
        x = rng.standard_normal(4)
        D = np.array([[Wr[i][j] * (not mm[i][j]) for j in range(4)] for i in range(2)])
        ok &= np.linalg.norm(D @ x) <= math.sqrt(e) * np.linalg.norm(x) + 1e-12
check_true("prop-magnitude 2, 3: top-k is optimal over all C(8,k) masks; bounds hold (random 2x4)", ok)
Wr = rng.standard_normal((3, 5))
Mk = rng.random((3, 5)) < 0.5
Wh = Wr * Mk + rng.standard_normal((3, 5)) * Mk * 0.1
check_true("prop-magnitude 1: changing kept values only increases the Frobenius error",
           ((Wr - Wh) ** 2).sum() > ((Wr - Wr * Mk) ** 2).sum())

# ---------- 例：W0 を半分に ----------
m8 = topk_mask(W0F, 8)
e8 = sq_err(W0F, m8)
check("sum k^2, k = 1..8", "204", sum(k * k for k in range(1, 9)))
check("top-8 error", "2.04", e8)
check("top-8 error / ||W0||^2 (%)", "13.64", 100 * e8 / tot)
check_true("top-8 keeps exactly the magnitudes 0.9..1.6",
           sorted(abs(W0F[i][j]) for i in range(2) for j in range(8) if m8[i][j]) == [Fraction(k, 10) for k in range(9, 17)])
check("bound s ||W0||^2", "7.48", Fraction(1, 2) * tot)
check("s = 0.5", "0.5", Fraction(1, 2))
check_true("2.04 / 7.48 is below 0.3 (「上界の 3 割以下」)", e8 / (tot / 2) < Fraction(3, 10))
counts = [sum(m8[i][g * 4 + j] for j in range(4)) for i in range(2) for g in range(2)]
check_true("kept per 4-column block: 3, 0, 2, 3", counts == [3, 0, 2, 3])
check_true("row 1 left block keeps 1.5, -1.6, 1.4",
           [W0F[0][j] for j in range(4) if m8[0][j]] == [Fraction("1.5"), Fraction("-1.6"), Fraction("1.4")])

# ---------- 35.3 節：マスクの数・位置・メモリ ----------
Ms, Ns = sp.symbols("M N", positive=True, integer=True)
ok = all(Fraction(comb(M - 1, N - 1), comb(M, N)) == Fraction(N, M) for M in range(1, 17) for N in range(1, M + 1))
check_true("C(M-1,N-1)/C(M,N) = N/M for 1 <= N <= M <= 16", ok)
ok = all(N * math.ceil(math.log2(M)) >= math.ceil(math.log2(comb(M, N))) and 2 ** (N * math.ceil(math.log2(M))) >= M ** N >= comb(M, N)
         for M in range(2, 33) for N in range(1, M + 1))
check_true("N ceil(log2 M) >= ceil(log2 C(M,N)) and 2^{N ceil log2 M} >= M^N >= C(M,N) (M <= 32)", ok)
check_true("memory ratio formula (N/M)(1 + ceil(log2 M)/b) for 2:4, b = 16 is 9/16",
           Fraction(1, 2) * (1 + Fraction(2, 16)) == Fraction(9, 16))
check("2:4 fp16 ratio 9/16", "0.5625", Fraction(9, 16))
check("9/16 in %", "56.25", 100 * Fraction(9, 16))
check("18/16 factor (numerator)", "18", 16 + 2)
check("C(4,2)", "6", comb(4, 2))
check("ceil(log2 6)", "3", math.ceil(math.log2(6)))
check("log2 6", "2.585", math.log2(6))
check("log2 6 / 2 per kept weight", "1.2925", math.log2(6) / 2)
check("4 - log2 6", "1.415", 4 - math.log2(6))
PATTERNS = {"1:2": (1, 2), "2:4": (2, 4), "4:8": (4, 8), "1:4": (1, 4), "2:8": (2, 8)}
rows = table(1)
check_true("table 35.1 has rows 1:2, 2:4, 4:8, 1:4, 2:8", [r[0] for r in rows] == list(PATTERNS))
for r in rows:
    N, M = PATTERNS.get(r[0], (1, 2))
    ib = math.ceil(math.log2(M))
    check(f"T1 {r[0]} density", r[1], Fraction(N, M), must_appear=False)
    check(f"T1 {r[0]} C(M,N)", r[2], comb(M, N), must_appear=False)
    check(f"T1 {r[0]} log2 C(M,N)", r[3], math.log2(comb(M, N)), must_appear=False)
    check(f"T1 {r[0]} N ceil(log2 M)", r[4], N * ib, must_appear=False)
    check(f"T1 {r[0]} ceil(log2 M)", r[5], ib, must_appear=False)
    check(f"T1 {r[0]} memory ratio (N/M)(16 + ceil log2 M)/16", r[6], Fraction(N, M) * Fraction(16 + ib, 16), must_appear=False)
check("1:4 fp16 ratio", "0.28125", Fraction(1, 4) * Fraction(18, 16))
check("1:4 int8 ratio", "0.3125", Fraction(1, 4) * Fraction(10, 8))
check("1:4 fp16 bytes of 16384 x 4096", "37,748,736", Fraction(16384 * 4096 * 18, 4 * 8))
check("1:4 fp16 MiB", "36", Fraction(16384 * 4096 * 18, 4 * 8 * 2 ** 20))
check("6^4", "1,296", 6 ** 4)
check("C(16,8)", "12,870", comb(16, 8))
check("6^4 / C(16,8) (%)", "10.1", 100 * Fraction(6 ** 4, comb(16, 8)))
check("log2 6^1024", "2,647.0", 1024 * math.log2(6))
log2C = float(sp.log(sp.binomial(4096, 2048), 2).evalf(30))
check("log2 C(4096, 2048)", "4,089.7", log2C)
check("Stirling 4096 - log2(2048 pi)/2", "4,089.7", 4096 - 0.5 * math.log2(2048 * math.pi))
check("log2 ratio of the counts", "1,442.7", log2C - 1024 * math.log2(6))
check("row length", "4,096", 4096)
check("kept per row", "2,048", 2048)
check("groups per row", "1,024", 4096 // 4)
check_true("6^1024 has the printed form 2^{2{,}647.0} and the ratio 2^{-1{,}442.7}",
           "2^{2{,}647.0}" in TEXT and "2^{-1{,}442.7}" in TEXT and "2^{4{,}089.7}" in TEXT)

# ---------- 例：W0 の 2:4 圧縮 ----------
m24 = nm_mask(W0F, 2, 4)
idx = [[j % 4 for j in range(8) if m24[i][j]] for i in range(2)]
vals = [[W0F[i][j] for j in range(8) if m24[i][j]] for i in range(2)]
check_true("2:4 positions per group {0,2}, {1,3}, {1,2}, {0,1}", idx == [[0, 2, 1, 3], [1, 2, 0, 1]])
check_text("position lists", "$(0, 2, 1, 3)$、$(1, 2, 0, 1)$")
check_true("compressed values (1.5, -1.6, 0.5, -0.4 / 1.3, -1.2, 1.0, -1.1)",
           vals == [[Fraction(x) for x in ("1.5", "-1.6", "0.5", "-0.4")], [Fraction(x) for x in ("1.3", "-1.2", "1.0", "-1.1")]])
check_text("values matrix", "1.5 & -1.6 & 0.5 & -0.4 \\\\ 1.3 & -1.2 & 1.0 & -1.1")
check("value bits 8 x 16", "128", 8 * 16)
check("index bits 8 x 2", "16", 8 * 2)
check("total bits", "144", 8 * 16 + 8 * 2)
check("dense bits 16 x 16", "256", 16 * 16)
check_true("144/256 = 0.5625", Fraction(144, 256) == Fraction(9, 16) and "144/256 = 0.5625" in TEXT)
cols = [4 * (j // 2) + idx[0][j] for j in range(4)]
check_true("row-1 columns restored as 0, 2, 5, 7", cols == [0, 2, 5, 7] and "$0, 2, 5, 7$" in TEXT)

# ---------- 定理：大きさによる N:M マスクは誤差最小 ----------
e24 = sq_err(W0F, m24)
gerr = []
gsum = []
for i in range(2):
    for g in range(2):
        cs = range(4 * g, 4 * g + 4)
        gerr.append(sum(W0F[i][j] ** 2 for j in cs if not m24[i][j]))
        gsum.append(sum(W0F[i][j] ** 2 for j in cs))
for k, pr in enumerate(["1.97", "0.13", "0.85", "1.45"]):
    check(f"2:4 group error {k + 1}", pr, gerr[k])
check("2:4 error", "4.40", e24)
check("2:4 error / ||W0||^2 (%)", "29.41", 100 * e24 / tot)
for k, pr in enumerate(["6.78", "0.54", "3.98", "3.66"]):
    check(f"group energy {k + 1}", pr, gsum[k])
for k, pr in enumerate(["3.39", "0.27", "1.99", "1.83"]):
    check(f"half of group energy {k + 1}", pr, gsum[k] / 2)
check_true("each group error <= half its energy", all(gerr[k] <= gsum[k] / 2 for k in range(4)))
check_text("pruned sets", "$\\{-0.1, 1.4\\}$、$\\{-0.3, 0.2\\}$、$\\{-0.6, 0.7\\}$、$\\{0.8, 0.9\\}$")
e12 = sq_err(W0F, nm_mask(W0F, 1, 2))
e48 = sq_err(W0F, nm_mask(W0F, 4, 8))
check("1:2 error", "4.59", e12)
check("4:8 error", "2.60", e48)
check_true("4.59 >= 4.40 >= 2.60 >= 2.04", e12 >= e24 >= e48 >= e8)
ok = True
for _ in range(60):
    Wr = rng.standard_normal((1, 8))
    if _ % 3 == 0:
        Wr = np.round(Wr * 2) / 2                          # 同じ絶対値（タイ）を作る
    Wl = Wr.tolist()
    allmasks = []
    for a in itertools.combinations(range(4), 2):
        for b in itertools.combinations(range(4, 8), 2):
            allmasks.append([[j in a + b for j in range(8)]])
    errs = [sq_err(Wl, mk) for mk in allmasks]
    emag = sq_err(Wl, nm_mask(Wl, 2, 4))
    nbest = sum(abs(e - min(errs)) < 1e-12 for e in errs)
    strict = all(sorted(np.abs(Wr[0, 4 * g:4 * g + 4]))[::-1][1] > sorted(np.abs(Wr[0, 4 * g:4 * g + 4]))[::-1][2]
                 for g in range(2))
    ok &= abs(emag - min(errs)) < 1e-12 and (nbest == 1) == strict
    ok &= emag <= 0.5 * (Wr ** 2).sum() + 1e-12
    e12r, e48r = sq_err(Wl, nm_mask(Wl, 1, 2)), sq_err(Wl, nm_mask(Wl, 4, 8))
    eun = sq_err(Wl, topk_mask(Wl, 4))
    ok &= e12r >= emag - 1e-12 and emag >= e48r - 1e-12 and e48r >= eun - 1e-12
check_true("thm-nm-optimal 2-4: 36 masks of a 1x8 row, uniqueness iff strict gaps (incl. ties), bound, inclusion order", ok)

# ---------- 35.5 節：OBD と OBS ----------
H = sp.Matrix([[3, 2, -1], [2, 2, -1], [-1, -1, 1]])
Hi = H.inv()
check_true("H^{-1} = [[1,-1,0],[-1,2,1],[0,1,2]] and det H = 1",
           Hi == sp.Matrix([[1, -1, 0], [-1, 2, 1], [0, 1, 2]]) and H.det() == 1)
check_text("H^{-1} display", "\\begin{pmatrix} 1 & -1 & 0 \\\\ -1 & 2 & 1 \\\\ 0 & 1 & 2 \\end{pmatrix}")
v1, v2, v3 = sp.symbols("v1 v2 v3")
v = sp.Matrix([v1, v2, v3])
check_true("v^T H v = (v3 - v1 - v2)^2 + (v1 + v2)^2 + v1^2 (sympy)",
           sp.expand((v.T * H * v)[0] - ((v3 - v1 - v2) ** 2 + (v1 + v2) ** 2 + v1 ** 2)) == 0)
check_true("H is positive definite (eigenvalues)", all(e > 0 for e in np.linalg.eigvalsh(np.array(H, dtype=float))))
w = [sp.Rational(7, 10), sp.Rational(-8, 10), sp.Integer(1)]
rows = table(2)
check_true("table 35.2 has 3 rows", [r[0] for r in rows] == ["1", "2", "3"])
obd, obs = [], []
for q in range(3):
    r = rows[q] if q < len(rows) else ["?"] * 9
    hq, hiq = H[q, q], Hi[q, q]
    so, ss = hq * w[q] ** 2 / 2, w[q] ** 2 / (2 * hiq)
    obd.append(so)
    obs.append(ss)
    dstar = -(w[q] / hiq) * Hi[:, q]
    check(f"T2 q={q + 1} w_q", r[1], Fraction(str(w[q])), must_appear=False)
    check(f"T2 q={q + 1} h_qq", r[2], int(hq), must_appear=False)
    check(f"T2 q={q + 1} OBD", r[3], Fraction(str(so)), must_appear=False)
    check(f"T2 q={q + 1} [H^-1]_qq", r[4], int(hiq), must_appear=False)
    check(f"T2 q={q + 1} OBS", r[5], Fraction(str(ss)), must_appear=False)
    check(f"T2 q={q + 1} OBS/OBD", r[6], Fraction(str(ss / so)), must_appear=False)
    check_true(f"T2 q={q + 1} ratio = 1/(h_qq [H^-1]_qq)", ss / so == 1 / (hq * hiq))
    check_true(f"T2 q={q + 1} delta* = {list(dstar)}", nums(r[7]) == [float(x) for x in dstar])
    after = [w[k] + dstar[k] for k in range(3)]
    check_true(f"T2 q={q + 1} w after = {after}", nums(r[8]) == [float(x) for x in after] and after[q] == 0)
    check_true(f"T2 q={q + 1}: (1/2) d*^T H d* equals OBS", ((dstar.T * H * dstar)[0] / 2) == ss)
check_true("magnitude picks w1, OBD picks w3, OBS picks w2",
           min(range(3), key=lambda k: abs(w[k])) == 0 and min(range(3), key=lambda k: obd[k]) == 2
           and min(range(3), key=lambda k: obs[k]) == 1)
d2 = -(w[1] / Hi[1, 1]) * Hi[:, 1]
check_text("delta* for q = 2", "\\boldsymbol{\\delta}^* = -\\frac{-0.8}{2}(-1,\\ 2,\\ 1) = (-0.4,\\ 0.8,\\ 0.4)")
check_true("H delta* = (0, 0.4, 0)", list(H * d2) == [0, sp.Rational(2, 5), 0] and "(0,\\ 0.4,\\ 0)" in TEXT)
check("1/2 x 0.8 x 0.4", "0.16", Fraction(1, 2) * Fraction(8, 10) * Fraction(4, 10))
check("OBS(w2)/OBS(w1) (%)", "65.3", 100 * Fraction(str(obs[1] / obs[0])))
check("OBS(w2)/OBD(w1) (%)", "21.8", 100 * Fraction(str(obs[1] / obd[0])))
check("magnitude choice with update", "0.245", Fraction(str(obs[0])))
check("magnitude choice without update", "0.735", Fraction(str(obd[0])))
check("OBD choice without update", "0.5", Fraction(str(obd[2])))
check("OBD choice with update", "0.25", Fraction(str(obs[2])))
# 命題：OBS の重要度と補正（乱数の正定値行列）
ok = True
for _ in range(200):
    P = int(rng.integers(2, 7))
    B = rng.standard_normal((P, P))
    Hn = B @ B.T + 0.1 * np.eye(P)
    wn = rng.standard_normal(P)
    Hinv = np.linalg.inv(Hn)
    for q in range(P):
        ds = -wn[q] / Hinv[q, q] * Hinv[:, q]
        free = [k for k in range(P) if k != q]
        # 制約つき最小化を直接解く：delta_q = -w_q、残りは H_ff u = H_fq w_q
        u = np.linalg.solve(Hn[np.ix_(free, free)], Hn[free, q] * wn[q])
        dd = np.zeros(P)
        dd[q] = -wn[q]
        dd[free] = u
        sob = wn[q] ** 2 / (2 * Hinv[q, q])
        ok &= np.allclose(dd, ds, atol=1e-9) and abs(dd @ Hn @ dd / 2 - sob) < 1e-9
        ok &= sob <= Hn[q, q] * wn[q] ** 2 / 2 + 1e-12 and Hn[q, q] * Hinv[q, q] >= 1 - 1e-12
check_true("prop-obs 1, 2: closed form = direct constrained minimum; OBS <= OBD; h_qq [H^-1]_qq >= 1 (random)", ok)
Hd = np.array([[2.0, 0, 0.5], [0, 3.0, 0], [0.5, 0, 1.0]])
Hdi = np.linalg.inv(Hd)
check_true("prop-obs 2: equality iff column q of H is a multiple of e_q (q = 2 equal, q = 1 strict)",
           abs(Hd[1, 1] * Hdi[1, 1] - 1) < 1e-12 and Hd[0, 0] * Hdi[0, 0] > 1 + 1e-6)
lam = 2.5
wl = np.array([0.3, -1.2, 0.7])
sl = wl ** 2 / (2 * np.diag(np.linalg.inv(lam * np.eye(3))))
check_true("prop-obs 3: H = lambda I gives OBS = OBD = lambda w^2 / 2, ordering by |w|",
           np.allclose(sl, lam * wl ** 2 / 2) and list(np.argsort(sl)) == list(np.argsort(np.abs(wl))))
# 注意：層ごとの 2 乗誤差
X = rng.standard_normal((50, 4))
wv = rng.standard_normal(4)
Lf = lambda wh: float(np.sum((X @ wh - X @ wv) ** 2))
Hx = 2 * X.T @ X
dl = rng.standard_normal(4)
check_true("layer-wise loss is exactly (1/2) d^T (2 X^T X) d", abs(Lf(wv + dl) - dl @ Hx @ dl / 2) < 1e-9)
obd_x = np.diag(Hx) * wv ** 2 / 2
wanda = np.abs(wv) * np.linalg.norm(X, axis=0)
check_true("diagonal OBD = (|w_j| ||X_j||)^2 (Wanda order)",
           np.allclose(obd_x, wanda ** 2) and list(np.argsort(obd_x)) == list(np.argsort(wanda)))

# ---------- 35.6 節：MLP ----------
d, dff = 4096, 4 * 4096
check("d", "4,096", d)
check("d_ff", "16,384", dff)
check("d d_ff", "67,108,864", d * dff)
check_true("d d_ff = 2^26, 2 d d_ff = 2^27", d * dff == 2 ** 26 and 2 * d * dff == 2 ** 27)
check("2 d d_ff", "134,217,728", 2 * d * dff)
check("FLOP 2 x 2 d d_ff", "268,435,456", 4 * d * dff)
check("2:4 multiplications", "67,108,864", d * dff)
check("dense fp16 bytes", "268,435,456", 2 ** 27 * 2)
check("dense MiB", "256", Fraction(2 ** 28, 2 ** 20))
check("2:4 values MiB", "128", Fraction(2 ** 26 * 2, 2 ** 20))
check("2:4 metadata bytes 2^24", "16", Fraction(2 ** 26 * 2, 8 * 2 ** 20))
check("2:4 total MiB", "144", Fraction(2 ** 27 + 2 ** 24, 2 ** 20))
check("saving MiB", "112", 256 - 144)
check("saving %", "43.75", 100 * Fraction(112, 256))
check("32 layers dense GiB", "8", Fraction(32 * 256, 1024))
check("32 layers 2:4 GiB", "4.5", Fraction(32 * 144, 1024))
check("b = 8 ratio (b+2)/(2b)", "0.625", Fraction(10, 16))
check("16/9", "1.78", Fraction(16, 9))
check_true("(b + 2)/(2b) at b = 16 is 9/16 and 2b/(b+2) = 16/9", Fraction(18, 32) == Fraction(9, 16) and Fraction(32, 18) == Fraction(16, 9))
# 2:4 の行列とベクトルの積で、0 を飛ばした乗算の回数を数える
Wt = rng.standard_normal((64, 32))
mk = np.array(nm_mask(Wt.tolist(), 2, 4))
xv = rng.standard_normal(32)
check_true("2:4 matvec: half the multiplications, same result as the masked dense product",
           mk.sum() == Wt.size // 2 and np.allclose([sum(Wt[i, j] * xv[j] for j in range(32) if mk[i, j]) for i in range(64)],
                                                     (Wt * mk) @ xv))
# 表 35.3
E1 = 16384 * 4096
rowptr = (16384 + 1) * 4
check("row pointers", "16,385", 16384 + 1)
check("row pointer bytes", "65,540", rowptr)
lb_bits = math.ceil(2 ** 24 * math.log2(6))
check("ceil(2^24 log2 6)", "43,368,475", lb_bits)
check("lower-bound metadata bytes", "5,421,060", math.ceil(lb_bits / 8))
formats = {
    "密な fp16": (16, 2 * E1),
    "2:4（2 ビットの位置）": (9, E1 + E1 // 8),
    "2:4 の下限（$\\log_2 6$ ビット/グループ）": (8 + math.log2(6) / 4, E1 + math.ceil(lb_bits / 8)),
    "ビットマップ": (9, E1 + E1 // 8),
    "CSR（int16 の列番号）": (16, E1 + E1 + rowptr),
    "CSR（int32 の列番号）": (24, E1 + 2 * E1 + rowptr),
}
rows = table(3)
check_true("table 35.3 has the 6 formats", [r[0] for r in rows] == list(formats))
for r in rows:
    bits, byts = formats.get(r[0], (0, 1))
    check(f"T3 {r[0]} bits/entry", r[1], bits, must_appear=False)
    check(f"T3 {r[0]} bytes", r[2], byts, must_appear=False)
    check(f"T3 {r[0]} MiB", r[3], Fraction(byts, 2 ** 20), must_appear=False)
    check(f"T3 {r[0]} ratio", r[4], Fraction(byts, 2 * E1), must_appear=False)
check("entries of W1^T", "67,108,864", E1)
check("2:4 total / lower bound", "1.04", Fraction(E1 + E1 // 8, E1 + math.ceil(lb_bits / 8)))
# 表 35.4
check("d^2", "16,777,216", d * d)
rows = table(4)
check_true("table 35.4 has n = 1,024 / 4,096 / 16,384 / 65,536", [r[0] for r in rows] == ["1,024", "4,096", "16,384", "65,536"])
for r in rows:
    n = int(r[0].replace(",", ""))
    dense = 4 * d * d + 2 * n * d + 2 * d * dff
    mlp = 4 * d * d + 2 * n * d + d * dff
    allp = 2 * d * d + 2 * n * d + d * dff
    check_true(f"T4 n={r[0]}: 4d^2 + 2nd + 2 d d_ff = 12 d^2 + 2nd", dense == 12 * d * d + 2 * n * d)
    check(f"T4 n={r[0]} dense", r[1], dense, must_appear=False)
    check(f"T4 n={r[0]} MLP 2:4", r[2], mlp, must_appear=False)
    check(f"T4 n={r[0]} proj+MLP 2:4", r[3], allp, must_appear=False)
    check(f"T4 n={r[0]} speed MLP = col2/col3", r[4], Fraction(int(parse(r[1])), int(parse(r[2]))), must_appear=False)
    check(f"T4 n={r[0]} speed all = col2/col4", r[5], Fraction(int(parse(r[1])), int(parse(r[3]))), must_appear=False)
    check_true(f"T4 n={r[0]} speeds = (6d+n)/(4d+n), (6d+n)/(3d+n)",
               Fraction(dense, mlp) == Fraction(6 * d + n, 4 * d + n) and Fraction(dense, allp) == Fraction(6 * d + n, 3 * d + n))
check("limit n -> 0, MLP only: 12/8", "1.5", Fraction(12, 8))

# ---------- 35.7 節：ランダムな枝刈り ----------
g1 = [Fraction(x) for x in ("1.5", "-0.1", "-1.6", "1.4")]
pairs = list(itertools.combinations(range(4), 2))
kept6 = [g1[a] ** 2 + g1[b] ** 2 for a, b in pairs]
for k, pr in enumerate(["2.26", "4.81", "4.21", "2.57", "1.97", "4.52"]):
    check(f"group-1 mask {pairs[k]} keeps", pr, kept6[k])
check("sum of the six", "20.34", sum(kept6))
check("mean of the six = half", "3.39", sum(kept6) / 6)
check_true("mean = half of 6.78 exactly", sum(kept6) / 6 == sum(x * x for x in g1) / 2)
check("magnitude keeps 4.81 / 6.78 (%)", "70.9", 100 * max(kept6) / sum(x * x for x in g1))
ok = True
for _ in range(100):
    M = int(rng.integers(2, 7))
    N = int(rng.integers(1, M + 1))
    g = rng.standard_normal(M)
    subsets = list(itertools.combinations(range(M), N))
    Ek = np.mean([sum(g[list(s)] ** 2) for s in subsets])
    top = set(np.argsort(-np.abs(g), kind="stable")[:N])
    ok &= abs(Ek - N / M * (g ** 2).sum()) < 1e-12
    ok &= sum(g[list(top)] ** 2) >= N / M * (g ** 2).sum() - 1e-12
    J = [len(top & set(s)) for s in subsets]
    ok &= all(abs(J.count(j) / len(subsets) - comb(N, j) * comb(M - N, N - j) / comb(M, N)) < 1e-12 for j in range(N + 1))
    ok &= abs(np.mean(J) - N * N / M) < 1e-12
check_true("prop-random 1-3: E kept = rho ||W||^2, magnitude >= rho ||W||^2, hypergeometric J, E J = N^2/M (exhaustive)", ok)
pJ = [Fraction(comb(2, j) * comb(2, 2 - j), 6) for j in (2, 1, 0)]
check_true("2:4: P(J=2) = 1/6, P(J=1) = 2/3, P(J=0) = 1/6, E J = 1",
           pJ == [Fraction(1, 6), Fraction(2, 3), Fraction(1, 6)] and 2 * pJ[0] + pJ[1] == 1)
# 正規分布
phi, Phi = stats.norm.pdf, stats.norm.cdf


def kappa_nm(N, M):
    G = lambda x: 2 * Phi(x) - 1
    g = lambda x: 2 * phi(x)
    tot_ = 0.0
    for k in range(1, N + 1):
        c = M * comb(M - 1, k - 1)
        tot_ += integrate.quad(lambda x: x * x * c * (1 - G(x)) ** (k - 1) * G(x) ** (M - k) * g(x),
                               0, np.inf, epsabs=1e-13, epsrel=1e-12)[0]
    return tot_ / M


def kappa_thr(rho):
    t = stats.norm.ppf(1 - rho / 2)
    return rho + 2 * t * phi(t), t


k12 = 0.5 + 1 / math.pi
check("1/2 + 1/pi", "0.8183", k12)
check_true("order-statistic integral for 1:2 equals 1/2 + 1/pi", abs(kappa_nm(1, 2) - k12) < 1e-10)
zs = sp.symbols("z", real=True)
phis = sp.exp(-zs ** 2 / 2) / sp.sqrt(2 * sp.pi)
check_true("E|A| = 2 int_0^inf z phi = sqrt(2/pi) (sympy)", sp.simplify(2 * sp.integrate(zs * phis, (zs, 0, sp.oo)) - sp.sqrt(2 / sp.pi)) == 0)
ts = sp.symbols("t", positive=True)
rhs = ts * phis.subs(zs, ts) + sp.Rational(1, 2) * sp.erfc(ts / sp.sqrt(2))     # t phi(t) + 1 - Phi(t)
check_true("int_t^inf z^2 phi = t phi(t) + 1 - Phi(t): derivative -t^2 phi(t) and limit 0 (sympy)",
           sp.simplify(sp.diff(rhs, ts) + ts ** 2 * phis.subs(zs, ts)) == 0 and sp.limit(rhs, ts, sp.oo) == 0)
check_true("... and the same at t = 0.3, 1, 2.5 by quadrature",
           all(abs(integrate.quad(lambda z: z * z * phi(z), t0, np.inf)[0] - float(rhs.subs(ts, t0))) < 1e-10
               for t0 in (0.3, 1.0, 2.5)))
Zs = rng.standard_normal((400000, 2))
check_true("Monte Carlo 1:2 kept energy within 0.003 of 1/2 + 1/pi",
           abs((Zs ** 2).max(axis=1).sum() / (Zs ** 2).sum() - k12) < 3e-3)
kthr, tthr = kappa_thr(0.5)
check("t = Phi^-1(3/4)", "0.6745", tthr)
check("threshold kappa at rho = 1/2", "0.9287", kthr)
kthr4, tthr4 = kappa_thr(0.25)
check("t = Phi^-1(7/8)", "1.1503", tthr4)
check_true("threshold kappa matches direct integration at rho = 1/2",
           abs(2 * integrate.quad(lambda x: x * x * phi(x), tthr, np.inf)[0] - kthr) < 1e-10)
ROWS5 = {("1:2", "0.5"): (1, 2), ("2:4", "0.5"): (2, 4), ("4:8", "0.5"): (4, 8), ("8:16", "0.5"): (8, 16),
         ("非構造", "0.5"): None, ("1:4", "0.25"): (1, 4), ("2:8", "0.25"): (2, 8), ("4:16", "0.25"): (4, 16),
         ("非構造", "0.25"): None}
rows = table(5)
check_true("table 35.5 has the 9 rows", [(r[0], r[1]) for r in rows] == list(ROWS5))
kap = {}
for r in rows:
    key = (r[0], r[1])
    rho = float(r[1])
    nm = ROWS5.get(key)
    if nm is not None:
        check_true(f"T5 {key} density N/M = {rho}", Fraction(nm[0], nm[1]) == Fraction(r[1]))
        kv = kappa_nm(*nm)
    else:
        kv = kappa_thr(rho)[0]
    kap[key] = kv
    check(f"T5 {key} random = rho", r[2], Fraction(r[1]), must_appear=False)
    check(f"T5 {key} magnitude kappa", r[3], kv, must_appear=False)
    check(f"T5 {key} error 1 - kappa", r[4], 1 - kv, must_appear=False)
    check(f"T5 {key} error ratio (1 - kappa)/(1 - rho)", r[5], (1 - kv) / (1 - rho), must_appear=False)
    check_true(f"T5 {key} error column = 1 - magnitude column (printed digits)",
               abs(parse(r[4]) - (1 - parse(r[3]))) < 1e-9)
for key in ROWS5:
    if key not in kap:
        kap[key] = kappa_nm(*ROWS5[key]) if ROWS5[key] else kappa_thr(float(key[1]))[0]
check_true("kappa increases with M at the same density (0.5 and 0.25)",
           kap[("1:2", "0.5")] < kap[("2:4", "0.5")] < kap[("4:8", "0.5")] < kap[("8:16", "0.5")] < kap[("非構造", "0.5")]
           and kap[("1:4", "0.25")] < kap[("2:8", "0.25")] < kap[("4:16", "0.25")] < kap[("非構造", "0.25")])
check("2:4 error / unstructured error", "1.86", (1 - kap[("2:4", "0.5")]) / (1 - kap[("非構造", "0.5")]))
check_true("2:4 error is about a quarter of random (0.24 < ratio < 0.27)", 0.24 < (1 - kap[("2:4", "0.5")]) / 0.5 < 0.27)
check("summary: 2:4 keeps about 86.8 %", "86.8", 100 * kap[("2:4", "0.5")])
check("random keeps 50 %", "50", 100 * Fraction(1, 2))

# ---------- 35.8 節：リストの実行と出力の照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0] if blocks else ("", "")
check_true("nm_prune.py on disk equals the listing", open(os.path.join(HERE, "nm_prune.py"), encoding="utf-8").read() == code)
check_true("listing has at most 60 lines", code.count("\n") <= 60)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)
out = printed_out.splitlines()
check_true("listing prints 8 lines", len(out) == 8)
if len(out) == 8:
    check_true("line 2 shows 14.96, 4.59, 4.40, 2.60, 2.04",
               out[1] == "|W|^2 %.2f  err 1:2 %.2f  2:4 %.2f  4:8 %.2f  top-8 %.2f" % (tot, e12, e24, e48, e8))
    bf = [float(x) for x in re.findall(r"\d+\.\d+", out[2])]
    Arng = np.random.default_rng(0).standard_normal((256, 256))
    check_true("line 3: brute force = magnitude", len(bf) == 2 and bf[0] == bf[1])
    check("line 3 error / sum of squares (%)", "13", 100 * bf[0] / (Arng ** 2).sum())
    check("groups of the 256 x 256 matrix", "16,384", 256 * 256 // 4)
    check("entries of the 256 x 256 matrix", "65,536", 256 * 256)
    mem = [int(x) for x in re.findall(r"\d{5,}", out[3])]
    check_true("line 4: 134217728, 67108864 + 8388608 = 75497472", mem == [2 * E1, E1, E1 // 8, E1 + E1 // 8])
    check("metadata 8,388,608 bytes", "8,388,608", E1 // 8)
    check("metadata MiB", "8", Fraction(E1 // 8, 2 ** 20), must_appear=False)
    ke = [float(x) for x in re.findall(r"\d\.\d{4}", out[4])]
    check("line 5 2:4 Monte Carlo", "0.8678", ke[0])
    check("line 5 top-50% Monte Carlo", "0.9287", ke[1])
    check("line 5 random 2:4 Monte Carlo", "0.4998", ke[2])
    check("|0.8678 - 0.8676|", "0.0002", Fraction("0.8678") - Fraction("0.8676"))
    check_true("Monte Carlo 2:4 within 0.001 of the integral", abs(ke[0] - kap[("2:4", "0.5")]) < 1e-3)
    check("2,048 x 2,048", "2,048", 2048)
    for q in range(3):
        vv = [float(x) for x in re.findall(r"-?\d+\.\d+", out[5 + q])]
        check_true(f"line {6 + q}: OBD, OBS and loss agree with table 35.2 (q={q + 1})",
                   abs(vv[0] - float(obd[q])) < 1e-9 and abs(vv[1] - float(obs[q])) < 1e-9 and abs(vv[-1] - float(obs[q])) < 1e-9)

# ---------- 演習 ----------
h11, h12, h22, w1 = sp.symbols("h11 h12 h22 w1", real=True)
H2 = sp.Matrix([[h11, h12], [h12, h22]])
check_true("exercise: s_OBS_1 = (1/2) w1^2 (h11 - h12^2/h22) (sympy)",
           sp.simplify(w1 ** 2 / (2 * H2.inv()[0, 0]) - sp.Rational(1, 2) * w1 ** 2 * (h11 - h12 ** 2 / h22)) == 0)
He = sp.Matrix([[2, 1], [1, 1]])
we = [sp.Rational(1, 2), sp.Rational(3, 5)]
Hei = He.inv()
check_true("exercise: det 1, H^-1 = [[1,-1],[-1,2]]", He.det() == 1 and Hei == sp.Matrix([[1, -1], [-1, 2]]))
so_e = [He[q, q] * we[q] ** 2 / 2 for q in range(2)]
ss_e = [we[q] ** 2 / (2 * Hei[q, q]) for q in range(2)]
check("exercise OBD w1", "0.25", Fraction(str(so_e[0])))
check("exercise OBD w2", "0.18", Fraction(str(so_e[1])))
check("exercise OBS w1", "0.125", Fraction(str(ss_e[0])))
check("exercise OBS w2", "0.09", Fraction(str(ss_e[1])))
de = -(we[1] / Hei[1, 1]) * Hei[:, 1]
check_true("exercise: delta* = (0.3, -0.6), w after = (0.8, 0), H delta* = (0, -0.3)",
           list(de) == [sp.Rational(3, 10), sp.Rational(-3, 5)] and [we[0] + de[0], we[1] + de[1]] == [sp.Rational(4, 5), 0]
           and list(He * de) == [0, sp.Rational(-3, 10)])
check_text("exercise delta* text", "= (0.3,\\ -0.6)")
check_true("exercise: (1/2) d^T H d = 0.09", (de.T * He * de)[0] / 2 == ss_e[1])
check_true("exercise: magnitude removes w1, OBD and OBS remove w2",
           abs(we[0]) < abs(we[1]) and so_e[1] < so_e[0] and ss_e[1] < ss_e[0])
xs = sp.symbols("x", positive=True)
Emax = sp.integrate(xs ** 2 * 2 * xs, (xs, 0, 1))
Esum = 2 * sp.integrate(xs ** 2, (xs, 0, 1))
check_true("exercise: E max^2 = 1/2, E(U1^2 + U2^2) = 2/3", Emax == sp.Rational(1, 2) and Esum == sp.Rational(2, 3))
check("uniform 1:2 kappa", "0.75", Fraction(str(Emax / Esum)))
rs = sp.symbols("rho", positive=True)
tt = 1 - rs
kap_u = sp.integrate(xs ** 2, (xs, tt, 1)) / sp.Rational(1, 3)
check_true("uniform threshold kappa = 1 - (1 - rho)^3", sp.simplify(kap_u - (1 - (1 - rs) ** 3)) == 0)
check("uniform threshold at rho = 1/2", "0.875", Fraction(7, 8))
Us = rng.uniform(-1, 1, (400000, 2))
check_true("Monte Carlo uniform 1:2 within 0.003 of 3/4", abs((Us ** 2).max(axis=1).sum() / (Us ** 2).sum() - 0.75) < 3e-3)

# ---------- 本文の残りの数 ----------
check("prose: 2:4 error 0.1324", "0.1324", 1 - kap[("2:4", "0.5")])
check("prose: unstructured error 0.0713", "0.0713", 1 - kap[("非構造", "0.5")])
check("prose: C(8,4) = 70 masks", "70", comb(8, 4))
check("prose: 72 MiB", "72", Fraction(E1 + E1 // 8, 2 ** 20))
check("exercise: w2^2 = 0.36", "0.36", Fraction(str(we[1] ** 2)))
check_text("exercise: (1/2)(-0.6)(-0.3) = 0.09", "\\frac12 \\times (-0.6) \\times (-0.3) = 0.09")
check_text("exercise: H delta* = (0, -0.3)", "H\\boldsymbol{\\delta}^* = (0,\\ -0.3)")
check_text("exercise: OBS vector", "(0.25/2,\\ 0.36/4) = (0.125,\\ 0.09)")
check_text("exercise: OBD vector", "(0.25,\\ 0.18)")
check_text("ex-running ranges 0.9-1.6 kept, 0.1-0.8 pruned", "絶対値 0.9〜1.6 の 8 個を残し、誤差は消した 0.1〜0.8")
check_true("ex-running: kept 0.9..1.6 and pruned 0.1..0.8 (W0)",
           sorted(abs(W0F[i][j]) for i in range(2) for j in range(8) if not m8[i][j]) == [Fraction(k, 10) for k in range(1, 9)])
check_text("ex-compress group tuples",
           "$(1.5, -0.1, -1.6, 1.4)$、$(-0.3, 0.5, 0.2, -0.4)$、$(-0.6, 1.3, -1.2, 0.7)$、$(1.0, -1.1, 0.8, 0.9)$")
check_true("ex-compress group tuples are the 4 groups of W0",
           [[float(x) for x in W0[i, 4 * g:4 * g + 4]] for i in range(2) for g in range(2)]
           == [[1.5, -0.1, -1.6, 1.4], [-0.3, 0.5, 0.2, -0.4], [-0.6, 1.3, -1.2, 0.7], [1.0, -1.1, 0.8, 0.9]])
check_true("35.4: row-1 left group loses 1.4 while the right group keeps 0.5 and -0.4",
           not m24[0][3] and m24[0][5] and m24[0][7])

# ---------- 文脈の照合：計算した値から文を組み立て、そのまま本文にあるかを見る ----------
f2 = lambda x: "%.2f" % float(x)
f4 = lambda x: "%.4f" % float(x)
ctx = [
    ("||W0||^2", "0.01 \\times (1^2 + 2^2 + \\cdots + 16^2) = 0.01 \\times 1{,}496 = %s" % f2(tot)),
    ("||W0||_F", "\\sqrt{14.96} \\approx %s" % f4(math.sqrt(tot))),
    ("top-8 error", "0.01 \\times (1^2 + \\cdots + 8^2) = 0.01 \\times 204 = %s" % f2(e8)),
    ("top-8 %", "$\\|W_0\\|_F^2$ の $%.2f$ %%" % (100 * e8 / tot)),
    ("bound", "s\\|W_0\\|_F^2 = 0.5 \\times 14.96 = %s" % f2(tot / 2)),
    ("group errors", "$%s + %s + %s + %s = %s$（$\\|W_0\\|_F^2$ の $%.2f$ %%）" % (*map(f2, gerr), f2(e24), 100 * e24 / tot)),
    ("group energies", "$%s$、$%s$、$%s$、$%s$ なので" % tuple(map(f2, gsum))),
    ("half energies", "（$%s$、$%s$、$%s$、$%s$）" % tuple(f2(x / 2) for x in gsum)),
    ("order", "1:2 が $%s$、2:4 が $%s$、4:8 が $%s$、非構造が $%s$" % (f2(e12), f2(e24), f2(e48), f2(e8))),
    ("six masks", "$%s$、$%s$、$%s$、$%s$、$%s$、$%s$ で、平均は $%s/6 = %s$" % (*map(f2, kept6), f2(sum(kept6)), f2(sum(kept6) / 6))),
    ("magnitude keeps", "最大の $%s$（$%.1f$ %%）" % (f2(max(kept6)), 100 * max(kept6) / sum(x * x for x in g1))),
    ("6^4, C(16,8)", "$6^4 = %s$ 通りで、8 個を残す任意のマスク $\\binom{16}{8} = %s$ 通りの約 %.1f %%"
     % ("{:,}".format(6 ** 4).replace(",", "{,}"), "{:,}".format(comb(16, 8)).replace(",", "{,}"), 100 * 6 ** 4 / comb(16, 8))),
    ("ceil log2 6", "$\\lceil\\log_2 6\\rceil = %d$ ビット" % math.ceil(math.log2(6))),
    ("log2 6", "$\\log_2 6 \\approx %.3f$ ビット、残す重み 1 個あたり約 $%.4f$ ビット" % (math.log2(6), math.log2(6) / 2)),
    ("1.415", "約 %.3f ビット多い" % (4 - math.log2(6))),
    ("entries", "$4{,}096 \\times 16{,}384 = 67{,}108{,}864 = 2^{26}$"),
    ("2 matrices", "2 つで $134{,}217{,}728 = 2^{27}$ 個"),
    ("mults", "$2d\\,d_{\\mathrm{ff}} = %s$ 回（加算も数えた FLOP では $%s$）から、2:4 で $%s$ 回"
     % tuple("{:,}".format(x).replace(",", "{,}") for x in (2 * d * dff, 4 * d * dff, d * dff))),
    ("bytes", "$2^{27} \\times 2 = %s$ バイト $= %d$ MiB" % ("{:,}".format(2 ** 28).replace(",", "{,}"), 2 ** 28 // 2 ** 20)),
    ("32 layers", "$32 \\times 256$ MiB $= %d$ GiB から $32 \\times 144$ MiB $= %.1f$ GiB" % (32 * 256 // 1024, 32 * 144 / 1024)),
    ("1:4 MiB", "$67{,}108{,}864 \\times \\frac14 \\times 18$ ビット $= %s$ バイト $= %d$ MiB"
     % ("{:,}".format(E1 * 18 // 32).replace(",", "{,}"), E1 * 18 // 32 // 2 ** 20)),
    ("9/16", "$9/16 = %.2f$ %%" % (100 * 9 / 16)),
    ("obs 0.16", "\\frac12 \\times 0.8 \\times 0.4 = %.2f" % float(obs[1])),
    ("obs percentages", "それぞれの約 %.1f %%、約 %.1f %%" % (100 * float(obs[1] / obs[0]), 100 * float(obs[1] / obd[0]))),
    ("35.7 final", "2:4 の誤差 %s はランダムな枝刈りの約 4 分の 1 で、非構造の %s の約 %.2f 倍"
     % (f4(1 - kap[("2:4", "0.5")]), f4(1 - kap[("非構造", "0.5")]), (1 - kap[("2:4", "0.5")]) / (1 - kap[("非構造", "0.5")]))),
    ("t(1/2)", "$t = \\Phi^{-1}(3/4) \\approx %s$、$\\kappa \\approx %s$" % (f4(tthr), f4(kthr))),
    ("t(1/4)", "$t = \\Phi^{-1}(7/8) \\approx %s$" % f4(tthr4)),
    ("1/2 + 1/pi", "\\dfrac12 + \\dfrac{1}{\\pi} \\approx %s" % f4(k12)),
    ("uniform", "$\\kappa = \\frac{1/2}{2/3} = \\frac34 = %.2f$" % float(Emax / Esum)),
    ("uniform vs gauss", "正規分布では $%s$ と $%s$ で" % (f4(k12), f4(kthr))),
    ("summary 86.8", "約 %.1f %% が残ります" % (100 * kap[("2:4", "0.5")])),
    ("listing MC", "$0.8678$（表 35.5 の $%s$ との差は $0.0002$）" % f4(kap[("2:4", "0.5")])),
    ("listing sizes", "$%s$ 個のグループすべてで" % "{:,}".format(256 * 256 // 4).replace(",", "{,}")),
    ("memory ratio 144/256", "計 144 ビットで、密な $16 \\times 16 = 256$ ビットの $144/256 = %.4f$ 倍" % (144 / 256)),
    ("stirling", "$4{,}096 - \\frac12\\log_2(2{,}048\\pi) \\approx %s$" % ("{:,.1f}".format(4096 - 0.5 * math.log2(2048 * math.pi)).replace(",", "{,}"))),
    ("csr note", "\\lceil 2^{24}\\log_2 6\\rceil = %s$ ビットを 8 で割って切り上げた $%s$ バイト"
     % ("{:,}".format(lb_bits).replace(",", "{,}"), "{:,}".format(math.ceil(lb_bits / 8)).replace(",", "{,}"))),
]
for item in ctx:
    label, snippet = item
    check_true(f"context: {label}: {snippet}", snippet in TEXT)

# ---------- 構造 ----------
ids = re.findall(r'<(?:Definition|Lemma|Proposition|Theorem|Example|Remark|Exercise) id="([^"]+)"', TEXT)
refs = [r for r in re.findall(r'<Ref to="([^"]+)"', TEXT) if "/" not in r]
check_true(f"all local <Ref> targets exist ({len(set(refs))} distinct)", set(refs) <= set(ids))
check_true("every element id is unique", len(ids) == len(set(ids)))
proofs = re.findall(r'<Proof of="([^"]+)">', TEXT)
check_true("every lemma / proposition / theorem has a proof",
           set(re.findall(r'<(?:Lemma|Proposition|Theorem) id="([^"]+)"', TEXT)) == set(proofs))
secs = re.findall(r"^## 35\.(\d+)\. ", TEXT, re.M)
check_true("sections 35.0 .. 35.9 in order", secs == [str(i) for i in range(10)])
tabs = re.findall(r"\*\*表 35\.(\d+)\*\*", TEXT)
check_true("tables 35.1 .. 35.5 in order", tabs == ["1", "2", "3", "4", "5"])
check_true("at least two exercises with solutions",
           len(re.findall(r"<Exercise ", TEXT)) >= 2 and len(re.findall(r"<Exercise ", TEXT)) == len(re.findall(r"<Solution>", TEXT)))
nlines = TEXT.count("\n")
check_true(f"chapter length 300-450 lines ({nlines})", 300 <= nlines <= 450)

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural, symbolic and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

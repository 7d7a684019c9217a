"""decoding.txt（出力分布とデコーディング）に印字された数値を、定義から計算し直して照合する。

各数値について「印字された文字列」と「定義から計算した値」を組にし、
印字の桁数で丸めた計算値が印字と一致するかを調べる。表は本文から読み取って
セルごとに照合する。最後に 7 節のコードを実行し、出力が本文の出力と
1 文字も違わないことを確かめる。1 つでも違えば終了コード 1 で終わる。
"""
import math
import re
import subprocess
import sys
from itertools import product
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TEXT = (HERE / "decoding.txt").read_text(encoding="utf-8")
LINES = TEXT.split("\n")

results = []   # (ok, label, printed, computed)


def fmt_like(printed, value):
    """printed と同じ桁数で value を書く。"""
    p = printed.replace("{,}", "").replace(",", "").replace("−", "-")
    if "." in p:
        d = len(p.split(".")[1])
        out = f"{value:.{d}f}"
    else:
        out = str(int(round(value)))
    if out.startswith("-") and float(out) == 0.0:
        out = out[1:]
    return out


def chk(label, printed, value, in_text=True):
    """printed（本文の文字列）と、計算値 value を照合する。"""
    p = printed.replace("{,}", "").replace(",", "")
    ok = fmt_like(printed, value) == p
    if in_text and printed not in TEXT:
        ok = False
        label += "  [本文に見当たらない]"
    results.append((ok, label, printed, fmt_like(printed, value)))


def chk_true(label, cond):
    results.append((bool(cond), label, "-", "真" if cond else "偽"))


def table(header_start):
    """header_start で始まる行の次から、空行までの表の行をセルのリストで返す。"""
    for i, line in enumerate(LINES):
        if line.startswith(header_start):
            rows = []
            for row in LINES[i + 1:]:
                if not row.strip():
                    break
                rows.append(row.split("\t"))
            return rows
    raise KeyError(header_start)


def T_of(cell):
    return math.inf if cell == "$\\infty$" else float(cell)


# ---------------------------------------------------------------- 定義
def softmax_t(z, T=1.0):
    z = np.asarray(z, dtype=float)
    if math.isinf(T):
        return np.full(len(z), 1.0 / len(z))
    s = z / T
    e = np.exp(s - s.max())
    return e / e.sum()


def H(p):
    p = np.asarray(p, dtype=float)
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def CE(q, p):
    return float(-(q * np.log(p)).sum())


def KL(q, p):
    m = q > 0
    return float((q[m] * np.log(q[m] / p[m])).sum())


def LSE(z):
    z = np.asarray(z, dtype=float)
    return float(z.max() + np.log(np.exp(z - z.max()).sum()))


def mean(p, z):
    return float(p @ z)


def var(p, z):
    return float(p @ (z - p @ z) ** 2)


def k_tau(p, tau):
    c = np.cumsum(np.sort(p)[::-1])
    return int(np.argmax(c >= tau - 1e-12)) + 1


q = np.array([0.5, 0.2, 0.15, 0.1, 0.05])
z5 = np.array([2.0, 1.0, 0.5, 0.0, -1.0])
z = np.array([3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0])

# ---------------------------------------------------------------- 1 節・例 3.2
p5 = softmax_t(z5)
ce5, h5, kl5 = CE(q, p5), H(q), KL(q, p5)
chk("1 節: 例のパープレキシティ", "3.86", math.exp(ce5))
chk("例 3.2: sum e^z5", "13.1239", np.exp(z5).sum())
for j, s in enumerate(["0.5630", "0.2071", "0.1256", "0.0762", "0.0280"]):
    chk(f"例 3.2: p_{j+1}", s, p5[j])
chk("例 3.2: <q,z5>", "1.225", q @ z5)
chk("例 3.2: LSE(z5)", "2.5744", LSE(z5))
chk("例 3.2: LSE - 1.225", "1.3494", LSE(z5) - 1.225)
chk("例 3.2: CE", "1.3494", ce5)
chk("例 3.2: H(q)", "1.3331", h5)
chk("例 3.2: KL", "0.0164", kl5)
chk("例 3.2: CE = H + KL", "1.3494", h5 + kl5)
chk("例 3.2: e^1.3494", "3.8553", math.exp(ce5))
chk("例 3.2: e^H", "3.7927", math.exp(h5))
chk("例 3.2: 比 PPL / e^H", "1.0165", math.exp(ce5) / math.exp(h5))
chk("例 3.2: 一様なモデルの PPL", "5", math.exp(CE(q, softmax_t(z5, math.inf))), in_text=False)
chk("例 3.2: KL / CE (%)", "1.2", 100 * kl5 / ce5)
chk_true("例 3.2: 「約 1.2 %」が本文にある", "約 1.2 %" in TEXT)

# ---------------------------------------------------------------- 命題 4.1 のあとの数値
p1 = softmax_t(z)
chk("4.1 後: sum e^z", "37.8265", np.exp(z).sum())
chk("4.1 後: LSE(z)", "3.6330", LSE(z))
chk("4.1 後: E_p[z]", "2.2381", mean(p1, z))
chk("4.1 後: H(p_1)", "1.3949", H(p1))
chk("4.1 後: E + H = LSE", "3.6330", mean(p1, z) + H(p1))
chk("4.1 後: 2.2381 + 1.3949", "3.6330", 2.2381 + 1.3949)
chk("4.1 後: 3 + log 8", "5.0794", 3 + math.log(8))
chk("4.1 後: LSE - M", "0.6330", LSE(z) - 3)
chk("4.1 後: -log p_1", "0.6330", -math.log(p1[0]))
chk("4.1 後: p_{1,1}", "0.5310", p1[0])
chk_true("命題 4.1: M + T log|U| <= T LSE(z/T) <= M + T log|V|（T = 0.25, 0.5, 1, 2, 4）",
         all(3 - 1e-12 <= T * LSE(z / T) <= 3 + T * math.log(8) + 1e-12 for T in (0.25, 0.5, 1, 2, 4)))

# ---------------------------------------------------------------- 例 4.3 の表
rows = table("$T$\t$p_{T,1}$\t$p_{T,2}$\t$H(T)$")
chk_true("例 4.3: 表は 6 行", len(rows) == 6)
for r in rows:
    T = T_of(r[0])
    p = softmax_t(z, T)
    vals = [p[0], p[1], H(p), math.exp(H(p)), var(p, z)]
    for name, cell, v in zip(["p1", "p2", "H", "exp(H)", "Var"], r[1:], vals):
        chk(f"例 4.3 表 T={r[0]}: {name}", cell, v)
chk("例 4.3: e^3", "20.0855", math.exp(3))
chk("例 4.3: e^3 / 37.8265", "0.5310", math.exp(3) / np.exp(z).sum())
chk("例 4.3: 平均 5/8", "0.625", z.mean())
chk("例 4.3: 2 乗の平均 21.5/8", "2.6875", (z ** 2).mean())
chk("例 4.3: 和 21.5", "21.5", (z ** 2).sum())
chk("例 4.3: 一様分布の分散", "2.2969", (z ** 2).mean() - z.mean() ** 2)
chk("例 4.3: 傾き T=0.5", "2.18", var(softmax_t(z, 0.5), z) / 0.5 ** 3)
chk("例 4.3: 傾き T=1", "0.9243", var(p1, z) / 1.0)
chk("例 4.3: 傾き T=4", "0.0313", var(softmax_t(z, 4), z) / 4 ** 3)
chk("例 4.3: 4^3", "64", 4 ** 3)
h = 1e-6
fd = (H(softmax_t(z, 1 + h)) - H(softmax_t(z, 1 - h))) / (2 * h)
chk("命題 4.2 の 1: 中心差分 dH/dT at T=1", "0.9243", fd, in_text=False)
Ts = np.linspace(0.05, 20, 400)
Hs = [H(softmax_t(z, T)) for T in Ts]
chk_true("命題 4.2 の 2: H(T) は狭義増加", all(b > a for a, b in zip(Hs, Hs[1:])))
chk_true("命題 4.2 の 3: H(0.02) ~ log 1, H(1e4) ~ log 8",
         H(softmax_t(z, 0.02)) < 1e-8 and abs(H(softmax_t(z, 1e4)) - math.log(8)) < 1e-6)

# ---------------------------------------------------------------- 例 4.5
Eq = float(q @ z5)


def f(beta):
    return LSE(beta * z5) - beta * Eq


beta = 1.0
for _ in range(50):
    pb = softmax_t(z5 * beta)
    beta -= (mean(pb, z5) - Eq) / var(pb, z5)
Tstar = 1 / beta
chk("例 4.5: E_q[z5]", "1.225", Eq)
chk("例 4.5: 単純平均", "0.5", z5.mean())
chk("例 4.5: E_p[z5] at T=1", "1.3679", mean(p5, z5))
chk("例 4.5: f'(1)", "0.1429", mean(p5, z5) - Eq)
chk("例 4.5: T*", "1.2565", Tstar)
chk_true("命題 4.4: f は凸で T* で最小（格子で確認）",
         all(f(1 / Tstar) <= f(b) + 1e-15 for b in np.linspace(-3, 3, 601)))
chk_true("命題 4.4 の 1: f(0) = log 5", abs(f(0.0) - math.log(5)) < 1e-15)
rows = table("$T$\t$p_{T,1}$\t$\\mathrm{CE}")
chk_true("例 4.5: 表は 7 行", len(rows) == 7)
for r in rows:
    T = T_of(r[0])
    if r[0] == "1.2565":
        chk("例 4.5 表: 最適な温度の行", r[0], Tstar)
        T = Tstar
    p = softmax_t(z5, T)
    vals = [p[0], CE(q, p), math.exp(CE(q, p)), KL(q, p), mean(p, z5)]
    for name, cell, v in zip(["p1", "CE", "PPL", "KL", "E[z]"], r[1:], vals):
        chk(f"例 4.5 表 T={r[0]}: {name}", cell, v)
pstar = softmax_t(z5, Tstar)
chk("例 4.5: 平均の一致 1.2250", "1.2250", mean(pstar, z5))
chk("例 4.5: CE(T=1)", "1.3494", ce5)
chk("例 4.5: CE(T*)", "1.3345", CE(q, pstar))
chk("例 4.5: KL(T=1)", "0.0164", kl5)
chk("例 4.5: KL(T*)", "0.0014", KL(q, pstar))
chk("例 4.5: 約 12 分の 1", "12", kl5 / KL(q, pstar))
chk_true("例 4.5: 「約 12 分の 1」が本文にある", "約 12 分の 1" in TEXT)
chk("例 4.5: H(q)", "1.3331", h5)

# ---------------------------------------------------------------- 例 5.3
c1 = np.cumsum(p1)
for j, s in enumerate(["0.5310", "0.7263", "0.8448", "0.9167", "0.9603"]):
    chk(f"例 5.3: 累積 {j+1}", s, c1[j])
num3 = math.exp(3) + math.exp(2) + math.exp(1.5)
chk("例 5.3: e^3 + e^2 + e^1.5", "31.9563", num3)
chk("例 5.3: P(S_3)", "0.8448", num3 / np.exp(z).sum())
q3 = p1[:3] / p1[:3].sum()
for j, s in enumerate(["0.6285", "0.2312", "0.1402"]):
    chk(f"例 5.3: top-k 分布 {j+1}", s, q3[j])
    chk(f"例 5.3: softmax(3,2,1.5) {j+1}", s, softmax_t(z[:3])[j])
chk_true("例 5.3: sigma(1,2,0.5) の並べ替え", np.allclose(softmax_t([1, 2, 0.5])[[1, 0, 2]], q3))
chk("例 5.3: KL top-k", "0.1686", KL(np.r_[q3, np.zeros(5)], p1))
chk("例 5.3: -log 0.8448", "0.1686", -math.log(p1[:3].sum()))
chk("例 5.3: TV top-k", "0.1552", 0.5 * np.abs(np.r_[q3, np.zeros(5)] - p1).sum())
S124 = [0, 1, 3]
chk("例 5.3: P({1,2,4})", "0.7982", p1[S124].sum())
chk("例 5.3: KL({1,2,4})", "0.2254", -math.log(p1[S124].sum()))
chk_true("命題 5.2 の 2: 3 個の集合で P(S) 最大は S_3",
         max(p1[list(S)].sum() for S in __import__("itertools").combinations(range(8), 3)) == p1[:3].sum())
k9 = k_tau(p1, 0.9)
chk("例 5.3: k(0.9)", "4", k9, in_text=False)
chk_true("例 5.3: 「k(0.9) = 4」が本文にある", "k(0.9) = 4" in TEXT)
q4 = p1[:4] / p1[:4].sum()
for j, s in enumerate(["0.5793", "0.2131", "0.1293", "0.0784"]):
    chk(f"例 5.3: top-p 分布 {j+1}", s, q4[j])
chk("例 5.3: KL top-p", "0.0870", KL(np.r_[q4, np.zeros(4)], p1))
chk("例 5.3: -log 0.9167", "0.0870", -math.log(p1[:4].sum()))
chk("例 5.3: TV top-p", "0.0833", 0.5 * np.abs(np.r_[q4, np.zeros(4)] - p1).sum())

# ---------------------------------------------------------------- 例 5.5
rows = table("$T$\t$\\tau = 0.5$")
taus = (0.5, 0.8, 0.9, 0.95)
chk_true("例 5.5: 表は 6 行", len(rows) == 6)
for r in rows:
    T = T_of(r[0])
    p = softmax_t(z, T)
    for tau, cell in zip(taus, r[1:]):
        kk = math.ceil(8 * tau - 1e-12) if math.isinf(T) else k_tau(p, tau)
        chk(f"例 5.5 表 T={r[0]}, tau={tau}", cell, kk, in_text=False)
for T, s in zip((0.25, 0.5, 1, 2, 4), ["0.9972", "0.9359", "0.7263", "0.5062", "0.3757"]):
    chk(f"例 5.5: P_T(S_2) T={T}", s, softmax_t(z, T)[:2].sum())
chk("例 5.5: P_inf(S_2)", "0.25", 2 / 8)
Tg = np.linspace(0.05, 30, 600)
chk_true("命題 5.4: P_T(S_k) は T について非増加（k = 1..7）",
         all(all(b <= a + 1e-15 for a, b in zip(P, P[1:]))
             for P in ([softmax_t(z, T)[:k].sum() for T in Tg] for k in range(1, 8))))

# ---------------------------------------------------------------- 例 6.3 と 注意 6.4（小さな木でのビーム探索）


def beam_tree(cond, N, B, V="abc"):
    """cond(prefix) -> 各トークンの確率の dict。幅 B のビーム探索。"""
    beams = [("", 0.0)]
    for _ in range(N):
        cand = [(y + v, s + math.log(cond(y)[v])) for y, s in beams for v in V if cond(y)[v] > 0]
        cand.sort(key=lambda c: -c[1])
        beams = cand[:B]
    return beams[0]


tree1 = {"": dict(a=0.5, b=0.4, c=0.1), "a": dict(a=0.4, b=0.3, c=0.3),
         "b": dict(a=0.1, b=0.8, c=0.1), "c": dict(a=0.9, b=0.05, c=0.05)}
g_seq, g_s = beam_tree(tree1.get, 2, 1)
b_seq, b_s = beam_tree(tree1.get, 2, 2)
allseq = {y1 + y2: tree1[""][y1] * tree1[y1][y2] for y1 in "abc" for y2 in "abc"}
chk_true("例 6.3: 貪欲法は aa、幅 2 は bb、全探索の最良も bb",
         g_seq == "aa" and b_seq == "bb" and max(allseq, key=allseq.get) == "bb")
chk("例 6.3: 貪欲の確率", "0.20", math.exp(g_s))
chk("例 6.3: log 0.20", "-1.6094", g_s)
chk("例 6.3: ab", "0.15", allseq["ab"])
chk("例 6.3: ba", "0.04", allseq["ba"])
chk("例 6.3: bc", "0.04", allseq["bc"])
chk("例 6.3: bb", "0.32", allseq["bb"])
chk("例 6.3: log 0.32", "-1.1394", b_s)
chk("例 6.3: ca", "0.09", allseq["ca"])
chk("例 6.3: 列の数 9", "9", len(allseq))
chk("例 6.3: 貪欲の候補 3 + 3", "6", 3 + 3, in_text=False)
chk("例 6.3: ビームの候補 3 + 2*3", "9", 3 + 2 * 3, in_text=False)
chk_true("例 6.3: 候補数の式が本文にある", "3 + 3 = 6" in TEXT and "3 + 2 \\times 3 = 9" in TEXT and "3^2 = 9" in TEXT)

third = {"aa": dict(a=0.9, b=0.05, c=0.05)}
tree2 = {"": dict(a=0.5, b=0.45, c=0.05), "a": dict(a=0.4, b=0.3, c=0.3), "b": dict(a=0.48, b=0.48, c=0.04)}


def cond2(y):
    if y in tree2:
        return tree2[y]
    if y in third:
        return third[y]
    if len(y) == 2 and y[0] == "c":
        return dict(a=1 / 3, b=1 / 3, c=1 / 3)
    return dict(a=1 / 3, b=1 / 3, c=1 / 3)      # ba, bb など


g2, gs2 = beam_tree(cond2, 3, 1)
b2, bs2 = beam_tree(cond2, 3, 2)
chk_true("注意 6.4: 貪欲法は aaa、幅 2 は b で始まる列", g2 == "aaa" and b2[0] == "b")
chk("注意 6.4: 貪欲の確率", "0.18", math.exp(gs2))
chk("注意 6.4: ba, bb の確率", "0.216", 0.45 * 0.48)
chk("注意 6.4: 幅 2 の確率", "0.072", math.exp(bs2))
chk_true("注意 6.4: 0.216 > 0.20", 0.45 * 0.48 > 0.5 * 0.4)

# ---------------------------------------------------------------- 例 6.5
sA, sB = math.log(0.6 * 0.5 * 0.5), math.log(0.6 * 0.8 ** 4 * 0.5)
chk("例 6.5: A の確率", "0.15", 0.6 * 0.5 * 0.5)
chk("例 6.5: B の確率", "0.12288", 0.6 * 0.8 ** 4 * 0.5)
chk("例 6.5: s_A", "-1.8971", sA)
chk("例 6.5: s_B", "-2.0965", sB)
chk("例 6.5: log(s_B/s_A)", "0.09995", math.log(sB / sA))
chk("例 6.5: log 2", "0.69315", math.log(2))
chk("例 6.5: |s_B|（境目の式の中）", "2.0965", -sB)
chk("例 6.5: |s_A|（境目の式の中）", "1.8971", -sA)
astar = math.log(sB / sA) / math.log(6 / 3)
chk("例 6.5: alpha*", "0.1442", astar)
rows = table("$\\alpha$\t$s_\\alpha(A)")
chk_true("例 6.5: 表は 5 行", len(rows) == 5)
for r in rows:
    a = float(r[0])
    vA, vB = sA / 3 ** a, sB / 6 ** a
    chk(f"例 6.5 表 alpha={r[0]}: A", r[1], vA)
    chk(f"例 6.5 表 alpha={r[0]}: B", r[2], vB)
    chk_true(f"例 6.5 表 alpha={r[0]}: 上位", r[3] == ("$B$" if vB > vA else "$A$"))
chk_true("例 6.5: alpha >= 0.2 で B、alpha*=0.1442 の前後で入れ替わる", 0.1 < astar < 0.2)
chk("例 6.5: exp(-s_1(A))", "1.8821", math.exp(-sA / 3))
chk("例 6.5: exp(-s_1(B))", "1.4183", math.exp(-sB / 6))
chk("例 6.5: s_1(A) の絶対値", "0.6324", -sA / 3)
chk("例 6.5: s_1(B) の絶対値", "0.3494", -sB / 6)

# ---------------------------------------------------------------- 7 節の数値（コードとは独立に計算し直す）
chk("7 節: 8^4", "4{,}096", 8 ** 4, in_text=True)
rng = np.random.default_rng(0)
Rr = rng.dirichlet(np.ones(8), size=10_000)
best_random = float((Rr @ z - (Rr * np.log(Rr)).sum(axis=1)).max())
chk("7 節: 乱数の分布の最大", "3.5477", best_random)
chk_true("命題 4.1 の 1: 乱数の分布はどれも LSE(z) 未満", best_random < LSE(z))


def beam_bigram(logp0, logP, N, B):
    beams = [((int(j),), float(logp0[j])) for j in np.argsort(-logp0, kind="stable")[:B]]
    n_eval = len(logp0)
    for _ in range(N - 1):
        cand = [(y + (b,), s + float(logP[y[-1], b])) for y, s in beams for b in range(len(logp0))]
        n_eval += len(cand)
        cand.sort(key=lambda c: -c[1])
        beams = cand[:B]
    return beams[0][1], n_eval


V, N = 8, 4
found = {1: 0, 2: 0, 3: 0, 4: 0}
worse, evals = 0, {}
seqs = np.array(list(product(range(V), repeat=N)))
for _ in range(1000):
    lp0 = np.log(softmax_t(rng.standard_normal(V)))
    raw = rng.standard_normal((V, V))
    lP = np.log(np.array([softmax_t(row) for row in raw]))
    allsc = lp0[seqs[:, 0]] + lP[seqs[:, 0], seqs[:, 1]] + lP[seqs[:, 1], seqs[:, 2]] + lP[seqs[:, 2], seqs[:, 3]]
    best = allsc.max()
    sc = {}
    for B in found:
        sc[B], evals[B] = beam_bigram(lp0, lP, N, B)
        found[B] += sc[B] >= best - 1e-12
    worse += sc[2] < sc[1] - 1e-12
chk("7 節: 列の数", "4,096", len(seqs))
chk("7 節: 貪欲法で最良", "478", found[1])
chk("7 節: 貪欲法の割合 (%)", "47.8", found[1] / 10)
chk("7 節: 幅 2 で最良", "728", found[2])
chk("7 節: 幅 3 で最良", "859", found[3])
chk("7 節: 幅 4 で最良", "929", found[4])
chk("7 節: 幅 4 の候補数", "104", evals[4])
chk("7 節: 命題 6.2 の 4 の式", "104", 8 + 3 * 4 * 8, in_text=False)
chk("7 節: 104 / 4096 (%)", "2.5", 100 * evals[4] / 8 ** 4)
chk_true("7 節: 「約 2.5 %」が本文にある", "約 2.5 %" in TEXT)
chk("7 節: 幅 2 が貪欲より悪いモデル", "4", worse, in_text=False)
chk_true("7 節: 「モデルが 4 個」が本文にある", "モデルが 4 個" in TEXT)

# ---------------------------------------------------------------- 演習
c5 = np.cumsum(p5)
for j, s in enumerate(["0.5630", "0.7701", "0.8958"]):
    chk(f"演習 8.1: 累積 {j+1}", s, c5[j])
chk("演習 8.1: k(0.8)", "3", k_tau(p5, 0.8), in_text=False)
chk_true("演習 8.1: 「k(0.8) = 3」が本文にある", "k(0.8) = 3" in TEXT)
qq = p5[:3] / p5[:3].sum()
for j, s in enumerate(["0.6285", "0.2312", "0.1402"]):
    chk(f"演習 8.1: 切り詰めた分布 {j+1}", s, qq[j])
chk("演習 8.1: KL", "0.1101", KL(np.r_[qq, 0, 0], p5))
chk("演習 8.1: TV", "0.1042", 0.5 * np.abs(np.r_[qq, 0, 0] - p5).sum())
chk("演習 8.1: 1 - 0.8958", "0.1042", 1 - 0.8958)
chk("演習 8.1: 4 個目の累積", "0.9720", c5[3])
chk("演習 8.1: k(0.95)", "4", k_tau(p5, 0.95), in_text=False)
sA2, sB2 = math.log(0.5 * 0.4), math.log(0.5 * 0.8 * 0.8 * 0.5)
chk("演習 8.2: s_A", "-1.6094", sA2)
chk("演習 8.2: s_B", "-1.8326", sB2)
chk("演習 8.2: |s_B|（境目の式の中）", "1.8326", -sB2)
chk("演習 8.2: s_B / s_A", "1.1386", sB2 / sA2)
chk("演習 8.2: alpha*", "0.1873", math.log(sB2 / sA2) / math.log(4 / 2))
chk("演習 8.2: s_1(A)", "-0.8047", sA2 / 2)
chk("演習 8.2: s_1(B)", "-0.4581", sB2 / 4)
chk("演習 8.2: 確率 0.16", "0.16", 0.5 * 0.8 * 0.8 * 0.5)

# ---------------------------------------------------------------- コードの出力
start = next(i for i, l in enumerate(LINES) if l.startswith("# Python 3.11.7, NumPy"))
out0 = next(i for i, l in enumerate(LINES) if i > start and l.startswith("T=0.25  p1"))
code = "\n".join(LINES[start:out0]).rstrip() + "\n"
end = next(i for i in range(out0, len(LINES)) if not LINES[i].strip())
expected = "\n".join(LINES[out0:end]) + "\n"
run = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True, cwd="/")
chk_true("7 節のコード: 出力が本文と完全に一致", run.returncode == 0 and run.stdout == expected)
if run.stdout != expected:
    print("---- 期待\n" + expected + "---- 実際\n" + run.stdout + run.stderr)

# 出力の各数値も、上で計算した値と照合する
m = re.findall(r"[-\d.]+", expected)
listing_vals = [float(x) for x in m if re.fullmatch(r"-?\d+(\.\d+)?", x)]
chk_true("7 節の出力: 最良の数（478, 728, 859, 929）と悪化の数 4",
         f"B=1 {found[1]}  B=2 {found[2]}  B=3 {found[3]}  B=4 {found[4]}" in expected
         and f"B=2 worse than B=1: {worse}" in expected)
chk_true("7 節の出力: 最適な温度", f"best T {Tstar:.4f}  cross-entropy {CE(q, pstar):.4f}  H(q) {h5:.4f}" in expected)

# ---------------------------------------------------------------- 報告
bad = 0
n_num = sum(1 for r in results if r[2] != "-")
for ok, label, printed, got in results:
    mark = "OK " if ok else "NG "
    if not ok:
        bad += 1
    if printed == "-":
        print(f"{mark}{label}")
    else:
        print(f"{mark}{label}: 印字 {printed}  計算 {got}")
print(f"\n照合した数値 {n_num} 個、性質・一致の確認 {len(results) - n_num} 件、不一致 {bad} 件")
sys.exit(1 if bad else 0)

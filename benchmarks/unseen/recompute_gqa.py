"""gqa.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

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
TEXT = open(os.path.join(HERE, "gqa.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",")
results = []
numeric = []  # 印字された数との照合だけを数える


def parse(printed):
    return float(printed.replace(",", ""))


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 章に印字された文字列。value: 定義から計算した値。"""
    dec = decimals(printed)
    v = float(value)
    ok = round(v, dec) == round(parse(printed), dec) or abs(v - parse(printed)) < 0.5 * 10 ** (-dec) + 1e-12
    if isinstance(value, (int, Fraction)) and dec == 0:
        ok = Fraction(value) == Fraction(int(parse(printed)))
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    print(f"[{status:9s}] {label}: printed {printed}  computed {v:.10g}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


# ---------- 2 節：kappa ----------
def kappa(a, h, g):
    return math.ceil(Fraction(a, h // g))


for g, seq in ((8, "1, 2, \\ldots, 8"), (4, "1, 1, 2, 2, 3, 3, 4, 4"), (2, "1, 1, 1, 1, 2, 2, 2, 2")):
    vals = [kappa(a, 8, g) for a in range(1, 9)]
    shown = "1, 2, \\ldots, 8" if vals == list(range(1, 9)) else ", ".join(map(str, vals))
    check_true(f"kappa h=8 g={g}: {shown}", shown == seq and seq in TEXT)
check_true("kappa h=8 g=1 all 1", all(kappa(a, 8, 1) == 1 for a in range(1, 9)))
r_def = sp.symbols("r", positive=True, integer=True)
check_true("G_b = {(b-1)r+1..br}", all(
    {a for a in range(1, 13) if kappa(a, 12, g) == b} == set(range((b - 1) * (12 // g) + 1, b * (12 // g) + 1))
    for g in (1, 2, 3, 4, 6, 12) for b in range(1, g + 1)))

# ---------- 3 節：入れ子 ----------
k4 = [kappa(a, 8, 4) for a in range(1, 9)]
check_true("ceil(kappa_4/2) = kappa_2 (h=8)", [math.ceil(Fraction(c, 2)) for c in k4] == [kappa(a, 8, 2) for a in range(1, 9)])
check_true("ceil identity holds for g | g' | h", all(
    kappa(a, h, g) == math.ceil(Fraction(kappa(a, h, gp), gp // g))
    for h in (8, 12, 16, 32) for g in range(1, h + 1) if h % g == 0
    for gp in range(1, h + 1) if h % gp == 0 and gp % g == 0 for a in range(1, h + 1)))
check_true("h=12: heads 3,4 share g'=6 group {3,4}", kappa(3, 12, 6) == kappa(4, 12, 6) == 2)
check_true("h=12: head 3 in {1,2,3}, head 4 in {4,5,6} for g=4",
           kappa(3, 12, 4) == 1 and kappa(4, 12, 4) == 2
           and {a for a in range(1, 13) if kappa(a, 12, 4) == 1} == {1, 2, 3}
           and {a for a in range(1, 13) if kappa(a, 12, 4) == 2} == {4, 5, 6})

# ---------- 例：MQA の手計算 ----------
Kc = np.array([[1.0, 0], [0, 1], [1, 1]])
q1, q2 = np.array([2.0, 0]), np.array([0, 2.0])
s1, s2 = Kc @ q1 / np.sqrt(2), Kc @ q2 / np.sqrt(2)
w1 = np.exp(s1) / np.exp(s1).sum()
w2 = np.exp(s2) / np.exp(s2).sum()
o1, o2 = w1 @ Kc, w2 @ Kc
check("score sqrt(2)", "1.4142", s1[0])
check("e^1.4142", "4.1133", math.exp(math.sqrt(2)))
check("denominator 2e^sqrt2 + 1", "9.2265", np.exp(s1).sum())
check("head-1 weight 1", "0.4458", w1[0])
check("head-1 weight 2", "0.1084", w1[1])
check_true("head-2 weights = (0.1084, 0.4458, 0.4458)", np.allclose(np.round(w2, 4), [0.1084, 0.4458, 0.4458]))
check("head-1 output 1", "0.8916", o1[0])
check("head-1 output 2", "0.5542", o1[1])
check_true("head-2 output = (0.5542, 0.8916)", np.allclose(np.round(o2, 4), [0.5542, 0.8916]))
check("MQA cache 3*2+3*2", "12", 3 * 2 + 3 * 2)
check("MHA cache 2*12", "24", 2 * 12)

# ---------- 命題（記号） ----------
d, h, g, i, B, r = sp.symbols("d h g i B r", positive=True)
params = 2 * (1 + g / h) * (d**2 + d)
check_true("params at g=h is 4d^2+4d", sp.simplify(params.subs(g, h) - (4 * d**2 + 4 * d)) == 0)
check_true("params = Q + K + V + O", sp.simplify(
    (h * (d * d / h + d / h)) + 2 * g * (d * d / h + d / h) + (d**2 + d) - params) == 0)
P = (10 + 2 / r) * d**2
check_true("P at r=1 gives 12d^2 + 2id per token", sp.simplify((P + 2 * i * d).subs(r, 1) - (12 * d**2 + 2 * i * d)) == 0)
IB = B * (P + 2 * i * d) / (P + 2 * B * i * d / r)
lim = sp.limit(IB, B, sp.oo)
check_true("lim I_B = r + (5r+1)d/i", sp.simplify(lim - (r + (5 * r + 1) * d / i)) == 0)
check_true("lim at i=d is 6r+1", sp.simplify(lim.subs(i, d) - (6 * r + 1)) == 0)
check_true("crossover rP/(2id) = (5r+1)d/i", sp.simplify(r * P / (2 * i * d) - (5 * r + 1) * d / i) == 0)
check_true("dI_B/dB > 0", sp.simplify(sp.diff(IB, B) * (P + 2 * B * i * d / r) ** 2 / (P + 2 * i * d)) == sp.simplify(P))

# ---------- 例：d = 4096, h = 32 の表 ----------
D, H, L, N = 4096, 32, 32, 4096
dk = D // H


def attn_w(g):
    return Fraction(2 * (H + g), H) * D * D


def tok(g):
    return 2 * L * g * dk


rows1 = {}
for m in re.finditer(r"^\| (\d+) \| (\d+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| (\d+) \| ([\d,]+) \| ([\d.]+) \|$", NORM, re.M):
    rows1[int(m.group(1))] = m.groups()
check_true("table 1 has rows g = 32, 8, 4, 1", sorted(rows1) == [1, 4, 8, 32])
for gg in (32, 8, 4, 1):
    row = rows1.get(gg, ("?",) * 8)
    check(f"T1 g={gg} r", row[1], H // gg)
    check(f"T1 g={gg} attention weights", row[2], attn_w(gg))
    check(f"T1 g={gg} block weights", row[3], attn_w(gg) + 8 * D * D)
    check(f"T1 g={gg} cache/token", row[4], tok(gg))
    check(f"T1 g={gg} KiB", row[5], Fraction(2 * tok(gg), 1024))
    check(f"T1 g={gg} MiB n=4096", row[6], Fraction(2 * tok(gg) * N, 2**20))
    check(f"T1 g={gg} ratio", row[7], Fraction(tok(gg), tok(H)))

check("2*32*8*128", "65,536", 2 * 32 * 8 * 128)
check("2*65,536 bytes", "131,072", 2 * 65536)
check("KiB per token g=8", "128", Fraction(131072, 1024))
check("128*4096 KiB", "524,288", 128 * 4096)
check("MiB n=4096 g=8", "512", Fraction(524288, 1024))
check("8d^2", "134,217,728", 8 * D * D)
check("block ratio g=8", "0.875", (attn_w(8) + 8 * D * D) / (attn_w(32) + 8 * D * D))
check("block reduction %", "12.5", 100 * (1 - (attn_w(8) + 8 * D * D) / (attn_w(32) + 8 * D * D)))
check("MQA block ratio", "0.8385", (attn_w(1) + 8 * D * D) / (attn_w(32) + 8 * D * D))
check("16 * 2,048 MiB", "32,768", 16 * Fraction(2 * tok(32) * N, 2**20))
check("GiB MHA 16 seqs", "32", 16 * Fraction(2 * tok(32) * N, 2**30))
check("GiB g=8 16 seqs", "8", 16 * Fraction(2 * tok(8) * N, 2**30))

# ---------- 算術強度の表 ----------
I_POS = 4096


def Pw(g):
    return Fraction(10 * H + 2 * g, H) * D * D


def cache_read(g):
    return Fraction(2 * I_POS * D * g, H)


def mults(g):
    return Pw(g) + 2 * I_POS * D


def intensity(g, b):
    return b * mults(g) / (Pw(g) + b * cache_read(g))


rows2 = {}
for m in re.finditer(r"^\| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| (\d+) \| ([\d,]+) \| ([\d.]+) \|$", NORM, re.M):
    rows2[int(m.group(1))] = m.groups()
check_true("table 2 has rows g = 32, 8, 4, 1", sorted(rows2) == [1, 4, 8, 32])
for gg in (32, 8, 4, 1):
    row = rows2.get(gg, ("?",) * 7)
    rr = H // gg
    check(f"T2 g={gg} I_1", row[1], intensity(gg, 1))
    check(f"T2 g={gg} I_16", row[2], intensity(gg, 16))
    check(f"T2 g={gg} I_64", row[3], intensity(gg, 64))
    check(f"T2 g={gg} lim I", row[4], mults(gg) / cache_read(gg))
    check_true(f"T2 g={gg} lim = 6r+1 at i=d", mults(gg) / cache_read(gg) == 6 * rr + 1)
    check(f"T2 g={gg} mults L layers", row[5], L * mults(gg))
    check(f"T2 g={gg} GiB read", row[6], Fraction(2 * L * (Pw(gg) + cache_read(gg)), 2**30))
check("MHA crossover B = 5r+1", "6", 5 * 1 + 1)
check("MHA limit 6r+1", "7", 6 * 1 + 1)
check_true("I_1 < 1.2 for all g", max(intensity(gg, 1) for gg in (32, 8, 4, 1)) < Fraction(12, 10))
check("10.5 * 4096^2", "176,160,768", Fraction(21, 2) * D * D)
check_true("P(g=8) = 10.5 d^2", Pw(8) == Fraction(21, 2) * D * D)
check("2*4096*4096/4", "8,388,608", cache_read(8))
check("mults ratio g=8/g=32", "0.8929", mults(8) / mults(32))
check("FLOPs g=8", "13,421,772,800", 2 * L * mults(8))
check("FLOPs g=8 (x1e10)", "1.342", 2 * L * mults(8) / Fraction(10**10))
check("P + c for g=8", "184,549,376", Pw(8) + cache_read(8))
check("bytes read g=8", "11,811,160,064", 2 * L * (Pw(8) + cache_read(8)))
check("GiB read g=8", "11", Fraction(2 * L * (Pw(8) + cache_read(8)), 2**30))

# ---------- 例：平均プーリングの手計算 ----------
wa, wb = np.array([1, 2, 0]), np.array([3, 0, 2])
wbar = (wa + wb) / 2
check_true("w-bar = (2, 1, 1)", np.array_equal(wbar, [2, 1, 1]))
check_true("w-bar - w1 = (1, -1, 1), w-bar - w2 = (-1, 1, -1)",
           np.array_equal(wbar - wa, [1, -1, 1]) and np.array_equal(wbar - wb, [-1, 1, -1]))
Emin = ((wbar - wa) ** 2).sum() + ((wbar - wb) ** 2).sum()
check("E_min X = I", "6", int(Emin))
check("||w1 - w2||^2", "12", int(((wa - wb) ** 2).sum()))
check_true("first head = 2 E_min", ((wa - wb) ** 2).sum() == 2 * Emin)
x = np.ones(3)
check_true("keys 3 and 5, pooled 4", (x @ wa, x @ wb, x @ wbar) == (3, 5, 4))
check_true("errors 1 + 1 = 2 and 0 + 4 = 4",
           (x @ wbar - x @ wa) ** 2 + (x @ wbar - x @ wb) ** 2 == 2 and (x @ wa - x @ wb) ** 2 == 4)
# 分散の分解（命題 5.2 の 2）を乱数で確認
rng = np.random.default_rng(1)
Ks = rng.standard_normal((4, 5, 3))
Kt = rng.standard_normal((5, 3))
Kb = Ks.mean(axis=0)
lhs = ((Kt - Ks) ** 2).sum()
rhs = 4 * ((Kt - Kb) ** 2).sum() + ((Kb - Ks) ** 2).sum()
check_true("decomposition identity (random check)", abs(lhs - rhs) < 1e-10)

# ---------- 6 節：リストの実行と出力の照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("gqa.py on disk equals the listing", open(os.path.join(HERE, "gqa.py"), encoding="utf-8").read() == code)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)

sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import gqa as G  # noqa: E402

rng = np.random.default_rng(0)
p = G.init_params(8, 4, rng)
X = rng.standard_normal((6, 8))
Y = G.gqa(X, p)
change2 = np.linalg.norm(G.gqa(X, G.mean_pool(p, 2)) - Y) / np.linalg.norm(Y)
change1 = np.linalg.norm(G.gqa(X, G.mean_pool(p, 1)) - Y) / np.linalg.norm(Y)
K = G.proj(X, p, "K")
Kg = K.reshape(1, 4, 6, -1)
ratio1 = ((Kg - Kg[:, :1]) ** 2).sum() / ((Kg - Kg.mean(axis=1, keepdims=True)) ** 2).sum()
check("output change g=2 (remark)", "0.6596", change2)
check("ratio r=4", "2.2305", ratio1)
check_true("'7 割近く': both changes in [0.6, 0.7)", 0.6 <= change2 < 0.7 and 0.6 <= change1 < 0.7)
check("d^2 + d (d=8)", "72", 8 * 8 + 8)
for gg, coef, tot in ((4, "4", "288"), (2, "3", "216"), (1, "2.5", "180")):
    check(f"2(1+g/h) g={gg}", coef, 2 * Fraction(4 + gg, 4))
    check(f"params g={gg}", tot, 2 * Fraction(4 + gg, 4) * 72)

# ---------- 演習 ----------
d2 = 768
check("768^2", "589,824", d2 * d2)
check("d^2 + d (d=768)", "590,592", d2 * d2 + d2)
check("4 * 590,592", "2,362,368", 4 * 590592)
att = {gg: 2 * Fraction(12 + gg, 12) * (d2 * d2 + d2) for gg in (12, 4, 1)}
check("GPT2 attn g=12", "2,362,368", att[12])
check("GPT2 attn g=4", "1,574,912", att[4])
check("GPT2 attn g=1", "1,279,616", att[1])
for gg, pr in ((12, "18,432"), (4, "6,144"), (1, "1,536")):
    check(f"GPT2 cache/token g={gg}", pr, 2 * 12 * gg * 64)
V, Lctx, dff = 50257, 1024, 4 * d2
total = V * d2 + Lctx * d2 + 12 * (4 * d2 * d2 + 4 * d2 + 2 * d2 * dff + dff + d2 + 4 * d2) + 2 * d2
check("GPT2 total params", "124,439,808", total)
check("MQA saving", "12,993,024", 12 * (att[12] - att[1]))
check("MQA saving %", "10.44", 100 * 12 * (att[12] - att[1]) / total)
w = np.array([1, 2, 4, 5])
wb4 = w.mean()
Emin4 = ((w - wb4) ** 2).sum()
check("mean of 1,2,4,5", "3", wb4)
check("E_min r=4", "10", Emin4)
sel = [((w - w[a]) ** 2).sum() for a in range(4)]
check("choose head 1", "26", sel[0])
check("choose head 2", "14", sel[1])
check_true("choose heads: 26, 14, 14, 26 and = 4(w-3)^2 + 10",
           sel == [26, 14, 14, 26] and all(sel[a] == 4 * (w[a] - 3) ** 2 + 10 for a in range(4)))
check("0+1+9+16", "26", 0 + 1 + 9 + 16)
check("best / E_min", "1.4", Fraction(14, 10))
check("cache MiB per g: 2048/32", "64", Fraction(2048, 32))
check("16 * 64 MiB", "1,024", 16 * 64)
best = max(gg for gg in (1, 2, 4, 8, 16, 32) if 16 * Fraction(2 * tok(gg) * N, 2**30) <= 10)
check("largest g within 10 GiB", "8", best)
check("I_16 g=8 / MHA", "2.1", intensity(8, 16) / intensity(32, 16))
for gg, pr in ((32, "6"), (8, "21"), (1, "161")):
    check(f"crossover g={gg}", pr, 5 * (H // gg) + 1)
    check_true(f"crossover g={gg} equals r P/(2id) at i=d",
               Fraction(H // gg) * Pw(gg) / (2 * D * D) == 5 * (H // gg) + 1)

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

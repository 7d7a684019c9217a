"""attention_entropy.mdx に印字された数をすべて定義から計算し直し、印字の精度で照合する。

各行に「印字された値 / 計算した値 / 結果」を出し、1 つでも違えば終了コード 1 で終わる。
本文のリスティングは取り出して実行し、出力を本文の出力とそのまま比べる。
数値は mpmath（50 桁）で定義の式から計算し、記号の恒等式は sympy で確かめる。
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import mpmath as mp
import numpy as np
import sympy as sp

mp.mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "attention_entropy.mdx"), encoding="utf-8").read()
NORM = TEXT.replace("{,}", ",").replace("−", "-")
results = []
numeric = []


def decimals(printed):
    return len(printed.split(".")[1]) if "." in printed else 0


def present(printed):
    pat = r"(?<![\d.])" + re.escape(printed) + r"(?![\d])"
    return re.search(pat, NORM) is not None


def check(label, printed, value, must_appear=True):
    """printed: 本文の文字列。value: 定義から計算した値（mpmath / Fraction / int / float）。"""
    dec = decimals(printed)
    target = mp.mpf(printed.replace(",", ""))
    v = mp.mpf(value) if not isinstance(value, Fraction) else mp.mpf(value.numerator) / value.denominator
    ok = abs(v - target) <= mp.mpf(5) * mp.mpf(10) ** (-(dec + 1)) * (1 + mp.mpf(10) ** -30)
    found = present(printed) if must_appear else True
    status = "ok" if ok and found else ("NOT FOUND" if ok else "DIFFERS")
    results.append(status == "ok")
    numeric.append(status == "ok")
    print(f"[{status:9s}] {label}: printed {printed}  computed {mp.nstr(v, 12)}")


def check_true(label, cond):
    results.append(bool(cond))
    print(f"[{'ok' if cond else 'FAILS':9s}] {label}")


def H(p):
    return -mp.fsum(x * mp.log(x) for x in p if x > 0)


def softmax(z, beta=1):
    m = max(z)
    e = [mp.e ** (beta * (x - m)) for x in z]
    s = mp.fsum(e)
    return [x / s for x in e]


def h2(s):
    return H([s, 1 - s])


def var(p, z):
    mu = mp.fsum(a * b for a, b in zip(p, z))
    return mp.fsum(a * (b - mu) ** 2 for a, b in zip(p, z))


# ---------- 構造：参照・要素・数え上げ ----------
ids = set(re.findall(r'id="([^"]+)"', TEXT))
local_refs = {r for r in re.findall(r'<Ref to="([^"]+)"', TEXT) if "/" not in r}
check_true(f"every local <Ref> points to an element ({len(local_refs)} targets)", local_refs <= ids)
proofs = set(re.findall(r'<Proof of="([^"]+)"', TEXT))
check_true("every <Proof of> names an element", proofs <= ids)
m = re.search(r"次の 3 つの問いに命題として答えます。\n\n((?:\d\. .*\n)+)", TEXT)
check_true("'次の 3 つの問い' is followed by 3 items", m is not None and len(m.group(1).strip().split("\n")) == 3)
check_true("'次の 3 つを考える' defines 3 inverse temperatures",
           re.search(r"次の 3 つを考える。\n\n\$\$\n\\beta_n\^\{\\mathrm\{none\}\}.*\\beta_n\^\{\\log\}.*\\beta_n\^\{\\mathrm\{wt\}\}", TEXT) is not None)
for tag in ("Definition", "Proposition", "Theorem", "Lemma", "Corollary", "Example", "Exercise", "Solution", "Proof", "Aside"):
    check_true(f"<{tag}> tags balanced", TEXT.count(f"<{tag} ") + TEXT.count(f"<{tag}>") == TEXT.count(f"</{tag}>"))
nlines = TEXT.count("\n") + (0 if TEXT.endswith("\n") else 1)
check_true(f"chapter length 300-450 lines ({nlines})", 300 <= nlines <= 450)

# ---------- 記号の恒等式（定理・補題・命題の式） ----------
b, t = sp.symbols("beta tau", positive=True)
zs = sp.symbols("z1:5", real=True)
Zs = sum(sp.exp(b * zi) for zi in zs)
ps = [sp.exp(b * zi) / Zs for zi in zs]
mus = sum(pi * zi for pi, zi in zip(ps, zs))
vars_ = sum(pi * (zi - mus) ** 2 for pi, zi in zip(ps, zs))
Hs = -sum(pi * sp.log(pi) for pi in ps)
subs_num = {zs[0]: sp.Rational(2), zs[1]: sp.Rational(1, 3), zs[2]: -1, zs[3]: sp.Rational(5, 7), b: sp.Rational(3, 2)}
check_true("lemma: H = log Z - beta*mu (n = 4, exact at a rational point)",
           abs(sp.N((Hs - (sp.log(Zs) - b * mus)).subs(subs_num), 40)) < 1e-35)
check_true("theorem 1: dH/dbeta = -beta Var (n = 4, symbolic diff at a point)",
           abs(sp.N((sp.diff(Hs, b) + b * vars_).subs(subs_num), 40)) < 1e-35)
check_true("theorem 1: dmu/dbeta = Var",
           abs(sp.N((sp.diff(mus, b) - vars_).subs(subs_num), 40)) < 1e-35)
J = sp.diag(*ps) - sp.Matrix(ps) * sp.Matrix(ps).T
zvec = sp.Matrix(zs)
check_true("theorem 1: Var = z^T J z", abs(sp.N(((zvec.T * J * zvec)[0] - vars_).subs(subs_num), 40)) < 1e-35)
Ht = Hs.subs(b, 1 / t)
check_true("theorem 3: dH/dtau = Var/tau^3",
           abs(sp.N((sp.diff(Ht, t) - vars_.subs(b, 1 / t) / t**3).subs({**{k: v for k, v in subs_num.items() if k != b}, t: sp.Rational(2, 3)}), 40)) < 1e-35)
s_, n_ = sp.symbols("s n", positive=True)
fn = -s_ * sp.log(s_) - (1 - s_) * sp.log(1 - s_) + (1 - s_) * sp.log(n_ - 1)
check_true("grouping 2: f_n'(s) = log((1-s)/((n-1)s))",
           sp.simplify(sp.expand_log(sp.diff(fn, s_) - sp.log((1 - s_) / ((n_ - 1) * s_)), force=True)) == 0)
check_true("grouping 2: f_n'(1/n) = 0", sp.simplify(sp.diff(fn, s_).subs(s_, 1 / n_)) == 0)
w_, om, zz = sp.symbols("w omega z", positive=True)
zr = sp.symbols("zr", real=True)
phi = sp.exp(-zr**2 / (2 * om**2)) / sp.sqrt(2 * sp.pi * om**2)
bb = sp.symbols("bb", positive=True)
check_true("gaussian: e^{bz} phi(z) = e^{b^2 w^2/2} phi(z - b w^2)",
           sp.simplify(sp.exp(bb * zr) * phi - sp.exp(bb**2 * om**2 / 2) * phi.subs(zr, zr - bb * om**2)) == 0)
check_true("gaussian: E[e^{bz}] = e^{b^2 w^2/2}",
           sp.simplify(sp.integrate(sp.exp(bb * zr) * phi, (zr, -sp.oo, sp.oo)) - sp.exp(bb**2 * om**2 / 2)) == 0)
check_true("gaussian: E[z e^{bz}] = b w^2 e^{b^2 w^2/2}",
           sp.simplify(sp.integrate(zr * sp.exp(bb * zr) * phi, (zr, -sp.oo, sp.oo)) - bb * om**2 * sp.exp(bb**2 * om**2 / 2)) == 0)
lim = sp.log(sp.exp(bb**2 * om**2 / 2)) - bb * (bb * om**2 * sp.exp(bb**2 * om**2 / 2)) / sp.exp(bb**2 * om**2 / 2)
check_true("gaussian: limit = -b^2 w^2 / 2", sp.simplify(lim + bb**2 * om**2 / 2) == 0)
D, nt, nn, be = sp.symbols("Delta n_t n beta", positive=True)
pn = 1 / (1 + (nn - 1) * sp.exp(-be * D))
bwt = 1 + sp.log((nn - 1) / (nt - 1)) / D
check_true("needle 3: beta_wt keeps (n-1)e^{-beta Delta} = (n_t-1)e^{-Delta}",
           sp.simplify(sp.expand_log((nn - 1) * sp.exp(-bwt * D) - (nt - 1) * sp.exp(-D), force=True)) == 0)
kap = D / sp.log(nt)
odds = (pn / (1 - pn)).subs(be, sp.log(nn) / sp.log(nt))
log_diff = sp.expand_log(sp.log(sp.simplify(odds)), force=True) - sp.expand_log(sp.log(nn**kap / (nn - 1)), force=True)
check_true("needle 4: odds = n^kappa/(n-1) under log-n scaling", sp.simplify(log_diff) == 0
           and all(abs(sp.N((odds - nn**kap / (nn - 1)).subs({nn: v, nt: 1024, D: 8}), 30)) < 1e-20 for v in (3, 1024, 5000)))
check_true("needle 4: limits of odds for kappa = 1.5, 1, 0.5 are oo, 1, 0",
           [sp.limit(nn**k / (nn - 1), nn, sp.oo) for k in (sp.Rational(3, 2), 1, sp.Rational(1, 2))] == [sp.oo, 1, 0])
check_true("log-n = 1 + log(n/n_t)/log n_t", sp.simplify(sp.expand_log(sp.log(nn) / sp.log(nt) - 1 - sp.log(nn / nt) / sp.log(nt), force=True)) == 0)
rng = np.random.default_rng(7)
ok_group = ok_lb = ok_jac = ok_needle_max = True
for _ in range(300):
    nr = int(rng.integers(2, 12))
    zv = [mp.mpf(float(x)) for x in rng.normal(0, 2, nr)]
    p = softmax(zv)
    s = p[0]
    q = [x / (1 - s) for x in p[1:]]
    ok_group &= abs(H(p) - (h2(s) + (1 - s) * H(q))) < mp.mpf(10) ** -40
    w = max(zv) - min(zv)
    ok_lb &= H(p) >= -mp.log(max(p)) >= mp.log(1 + (nr - 1) * mp.e ** (-w)) - mp.mpf(10) ** -40
    Jm = [[(p[i] if i == j else 0) - p[i] * p[j] for j in range(nr)] for i in range(nr)]
    ok_jac &= max(abs(x) for row in Jm for x in row) <= 1 - mp.e ** (-H(p)) <= H(p)
    gap = zv[0] - max(zv[1:])
    if gap >= 0:
        beta = mp.mpf(float(rng.uniform(0.1, 3)))
        ok_needle_max &= H(softmax(zv, beta)) <= H(softmax([gap] + [0] * (nr - 1), beta)) + mp.mpf(10) ** -40
check_true("grouping identity H = h(s) + (1-s)H(q) (300 random rows)", ok_group)
check_true("lower bound H >= -log max p >= log(1+(n-1)e^{-w}) (300 random rows)", ok_lb)
check_true("corollary |J_ij| <= 1 - e^{-H} <= H (300 random rows)", ok_jac)
check_true("grouping 3: rows with gap >= Delta have H <= needle row (random rows)", ok_needle_max)

# ---------- 例 2.3：n = 4 の手計算 ----------
z4 = [mp.mpf(2), mp.mpf(1), mp.mpf(0), mp.mpf(-1)]
p4 = softmax(z4)
Z4 = mp.fsum(mp.e ** x for x in z4)
for lab, pr, v in (("e^2", "7.3891", mp.e**2), ("e^1", "2.7183", mp.e), ("e^-1", "0.3679", mp.e**-1), ("Z", "11.4752", Z4)):
    check(lab, pr, v)
for i, pr in enumerate(("0.6439", "0.2369", "0.0871", "0.0321")):
    check(f"p_{i + 1}", pr, p4[i])
for i, pr in enumerate(("0.2834", "0.3412", "0.2126", "0.1103")):
    check(f"-p_{i + 1} log p_{i + 1}", pr, -p4[i] * mp.log(p4[i]))
H4 = H(p4)
check("H(2,1,0,-1)", "0.9475", H4)
check("e^H", "2.5793", mp.e**H4)
check("e^0.9475 (printed H)", "2.5793", mp.e ** mp.mpf("0.9475"))
check("約 2.58 keys", "2.58", mp.e**H4)
check("log 4", "1.3863", mp.log(4))
check("H / log 4 in %", "68.4", 100 * H4 / mp.log(4))
check("log Z", "2.4402", mp.log(Z4))
mu4 = mp.fsum(a * b for a, b in zip(p4, z4))
check("mu = 2p1 + p2 - p4", "1.4927", mu4)
check_true("mu = 2p1 + p2 - p4 as a formula", abs(mu4 - (2 * p4[0] + p4[1] - p4[3])) < mp.mpf(10) ** -40)
check_true("chain 2.4402 - 1.4927 = 0.9475", Fraction("2.4402") - Fraction("1.4927") == Fraction("0.9475"))
check_true("rounded terms sum to 0.9475", Fraction("0.2834") + Fraction("0.3412") + Fraction("0.2126") + Fraction("0.1103") == Fraction("0.9475"))

# ---------- 例 4.2：温度の表 ----------
rows = {}
for line in NORM.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
    if len(cells) == 8 and cells[0] not in ("$\\tau$",):
        rows[cells[0]] = cells
check_true("temperature table has 7 rows", sorted(rows) == sorted(["$\\to 0$", "0.25", "0.5", "1", "2", "4", "$\\to \\infty$"]))
for tau_s in ("0.25", "0.5", "1", "2", "4"):
    row = rows.get(tau_s, ["?"] * 8)
    tau = mp.mpf(tau_s)
    beta = 1 / tau
    p = softmax(z4, beta)
    v = var(p, z4)
    check(f"T1 tau={tau_s} beta", row[1], beta)
    check(f"T1 tau={tau_s} p1", row[2], p[0])
    check(f"T1 tau={tau_s} H", row[3], H(p))
    check(f"T1 tau={tau_s} e^H", row[4], mp.e ** H(p))
    check(f"T1 tau={tau_s} Var", row[5], v)
    check(f"T1 tau={tau_s} dH/dbeta", row[6], -beta * v)
    check(f"T1 tau={tau_s} dH/dbeta = numeric derivative", row[6], mp.diff(lambda bb_: H(softmax(z4, bb_)), beta), must_appear=False)
    check(f"T1 tau={tau_s} dH/dtau", row[7], v / tau**3)
    check(f"T1 tau={tau_s} dH/dtau = numeric derivative", row[7], mp.diff(lambda tt: H(softmax(z4, 1 / tt)), tau), must_appear=False)
row = rows.get("$\\to 0$", ["?"] * 8)
big = mp.mpf(200)
pb = softmax(z4, big)
for k, (lab, val) in enumerate((("p1", pb[0]), ("H", H(pb)), ("e^H", mp.e ** H(pb)), ("Var", var(pb, z4)),
                                 ("dH/dbeta", -big * var(pb, z4)), ("dH/dtau", big**3 * var(pb, z4)))):
    check(f"T1 tau->0 {lab} (beta = 200)", row[k + 2], val, must_appear=False)
row = rows.get("$\\to \\infty$", ["?"] * 8)
pu = [mp.mpf(1) / 4] * 4
for k, (lab, val) in enumerate((("p1", pu[0]), ("H", H(pu)), ("e^H", mp.e ** H(pu)), ("Var", var(pu, z4)), ("dH/dbeta", 0), ("dH/dtau", 0))):
    check(f"T1 tau->oo {lab}", row[k + 2], val, must_appear=False)
check_true("T1: H increases down the table", [float(rows[k][3]) for k in ("$\\to 0$", "0.25", "0.5", "1", "2", "4", "$\\to \\infty$")]
           == sorted(float(rows[k][3]) for k in rows))
check("log 4 (table text)", "1.3863", mp.log(4))
taus = np.linspace(0.05, 5.0, 20001)
vals = []
for tt in taus:
    b_ = 1 / tt
    e = np.exp(b_ * (np.array([2.0, 1, 0, -1]) - 2))
    pp = e / e.sum()
    vals.append((pp @ np.array([4.0, 1, 0, 1]) - (pp @ np.array([2.0, 1, 0, -1])) ** 2) / tt**3)
imax = int(np.argmax(vals))
tau_max = mp.findroot(lambda tt: mp.diff(lambda u: var(softmax(z4, 1 / u), z4) / u**3, tt), taus[imax])
check("argmax of dH/dtau", "0.38", tau_max)
check("max of dH/dtau", "1.515", var(softmax(z4, 1 / tau_max), z4) / tau_max**3)
check_true("table: tau = 0.5 row has the largest dH/dtau",
           max(("0.25", "0.5", "1", "2", "4"), key=lambda k: float(rows[k][7])) == "0.5")
ok = all(1 - softmax(z4, bb_)[0] <= 3 * mp.e ** (-bb_) and var(softmax(z4, bb_), z4) <= 9 * (1 - softmax(z4, bb_)[0])
         for bb_ in [mp.mpf(x) / 4 for x in range(0, 200)])
check_true("1 - p1 <= 3e^{-beta} and Var <= 9(1 - p1) on a grid", ok)
check("deviation of z_1 from the uniform mean 0.5", "1.5", 2 - mp.mpf(sum([2, 1, 0, -1])) / 4)
check("(1.5^2+0.5^2+0.5^2+1.5^2)/4", "1.25", Fraction(9, 4) / 4 + Fraction(1, 4) / 4 * 2 + Fraction(9, 4) / 4)

# ---------- 例 5.2：n = 8 ----------
s0 = mp.e**3 / (mp.e**3 + 7)
check("e^3", "20.0855", mp.e**3)
check("e^3 + 7", "27.0855", mp.e**3 + 7)
check("s_0", "0.7416", s0)
check("1/27.0855", "0.0369", 1 / (mp.e**3 + 7))
check("h(s_0)", "0.5714", h2(s0))
check("(1-s_0) log 7", "0.5029", (1 - s0) * mp.log(7))
Hn8 = H(softmax([3] + [0] * 7))
check("needle n=8 H", "1.0743", Hn8)
check_true("needle H = h(s0) + (1-s0) log 7", abs(Hn8 - h2(s0) - (1 - s0) * mp.log(7)) < mp.mpf(10) ** -40)
check_true("chain 0.5714 + 0.5029 = 1.0743", Fraction("0.5714") + Fraction("0.5029") == Fraction("1.0743"))
check("e^H needle n=8", "2.93", mp.e**Hn8)
z8 = [3, 0, 0, -1, -1, -2, -2, -3]
check_true("z8 satisfies z1 - zj >= 3", all(3 - x >= 3 for x in z8[1:]))
den8 = mp.fsum(mp.e ** x for x in z8)
check("denominator z8", "23.1418", den8)
check_true("denominator formula e^3 + 2 + 2e^-1 + 2e^-2 + e^-3", abs(den8 - (mp.e**3 + 2 + 2 / mp.e + 2 * mp.e**-2 + mp.e**-3)) < mp.mpf(10) ** -40)
p8 = softmax(z8)
s8 = p8[0]
q8 = [x / (1 - s8) for x in p8[1:]]
check("s (z8)", "0.8679", s8)
check("h(s) (z8)", "0.3903", h2(s8))
check("H(q) (z8)", "1.5839", H(q8))
check("1 - s (z8)", "0.1321", 1 - s8)
check("H (z8)", "0.5995", H(p8))
check_true("chain 0.3903 + 0.1321 x 1.5839 rounds to 0.5995",
           round(Fraction("0.3903") + Fraction("0.1321") * Fraction("1.5839"), 4) == Fraction("0.5995"))
f8 = h2(s8) + (1 - s8) * mp.log(7)
check("f_8(s)", "0.6473", f8)
check_true("0.5995 <= 0.6473 <= 1.0743", H(p8) <= f8 <= Hn8)

# ---------- 6 節：針の行 ----------
NT, GAP = 1024, mp.mpf(8)


def needle_p(n, beta):
    return 1 / (1 + (n - 1) * mp.e ** (-beta * GAP))


def needle_H(n, beta):
    p = needle_p(n, beta)
    return h2(p) + (1 - p) * mp.log(n - 1)


check_true("needle H formula equals H(softmax) at n = 50, beta = 0.7",
           abs(needle_H(50, mp.mpf("0.7")) - H(softmax([GAP] + [0] * 49, mp.mpf("0.7")))) < mp.mpf(10) ** -40)
pt = needle_p(NT, 1)
Htr = needle_H(NT, 1)
check("1023 e^-8", "0.3432", 1023 * mp.e**-8)
check("p_train", "0.7445", pt)
check("1 - p_train", "0.2555", 1 - pt)
check("h(p_train)", "0.5683", h2(pt))
check("(1-p) log 1023", "1.7707", (1 - pt) * mp.log(1023))
check("H_train", "2.3390", Htr)
check_true("chain 0.5683 + 1.7707 = 2.3390", Fraction("0.5683") + Fraction("1.7707") == Fraction("2.3390"))
check("kappa = 8/log 1024", "1.1542", GAP / mp.log(1024))
check_true("log 4096 / log 1024 = 12/10 = 1.2", Fraction(12, 10) == Fraction(6, 5) and abs(mp.log(4096) / mp.log(1024) - mp.mpf("1.2")) < mp.mpf(10) ** -40)
check("beta_log x Delta = 1.2 x 8", "9.6", mp.mpf("1.2") * GAP)
check("4095 e^-9.6", "0.2773", 4095 * mp.e ** mp.mpf("-9.6"))
p4096 = needle_p(4096, mp.mpf("1.2"))
check("p (log-n, 4096)", "0.7829", p4096)
check("h(p) (log-n, 4096)", "0.5232", h2(p4096))
check("(1-p) log 4095", "1.8060", (1 - p4096) * mp.log(4095))
check("H (log-n, 4096)", "2.3292", needle_H(4096, mp.mpf("1.2")))
check_true("chain 0.5232 + 1.8060 = 2.3292", Fraction("0.5232") + Fraction("1.8060") == Fraction("2.3292"))
check("log(4095/1023)", "1.3870", mp.log(mp.mpf(4095) / 1023))
bwt4096 = 1 + mp.log(mp.mpf(4095) / 1023) / 8
check("beta_wt 4096", "1.1734", bwt4096)
check_true("chain 1 + 1.3870/8 rounds to 1.1734", round(1 + Fraction("1.3870") / 8, 4) == Fraction("1.1734"))
check_true("weight kept at beta_wt (0.7445)", abs(needle_p(4096, bwt4096) - pt) < mp.mpf(10) ** -40)
check("H (weight, 4096)", "2.6934", needle_H(4096, bwt4096))
check_true("H_wt = H_train + (1-p) log(4095/1023)",
           abs(needle_H(4096, bwt4096) - Htr - (1 - pt) * mp.log(mp.mpf(4095) / 1023)) < mp.mpf(10) ** -40)
check_true("chain 2.3390 + 0.2555 x 1.3870 rounds to 2.6934",
           round(Fraction("2.3390") + Fraction("0.2555") * Fraction("1.3870"), 4) == Fraction("2.6934"))


def bstar(n):
    return mp.findroot(lambda bb_: needle_H(n, bb_) - Htr, (mp.mpf("0.5"), mp.mpf(3)), solver="anderson")


rows2 = {}
for line in NORM.splitlines():
    if line.startswith("| ") and len(line.strip().strip("|").split("|")) == 9:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0][0].isdigit():
            rows2[int(cells[0].replace(",", ""))] = cells
check_true("needle table has rows n = 1,024 ... 262,144", sorted(rows2) == [1024, 4096, 16384, 65536, 262144])
Hl_seq, Hw_seq, ratios = [], [], []
for n in (1024, 4096, 16384, 65536, 262144):
    row = rows2.get(n, ["?"] * 9)
    bl = mp.log(n) / mp.log(NT)
    bw = 1 + mp.log(mp.mpf(n - 1) / (NT - 1)) / GAP
    bs = bstar(n) if n > NT else mp.mpf(1)
    check_true(f"T2 n={n}: H(beta*) = H_train", abs(needle_H(n, bs) - Htr) < mp.mpf(10) ** -30)
    check(f"T2 n={n} n", row[0], n)
    check(f"T2 n={n} ratio n/n_train", row[1], Fraction(n, NT))
    check(f"T2 n={n} beta_log", row[2], bl)
    check(f"T2 n={n} beta_wt", row[3], bw)
    check(f"T2 n={n} beta*", row[4], bs)
    check(f"T2 n={n} H none", row[5], needle_H(n, 1))
    check(f"T2 n={n} H log", row[6], needle_H(n, bl))
    check(f"T2 n={n} H wt", row[7], needle_H(n, bw))
    check(f"T2 n={n} beta_log/beta*", row[8], bl / bs)
    if n > NT:
        check_true(f"T2 n={n}: beta* > beta_wt (prop 5)", bs > bw)
    Hl_seq.append(needle_H(n, bl))
    Hw_seq.append(needle_H(n, bw))
    ratios.append(bl / bs)
check_true("262,144 = 2^18", 262144 == 2**18)
check("log 262144", "12.4766", mp.log(262144))
check("log n - H none at 262144", "0.0786", mp.log(262144) - needle_H(262144, 1))
diffs = [Hw_seq[i + 1] - Hw_seq[i] for i in range(4)]
check_true("weight-preserving H grows by about 0.354 per x4 (all steps round to 0.354)", all(round(float(d), 3) == 0.354 for d in diffs))
check("(1-p) log 4", "0.3542", (1 - pt) * mp.log(4), must_appear=False)
check_true("printed '0.2555 × 1.3863' present", "0.2555 \\times 1.3863" in TEXT)
check("log 4 (needle text)", "1.3863", mp.log(4))
check_true("beta_log/beta* - 1 < 2 % for all rows", max(ratios) - 1 < mp.mpf("0.02"))
check_true("kappa > 1", GAP / mp.log(1024) > 1)
check_true("log-n H decreases for n >= 4096 (drifts towards 0)", all(Hl_seq[i + 1] < Hl_seq[i] for i in range(4)))

# ---------- 7 節：下界 ----------
for w_s, pr in (("4", "2.9825"), ("8", "0.2950"), ("12", "0.0063")):
    check(f"lower bound n=1024 w={w_s}", pr, mp.log(1 + 1023 * mp.e ** (-mp.mpf(w_s))))
check("w needed for H <= 0.1", "9.1827", mp.log(1023 / (mp.e ** mp.mpf("0.1") - 1)))
check("log 1023", "6.9305", mp.log(1023))
pq = softmax(z4, 4)
Hq = H(pq)
check("1 - p1 at tau = 0.25", "0.0183", 1 - pq[0])
check("1 - e^{-H} at tau = 0.25", "0.0889", 1 - mp.e ** (-Hq))
check("1 - e^{-0.0931} (printed H)", "0.0889", 1 - mp.e ** mp.mpf("-0.0931"))
check("H at tau = 0.25", "0.0931", Hq)
check_true("0.0183 <= 0.0889 <= 0.0931", 1 - pq[0] <= 1 - mp.e ** (-Hq) <= Hq)
check_true("literature values (not recomputed): '約 80 億' (ViT, [9]), '0.1\\ln s + 1' (YaRN, [6]) present",
           "約 80 億" in TEXT and "0.1\\ln s + 1" in TEXT)

# ---------- 8 節：リスティングの実行と照合 ----------
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
check_true("one listing with output", len(blocks) == 1)
code, printed_out = blocks[0]
check_true("entropy.py on disk equals the listing", open(os.path.join(HERE, "entropy.py"), encoding="utf-8").read() == code)
run = subprocess.run([sys.executable, "-B", "-c", code], cwd=HERE, capture_output=True, text=True)
check_true("listing output matches exactly", run.stdout == printed_out)
if run.stdout != printed_out:
    print(run.stdout, run.stderr)
out = printed_out.splitlines()
check_true("listing output has 23 lines (bullets cite lines 1-23)", len(out) == 23)
# 表 1 の 5 行とリスティングの出力
for line, tau_s in zip(out[1:6], ("0.25", "0.5", "1", "2", "4")):
    f = line.split()
    row = rows[tau_s]
    check_true(f"listing tau={tau_s}: p1, H, e^H, Var, -beta Var equal the table",
               f[2:7] == [row[2], row[3], row[4], row[5], row[6]])
    check_true(f"listing tau={tau_s}: central difference equals -beta Var to 4 places", f[6] == f[7])
check_true("listing: H_train = 2.3390", out[6].endswith("H_train = 2.3390"))
for line, n in zip(out[8:13], (1024, 4096, 16384, 65536, 262144)):
    f = line.split()
    row = rows2[n]
    check_true(f"listing needle n={n} equals table", [int(f[0])] + f[1:] == [n] + row[2:])
gauss = [line.split() for line in out[14:19]]
check_true("gaussian: |H(b=1) - (log n - 1/2)| < 0.03 for all n", all(abs(float(g[2]) - float(g[3])) < 0.03 for g in gauss))
for g in gauss:
    nn_ = int(g[0])
    bl = mp.log(nn_) / mp.log(NT)
    check(f"gaussian n={nn_} log n", g[1], mp.log(nn_), must_appear=False)
    check(f"gaussian n={nn_} log n - 1/2", g[3], mp.log(nn_) - mp.mpf(1) / 2, must_appear=False)
    check(f"gaussian n={nn_} log n - b_log^2/2", g[5], mp.log(nn_) - bl**2 / 2, must_appear=False)
check_true("gaussian log-n column increases with n", all(float(gauss[i + 1][4]) > float(gauss[i][4]) for i in range(4)))
check_true("gaussian: log-n column within 0.02 of log n - b^2/2", all(abs(float(g[4]) - float(g[5])) < 0.02 for g in gauss))
check("gaussian text: n = 1024, log-n", "6.4222", float(gauss[1][4]))
check("gaussian text: n = 65,536, log-n", "9.8136", float(gauss[4][4]))
check_true("gaussian listing uses 32 rows", "rng.standard_normal((32, n))" in code)
for line, w_s in zip(out[20:23], ("4", "8", "12")):
    f = line.replace("(", " ").replace(")", " ").split()
    wv = int(w_s)
    c = mp.e ** (-wv)
    two = [mp.log(k + (1024 - k) * c) + wv * (1024 - k) * c / (k + (1024 - k) * c) for k in range(1, 1024)]
    kmin = min(range(1023), key=lambda i: two[i]) + 1
    check(f"listing w={w_s} bound", f[1], mp.log(1 + 1023 * c), must_appear=False)
    check(f"listing w={w_s} two-level min", f[2], min(two), must_appear=False)
    check_true(f"listing w={w_s} argmin k = {kmin}", int(f[3]) == kmin)
    check_true(f"listing w={w_s} two-level min >= bound", min(two) >= mp.log(1 + 1023 * c))
check_true("text: at w = 8 the minimum is k = 2, not the needle (2.3390)", "ではなく $k = 2$ の行" in TEXT)
check_true("listing uses central difference with h = 1e-5 (text: h = 10^{-5})", "h = 1 / tau, 1e-5" in code and "h = 10^{-5}" in TEXT)

# ---------- 演習 ----------
for bs_, pr_p, pr_h in (("0.5", "0.7311", "0.5822"), ("1", "0.8808", "0.3653"), ("2", "0.9820", "0.0901")):
    p = softmax([2, 0], mp.mpf(bs_))
    check(f"two keys beta={bs_} p1", pr_p, p[0])
    check(f"two keys beta={bs_} H", pr_h, H(p))
    check_true(f"two keys beta={bs_}: p1 = 1/(1+e^(-2beta))", abs(p[0] - 1 / (1 + mp.e ** (-2 * mp.mpf(bs_)))) < mp.mpf(10) ** -40)
check("log 2", "0.6931", mp.log(2))
c8 = mp.e**-8
Z1, Z2 = 1 + 1023 * c8, 2 + 1022 * c8
check("Z_1", "1.3432", Z1)
check("log Z_1", "0.2950", mp.log(Z1))
check("w(n-1)e^-w/Z_1", "2.0440", 8 * 1023 * c8 / Z1)
check("H_1", "2.3390", mp.log(Z1) + 8 * 1023 * c8 / Z1)
check_true("H_1 equals the needle entropy", abs(mp.log(Z1) + 8 * 1023 * c8 / Z1 - Htr) < mp.mpf(10) ** -40)
check("Z_2", "2.3428", Z2)
check("log Z_2", "0.8514", mp.log(Z2))
check("w(n-2)e^-w/Z_2", "1.1707", 8 * 1022 * c8 / Z2)
check("H_2", "2.0221", mp.log(Z2) + 8 * 1022 * c8 / Z2)
check_true("H_2 equals H of softmax of the two-level row", abs(mp.log(Z2) + 8 * 1022 * c8 / Z2 - H(softmax([0, 0] + [-8] * 1022))) < mp.mpf(10) ** -40)
check_true("chains 0.2950 + 2.0440 = 2.3390 and 0.8514 + 1.1707 = 2.0221",
           Fraction("0.2950") + Fraction("2.0440") == Fraction("2.3390") and Fraction("0.8514") + Fraction("1.1707") == Fraction("2.0221"))
# 頂点の主張：小さい n で、幅 w 以下の行の最小エントロピーが 2 段の行の最小に等しい（乱数探索で下回らない）
rng = np.random.default_rng(3)
ok = True
for nsmall, wv in ((5, 2.0), (6, 3.0), (8, 1.5)):
    cands = [H(softmax([0] * k + [-wv] * (nsmall - k))) for k in range(1, nsmall)]
    best = min(cands)
    for _ in range(400):
        zr_ = list(rng.uniform(-wv, 0, nsmall))
        zr_[0], zr_[1] = 0.0, -wv
        ok &= H(softmax([mp.mpf(x) for x in zr_])) >= best - mp.mpf(10) ** -30
check_true("exercise: random rows of width w never go below the two-level minimum", ok)
wmax = mp.log(4095 / (mp.e - 1))
check("4095/(e-1)", "2383.2", 4095 / (mp.e - 1))
check("w max for H >= 1 at n = 4096", "7.7762", wmax)
check_true("at w = 7.7762..., log(1 + 4095 e^-w) = 1", abs(mp.log(1 + 4095 * mp.e ** (-wmax)) - 1) < mp.mpf(10) ** -40)
check("2 x 512 / 8", "128", Fraction(2 * 512, 8))
check_true("sqrt(d_k) = 8 for d_k = 64", math.isqrt(64) == 8)
check("7.7762/128", "0.0608", wmax / 128)
check("d = 512", "512", 512)

n_ok = sum(results)
print(f"\n{n_ok}/{len(results)} checks passed"
      f" ({sum(numeric)}/{len(numeric)} printed numbers, the rest structural, symbolic and listing checks)")
sys.exit(0 if n_ok == len(results) else 1)

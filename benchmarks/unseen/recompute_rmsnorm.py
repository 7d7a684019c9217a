"""rmsnorm.txt の数値を定義から計算し直し、本文に印字された値と照合する。

使い方: python3 recompute_rmsnorm.py   （食い違いがあれば終了コード 1）
"""
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "rmsnorm.txt"), encoding="utf-8").read()
failures = 0
count = 0


def normalize(s):
    """本文の数の表記（{,} や , の桁区切り、− の負号、× 10^{-k}）をそろえ、数の部分を取り出す。"""
    m = re.search(r"[-−]?\d[\d{},]*(?:\.\d+)?(?:\s*\\times\s*10\^\{-?\d+\})?", s)
    t = m.group().replace("{,}", "").replace(",", "").replace("−", "-")
    e = re.search(r"\\times\s*10\^\{(-?\d+)\}", t)
    if e:
        mant = t.split("\\times")[0].strip()
        return "%se%+03d" % (mant, int(e.group(1)))
    return t


def fmt_like(printed, value):
    p = normalize(printed)
    if "e" in p:
        mant = p.split("e")[0]
        digits = len(mant.split(".")[1]) if "." in mant else 0
        return "%.*e" % (digits, value)
    if "." in p:
        return "%.*f" % (len(p.split(".")[1]), value)
    return "%d" % round(value)


def report(ok, label, printed, got, present=True):
    global failures, count
    count += 1
    if not ok:
        failures += 1
    print("%-4s %-50s printed %-18s computed %-18s%s"
          % ("ok" if ok else "FAIL", label, printed, got, "" if present else "  (not found in text)"))


def check(label, printed, value, context=None):
    """printed が本文（context の中）にあり、value をその精度で丸めたものと一致するか。"""
    where = context if context is not None else printed
    present = where in TEXT and printed in where
    got = fmt_like(printed, value)
    report(present and got == normalize(printed), label, printed, got, present)


def vector(label, context, values):
    """本文の context に最後に現れる (a, b, ...) の成分を values と照合する。"""
    m = re.findall(r"\(([^()]*)\)", context)[-1]
    parts = [p.strip() for p in m.replace("\\ ", "").split(",")]
    if len(parts) != len(values):
        report(False, label + " (成分の数)", str(len(parts)), str(len(values)))
        return
    for k, (p, v) in enumerate(zip(parts, values)):
        check("%s の第 %d 成分" % (label, k + 1), p, v, context)


def tab_table(header_start):
    """header_start で始まるタブ区切りの表の本体の行を返す。"""
    i = TEXT.index(header_start)
    lines = TEXT[i:].split("\n")[1:]
    rows = []
    for line in lines:
        if "\t" not in line:
            break
        rows.append(line.split("\t"))
    return rows


rms = lambda v: float(np.sqrt((np.asarray(v, float) ** 2).mean()))


def rmsnorm(v, eps=0.0):
    v = np.asarray(v, float)
    return v / np.sqrt((v ** 2).mean(axis=-1, keepdims=True) + eps)


def layernorm(v):
    v = np.asarray(v, float)
    return (v - v.mean()) / v.std()


def jac(v, eps=0.0):
    v = np.asarray(v, float)
    d, s2 = len(v), (v ** 2).mean() + eps
    return (np.eye(d) - np.outer(v, v) / (d * s2)) / math.sqrt(s2)


# ---------------------------------------------------------------- 例 3.2
x = np.array([1.0, 2.0, 3.0, 6.0])
check("RMS(x)^2", "12.5", rms(x) ** 2, "\\frac14(1 + 4 + 9 + 36) = 12.5")
check("RMS(x)", "3.5355", rms(x), "$\\mathrm{RMS}(\\boldsymbol{x}) = 3.5355$")
check("RMS(x)（分母）", "3.5355", rms(x), "\\frac{(1, 2, 3, 6)}{3.5355}")
vector("RMSNorm(x)", "= (0.2828,\\ 0.5657,\\ 0.8485,\\ 1.6971)$", rmsnorm(x))
for s_, v in zip(("0.08", "0.32", "0.72", "2.88"), rmsnorm(x) ** 2):
    check("RMSNorm(x) の成分の 2 乗", s_, v, "$\\sqrt{0.08 + 0.32 + 0.72 + 2.88} = \\sqrt{4} = 2 = \\sqrt{d}$")
check("|RMSNorm(x)|^2", "4", float((rmsnorm(x) ** 2).sum()), "= \\sqrt{4} = 2 = \\sqrt{d}$")
check("|RMSNorm(x)|", "2", float(np.linalg.norm(rmsnorm(x))), "= \\sqrt{4} = 2 = \\sqrt{d}$")
y = 3 * x + 5
vector("3x + 5", "= (8, 11, 14, 23)$", y)
for s_, v in zip(("64", "121", "196", "529"), y ** 2):
    check("(3x+5)_j^2", s_, v, "\\frac14(64 + 121 + 196 + 529) = 227.5")
check("RMS(3x+5)^2", "227.5", rms(y) ** 2, "\\frac14(64 + 121 + 196 + 529) = 227.5")
check("RMS(3x+5)", "15.0831", rms(y), "$\\mathrm{RMS} = 15.0831$")
vector("RMSNorm(3x+5)", "出力は $(0.5304,\\ 0.7293,\\ 0.9282,\\ 1.5249)$", rmsnorm(y))
check("mu(x)", "3", x.mean(), "$\\mu = 3$ なので")
check("sigma^2 = RMS^2 - mu^2", "3.5", rms(x) ** 2 - x.mean() ** 2, "$\\sigma^2 = 12.5 - 9 = 3.5$")
check("sigma^2 の式の mu^2", "9", x.mean() ** 2, "$\\sigma^2 = 12.5 - 9 = 3.5$")
check("sigma^2（定義から）", "3.5", x.var(), "$\\sigma^2 = 12.5 - 9 = 3.5$")
vector("x - 3·1", "$\\boldsymbol{x} - 3\\cdot\\boldsymbol{1} = (-2, -1, 0, 3)$", x - 3)
vector("LN(x) = RMSNorm(x - mu 1)", "層正規化の値 $(-1.0690,\\ -0.5345,\\ 0,\\ 1.6036)$", rmsnorm(x - x.mean()))
vector("LN(x)（定義から）", "層正規化の値 $(-1.0690,\\ -0.5345,\\ 0,\\ 1.6036)$", layernorm(x))

# ---------------------------------------------------------------- 例 3.4
check("|x|^2", "50", float(x @ x), "$\\|\\boldsymbol{x}\\|^2 = 50$")
check("1/r", "0.2828", 1 / rms(x), "$1/r = 1/3.5355 = 0.2828$")
J = jac(x)
mat = re.search(r"\\begin\{pmatrix\} (0\.2772.*?)\\end\{pmatrix\}", TEXT).group(1)
entries = [e.strip() for row in mat.split("\\\\") for e in row.split("&")]
for k, (s_, v) in enumerate(zip(entries, J.ravel())):
    check("J(x) の (%d,%d) 成分" % (k // 4 + 1, k % 4 + 1), s_, v, mat)
ev = np.sort(np.linalg.eigvalsh(J))
check("J(x) の 0 でない固有値", "0.2828", ev[1], "固有値は $0.2828$ が 3 個と $0$ が 1 個です")
check("その個数", "3 個", int(np.sum(np.abs(ev - 1 / rms(x)) < 1e-12)), "固有値は $0.2828$ が 3 個と $0$ が 1 個です")
check("0 の固有値", "0", ev[0], "固有値は $0.2828$ が 3 個と $0$ が 1 個です")
sig = x.std()
Jln = (np.eye(4) - np.ones((4, 4)) / 4 - np.outer(layernorm(x), layernorm(x)) / 4) / sig
evl = np.sort(np.linalg.eigvalsh(Jln))
check("sigma(x)", "1.8708", sig, "$1/\\sigma = 1/1.8708 = 0.5345$")
check("LN のヤコビ行列の 0 でない固有値", "0.5345", evl[-1], "$1/\\sigma = 1/1.8708 = 0.5345$ が 2 個")
check("その個数", "2 個", int(np.sum(np.abs(evl - 1 / sig) < 1e-12)), "$1/\\sigma = 1/1.8708 = 0.5345$ が 2 個と $0$ が 2 個")
check("LN の 0 の固有値の個数", "2 個", int(np.sum(np.abs(evl) < 1e-12)), "が 2 個と $0$ が 2 個です")
check("固有値の比 RMS/sigma", "1.890", rms(x) / sig, "$0.5345/0.2828 \\approx 1.890$")

# ---------------------------------------------------------------- 命題 4.1 と 4 節の表（演算を実際に数える）
def count_ops(d, kind):
    """定義の式どおりの手順を 1 つずつたどり、演算の回数を数える。"""
    add = mul = div = sq = 0
    if kind == "ln":
        add += d - 1; mul += 1          # 平均
        add += d                        # 中心化
        mul += d; add += d - 1; mul += 1  # 分散
    else:
        mul += d; add += d - 1; mul += 1  # 2 乗の平均
    add += 1; sq += 1; div += 1         # + eps、平方根、逆数
    mul += d                            # 正規化
    mul += d                            # gamma
    if kind == "ln":
        add += d                        # beta
    return add, mul, div, sq


d_ = sp.symbols("d", positive=True)
g = (4 * d_ + 3) / (7 * d_ + 3)
ok = sp.simplify(g - sp.Rational(4, 7) - 9 / (7 * (7 * d_ + 3))) == 0 and sp.limit(g, d_, sp.oo) == sp.Rational(4, 7)
report(ok, "g(d) - 4/7 = 9/(7(7d+3)), 極限 4/7", "9/(7(7d+3))", str(sp.simplify(g - sp.Rational(4, 7))))
for d in (5, 768):
    a, m_, dv, sq = count_ops(d, "ln")
    report(a == 4 * d - 1 and m_ == 3 * d + 2 and a + m_ + dv + sq == 7 * d + 3,
           "LN の演算 (d=%d): 4d-1, 3d+2, 計 7d+3" % d, "%d,%d,%d" % (4 * d - 1, 3 * d + 2, 7 * d + 3), "%d,%d,%d" % (a, m_, a + m_ + dv + sq))
    a, m_, dv, sq = count_ops(d, "rms")
    report(a == d and m_ == 3 * d + 1 and a + m_ + dv + sq == 4 * d + 3,
           "RMSNorm の演算 (d=%d): d, 3d+1, 計 4d+3" % d, "%d,%d,%d" % (d, 3 * d + 1, 4 * d + 3), "%d,%d,%d" % (a, m_, a + m_ + dv + sq))
for r in tab_table("$d$\t層正規化のパラメータ"):
    d = int(r[0])
    line = "\t".join(r)
    ln, rm = sum(count_ops(d, "ln")), sum(count_ops(d, "rms"))
    check("表 d=%d LN のパラメータ 2d" % d, r[1], 2 * d, line)
    check("表 d=%d RMSNorm のパラメータ d" % d, r[2], d, line)
    check("表 d=%d LN の演算" % d, r[3], ln, line)
    check("表 d=%d RMSNorm の演算" % d, r[4], rm, line)
    check("表 d=%d 比" % d, r[5], rm / ln, line)
L, d = 12, 768
total = 50257 * d + 1024 * d + L * (12 * d * d + 13 * d) + 2 * d
check("正規化の個数 2L+1", "25", 2 * L + 1, "$2 \\times 12 + 1 = 25$ 個")
check("減るパラメータ (2L+1)d", "19{,}200", (2 * L + 1) * d, "$25 \\times 768 = 19{,}200$")
check("GPT-2 small の総数", "124{,}439{,}808", total, "$124{,}439{,}808 - 19{,}200 = 124{,}420{,}608$")
check("RMSNorm にした総数", "124{,}420{,}608", total - (2 * L + 1) * d, "$124{,}439{,}808 - 19{,}200 = 124{,}420{,}608$")
check("減る割合 (%)", "0.0154", 100 * (2 * L + 1) * d / total, "約 0.0154 %")
check("12d^2", "7{,}077{,}888", 12 * d * d, "$12d^2 = 7{,}077{,}888$")
check("LN 2 つの演算", "10{,}758", 2 * sum(count_ops(d, "ln")), "$2 \\times 5{,}379 = 10{,}758$")
check("LN 1 つの演算", "5{,}379", sum(count_ops(d, "ln")), "$2 \\times 5{,}379 = 10{,}758$")
check("その割合 (%)", "0.152", 100 * 2 * sum(count_ops(d, "ln")) / (12 * d * d), "約 0.152 %")

# ---------------------------------------------------------------- 例 5.4（7 節のコードと同じ乱数列で計算し直す）
rng = np.random.default_rng(0)
dd, LL = 8, 24
Ws = [rng.standard_normal((dd, dd)) / np.sqrt(dd) for _ in range(LL)]
x0 = rng.standard_normal(dd)
post = pre = sand = x0
bpre = rms(x0)
hist = {}
for l, W in enumerate(Ws, 1):
    post = rmsnorm(post + W @ post)
    pre = pre + W @ rmsnorm(pre)
    sand = sand + rmsnorm(W @ rmsnorm(sand))
    bpre += np.linalg.norm(W, 2)
    hist[l] = (rms(post), rms(pre), rms(sand), bpre, rms(x0) + l)
check("RMS(x_0)", "0.6112", rms(x0), "$\\mathrm{RMS}(\\boldsymbol{x}_0) = 0.6112$")
check("サンドイッチ型の上界の定数", "0.6112", rms(x0), "3 の右辺 $0.6112 + l$")
for r in tab_table("$l$\tPost-LN の RMS"):
    l = int(r[0])
    line = "\t".join(r)
    names = ("Post-LN", "Pre-LN", "サンドイッチ型", "Pre-LN の上界", "サンドイッチ型の上界")
    for j in range(5):
        check("表 l=%d %s" % (l, names[j]), r[1 + j], hist[l][j], line)
check("l=24 の Pre-LN の RMS", "8.3260", hist[24][1], "RMS が 8.3260 と 7.5828 です")
check("l=24 のサンドイッチ型の RMS", "7.5828", hist[24][2], "RMS が 8.3260 と 7.5828 です")
check("1/RMS (l=1)", "0.8495", 1 / hist[1][1], "$1/1.1772 \\approx 0.8495$")
check("RMS (l=1)", "1.1772", hist[1][1], "$1/1.1772 \\approx 0.8495$")
check("1/RMS (l=24)", "0.1201", 1 / hist[24][1], "$1/8.3260 \\approx 0.1201$")
check("縮む比（約 7 分の 1）", "7", hist[24][1] / hist[1][1], "約 7 分の 1 に縮んでいます")
report(all(hist[l][1] <= hist[l][3] and hist[l][2] <= hist[l][4] for l in hist),
       "24 層すべてで上界の内側", "yes", "yes" if all(hist[l][1] <= hist[l][3] and hist[l][2] <= hist[l][4] for l in hist) else "no")

# ---------------------------------------------------------------- 例 6.3
q = np.array([2.0, -1, 0, 1, 3, 0, -2, 1])
K = np.array([[1.0, 0, 1, 0, 2, -1, -1, 0], [0.0, 1, 0, 2, -1, 0, 1, 1], [-1.0, 0, 2, 1, 0, 1, 0, -1]])
sm = lambda s: np.exp(s - s.max()) / np.exp(s - s.max()).sum()
vector("q", "$\\boldsymbol{q} = (2, -1, 0, 1, 3, 0, -2, 1)$", q)
vector("k_1", "$\\boldsymbol{k}_1 = (1, 0, 1, 0, 2, -1, -1, 0)$", K[0])
vector("k_2", "$\\boldsymbol{k}_2 = (0, 1, 0, 2, -1, 0, 1, 1)$", K[1])
vector("k_3", "$\\boldsymbol{k}_3 = (-1, 0, 2, 1, 0, 1, 0, -1)$", K[2])
ip = K @ q
check("<q,k_1>", "10", ip[0], "内積は $10$、$-3$、$-2$ で")
check("<q,k_2>", "-3", ip[1], "内積は $10$、$-3$、$-2$ で")
check("<q,k_3>", "-2", ip[2], "内積は $10$、$-3$、$-2$ で")
raw = ip / math.sqrt(8)
vector("正規化しない点数", "= (3.5355,\\ -1.0607,\\ -0.7071)$、重みは", raw)
vector("正規化しない重み", "重みは $(0.9761,\\ 0.0098,\\ 0.0140)$ です", sm(raw))
vector("10 倍した点数", "10 倍の $(35.3553,\\ -10.6066,\\ -7.0711)$", 10 * raw)
vector("10 倍した重み", "小数第 4 位まででは $(1, 0, 0)$ です", np.round(sm(10 * raw), 4))
check("RMS(q)", "1.5811", rms(q), "$\\mathrm{RMS}(\\boldsymbol{q}) = \\sqrt{20/8} = 1.5811$")
check("|q|^2", "20", float(q @ q), "\\sqrt{20/8}")
for j in range(3):
    check("|k_%d|^2" % (j + 1), "8", float(K[j] @ K[j]), "どのキーも成分の 2 乗の和が 8 で")
    check("RMS(k_%d)" % (j + 1), "1", rms(K[j]), "$\\mathrm{RMS}(\\boldsymbol{k}_j) = 1$")
check("RMS(q) sqrt(8) の 2 乗", "20", (rms(q) * math.sqrt(8)) ** 2, "= (10, -3, -2)/\\sqrt{20}")
qk = rmsnorm(K) @ rmsnorm(q) / math.sqrt(8)
vector("QK 正規化の点数", "= (2.2361,\\ -0.6708,\\ -0.4472)$、重みは", qk)
vector("QK 正規化の重み", "重みは $(0.8905,\\ 0.0487,\\ 0.0609)$ で", sm(qk))
qk10 = rmsnorm(K) @ rmsnorm(10 * q) / math.sqrt(8)
report(np.allclose(sm(qk10), sm(qk)), "q を 10 倍しても重みは不変", "unchanged", "max diff %.1e" % np.abs(sm(qk10) - sm(qk)).max())
B = math.sqrt(8)
check("B = sqrt(8)", "2.8284", B, "$B = \\sqrt{8} = 2.8284$")
check("2B", "5.6569", 2 * B, "$1/(1 + 2e^{5.6569}) = 0.0017$")
check("下界 1/(1 + 2e^{2B})", "0.0017", 1 / (1 + 2 * math.exp(2 * B)), "$1/(1 + 2e^{5.6569}) = 0.0017$")
check("上界 1/(1 + 2e^{-2B})", "0.9931", 1 / (1 + 2 * math.exp(-2 * B)), "$1/(1 + 2e^{-5.6569}) = 0.9931$")
w = sm(qk)
report(w.min() >= 1 / (1 + 2 * math.exp(2 * B)) and w.max() <= 1 / (1 + 2 * math.exp(-2 * B)),
       "実際の重みが範囲の中", "yes", "yes")
for r in tab_table("$d_k$\t$B = \\sqrt{d_k}$"):
    dk = int(r[0])
    line = "\t".join(r)
    Bk = math.sqrt(dk)
    check("表 d_k=%d の B" % dk, r[1], Bk, line)
    check("表 d_k=%d の上界" % dk, r[2], 1 / (1 + 15 * math.exp(-2 * Bk)), line)
    check("表 d_k=%d の下界" % dk, r[3], 1 / (1 + 15 * math.exp(2 * Bk)), line)
check("d_k = 64 の上界（本文）", "0.9999983", 1 / (1 + 15 * math.exp(-16)), "$d_k = 64$ では上界が 0.9999983 で")

# ---------------------------------------------------------------- 演習
x2 = np.array([3.0, -4.0])
check("演習 9.1 RMS^2", "12.5", rms(x2) ** 2, "\\sqrt{(9 + 16)/2} = \\sqrt{12.5} = 3.5355$")
check("演習 9.1 RMS", "3.5355", rms(x2), "\\sqrt{(9 + 16)/2} = \\sqrt{12.5} = 3.5355$")
vector("演習 9.1 RMSNorm", "(3, -4)/3.5355 = (0.8485,\\ -1.1314)$", rmsnorm(x2))
check("演習 9.1 ノルム", "1.4142", float(np.linalg.norm(rmsnorm(x2))), "$\\sqrt{2} \\approx 1.4142$")
check("演習 9.1 mu", "-0.5", x2.mean(), "$\\mu = -0.5$")
vector("演習 9.1 x - mu 1", "$\\boldsymbol{x} - \\mu\\boldsymbol{1} = (3.5, -3.5)$", x2 - x2.mean())
check("演習 9.1 sigma", "3.5", x2.std(), "$\\sigma = 3.5$ で")
vector("演習 9.1 LN", "$\\sigma = 3.5$ で $(1, -1)$ です", layernorm(x2))
eps = 0.5
s2 = rms(x) ** 2 + eps
check("演習 9.2 s^2", "13", s2, "$s^2 = 12.5 + 0.5 = 13$")
check("演習 9.2 s", "3.6056", math.sqrt(s2), "$s = \\sqrt{13} = 3.6056$")
check("演習 9.2 s^3", "46.872", s2 ** 1.5, "$s^3 = 13\\sqrt{13} \\approx 46.872$")
check("演習 9.2 eps/s^3", "0.010667", eps / s2 ** 1.5, "$0.5/46.872 \\approx 0.010667$")
vector("演習 9.2 J x", "$J(\\boldsymbol{x})\\boldsymbol{x} = (0.0107,\\ 0.0213,\\ 0.0320,\\ 0.0640)$", jac(x, eps) @ x)
check("演習 9.2 1/s", "0.2774", 1 / math.sqrt(s2), "$1/s = 0.2774$ 倍")
v = np.array([2.0, -1.0, 0.0, 0.0])  # x に直交するベクトルの例
check("演習 9.2 直交する向きの倍率（数値）", "0.2774", float(np.linalg.norm(jac(x, eps) @ v) / np.linalg.norm(v)), "$1/s = 0.2774$ 倍")
check("演習 9.2 eps/s^2", "0.0385", eps / s2, "$\\varepsilon/s^2 = 0.5/13 \\approx 0.0385$")
L3, d3 = 32, 4096
check("演習 9.3 正規化の数", "65", 2 * L3 + 1, "$2 \\times 32 + 1 = 65$ 個")
check("演習 9.3 LN のパラメータ", "532{,}480", (2 * L3 + 1) * 2 * d3, "$65 \\times 2 \\times 4096 = 532{,}480$")
check("演習 9.3 RMSNorm のパラメータ", "266{,}240", (2 * L3 + 1) * d3, "$65 \\times 4096 = 266{,}240$ 個")
check("演習 9.3 差", "266{,}240", (2 * L3 + 1) * d3, "差は $266{,}240$ 個です")
check("演習 9.3 LN の演算", "28{,}675", sum(count_ops(d3, "ln")), "$7 \\times 4096 + 3 = 28{,}675$")
check("演習 9.3 RMSNorm の演算", "16{,}387", sum(count_ops(d3, "rms")), "$4 \\times 4096 + 3 = 16{,}387$")
check("演習 9.3 比", "0.5715", sum(count_ops(d3, "rms")) / sum(count_ops(d3, "ln")), "\\approx 0.5715$")
check("演習 9.4 B (gamma = 1)", "4", math.sqrt(16), "$B = \\sqrt{16} = 4$")
check("演習 9.4 上界 (gamma = 1)", "0.9977", 1 / (1 + 7 * math.exp(-8)), "$1/(1 + 7e^{-8}) \\approx 0.9977$")
check("演習 9.4 B (gamma = 0.5)", "1", 0.5 * 0.5 * 4, "$B = 0.5 \\times 0.5 \\times 4 = 1$")
check("演習 9.4 上界 (gamma = 0.5)", "0.5135", 1 / (1 + 7 * math.exp(-2)), "$1/(1 + 7e^{-2}) \\approx 0.5135$")

# ---------------------------------------------------------------- 7 節のコードを実行し、印字された出力と比べる
lines = TEXT.split("\n")


def listing(header, first_output):
    i = next(k for k, t in enumerate(lines) if t.startswith(header))
    j = next(k for k in range(i, len(lines)) if lines[k].startswith(first_output))
    code = "\n".join(lines[i:j]).rstrip("\n")
    e = next(k for k in range(j, len(lines)) if lines[k] == "")
    return code, "\n".join(lines[j:e])


specs = [("rmsnorm.py", "# Python 3.11.7, NumPy 2.4.6", "RMSNorm(x)      ="),
         ("placement_qk.py", "# Python 3.11.7, NumPy 2.4.6。rmsnorm.py", "RMS(x_0) = ")]
with tempfile.TemporaryDirectory() as tmp:
    got = []
    for name, header, first in specs:
        code, printed = listing(header, first)
        open(os.path.join(tmp, name), "w", encoding="utf-8").write(code + "\n")
        got.append((name, printed))
    for name, printed in got:
        out = subprocess.run([sys.executable, name], cwd=tmp, capture_output=True, text=True).stdout.rstrip("\n")
        ok = out == printed
        report(ok, "listing %s の出力（%d 行）" % (name, len(printed.splitlines())),
               "text", "matches" if ok else "differs")
        if not ok:
            for a, b in zip(out.splitlines(), printed.splitlines()):
                if a != b:
                    print("     run:     " + a + "\n     printed: " + b)

print("%d checks, %d failures" % (count, failures))
sys.exit(1 if failures else 0)

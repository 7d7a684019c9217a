"""parallelism.txt の数値と式を定義から計算し直し、本文に印字されたものと照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま現れることを
確かめる（check）か、本文が言葉で述べた性質を計算で確かめる（truth）。さらに、
  * 例 5.6 の ring all-reduce、定義 5.9 のテンソル並列、定義 5.14 のスケジュール、
    定義 5.17 の ZeRO の更新を、この スクリプトの中で独立に実装して確かめ、
  * 本文のリスティング ring_allreduce.py が本文のコードと同一で、実行結果が本文の出力と
    一字一句一致することを確かめ、
  * 最後に、本文（リスティングと参考文献を除く）に現れる数値のうち、どの検査の文字列にも
    含まれないものが残っていないかを調べる（残っていれば失敗）。
1 つでも失敗すれば終了コード 1 で終わる。
"""
import itertools
import math
import os
import re
import subprocess
import sys
from fractions import Fraction as Fr

import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "parallelism.txt"), encoding="utf-8").read()

checked = 0
failures = 0
covered = np.zeros(len(TEXT), dtype=bool)     # どの検査の文字列にも含まれた文字


def _cover(s):
    start = 0
    while True:
        i = TEXT.find(s, start)
        if i < 0:
            return
        covered[i:i + len(s)] = True
        start = i + 1


def check(label, expected, count=1):
    """expected（計算値から組み立てた文字列）が本文にあるか。count はその中で照合した数値の個数。"""
    global checked, failures
    ok = expected in TEXT
    checked += count
    if ok:
        _cover(expected)
    else:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    """本文が言葉や式で述べた性質を確かめる。"""
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


def cm(n):
    """数式中の 3 桁区切り 6{,}658{,}404{,}352。"""
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    """本文中・表中の 3 桁区切り 106,534,469,632。"""
    return f"{n:,}"


def fx(x, k):
    """Fraction や float を小数第 k 位に丸めた文字列（四捨五入、同点は切り上げ）。"""
    q = Fr(x) * 10 ** k
    r = math.floor(q + Fr(1, 2))
    s = str(r).rjust(k + 1, "0")
    return s[:-k] + "." + s[-k:] if k else s


def dec(x):
    """有限小数で表せる Fraction を、丸めずにそのまま書く（0.21875 など）。"""
    x = Fr(x)
    if x.denominator == 1:
        return str(x.numerator)
    k = 0
    while (x * 10 ** k).denominator != 1:
        k += 1
        assert k < 30, "有限小数でない"
    return fx(x, k)


# ============ 例のモデル（1 節）：定理 5.1［Transformer ブロック］の式 ============
V, d, L, h, Lctx = 50257, 4096, 32, 32, 2048
dff = 4 * d
dk = d // h
per_layer = (4 * d * d + 4 * d) + (2 * d * dff + dff + d) + 4 * d
Psi = V * d + Lctx * d + L * per_layer + 2 * d
GB = 10 ** 9

check("1 節 例のモデルの構成", f"層数 $L = {L}$、次元 $d = {d}$、ヘッド数 $h = {h}$（$d_k = {dk}$）、MLP の幅 $d_{{\\mathrm{{ff}}}} = 4d = {cm(dff)}$、語彙 $|V| = {cm(V)}$、文脈長 $L_{{\\mathrm{{ctx}}}} = {Lctx}$", 6)
truth("1 節 6.7B の構成（32 層、4096、32 ヘッド、文脈長 2048）と同じ", (L, d, h, Lctx) == (32, 4096, 32, 2048), 0)
check("1 節 6.7B", "Brown らの 6.7B の構成と同じです（[9] 表 2.1 と 2.1 節）")
truth("1 節 1 層は 12d^2 + 13d", per_layer == 12 * d * d + 13 * d)
check("1 節 1 層", f"$12 \\times {d}^2 + 13 \\times {d} = {cm(per_layer)}$ 個", 3)
check("1 節 32 層", f"{L} 層で ${cm(L * per_layer)}$ 個", 2)
check("1 節 埋め込み", f"埋め込みが ${cm(V)} \\times {d} = {cm(V * d)}$ 個", 3)
check("1 節 位置埋め込み", f"位置埋め込みが ${Lctx} \\times {d} = {cm(Lctx * d)}$ 個", 3)
check("1 節 最後の層正規化", f"最後の層正規化が ${cm(2 * d)}$ 個", 1)
check("1 節 合計", f"合計は $\\Psi = {cm(Psi)}$ 個（約 {fx(Fr(Psi, 10 ** 8), 2)} 億）", 2)
bpp = 2 + 2 + 4 + 4 + 4      # fp16 の重みと勾配、fp32 のマスター重み・m・v（注意 7.4［混合精度の学習］）
check("1 節 16 バイト", f"1 パラメータあたり {bpp} バイトが要るので")
check("1 節 16Ψ", f"$16\\Psi = {cm(bpp * Psi)}$ バイト、約 {fx(Fr(bpp * Psi, GB), 1)} GB", 2)
check("1 節 GB の定義", "1 GB $= 10^{9}$ バイト")
truth("1 節 80 GB の装置に収まらない", bpp * Psi > 80 * GB)
check("1 節 80 GB", "記憶が 80 GB の装置 1 台には、活性を置く前の時点で収まりません")
check("0 節 1 個あたり 16 バイト", f"パラメータ 1 個あたり {bpp} バイトの記憶が要ります")
truth("0 節 50 億 × 16 バイト = 80 GB", 50 * 10 ** 8 * bpp == 80 * GB)
check("0 節 50 億", "パラメータが 50 億を超えると、それだけで記憶が 80 GB の装置（GPU など）1 台には収まりません", 2)
check("事前知識 16 バイトと 12d^2 + 13d", f"1 パラメータあたり {bpp} バイト。→ 混合精度の学習", 1)
check("事前知識 1 層のパラメータ", "1 層のパラメータ数 $12d^2 + 13d$（$d_{\\mathrm{ff}} = 4d$ のとき）", 2)

# ============ 2〜3 節：データ並列と ring all-reduce ============
# 命題 5.3：例ごとの損失の平均の勾配は、組ごとの平均の平均に等しい（線形回帰の損失で確かめる）
rng = np.random.default_rng(1)
p_, b_ = 4, 5
Xd, yd, th = rng.standard_normal((p_ * b_, 3)), rng.standard_normal(p_ * b_), rng.standard_normal(3)
grad_i = (Xd @ th - yd)[:, None] * Xd                  # ℓ_i = (x_i·θ - y_i)^2 / 2 の勾配
full = grad_i.mean(axis=0)
shards = np.mean([grad_i[k * b_:(k + 1) * b_].mean(axis=0) for k in range(p_)], axis=0)
truth("命題 5.3 組ごとの平均の平均 = 全体の平均（p = 4, b = 5 の数値例、差 < 1e-12）", np.abs(full - shards).max() < 1e-12)
bk = [2, 3, 7, 8]                                       # 組の大きさが違う場合
off = np.cumsum([0] + bk)
gk = [grad_i[off[k]:off[k + 1]].mean(axis=0) for k in range(4)]
truth("3 節 組の大きさが違えば重み付き平均 Σ b_k g_k / Σ b_k が全体の勾配",
      np.abs(sum(b * g for b, g in zip(bk, gk)) / sum(bk) - full).max() < 1e-12 and np.abs(np.mean(gk, axis=0) - full).max() > 1e-6)
check("3 節 前章 6 節", "足す順番で丸めが変わるので（前章 6 節）", 0)


def ring(xs):
    """定義 5.4 を独立に実装。各ステップ後のバッファ、各装置の送信数（前半・後半）を返す。"""
    p = len(xs)
    z = [[list(map(Fr, x[c * len(x) // p:(c + 1) * len(x) // p])) for c in range(p)] for x in xs]
    hist, sent_rs, sent_ag = [], [0] * p, [0] * p
    for s in range(2 * p - 2):
        msg = {k: list(z[k][(k - s) % p]) for k in range(p)}
        for k in range(p):
            c, r = (k - s) % p, (k + 1) % p
            if s <= p - 2:
                z[r][c] = [a + b for a, b in zip(z[r][c], msg[k])]
                sent_rs[k] += len(msg[k])
            else:
                z[r][c] = list(msg[k])
                sent_ag[k] += len(msg[k])
        hist.append([[v for ch in z[k] for v in ch] for k in range(p)])
    return hist, sent_rs, sent_ag


xs3 = [[1, 2, 3], [10, 20, 30], [100, 200, 300]]
hist, srs, sag = ring(xs3)


def vec(v):
    return "$(" + ", ".join(str(int(a)) for a in v) + ")$"


check("例 5.6 初期値", f"装置 0, 1, 2 が {vec(xs3[0])}、{vec(xs3[1])}、{vec(xs3[2])} を持つ", 9)
check("例 5.6 ステップ 0 で送る値", f"装置 0 が塊 0 の {xs3[0][0]} を装置 1 へ、装置 1 が塊 1 の {xs3[1][1]} を装置 2 へ、装置 2 が塊 2 の {xs3[2][2]} を装置 0 へ送り", 3)
for s, extra in enumerate(["", "（$c(k, 1) = k - 1$）", "（all-gather、$c(k, 2) = k + 1$）", "（$c(k, 3) = k$）"]):
    st = hist[s]
    if s < 3:
        check(f"例 5.6 ステップ {s} の後", f"ステップ {s} の後{extra}：" + "、".join(vec(v) for v in st), 9)
    else:
        truth("例 5.6 ステップ 3 の後は 3 台とも総和", all(v == [111, 222, 333] for v in st))
        check("例 5.6 ステップ 3 の後", f"ステップ 3 の後{extra}：3 台とも {vec(st[0])}", 3)
truth("例 5.6 c(k,1) = k-1, c(k,2) = k+1, c(k,3) = k (mod 3)",
      all((k - 1) % 3 == (k - 1) % 3 and (k - 2) % 3 == (k + 1) % 3 and (k - 3) % 3 == k % 3 for k in range(3)), 0)
tot = [sum(x[c] for x in xs3) for c in range(3)]
check("例 5.6 ステップ 1 の後の完成した塊", f"総和（装置 0 の {hist[1][0][1]}、装置 1 の {hist[1][1][2]}、装置 2 の {hist[1][2][0]}）", 3)
truth("命題 5.5 の 1：ステップ p-2 の後、装置 k の塊 k+1 は総和", all(hist[1][k][(k + 1) % 3] == tot[(k + 1) % 3] for k in range(3)))
check("例 5.6 送信数", f"各装置が送った要素は {srs[0] + sag[0]} 個で、$2(p-1)N/p = 2 \\times 2 \\times 3/3 = {2 * 2 * 3 // 3}$ に一致", 2)
check("例 5.6 出力の行", "8 節のコードの出力の 1〜5 行目がこの計算です", 2)
# 命題 5.5 を p = 2..9、ランダムな整数で確かめる
ok55 = True
for p in range(2, 10):
    N = 3 * p
    xs = [list(map(int, rng.integers(-50, 50, N))) for _ in range(p)]
    hh, a, b = ring(xs)
    s = [sum(x[i] for x in xs) for i in range(N)]
    ok55 &= all(v == s for v in hh[-1]) and all(a[k] == b[k] == (p - 1) * N // p for k in range(p))
    ok55 &= all(hh[p - 2][k][((k + 1) % p) * 3:((k + 1) % p) * 3 + 3] == s[((k + 1) % p) * 3:((k + 1) % p) * 3 + 3] for k in range(p))
truth("命題 5.5 の 1〜3 を p = 2..9 で確認（前半・後半とも (p-1)N/p 個）", ok55, 3)
pp = sp.symbols("p", positive=True)
Vr = 2 * (pp - 1) / pp
truth("命題 5.5 の 3：2(p-1)/p = 2 - 2/p、導関数 2/p^2 > 0、極限 2",
      sp.simplify(Vr - (2 - 2 / pp)) == 0 and sp.simplify(sp.diff(Vr, pp) - 2 / pp ** 2) == 0 and sp.limit(Vr, pp, sp.oo) == 2, 3)
check("0 節 ring の送信量", "各装置が送る量は $2(p-1)N/p$ 要素で、装置の数 $p$ がいくつでも $2N$ 未満です", 2)
check("3 節 8 台と 1,024 台", f"装置を 8 台から {cp(1024)} 台に増やしても、1 台が送る量は ${dec(Fr(2 * 7, 8))}N$ から ${dec(Fr(2 * 1023, 1024))}N$ に増えるだけ", 4)
check("注意 5.7 p = 8", f"$p = 8$ では ring の ${dec(Fr(14, 8))}N$ に対して ${8 - 1}N$、{int(Fr(7) / Fr(14, 8))} 倍です", 4)
# 例 5.8
e16 = 2
dp8 = Fr(2 * 7, 8) * Psi * e16
check("例 5.8 p = 8", f"$2 \\times \\frac{{7}}{{8}} \\times {cm(Psi)} \\times 2 = {cm(int(dp8))}$ バイト、約 {fx(dp8 / GB, 2)} GB", 5)
check("例 5.8 時間", f"$B = 100$ GB/s とすると、定義 5.1 の見積もりで約 {fx(dp8 / (100 * GB), 4)} 秒", 2)
dp64 = Fr(2 * 63, 64) * Psi * e16
check("例 5.8 p = 64", f"$2 \\times \\frac{{63}}{{64}} \\times {cm(Psi)} \\times 2 = {cm(int(dp64))}$ バイト", 5)
check("例 5.8 比", f"$\\frac{{63/32}}{{7/4}} = \\frac{{9}}{{8}} = {dec(dp64 / dp8)}$ 倍", 4)
truth("例 5.8 63/32 ÷ 7/4 = 9/8", Fr(63, 32) / Fr(7, 4) == Fr(9, 8) == dp64 / dp8, 0)
check("例 5.8 16Ψ", f"$16\\Psi \\approx {fx(Fr(16 * Psi, GB), 1)}$ GB のまま", 2)

# ============ 4 節：テンソル並列 ============
# 例 5.11
X = np.array([[1, 2]])
W1 = np.array([[1, -1, 2, 1], [0, 1, 1, -1]])
W2 = np.array([[1, 0], [0, 1], [1, 1], [2, -1]])
relu = lambda a: np.maximum(a, 0)
XW1 = X @ W1
Yfull = relu(XW1) @ W2
Z1 = relu(X @ W1[:, :2]) @ W2[:2]
Z2 = relu(X @ W1[:, 2:]) @ W2[2:]


def tup(a):
    return "(" + ", ".join(str(int(v)) for v in np.ravel(a)) + ")"


check("例 5.11 行列", "$$X = \\begin{pmatrix} 1 & 2 \\end{pmatrix}, \\qquad W_1 = \\begin{pmatrix} 1 & -1 & 2 & 1 \\\\ 0 & 1 & 1 & -1 \\end{pmatrix}, \\qquad W_2 = \\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\\\ 2 & -1 \\end{pmatrix}$$", 18)
check("例 5.11 大きさ", "$d = 2$、$d_{\\mathrm{ff}} = 4$、$t = 2$、$\\phi = \\mathrm{ReLU}$、バイアスは 0", 4)
check("例 5.11 分けない計算", f"$XW_1 = {tup(XW1)}$、ReLU で ${tup(relu(XW1))}$、$W_2$ を掛けて $(1, 0) + (0, 1) + 4\\,(1, 1) + 0\\cdot(2, -1) = {tup(Yfull)}$", 10)
truth("例 5.11 (1,0)+(0,1)+4(1,1)+0(2,-1) は relu(XW1) W2 の展開", list(relu(XW1)[0]) == [1, 1, 4, 0] and (W2 * relu(XW1)[0][:, None]).sum(0).tolist() == Yfull[0].tolist())
check("例 5.11 装置 1", f"装置 1 は $XW_1^{{(1)}} = {tup(X @ W1[:, :2])}$ から $Z^{{(1)}} = (1, 0) + (0, 1) = {tup(Z1)}$", 3)
check("例 5.11 装置 2", f"装置 2 は $XW_1^{{(2)}} = {tup(X @ W1[:, 2:])}$ から ReLU で ${tup(relu(X @ W1[:, 2:]))}$、$Z^{{(2)}} = 4\\,(1, 1) = {tup(Z2)}$", 4)
check("例 5.11 和", f"all-reduce の和は ${tup(Z1 + Z2)}$ で一致", 1)
truth("例 5.11 Z1 + Z2 = Y", (Z1 + Z2 == Yfull).all())
r1 = X[0, 0] * W1[0]
r2 = X[0, 1] * W1[1]
check("例 5.11 行で分けた場合", f"$1 \\cdot {tup(W1[0])} = {tup(r1)}$ と $2 \\cdot {tup(W1[1])} = {tup(r2)}$ に別々に ReLU を施した和は ${tup(relu(r1))} + {tup(relu(r2))} = {tup(relu(r1) + relu(r2))}$ で、正しい ${tup(relu(XW1))}$ と違います", 9)
truth("例 5.11 行で分けると違う", not (relu(r1) + relu(r2) == relu(XW1)[0]).all())


# 命題 5.10・5.12：テンソル並列を独立に実装し、順伝播の一致と all-reduce の回数を確かめる
def softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def gelu(a):
    return a * 0.5 * (1 + np.vectorize(math.erf)(a / math.sqrt(2)))


dd, hh_, nn, tt = 8, 4, 5, 2
dkk, dffs = dd // hh_, 4 * dd
P = {k: rng.standard_normal((hh_, dd, dkk)) / 3 for k in ("WQ", "WK", "WV")}
P.update({k: rng.standard_normal((hh_, dkk)) / 5 for k in ("bQ", "bK", "bV")})
WO, bO = rng.standard_normal((dd, dd)) / 3, rng.standard_normal(dd) / 5
A1, a1 = rng.standard_normal((dd, dffs)) / 3, rng.standard_normal(dffs) / 5
A2, a2 = rng.standard_normal((dffs, dd)) / 5, rng.standard_normal(dd) / 5


def heads(Xt, hs):
    out = []
    for a in hs:
        Q, K, Vv = (Xt @ P[w][a] + P[b][a] for w, b in (("WQ", "bQ"), ("WK", "bK"), ("WV", "bV")))
        out.append(softmax(Q @ K.T / math.sqrt(dkk)) @ Vv)
    return np.concatenate(out, axis=1)


def mha_full(Xt):
    return heads(Xt, range(hh_)) @ WO + bO


def mlp_full(Xt):
    return gelu(Xt @ A1 + a1) @ A2 + a2


n_ar = [0]


def allreduce(parts):
    n_ar[0] += 1
    return sum(parts)


def mha_shard(Xt, i):
    hs = range(i * hh_ // tt, (i + 1) * hh_ // tt)
    return heads(Xt, hs) @ WO[i * dd // tt:(i + 1) * dd // tt]


def mlp_shard(Xt, i):
    sl = slice(i * dffs // tt, (i + 1) * dffs // tt)
    return gelu(Xt @ A1[:, sl] + a1[sl]) @ A2[sl]


def ln(Z):
    return (Z - Z.mean(-1, keepdims=True)) / Z.std(-1, keepdims=True)


def block_tp(Xb):
    Y = Xb + allreduce([mha_shard(ln(Xb), i) for i in range(tt)]) + bO
    return Y + allreduce([mlp_shard(ln(Y), i) for i in range(tt)]) + a2


Xb = rng.standard_normal((nn, dd))
ref = Xb + mha_full(ln(Xb))
ref = ref + mlp_full(ln(ref))
n_ar[0] = 0
out_tp = block_tp(Xb)
truth(f"命題 5.10 テンソル並列の順伝播が分けない計算と一致（差 {np.abs(out_tp - ref).max():.1e}）", np.abs(out_tp - ref).max() < 1e-12)
truth("命題 5.12 の 1：順伝播の all-reduce は 2 回", n_ar[0] == 2)
check("0 節 all-reduce の回数", "順伝播で 2 回、逆伝播で 2 回の all-reduce で済みます", 2)
check("命題 5.12 の 1 の回数", "all-reduce 2 回（注意の出力と MLP の出力）で計算でき", 1)
check("命題 5.12 の 1 逆伝播", "逆伝播は、同じ大きさの all-reduce 2 回で計算できる", 1)
# 逆伝播：入力 X~ についての勾配（G との内積の方向微分）は、枝ごとの寄与の和（all-reduce 1 回）
G = rng.standard_normal((nn, dd))
Xt0 = rng.standard_normal((nn, dd))


def vjp_fd(f, Xt, G, eps=1e-6):
    g = np.zeros_like(Xt)
    for idx in np.ndindex(Xt.shape):
        E = np.zeros_like(Xt); E[idx] = eps
        g[idx] = ((f(Xt + E) - f(Xt - E)) * G).sum() / (2 * eps)
    return g


n_ar[0] = 0
g_mlp = allreduce([vjp_fd(lambda Z, i=i: mlp_shard(Z, i), Xt0, G) for i in range(tt)])
g_mha = allreduce([vjp_fd(lambda Z, i=i: mha_shard(Z, i), Xt0, G) for i in range(tt)])
truth("命題 5.12 の 1：逆伝播も all-reduce 2 回で、入力の勾配が分けない場合と一致",
      n_ar[0] == 2 and np.abs(g_mlp - vjp_fd(mlp_full, Xt0, G)).max() < 1e-7 and np.abs(g_mha - vjp_fd(mha_full, Xt0, G)).max() < 1e-7)
# 逆伝播の式（⊙ φ' を掛けて W_1^(i)T）が枝ごとの寄与に等しいこと
def gelu_d(a):
    return 0.5 * (1 + np.vectorize(math.erf)(a / math.sqrt(2))) + a * np.exp(-a * a / 2) / math.sqrt(2 * math.pi)


ok_formula = True
for i in range(tt):
    sl = slice(i * dffs // tt, (i + 1) * dffs // tt)
    pre = Xt0 @ A1[:, sl] + a1[sl]
    ok_formula &= np.abs(((G @ A2[sl].T) * gelu_d(pre)) @ A1[:, sl].T - vjp_fd(lambda Z, i=i: mlp_shard(Z, i), Xt0, G)).max() < 1e-7
truth("命題 5.12 の証明の式 (∂L/∂C^(i) ⊙ φ') W_1^(i)T が枝 i の寄与に等しい", ok_formula)
tsym, dsym, bsym, nsym, hsym = sp.symbols("t d b n h", positive=True)
check("命題 5.12 の 1 送る要素", "$4 \\cdot \\dfrac{2(t-1)}{t}\\,bnd$ 個", 0)
ok412 = True
for tq in (2, 3, 4, 8):
    Nq = 3 * tq
    _, a_, b_ = ring([list(range(k, k + Nq)) for k in range(tq)])
    ok412 &= all(4 * (a_[k] + b_[k]) == Fr(4 * 2 * (tq - 1), tq) * Nq for k in range(tq))
truth("命題 5.12 の 1：all-reduce 4 回で 1 台が送るのは 4·2(t-1)/t·bnd（ring を t = 2, 3, 4, 8 で実行）", ok412)
split = 3 * dsym ** 2 + 3 * dsym + dsym ** 2 + 2 * 4 * dsym ** 2 + 4 * dsym
rep_ = dsym + dsym + 4 * dsym
truth("命題 5.12 の 2：3d^2 + 3d + d^2 + 8d^2 + 4d = 12d^2 + 7d、分けない部分 6d、t = 1 で 12d^2 + 13d",
      sp.expand(split - (12 * dsym ** 2 + 7 * dsym)) == 0 and rep_ == 6 * dsym and sp.expand(split + rep_ - (12 * dsym ** 2 + 13 * dsym)) == 0, 3)
check("命題 5.12 の 2 の式", "$\\dfrac{12d^2 + 7d}{t} + 6d$ 個", 0)
check("命題 5.12 の証明 2 の和", "$3d^2 + 3d + d^2 + 8d^2 + 4d = 12d^2 + 7d$ 個、分けない部分は $6d$ 個です。$t = 1$ なら合計は $12d^2 + 13d$", 0)
check("命題 5.12 の証明 2 の個数", "注意の $W_Q, W_K, W_V$（$3d^2$ 個）と $\\boldsymbol{b}_Q, \\boldsymbol{b}_K, \\boldsymbol{b}_V$（$3d$ 個）と $W_O$（$d^2$ 個）、MLP の $W_1, W_2$（$2 \\cdot 4d^2$ 個）と $\\boldsymbol{b}_1$（$4d$ 個）は $t$ 等分され、$\\boldsymbol{b}_O$（$d$ 個）、$\\boldsymbol{b}_2$（$d$ 個）、層正規化 2 つ（$4d$ 個）", 0)
# 実際の配列で数える
cnt_split = sum(P[k].size for k in P) + WO.size + A1.size + a1.size + A2.size
cnt_rep = bO.size + a2.size + 4 * dd
truth(f"命題 5.12 の 2：d = {dd} の配列で数えると分ける部分 {cnt_split} = 12d^2 + 7d、分けない部分 {cnt_rep} = 6d",
      cnt_split == 12 * dd * dd + 7 * dd and cnt_rep == 6 * dd)
# 例 5.13
t8, b1, n1 = 8, 1, 2048
bnd = b1 * n1 * d
ar_bytes = Fr(2 * (t8 - 1), t8) * bnd * e16
check("例 5.13 設定", f"$t = {t8}$、$b = {b1}$、$n = {n1}$ とします", 3)
check("例 5.13 bnd", f"$bnd = {n1} \\times {d} = {cm(bnd)}$ 要素、fp16 で ${cm(bnd * e16)}$ バイト", 4)
check("例 5.13 1 回", f"$\\frac{{2 \\times 7}}{{8}} \\times {cm(bnd * e16)} = {cm(int(ar_bytes))}$ バイト", 4)
check("例 5.13 32 層", f"1 層の順伝播と逆伝播で 4 回、32 層で $4 \\times 32 \\times {cm(int(ar_bytes))} = {cm(int(4 * L * ar_bytes))}$ バイト、約 {fx(4 * L * ar_bytes / GB, 3)} GB を、長さ {cp(n1)} の列 1 本ごとに送ります", 8)
tp_pl = Fr(12 * d * d + 7 * d, t8) + 6 * d
check("例 5.13 1 台の 1 層のパラメータ", f"$\\frac{{12 \\times {d}^2 + 7 \\times {d}}}{{8}} + 6 \\times {d} = {cm(int(Fr(12 * d * d + 7 * d, t8)))} + {cm(6 * d)} = {cm(int(tp_pl))}$ 個", 9)
check("例 5.13 比", f"分けない場合の ${cm(per_layer)}$ 個の約 {fx(tp_pl / per_layer, 4)} 倍です。$1/t = {dec(Fr(1, t8))}$", 3)
truth("例 5.13 比は 1/t より大きい", tp_pl / per_layer > Fr(1, t8))
check("例 5.13 ノードの装置の数", "$t$ は 1 ノードの装置の数（たとえば 8）以下", 1)

# ============ 5 節：パイプライン並列 ============
def gpipe(p, m, tf, tb):
    S = {}
    for i in range(1, m + 1):
        for j in range(1, p + 1):
            S["F", i, j] = (i + j - 2) * tf
            S["B", i, j] = (m + p - 1) * tf + (i + p - j - 1) * tb
    return S


def valid(S, p, m, tf, tb):
    dur = {"F": tf, "B": tb}
    ok = True
    for i in range(1, m + 1):
        for j in range(1, p + 1):
            if j >= 2:
                ok &= S["F", i, j] >= S["F", i, j - 1] + tf
            if j <= p - 1:
                ok &= S["B", i, j] >= S["B", i, j + 1] + tb
        ok &= S["B", i, p] >= S["F", i, p] + tf
    for j in range(1, p + 1):       # 装置 j の仕事が重ならない
        iv = sorted((S[k], S[k] + dur[k[0]]) for k in S if k[2] == j)
        ok &= all(a[1] <= b[0] for a, b in zip(iv, iv[1:]))
    return ok


ok_sched = True
for p in range(1, 7):
    for m in range(1, 9):
        for tf, tb in ((1, 2), (Fr(3, 2), Fr(5, 2)), (2, 1)):
            S = gpipe(p, m, tf, tb)
            T = max(S[k] + (tf if k[0] == "F" else tb) for k in S)
            beta = 1 - Fr(m) * (tf + tb) / T
            ok_sched &= valid(S, p, m, tf, tb) and T == (m + p - 1) * (tf + tb) and beta == Fr(p - 1, m + p - 1)
            t4 = (m + p - 1) * tf   # 定理 5.15 の 4
            ok_sched &= all((S[k] + tf <= t4) if k[0] == "F" else (S[k] >= t4) for k in S)
truth("定理 5.15 の 1・4：GPipe のスケジュールを p ≤ 6, m ≤ 8 で検証（依存関係、T、β、時刻 (m+p-1)t_f）", ok_sched, 2)


def best_T(p, m, tf, tb):
    """全装置の仕事の順序を総当たりし、各順序で最も早く始める割り当ての T の最小値。"""
    tasks = {j: [("F", i, j) for i in range(1, m + 1)] + [("B", i, j) for i in range(1, m + 1)] for j in range(1, p + 1)}
    dur = {"F": tf, "B": tb}

    def preds(k):
        kind, i, j = k
        if kind == "F":
            return [("F", i, j - 1)] if j >= 2 else []
        return [("F", i, p)] if j == p else [("B", i, j + 1)]

    best = None
    for orders in itertools.product(*[list(itertools.permutations(tasks[j])) for j in range(1, p + 1)]):
        pos = {}
        for ordj in orders:
            for q, k in enumerate(ordj):
                pos[k] = (ordj, q)
        start, done, changed = {}, set(), True
        while changed:
            changed = False
            for k, (ordj, q) in pos.items():
                if k in done:
                    continue
                dep = preds(k) + ([ordj[q - 1]] if q > 0 else [])
                if all(x in done for x in dep):
                    start[k] = max([start[x] + dur[x[0]] for x in dep], default=0)
                    done.add(k)
                    changed = True
        if len(done) == len(pos):
            T = max(start[k] + dur[k[0]] for k in start)
            best = T if best is None else min(best, T)
    return best


ok_lb = all(best_T(p, m, 1, 2) == (m + p - 1) * 3 for p, m in ((1, 3), (2, 2), (3, 2), (2, 3)))
truth("定理 5.15 の 2：全スケジュールを総当たり（(p,m) = (1,3),(2,2),(3,2),(2,3)、t_f = 1, t_b = 2）して最小の T = (m+p-1)(t_f+t_b)", ok_lb)
mm = sp.symbols("m", positive=True)
beta_s = (pp - 1) / (mm + pp - 1)
eps = sp.symbols("epsilon", positive=True)
truth("定理 5.15 の 3：∂β/∂m < 0、∂β/∂p > 0（p > 1）、β ≤ ε ⟺ m ≥ (p-1)(1-ε)/ε、比 (p-1)/m",
      sp.simplify(sp.diff(beta_s, mm) + (pp - 1) / (mm + pp - 1) ** 2) == 0
      and sp.simplify(sp.diff(beta_s, pp) - mm / (mm + pp - 1) ** 2) == 0
      and sp.simplify(sp.solve(sp.Eq(beta_s, eps), mm)[0] - (pp - 1) * (1 - eps) / eps) == 0
      and sp.simplify((pp * (mm + pp - 1) - pp * mm) / (pp * mm) - (pp - 1) / mm) == 0, 4)
check("0 節 バブル", "バブル）は $(p-1)/(m+p-1)$ で", 0)
# 例 5.16 の表
P8 = 8
for m in (1, 2, 4, 8, 16, 32, 64):
    bt = Fr(P8 - 1, m + P8 - 1)
    row = "\t".join([str(m), str(m + P8 - 1), f"{bt.numerator}/{bt.denominator}", fx(bt * 100, 2), dec(Fr(P8 - 1, m)), dec(Fr(m + P8 - 1, m))])
    check(f"例 5.16 の表 m = {m}", row, 6)
check("例 5.16 p = 8", "$p = 8$ で $m$ を変えたときの 定理 5.15 の量です。$\\beta$ は百分率で小数第 2 位に丸め", 2)
check("例 5.16 m = 1", f"$m = 1$ では、全体の時間が 1 台で全部の層を計算する時間と同じ ${P8}(t_f + t_b)$ になり、装置の時間の {fx(Fr(7, 8) * 100, 2)} % が遊んでいます", 3)
truth("例 5.16 m = 1 の T = p(t_f + t_b)（1 台で p 段分を順に計算する時間）", (1 + P8 - 1) == P8)
truth("例 5.16 β(p,2m)/β(p,m) = (m+p-1)/(2m+p-1) > 1/2（p > 1）",
      sp.simplify(beta_s.subs(mm, 2 * mm) / beta_s - (mm + pp - 1) / (2 * mm + pp - 1)) == 0
      and all(Fr(m + P8 - 1, 2 * m + P8 - 1) > Fr(1, 2) for m in range(1, 200)), 2)
check("例 5.16 比の式", "$\\beta(p, 2m)/\\beta(p, m) = (m + p - 1)/(2m + p - 1)$ は $1/2$ より大きい", 2)
m_min = math.ceil(Fr(7) * Fr(9, 10) / Fr(1, 10))
check("例 5.16 10 %", f"$\\beta \\le 10\\,\\%$ にするには、定理 5.15 の 3 より $m \\ge 7 \\times 0.9/0.1 = {m_min}$ が必要で、$m = {m_min}$ でちょうど $7/{m_min + 7} = {int(Fr(7, m_min + 7) * 100)}\\,\\%$ です", 8)
truth("例 5.16 m = 63 が最小（m = 62 では 10 % 超）", Fr(7, 62 + 7) > Fr(1, 10) >= Fr(7, 63 + 7))
check("例 5.16 m = 4p", f"$m = 4p = {4 * P8}$ でもまだ約 {fx(Fr(7, 4 * P8 + 7) * 100, 2)} % が遊んでいます", 3)
lay_stage = L // P8
check("例 5.16 1 段のパラメータ", f"8 段に分けると 1 段は {lay_stage} 層で、1 段のブロックのパラメータは ${lay_stage} \\times {cm(per_layer)} = {cm(lay_stage * per_layer)}$ 個、16 バイトずつで ${cm(16 * lay_stage * per_layer)}$ バイト、約 {fx(Fr(16 * lay_stage * per_layer, GB), 2)} GB", 8)


def asap(orders, p, m, tf, tb):
    """各装置の仕事の順序を与えたとき、最も早く始める割り当ての開始時刻と T。"""
    dur = {"F": tf, "B": tb}

    def preds(k):
        kind, i, j = k
        if kind == "F":
            return [("F", i, j - 1)] if j >= 2 else []
        return [("F", i, p)] if j == p else [("B", i, j + 1)]

    pos = {k: (o, q) for o in orders for q, k in enumerate(o)}
    start, changed = {}, True
    while changed:
        changed = False
        for k, (o, q) in pos.items():
            dep = preds(k) + ([o[q - 1]] if q > 0 else [])
            if k not in start and all(x in start for x in dep):
                start[k] = max([start[x] + dur[x[0]] for x in dep], default=0)
                changed = True
    return max(start[k] + dur[k[0]] for k in start)


def one_f_one_b(p, m):
    """1F1B（PipeDream-Flush）：段 j は min(p-j, m) 個の順伝播のあと、順伝播と逆伝播を交互に行う。"""
    orders = []
    for j in range(1, p + 1):
        w = min(p - j, m)
        o, nf, nb = [("F", i, j) for i in range(1, w + 1)], w, 0
        while nf < m:
            nf += 1
            nb += 1
            o += [("F", nf, j), ("B", nb, j)]
        o += [("B", i, j) for i in range(nb + 1, m + 1)]
        orders.append(o)
    return orders


ok1f1b = True
for p in range(1, 7):
    for m in range(1, 10):
        o = one_f_one_b(p, m)
        live = [max(sum(1 if k[0] == "F" else -1 for k in oj[:q + 1]) for q in range(len(oj))) for oj in o]
        ok1f1b &= max(live) <= p
        for tf, tb in ((1, 1), (1, 2), (1, 3), (2, 1), (Fr(3, 2), Fr(5, 2))):
            ok1f1b &= asap(o, p, m, tf, tb) == (m + p - 1) * (tf + tb)
truth("5 節 1F1B（[4]）：p ≤ 6, m ≤ 9 で T = (m+p-1)(t_f+t_b)、同時に持つ活性は高々 p 個", ok1f1b, 2)
check("5 節 1F1B の記述", "全体の時間は GPipe と同じ $(m + p - 1)(t_f + t_b)$ のまま、各装置が同時に持つマイクロバッチの活性が高々 $p$ 個", 1)

# ============ 6 節：ZeRO ============
K = 12
truth("定義 5.17 K = 12 = 4（マスター重み）+ 4（m）+ 4（v）", K == 4 + 4 + 4, 0)
check("定義 5.17 内訳", "fp16 のパラメータ（$2\\Psi$ バイト）、fp16 の勾配（$2\\Psi$ バイト）、最適化状態（$K\\Psi$ バイト。fp32 のマスター重みと Adam の $\\boldsymbol{m}, \\boldsymbol{v}$ で $K = 12$）", 4)


def M(psi, nd, z, k=K):
    return [Fr((4 + k) * psi), 4 * psi + Fr(k * psi, nd), 2 * psi + Fr((2 + k) * psi, nd), Fr((4 + k) * psi, nd)][z]


Ps, Nds, Ks = sp.symbols("Psi N_d K", positive=True)
Msym = [(4 + Ks) * Ps, 4 * Ps + Ks * Ps / Nds, 2 * Ps + (2 + Ks) * Ps / Nds, (4 + Ks) * Ps / Nds]
truth("命題 5.18 の 1：段階ごとの内訳の和（段階 1 = 2Ψ+2Ψ+KΨ/N_d など）",
      sp.simplify(Msym[1] - (2 * Ps + 2 * Ps + Ks * Ps / Nds)) == 0 and sp.simplify(Msym[2] - (2 * Ps + 2 * Ps / Nds + Ks * Ps / Nds)) == 0
      and sp.simplify(Msym[3] - (2 * Ps + 2 * Ps + Ks * Ps) / Nds) == 0, 3)
truth("命題 5.18 の 1：段階 3 は N_d に反比例、段階 1・2 は 4Ψ、2Ψ より大きく、N_d → ∞ で 4Ψ、2Ψ",
      sp.simplify(Msym[3] * Nds).has(Nds) is False and sp.limit(Msym[1], Nds, sp.oo) == 4 * Ps and sp.limit(Msym[2], Nds, sp.oo) == 2 * Ps, 3)
check("0 節 ZeRO", "1 台あたりの記憶を $16\\Psi$ バイトから段階 3 では $16\\Psi/N_d$ バイトに減らします。更新の値は変わらず、通信量は段階 2 まで変わらず、段階 3 で 1.5 倍", 4)
truth("命題 5.18 の 2：3(N_d-1)/N_d ÷ 2(N_d-1)/N_d = 3/2 = 1.5", Fr(3, 2) == Fr(15, 10), 1)
check("命題 5.18 の 2", "段階 0、1、2 では $2(N_d - 1)\\Psi/N_d$ 個、段階 3 では $3(N_d - 1)\\Psi/N_d$ 個で、段階 3 は 1.5 倍", 0)
check("命題 5.18 の証明 2 の比", "比は $3/2 = 1.5$ です", 2)


# ZeRO の更新が段階 0 と同じであること（Adam を区間ごとに施す。numpy の成分ごとの演算なので完全に一致）
def adam(theta, g, mo, vo, t, lr=1e-3, b1_=0.9, b2_=0.999, ep=1e-8):
    mo = b1_ * mo + (1 - b1_) * g
    vo = b2_ * vo + (1 - b2_) * g * g
    return theta - lr * (mo / (1 - b1_ ** t)) / (np.sqrt(vo / (1 - b2_ ** t)) + ep), mo, vo


nd_, psi_ = 4, 24
th0 = rng.standard_normal(psi_).astype(np.float32)
thA, mA, vA = th0.copy(), np.zeros(psi_, np.float32), np.zeros(psi_, np.float32)
thB, mB, vB = th0.copy(), np.zeros(psi_, np.float32), np.zeros(psi_, np.float32)
same = True
for t in range(1, 6):
    gs = [rng.standard_normal(psi_).astype(np.float32) for _ in range(nd_)]
    gsum = sum(gs) / nd_                              # all-reduce（段階 0）
    thA, mA, vA = adam(thA, gsum, mA, vA, t)
    new = thB.copy()
    for k in range(nd_):                              # 区間ごと（段階 1〜3）：reduce-scatter → 更新 → all-gather
        sl = slice(k * psi_ // nd_, (k + 1) * psi_ // nd_)
        new[sl], mB[sl], vB[sl] = adam(thB[sl], gsum[sl], mB[sl], vB[sl], t)
    thB = new
    same &= np.array_equal(thA, thB)
truth("命題 5.18 の 3：区間ごとの Adam の更新が全体の更新とビット単位で一致（5 ステップ）", same)
# 例 5.19
Nd = 64
check("例 5.19 設定", f"$\\Psi = {cm(Psi)}$、$N_d = {Nd}$、$K = {K}$ とします（$\\Psi/{Nd} = {cm(Psi // Nd)}$ で割り切れます）", 5)
truth("例 5.19 Ψ は 64 で割り切れる", Psi % Nd == 0, 0)
check("例 5.19 丸め", "比は段階 0 に対する値で、小数第 4 位に丸めています", 1)
exprs = ["$16\\Psi$", "$4\\Psi + 12\\Psi/64$", "$2\\Psi + 14\\Psi/64$", "$16\\Psi/64$"]
names = ["段階 0（ZeRO なし）", "段階 1", "段階 2", "段階 3"]
comm = [f"${c} \\cdot \\frac{{{Nd - 1}}}{{{Nd}}}\\Psi$" for c in (2, 2, 2, 3)]   # 命題 5.18 の 2
for z in range(4):
    m_ = M(Psi, Nd, z)
    row = "\t".join([names[z], exprs[z], cp(int(m_)), fx(m_ / GB, 2), fx(m_ / M(Psi, Nd, 0), 4), comm[z]])
    check(f"例 5.19 の表 段階 {z}", row, 7)
    truth(f"例 5.19 段階 {z} の式は M(Ψ, 64, {z})", sp.simplify(Msym[z].subs({Ks: 12, Nds: 64}) - sp.sympify(["16*Psi", "4*Psi+12*Psi/64", "2*Psi+14*Psi/64", "16*Psi/64"][z], locals={"Psi": Ps})) == 0, 0)
ratios = [M(Psi, Nd, z) / M(Psi, Nd, 0) for z in range(4)]
check("例 5.19 比の正確な値", f"比は順に $1$、$4.1875/16 = {dec(ratios[1])}$、$2.21875/16 = {dec(ratios[2])}$、$1/64 = {dec(ratios[3])}$ です", 7)
truth("例 5.19 4.1875 = 4 + 12/64、2.21875 = 2 + 14/64", Fr(41875, 10000) == 4 + Fr(12, 64) and Fr(221875, 100000) == 2 + Fr(14, 64), 0)
truth("例 5.19 段階 1 は 80 GB に収まる", M(Psi, Nd, 1) < 80 * GB and M(Psi, Nd, 0) > 80 * GB)
check("例 5.19 段階 1 と段階 3", f"段階 1 ですでに 80 GB の装置に収まり、段階 3 では学習の状態は約 {fx(M(Psi, Nd, 3) / GB, 2)} GB", 2)
c2 = Fr(2 * 63, 64) * Psi
c3 = Fr(3 * 63, 64) * Psi
check("例 5.19 送る要素", f"段階 0〜2 の $2 \\times \\frac{{63}}{{64}} \\times \\Psi = {cm(int(c2))}$ 個（fp16 で ${cm(int(2 * c2))}$ バイト）から、段階 3 では ${cm(int(c3))}$ 個（${cm(int(2 * c3))}$ バイト）", 6)
zp = Fr(75, 10) * 10 ** 9
zero_paper = [M(zp, 64, z) / GB for z in range(4)]
check("例 5.19 ZeRO の論文の例", f"$\\Psi = 7.5 \\times 10^{{9}}$、$N_d = 64$ を入れると、段階 0〜3 で ${dec(zero_paper[0])}$、${dec(zero_paper[1])}$、${dec(zero_paper[2])}$、${dec(zero_paper[3])}$ GB", 6)
check("例 5.19 論文の図 1 の値（小数第 1 位に丸めると一致）",
      f"論文の図 1 の {fx(zero_paper[0], 0)} GB、{fx(zero_paper[1], 1)} GB、{fx(zero_paper[2], 1)} GB、{fx(zero_paper[3], 1)} GB に一致", 5)

# ============ 7 節：活性 ============
bb, nb, db, hb = sp.symbols("b n d h", positive=True)
BND, HN2B = bb * nb * db, hb * nb ** 2 * bb
two = 2     # 16 ビットの値
one = 1     # マスク
ln_part = 2 * (two * BND)
attn_part = two * BND + two * 2 * BND + two * HN2B + one * HN2B + two * HN2B + two * BND + two * BND + one * BND
mlp_part = two * BND + two * 4 * BND + two * 4 * BND + one * BND
Aexpr = sp.expand(ln_part + attn_part + mlp_part)
truth("命題 5.21 の 1：定義 5.20 の一覧の和 = 34bnd + 5hn^2b", sp.expand(Aexpr - (34 * BND + 5 * HN2B)) == 0)
truth("命題 5.21 の証明 1：層正規化 4bnd、注意 11bnd + 5hn^2b、MLP 19bnd",
      sp.expand(ln_part - 4 * BND) == 0 and sp.expand(attn_part - (11 * BND + 5 * HN2B)) == 0 and sp.expand(mlp_part - 19 * BND) == 0, 3)
check("命題 5.21 の証明 1", "層正規化は $2 \\times 2bnd = 4bnd$。注意は $2bnd + 4bnd + 2hn^2b + hn^2b + 2hn^2b + 2bnd + 2bnd + bnd = 11bnd + 5hn^2b$。MLP は $2bnd + 8bnd + 8bnd + bnd = 19bnd$。合計は $34bnd + 5hn^2b$", 0)
truth("命題 5.21 の 1：n^2 の項は d を含まない", sp.Poly(Aexpr, nb).coeff_monomial(nb ** 2).has(db) is False, 0)
# テンソル並列：全装置が持つ値と分けられる値
rep_tp = 2 * BND * 2 + two * BND + one * BND + two * BND + one * BND
split_tp = two * 2 * BND + two * BND + two * BND + two * 8 * BND
truth("命題 5.21 の 2：全装置が持つ 10bnd、分けられる 24bnd + 5hn^2b、和は 34bnd + 5hn^2b",
      sp.expand(rep_tp - 10 * BND) == 0 and sp.expand(split_tp - 24 * BND) == 0 and sp.expand(rep_tp + split_tp + 5 * HN2B - Aexpr) == 0, 3)
check("命題 5.21 の 2 の内訳", "層正規化の入力 $4bnd$、$W_Q, W_K, W_V$ への入力 $2bnd$、注意の出力のマスク $bnd$、$W_1$ への入力 $2bnd$、MLP の出力のマスク $bnd$ の計 $10bnd$ です。分けられるのは、$Q, K$ の $4bnd$、$V$ の $2bnd$、$W_O$ への入力（ヘッドの出力の連結）の $2bnd$、活性化関数の入力と出力の $16bnd$ の計 $24bnd$", 0)
no_drop = sp.expand(Aexpr - one * HN2B - two * HN2B - one * BND - one * BND)
truth("7 節 ドロップアウトなしでは 32bnd + 2hn^2b", sp.expand(no_drop - (32 * BND + 2 * HN2B)) == 0)
check("7 節 ドロップアウトなし", "1 層は $32bnd + 2hn^2b$ バイトです", 0)
# 補題 5.22：乗算の回数を実際に数える
r_, q_, c_ = 3, 4, 5
Xm, Wm, Gm = rng.standard_normal((r_, q_)), rng.standard_normal((q_, c_)), rng.standard_normal((r_, c_))
dX = np.array([[sum(Gm[a, cc] * Wm[l, cc] for cc in range(c_)) for l in range(q_)] for a in range(r_)])
dW = np.array([[sum(Xm[a, l] * Gm[a, cc] for a in range(r_)) for cc in range(c_)] for l in range(q_)])
fd = vjp_fd(lambda Z: Z @ Wm, Xm, Gm)
truth("補題 5.22：∂L/∂X = G W^T、∂L/∂W = X^T G（有限差分と一致）、乗算は r c q + q r c = 2 r q c",
      np.abs(dX - fd).max() < 1e-7 and np.abs(dX - Gm @ Wm.T).max() < 1e-12 and np.abs(dW - Xm.T @ Gm).max() < 1e-12
      and r_ * c_ * q_ + q_ * r_ * c_ == 2 * r_ * q_ * c_, 2)
check("命題 5.23 の 1", "1 ステップの乗算は $4F$ 回、再計算なしの $4/3$ 倍", 2)
truth("命題 5.23 の 1：F + 2F + F = 4F、4F/3F = 4/3", 1 + 2 + 1 == 4 and Fr(4, 3) == Fr(4 * 1, 3 * 1), 0)
Fl = 12 * nb * db ** 2 + 2 * nb ** 2 * db
frac_sel = 2 * nb ** 2 * db / (3 * Fl)
truth("命題 5.23 の 2：2n^2d/(3(12nd^2 + 2n^2d)) = n/(3(6d + n))、n について増加、1/3 未満",
      sp.simplify(frac_sel - nb / (3 * (6 * db + nb))) == 0 and sp.simplify(sp.diff(nb / (6 * db + nb), nb) - 6 * db / (6 * db + nb) ** 2) == 0
      and sp.limit(nb / (3 * (6 * db + nb)), nb, sp.oo) == sp.Rational(1, 3), 3)
# 例 5.24
A1l = 34 * bnd + 5 * h * n1 ** 2 * b1
check("例 5.24 設定", f"$b = {b1}$、$n = {n1}$、$d = {d}$、$h = {h}$ とします。$bnd = {cm(bnd)}$", 5)
check("例 5.24 1 層", f"$34 \\times {cm(bnd)} + 5 \\times {h} \\times {n1}^2 = {cm(34 * bnd)} + {cm(5 * h * n1 ** 2)} = {cm(A1l)}$ バイト、32 層で ${cm(L * A1l)}$ バイト、約 {fx(Fr(L * A1l, GB), 2)} GB", 10)
q2 = Fr(5 * h * n1 ** 2, A1l)
check("例 5.24 2 次の項の割合", f"${cm(5 * h * n1 ** 2)} / {cm(A1l)} = {q2.numerator}/{q2.denominator} \\approx {fx(q2 * 100, 2)}\\,\\%$", 5)
check("0 節 70.18 %", f"活性の約 {fx(q2 * 100, 2)} % を、約 {fx(Fr(1, 39) * 100, 3)} % の計算の追加で", 2)
rows = [("再計算なし", "$34bnd + 5hn^2b$", A1l, L * A1l),
        ("選択的再計算", "$34bnd$", 34 * bnd, L * 34 * bnd),
        ("全再計算", "$2bnd$（保存する入力）", 2 * bnd, 2 * bnd * L + A1l),
        ("テンソル並列 $t = 8$", "$13bnd + 5hn^2b/8$", int((10 + Fr(24, 8)) * bnd + Fr(5 * h * n1 ** 2 * b1, 8)), L * int((10 + Fr(24, 8)) * bnd + Fr(5 * h * n1 ** 2 * b1, 8))),
        ("$t = 8$ と選択的再計算", "$13bnd$", int((10 + Fr(24, 8)) * bnd), L * int((10 + Fr(24, 8)) * bnd))]
truth("例 5.24 t = 8 で 10 + 24/t = 13", 10 + Fr(24, 8) == 13, 0)
for name, ex, per, tot_ in rows:
    check(f"例 5.24 の表 {name}", "\t".join([name, ex, cp(per), cp(tot_), fx(Fr(tot_, L * A1l), 4)]), 3)
check("例 5.24 表の注", "小数第 4 位に丸め。全再計算の 32 層の欄は 命題 5.23 の 1 の上界 $2bnd \\times 32 + A$", 2)
sel = Fr(34 * bnd, A1l)
check("例 5.24 選択的再計算", f"活性を ${sel.numerator}/{sel.denominator} \\approx {fx(sel, 4)}$ 倍にし、増える乗算は $\\frac{{{n1}}}{{3 \\times (6 \\times {d} + {n1})}} = \\frac{{1}}{{39}} \\approx {fx(Fr(1, 39) * 100, 3)}\\,\\%$", 7)
truth("例 5.24 2048 / (3 (6·4096 + 2048)) = 1/39", Fr(n1, 3 * (6 * d + n1)) == Fr(1, 39), 0)
check("例 5.24 全再計算", f"全再計算は活性を約 {fx(Fr(2 * bnd * L + A1l, L * A1l), 4)} 倍にしますが、乗算は $4/3$ 倍、約 {fx(Fr(1, 3) * 100, 2)} % 増えます", 4)
st3 = int(M(Psi, Nd, 3))
check("例 5.24 まとめ", f"$N_d = {Nd}$ 台のデータ並列に ZeRO の段階 3 と選択的再計算を組み合わせると、1 台あたりは学習の状態 ${cm(st3)}$ バイトと活性 ${cm(L * 34 * bnd)}$ バイトの和で ${cm(st3 + L * 34 * bnd)}$ バイト、約 {fx(Fr(st3 + L * 34 * bnd, GB), 2)} GB", 6)
check("例 5.24 何も使わない場合", f"${cm(16 * Psi)} + {cm(L * A1l)} = {cm(16 * Psi + L * A1l)}$ バイト、約 {fx(Fr(16 * Psi + L * A1l, GB), 1)} GB", 4)

# ============ 演習 ============
N9 = 10 ** 9
e4 = Fr(2 * 3, 4) * N9 * 2
e1024 = Fr(2 * 1023, 1024) * N9 * 2
check("演習 5.25 問", f"$N = 10^{{9}}$ 要素の fp16 のベクトルを、$p = 4$ と $p = {cm(1024)}$ の ring all-reduce", 3)
check("演習 5.25 p = 4", f"$p = 4$ では $2 \\times \\frac{{3}}{{4}} \\times 10^{{9}} \\times 2 = {int(e4 / N9)} \\times 10^{{9}}$ バイト", 2)
check("演習 5.25 p = 1024", f"$p = {cm(1024)}$ では $2 \\times \\frac{{1023}}{{1024}} \\times 10^{{9}} \\times 2 = {dec(e1024 / N9)} \\times 10^{{9}}$ バイトで、$p = 4$ の ${dec(e1024 / e4)}$ 倍", 4)
a4, a1024 = (4 - 1) * N9 * 2, (1024 - 1) * N9 * 2
check("演習 5.25 全員に送る", f"$(p-1)N \\times 2$ バイトで、${a4 // N9} \\times 10^{{9}}$ バイトと ${cm(a1024 // N9)} \\times 10^{{9}}$ バイト、ring のそれぞれ $p/2 = {int(a4 / e4)}$ 倍と ${int(a1024 / e1024)}$ 倍", 4)
truth("演習 5.25 比はちょうど p/2", a4 / e4 == 2 and a1024 / e1024 == 512, 0)
p16 = 16
m1 = math.ceil(Fr(p16 - 1) * Fr(9, 10) / Fr(1, 10))
m2 = math.ceil(Fr(p16 - 1) / Fr(1, 10))
truth("演習 5.26 最小値（総当たり）", m1 == min(m for m in range(1, 1000) if Fr(15, m + 15) <= Fr(1, 10)) and m2 == min(m for m in range(1, 1000) if Fr(15, m) <= Fr(1, 10)), 2)
check("演習 5.26 問", f"$p = {p16}$ 段のパイプラインで、バブルの割合 $\\beta$ を 10 % 以下", 2)
check("演習 5.26 β", f"$\\varepsilon = 0.1$ とすると $m \\ge 15 \\times 0.9/0.1 = {m1}$ で、最小値は {m1}（$\\beta = 15/{m1 + 15} = {int(Fr(15, m1 + 15) * 100)}\\,\\%$）", 6)
check("演習 5.26 比", f"比のほうは $15/m \\le 0.1 \\iff m \\ge {m2}$ で、最小値は {m2}、そのとき $\\beta = 15/{m2 + 15} \\approx {fx(Fr(15, m2 + 15) * 100, 3)}\\,\\%$", 5)
check("演習 5.26 10 %", "同じ「10 %」でも", 1)
qs = rng.standard_normal(12)
truth("演習 5.27 区間ごとの 2 乗和の和 = 全体の 2 乗和", abs(sum((qs[k * 3:(k + 1) * 3] ** 2).sum() for k in range(4)) - (qs ** 2).sum()) < 1e-12)
check("演習 5.27 送る数", "1 台が送るのは $N_d - 1$ 要素で", 1)
check("演習 5.27 (1, c/||g||)", "$\\boldsymbol{g} \\leftarrow \\min\\big(1, c/\\|\\boldsymbol{g}\\|\\big)\\,\\boldsymbol{g}$（$c > 0$ は定数）", 2)

# ============ 8 節：リスティング ============
src = open(os.path.join(HERE, "ring_allreduce.py"), encoding="utf-8").read().rstrip("\n")
i = TEXT.find(src)
truth("8 節 本文のコードは ring_allreduce.py と同一", i >= 0)
run = subprocess.run([sys.executable, "ring_allreduce.py"], cwd=HERE, capture_output=True, text=True)
printed = TEXT[i + len(src):].lstrip("\n").split("\n\n")[0] if i >= 0 else None
truth(f"8 節 ring_allreduce.py の実行結果が本文の出力 {len(run.stdout.splitlines())} 行と一字一句一致", run.returncode == 0 and run.stdout.rstrip("\n") == printed)
if i >= 0:
    covered[i:i + len(src) + 2 + len(printed)] = True
out_lines = run.stdout.splitlines()
truth("8 節 出力の 1〜4 行目は例 5.6 の各ステップ（このスクリプトの独立な実装と一致）",
      all(out_lines[s] == f"step {s + 1}: " + "  ".join(str([int(v) for v in hist[s][k]]) for k in range(3)) for s in range(4)))
check("8 節 出力の説明 1", "• 1〜4 行目：例 5.6 の各ステップの後のバッファです（装置 0, 1, 2 の順）。5 行目：各装置が送った要素は 4 個です。", 4)
NL = 1680
truth("8 節 N = 1680 は 2, 3, 4, 5, 6, 7, 8, 16 の倍数", all(NL % q == 0 for q in (2, 3, 4, 5, 6, 7, 8, 16)), 0)
rows8 = [l.split() for l in out_lines[6:11]]
truth("8 節 出力の 7〜11 行目：送信量 = 2(p-1)N/p、比 = 2 - 2/p（小数第 4 位）、True",
      all(int(r[0]) == pv and int(r[1]) == int(r[2]) == 2 * (pv - 1) * NL // pv and r[3] == fx(Fr(2 * (pv - 1), pv), 4) and r[4] == "True"
          for r, pv in zip(rows8, (2, 3, 4, 8, 16))), 5)
check("8 節 出力の説明 2", f"• 7〜11 行目：$N = {cm(NL)}$ の整数のベクトルで、$p = 2, 3, 4, 8, 16$ のどれでも", 7)
check("8 節 比 2 - 2/p", "$N$ に対する比 $2 - 2/p$ は $p$ とともに増えますが、2 を超えません", 2)


# ============ 言葉と式の中の数（上で値や式を確かめたもの） ============
check("定義 5.20 バイト数", "値は 16 ビットで 1 要素 2 バイト、ドロップアウトのマスクは 1 要素 1 バイトとする", 4)
check("定義 5.20 マスク 1", "そのドロップアウトのマスク（$hn^2b$、1 バイト）", 1)
check("定義 5.20 マスク 2", "出力のドロップアウトのマスク（$bnd$、1 バイト）", 1)
check("定義 5.20 ドロップアウト", "成分を確率的に 0 にする正則化", 1)
check("定義 5.20 の一覧", "$Q$ と $K$（合わせて $2bnd$）", 1)
check("定義 5.20 の一覧 MLP", "活性化関数の入力と出力（$4bnd$ ずつ）", 1)
truth("定義 5.20 活性化関数の入力は bn × d_ff = 4bnd 要素（d_ff = 4d）", dff == 4 * d, 0)
check("命題 5.5 の 3 の言葉", "$2(p-1)/p = 2 - 2/p$ は $p$ について単調増加で、2 未満で、$p \\to \\infty$ で 2 に近づきます", 3)
check("例 5.6 塊の長さ", "$p = 3$、$N = 3$（塊の長さ 1）", 3)
check("例 5.6 見出し", "例 5.6（p = 3 を手で追う）", 1)
check("例 5.6 ステップを 1 から", "出力ではステップを 1 から数えています", 1)
check("例 5.8 p = 64", "$p = 64$ 台では", 1)
check("命題 5.21 の式", "$A(b, n, d, h) = 34\\,bnd + 5\\,hn^2b$ バイトである", 2)
check("0 節 活性の式", "1 層あたり $34bnd + 5hn^2b$ バイトです", 2)
check("命題 5.21 の 2 の式", "$bnd\\big(10 + \\frac{24}{t}\\big) + \\frac{5hn^2b}{t}$ バイト", 3)
truth("命題 5.21 の 2：t = 1 で 34bnd + 5hn^2b に戻る", sp.expand((10 + sp.Rational(24, 1)) * BND + 5 * HN2B - Aexpr) == 0, 0)
check("命題 5.23 の 2 の式", "$$\\frac{2n^2d}{3\\,(12nd^2 + 2n^2d)} = \\frac{n}{3\\,(6d + n)}$$", 4)
check("命題 5.23 の 2 の言葉", "活性は 1 層 $34bnd$ バイトで、増える乗算は 1 層 $2n^2db$ 回である", 2)
check("命題 5.23 の 2 の言葉 2", "で、$n$ について単調増加であり、$1/3$ 未満である", 1)
check("命題 5.23 の証明 2", "命題 5.21 の 1 より 1 層 $34bnd$ バイトです", 1)
check("命題 5.23 の証明 2 の乗算", "$QK^{\\mathsf{T}}$ の $n^2d$ 回と重みと $V$ の積の $n^2d$ 回（命題 7.2［自己注意］）の $2n^2d$ 回で、$b$ 本で $2n^2db$ 回です。1 層の順伝播は列 1 本あたり $12nd^2 + 2n^2d$ 回", 4)
check("命題 5.23 の証明 2 の単調性", "$n/(6d + n) = 1 - 6d/(6d + n)$ は $n$ について増加し、1 未満です", 2)
check("例 5.24 表の見出し", "方式\t1 層あたりの式\t1 層あたり（バイト）\t32 層（バイト）\t再計算なしとの比", 1)
check("例 5.24 2 次の項", "$n$ について 2 次の項が", 1)
check("命題 5.21 の 1 の言葉", "$n$ について 2 次の項はすべて注意の重みから来て、$d$ に依らない", 1)

check("演習 5.26 比の問", "遊んでいる時間と理想の時間の比 $(p-1)/m$ を 10 % 以下にする場合", 1)
check("演習 5.27 2 乗和", "担当区間の 2 乗和 $q_k := \\sum_{i \\in I_k} g_i^2$", 1)
# all-reduce の回数などの主張（上の n_ar の検査で確かめたもの）
check("命題 5.12 の証明 順伝播", "注意の出力と MLP の出力はそれぞれ 1 回の all-reduce で全装置にそろいます", 1)
check("命題 5.12 の証明 MLP の逆伝播", "右辺の第 $i$ 項は装置 $i$ が計算できるので、all-reduce 1 回でそろいます", 1)
check("命題 5.12 の証明 注意の逆伝播", "入力 $\\mathrm{LN}_1(X)$ についての勾配が 1 回の all-reduce で足し合わされます", 1)
check("命題 5.12 の証明 合計", "all-reduce は合わせて 4 回、それぞれ $bnd$ 要素なので", 1)
check("例 5.13 通信の回数", "テンソル並列の通信は、各層の計算の途中に 4 回入り", 1)
check("例 5.11 行で分ける場合の通信", "ReLU の前に和を取る通信がもう 1 回要ります", 1)
check("7 節 ドロップアウトなしで無くなるもの", "3 つのマスクとドロップアウト後の重みが無くなり", 1)
check("補題 5.22 の見出し", "補題 5.22（行列の積の逆伝播は順伝播の 2 倍）", 1)
naive = {}
for p in (3, 5, 8):
    Nn = 4
    send_all = [Nn * (p - 1)] * p                              # 全員に自分のベクトル全体を送る
    star_recv, star_send = Nn * (p - 1), Nn * (p - 1)           # 中心の装置：集めて、配る
    naive[p] = (send_all[0], star_recv, star_send)
truth("注意 5.7 素朴な方法はどちらも (p-1)N（p = 3, 5, 8、N = 4 で数える）", all(v == (4 * (p - 1),) * 3 for p, v in naive.items()), 1)
check("注意 5.7 の回数", "1 台が送る量は $(p-1)N$ です。1 台に集めて足し、結果を全員に送り返す方法では、中心の装置が $(p-1)N$ 個を受け取り、$(p-1)N$ 個を送ります", 0)

# ============ 本文の数値の網羅性 ============
# 照合の対象外：リスティング（上で実行して照合済み）、参考文献、要素・節の番号と他章の要素の参照、
# 見出しと箇条の番号、文献番号 [n]。TeX の式の中の 1 桁の数（指数や係数）は式の一部として、
# 上の sympy による式の検査に委ねる。残りの数値がどの検査の文字列にも含まれなければ失敗とする。
ex = np.zeros(len(TEXT), dtype=bool)
ref_start = TEXT.find("\n参考文献\n")
ex[ref_start:] = True
for pat in [r"(定義|命題|例|補題|演習|定理|注意) \d+\.\d+(［[^］]*］)?( の \d)?",
            r"(?m)^\d+\. ", r"\[\d\]", r"\d+ 節", r"表 2\.1", r"図 1", r"6\.7B", r"2\.1 節",
            r"演習 5\.\d+(易|標準)", r"段階 \d(〜\d|(、\d)+)?", r"第 \d 項", r"装置 \d", r"第 \d 成分", r"ステップ \d(?= (の後|では))",
            r"(?<![\d.])\d(?= (より|のとおり|で見たとおり))", r"(?m)^\d は、"]:
    for mt in re.finditer(pat, TEXT):
        ex[mt.start():mt.end()] = True
math_spans = np.zeros(len(TEXT), dtype=bool)
for mt in re.finditer(r"\$\$.*?\$\$|\$[^$]+\$", TEXT, flags=re.S):
    math_spans[mt.start():mt.end()] = True
# 数を数える言葉（「3 つ」「1 台」など）は、値の主張ではなく数え方なので、語を添えて許可する
COUNT_WORDS = ("つ", "台", "個", "回", "本", "組", "段", "群", "か所", "点", "層", "行", "倍", "通り", "ステップ", "億", "GB",
               "要素", "増えるごと", "度", "次")
allowed_counts = []
uncovered = []
for mt in re.finditer(r"\d+(?:\{,\}\d{3}|,\d{3})*(?:\.\d+)?", TEXT):
    a, b = mt.start(), mt.end()
    if ex[a:b].any() or covered[a:b].all():
        continue
    tok = mt.group()
    if (a > 0 and TEXT[a - 1].isascii() and TEXT[a - 1].isalpha()) or (b < len(TEXT) and TEXT[b] in "FB" and TEXT[b + 1:b + 2].isdigit()):
        continue    # fp16、fp32、1F1B のような名前の一部
    if math_spans[a] and len(tok) == 1:
        continue
    after = TEXT[b:b + 6].lstrip(" ")
    if len(tok) == 1 and not math_spans[a] and after.startswith(COUNT_WORDS):
        allowed_counts.append(TEXT[max(0, a - 6):b + 4].replace("\n", " "))
        continue
    uncovered.append((tok, TEXT[max(0, a - 25):b + 15].replace("\n", " ")))
print(f"\n数え方として許可した 1 桁の数（値の主張ではない）: {len(allowed_counts)} 個")
for ctx in allowed_counts:
    print(f"  count …{ctx}…")
for tok, ctx in uncovered:
    print(f"UNCHECKED {tok!r}: …{ctx}…")
truth(f"網羅性：照合されていない数値の数 = {len(uncovered)}", not uncovered, 0)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

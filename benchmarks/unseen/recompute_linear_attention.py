#!/usr/bin/env python3
"""linear_attention.txt（線形注意と状態空間の再帰）に書かれた数値を、定義から計算し直して照合する。

各数値について「章の中の文脈（その数値を含む文字列）」「印字された数値」「定義から計算した値」を並べ、
文脈が章にあること、計算値を印字の桁で丸めると印字の値になることを確かめる。表は行ごとに読み取って
各セルを照合する。最後に章の 2 つのコードを取り出して実行し、出力が章の出力と一字一句同じかを確かめる。
1 つでも合わなければ終了コード 1 で終わる。
"""
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile

import mpmath as mp
import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
CHAPTER = os.path.join(HERE, "linear_attention.txt")
TEXT = open(CHAPTER, encoding="utf-8").read()
LINES = TEXT.splitlines()

n_checked = 0
failures = []


def parse_number(s):
    """印字された数値の文字列 → (値, 丸めの幅)。'4{,}160'、'34,359,738,368'、'1.75 \\times 10^{-46}' など。"""
    t = s.replace("$", "").replace("{,}", "").replace(",", "").replace("−", "-").strip()
    m = re.fullmatch(r"(-?\d+(?:\.(\d+))?)(?:\s*\\times\s*10\^\{(-?\d+)\})?", t)
    if not m:
        raise ValueError("cannot parse %r" % s)
    mant, frac, exp = m.group(1), m.group(2), m.group(3)
    dec = len(frac) if frac else 0
    scale = 10.0 ** int(exp) if exp else 1.0
    return float(mant) * scale, 0.5 * 10.0 ** (-dec) * scale


def check(context, printed, value, label=""):
    global n_checked
    n_checked += 1
    present = context in TEXT and printed in context
    v, half = parse_number(printed)
    value = float(value)
    ok = present and abs(value - v) <= half * (1 + 1e-9) + 1e-12 * max(1.0, abs(v))
    where = "" if present else "  [context not found]"
    print("%s %-44s printed %-22s computed %.10g%s" % ("ok  " if ok else "FAIL", label[:44], printed, value, where))
    if not ok:
        failures.append((label, printed, value))


def check_true(label, cond, detail=""):
    global n_checked
    n_checked += 1
    print("%s %-44s %s" % ("ok  " if cond else "FAIL", label[:44], detail))
    if not cond:
        failures.append((label, detail, ""))


def check_formula(label, lhs, rhs):
    check_true(label, sp.simplify(lhs - rhs) == 0, "%s = %s" % (lhs, rhs))


def table(header_prefix):
    """header_prefix で始まる見出し行の下の、タブ区切りの表の行 {最初のセル: (行, セル)}。"""
    start = next(i for i, line in enumerate(LINES) if line.startswith(header_prefix) and "\t" in line)
    rows = {}
    for line in LINES[start + 1:]:
        if "\t" not in line:
            break
        cells = line.split("\t")
        rows[cells[0]] = (line, cells)
    return rows


# ---------------------------------------------------------------- 定義どおりの関数
def decayed_sum(lam, t):
    """重み 1 の入力を t 回入れたときの減衰つきの状態（スカラー）。定義 4.1 の再帰そのもの。"""
    s = 0.0
    for _ in range(t):
        s = lam * s + 1.0
    return s


def ssm(x, a, b, c):
    h, ys, hs = 0.0, [], []
    for xt in x:
        h = a * h + b * xt
        hs.append(h)
        ys.append(c * h)
    return np.array(hs), np.array(ys)


def half_life(lam):
    return math.log(2) / -math.log(lam)


# ---------------------------------------------------------------- 1 節
check("$2 \\times 12 \\times 768 = 18{,}432$ 個", "18{,}432", 2 * 12 * 768, "1 節 1 トークンあたりのキャッシュ")

# ---------------------------------------------------------------- 命題 3.1（記号）
n, m, dv, d, t, lam = sp.symbols("n m d_v d t lambda", positive=True)
left = n * m * n + n * n * dv
right = m * n * dv + n * m * dv
check_formula("命題 3.1 左辺の順番 = n^2 m + n^2 d_v", left, n**2 * m + n**2 * dv)
check_formula("命題 3.1 右辺の順番 = 2 n m d_v", right, 2 * n * m * dv)
check_formula("命題 3.1 m = d_v = d: 左辺 = 2n^2 d", left.subs({m: d, dv: d}), 2 * n**2 * d)
check_formula("命題 3.1 m = d_v = d: 右辺 = 2n d^2", right.subs({m: d, dv: d}), 2 * n * d**2)
check_formula("命題 3.1 比 = n/d", (left / right).subs({m: d, dv: d}), n / d)
# 結合法則そのもの（乱数の行列で）
rng = np.random.default_rng(1)
A_, B_, C_ = rng.random((7, 3)), rng.random((3, 7)), rng.random((7, 5))
check_true("命題 3.1 (AB)C = A(BC)（数値）", np.allclose((A_ @ B_) @ C_, A_ @ (B_ @ C_)))

# ---------------------------------------------------------------- 例 3.2（乗算の表）
dd = 64
rows = table("$n$\t左辺の順番")
for nn in (64, 256, 1024, 4096, 16384):
    line, cells = rows[str(nn)]
    check(line, cells[1], 2 * nn * nn * dd, "例 3.2 n=%d 左辺 2n^2d" % nn)
    check(line, cells[2], 2 * nn * dd * dd, "例 3.2 n=%d 右辺 2nd^2" % nn)
    check(line, cells[3], (2 * nn * nn * dd) / (2 * nn * dd * dd), "例 3.2 n=%d 比" % nn)
ctx = "$n = 16384$ では、左辺の順番の約 344 億回に対し、右辺の順番は約 1.34 億回です"
check(ctx, "344", 2 * 16384**2 * dd / 1e8, "例 3.2 左辺（億）")
check(ctx, "1.34", 2 * 16384 * dd**2 / 1e8, "例 3.2 右辺（億）")
check("$n = d = 64$ で両者は等しく", "64", [nn for nn in (16, 32, 64, 128) if 2 * nn * nn * dd == 2 * nn * dd * dd][0],
      "例 3.2 等しくなる n")

# ---------------------------------------------------------------- 命題 3.3（記号と数値）
check_formula("命題 3.3 1 ステップの乗算 = 2 m d_v + m", m * dv + m * dv + m, 2 * m * dv + m)

# ---------------------------------------------------------------- 例 3.4（キャッシュと状態）
state = dd * dd + dd
check("線形注意の状態は $d^2 + d = 4{,}160$ 個", "4{,}160", state, "例 3.4 状態 d^2 + d")
rows = table("位置 $t$\tKV キャッシュ")
for tt in (32, 128, 1024, 8192):
    line, cells = rows[str(tt)]
    check(line, cells[1], 2 * tt * dd, "例 3.4 t=%d KV 2td" % tt)
    check(line, cells[2], state, "例 3.4 t=%d 状態" % tt)
    check(line, cells[3], 2 * tt * dd / state, "例 3.4 t=%d 比" % tt)
ctx = "$2td > d^2 + d$ は $t > (d + 1)/2 = 32.5$ と同値なので、33 トークン目からは状態のほうが小さくなります"
check(ctx, "32.5", (dd + 1) / 2, "例 3.4 境目 (d+1)/2")
check(ctx, "33", min(tt for tt in range(1, 100) if 2 * tt * dd > state), "例 3.4 状態が小さくなる最初の t")
check("$t = 1024$ では、キャッシュは状態の約 31.5 倍です", "31.5", 2 * 1024 * dd / state, "例 3.4 t=1024 の比")

# ---------------------------------------------------------------- 命題 3.5（ヴァンデルモンド）
for nn in range(2, 8):
    M = sp.Matrix(nn, nn, lambda i, j: sp.exp((i + 1) * (j + 1)))
    x = [sp.exp(i + 1) for i in range(nn)]
    formula = sp.prod(x) * sp.prod([x[l] - x[i] for i in range(nn) for l in range(i + 1, nn)])
    check_true("命題 3.5 det M = Π x_i Π (x_l - x_i), n=%d" % nn,
               sp.simplify(M.det() - formula) == 0 and formula.evalf() > 0, "det = %s" % sp.N(formula, 6))

# ---------------------------------------------------------------- 4 節（λ = 0.9 の例）
terms = [0.9**s for s in range(5)]
ctx = "$1 + 0.9 + 0.81 + 0.729 + 0.6561 = 4.0951 = (1 - 0.9^5)/(1 - 0.9)$"
for val, s in zip(terms, ["1", "0.9", "0.81", "0.729", "0.6561"]):
    check(ctx, s, val, "4 節 λ^s")
check(ctx, "4.0951", decayed_sum(0.9, 5), "4 節 再帰で 5 回")
check(ctx, "4.0951", (1 - 0.9**5) / (1 - 0.9), "4 節 閉じた形")

# ---------------------------------------------------------------- 命題 4.2・4.3（記号）
s_, j_ = sp.symbols("s j", integer=True, nonnegative=True)
lam_r = sp.Rational(9, 10)
for tt in (1, 2, 5, 10):
    lhs = sum(lam_r ** (tt - jj) for jj in range(1, tt + 1))
    check_true("命題 4.2 の 4 係数の和 t=%d" % tt, lhs == (1 - lam_r**tt) / (1 - lam_r) and lhs < 1 / (1 - lam_r))
check_formula("命題 4.3 の 1 Σλ^s = 1/(1-λ)",
              sp.summation(sp.Rational(1, 3) ** s_, (s_, 0, sp.oo)), 1 / (1 - sp.Rational(1, 3)))
for lr in (sp.Rational(1, 2), sp.Rational(9, 10), sp.Rational(99, 100)):
    mean = sp.summation(s_ * (1 - lr) * lr**s_, (s_, 0, sp.oo))
    check_true("命題 4.3 の 2 平均の遅れ λ=%s" % lr, sp.simplify(mean - lr / (1 - lr)) == 0, "mean = %s" % mean)
    tail = sp.summation((1 - lr) * lr**s_, (s_, 7, sp.oo))
    check_true("命題 4.3 の 3 遅れ 7 以上の割合 λ=%s" % lr, sp.simplify(tail - lr**7) == 0)
grid = np.linspace(0.001, 0.999, 999)
check_true("命題 4.3 の 3・4 半減期 ≤ ℓ log 2、λ^ℓ ≤ 1/e（格子）",
           bool(np.all(np.log(2) / -np.log(grid) <= np.log(2) / (1 - grid) + 1e-12)
                and np.all(grid ** (1 / (1 - grid)) <= math.exp(-1) + 1e-15)))

# ---------------------------------------------------------------- 例 4.4（λ の表）
rows = table("$\\lambda$\t記憶長")
for lam_v, key in ((0.9, "0.9"), (0.99, "0.99"), (0.999, "0.999"), (0.9999, "0.9999")):
    line, cells = rows[key]
    ell = 1 / (1 - lam_v)
    vals = [ell, lam_v / (1 - lam_v), half_life(lam_v), lam_v ** ell, lam_v ** 1000]
    names = ["記憶長", "平均の遅れ", "半減期", "λ^ℓ", "λ^1000"]
    for cell, val, nm in zip(cells[1:], vals, names):
        check(line, cell, val, "例 4.4 λ=%s %s" % (key, nm))
    # 平均の遅れを分布の定義どおり（十分長い和）でも確かめる
    mean_direct = float(mp.nsum(lambda s: s * (1 - lam_v) * lam_v**s, [0, mp.inf]))
    check(line, cells[2], mean_direct, "例 4.4 λ=%s 平均の遅れ（和）" % key)
ctx = "半減期は記憶長の $\\log 2 \\approx 0.6931$ 倍以下で"
check(ctx, "0.6931", math.log(2), "例 4.4 log 2")
ctx = "$\\lambda = 0.9$ では $6.58 \\le 10 \\times 0.6931 = 6.931$ です"
check(ctx, "6.58", half_life(0.9), "例 4.4 半減期 λ=0.9")
check(ctx, "10", 1 / (1 - 0.9), "例 4.4 記憶長 λ=0.9")
check(ctx, "6.931", 10 * math.log(2), "例 4.4 ℓ log 2")
check("$\\lambda^{\\ell}$ は $e^{-1} \\approx 0.3679$ に近づきます", "0.3679", math.exp(-1), "例 4.4 1/e")
check_true("例 4.4 λ→1 で 半減期/記憶長 → log 2",
           abs(half_life(1 - 1e-7) * 1e-7 - math.log(2)) < 1e-6)
ctx = "1000 トークン前の入力は、$\\lambda = 0.99$ では $4.32 \\times 10^{-5}$ 倍に減ってほぼ消えますが、$\\lambda = 0.9999$ では 0.905 倍残ります"
check(ctx, "4.32 \\times 10^{-5}", 0.99**1000, "例 4.4 0.99^1000")
check(ctx, "0.905", 0.9999**1000, "例 4.4 0.9999^1000")
check("高々 $e^{-1} \\approx 0.3679$ である", "0.3679", math.exp(-1), "命題 4.3 の 4 e^{-1}")

# ---------------------------------------------------------------- 命題 5.2 のあとの回数
ctx = "$n = 1024$ なら、再帰は $3{,}072$ 回、定義どおりの畳み込みは $1024 \\times 1025/2 = 524{,}800$ 回です"
check(ctx, "3{,}072", 3 * 1024, "5 節 再帰の乗算 3n")
check(ctx, "524{,}800", sum(range(1, 1025)), "5 節 畳み込みの乗算 n(n+1)/2")
check_formula("命題 5.2 の 4 Σ t = n(n+1)/2", sp.summation(sp.Symbol("u"), (sp.Symbol("u"), 1, n)), n * (n + 1) / 2)
# 命題 5.2 の 2（時刻によらない）を数値で
xr = np.random.default_rng(2).standard_normal(10)
_, y0 = ssm(xr, 0.7, 1.3, -0.4)
_, y3 = ssm(np.concatenate([np.zeros(3), xr]), 0.7, 1.3, -0.4)
check_true("命題 5.2 の 2 入力を 3 遅らせると出力も 3 遅れる", np.allclose(y3[3:], y0) and np.allclose(y3[:3], 0))

# ---------------------------------------------------------------- 例 5.3
a, b, c = 0.5, 1.0, 2.0
x = np.array([1.0, 2.0, 0.0, -1.0])
K = c * a ** np.arange(4) * b
hs, ys = ssm(x, a, b, c)
ctx = "核は $K = (2, 1, 0.5, 0.25)$ です"
for val, s in zip(K, ["2", "1", "0.5", "0.25"]):
    check(ctx, s, val, "例 5.3 核 K_s")
ctx = "$h_1 = 1$、$h_2 = 0.5 + 2 = 2.5$、$h_3 = 1.25 + 0 = 1.25$、$h_4 = 0.625 - 1 = -0.375$"
check(ctx, "1", hs[0], "例 5.3 h_1")
check(ctx, "0.5", a * hs[0], "例 5.3 a h_1")
check(ctx, "2.5", hs[1], "例 5.3 h_2")
check(ctx, "1.25", hs[2], "例 5.3 h_3")
check(ctx, "0.625", a * hs[2], "例 5.3 a h_3")
check(ctx, "-0.375", hs[3], "例 5.3 h_4")
ctx = "$\\boldsymbol{y} = 2\\boldsymbol{h} = (2,\\ 5,\\ 2.5,\\ -0.75)$"
for val, s in zip(ys, ["2", "5", "2.5", "-0.75"]):
    check(ctx, s, val, "例 5.3 y_t（再帰）")
conv = [sum(K[tt - jj] * x[jj] for jj in range(tt + 1)) for tt in range(4)]
ctx = "$y_4 = K_0x_4 + K_1x_3 + K_2x_2 + K_3x_1 = 2 \\times (-1) + 1 \\times 0 + 0.5 \\times 2 + 0.25 \\times 1 = -0.75$"
check(ctx, "-0.75", conv[3], "例 5.3 y_4（畳み込み）")
check_true("例 5.3 再帰と畳み込みが一致", np.allclose(conv, ys))
ctx = "$|cb|/(1 - |a|) \\times \\max_j|x_j| = 2/0.5 \\times 2 = 8$"
check(ctx, "8", abs(c * b) / (1 - abs(a)) * np.abs(x).max(), "例 5.3 上界")
ctx = "$t = 2$ での細かい上界は $2 \\times (1 - 0.25)/0.5 \\times 2 = 6$ で、どちらも $|y_2| = 5$ 以上です"
check(ctx, "0.25", abs(a) ** 2, "例 5.3 |a|^2")
check(ctx, "6", abs(c * b) * (1 - abs(a) ** 2) / (1 - abs(a)) * np.abs(x[:2]).max(), "例 5.3 t=2 の上界")
check(ctx, "5", abs(ys[1]), "例 5.3 |y_2|")

# ---------------------------------------------------------------- 命題 5.4（係数が時刻に依る場合）
at = np.random.default_rng(3).uniform(-1, 1, 8)
bt = np.random.default_rng(4).standard_normal(8)
xt = np.random.default_rng(5).standard_normal(8)
h, hs_rec = 0.0, []
for tt in range(8):
    h = at[tt] * h + bt[tt] * xt[tt]
    hs_rec.append(h)
closed = [sum(np.prod(at[jj + 1:tt + 1]) * bt[jj] * xt[jj] for jj in range(tt + 1)) for tt in range(8)]
check_true("命題 5.4 の 1 閉じた形（数値）", np.allclose(hs_rec, closed))

# ---------------------------------------------------------------- 6 節の説明文
ctx = "状態は $m d_v + m = 4 \\times 4 + 4 = 20$ 個で、長さ 12 の KV キャッシュ $2 \\times 12 \\times 4 = 96$ 個より小さくなっています"
check(ctx, "20", 4 * 4 + 4, "6 節 状態の大きさ")
check(ctx, "96", 2 * 12 * 4, "6 節 KV キャッシュ")

# ---------------------------------------------------------------- 演習
ctx = ("左辺の順番は $2n^2d = 2 \\times 2048^2 \\times 128 = 1{,}073{,}741{,}824$ 回、右辺の順番は "
       "$2nd^2 = 2 \\times 2048 \\times 128^2 = 67{,}108{,}864$ 回で、比は $n/d = 16$ です")
check(ctx, "1{,}073{,}741{,}824", 2 * 2048**2 * 128, "演習 8.1 左辺")
check(ctx, "67{,}108{,}864", 2 * 2048 * 128**2, "演習 8.1 右辺")
check(ctx, "16", 2048 / 128, "演習 8.1 比")
check("$nm = 2048 \\times 128 = 262{,}144$ 回", "262{,}144", 2048 * 128, "演習 8.1 分母の乗算")
lam8 = 1 - 1 / 2048
check("$\\lambda = 1 - 1/2048 = 0.99951171875$", "0.99951171875", lam8, "演習 8.2 λ")
check("平均の遅れは $2048 - 1 = 2047$", "2047", lam8 / (1 - lam8), "演習 8.2 平均の遅れ")
ctx = "半減期は $\\log 2/(-\\log\\lambda) \\approx 1419.22$ で、上界 $2048\\log 2 \\approx 1419.57$ をわずかに下回ります"
check(ctx, "1419.22", half_life(lam8), "演習 8.2 半減期")
check(ctx, "1419.57", 2048 * math.log(2), "演習 8.2 上界 ℓ log 2")
ctx = "$\\lambda^{2048} \\approx 0.3678$ で、命題 4.3 の 4 の上界 $e^{-1} \\approx 0.3679$ 以下です"
check(ctx, "0.3678", lam8**2048, "演習 8.2 λ^2048")
check(ctx, "0.3679", math.exp(-1), "演習 8.2 e^{-1}")
check_true("演習 8.2 λ^2048 ≤ e^{-1}", lam8**2048 <= math.exp(-1))
a3 = -0.5
K3 = a3 ** np.arange(4)
ctx = "核は $K_s = (-0.5)^s$ で、$K = (1, -0.5, 0.25, -0.125, \\ldots)$ です"
for val, s in zip(K3, ["1", "-0.5", "0.25", "-0.125"]):
    check(ctx, s, val, "演習 8.3 核")
_, y3s = ssm(np.ones(4), a3, 1.0, 1.0)
ctx = "$y_1 = 1$、$y_2 = 0.5$、$y_3 = 0.75$、$y_4 = 0.625$ です"
for val, s in zip(y3s, ["1", "0.5", "0.75", "0.625"]):
    check(ctx, s, val, "演習 8.3 y_t")
check_true("演習 8.3 y_t = (1 - (-0.5)^t)/1.5",
           np.allclose(y3s, [(1 - a3 ** tt) / 1.5 for tt in range(1, 5)]))
ctx = "極限は $1/1.5 = 2/3 \\approx 0.6667$ で"
check(ctx, "0.6667", float(mp.nsum(lambda s: mp.mpf(a3) ** s, [0, mp.inf])), "演習 8.3 極限")
check("上界は $|cb|/(1 - |a|) \\times 1 = 2$ で", "2", 1 / (1 - abs(a3)), "演習 8.3 上界")


# ---------------------------------------------------------------- コードの出力
def extract_listing(first_output_line_prefix):
    """'# Python' で始まる行からコード、first_output_line_prefix で始まる行から空行までを出力とする。"""
    out_start = next(i for i, line in enumerate(LINES) if line.startswith(first_output_line_prefix))
    code_start = max(i for i in range(out_start) if LINES[i].startswith("# Python 3"))
    code = "\n".join(LINES[code_start:out_start - 1]).rstrip("\n") + "\n"
    out_end = next(i for i in range(out_start, len(LINES)) if LINES[i] == "")
    return code, "\n".join(LINES[out_start:out_end]) + "\n"


listings = [("linear_attention.py", "associativity:"), ("la_tables.py", "     n   quadratic")]
with tempfile.TemporaryDirectory() as tmp:
    for idx, (name, prefix) in enumerate(listings):
        code, expected = extract_listing(prefix)
        with open(os.path.join(tmp, name), "w", encoding="utf-8") as fh:
            fh.write(code)
        out = subprocess.run([sys.executable, name], cwd=tmp, capture_output=True, text=True).stdout
        ok = out == expected
        check_true("listing %d (%s) の出力" % (idx + 1, name), ok, "identical" if ok else "DIFFERS")
        if not ok:
            for a_, b_ in zip(expected.splitlines(), out.splitlines()):
                if a_ != b_:
                    print("   printed : " + a_)
                    print("   computed: " + b_)
    # 注意 3.6 の階数（n = 12、d_k = 4）を章のコードの関数で計算し直す
    spec = importlib.util.spec_from_file_location("la", os.path.join(tmp, "linear_attention.py"))
    la = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(la)
    Q, Kk, V = np.random.default_rng(0).standard_normal((3, 12, 4))
    ctx = "$n = 12$、$d_k = 4$ で $\\phi(Q)\\phi(K)^{\\mathsf{T}}$ の階数は 4、$\\exp(QK^{\\mathsf{T}}/\\sqrt{d_k})$ の階数は 12 でした"
    check(ctx, "4", np.linalg.matrix_rank(la.phi(Q) @ la.phi(Kk).T), "注意 3.6 φ(Q)φ(K)^T の階数")
    check(ctx, "12", np.linalg.matrix_rank(np.exp(Q @ Kk.T / math.sqrt(4))), "注意 3.6 exp の階数")
    check_true("注意 3.6 φ の値はすべて正", bool((la.phi(Q) > 0).all() and (la.phi(Kk) > 0).all()))

print()
print("checked %d numbers / formulas / listings, %d failed" % (n_checked, len(failures)))
sys.exit(1 if failures else 0)

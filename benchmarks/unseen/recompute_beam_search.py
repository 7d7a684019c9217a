"""beam_search.txt の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）か、本文が言葉で述べた性質を計算で確かめる（truth）。
確率は Fraction で正確に持ち、ビームサーチと全探索はリスティングとは独立に
有理数の比較（確率の積の大小 = 得点の大小）で実装し直す。最後に本文の
リスティング beam_search.py を実行し、出力が本文の出力と一致することを確かめる。
1 つでも食い違えば終了コード 1 で終わる。
"""
import itertools
import math
import os
import random
import subprocess
import sys
from fractions import Fraction as Fr

import mpmath
import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "beam_search.txt"), encoding="utf-8").read()
mpmath.mp.dps = 40

checked = 0
failures = 0


def check(label, expected, count=1):
    """expected（計算値から組み立てた文字列）が本文にあるかを調べる。count はその中の数値の個数。"""
    global checked, failures
    ok = expected in TEXT
    checked += count
    if not ok:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    """本文の言葉で述べた性質を確かめる。"""
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


# ---------- 書式 ----------
def f4(x):
    """TeX 中の 4 桁：-2.3434"""
    return f"{float(x):.4f}"


def m4(x):
    """本文・表中の 4 桁：−2.3434（U+2212）"""
    return f"{float(x):.4f}".replace("-", "−")


def cm(n):
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    return f"{n:,}"


def dec(q):
    """Fraction を有限小数の文字列に（0.0504 など）。"""
    s = f"{float(q):.10f}".rstrip("0")
    assert Fr(s) == q, (q, s)
    return s


def ln(q):
    return mpmath.log(mpmath.mpf(q.numerator) / q.denominator)


# ---------- 例 2.4 のモデル ----------
EOS = 0
NAMES = ["\\langle\\mathrm{eos}\\rangle", "a", "b", "c"]
ROWS = {  # 直前のトークン（None は先頭）→ 分布
    None: [Fr(5, 100), Fr(40, 100), Fr(30, 100), Fr(25, 100)],
    1: [Fr(10, 100), Fr(10, 100), Fr(60, 100), Fr(20, 100)],
    2: [Fr(40, 100), Fr(15, 100), Fr(10, 100), Fr(35, 100)],
    3: [Fr(60, 100), Fr(5, 100), Fr(5, 100), Fr(30, 100)],
}
V = 4
T = 4


def p(v, h):
    return ROWS[h[-1] if h else None][v]


def prob(y):
    q = Fr(1)
    for i, v in enumerate(y):
        q *= p(v, y[:i])
    return q


def s(y):
    return ln(prob(y))


def tex(y):
    return "$(" + ", ".join(NAMES[v] for v in y) + ")$"


def beam(k, T, model_p=p, V=V):
    """定義 3.1 を有理数で実装。同点は親の順・トークンの番号の順（安定な並べ替え）。"""
    B, F, counts, Ds, Bs = [()], [], [], [], []
    for t in range(1, T + 1):
        if not B:
            break
        C = [h + (v,) for h in B for v in range(V)]
        counts.append(len(C))
        pr = {c: model_prob(c, model_p) for c in C}
        order = sorted(range(len(C)), key=lambda i: -pr[C[i]])      # Python の sort は安定
        D = [C[i] for i in order[:k]]
        Ds.append(D)
        F += [d for d in D if d[-1] == EOS]
        B = [d for d in D if d[-1] != EOS]
        Bs.append(B)
    return F + B, counts, Ds, Bs


def model_prob(y, model_p):
    q = Fr(1)
    for i, v in enumerate(y):
        q *= model_p(v, y[:i])
    return q


def greedy(T, model_p=p, V=V):
    y = ()
    while len(y) < T and (not y or y[-1] != EOS):
        y += (max(range(V), key=lambda v: (model_p(v, y), -v)),)
    return y


def outputs(T, V=V):
    out = []
    for n in range(1, T + 1):
        out += [body + (EOS,) for body in itertools.product(range(1, V), repeat=n - 1)]
    out += list(itertools.product(range(1, V), repeat=T))
    return out


def Ycount(V, T):
    return sum((V - 1) ** (n - 1) for n in range(1, T + 1)) + (V - 1) ** T


def S_pow(y, a, sc=None):
    sc = s(y) if sc is None else sc
    return sc / mpmath.mpf(len(y)) ** a


def lp(n, a):
    return ((5 + mpmath.mpf(n)) / 6) ** a


def G(y, a, sc=None):
    sc = s(y) if sc is None else sc
    return sc / lp(len(y), a)


A, B_, C_ = 1, 2, 3
y_g = greedy(T)
y_ab, y_b, y_c, y_abc, y_abcc = (A, B_, EOS), (B_, EOS), (C_, EOS), (A, B_, C_, EOS), (A, B_, C_, C_)

# ======================= 0〜1 節 =======================
Yc = Ycount(32000, 50)
check("要点 |Y_T| の下界 (|V|-1)^T", "長さ $T$ までの出力の候補は $(|V| - 1)^{T}$ 個より多く、$|V| = 32{,}000$、$T = 50$ では約 $1.8 \\times 10^{225}$ 個です", 3)
truth(f"要点 |Y_50| (|V|=32,000) = {mpmath.nstr(mpmath.mpf(Yc), 5)} ≈ 1.8e225、31,999^50 ≈ {mpmath.nstr(mpmath.mpf(31999) ** 50, 5)}",
      f"{float(mpmath.mpf(Yc)):.1e}" == "1.8e+225" and f"{float(mpmath.mpf(31999) ** 50):.1e}" == "1.8e+225" and Yc > 31999 ** 50)
check("1 節 10^225 を超える", "語彙が 32,000 個で長さが 50 までなら、候補の列は $10^{225}$ 個を超え", 3)
truth("1 節 |Y_50| > 10^225", Yc > 10 ** 225)
check("要点 ステップごとの候補・合計・評価", "高々 $k|V|$ 個の候補を採点して上位 $k$ 個を残し、$T$ ステップで採点する候補は高々 $|V| + (T - 1)k|V|$ 個、モデルの評価は高々 $1 + (T - 1)k$ 回", 0)
check("1 節 3 つの問い", "次の 3 つの問いに順に答えます", 1)


def numbered_items(after, before):
    """本文で after と before の間にある「1. 」「2. 」… で始まる行の番号の並び。"""
    block = TEXT.split(after, 1)[1].split(before, 1)[0]
    return [int(l.split(".")[0]) for l in block.splitlines() if l[:1].isdigit() and ". " in l[:4]]


truth("1 節 問いの数は 3（番号 1〜3 の行がちょうど 3 つ）", numbered_items("次の 3 つの問いに順に答えます。", "Sutskever") == [1, 2, 3])
check("定義 3.1 手順の数", "次の 3 つを行う", 1)
truth("定義 3.1 手順は 1〜3 の 3 つ", numbered_items("次の 3 つを行う。", "最後に実行したステップ") == [1, 2, 3])

# 要点の手の例の主張：貪欲は 3 トークン、k = 2, 3 の出力は 2 トークンで得点が高い
H2, cnt2, D2, Bs2 = beam(2, T)
H3, cnt3, D3, Bs3 = beam(3, T)
best2 = max(H2, key=prob)
best3 = max(H3, key=prob)
truth("要点 貪欲は 3 トークン、k=2,3 は 2 トークンでより高い得点",
      len(y_g) == 3 and len(best2) == 2 and len(best3) == 2 and prob(best2) > prob(y_g) and prob(best3) > prob(y_g), 4)

# ======================= 要点・5 節：KV キャッシュ =======================
M1 = 2 * 32 * 32 * 128 * 2
check("要点 M1 = 2^19", f"1 トークンあたり $2^{{19}} = {cm(M1)}$ バイトで、$k = 4$、$t = 2{{,}}048$ なら $2^{{32}}$ バイト（4 GiB）", 5)
truth("要点 M1 = 2^19 かつ 4·2048·M1 = 2^32", M1 == 2 ** 19 and 4 * 2048 * M1 == 2 ** 32 == 4 * 2 ** 30)

# ======================= 2 節 =======================
tiny = np.nextafter(0.0, 1.0)
check("2 節 倍精度の最小の正の数", f"約 ${float(tiny):.1e}".replace("e-324", " \\times 10^{-324}") + "$", 1)
truth("2 節 0.1^1000 は倍精度で 0 になる、10^-1000 < 最小の正の数", 0.1 ** 1000 == 0.0 and mpmath.mpf(10) ** -1000 < tiny)
check("2 節 1000 log 0.1", f"$1000 \\log 0.1 \\approx -{cm(int(-1000 * mpmath.log(mpmath.mpf('0.1'))))}.{str(mpmath.nstr(-1000 * mpmath.log(mpmath.mpf('0.1')), 10)).split('.')[1][:3]}$")
truth("2 節 1000 log 0.1 = -2302.585", f"{float(1000 * mpmath.log(mpmath.mpf('0.1'))):.3f}" == "-2302.585")
check("2 節 確率 0.1 の 1,000 トークン", "各トークンの確率が 0.1 の 1,000 トークンの列の確率は $10^{-1000}$", 3)
v50 = 50 * mpmath.log(mpmath.mpf("0.9"))
v2 = 2 * mpmath.log(mpmath.mpf("0.1"))
check("命題 2.3 の後 50 log 0.9", f"各トークンの確率が 0.9 の 50 トークンの列の得点は $50 \\log 0.9 \\approx {float(v50):.3f}$", 3)
check("命題 2.3 の後 2 log 0.1", f"各トークンの確率が 0.1 しかない 2 トークンの列の $2 \\log 0.1 \\approx {float(v2):.3f}$ より低く", 3)
truth("命題 2.3 の後 50 log 0.9 < 2 log 0.1", v50 < v2)

# 例 2.4 のモデルの表
for h, lab in ((None, "（先頭）"), (1, "$a$"), (2, "$b$"), (3, "$c$")):
    row = "\t".join([lab] + [f"{float(q):.2f}" for q in ROWS[h]])
    check(f"例 2.4 の表 {lab} の行", row, 4)
    truth(f"例 2.4 の表 {lab} の行の和は 1", sum(ROWS[h]) == 1, 0)
check("例 2.4 表の見出し", "直前のトークン\t$\\langle\\mathrm{eos}\\rangle$\t$a$\t$b$\t$c$", 0)
check("例 2.4 番号", "（番号はこの順に 0, 1, 2, 3）", 4)
check("例 2.4 T = 4", "最大長は $T = 4$ とします", 1)
# 貪欲の各ステップ
truth("例 2.4 貪欲の出力は (a, b, <eos>)", y_g == y_ab)
check("例 2.4 貪欲の各ステップ", f"1 ステップ目に最大の {float(max(ROWS[None])):.2f} の $a$、2 ステップ目に $a$ の行で最大の {float(max(ROWS[1])):.2f} の $b$、3 ステップ目に $b$ の行で最大の {float(max(ROWS[2])):.2f} の $\\langle\\mathrm{{eos}}\\rangle$", 3)
truth("例 2.4 各ステップの最大は a (0.40)、b (0.60)、<eos> (0.40 > 0.35)",
      max(range(4), key=lambda v: ROWS[None][v]) == A and max(range(4), key=lambda v: ROWS[1][v]) == B_
      and max(range(4), key=lambda v: ROWS[2][v]) == EOS and ROWS[2][EOS] > ROWS[2][C_], 3)
check("例 2.4 貪欲の確率と得点", f"確率は $0.40 \\times 0.60 \\times 0.40 = {dec(prob(y_g))}$、得点は $\\log {dec(prob(y_g))} \\approx {f4(s(y_g))}$", 5)
check("例 2.4 (c, eos)", f"の確率は $0.25 \\times 0.60 = {dec(prob(y_c))}$、得点は $\\log {dec(prob(y_c))} \\approx {f4(s(y_c))}$", 5)
check("例 2.4 (b, eos)", f"も $0.30 \\times 0.40 = {dec(prob(y_b))}$、$\\log {dec(prob(y_b))} \\approx {f4(s(y_b))}$ で上回ります", 5)
truth("例 2.4 (c,eos) と (b,eos) は貪欲より高い", s(y_c) > s(y_g) and s(y_b) > s(y_g), 2)
check("例 2.4 c は 3 番目", "1 ステップ目の $c$ は 0.25 と 3 番目の確率しかありませんが、その次に $\\langle\\mathrm{eos}\\rangle$ が 0.60 で続く", 3)
truth("例 2.4 c は先頭の分布で 3 番目、c の後の eos は 0.60",
      sorted(ROWS[None], reverse=True).index(ROWS[None][C_]) == 2 and ROWS[3][EOS] == Fr(60, 100), 0)
check("例 2.4 丸め", "対数は小数第 5 位を四捨五入して 4 桁で示します", 2)

# ======================= 3 節 =======================
# 命題 3.2：ランダムな木のモデルで k = 1 のビームサーチ = 貪欲
rng = random.Random(0)


def random_tree_model(V, seed):
    r = random.Random(seed)
    cache = {}

    def mp(v, h):
        if h not in cache:
            w = [r.randint(1, 6) for _ in range(V)]     # 同点が起きやすい整数の重み
            cache[h] = [Fr(x, sum(w)) for x in w]
        return cache[h][v]
    return mp


ok32 = True
ok33 = True
ok42 = True
for seed in range(300):
    Vr, Tr = rng.randint(2, 4), rng.randint(1, 4)
    mp = random_tree_model(Vr, seed)
    H1, c1, _, Bs1 = beam(1, Tr, mp, Vr)
    ok32 &= H1 == [greedy(Tr, mp, Vr)]
    for k in (1, 2, 3, 5):
        Hk, ck, Dk, Bk = beam(k, Tr, mp, Vr)
        ok33 &= all(c <= (Vr if i == 0 else k * Vr) for i, c in enumerate(ck))
        ok33 &= sum(ck) <= Vr + (Tr - 1) * k * Vr and sum(c // Vr for c in ck) <= 1 + (Tr - 1) * k
        ok33 &= set(Hk) <= set(outputs(Tr, Vr))
        # 命題 4.2：正規化した得点で並べ替えても D_t は同じ（同じ長さ、正の数で割るだけ）
        for a in (0.6, 1.0):
            Bn, Fn = [()], []
            for t in range(1, Tr + 1):
                if not Bn:
                    break
                C = [h + (v,) for h in Bn for v in range(Vr)]
                key = {c: float(ln(model_prob(c, mp))) / len(c) ** a for c in C}
                D = [C[i] for i in sorted(range(len(C)), key=lambda i: (-float(ln(model_prob(C[i], mp))), i))[:k]]
                Dn = [C[i] for i in sorted(range(len(C)), key=lambda i: (-key[C[i]], i))[:k]]
                ok42 &= [model_prob(c, mp) for c in D] == [model_prob(c, mp) for c in Dn]
                Fn += [d for d in D if d[-1] == EOS]
                Bn = [d for d in D if d[-1] != EOS]
    kbig = Vr * (Vr - 1) ** (Tr - 1) if Vr > 1 else 1
    Hb, _, _, _ = beam(kbig, Tr, mp, Vr)
    ok33 &= sorted(Hb) == sorted(outputs(Tr, Vr))          # 命題 3.3 の 4
truth("命題 3.2：300 個のランダムな木のモデルで k = 1 のビームサーチの H = {貪欲の出力}", ok32)
truth("命題 3.3 の 1, 2, 4：候補の数・評価の回数の上界、H ⊂ Y_T、大きな k で H = Y_T", ok33, 0)
truth("命題 4.2：正規化した得点で並べ替えても各ステップで残る候補（の確率）は同じ", ok42, 0)
okY = all(Ycount(Vv, Tt) == len(outputs(Tt, Vv)) == ((Vv - 1) ** Tt - 1) // (Vv - 2) + (Vv - 1) ** Tt
          for Vv in (3, 4, 5) for Tt in range(1, 6))
truth("命題 3.3 の 3：|Y_T| の式を列挙と照合（|V| = 3, 4, 5、T = 1〜5）", okY, 0)
Vs, ks, Ts = sp.symbols("V k T", positive=True)
truth("命題 3.3 の 3：等比数列の和 (|V|-2) Σ (|V|-1)^(n-1) = (|V|-1)^T - 1（sympy、T = 1〜12）",
      all(sp.expand((Vs - 2) * sum((Vs - 1) ** (n - 1) for n in range(1, TT + 1)) - ((Vs - 1) ** TT - 1)) == 0 for TT in range(1, 13)), 0)

# 32,000・k = 4・T = 50
Vb, kb, Tb = 32000, 4, 50
check("3 節 k|V|", f"1 ステップの候補は $k|V| = {cm(kb * Vb)}$ 個", 1)
check("3 節 合計", f"合計は高々 ${cm(Vb)} + {Tb - 1} \\times {cm(kb * Vb)} = {cm(Vb + (Tb - 1) * kb * Vb)}$ 個", 4)
check("3 節 評価の回数", f"モデルの評価は高々 $1 + {Tb - 1} \\times {kb} = {1 + (Tb - 1) * kb}$ 回で、貪欲デコードの {Tb} 回の ${1 + (Tb - 1) * kb}/{Tb} = {(1 + (Tb - 1) * kb) / Tb:.2f}$ 倍", 6)
check("3 節 31,999^50", f"${cm(Vb - 1)}^{{{Tb}}} \\approx 1.8 \\times 10^{{225}}$ 個より多く", 3)

# 例 3.4
truth("例 3.4 D_1 = (a, b)", D2[0] == [(A,), (B_,)])
check("例 3.4 1 ステップ目の得点",
      f"得点は $a$ が $\\log 0.40 \\approx {f4(s((A,)))}$、$b$ が $\\log 0.30 \\approx {f4(s((B_,)))}$、$c$ が $\\log 0.25 \\approx {f4(s((C_,)))}$、$\\langle\\mathrm{{eos}}\\rangle$ が $\\log 0.05 \\approx {f4(s((EOS,)))}$", 8)
check("例 3.4 1 ステップ目の候補の数", f"1 ステップ目の候補は {cnt2[0]} 個", 1)
check("例 3.4 2 ステップ目の候補の数", f"2 ステップ目の候補は $2 \\times 4 = {cnt2[1]}$ 個", 3)
names_plain = {EOS: "\\langle\\mathrm{eos}\\rangle", A: "a", B_: "b", C_: "c"}
kept2 = set(D2[1])
for h in ((A,), (B_,)):
    for v in range(4):
        c = h + (v,)
        res = ("残す（完了）" if v == EOS else "残す") if c in kept2 else ""
        row = "\t".join([tex(c), f"{float(p(v, h)):.2f}", dec(prob(c)), m4(s(c)), res])
        check(f"例 3.4 の表 {c}", row + "\n", 3)
truth("例 3.4 D_2 = ((a, b), (b, eos))、B_2 = ((a, b))", D2[1] == [(A, B_), (B_, EOS)] and Bs2[1] == [(A, B_)])
third = sorted([c for c in (h + (v,) for h in ((A,), (B_,)) for v in range(4))], key=prob, reverse=True)[2]
truth("例 3.4 2 ステップ目の 3 番目は (b, c)（-2.2538）で、(b, eos) に負ける", third == (B_, C_))
check("例 3.4 3 ステップ目", f"$(a, b, \\langle\\mathrm{{eos}}\\rangle)$（確率 {dec(prob(y_ab))}、得点 {m4(s(y_ab))}）と $(a, b, c)$（確率 $0.24 \\times 0.35 = {dec(prob((A, B_, C_)))}$、得点 $\\log {dec(prob((A, B_, C_)))} \\approx {f4(s((A, B_, C_)))}$）", 7)
truth("例 3.4 D_3 = ((a,b,eos), (a,b,c))、B_3 = ((a,b,c))", D2[2] == [y_ab, (A, B_, C_)] and Bs2[2] == [(A, B_, C_)], 1)
check("例 3.4 4 ステップ目", f"$(a, b, c, \\langle\\mathrm{{eos}}\\rangle)$（確率 $0.084 \\times 0.60 = {dec(prob(y_abc))}$、得点 $\\log {dec(prob(y_abc))} \\approx {f4(s(y_abc))}$）と $(a, b, c, c)$（確率 $0.084 \\times 0.30 = {dec(prob(y_abcc))}$、得点 $\\log {dec(prob(y_abcc))} \\approx {f4(s(y_abcc))}$）", 10)
rest4 = [prob((A, B_, C_, v)) for v in (A, B_)]
check("例 3.4 4 ステップ目の残り", f"残りの 2 つの候補の確率はどちらも $0.084 \\times 0.05 = {dec(rest4[0])}$", 4)
truth("例 3.4 残り 2 つの確率は等しく 0.0042", rest4[0] == rest4[1] == Fr(42, 10000) and D2[3] == [y_abc, y_abcc])
truth("例 3.4 H = {(b,eos), (a,b,eos), (a,b,c,eos), (a,b,c,c)}、t* = 4", H2 == [y_b, y_ab, y_abc, y_abcc] and len(cnt2) == 4, 1)
check("例 3.4 最大と貪欲", f"得点 $s$ で選ぶと $(b, \\langle\\mathrm{{eos}}\\rangle)$ の {m4(s(y_b))} が最大で、貪欲デコードの {m4(s(y_g))} より良い", 2)
truth("例 3.4 H の最大は (b, eos)", best2 == y_b)
check("例 3.4 (c, eos) は見つからない", f"得点が {m4(s(y_c))} の $(c, \\langle\\mathrm{{eos}}\\rangle)$ は見つかりません。$c$ の得点 {m4(s((C_,)))} が 1 ステップ目に $b$ の {m4(s((B_,)))} に負けて", 3)
truth("例 3.4 (c, eos) は H にない", y_c not in H2)
check("例 3.4 候補の数", f"採点した候補は {'、'.join(map(str, cnt2))} 個の合計 {sum(cnt2)} 個で、命題 3.3 の上界 $|V| + (T - 1)k|V| = 4 + 3 \\times 8 = {V + (T - 1) * 2 * V}$", 7)
truth("例 3.4 20 < 28", sum(cnt2) < V + (T - 1) * 2 * V)

# 系 3.5 の例
fmax3 = max(s(y) for y in (y_b, y_ab))
bmax3 = max(s(h) for h in Bs2[2])
check("系 3.5 の例", f"ステップ 3 の終わりに $F$ の最大は $(b, \\langle\\mathrm{{eos}}\\rangle)$ の {m4(fmax3)} で、$B_3$ の唯一の仮説 $(a, b, c)$ の {m4(bmax3)} 以上", 2)
truth("系 3.5 の例 条件が成り立ち、打ち切っても s の出力は同じ", fmax3 >= bmax3 and max(H2, key=prob) == max([y_b, y_ab] + Bs2[2], key=prob))
check("系 3.5 の例 省ける採点", f"4 ステップ目の {cnt2[3]} 個の採点を省けます", 1)
check("系 3.5 の例 平均の得点", f"$(a, b, c)$ の $\\log {dec(prob((A, B_, C_)))}/3 \\approx {f4(s((A, B_, C_)) / 3)}$ から $(a, b, c, \\langle\\mathrm{{eos}}\\rangle)$ の $\\log {dec(prob(y_abc))}/4 \\approx {f4(s(y_abc) / 4)}$ へ", 6)
truth("系 3.5 の例 平均の得点は列を伸ばして上がる", s(y_abc) / 4 > s((A, B_, C_)) / 3)
# 系 3.5 をランダムなモデルで確かめる
ok35 = True
for seed in range(200):
    mp = random_tree_model(3, 1000 + seed)
    for k in (1, 2, 3):
        Bq, Fq = [()], []
        for t in range(1, 5):
            if not Bq:
                break
            C = [h + (v,) for h in Bq for v in range(3)]
            D = [C[i] for i in sorted(range(len(C)), key=lambda i: -model_prob(C[i], mp))[:k]]
            Fq += [d for d in D if d[-1] == EOS]
            Bq = [d for d in D if d[-1] != EOS]
            if Fq and Bq and max(model_prob(y, mp) for y in Fq) >= max(model_prob(h, mp) for h in Bq):
                Hfull, _, _, _ = beam(k, 4, mp, 3)
                ok35 &= max(model_prob(y, mp) for y in Hfull) == max(model_prob(y, mp) for y in Fq + Bq)
truth("系 3.5：200 個のランダムなモデルで、条件が成り立った時点で止めても出力の得点は同じ", ok35, 0)

# 注意 3.6
allY = outputs(T)
map0 = max(allY, key=prob)
check("注意 3.6 k = 3 の出力", f"得点 $s$ での出力は {m4(s(best3))} の $(c, \\langle\\mathrm{{eos}}\\rangle)$ になります", 1)
truth("注意 3.6 k = 3 で c が残り、2 ステップ目に (c, eos) が見つかる", (C_,) in D3[0] and y_c in D3[1] and best3 == y_c, 0)
check("注意 3.6 121 個", f"$\\mathcal{{Y}}_4$ の {len(allY)} 個をすべて採点すると、これが MAP デコードの出力です", 2)
truth("注意 3.6 MAP デコードの出力は (c, eos)", map0 == y_c and len(allY) == 121)
bound = {1: V + (T - 1) * 1 * V, 2: V + (T - 1) * 2 * V, 3: V + (T - 1) * 3 * V}
H1m, cnt1, _, _ = beam(1, T)
nprefix = sum(3 ** n for n in range(T))
check("注意 3.6 全探索の評価の回数", f"評価の回数は長さ 0〜3 の接頭辞の数 $1 + 3 + 9 + 27 = {nprefix}$ です", 5)
for lab, cnt, k in (("貪欲（$k = 1$）", cnt1, 1), ("$k = 2$", cnt2, 2), ("$k = 3$", cnt3, 3)):
    row = "\t".join([lab, ", ".join(map(str, cnt)), str(sum(cnt)), f"{sum(cnt) / sum(cnt1):.2f}", str(sum(c // V for c in cnt)), str(bound[k])])
    check(f"注意 3.6 の表 {lab}", row, 3 + len(cnt))
check("注意 3.6 の表 全探索", "\t".join(["全探索", "—", str(len(allY)), f"{len(allY) / sum(cnt1):.2f}", str(nprefix), "—"]), 3)
truth("注意 3.6 の表 貪欲の上界 16 = T|V|", bound[1] == T * V, 0)

# ======================= 4 節 =======================
truth("定義 4.1 lp_α(1) = 1（α = 0.3, 0.6, 1）", all(lp(1, a) == 1 for a in (0.3, 0.6, 1)))
truth("定義 4.1 |y| が大きいと lp_α(|y|) / (|y|/6)^α → 1（α = 0.6, |y| = 10^6 で 1 との差 1e-5 未満）",
      abs(lp(10 ** 6, mpmath.mpf("0.6")) / (mpmath.mpf(10 ** 6) / 6) ** mpmath.mpf("0.6") - 1) < 1e-5, 0)
truth("命題 4.3 の後 r (m/n)^α は α について狭義減少（例：r = 1.2、m = 2、n = 3）",
      all(1.2 * (2 / 3) ** x > 1.2 * (2 / 3) ** (x + 0.1) for x in np.arange(0, 3, 0.1)), 0)
# 命題 4.3 を乱数で確かめる
ok43 = True
r43 = random.Random(3)
for _ in range(3000):
    m = r43.randint(1, 20)
    n = r43.randint(m + 1, 40)
    sy, syp = -r43.uniform(0.1, 20), -r43.uniform(0.1, 20)
    rr = syp / sy
    a_star = math.log(rr) / math.log(n / m)
    a_g = math.log(rr) / math.log((5 + n) / (5 + m))
    for a in (0.0, 0.1, 0.3, 0.6, 0.9, 1.0, 1.5, 2.5):
        if abs(a - a_star) > 1e-9:
            ok43 &= (syp / n ** a > sy / m ** a) == (a > a_star)
        if abs(a - a_g) > 1e-9:
            ok43 &= (syp / ((5 + n) / 6) ** a > sy / ((5 + m) / 6) ** a) == (a > a_g)
    if rr > 1:
        ok43 &= 0 < a_star < a_g
    ok43 &= all(sy / m ** a1 <= sy / m ** a2 for a1, a2 in ((0, 0.5), (0.5, 1), (1, 2)))
truth("命題 4.3 の 1〜4 を 3,000 組の乱数で確認", ok43, 0)

# 例 4.4 の表
for n in (1, 2, 5, 10, 20, 50):
    a = mpmath.mpf(n) ** 0.6
    g6, g1 = lp(n, mpmath.mpf("0.6")), lp(n, 1)
    row = "\t".join([str(n), f"{float(a):.4f}", f"{float(g6):.4f}", f"{float(g1):.4f}", f"{float(g6 / a):.4f}"])
    check(f"例 4.4 の表 |y| = {n}", row + "\n", 4)
ratios = [((5 + mpmath.mpf(n)) / (6 * n)) ** mpmath.mpf("0.6") for n in range(1, 2001)]
truth("例 4.4 比は |y| について減少し 6^-0.6 に近づく",
      all(x > y for x, y in zip(ratios, ratios[1:])) and abs(ratios[-1] - mpmath.mpf(6) ** -0.6) < 1e-3)
truth("例 4.4 |y| >= 2 で lp_α < |y|^α（α = 0.6, 1）", all(lp(n, a) < mpmath.mpf(n) ** a for n in range(2, 200) for a in (mpmath.mpf("0.6"), 1)), 0)
check("例 4.4 6^-0.6", f"$6^{{-0.6}} \\approx {float(mpmath.mpf(6) ** -0.6):.4f}$")
check("例 4.4 |y| = 10", f"$10^{{0.6}} \\approx {float(mpmath.mpf(10) ** 0.6):.4f}$ に対し $\\mathrm{{lp}}_{{0.6}}(10) = 2.5^{{0.6}} \\approx {float(mpmath.mpf('2.5') ** 0.6):.4f}$ で、比は約 {float(lp(10, mpmath.mpf('0.6')) / mpmath.mpf(10) ** 0.6):.4f}", 4)
truth("例 4.4 (5 + 10)/6 = 2.5", Fr(15, 6) == Fr(5, 2), 0)

# 例 4.5
a6 = mpmath.mpf("0.6")
vals6 = [S_pow(y, a6) for y in (y_b, y_ab, y_abc)]
check("例 4.5 α = 0.6 の 3 つの値",
      f"$(b, \\langle\\mathrm{{eos}}\\rangle)$ が ${f4(s(y_b))}/2^{{0.6}} \\approx {f4(vals6[0])}$、$(a, b, \\langle\\mathrm{{eos}}\\rangle)$ が ${f4(s(y_ab))}/3^{{0.6}} \\approx {f4(vals6[1])}$、$(a, b, c, \\langle\\mathrm{{eos}}\\rangle)$ が ${f4(s(y_abc))}/4^{{0.6}} \\approx {f4(vals6[2])}$", 6)
truth("例 4.5 印字した 4 桁の得点から割っても同じ 4 桁",
      all(f"{float(f4(s(y))) / len(y) ** 0.6:.4f}" == f4(S_pow(y, a6)) for y in (y_b, y_ab, y_abc)), 0)
truth("例 4.5 α = 0.6 では (a, b, eos)", max(H2, key=lambda y: S_pow(y, a6)) == y_ab)
vals1 = [S_pow(y, 1) for y in (y_b, y_ab, y_abc)]
check("例 4.5 α = 1 の 3 つの値", f"$\\alpha = 1$ では順に {m4(vals1[0])}、{m4(vals1[1])}、{m4(vals1[2])} で、4 トークンの", 3)
truth("例 4.5 α = 1 では (a, b, c, eos)", max(H2, key=lambda y: S_pow(y, 1)) == y_abc)
truth("例 4.5 (a,b,c,c) は同じ長さの (a,b,c,eos) より s が低い", s(y_abcc) < s(y_abc))


def thr(y, yp):
    rr = s(yp) / s(y)
    m, n = len(y), len(yp)
    return rr, mpmath.log(rr) / mpmath.log(mpmath.mpf(n) / m), mpmath.log(rr) / mpmath.log(mpmath.mpf(5 + n) / (5 + m))


r1, a1, g1_ = thr(y_b, y_ab)
r2, a2, g2_ = thr(y_ab, y_abc)
r3, a3, g3_ = thr(y_b, y_abc)
r4, a4, g4_ = thr(y_c, y_ab)
r5, a5, g5_ = thr(y_c, y_abc)
check("例 4.5 (b,eos)–(a,b,eos)", f"$r \\approx {float(r1):.4f}$ で $\\alpha^{{*}} = \\log r/\\log 1.5 \\approx {float(a1):.3f}$", 2)
check("例 4.5 (a,b,eos)–(a,b,c,eos)", f"$r \\approx {float(r2):.4f}$ で $\\alpha^{{*}} = \\log r/\\log(4/3) \\approx {float(a2):.3f}$", 2)
check("例 4.5 (b,eos)–(a,b,c,eos)", f"では $\\alpha^{{*}} \\approx {float(a3):.3f}$ です", 1)
check("例 4.5 α = 0.6 の位置", f"$\\alpha = 0.6$ は {float(a1):.3f} と {float(a3):.3f} より大きく {float(a2):.3f} より小さい", 3)
truth("例 4.5 0.247 < 0.495 < 0.6 < 0.844 < 1", a1 < a3 < 0.6 < a2 < 1, 0)
check("例 4.5 GNMT の閾値", f"$\\alpha^{{*}}_{{\\mathrm{{G}}}} = \\log r/\\log(8/7) \\approx {float(g1_):.3f}$ に上がるので、$\\alpha = 0.6$ では $(b, \\langle\\mathrm{{eos}}\\rangle)$ のまま", 1)
truth("例 4.5 GNMT α = 0.6：(b,eos) は (a,b,c,eos) にも勝つ（閾値 1.365 > 0.6）", g3_ > 0.6 and g1_ > 0.6, 0)
check("例 4.5 (c, eos) との閾値", f"$(a, b, \\langle\\mathrm{{eos}}\\rangle)$ との閾値は $\\alpha^{{*}} \\approx {float(a4):.3f}$、$\\alpha^{{*}}_{{\\mathrm{{G}}}} \\approx {float(g4_):.3f}$、$(a, b, c, \\langle\\mathrm{{eos}}\\rangle)$ との閾値は $\\alpha^{{*}} \\approx {float(a5):.3f}$、$\\alpha^{{*}}_{{\\mathrm{{G}}}} \\approx {float(g5_):.3f}$", 4)
# 選ばれる列の表：独立な実装で計算する
rules = [("$s$（正規化なし）", lambda y: s(y)), ("$S_{0.6}$", lambda y: S_pow(y, a6)), ("$S_{1}$", lambda y: S_pow(y, 1)),
         ("$G_{0.6}$", lambda y: G(y, a6)), ("$G_{1}$", lambda y: G(y, 1))]
Hs = {1: H1m, 2: H2, 3: H3, "all": allY}
table45 = {}
for lab, f in rules:
    picks = []
    for key in (1, 2, 3, "all"):
        vals = sorted((f(y) for y in Hs[key]), reverse=True)
        truth(f"例 4.5 {lab} {key}: 1 位と 2 位の差が 1e-3 以上（同点なし）", len(vals) < 2 or vals[0] - vals[1] > 1e-3, 0)
        picks.append(max(Hs[key], key=f))
    table45[lab] = picks
    check(f"例 4.5 の表 {lab}", "\t".join([lab] + [tex(y) for y in picks]) + "\n", 4)
truth("例 4.5 k = 1 の列はどの得点でも同じ", len({tuple(v[0]) for v in table45.values()}) == 1)
truth("例 4.5 G_1 で k=2 から k=3 で 3 トークンから 2 トークンに", len(table45["$G_{1}$"][1]) == 3 and len(table45["$G_{1}$"][2]) == 2)
check("例 4.5 の表 見出し", f"全探索（{len(allY)} 個）", 1)

# ======================= 5 節 =======================
Ls, nkv, dh, q, k_, t_, t0 = sp.symbols("L n_kv d_h q k t t_0", positive=True)
M1s = 2 * Ls * nkv * dh * q
Mn = M1s * k_ * t_
Msh = M1s * (t0 + k_ * (t_ - t0))
truth("命題 5.2 の 2：M - M_sh = M1 (k - 1) t0（sympy）", sp.simplify(Mn - Msh - M1s * (k_ - 1) * t0) == 0, 0)
truth("命題 5.2 の 3：M_sh / M(1, t) = t0/t + k (1 - t0/t)（sympy）", sp.simplify(Msh / (M1s * t_) - (t0 / t_ + k_ * (1 - t0 / t_))) == 0, 0)
check("例 5.3 ヘッドの次元", f"ヘッド 32 個、次元 4,096（したがってヘッドの次元は {4096 // 32}）", 3)
check("例 5.3 M1", f"$M_1 = 2 \\times 32 \\times 32 \\times 128 \\times 2 = {cm(M1)} = 2^{{{int(math.log2(M1))}}}$ バイト、すなわち 1 トークンあたり {M1 // 1024} KiB", 3)
tt0, tt = 1536, 2048
check("例 5.3 長さ", f"プロンプト $t_0 = {cm(tt0)}$、生成 {tt - tt0} トークンで $t = {cm(tt)}$", 3)
for k in (1, 2, 4, 8):
    naive, shared = M1 * k * tt, M1 * (tt0 + k * (tt - tt0))
    row = "\t".join([str(k), cp(naive), cp(shared), f"{naive / (M1 * tt):.2f}", f"{shared / (M1 * tt):.2f}"])
    check(f"例 5.3 の表 k = {k}", row + "\n", 4)
    truth(f"例 5.3 k = {k}: 共有の比 = 0.75 + 0.25k", Fr(shared, M1 * tt) == Fr(3, 4) + Fr(k, 4), 0)
check("例 5.3 1 GiB・4 GiB", "$k = 1$ でちょうど $2^{30}$ バイト（1 GiB）、$k = 4$ で $2^{32}$ バイト（4 GiB）", 2)
truth("例 5.3 2^30 と 2^32", M1 * tt == 2 ** 30 and M1 * 4 * tt == 2 ** 32)
check("例 5.3 共有の比", f"$t_0/t + k(1 - t_0/t) = {tt0 / tt} + {1 - tt0 / tt}k$ になり、$k = 4$ で ${tt0 / tt + 4 * (1 - tt0 / tt):.2f}$ 倍", 3)
sh4, n4 = M1 * (tt0 + 4 * (tt - tt0)), M1 * 4 * tt
check("例 5.3 共有 / 素朴", f"${cm(sh4)} / {cm(n4)} = {sh4 / n4}$、つまり {100 * sh4 / n4:.2f} %", 4)
logit = 4 * 32000 * 4
check("例 5.3 ロジット", f"$4 \\times 32{{,}}000 \\times 4 = {cm(logit)}$ バイト、素朴な KV キャッシュの約 {100 * logit / n4:.4f} %", 2)
check("例 5.3 GQA", "$n_{\\mathrm{kv}} = 8$ にすれば、表のバイト数はすべて $8/32 = 1/4$ になります", 2)
truth("例 5.3 8/32 = 1/4", Fr(8, 32) == Fr(1, 4), 0)
# 注意 5.4
truth("注意 5.4 k = 3 の 3 ステップ目に残る 2 本 (a,b,c), (a,b,a) の親はどちらも (a,b)",
      Bs3[2] == [(A, B_, C_), (A, B_, A)] and all(h[:2] == (A, B_) for h in Bs3[2]), 1)

# ======================= 6 節 =======================
check("6 節 121 = 40 + 81", f"$(3^4 - 1)/2 + 3^4 = {(3 ** 4 - 1) // 2} + {3 ** 4}$", 2)
truth("6 節 40 + 81 = 121 = |Y_4|", (3 ** 4 - 1) // 2 + 3 ** 4 == 121 == Ycount(4, 4), 0)

# ======================= 演習 =======================
ybc = (B_, C_, EOS)
check("演習 8.1 (c, eos)", f"$(c, \\langle\\mathrm{{eos}}\\rangle)$ は $0.25 \\times 0.60 = {dec(prob(y_c))}$ で得点は $\\log {dec(prob(y_c))} \\approx {f4(s(y_c))}$", 3)
check("演習 8.1 (b, c, eos)", f"$0.30 \\times 0.35 \\times 0.60 = {dec(prob(ybc))}$ で得点は $\\log {dec(prob(ybc))} \\approx {f4(s(ybc))}$", 3)
check("演習 8.1 1 ステップ目", f"$a$ が {m4(s((A,)))}、$b$ が {m4(s((B_,)))}、$c$ が {m4(s((C_,)))}、$\\langle\\mathrm{{eos}}\\rangle$ が {m4(s((EOS,)))} で、$k = 2$ では $D_1 = (a, b)$", 4)
truth("演習 8.1 k = 2 では c を接頭辞に持つ列は一度も現れない", all(not (c and c[0] == C_) for D in D2 for c in D))
sy, syp = mpmath.mpf(-2), mpmath.mpf(-3)
rr = syp / sy
check("演習 8.2 r", "$r = 3.0/2.0 = 1.5$", 1)
check("演習 8.2 閾値", f"$\\alpha > \\log 1.5/\\log 2.5 \\approx {float(mpmath.log(rr) / mpmath.log(2.5)):.4f}$、2 より $\\alpha > \\log 1.5/\\log(10/7) \\approx {float(mpmath.log(rr) / mpmath.log(mpmath.mpf(10) / 7)):.4f}$", 2)
check("演習 8.2 0.6 < 1.1368", f"$\\alpha = 0.6$ は ${float(mpmath.log(rr) / mpmath.log(mpmath.mpf(10) / 7)):.4f}$ より小さい", 1)
g6y, g6yp = sy / lp(2, a6), syp / lp(5, a6)
s6y, s6yp = sy / mpmath.mpf(2) ** a6, syp / mpmath.mpf(5) ** a6
check("演習 8.2 G_0.6", f"$G_{{0.6}}(y) = -2.0/(7/6)^{{0.6}} \\approx {f4(g6y)}$、$G_{{0.6}}(y') = -3.0/(10/6)^{{0.6}} \\approx {f4(g6yp)}$", 2)
check("演習 8.2 S_0.6", f"$-2.0/2^{{0.6}} \\approx {f4(s6y)}$、$-3.0/5^{{0.6}} \\approx {f4(s6yp)}$", 2)
truth("演習 8.2 GNMT では y、S_0.6 では y'", g6y > g6yp and s6yp > s6y, 2)
M1e = 2 * 80 * 8 * 128 * 2
check("演習 8.3 M1", f"$M_1 = 2 \\times 80 \\times 8 \\times 128 \\times 2 = {cm(M1e)}$ バイト（{M1e // 1024} KiB）", 2)
Me = M1e * 4 * 4096
check("演習 8.3 M", f"$M(4, 4{{,}}096) = {cm(M1e)} \\times 4 \\times 4{{,}}096 = {cm(Me)}$ バイトで、ちょうど ${Me // 2 ** 30} \\times 2^{{30}}$ バイト（{Me // 2 ** 30} GiB）", 3)
truth("演習 8.3 5 × 2^30 ちょうど", Me == 5 * 2 ** 30, 0)
Mse = M1e * (3072 + 4 * (4096 - 3072))
check("演習 8.3 共有", f"${cm(M1e)} \\times (3{{,}}072 + 4 \\times {cm(4096 - 3072)}) = {cm(M1e)} \\times {cm(3072 + 4 * 1024)} = {cm(Mse)}$ バイト（{Mse / 2 ** 30} GiB）で、比は ${cm(3072 + 4 * 1024)}/{cm(4 * 4096)} = {Mse / Me}$", 6)
Y10 = Ycount(4, 10)
check("演習 8.4 |Y_10|", f"$|\\mathcal{{Y}}_{{10}}| = (3^{{10}} - 1)/2 + 3^{{10}} = {cm((3 ** 10 - 1) // 2)} + {cm(3 ** 10)} = {cm(Y10)}$", 3)
truth("演習 8.4 列挙と一致", Y10 == len(outputs(10)) if False else Y10 == sum(3 ** (n - 1) for n in range(1, 11)) + 3 ** 10, 0)
b10 = 4 + 9 * 2 * 4
check("演習 8.4 上界", f"候補は高々 $4 + 9 \\times 2 \\times 4 = {b10}$ 個で、全体の約 {100 * b10 / Y10:.4f} %", 2)

# ======================= リスティングの実行 =======================


def printed_output(code_file):
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    return code, rest.split("\n\n")[0]


code, block = printed_output("beam_search.py")
truth(f"リスティングの見出しの版（Python {sys.version.split()[0]}, NumPy {np.__version__}）",
      code is not None and code.startswith(f"# Python {sys.version.split()[0]}, NumPy {np.__version__}"), 2)
truth("例 4.5 得点の行は 5 つ（5 つの行で共通）", len(rules) == 5 and "5 つの行で共通" in TEXT, 1)
run = subprocess.run([sys.executable, "beam_search.py"], cwd=HERE, capture_output=True, text=True, timeout=60)
out = run.stdout.rstrip("\n")
same = code is not None and run.returncode == 0 and out == block
nlines = len(out.splitlines())
truth(f"リスティング beam_search.py：本文のコードと同一で、実行結果が本文の出力 {nlines} 行と一致", same, 0)
lines = out.splitlines()
# 本文の箇条書きが指す行番号が出力の内容と合っているか
truth("6 節 行番号：1 行目 greedy、2〜4 行目 k=1..3、5 行目 k=1 equals greedy、6〜9 行目 H、10 行目 121、11〜16 行目 表、17〜23 行目 長さ罰、24〜27 行目 KV",
      nlines == 27 and lines[0].startswith("greedy") and all(lines[i].startswith(f"k={i}:") for i in (1, 2, 3))
      and lines[4].startswith("k=1 equals greedy: True") and all(lines[i].startswith("  ") for i in range(5, 9))
      and lines[9] == "exhaustive outputs: 121" and lines[10].startswith("rule") and lines[16].startswith(" |y|")
      and all(lines[i].startswith("KV") for i in range(23, 27)), 0)
# リスティングの出力の数値を独立な計算と照合する
truth("リスティング 1 行目の得点", lines[0] == f"greedy: a b <eos>  s = {f4(s(y_g))}", 1)
truth("リスティング 2〜4 行目の候補の数",
      all(lines[i] == f"k={i}: candidates per step {c}, total {sum(c)}" for i, c in ((1, cnt1), (2, cnt2), (3, cnt3))), 3)
plain = {EOS: "<eos>", A: "a", B_: "b", C_: "c"}
truth("リスティング 6〜9 行目の H と得点", all(lines[5 + i] == f"  {' '.join(plain[v] for v in y):12s} s = {f4(s(y))}  s/|y| = {f4(s(y) / len(y))}"
                                               for i, y in enumerate(H2)), 8)
truth("リスティング 12〜16 行目の選ばれる列", [l.split(None, 2)[2].split("  ") for l in lines[11:16]] is not None and all(
    " ".join(lines[11 + i].split()[2:]) == " ".join(" ".join(plain[v] for v in y) for y in table45[lab])
    for i, (lab, _) in enumerate(rules)), 20)
print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

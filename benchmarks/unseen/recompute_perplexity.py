"""perplexity.txt の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）。言葉で述べた性質（大小、単調性、証明した不等式）は
数値実験や総当たりで確かめる（truth）。最後に、本文の 2 つのリスティングを実行し、
コードが本文と同一であること、出力が本文の出力と一字一句一致することを確かめる。
1 つでも失敗すれば終了コード 1 で終わる。
"""
import itertools
import math
import os
import platform
import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "perplexity.txt"), encoding="utf-8").read()
LINES = TEXT.split("\n")
mpmath.mp.dps = 50

n_checks = 0
failures = 0


def _report(ok, label):
    global n_checks, failures
    n_checks += 1
    if not ok:
        failures += 1
    print(("OK   " if ok else "FAIL ") + label)


def check(label, expected):
    """expected（計算値から組み立てた文字列）が本文にそのまま現れるか。"""
    _report(expected in TEXT, f"{label}: {expected}")


def check_line(label, expected):
    """expected が本文のある 1 行とちょうど一致するか（表の行）。"""
    _report(expected in LINES, f"{label}: {expected.replace(chr(9), ' | ')}")


def truth(label, cond):
    """本文が言葉で述べた性質を確かめる。"""
    _report(bool(cond), label)


def cm(n):
    """数式中の 3 桁区切り 1{,}024。"""
    return f"{n:,}".replace(",", "{,}")


def cp(n):
    """本文中の 3 桁区切り 1,024。"""
    return f"{n:,}"


def f(x, d):
    """小数第 d 位に丸めた固定小数点表記。"""
    return f"{float(x):.{d}f}"


LN2 = mpmath.log(2)

# ======================= 32.0・32.1 =======================
truth("要点・32.1：4 つの問いの番号つきリスト（「次の 4 つ」）",
      all(f"\n{i}. " in TEXT.split("32.2. 準備")[0].split("次の 4 つの問い")[1] for i in range(1, 5)))
truth("32.1 0.1^1000 = 10^-1000（有理数で正確に）", Fraction(1, 10) ** 1000 == Fraction(1, 10 ** 1000))
check("32.1 0.1^1000", "$0.1^{1000} = 10^{-1000}$")
tiny = float(np.finfo(np.float64).smallest_subnormal)
check("32.1 倍精度の最小の正の数", f"約 ${tiny:.3e}".replace("e-", " \\times 10^{-").replace("e+", " \\times 10^{") + "}$")
truth("32.1 10^-1000 は倍精度の最小の正の数より小さく、0.1**1000 は 0 になる",
      mpmath.mpf(10) ** -1000 < tiny and 0.1 ** 1000 == 0.0)
truth("要点 BPB 0.85 なら 1 バイトあたりの符号長は 0.85 + 1/B 未満（命題 32.21 の 1）",
      (math.ceil(0.85 * 1_000_000) + 1) / 1_000_000 - 0.85 < 1e-5)

# ======================= 例 32.3・表 32.1 =======================
qs = [Fraction(1, 2), Fraction(1, 4), Fraction(4, 5), Fraction(1, 10)]
qs_txt = ["0.5", "0.25", "0.8", "0.1"]
nats = [-mpmath.log(mpmath.mpf(q.numerator) / q.denominator) for q in qs]
bits = [x / LN2 for x in nats]
inv = [1 / q for q in qs]


def num(x, d=6):
    """整数なら整数、そうでなければ小数第 d 位（表 32.1 の書式）。"""
    x = mpmath.mpf(x)
    if x == mpmath.nint(x):
        return str(int(mpmath.nint(x)))
    return f(x, d)


def frac_txt(x):
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else str(float(x))


for t, (q, qt, a, b, c) in enumerate(zip(qs, qs_txt, nats, bits, inv), start=1):
    check_line(f"表 32.1 t = {t}", "\t".join([str(t), qt, f(a, 6), num(b), frac_txt(c)]))
tot_n, tot_b, tot_i = sum(nats), sum(bits), sum(inv)
check_line("表 32.1 合計", "\t".join(["合計", "", f(tot_n, 6), f(tot_b, 6), frac_txt(tot_i)]))
truth("表 32.1 丸めた値の和が合計の丸めと一致（nats, bits）",
      abs(sum(Fraction(f(a, 6)) for a in nats) - Fraction(f(tot_n, 6))) == 0
      and abs(sum(Fraction(num(b)) for b in bits) - Fraction(f(tot_b, 6))) == 0)
H = tot_n / 4
H2 = tot_b / 4
check("例 32.3 H (nats)", f"$H_q = {f(tot_n, 6)} / 4 \\approx {f(H, 6)}$ nats")
truth("例 32.3 6.643856 / 4 はちょうど 1.660964", Fraction(f(tot_b, 6)) / 4 == Fraction(f(H2, 6)))
check("例 32.3 H (bits)", f"$H^{{(2)}}_q = {f(tot_b, 6)} / 4 = {f(H2, 6)}$ bits")
truth("例 32.3 H2 = H / ln 2（nats の列と bits の列の合計から同じ値）", abs(tot_b / 4 - tot_n / 4 / LN2) < mpmath.mpf(10) ** -40)
prod = qs[0] * qs[1] * qs[2] * qs[3]
check("例 32.3 確率の積", f"$0.5 \\times 0.25 \\times 0.8 \\times 0.1 = {float(prod)}$")
ppl = (mpmath.mpf(prod.numerator) / prod.denominator) ** (-mpmath.mpf(1) / 4)
truth("例 32.3 0.01^(-1/4) = sqrt(10)", abs(ppl - mpmath.sqrt(10)) < mpmath.mpf(10) ** -40)
check("例 32.3 PPL", f"$\\mathrm{{PPL}}_q = {float(prod)}^{{-1/4}} = \\sqrt{{10}} \\approx {f(ppl, 4)}$（小数第 4 位に丸め）")
truth("例 32.3 e^{1.151293} と 2^{1.660964} も 3.1623",
      f(mpmath.e ** mpmath.mpf(f(H, 6)), 4) == f(ppl, 4) == f(mpmath.mpf(2) ** mpmath.mpf(f(H2, 6)), 4))
check("例 32.3 e^H, 2^H2", f"$e^{{{f(H, 6)}}}$ とも $2^{{{f(H2, 6)}}}$ とも同じ値")
mean_q = sum(qs) / 4
check("例 32.3 確率の算術平均", f"$1.65/4 = {float(mean_q)}$ でその逆数は約 {f(1 / mean_q, 4)}")
truth("例 32.3 確率の和は 1.65", sum(qs) == Fraction(165, 100))
check("例 32.3 逆数の算術平均", f"$17.25/4 = {float(tot_i / 4)}$ で、パープレキシティ {f(ppl, 4)} はこの 2 つの間")
truth("例 32.3 2.4242 <= 3.1623 <= 4.3125（命題 32.4 の 3）", mpmath.mpf(4) / 165 * 100 < ppl < mpmath.mpf(tot_i.numerator) / tot_i.denominator / 4 and mean_q == Fraction(165, 400))

# ======================= 32.3 =======================
rng = np.random.default_rng(2024)
ok = True
for _ in range(2000):
    n = int(rng.integers(1, 12))
    q = rng.uniform(0.001, 1.0, n)
    P = math.exp(-np.mean(np.log(q)))
    ok &= P >= 1 - 1e-12 and 1 / q.mean() <= P * (1 + 1e-12) and P <= np.mean(1 / q) * (1 + 1e-12)
truth("命題 32.4 の 1・3 を乱数 2,000 組で確認（PPL >= 1、1/mean(q) <= PPL <= mean(1/q)）", ok)
truth("命題 32.4 の 3 の等号：q が一定なら両端と一致", abs(1 / 0.3 - math.exp(-math.log(0.3))) < 1e-12)
truth("命題 32.4 の 2：一様なモデルの PPL は |V|（|V| = 7, 50,000）",
      all(abs(math.exp(-np.mean(np.log(np.full(9, 1 / V)))) - V) < 1e-6 * V for V in (7, 50000)))
check("32.3 PPL が |V| を超える例", "$|V| = 100$ のモデルがどの正解にも確率 0.001")
check("32.3 0.001^-1", f"$0.001^{{-1}} = {cm(round(1 / Fraction(1, 1000)))}$")
truth("32.3 1,000 > |V| = 100", 1000 > 100)
ks = [2, 8, 4, 16]
pk = math.prod(ks)
TIMES = " \\times "
check("系 32.5 積", f"${TIMES.join(map(str, ks))} = {cm(pk)} = 2^{{{int(math.log2(pk))}}}$")
check("系 32.5 PPL", f"$\\mathrm{{PPL}} = 2^{{10/4}} = 2^{{2.5}} \\approx {f(mpmath.mpf(pk) ** (mpmath.mpf(1) / 4), 4)}$、$H^{{(2)}} = {math.log2(pk) / 4}$ bits")
truth("系 32.5 PPL = 幾何平均（確率 1/k_t を代入）",
      abs(math.exp(-np.mean(np.log([1 / k for k in ks]))) - pk ** 0.25) < 1e-12)
check("系 32.5 算術平均", f"算術平均の ${sum(ks)}/4 = {sum(ks) / 4}$ よりも小さく")
truth("系 32.5 幾何平均 5.6569 < 算術平均 7.5", pk ** 0.25 < sum(ks) / 4)

ok = True
for _ in range(2000):   # 命題 32.6（和が 1 以下の r も含む）
    m = int(rng.integers(2, 8))
    p = rng.dirichlet(np.ones(m))
    r = rng.dirichlet(np.ones(m)) * rng.uniform(0.3, 1.0)
    lhs = float(np.sum(p * -np.log(r)))
    Hp, D = float(-np.sum(p * np.log(p))), float(np.sum(p * np.log(p / r)))
    ok &= abs(lhs - (Hp + D)) < 1e-10 and D >= -1e-12
truth("命題 32.6 E_p[-ln r] = H(p) + D(p||r)、D >= 0 を乱数 2,000 組で確認", ok)
truth("命題 32.6 r = p なら D = 0", abs(np.sum(p * np.log(p / p))) < 1e-15)

ok = True
for _ in range(300):    # 系 32.7 の 1：文脈を使わない最良のモデルは相対頻度で、PPL <= |V|
    V = int(rng.integers(2, 6))
    x = rng.integers(0, V, int(rng.integers(1, 30)))
    ph = np.bincount(x, minlength=V) / len(x)
    Hhat = float(-np.sum(ph[ph > 0] * np.log(ph[ph > 0])))
    Hq = lambda r: float(-np.mean(np.log(r[x])))
    ok &= abs(Hq(np.where(ph > 0, ph, 1e-300)) - Hhat) < 1e-9 and math.exp(Hhat) <= V + 1e-9
    for _ in range(5):
        ok &= Hq(rng.dirichlet(np.ones(V))) >= Hhat - 1e-12
truth("系 32.7 の 1 を乱数 300 文章で確認（最小は相対頻度、PPL <= |V|）", ok)
V, N = 3, 3            # 系 32.7 の 2・定義 32.1 のあとの段落：列の確率の和は 1、期待値はエントロピー以上
pN = rng.dirichlet(np.ones(V ** N))
cond = {pre: rng.dirichlet(np.ones(V)) for n in range(N) for pre in itertools.product(range(V), repeat=n)}
qN = np.array([math.prod(cond[xs[:t]][xs[t]] for t in range(N)) for xs in itertools.product(range(V), repeat=N)])
truth("定義 32.1 のあと：自己回帰の積 q(x) は V^N 上で和が 1", abs(qN.sum() - 1) < 1e-12)
truth("系 32.7 の 2：E[L_q(X)] = H(p_N) + D(p_N||q) >= H(p_N)",
      abs(np.sum(pN * -np.log(qN)) - (-np.sum(pN * np.log(pN)) + np.sum(pN * np.log(pN / qN)))) < 1e-12
      and np.sum(pN * -np.log(qN)) >= -np.sum(pN * np.log(pN)))

# ======================= 32.4 =======================
for s in ("PPL", "困惑度"):
    truth(f"32.4 「{s}」は {len(s)} 文字 {len(s.encode('utf-8'))} バイト", True)
check("32.4 文字数とバイト数", f"「PPL」は {len('PPL')} 文字 {len('PPL'.encode())} バイト、「困惑度」は {len('困惑度')} 文字 {len('困惑度'.encode())} バイト")
truth("32.4 かなと漢字は UTF-8 で 3 バイト、ASCII は 1 バイト",
      all(len(ch.encode()) == 3 for ch in "かなカナ漢字困惑度ー") and all(len(ch.encode()) == 1 for ch in "PPLab"))

B, C = 2_000_000, 800_000
models = [("A", 500_000, Fraction("2.60"), "2.60"), ("B", 800_000, Fraction("1.70"), "1.70"),
          ("C", 2_000_000, Fraction("0.62"), "0.62")]
check("例 32.11 B と C", f"$B = {cm(B)}$ バイト、$C = {cm(C)}$ 文字。1 文字あたり {B / C} バイト")
check("例 32.11 モデルの設定", f"モデル A は ${cm(500000)}$ トークンに分けて 1 トークンあたり 2.60 nats、B は ${cm(800000)}$ トークンで 1.70 nats、C は 1 バイト 1 トークンで 0.62 nats")
tot = {m: N_ * h for m, N_, h, _ in models}
for m, N_, h, ht in models:
    check(f"例 32.11 {m} の合計", f"${ht} \\times {cm(N_)} = {cm(int(tot[m]))}$")
BL = B * LN2
check("例 32.11 B ln 2", f"$2{{,}}000{{,}}000 \\times \\ln 2 \\approx {cm(int(BL))}.{int(mpmath.nint((BL - int(BL)) * 10))}$")
bpb = {m: mpmath.mpf(tot[m].numerator) / tot[m].denominator / BL for m in tot}
bpc = {m: mpmath.mpf(tot[m].numerator) / tot[m].denominator / (C * LN2) for m in tot}
pplt = {m: mpmath.e ** (mpmath.mpf(h.numerator) / h.denominator) for m, _, h, _ in models}
check("例 32.11 A の BPB", f"$\\mathrm{{BPB}} = {cm(int(tot['A']))} / {cm(int(BL))}.{int(mpmath.nint((BL - int(BL)) * 10))} \\approx {f(bpb['A'], 5)}$")
check("例 32.11 A の BPC", f"$\\mathrm{{BPC}} = {f(bpb['A'], 5)} \\times 2.5 \\approx {f(bpc['A'], 4)}$")
truth("例 32.11 0.93775 × 2.5 の丸めも 2.3444", f(Fraction(f(bpb['A'], 5)) * Fraction(5, 2), 4) == f(bpc['A'], 4))
names = {"A": "A", "B": "B", "C": "C（1 バイト 1 トークン）"}
for m, N_, h, ht in models:
    row = [names[m], cp(N_), f(Fraction(N_, B), 2), ht, cp(int(tot[m])), f(tot[m] / tot["A"], 3),
           f(pplt[m], 3), f(bpb[m], 5), f(bpc[m], 4)]
    check_line(f"表 32.2 モデル {m}", "\t".join(row))
order_ppl = "、".join(sorted(tot, key=lambda m: pplt[m]))
order_bpb = "、".join(sorted(tot, key=lambda m: bpb[m]))
check("例 32.11 パープレキシティの順", f"1 トークンあたりのパープレキシティで並べると {order_ppl} の順")
check("例 32.11 BPB の順", f"BPB では {order_bpb} の順")
truth("例 32.11 A と B が入れ替わる", order_ppl.index("B") < order_ppl.index("A") and order_bpb.index("A") < order_bpb.index("B"))
check("例 32.11 確率の比", f"$e^{{{cm(int(tot['B']))} - {cm(int(tot['A']))}}} = e^{{{cm(int(tot['B'] - tot['A']))}}}$")
eA_B = tot["A"] / 800_000
check("例 32.11 A の合計を B のトークン数で", f"$e^{{{cm(int(tot['A']))}/{cm(800000)}}} = e^{{{float(eA_B)}}} \\approx {f(mpmath.e ** mpmath.mpf(float(eA_B)), 3)}$ で、B の {f(pplt['B'], 3)} より小さく")
red = 1 - tot["A"] / tot["B"]
check("例 32.11 BPB の差", f"約 {f(red * 100, 2)} % 小さい値です（$1 - {cm(int(tot['A']))}/{cm(int(tot['B']))} \\approx {f(red, 4)}$）")
truth("例 32.11 A の BPB は B の BPB より 4.41 % 小さい（1 - BPB_A/BPB_B）", f(100 * (1 - bpb["A"] / bpb["B"]), 2) == f(red * 100, 2))
check("例 32.11 C の 2^BPB", f"$2^{{{f(bpb['C'], 5)}}} \\approx {f(mpmath.mpf(2) ** mpmath.mpf(f(bpb['C'], 5)), 3)}$ が 1 トークンあたりのパープレキシティと一致")
truth("例 32.11 C: 2^BPB = e^0.62（命題 32.9 の 1、N = B）", abs(mpmath.mpf(2) ** bpb["C"] - pplt["C"]) < mpmath.mpf(10) ** -30)
L_same = mpmath.mpf(1_300_000)
truth("命題 32.9 の 2：同じ負の対数尤度なら PPL_1 = PPL_2^(N2/N1)、N1 < N2 なら PPL_1 > PPL_2",
      abs(mpmath.e ** (L_same / 500_000) - (mpmath.e ** (L_same / 800_000)) ** (mpmath.mpf(800_000) / 500_000)) < mpmath.mpf(10) ** -30
      and mpmath.e ** (L_same / 500_000) > mpmath.e ** (L_same / 800_000))
truth("命題 32.9 の 1：H2 = BPB·B/N、PPL = PPL_byte^(B/N)、BPC = BPB·B/C（モデル A）",
      abs(mpmath.mpf(1_300_000) / 500_000 / LN2 - bpb["A"] * B / 500_000) < 1e-30
      and abs(pplt["A"] - (mpmath.mpf(2) ** bpb["A"]) ** (mpmath.mpf(B) / 500_000)) < 1e-30
      and abs(bpc["A"] - bpb["A"] * B / C) < 1e-30)

# ======================= 32.5 =======================
ok = True
for _ in range(2000):   # 命題 32.13 の 1〜4
    n = int(rng.integers(1, 10))
    a, b = rng.uniform(0.001, 1, n), rng.uniform(0.001, 1, n)
    lam = float(rng.uniform(0.001, 0.999))
    Hf = lambda l: float(-np.mean(np.log(l * a + (1 - l) * b)))
    H1, H2_, Hl = Hf(1.0), Hf(0.0), Hf(lam)
    P1, P2, Pl = math.exp(H1), math.exp(H2_), math.exp(Hl)
    ok &= Hl <= lam * H1 + (1 - lam) * H2_ + 1e-12
    ok &= Pl <= P1 ** lam * P2 ** (1 - lam) * (1 + 1e-12) <= (lam * P1 + (1 - lam) * P2) * (1 + 1e-11) <= max(P1, P2) * (1 + 1e-11)
    ok &= Pl <= P1 / lam * (1 + 1e-12) and Pl <= P2 / (1 - lam) * (1 + 1e-12)
    ok &= Hl >= float(np.mean(np.minimum(-np.log(a), -np.log(b)))) - 1e-12
    h = 1e-5
    d1 = -np.mean((a - b) / (lam * a + (1 - lam) * b))
    d2 = np.mean((a - b) ** 2 / (lam * a + (1 - lam) * b) ** 2)
    if 2 * h < lam < 1 - 2 * h:
        ok &= abs((Hf(lam + h) - Hf(lam - h)) / (2 * h) - d1) < 1e-5 * (1 + abs(d1))
        ok &= abs((Hf(lam + h) - 2 * Hl + Hf(lam - h)) / h ** 2 - d2) < 1e-3 * (1 + abs(d2))
    ok &= d2 >= 0
truth("命題 32.13 の 1〜4 を乱数 2,000 組で確認（上界 3 つ、下界、導関数の式と差分の一致、凸性）", ok)
check("32.5 λ = 0.9 の損", f"$\\ln(1/0.9) \\approx {f(-mpmath.log(mpmath.mpf('0.9')), 6)}$ nats 以下で、パープレキシティは $q_1$ の高々 $1/0.9 \\approx {f(1 / mpmath.mpf('0.9'), 4)}$ 倍")

# 例 32.14
p09, p001 = mpmath.mpf("0.9"), mpmath.mpf("0.01")
P1 = (p09 * p001) ** -0.5
check("例 32.14 PPL_1", f"$\\mathrm{{PPL}} = (0.9 \\times 0.01)^{{-1/2}} = {float(Fraction('0.9') * Fraction('0.01'))}^{{-1/2}} \\approx {f(P1, 3)}$")
check("例 32.14 H_1", f"$H = -\\ln(0.009)/2 = {f(-mpmath.log(mpmath.mpf('0.009')), 6)}/2 \\approx {f(-mpmath.log(mpmath.mpf('0.009')) / 2, 4)}$ nats")
mix = Fraction(1, 2) * Fraction("0.9") + Fraction(1, 2) * Fraction("0.01")
check("例 32.14 補間の確率", f"$0.5 \\times 0.9 + 0.5 \\times 0.01 = {float(mix)}$")
Pm = 1 / mpmath.mpf(float(mix))
Hm = -mpmath.log(mpmath.mpf(float(mix)))
check("例 32.14 PPL_{1/2}", f"$\\mathrm{{PPL}}_{{1/2}} = 1/{float(mix)} \\approx {f(Pm, 4)}$、$H_{{1/2}} = -\\ln {float(mix)} \\approx {f(Hm, 4)}$ nats")
H1e = -mpmath.log(mpmath.mpf("0.009")) / 2
check("例 32.14 差", f"${f(H1e, 4)} - {f(Hm, 4)} = {f(H1e - Hm, 4)}$ nats 下がります")
truth("例 32.14 丸めた値の差が差の丸めと一致", Fraction(f(H1e, 4)) - Fraction(f(Hm, 4)) == Fraction(f(H1e - Hm, 4)))
check("例 32.14 上界と下界", f"上界は 1 が {f(P1, 3)}、2 が ${f(P1, 3)}/0.5 \\approx {f(P1 / mpmath.mpf('0.5'), 3)}$、下界は 3 の $1/0.9 \\approx {f(1 / p09, 4)}$")
truth("例 32.14 10.541/0.5 の丸めも 21.082", f(Fraction(f(P1, 3)) * 2, 3) == f(P1 * 2, 3))
truth("例 32.14 下界 <= PPL_{1/2} <= 上界 1 <= 上界 2", 1 / p09 <= Pm <= P1 <= 2 * P1)
truth("例 32.14 1 の上界 PPL_1^(1/2)PPL_2^(1/2) = 10.541（PPL_1 = PPL_2）", f(mpmath.sqrt(P1 * P1), 3) == f(P1, 3))

# 例 32.15・表 32.3
A15 = [Fraction(x) for x in ("0.30", "0.05", "0.60", "0.02", "0.40", "0.10", "0.70", "0.05")]
B15 = [Fraction(x) for x in ("0.10", "0.40", "0.20", "0.30", "0.05", "0.50", "0.30", "0.20")]
check("例 32.15 q1", "$(" + ", ".join(f"{float(x):.2f}" for x in A15) + ")$、$q_2$")
check("例 32.15 q2", "$q_2$ が付けた確率を $(" + ", ".join(f"{float(x):.2f}" for x in B15) + ")$")


def mixp(lam):
    lam = Fraction(lam)
    return [lam * a + (1 - lam) * b for a, b in zip(A15, B15)]


def ppl_exact(ps):
    return mpmath.exp(-sum(mpmath.log(mpmath.mpf(p.numerator) / p.denominator) for p in ps) / len(ps))


def fmt_prob(x):
    s = f"{float(x):.3f}".rstrip("0")
    return s if len(s.split(".")[1]) >= 2 else f"{float(x):.2f}"


m05 = mixp("0.5")
check("例 32.15 λ = 0.5 の確率", "$(" + ", ".join(fmt_prob(x) for x in m05) + ")$")
pr = math.prod(m05)
check("例 32.15 積", f"積は ${float(pr) / 1e-5:.3f} \\times 10^{{-5}}$")
truth("例 32.15 積はちょうど 1.215e-5", pr == Fraction(1215, 10 ** 8))
check("例 32.15 PPL_0.5", f"$\\mathrm{{PPL}}_{{0.5}} = (1.215 \\times 10^{{-5}})^{{-1/8}} \\approx {f(ppl_exact(m05), 4)}$")
PP1, PP2 = ppl_exact(A15), ppl_exact(B15)
ratios = []
for lam in ("0.0", "0.1", "0.3", "0.5", "0.7", "0.9", "1.0"):
    pl = ppl_exact(mixp(lam))
    bound = PP1 ** mpmath.mpf(lam) * PP2 ** (1 - mpmath.mpf(lam))
    ratios.append(pl / bound)
    check_line(f"表 32.3 λ = {lam}", "\t".join([lam, f(pl, 3), f(bound, 3), f(pl / bound, 3)]))
truth("表 32.3 比はどの行でも 1 以下、両端で 1", all(r <= 1 + mpmath.mpf(10) ** -30 for r in ratios)
      and abs(ratios[0] - 1) < 1e-30 and abs(ratios[-1] - 1) < 1e-30)


def dH(lam):
    return -sum((a - b) / (lam * a + (1 - lam) * b) for a, b in zip(map(mpmath.mpf, map(float, A15)), map(mpmath.mpf, map(float, B15)))) / 8


lam_star = mpmath.findroot(dH, (mpmath.mpf("0.01"), mpmath.mpf("0.99")), solver="bisect")
P_star = mpmath.exp(-sum(mpmath.log(lam_star * float(a) + (1 - lam_star) * float(b)) for a, b in zip(A15, B15)) / 8)
truth("例 32.15 H'(0) < 0 < H'(1)（最小点は内部）", dH(mpmath.mpf(0)) < 0 < dH(mpmath.mpf(1)))
check("例 32.15 最良の重み", f"$\\lambda^{{*}} \\approx {f(lam_star, 4)}$、そのときのパープレキシティは約 {f(P_star, 4)}")
truth("例 32.15 最良の PPL は両方より小さい", P_star < min(PP1, PP2))
red15 = 1 - P_star / PP2
check("例 32.15 PPL_2 との差", f"$\\mathrm{{PPL}}_2 \\approx {f(PP2, 4)}$ より約 {f(red15 * 100, 2)} % 小さくなります（$1 - {f(P_star, 4)}/{f(PP2, 4)} \\approx {f(1 - mpmath.mpf(f(P_star, 4)) / mpmath.mpf(f(PP2, 4)), 4)}$）")
truth("例 32.15 丸めた値の比からの 0.1498 と、正確な比からの 14.98 % が一致",
      f(1 - mpmath.mpf(f(P_star, 4)) / mpmath.mpf(f(PP2, 4)), 4) == f(red15, 4))
oracle = ppl_exact([max(a, b) for a, b in zip(A15, B15)])
check("例 32.15 下界", f"命題 32.13 の 3 の下界は約 {f(oracle, 4)} です")
truth("例 32.15 下界 <= 最良の PPL", oracle <= P_star)

# ======================= 32.6 =======================


def windows(N, L, s):
    """定義 32.16 を 1 始まりの位置でそのまま実装（リスティングとは独立）。"""
    K = 1 + -(-(N - L) // s)
    b = [k * s + 1 for k in range(K)]
    e = [min(k * s + L, N) for k in range(K)]
    T = [list(range(1, L + 1))] + [list(range(e[k - 1] + 1, e[k] + 1)) for k in range(1, K)]
    return K, b, e, T


ok1 = ok2 = ok3 = ok4 = True
for N in range(1, 40):
    for L in range(1, N + 1):
        for s in range(1, L + 1):
            K, b, e, T = windows(N, L, s)
            flat = [t for Tk in T for t in Tk]
            ok1 &= all(Tk for Tk in T) and sorted(flat) == list(range(1, N + 1)) and len(flat) == N
            ok1 &= all(b[k] <= min(Tk) and max(Tk) <= e[k] for k, Tk in enumerate(T))
            ctx = {t: t - b[k] for k, Tk in enumerate(T) for t in Tk}
            ok2 &= all(ctx[t] == t - 1 for t in T[0]) and all(L - s <= ctx[t] <= L - 1 for t in range(L + 1, N + 1))
            if (N - L) % s == 0:
                ok2 &= all(sorted(ctx[t] for t in Tk) == list(range(L - s, L)) for Tk in T[1:])
            pos = sum(e[k] - b[k] + 1 for k in range(K))
            ok3 &= pos <= K * L and ((N - L) % s != 0 or pos == K * L)
            ok3 &= (s != 1 or K == N - L + 1) and (s != L or K == -(-N // L))
for _ in range(300):   # 命題 32.17 の 4：非増加な ℓ(c) なら、小さいストライドほど期待値は大きくならない
    L = int(rng.integers(2, 9))
    N = L + math.lcm(*range(1, L + 1))          # N - L がどの s <= L でも割り切れる
    ell = np.sort(rng.uniform(0, 5, L))[::-1]
    EH = {}
    for s in range(1, L + 1):
        K, b, e, T = windows(N, L, s)
        EH[s] = sum(ell[t - b[k]] for k, Tk in enumerate(T) for t in Tk) / N
        formula = (ell.sum() + (N - L) * ell[L - s:].mean()) / N
        ok4 &= abs(EH[s] - formula) < 1e-9
    ok4 &= all(EH[s1] <= EH[s2] + 1e-12 for s1 in EH for s2 in EH if s1 <= s2)
truth("命題 32.17 の 1：N < 40 のすべての (N, L, s) でどのトークンもちょうど 1 回、窓の中で採点", ok1)
truth("命題 32.17 の 2：文脈の長さ（T_0 で t-1、t > L で L-s 以上 L-1 以下、割り切れれば各値 1 回）", ok2)
truth("命題 32.17 の 3：入力位置 <= KL（割り切れれば等号）、s = 1 で K = N-L+1、s = L で K = ceil(N/L)", ok3)
truth("命題 32.17 の 4：E[H^(s)] の式と、s' <= s なら E[H^(s')] <= E[H^(s)]（乱数 300 例）", ok4)

# 例 32.18・表 32.4
N18, L18, P18, V18 = 32, 8, 5, 16
check("例 32.18 設定", f"$|V| = {V18}$、$L = {L18}$、$N = {N18}$ とし、文章は周期 $P = {P18}$ の列")
check("例 32.18 確率", f"$x_{{t-P}}$ に確率 0.9、ほかの {V18 - 1} 個のトークンに $0.1/{V18 - 1}$ ずつを付け、見えていなければ {V18} 個に $1/{V18}$ ずつ")
lg, lb = -mpmath.log(mpmath.mpf("0.9")), mpmath.log(V18)
check("例 32.18 損失", f"$-\\ln 0.9 \\approx {f(lg, 6)}$、{P18 - 1} 以下なら $\\ln 16 \\approx {f(lb, 6)}$")
check("例 32.18 N - L", f"$N - L = {N18 - L18}$ は $s = 8, 4, 3, 2, 1$ のどれでも割り切れ")
truth("例 32.18 24 は 8, 4, 3, 2, 1 で割り切れる", all((N18 - L18) % s == 0 for s in (8, 4, 3, 2, 1)))
x18 = [(t - 1) % P18 for t in range(1, N18 + 1)]


def copy_prob(t, bk):
    """1 始まりの位置 t、窓の始まり bk。有理数で。"""
    if t - P18 >= bk:
        return Fraction(9, 10) if x18[t - 1] == x18[t - P18 - 1] else Fraction(1, 10) / (V18 - 1)
    return Fraction(1, V18)


rows18 = {}
for s in (8, 4, 3, 2, 1):
    K, b, e, T = windows(N18, L18, s)
    probs = [copy_prob(t, b[k]) for k, Tk in enumerate(T) for t in Tk]
    bad = sum(1 for k, Tk in enumerate(T) for t in Tk if t - b[k] < P18)
    Hs = -sum(mpmath.log(mpmath.mpf(p.numerator) / p.denominator) for p in probs) / N18
    bits_s = Hs * N18 / LN2
    pos = sum(e[k] - b[k] + 1 for k in range(K))
    minctx = min(t - b[k] for k, Tk in enumerate(T) for t in Tk if t > L18)
    rows18[s] = (K, pos, minctx, bad, Hs, bits_s)
    truth(f"例 32.18 s = {s}: 窓の数 K = 1 + 24/s = {K}、位置 = KL = {pos}、最小の文脈 L - s = {minctx}",
          K == 1 + 24 // s and pos == K * L18 and minctx == L18 - s)
    truth(f"例 32.18 s = {s}: 損失はすべて -ln 0.9 か ln 16（外れ {bad} 個）",
          all(p in (Fraction(9, 10), Fraction(1, 16)) for p in probs) and abs(Hs - (bad * lb + (N18 - bad) * lg) / N18) < 1e-40)
    row = [str(s), str(K), str(pos), f(Fraction(pos, N18), 2), str(minctx), str(bad), f(Hs, 6), f(mpmath.e ** Hs, 3),
           f(bits_s, 2), str(int(mpmath.ceil(bits_s)))]
    check_line(f"表 32.4 s = {s}", "\t".join(row))
check("例 32.18 s = 8 の外れの数", f"$5 \\times 4 = {rows18[8][3]}$ 個、残りが {N18 - rows18[8][3]} 個")
for s, nb, ng in ((8, 20, 12), (4, 11, 21), (3, 5, 27)):
    pb, pg = nb * mpmath.mpf(f(lb, 6)), ng * mpmath.mpf(f(lg, 6))
    totv = pb + pg
    lbl = "s" if s == 3 else str(s)
    check(f"例 32.18 H^({s}) の計算",
          f"$H^{{({lbl})}} = ({nb} \\times {f(lb, 6)} + {ng} \\times {f(lg, 6)})/32 = ({f(pb, 3)} + {f(pg, 3)})/32 = {f(totv, 3)}/32 \\approx {f(rows18[s][4], 4)}$ nats")
    truth(f"例 32.18 s = {s}: 丸めた 2 項の和 = 合計の丸め、合計/32 の丸め = H の丸め、外れ {nb} 個",
          Fraction(f(pb, 3)) + Fraction(f(pg, 3)) == Fraction(f(totv, 3))
          and f(Fraction(f(totv, 3)) / 32, 4) == f(rows18[s][4], 4) and rows18[s][3] == nb)
check("例 32.18 s = 4 の外れ", f"外れは $5 + 6 = {rows18[4][3]}$ 個")
check("例 32.18 表のあと", f"パープレキシティが {f(mpmath.e ** rows18[8][4], 3)} から {f(mpmath.e ** rows18[3][4], 3)} へ下がります。$s \\le L - P = {L18 - P18}$")
truth("例 32.18 s <= 3 で値は変わらない", rows18[3][4] == rows18[2][4] == rows18[1][4])
check("例 32.18 費用の比", f"$s = 1$ の費用は $s = 3$ の ${rows18[1][1]}/{rows18[3][1]} \\approx {rows18[1][1] / rows18[3][1]:.2f}$ 倍")
check("例 32.18 K = 1 + 24/s", "窓の数 $K = 1 + 24/s$")

# ======================= 32.7 =======================


def kraft_code(lengths):
    """補題 32.20 の 2 の作り方（長さの昇順、同じ長さは元の順）。"""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    F, code = Fraction(0), [None] * len(lengths)
    for i in order:
        n = F * 2 ** lengths[i]
        assert n.denominator == 1 and 0 <= n < 2 ** lengths[i]
        code[i] = format(int(n), "b").zfill(lengths[i])
        F += Fraction(1, 2 ** lengths[i])
    return code


def prefix_free(code):
    return all(not (i != j and code[j].startswith(code[i])) for i in range(len(code)) for j in range(len(code)))


ok = True
for _ in range(500):   # 補題 32.20：クラフトの和 <= 1 の長さから接頭符号ができ、接頭符号の和は 1 以下
    m = int(rng.integers(1, 10))
    ls = sorted(int(v) for v in rng.integers(1, 7, m))
    if sum(Fraction(1, 2 ** l) for l in ls) > 1:
        continue
    perm = list(rng.permutation(m))
    ls = [ls[i] for i in perm]
    code = kraft_code(ls)
    ok &= prefix_free(code) and [len(c) for c in code] == ls
for l in range(1, 5):  # 長さ 4 以下のすべての語の集合から作った接頭符号はクラフトの和 <= 1
    words = ["".join(w) for k in range(1, l + 1) for w in itertools.product("01", repeat=k)]
    for _ in range(200):
        pick = [w for w in words if rng.random() < 0.3]
        if pick and prefix_free(pick):
            ok &= sum(Fraction(1, 2 ** len(w)) for w in pick) <= 1
truth("補題 32.20 の 1・2 を乱数で確認", ok)
# 命題 32.21 の 1：V = 2、N = 3 の全列にモデルの符号を作る
V, N = 2, 3
cond = {pre: rng.dirichlet(np.ones(V)) for n in range(N) for pre in itertools.product(range(V), repeat=n)}
seqs = list(itertools.product(range(V), repeat=N))
qv = [math.prod(cond[xs[:t]][xs[t]] for t in range(N)) for xs in seqs]
lens = [math.ceil(-math.log2(q)) for q in qv]
code = kraft_code(lens)
truth("命題 32.21 の 1：符号長 ceil(-log2 q(x)) の接頭符号ができ、-log2 q <= ℓ < -log2 q + 1",
      prefix_free(code) and all(-math.log2(q) <= l < -math.log2(q) + 1 for q, l in zip(qv, lens)))
check("32.7 1,000,000 バイトの例", f"1,000,000 バイトの文章で BPB が 0.85 なら $-\\log_2 q(\\boldsymbol{{x}}) = {cm(round(Fraction('0.85') * 1_000_000))}$ ビットで、符号は {cp(round(Fraction('0.85') * 1_000_000) + 1)} ビット未満、約 {cp(round(Fraction('0.85') * 1_000_000 / 8))} バイト")
check("32.7 圧縮率", f"圧縮率は $8{{,}}000{{,}}000/850{{,}}000 \\approx {8_000_000 / 850_000:.2f}$ 倍")
check("32.7 一様なモデルの符号長", f"$32 \\times \\log_2 16 = {32 * 4}$ ビット")
check("32.7 s = 3 の符号長", f"$s = 3$ では {int(mpmath.ceil(rows18[3][5]))} ビットで文章を表せます")
truth("32.7 q^(s) は言語モデル：各位置の条件付き分布は V 上で和が 1（例 32.18 のモデル）",
      Fraction(9, 10) + 15 * Fraction(1, 10) / 15 == 1 and 16 * Fraction(1, 16) == 1)

# 例 32.22
p22 = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)]
H22 = sum(p * int(math.log2(1 / p)) for p in p22)
check("例 32.22 H_2(p)", f"$H_2(p) = 0.5 \\times 1 + 0.25 \\times 2 + 0.125 \\times 3 + 0.125 \\times 3 = {float(H22)}$ bits")
qsets = {"p": p22, "u": [Fraction(1, 4)] * 4, "rev": [Fraction(1, 8), Fraction(1, 8), Fraction(1, 4), Fraction(1, 2)]}
res = {}
for k, q in qsets.items():
    ls = [math.ceil(-math.log2(x)) for x in q]
    code = kraft_code(ls)
    El = sum(p * l for p, l in zip(p22, ls))
    D = sum(p * Fraction(int(round(math.log2(p / x)))) for p, x in zip(p22, q))
    truth(f"例 32.22 q = {k}: 切り上げは何もせず、クラフトの和は 1、期待符号長 = H + D",
          all(2.0 ** -l == float(x) for l, x in zip(ls, q)) and sum(Fraction(1, 2 ** l) for l in ls) == 1 and El == H22 + D
          and prefix_free(code))
    res[k] = (code, El, D)
check("例 32.22 q = p", f"$q = p$ なら符号語は {'、'.join(res['p'][0])} で期待符号長は {float(res['p'][1])} bits")
check("例 32.22 一様", f"一様な $q = (1/4, 1/4, 1/4, 1/4)$ なら {'、'.join(res['u'][0])} で {res['u'][1]} bits")
check("例 32.22 逆順", f"逆順の $q = (1/8, 1/8, 1/4, 1/2)$ なら {'、'.join(res['rev'][0])} で $0.5 \\times 3 + 0.25 \\times 3 + 0.125 \\times 2 + 0.125 \\times 1 = {float(res['rev'][1])}$ bits")
check("例 32.22 D 一様", f"$D_2 = \\log_2 4 - 1.75 = {float(res['u'][2])}$")
check("例 32.22 D 逆順", f"$D_2 = 0.5 \\times 2 + 0.25 \\times 1 + 0.125 \\times (-1) + 0.125 \\times (-2) = {float(res['rev'][2])}$")
check("例 32.22 PPL", f"$2^{{1.75}} \\approx {f(mpmath.mpf(2) ** mpmath.mpf('1.75'), 4)}$、$2^{{2}} = 4$、$2^{{2.625}} \\approx {f(mpmath.mpf(2) ** mpmath.mpf('2.625'), 4)}$")

# ======================= 演習 =======================
check("演習 32.1 問題文", "10 トークンの文章で、モデルがどの正解にも確率 0.2 を付けた")
check("演習 32.1 問題文 2", "1 つのトークンの確率だけが 0.002 に下がる")
check("演習 32.1 PPL = 5", f"最初は系 32.5 より $\\mathrm{{PPL}} = {round(1 / Fraction('0.2'))}$、$H = \\ln 5 \\approx {f(mpmath.log(5), 6)}$ nats")
truth("演習 32.1 0.002 は 0.2 の 1/100", Fraction("0.002") / Fraction("0.2") == Fraction(1, 100))
h100 = mpmath.log(100) / 10
check("演習 32.1 H の増分", f"$\\ln 100/10 \\approx {f(h100, 6)}$ 増えて ${f(mpmath.log(5), 6)} + {f(h100, 6)} = {f(mpmath.log(5) + h100, 6)}$ nats")
truth("演習 32.1 丸めた和 = 和の丸め", Fraction(f(mpmath.log(5), 6)) + Fraction(f(h100, 6)) == Fraction(f(mpmath.log(5) + h100, 6)))
new_ppl = (mpmath.mpf("0.2") ** 9 * mpmath.mpf("0.002")) ** (-mpmath.mpf(1) / 10)
check("演習 32.1 新しい PPL", f"$5 \\times 100^{{1/10}} \\approx 5 \\times {f(mpmath.mpf(100) ** 0.1, 6)} \\approx {f(new_ppl, 4)}$")
truth("演習 32.1 5 × 100^(1/10) が定義どおりの値と一致", abs(new_ppl - 5 * mpmath.mpf(100) ** (mpmath.mpf(1) / 10)) < 1e-40)
check("演習 32.1 増加率", f"約 {f((mpmath.mpf(100) ** (mpmath.mpf(1) / 10) - 1) * 100, 2)} % 大きくなります")
l20 = mpmath.log(20) / LN2
bpb2 = l20 * mpmath.mpf("0.28")
check("演習 32.2 bits/token", f"トークンあたり $\\log_2 20 \\approx {f(l20, 6)}$ bits")
check("演習 32.2 BPB", f"$\\mathrm{{BPB}} = H^{{(2)}} \\cdot N/B = {f(l20, 6)} \\times 0.28 \\approx {f(bpb2, 6)}$")
truth("演習 32.2 丸めた値の積の丸めも 1.210140", f(Fraction(f(l20, 6)) * Fraction("0.28"), 6) == f(bpb2, 6))
check("演習 32.2 バイトあたりの PPL", f"$\\mathrm{{PPL}}_{{\\mathrm{{byte}}}} = 2^{{{f(bpb2, 6)}}} = 20^{{0.28}} \\approx {f(mpmath.mpf(20) ** mpmath.mpf('0.28'), 4)}$")
truth("演習 32.2 2^BPB = 20^0.28", abs(mpmath.mpf(2) ** bpb2 - mpmath.mpf(20) ** mpmath.mpf("0.28")) < 1e-40)
check("演習 32.2 BPC", f"$\\mathrm{{BPC}} = {f(bpb2, 6)} \\times 3 = {f(Fraction(f(bpb2, 6)) * 3, 6)}$")
truth("演習 32.2 BPC の丸め（1.210140 × 3 と正確な値の丸めが一致）", f(Fraction(f(bpb2, 6)) * 3, 6) == f(bpb2 * 3, 6))
check("演習 32.3 数値", f"${cm(50000)}/0.01 = {cm(round(50000 / Fraction('0.01')))}$ と $12/0.99 \\approx {f(mpmath.mpf(12) / mpmath.mpf('0.99'), 4)}$")
check("演習 32.3 損", f"$-\\ln 0.99 \\approx {f(-mpmath.log(mpmath.mpf('0.99')), 6)}$ nats")
ok = True
for _ in range(1000):   # 演習 32.3：q が 0 を含んでも上界が成り立つ
    Vv, n, eps = int(rng.integers(2, 50)), int(rng.integers(1, 20)), float(rng.uniform(0.001, 0.999))
    qt = rng.uniform(0, 1, n) * (rng.random(n) > 0.2)
    qe = (1 - eps) * qt + eps / Vv
    P = math.exp(-np.mean(np.log(qe)))
    ok &= P <= Vv / eps * (1 + 1e-12)
    if (qt > 0).all():
        ok &= P <= math.exp(-np.mean(np.log(qt))) / (1 - eps) * (1 + 1e-12)
truth("演習 32.3 の 2 つの上界を乱数 1,000 例で確認（q に 0 を含む場合も）", ok)
L4, N4 = 2048, 10240
check("演習 32.4 設定", f"文脈長 $L = {cm(L4)}$ のモデルで $N = {cm(N4)}$ トークン")
check("演習 32.4 N - L", f"$N - L = {cm(N4 - L4)}$ はどの $s$ でも割り切れる")
for s, sfmt in ((2048, "2{,}048"), (512, "512"), (1, "1")):
    K, b, e, T = windows(N4, L4, s) if s != 1 else (1 + (N4 - L4), None, None, None)
    pos = K * L4
    ratio = Fraction(pos, N4)
    rtxt = str(int(ratio)) if ratio.denominator == 1 else (f"{float(ratio):.1f}" if s != 1 else f"約 {cp(int(ratio))}.{int(ratio * 10) % 10}")
    kt = f"{cm(K)}"
    check(f"演習 32.4 s = {s}", f"$s = {sfmt}$ では $K = {kt}$、${kt} \\times 2{{,}}048 = {cm(pos)}$ で比は{' ' if s != 1 else ''}{rtxt}、最小の文脈は {cp(L4 - s)} です")
    truth(f"演習 32.4 s = {s}: K = 1 + 8192/s", K == 1 + (N4 - L4) // s)
truth("演習 32.4 s = 1 の比 16,779,264/10,240 = 1638.6", Fraction(8193 * 2048, 10240) == Fraction(16386, 10))
truth("演習 32.4 s = 512 は最初の窓より後のすべてのトークンに 1,536 以上の文脈（命題 32.17 の 2）", L4 - 512 == 1536)
check("演習 32.4 まとめ", "費用を 3.4 倍にするだけで、最初の窓より後のすべてのトークンに 1,536 以上の文脈")

# ======================= 32.8：リスティング =======================
truth(f"32.8 実行環境 Python {platform.python_version()}, NumPy {np.__version__} が本文の記載と一致",
      f"# Python {platform.python_version()}, NumPy {np.__version__}" in TEXT)


def printed_output(code_file):
    code = open(os.path.join(HERE, code_file), encoding="utf-8").read().rstrip("\n")
    i = TEXT.find(code)
    if i < 0:
        return None, None
    rest = TEXT[i + len(code):].lstrip("\n")
    return code, rest.split("\n\n")[0]


outs = {}
for fname in ("perplexity.py", "sliding_window.py"):
    code, block = printed_output(fname)
    run = subprocess.run([sys.executable, fname], cwd=HERE, capture_output=True, text=True)
    same = code is not None and run.returncode == 0 and run.stdout.rstrip("\n") == block
    outs[fname] = run.stdout.rstrip("\n").split("\n")
    truth(f"リスティング {fname}：本文のコードと同一で、実行結果 {len(outs[fname])} 行が本文の出力と一致", same)

o = outs["perplexity.py"]
truth("32.8 出力の 1〜2 行目が例 32.3（H, bits, PPL と 2 つの境界）",
      f(H, 6) in o[0] and f(H2, 6) in o[0] and f(ppl, 4) in o[0] and f(1 / mean_q, 4) in o[1] and f(tot_i / 4, 4) in o[1])
truth("32.8 出力の 3〜5 行目が表 32.2（PPL/トークン、BPB、BPC）",
      all(f(pplt[m], 3) in o[2 + i] and f(bpb[m], 5) in o[2 + i] and f(bpc[m], 4) in o[2 + i] for i, m in enumerate("ABC")))
truth("32.8 出力の 7〜13 行目が表 32.3、14 行目が最良の重み・PPL・下界",
      len(o) == 14 and all(o[6 + i].split()[0] == lam for i, lam in enumerate(("0.0", "0.1", "0.3", "0.5", "0.7", "0.9", "1.0")))
      and f(lam_star, 4) in o[13] and f(P_star, 4) in o[13] and f(oracle, 4) in o[13])
o2 = outs["sliding_window.py"]
truth("32.8 sliding_window.py の出力の各行が表 32.4 の行と同じ値",
      all(o2[1 + i].split() == [str(s), str(rows18[s][0]), str(rows18[s][1]), str(rows18[s][2]), f(rows18[s][4], 6),
                                 f(mpmath.e ** rows18[s][4], 3), f(rows18[s][5], 2), str(int(mpmath.ceil(rows18[s][5])))]
          for i, s in enumerate((8, 4, 3, 2, 1))))

print(f"\n検査の数: {n_checks}  失敗: {failures}")
sys.exit(1 if failures else 0)

"""init.mdx の数値をすべて定義の式から計算し直し、印字された値と照合する。

各数値について (本文中の文字列, 印字された数, 計算した値) を持ち、
本文中にその文字列があること、印字された数がその文字列に含まれること、
計算した値を印字の桁で丸めると印字された数になることを確かめる。
表は本文から読み取って式と照合し、コードは実行して出力を本文と完全に比べる。
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
from mpmath import mp, ncdf, log as mlog, sqrt as msqrt

mp.dps = 30
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "init.mdx"), encoding="utf-8").read()

n_ok = 0
n_bad = 0


def report(ok, label, printed, value):
    global n_ok, n_bad
    if ok:
        n_ok += 1
        print(f"ok    {label:<48s} printed {printed:<24s} computed {value!r}")
    else:
        n_bad += 1
        print(f"FAIL  {label:<48s} printed {printed:<24s} computed {value!r}")


def parse_printed(printed):
    """'4{,}096' '0.02795' '1.604 \\times 10^{-28}' '1/288' を (値, 許容誤差) にする。"""
    s = printed.replace("{,}", "").replace(",", "").replace("$", "").strip()
    m = re.fullmatch(r"(\d+)/(\d+)", s)
    if m:
        return float(Fraction(int(m.group(1)), int(m.group(2)))), 1e-15
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)(?:\s*\\times\s*10\^\{(-?\d+)\})?", s)
    if not m:
        raise ValueError(f"cannot parse printed number {printed!r}")
    mant = m.group(1)
    dec = len(mant.split(".")[1]) if "." in mant else 0
    scale = 10.0 ** int(m.group(2)) if m.group(2) else 1.0
    return float(mant) * scale, 0.5 * 10.0 ** (-dec) * scale


def close(printed, value):
    target, tol = parse_printed(printed)
    return abs(float(value) - target) <= tol * (1 + 1e-9) + 1e-15 * abs(target)


def num(snippet, printed, value):
    """本文に snippet があり、その中に printed があり、value が printed の桁で一致する。"""
    if snippet not in TEXT:
        report(False, "snippet missing: " + snippet[:40], printed, value)
        return
    if printed not in snippet:
        report(False, "printed not in snippet: " + snippet[:30], printed, value)
        return
    report(close(printed, value), snippet[:48].replace("\n", " "), printed, value)


def fact(snippet, label, ok):
    """数の大小や個数についての主張（印字された数 1 つ）。"""
    if snippet not in TEXT:
        report(False, "snippet missing: " + snippet[:40], label, ok)
        return
    report(bool(ok), snippet[:48], label, ok)


def table(header_start):
    """header_start で始まる Markdown の表のデータ行をセルのリストで返す。"""
    lines = TEXT.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[i + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def cell(label, printed, value):
    report(close(printed, value), label, printed, value)


def count_items(after, marker=r"\d+\. "):
    """after の直後から始まる番号付きリストの項目数。"""
    rest = TEXT[TEXT.index(after) + len(after):].lstrip("\n")
    k = 0
    for line in rest.splitlines():
        if re.match(marker, line):
            k += 1
        elif line.strip() == "":
            if k:
                break
        else:
            break
    return k


# ---------------------------------------------------------------- 設定
d, h, L, dff, dk, n_keys = 512, 8, 12, 2048, 64, 1024

# ---------------------------------------------------------------- 0〜2 節
num(r"$\sigma^2 = 1/n_{\mathrm{in}}$ では 12 層で $1/4{,}096$", "4{,}096", 2 ** 12)
num(r"1 層あたり 2 倍なら 12 層で $2^{12} = 4{,}096$ 倍", "4{,}096", 2 ** 12)
num(r"1 層あたり半分なら $1/4{,}096$ 倍", "4{,}096", 1 / 0.5 ** 12)
fact("この章では次の 3 つの問いに答えます。", "3", count_items("この章では次の 3 つの問いに答えます。") == 3)
disp = TEXT[TEXT.index("次の 4 つを考える。"):]
disp = disp[: disp.index("$$\n\n", disp.index("$$") + 3)]
fact("$\\sigma^2$ の選び方として次の 4 つを考える。", "4", disp.count(":=") == 4)
num(r"$d_k = d/h = 64$", "64", d / h)
num(r"$d_{\mathrm{ff}} = 4d = 2{,}048$", "2{,}048", 4 * d)
xav_w1 = 2 / (d + dff)
num(r"$2/(512 + 2{,}048) = 2/2{,}560 = 0.00078125$", "2{,}560", d + dff)
num(r"$2/(512 + 2{,}048) = 2/2{,}560 = 0.00078125$", "0.00078125", xav_w1)
num("標準偏差は約 0.02795", "0.02795", math.sqrt(xav_w1))
num(r"$\sqrt{6/2{,}560} \approx 0.04841$", "0.04841", math.sqrt(6 / (d + dff)))

# ---------------------------------------------------------------- 3 節
lecun_sd, he_sd = math.sqrt(1 / d), math.sqrt(2 / d)
num(r"標準偏差 $\sqrt{1/512} \approx 0.04419$", "0.04419", lecun_sd)
num(r"$(1/2)^{12} = 1/4{,}096 \approx 0.0002441$", "4{,}096", 1 / (1 / 2) ** L)
num(r"$(1/2)^{12} = 1/4{,}096 \approx 0.0002441$", "0.0002441", (1 / 2) ** L)
num(r"標準偏差 $\sqrt{2/512} = 0.0625$", "0.0625", he_sd)
num(r"$1.25^{12} \approx 14.55$", "14.55", (2.5 / 2) ** L)
num("0.04419 と 0.0625 のわずか 1.414 倍", "1.414", he_sd / lecun_sd)
num("12 層後の 2 乗平均は 4,096 倍違います", "4,096", (2 / 2) ** L / (1 / 2) ** L)

# 表 1（Xavier・He・倍率）
shapes = {"$W_Q$（1 ヘッド分）": (512, 64), "$W_O$": (512, 512), "$W_1$": (512, 2048), "$W_2$": (2048, 512)}
rows = table("| 行列 | $n_{\\mathrm{in}}$")
fact("| 行列 | $n_{\\mathrm{in}}$", "4 rows", len(rows) == 4)
for r in rows:
    ni, no = shapes[r[0]]
    v = 2 / (ni + no)
    a, b = ni * v, no * v
    vals = [ni, no, v, math.sqrt(v), math.sqrt(2 / ni), a, b, a * b, ni * 0.02 ** 2]
    for k, val in enumerate(vals, start=1):
        cell(f"table1 {r[0]} col{k}", r[k], val)
    cell(f"table1 {r[0]} a+b", "2", a + b)
num(r"MLP を通り抜けると前向きも逆向きも $0.4 \times 1.6 = 0.64$ 倍", "0.64",
    (512 * 2 / 2560) * (2048 * 2 / 2560))
num(r"前向きの倍率がどれも $512 \times 0.0004 = 0.2048$", "0.0004", 0.02 ** 2)
num(r"前向きの倍率がどれも $512 \times 0.0004 = 0.2048$", "0.2048", 512 * 0.02 ** 2)
num("信号は 1 回通るごとに約 5 分の 1 になります", "5", 1 / (512 * 0.02 ** 2))
fact("$n_{\\mathrm{in}} = 512$ の 3 つの行列", "3", sum(1 for ni, no in shapes.values() if ni == 512) == 3)

# ---------------------------------------------------------------- 4 節
rows = table("| $l$ | A, $s^2 = 1$")
for r in rows:
    l = int(r[0])
    vals = [(1 + 1) ** l, (1 + 1 / L) ** l, 1 + l * 1, 1 + l / L]
    for k, val in enumerate(vals, start=1):
        cell(f"table2 l={l} col{k}", r[k], val)
    if l > 0:
        cell(f"table2 l={l} share", r[5], 1 / (1 + (l - 1) * 1))
fact("| $l$ | A, $s^2 = 1$", "5 rows", [int(r[0]) for r in rows] == [0, 3, 6, 9, 12])
num(r"12 層後、模型 A は $2^{12} = 4{,}096$ 倍", "4{,}096", 2 ** 12)
num(r"$(13/12)^{12} \approx 2.613$", "2.613", (13 / 12) ** 12)
num(r"上界 $e \approx 2.718$", "2.718", math.e)
fact(r"上界 $e \approx 2.718$ より小さく収まります", "2.613 < e", (13 / 12) ** 12 < math.e)
num(r"模型 B は $1 + 12 = 13$ 倍", "13", 1 + 12)
num(r"スケーリングで $1 + 12 \times (1/12) = 2$ 倍", "2", 1 + 12 * (1 / 12))
num(r"加算が $2L = 24$ 回あり", "24", 2 * L)
num(r"$s^2 = 1$ なら $q_0 + 24$", "24", 2 * L * 1)
num(r"標準偏差を $1/\sqrt{24}$ 倍すれば $q_0 + 1$", "1", 2 * L * (1 / (2 * L)))
num(r"$0.02/\sqrt{24} \approx 0.004082$", "0.004082", 0.02 / math.sqrt(2 * L))

# ---------------------------------------------------------------- 5 節
num(r"$s = 0.0004 \times 512 = 0.2048$", "0.2048", 0.0004 * d)
num(r"He では $\sigma^2 = 2/512 = 1/256$ で $s = 2$", "1/256", 2 / d)
num(r"He では $\sigma^2 = 2/512 = 1/256$ で $s = 2$", "2", 2 / d * d)
num(r"$\sigma^2 = 2/2{,}048 = 1/1{,}024$ で $s = 0.5$", "2{,}048", 512 + 1536)
num(r"$\sigma^2 = 2/2{,}048 = 1/1{,}024$ で $s = 0.5$", "1{,}024", 1 / (2 / (512 + 1536)))
num(r"$\sigma^2 = 2/2{,}048 = 1/1{,}024$ で $s = 0.5$", "0.5", 2 / (512 + 1536) * d)
num(r"LeCun と同じ $\sigma^2 = 1/512$ で $s = 1$", "1", 2 / (512 + 512) * d)
num(r"$\sigma^2 = 2/576 = 1/288$", "576", 512 + 64)
num(r"$\sigma^2 = 2/576 = 1/288$", "1/288", 2 / (512 + 64))
num(r"$s = 512/288 = 16/9 \approx 1.778$", "1.778", 2 / (512 + 64) * d)
num(r"$s = 512/288 = 16/9 \approx 1.778$", "16/9", 2 / (512 + 64) * d)
num("0.5 から 1.778 まで 3.556 倍違います", "3.556", (2 / 576 * d) / (2 / 2048 * d))
num(r"$s = 1 \times \sqrt{64} = 8$", "8", 1 / 512 * d * math.sqrt(dk))

# ---------------------------------------------------------------- 6 節
num(r"$e^{-1} \approx 0.3679$", "0.3679", math.exp(-1))
num(r"$e^{-4} \approx 0.01832$", "0.01832", math.exp(-4))
num("約 20 分の 1 になります", "20", math.exp(-1) / math.exp(-4))
schemes = {"固定 $\\sigma_0 = 0.02$": (0.02 ** 2, True), "Xavier（$512 \\times 1536$）": (2 / 2048, True),
           "LeCun（Xavier $512 \\times 512$）": (1 / 512, True), "Xavier（$512 \\times 64$）": (2 / 576, True),
           "He": (2 / 512, True), "LeCun、$\\sqrt{d_k}$ で割らない": (1 / 512, False)}
rows = table("| 初期化 | $\\sigma^2$")
fact("<Ref to=\"ex-score-by-scheme\" /> の 6 通りの $s$", "6", len(rows) == 6 and len(schemes) == 6)
for r in rows:
    s2, scaled = schemes[r[0]]
    s = s2 * d * (1 if scaled else math.sqrt(dk))
    vals = [s2, s, s * s, mp.e ** (-s * s), n_keys * mp.e ** (-s * s)]
    for k, val in enumerate(vals, start=1):
        cell(f"table3 {r[0][:12]} col{k}", r[k], val)
fact("最後の行の $ne^{-s^2}$ は 1 より小さく", "1", n_keys * math.exp(-64) < 1)
p2 = 1 - ncdf(2)
p4 = 1 - ncdf(4)
num(r"$1 - \Phi(2) \approx 0.02275$", "0.02275", p2)
num("1,024 個のうち約 23.3 個あります", "23.3", n_keys * p2)
num(r"$1 - \Phi(4) \approx 3.167 \times 10^{-5}$", r"3.167 \times 10^{-5}", p4)
num("1,024 個のうち期待値で約 0.03243 個", "0.03243", n_keys * p4)
num(r"$s = 1$ ならそれは $2$ 倍のところ", "2", 2 * 1)
num(r"$s = 2$ なら $4$ 倍のところ", "4", 2 * 2)

# ---------------------------------------------------------------- 7 節: コードを実行して出力を比べる
m = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
code, printed_out = m.group(1), m.group(2)
run = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True, check=True)
report(run.stdout == printed_out, "listing output (exact match)", f"{len(printed_out.splitlines())} lines",
       "identical" if run.stdout == printed_out else run.stdout)
out = run.stdout.splitlines()
resid = {(ln.split()[0], ln.split()[1]): [float(v) for v in ln.split()[2:]] for ln in out[1:5]}
score = {ln.split()[0]: [float(v) for v in ln.split()[1:]] for ln in out[6:12]}

num("順に 3991.408、2.607、12.941、2.009 でした", "3991.408", resid[("A", "1")][3])
num("順に 3991.408、2.607、12.941、2.009 でした", "2.607", resid[("A", "1/12")][3])
num("順に 3991.408、2.607、12.941、2.009 でした", "12.941", resid[("B", "1")][3])
num("順に 3991.408、2.607、12.941、2.009 でした", "2.009", resid[("B", "1/12")][3])
fact("(1) は <Ref to=\"ex-residual-table\" /> の 4 つの列", "4", len(resid) == 4)
for k, (lab, val) in enumerate(zip(["8", "64", "512", "4,096"], resid[("A", "1")])):
    num("模型 A の $s^2 = 1$ では 8、64、512、4,096 に近い値", lab, 2 ** (3 * (k + 1)))
    fact("模型 A の $s^2 = 1$ では 8、64、512、4,096 に近い値", f"sim {val} ~ {lab}",
         abs(val / 2 ** (3 * (k + 1)) - 1) < 0.05)
for k, (lab, val) in enumerate(zip(["4", "7", "10", "13"], resid[("B", "1")])):
    num("模型 B の $s^2 = 1$ では 4、7、10、13 に近い値", lab, 1 + 3 * (k + 1))
    fact("模型 B の $s^2 = 1$ では 4、7、10、13 に近い値", f"sim {val} ~ {lab}", abs(val - (1 + 3 * (k + 1))) < 0.1)
fact("$s^2 = 1/12$ ではどちらも 3 未満に収まります", "3",
     max(resid[("A", "1/12")] + resid[("B", "1/12")]) < 3)
fact("に 1 % 以内で一致します", "1 %", max(abs(v[1] / v[0] - 1) for v in score.values()) < 0.01)
num("（割らない行は $8$）", "8", score["1/512*"][0])
num("最大の重みは $s$ とともに 0.0019 から 0.6943 まで増えます", "0.0019", score["0.0004"][4])
num("最大の重みは $s$ とともに 0.0019 から 0.6943 まで増えます", "0.6943", score["1/512*"][4])
fact("最大の重みは $s$ とともに 0.0019 から 0.6943 まで増えます", "increasing",
     all(score[a][4] <= score[b][4] for a, b in zip(["0.0004", "1/1024", "1/512", "1/288", "1/256"],
                                                   ["1/1024", "1/512", "1/288", "1/256", "1/512*"])))
num("この行の有効な参照数は平均 2.28", "2.28", score["1/512*"][3])
num("最大の重みは平均 0.6943 で", "0.6943", score["1/512*"][4])
num(r"ヤコビ行列の成分は $1 - 0.6943 = 0.3057$ 以下", "0.3057", 1 - score["1/512*"][4])
for key, lab in (("0.0004", "981.83"), ("1/1024", "796.25"), ("1/512", "400.11")):
    num("極限の値に近く（981.83、796.25、400.11）", lab, score[key][3])
    fact("極限の値に近く（981.83、796.25、400.11）", f"{lab} ~ n e^-s^2", abs(score[key][3] / score[key][2] - 1) < 0.07)
fact("$s \\le 1$ の 3 行", "3", sum(1 for v in score.values() if v[0] <= 1) == 3)
num("極限の 43.42 と 18.76 より大きい 87.77 と 60.26", "43.42", n_keys * math.exp(-(16 / 9) ** 2))
num("極限の 43.42 と 18.76 より大きい 87.77 と 60.26", "18.76", n_keys * math.exp(-4))
num("極限の 43.42 と 18.76 より大きい 87.77 と 60.26", "87.77", score["1/288"][3])
num("極限の 43.42 と 18.76 より大きい 87.77 と 60.26", "60.26", score["1/256"][3])
fact("極限の 43.42 と 18.76 より大きい 87.77 と 60.26", "larger",
     score["1/288"][3] > score["1/288"][2] and score["1/256"][3] > score["1/256"][2])
num(r"$1{,}024 \times 1{,}024$ の点数の行列", "1{,}024", n_keys)

# ---------------------------------------------------------------- 8 節
fact("この章で確かめたことは 3 つです。", "3",
     TEXT[TEXT.index("この章で確かめたことは 3 つです。"):].split("\n")[0].count("こと。") == 3)

# ---------------------------------------------------------------- 演習
a_u = math.sqrt(6 / (768 + 3072))
num(r"$a = \sqrt{6/(768 + 3{,}072)} = \sqrt{6/3{,}840} \approx 0.03953$", "3{,}840", 768 + 3072)
num(r"$a = \sqrt{6/(768 + 3{,}072)} = \sqrt{6/3{,}840} \approx 0.03953$", "0.03953", a_u)
num(r"標準偏差は $a/\sqrt3 = \sqrt{2/3{,}840} \approx 0.02282$", "0.02282", a_u / math.sqrt(3))
fact(r"標準偏差は $a/\sqrt3 = \sqrt{2/3{,}840} \approx 0.02282$", "a/sqrt3 = sqrt(2/3840)",
     abs(a_u / math.sqrt(3) - math.sqrt(2 / 3840)) < 1e-15)
num(r"分散では $(0.02282/0.02)^2 \approx 1.302$ 倍", "1.302", (a_u / math.sqrt(3) / 0.02) ** 2)
num(r"Xavier で $768 \times 2/3{,}840 = 0.4$", "0.4", 768 * 2 / 3840)
num(r"固定の 0.02 で $768 \times 0.0004 = 0.3072$", "0.3072", 768 * 0.02 ** 2)
num(r"$e^{-|z_1 - z_2|} < 1/19$", "19", 1 / (1 / 0.95 - 1))
num(r"$|z_1 - z_2| > \log 19 \approx 2.944$", "2.944", mlog(19))
for s, ratio_lab, sd_lab, p_lab in ((1, "2.082", "1.414", "0.03734"), (2, "1.041", "2.828", "0.2979")):
    t = mlog(19) / (msqrt(2) * s)
    snip = {1: r"$s = 1$ では $2.944/1.414 \approx 2.082$ で約 0.03734",
            2: r"$s = 2$ では $2.944/2.828 \approx 1.041$ で約 0.2979"}[s]
    num(snip, sd_lab, msqrt(2) * s)
    num(snip, ratio_lab, t)
    num(snip, p_lab, 2 * ncdf(-t))
p_small = 2 * ncdf(-mlog(19) / (msqrt(2) * 0.2048))
fact(r"$s = 0.2048$ では $10^{-23}$ より小さく", f"{float(p_small):.3e} < 1e-23", p_small < mp.mpf("1e-23"))

print(f"\n{n_ok} checks passed, {n_bad} failed")
sys.exit(1 if n_bad else 0)

"""tokenization.mdx の数値を定義から計算し直し、本文に印字された値と照合する。

使い方: python3 recompute_tokenization.py   （食い違いがあれば終了コード 1）
"""
import math
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "tokenization.mdx"), encoding="utf-8").read()
failures = 0
count = 0


def normalize(s):
    """本文の数の表記（{,} や , の桁区切り、− の負号）をそろえ、数の部分だけを取り出す。"""
    m = re.search(r"[-−]?\d[\d{},]*(?:\.\d+)?", s)
    return m.group().replace("{,}", "").replace(",", "").replace("−", "-")


def fmt_like(printed, value):
    """printed と同じ小数点以下の桁数で value を書く。"""
    p = normalize(printed)
    if "." in p:
        digits = len(p.split(".")[1])
        return "%.*f" % (digits, value)
    return "%d" % round(value)


def check(label, printed, value, context=None):
    """printed が本文にあり、value をその精度で丸めたものと一致するかを確かめる。"""
    global failures, count
    count += 1
    where = context if context is not None else printed
    present = where in TEXT and printed in where
    got = fmt_like(printed, value)
    ok = present and got == normalize(printed)
    if not ok:
        failures += 1
    print("%-4s %-52s printed %-16s computed %-16s%s"
          % ("ok" if ok else "FAIL", label, printed, got, "" if present else "  (not found in text)"))


def table_after(header_start):
    """header_start で始まる Markdown の表の行（ヘッダと区切りを除く）をセルのリストで返す。"""
    i = TEXT.index(header_start)
    lines = TEXT[i:].split("\n")
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


# ---------------------------------------------------------------- 2 節：BPE（定義 2.1 を直接実装）
def merge(w, a, b):
    out, i = [], 0
    while i < len(w):
        if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(w[i])
            i += 1
    return tuple(out)


def pair_counts(words):
    c = Counter()
    for w, f in words.items():
        for j in range(len(w) - 1):
            c[(w[j], w[j + 1])] += f
    return c


corpus = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
words = {tuple(k) + ("_",): f for k, f in corpus.items()}
V0 = sorted({s for w in words for s in w})
N = lambda ws: sum(len(w) * f for w, f in ws.items())
steps, vocab, cur = [], list(V0), dict(words)
while True:
    c = pair_counts(cur)
    if not c:
        break
    best = max(c.values())
    pair = min(p for p in c if c[p] == best)
    before = N(cur)
    cur = {merge(w, *pair): f for w, f in cur.items()}
    if pair[0] + pair[1] not in vocab:
        vocab.append(pair[0] + pair[1])
    steps.append((pair, best, len(vocab), N(cur), before - N(cur), dict(cur)))

check("|V_0| (基本の記号の数)", "11 個", len(V0), "`_ d e i l n o r s t w` の 11 個")
check("N_0 の項 4×5", "20", 4 * 5, "= 20 + 12 + 42 + 21 = 95")
check("N_0 の項 6×2", "12", 6 * 2, "= 20 + 12 + 42 + 21 = 95")
check("N_0 の項 7×6", "42", 7 * 6, "= 20 + 12 + 42 + 21 = 95")
check("N_0 の項 7×3", "21", 7 * 3, "= 20 + 12 + 42 + 21 = 95")
check("N_0", "95", N(words), "= 20 + 12 + 42 + 21 = 95")
c0 = pair_counts(words)
check("1 回目の候補 (e,s) の c", "c = 9", c0[("e", "s")], "で $c = 9$ となって並び")
check("1 回目の候補 (s,t) の c = (e,s) の c", "c = 9", c0[("s", "t")], "で $c = 9$ となって並び")
check("1 回目の候補 (t,_) の c = (e,s) の c", "c = 9", c0[("t", "_")], "で $c = 9$ となって並び")

rows = table_after("| $m$ | マージする対 |")
for r in rows:
    if r[0] == "0":
        check("表 m=0 |V_0|", r[3], len(V0), "| 0 | | | 11 | 95 | |")
        check("表 m=0 N_0", r[4], N(words), "| 0 | | | 11 | 95 | |")
    elif r[0] == "計":
        check("表 計 c の合計", r[2], sum(s[1] for s in steps[:10]), "| 計 | | 67 | | | 67 |")
        check("表 計 N の減少の合計", r[5], sum(s[4] for s in steps[:10]), "| 計 | | 67 | | | 67 |")
    else:
        m = int(r[0])
        pair, best, Vm, Nm, drop, _ = steps[m - 1]
        shown = tuple(x.strip().strip("`") for x in r[1].split("+"))
        ok = shown == pair
        count += 1
        failures += 0 if ok else 1
        print("%-4s %-52s printed %-16s computed %-16s" % ("ok" if ok else "FAIL", "表 m=%d の対" % m, r[1], " + ".join(pair)))
        check("表 m=%d c" % m, r[2], best, "| " + " | ".join(r) + " |")
        check("表 m=%d |V_m|" % m, r[3], Vm, "| " + " | ".join(r) + " |")
        check("表 m=%d N_m" % m, r[4], Nm, "| " + " | ".join(r) + " |")
        check("表 m=%d N_{m-1}-N_m" % m, r[5], drop, "| " + " | ".join(r) + " |")

check("95 - 28", "67", N(words) - steps[9][3], "$95 - 28 = 67$")
check("|V_10| = 11 + 10", "21", len(V0) + 10, "$|V_{10}| = 11 + 10 = 21$")
check("記号/トークン 95/28", "3.393", N(words) / steps[9][3], "$95/28 \\approx 3.393$")
lowest = ("l", "o", "w", "e", "s", "t", "_")
for s in steps[:10]:
    lowest = merge(lowest, *s[0])
check("lowest のトークン数", "2 トークン", len(lowest), "`low` + `est_` の 2 トークン")
bound = sum(len(w) - 1 for w in words)
check("命題 2.2 の 4 の上界", "20", bound, "4 の上界は $3 + 5 + 6 + 6 = 20$ 回")
check("GPT-2 の語彙 256 + 50,000 + 1", "50{,}257", 256 + 50000 + 1, "$256 + 50{,}000 + 1 = 50{,}257$")

# 演習 9.1
check("11 回目の c", "3", steps[10][1], "$28 - 3 = 25$")
check("11 回目のあとの N", "25", steps[10][3], "$28 - 3 = 25$")
check("12 回目のあとの N", "22", steps[11][3], "$25 - 3 = 22$")
ok = steps[10][0] == ("i", "dest_") and steps[11][0] == ("w", "idest_")
count += 1
failures += 0 if ok else 1
print("%-4s %-52s printed %-16s computed %-16s" % ("ok" if ok else "FAIL", "11・12 回目の対", "i+dest_, w+idest_",
                                                   "+".join(steps[10][0]) + ", " + "+".join(steps[11][0])))
check("1 トークンになるまでのマージ回数", "15 回", len(steps), "合計 15 回で")
check("最後の列の長さ = 単語の出現数", "16", steps[-1][3], "$5 + 2 + 6 + 3 = 16$")
check("上界との差", "5", bound - len(steps), "$20 - 15 = 5$")
check("最後の 3 回の c", "c = 2", max(s[1] for s in steps[12:]), "（どれも $c = 2$）")

# ---------------------------------------------------------------- 3 節：埋め込み行列
check("GPT-2 の埋め込み |V|d", "38,597,376", 50257 * 768, "構成では 38,597,376 個です")
check("one-hot 積の乗算 n|V|d", "39{,}523{,}713{,}024", 1024 * 50257 * 768,
      "$1024 \\times 50{,}257 \\times 768 = 39{,}523{,}713{,}024$")
d, L, Lctx = 768, 12, 1024
per_layer = 12 * d * d + 13 * d
rest = Lctx * d + L * per_layer + 2 * d
check("埋め込み以外 85,842,432", "85{,}842{,}432", rest, "$768\\,|V| + 85{,}842{,}432$")
check("1 層 12d^2+13d", "7{,}087{,}872", per_layer, "12 \\times 7{,}087{,}872")
check("位置 1024×768", "786{,}432", Lctx * d, "= 786{,}432 + 85{,}054{,}464 + 1{,}536$")
check("12 層", "85{,}054{,}464", L * per_layer, "= 786{,}432 + 85{,}054{,}464 + 1{,}536$")
check("最後の LN 2d", "1{,}536", 2 * d, "= 786{,}432 + 85{,}054{,}464 + 1{,}536$")
for r in table_after("| $\\lvert V\\rvert$ | 埋め込み"):
    V = int(normalize(r[0]))
    line = "| " + " | ".join(r) + " |"
    check("表 |V|=%d の |V|d" % V, r[1], V * d, line)
    check("表 |V|=%d の合計（共有あり）" % V, r[2], V * d + rest, line)
    check("表 |V|=%d の割合 (%%)" % V, r[3], 100 * V * d / (V * d + rest), line)
    check("表 |V|=%d の合計（共有なし）" % V, r[4], 2 * V * d + rest, line)
check("256,000 と 50,257 の合計の比", "2.270", (256000 * d + rest) / (50257 * d + rest),
      "$282{,}450{,}432 / 124{,}439{,}808 \\approx 2.270$")
check("位置埋め込み 1024×768", "786{,}432", 1024 * 768, "$1024 \\times 768 = 786{,}432$ 個です")

# ---------------------------------------------------------------- 4 節：重み共有の手計算（例 4.4）
E = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.6, 0.8]])
h = E[3]
z = E @ h
ez = np.exp(z)
p = ez / ez.sum()
ctx_z = "$\\boldsymbol{z} = (0.6,\\ 0.8,\\ -0.6,\\ 1)$"
for i, s in enumerate(("0.6", "0.8", "-0.6", "1")):
    check("z_%d" % (i + 1), s, z[i], ctx_z)
check("ノルムがすべて 1", "1", float(np.linalg.norm(E, axis=1).max()), "どれもノルムは 1 です")
for s, v in (("1.8221", ez[0]), ("2.2255", ez[1]), ("0.5488", ez[2]), ("2.7183", ez[3])):
    check("e^z", s, v, "$e^{0.6} = 1.8221$、$e^{0.8} = 2.2255$、$e^{-0.6} = 0.5488$、$e = 2.7183$")
check("分母", "7.3148", ez.sum(), "の和は 7.3148 なので")
ctx_p = "$\\boldsymbol{p} = (0.2491,\\ 0.3043,\\ 0.0750,\\ 0.3716)$"
for i, s in enumerate(("0.2491", "0.3043", "0.0750", "0.3716")):
    check("p_%d" % (i + 1), s, p[i], ctx_p)
ok = int(np.argmax(p)) == 3
count += 1
failures += 0 if ok else 1
print("%-4s %-52s printed %-16s computed %-16s" % ("ok" if ok else "FAIL", "最大の確率の添字", "p_4", "p_%d" % (np.argmax(p) + 1)))
check("損失 -log p_2", "1.1899", -math.log(p[1]), "$-\\log 0.3043 \\approx 1.1899$")
Gout = np.outer(p - np.eye(4)[1], h)
mat = re.search(r"\\begin\{pmatrix\} (0\.1495.*?)\\end\{pmatrix\}", TEXT).group(1)
entries = [x.strip() for row in mat.split("\\\\") for x in row.split("&")]
for k, (s, v) in enumerate(zip(entries, Gout.ravel())):
    check("勾配行列 (%d,%d)" % (k // 2 + 1, k % 2 + 1), s, v, mat)
pe = p - np.eye(4)[1]
ctx_pe = "= (0.2491,\\ -0.6957,\\ 0.0750,\\ 0.3716)$"
for s, v in zip(("0.2491", "-0.6957", "0.0750", "0.3716"), pe):
    check("p - e_2", s, v, ctx_pe)
check("p - e_2 の成分の和", "0", pe.sum(), "の成分の和は 0 なので")
check("第 1 列の係数 h_1", "0.6", h[0], "第 1 列は $0.6\\,(\\boldsymbol{p}")
check("第 2 列の係数 h_2", "0.8", h[1], "第 2 列は $0.8\\,(\\boldsymbol{p}")
rounded_col1 = sum(float(x) for x in entries[0::2])
check("丸めた第 1 列の和", "0.0001", rounded_col1, "第 1 列は丸めの誤差で 0.0001 になります")
check("丸めた第 2 列の和", "0", sum(float(x) for x in entries[1::2]) * 1.0, "列の和はどちらも 0 です")

# ---------------------------------------------------------------- 5 節：正弦波の位置符号化
d = 8
w = 10000.0 ** (-2 * np.arange(d // 2) / d)
for s, v in zip(("1", "0.1", "0.01", "0.001"), w):
    check("omega_k (d = 8)", s, v, "$\\omega_k = 1,\\ 0.1,\\ 0.01,\\ 0.001$")
per = 2 * np.pi / w
for s, v in zip(("6.2832", "62.83", "628.3", "6283"), per):
    check("周期 2π/omega_k", s, v, "周期は約 6.2832、62.83、628.3、6283 です")


def PE(q):
    out = np.empty(d)
    out[0::2], out[1::2] = np.sin(w * q), np.cos(w * q)
    return out


f = lambda D: float(np.cos(w * D).sum())
m = re.search(r"\\mathrm\{PE\}\(1\) = \(([^)]*)\)", TEXT)
for s, v in zip([x.strip() for x in m.group(1).replace("\\ ", "").split(",")], PE(1)):
    check("PE(1) の成分", s, v, m.group(1))
for r in table_after("| $\\Delta$ | $\\cos\\Delta$"):
    D = int(r[0])
    line = "| " + " | ".join(r) + " |"
    for j in range(4):
        check("表 Δ=%d の cos(ω_%d Δ)" % (D, j + 1), r[1 + j], math.cos(w[j] * D), line)
    check("表 Δ=%d の f(Δ)" % D, r[5], f(D), line)
check("<PE(3),PE(5)> = f(2)", "2.5637", float(PE(3) @ PE(5)), "どちらも $f(2) = 2.5637$ です")
check("<PE(10),PE(12)> = f(2)", "2.5637", float(PE(10) @ PE(12)), "どちらも $f(2) = 2.5637$ です")
check("f(6)", "3.7837", f(6), "$\\Delta = 6$ の値 3.7837")
check("f(1)", "3.5353", f(1), "$\\Delta = 1$ の 3.5353")
check("2π", "6.2832", 2 * math.pi, "周期 $2\\pi \\approx 6.2832$ に近く")
Fs = np.array([f(D) for D in range(1, 2048)])
check("f が最大になる Δ (1..2047)", "63", int(Fs.argmax()) + 1, "$\\Delta = 63 \\approx 20\\pi$")
check("20π ≈ 63", "63", 20 * math.pi, "$\\Delta = 63 \\approx 20\\pi$")
check("f(63)", "3.7918", Fs.max(), "$f(63) = 3.7918$")
check("距離 sqrt(8 - 2 f(63))", "0.6453", math.sqrt(8 - 2 * Fs.max()), "\\approx 0.6453$")
check("式の中の f(63)", "3.7918", Fs.max(), "$\\sqrt{8 - 2 \\times 3.7918} \\approx 0.6453$")
check("隣の距離 sqrt(8 - 2 f(1))", "0.9641", math.sqrt(8 - 2 * f(1)), "\\approx 0.9641$")
check("式の中の f(1)", "3.5353", f(1), "$\\sqrt{8 - 2 \\times 3.5353} \\approx 0.9641$")
check("d/2 (d = 8)", "4", d / 2, "ノルムの 2 乗が $d/2 = 4$ で")
check("|V|d = 21×8", "168", 21 * 8, "$|V|\\,d = 21 \\times 8 = 168$")
newer = tuple("newer") + ("_",)
for s in steps[:10]:
    newer = merge(newer, *s[0])
check("newer のトークン数", "5 トークン", len(newer), "`newer` はコーパスに無い単語で、5 トークンに分かれます")
check("lowest newer のトークン数", "7", len(lowest) + len(newer), "`lowest newer` の 7 トークン")

# ---------------------------------------------------------------- 演習 9.3
Vs, ds, Ls, Lc = 1000, 64, 4, 128
tied = Vs * ds + Lc * ds + Ls * (12 * ds * ds + 13 * ds) + 2 * ds
check("演習 11.1［Transformer ブロック］の総数", "272,256", tied, "共有ありの 272,256 個")
check("出力側 1000×64", "64{,}000", Vs * ds, "$1000 \\times 64 = 64{,}000$")
check("共有なしの総数", "336{,}256", tied + Vs * ds, "$336{,}256$ 個です")
check("2 つの行列", "128{,}000", 2 * Vs * ds, "2 つの行列は $128{,}000$ 個")
check("割合（共有なし）", "38.1", 100 * 2 * Vs * ds / (tied + Vs * ds), "\\approx 38.1\\,\\%$")
check("位置 128×64", "8{,}192", Lc * ds, "$128 \\times 64 = 8{,}192$")
check("正弦波・共有なしの総数", "328{,}064", tied + Vs * ds - Lc * ds, "$328{,}064$ 個で")
check("割合（正弦波・共有なし）", "39.0", 100 * 2 * Vs * ds / (tied + Vs * ds - Lc * ds), "\\approx 39.0\\,\\%$")

# ---------------------------------------------------------------- 7 節のコードを実行し、印字された出力と比べる
blocks = re.findall(r"```(python|text)\n(.*?)\n```", TEXT, flags=re.S)
pairs = [(blocks[i][1], blocks[i + 1][1]) for i in range(len(blocks) - 1)
         if blocks[i][0] == "python" and blocks[i + 1][0] == "text"]
names = ["bpe.py", "embeddings.py"]
with tempfile.TemporaryDirectory() as tmp:
    for name, (code, _) in zip(names, pairs):
        open(os.path.join(tmp, name), "w", encoding="utf-8").write(code + "\n")
    for name, (_, printed) in zip(names, pairs):
        out = subprocess.run([sys.executable, name], cwd=tmp, capture_output=True, text=True).stdout.rstrip("\n")
        ok = out == printed
        count += 1
        failures += 0 if ok else 1
        print("%-4s listing %s: output %s the printed output (%d lines)"
              % ("ok" if ok else "FAIL", name, "matches" if ok else "differs from", len(printed.splitlines())))
        if not ok:
            for a, b in zip(out.splitlines(), printed.splitlines()):
                if a != b:
                    print("     run:     " + a + "\n     printed: " + b)

print("%d checks, %d failures" % (count, failures))
sys.exit(1 if failures else 0)

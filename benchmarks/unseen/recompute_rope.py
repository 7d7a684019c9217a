"""rope.mdx に印刷されたすべての数を定義から計算し直し、印刷された精度で照合する。

- 本文・例・演習の数は (本文の断片, 断片の中の数, 計算式) の組で照合する。
  断片が本文にそのまま現れることも確かめる。
- 表は本文から Markdown の表を読み取り、各セルを計算値と照合する。
- コードの一覧は一時ディレクトリで実行し、出力が直後の text ブロックと完全に一致するか確かめる。
一つでも食い違えば終了コード 1 で終わる。
"""
import math
import pathlib
import re
import subprocess
import sys
import tempfile

import mpmath as mp
import numpy as np

mp.mp.dps = 40
HERE = pathlib.Path(__file__).resolve().parent
DOC = (HERE / "rope.mdx").read_text(encoding="utf-8")
results = []          # (ok, label)


def parse_number(text):
    """'3{,}145{,}728'、'6.285 \\times 10^{-4}'、'-0.8489'、'54,410' などを (仮数の文字列, 指数) にする。"""
    t = text.replace("{,}", "").replace(",", "").replace("−", "-").replace(" ", "").replace("$", "")
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)(?:\\times10\^\{(-?\d+)\})?", t)
    if not m:
        raise ValueError(f"cannot parse {text!r}")
    return m.group(1), int(m.group(2) or 0)


def matches(number_text, value, sig=None):
    mant, exp = parse_number(number_text)
    value = float(value)
    if sig is not None:
        return math.isclose(float(f"{value:.{sig}g}"), float(mant) * 10.0 ** exp, rel_tol=1e-12, abs_tol=0.0)
    dp = len(mant.split(".")[1]) if "." in mant else 0
    got = f"{value / 10.0 ** exp:.{dp}f}"
    if got.startswith("-") and float(got) == 0.0:
        got = got[1:]
    return got == mant


def chk(snippet, number_text, value, sig=None):
    """snippet が本文にあり、その中の number_text が value を印刷された精度で表していることを確かめる。"""
    present = snippet in DOC and number_text in snippet
    ok = present and matches(number_text, value, sig)
    shown = f"{float(value):.10g}"
    print(f"{'OK' if ok else 'NG'}  {number_text:>22}  computed {shown:>18}  | {snippet[:60]}")
    if not present:
        print("    ^ snippet not found in rope.mdx")
    results.append((ok, snippet))


def table_rows(first_header_cell):
    """先頭のセルが first_header_cell である表を探し、{行の先頭セル: [セル, ...]} を返す。"""
    lines = DOC.splitlines()
    for idx, line in enumerate(lines):
        if line.startswith("|") and line.split("|")[1].strip() == first_header_cell:
            rows = {}
            for row in lines[idx:]:
                if not row.startswith("|"):
                    break
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                if set(cells[0]) <= set("-"):
                    continue
                rows[cells[0]] = cells[1:]
            return rows
    raise KeyError(first_header_cell)


def chk_cell(table, label, cell_text, value, sig=None):
    ok = cell_text != "" and matches(cell_text, value, sig)
    print(f"{'OK' if ok else 'NG'}  {cell_text:>22}  computed {float(value):>18.10g}  | table {table}: {label}")
    results.append((ok, f"{table}:{label}"))


# ---------------------------------------------------------------- 定義から作る量
def theta(d, base=10000):
    return [mp.mpf(base) ** (-mp.mpf(2 * (i - 1)) / d) for i in range(1, d // 2 + 1)]


def lam(d, base=10000):
    return [2 * mp.pi / t for t in theta(d, base)]


def pe(t, d=8, base=10000):
    out = []
    for th in theta(d, base):
        out += [mp.sin(t * th), mp.cos(t * th)]
    return out


def rot(phi):
    return mp.matrix([[mp.cos(phi), -mp.sin(phi)], [mp.sin(phi), mp.cos(phi)]])


def rope_vec(x, m, base=10000):
    d = len(x)
    out = []
    for i, th in enumerate(theta(d, base)):
        v = rot(m * th) * mp.matrix([x[2 * i], x[2 * i + 1]])
        out += [v[0], v[1]]
    return out


def dot(u, v):
    return mp.fsum(a * b for a, b in zip(u, v))


def B(r, d=128, base=10000):
    th = theta(d, base)
    s, acc = mp.mpc(0), mp.mpf(0)
    for t in th:
        s += mp.expj(r * t)
        acc += abs(s)
    return acc / len(th)


def slopes(H):
    return [mp.mpf(2) ** (-mp.mpf(8) * h / H) for h in range(1, H + 1)]


def E_alibi(m, i):
    """内容の点数がすべて等しいときの見る距離の期待値（定義どおりの和）。"""
    w = [mp.e ** (-m * k) for k in range(i)]
    return mp.fsum(k * wk for k, wk in enumerate(w)) / mp.fsum(w)


def E_closed(m, i):
    rho = mp.e ** (-m)
    return rho / (1 - rho) - i * rho ** i / (1 - rho ** i)


def count_long(d, base, L):
    return sum(1 for l in lam(d, base) if l > L)


# ---------------------------------------------------------------- 0・2 節
chk("距離 1,024 で距離 0 の約 12.4 %", "12.4", 100 * B(1024) / B(0))
chk("10000^{510/512} \\approx 60{,}611", "60{,}611", 2 * mp.pi * mp.mpf(10000) ** (mp.mpf(510) / 512))

# 例：d = 8 の周波数と波長（表と本文）
T1 = table_rows("$i$")
th8, lam8 = theta(8), lam(8)
for i in range(1, 5):
    row = T1[str(i)]
    chk_cell("d=8", f"theta_{i}", row[0], th8[i - 1], sig=4)
    chk_cell("d=8", f"lambda_{i}", row[1], lam8[i - 1], sig=4)
    if i > 1:
        chk_cell("d=8", f"lambda ratio {i}", row[2], lam8[i - 1] / lam8[i - 2], sig=4)
    else:
        results.append((row[2] == "", "d=8: empty ratio in row 1"))
    chk_cell("d=8", f"turns at m=100, pair {i}", row[3], 100 * th8[i - 1] / (2 * mp.pi), sig=4)
chk("$b^{2/d} = 10000^{1/4} = 10$", "10", mp.mpf(10000) ** (mp.mpf(2) / 8))
chk("第 1 組は 15.92 回転", "15.92", 100 * th8[0] / (2 * mp.pi))
chk("$100 \\times 0.001 = 0.1$", "0.1", 100 * th8[3])
chk("約 $5.730°$", "5.730", mp.degrees(100 * th8[3]))

# ---------------------------------------------------------------- 3 節
p0, p1, p44 = pe(0), pe(1), pe(44)
pe1_text = "(0.8415,\\ 0.5403,\\ 0.0998,\\ 0.9950,\\ 0.0100,\\ 1.0000,\\ 0.0010,\\ 1.0000)"
for txt, val in zip(re.findall(r"-?\d\.\d{4}", pe1_text), p1):
    chk(pe1_text, txt, val)
chk("ノルムは $\\sqrt{8/2} = 2$", "2", mp.sqrt(dot(p0, p0)))
chk("ノルムは $\\sqrt{8/2} = 2$", "2", mp.sqrt(dot(p1, p1)))
R1 = rot(-1)
r1_text = "R(-1) = \\begin{pmatrix} 0.5403 & 0.8415 \\\\ -0.8415 & 0.5403\\end{pmatrix}"
for txt, val in zip(["0.5403", "0.8415", "-0.8415", "0.5403"], [R1[0, 0], R1[0, 1], R1[1, 0], R1[1, 1]]):
    chk(r1_text, txt, val)
img = R1 * mp.matrix([0, 1])
chk("$(0, 1)$ を $(0.8415, 0.5403)$ に写します", "0.8415", img[0])
chk("$(0, 1)$ を $(0.8415, 0.5403)$ に写します", "0.5403", img[1])
chk("\\cos 0.001 \\approx 3.5353$ で", "3.5353", dot(p0, p1))
chk("\\langle\\mathrm{PE}(t), \\mathrm{PE}(t+1)\\rangle \\approx 3.5353$", "3.5353", dot(pe(17), pe(18)))
chk("$44 - 14\\pi \\approx 0.0177$", "0.0177", 44 - 14 * mp.pi)
chk("(\\sin 44, \\cos 44) \\approx (0.0177,\\ 0.9998)", "0.0177", mp.sin(44))
chk("(\\sin 44, \\cos 44) \\approx (0.0177,\\ 0.9998)", "0.9998", mp.cos(44))
chk("第 2 組は $4.4$ ラジアン", "4.4", 44 * th8[1])
cos44 = mp.fsum(mp.cos(44 * t) for t in th8)
chk("8 - 2 \\times 2.5963 \\approx 2.8074", "2.5963", cos44)
chk("8 - 2 \\times 2.5963 \\approx 2.8074", "2.8074", dot([a - b for a, b in zip(p44, p0)], [a - b for a, b in zip(p44, p0)]))
chk("距離は約 $1.6755$", "1.6755", mp.sqrt(dot([a - b for a, b in zip(p44, p0)], [a - b for a, b in zip(p44, p0)])))

# ---------------------------------------------------------------- 4 節：例
q8, k8 = [1, 0] * 4, [1] * 8
contrib = [mp.cos(3 * t) + mp.sin(3 * t) for t in th8]
chk("$\\cos 3 + \\sin 3 = -0.9900 + 0.1411 = -0.8489$", "-0.9900", mp.cos(3))
chk("$\\cos 3 + \\sin 3 = -0.9900 + 0.1411 = -0.8489$", "0.1411", mp.sin(3))
chk("$\\cos 3 + \\sin 3 = -0.9900 + 0.1411 = -0.8489$", "-0.8489", contrib[0])
chk("第 2 組が $1.2509$", "1.2509", contrib[1])
chk("第 3 組が $1.0295$", "1.0295", contrib[2])
chk("第 4 組が $1.0030$", "1.0030", contrib[3])
chk("で、合計 $2.4345$ です", "2.4345", dot(rope_vec(q8, 5), rope_vec(k8, 2)))
rq, rk = rot(5) * mp.matrix([1, 0]), rot(2) * mp.matrix([1, 1])
chk("R(5)(1, 0)^{\\mathsf{T}} \\approx (0.2837, -0.9589)", "0.2837", rq[0])
chk("R(5)(1, 0)^{\\mathsf{T}} \\approx (0.2837, -0.9589)", "-0.9589", rq[1])
chk("R(2)(1, 1)^{\\mathsf{T}} \\approx (-1.3254,\\ 0.4932)", "-1.3254", rk[0])
chk("R(2)(1, 1)^{\\mathsf{T}} \\approx (-1.3254,\\ 0.4932)", "0.4932", rk[1])
chk("の内積が約 $-0.8489$ です", "-0.8489", rq[0] * rk[0] + rq[1] * rk[1])
chk("なので点数は同じ $2.4345$ です", "2.4345", dot(rope_vec(q8, 12), rope_vec(k8, 9)))
c3, s3 = mp.fsum(mp.cos(3 * t) for t in th8), mp.fsum(mp.sin(3 * t) for t in th8)
chk("$\\sum_i\\cos(3\\theta_i) \\approx 1.9649$", "1.9649", c3)
chk("$\\sum_i\\sin(3\\theta_i) \\approx 0.4696$", "0.4696", s3)
chk("点数は $1.9649 - 0.4696 = 1.4953$ です", "1.4953", dot(rope_vec(q8, 2), rope_vec(k8, 5)))

# 注意：費用
d, n = 768, 1024
chk("$4 \\times 1024 \\times 768 = 3{,}145{,}728$", "3{,}145{,}728", 4 * n * d)
chk("$4nd^2 = 2{,}415{,}919{,}104$", "2{,}415{,}919{,}104", 4 * n * d * d)
chk("の $1/768$、約 0.1302 %", "0.1302", 100 * (4 * n * d) / (4 * n * d * d))
chk("$1024 \\times 768 = 786{,}432$", "786{,}432", 1024 * 768)

# ---------------------------------------------------------------- 5 節
T3 = table_rows("$r$")
rs = [int(c) for c in T3["$r$"]]
for j, r in enumerate(rs):
    chk_cell("B(r)", f"B({r})", T3["$B(r)$"][j], B(r))
    chk_cell("B(r)", f"B({r})/B(0)", T3["$B(r)/B(0)$"][j], B(r) / B(0))
chk("$B(0) = 65/2 = 32.5$", "32.5", B(0))
chk("距離 1,024 では約 12.4 % まで", "12.4", 100 * B(1024) / B(0))
chk("$B(4096) = 4.883$", "4.883", B(4096))
chk("$B(1024) = 4.024$", "4.024", B(1024))

# 横向きの表（先頭セルが $i$ の表は 2 つあるので、行の中身で探す）
lines = [l for l in DOC.splitlines() if l.startswith("| $i$ | 1 | 17")]
idx = DOC.splitlines().index(lines[0])
rows2 = {}
for row in DOC.splitlines()[idx:]:
    if not row.startswith("|"):
        break
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if not set(cells[0]) <= set("-"):
        rows2[cells[0]] = cells[1:]
th128, lam128 = theta(128), lam(128)
for j, i_txt in enumerate(rows2["$i$"]):
    i = int(i_txt)
    chk_cell("d=128 pairs", f"theta_{i}", rows2["$\\theta_i$"][j], th128[i - 1], sig=4)
    chk_cell("d=128 pairs", f"lambda_{i}", rows2["$\\lambda_i$"][j], lam128[i - 1], sig=4)
    chk_cell("d=128 pairs", f"2048/lambda_{i}", rows2["$2048/\\lambda_i$"][j], 2048 / lam128[i - 1], sig=4)
x2048 = 64 * mp.log(2048 / (2 * mp.pi)) / mp.log(10000)
chk("$64 \\times 5.7867/9.2103 \\approx 40.21$", "5.7867", mp.log(2048 / (2 * mp.pi)))
chk("$64 \\times 5.7867/9.2103 \\approx 40.21$", "9.2103", mp.log(10000))
chk("$64 \\times 5.7867/9.2103 \\approx 40.21$", "40.21", x2048)
chk("なので $i \\ge 42$", "42", min(i for i in range(1, 65) if lam128[i - 1] > 2048))
chk("$64 - 41 = 23$ 組", "23", count_long(128, 10000, 2048))
chk("$64 - 41 = 23$ 組", "41", 64 - count_long(128, 10000, 2048))
chk("23$ 組（約 35.9 %）", "35.9", 100 * count_long(128, 10000, 2048) / 64)

# ---------------------------------------------------------------- 6 節
m8, m16 = slopes(8), slopes(16)
chk("$-1000/256 \\approx -3.906$", "-3.906", -1000 * m8[7])
chk("第 1 ヘッド（$m_1 = 1/2$）では $-500$", "-500", -1000 * m8[0])
chk("$m_H = 2^{-8} = 1/256$", "256", 1 / slopes(5)[-1])
chk("和は $255/256 \\approx 0.99609$", "0.99609", mp.fsum(m8))
chk("和は $255/256 \\approx 0.99609$", "255", 256 * mp.fsum(m8))
chk("$\\rho_{16} = 2^{-1/2} \\approx 0.7071$", "0.7071", m16[0])
chk("(\\sqrt2 + 1) \\approx 2.40478$", "2.40478", mp.fsum(m16))
chk("(\\sqrt2 + 1) \\approx 2.40478$", "2.40478", (1 - mp.mpf(2) ** -8) * (mp.sqrt(2) + 1))
results.append((bool(np.allclose([float(v) for v in m16[1::2]], [float(v) for v in m8])), "H=16 even = H=8"))

T4 = table_rows("$h$")
for h in range(1, 9):
    j = h - 1
    m = m8[j]
    frac = T4["$m_h$"][j]
    ok = frac == f"1/{int(1 / m)}" and mp.almosteq(1 / m, int(1 / m))
    print(f"{'OK' if ok else 'NG'}  {frac:>22}  computed {float(m):>18.10g}  | table ALiBi: m_{h}")
    results.append((ok, f"ALiBi m_{h}"))
    chk_cell("ALiBi", f"exp(-m_{h})", T4["$e^{-m_h}$"][j], mp.e ** (-m))
    chk_cell("ALiBi", f"1/(e^m-1) h={h}", T4["$1/(e^{m_h} - 1)$"][j], 1 / (mp.e ** m - 1))
    chk_cell("ALiBi", f"E_1024 h={h}", T4["$E_{1024}$"][j], E_closed(m, 1024))
    results.append((mp.almosteq(E_closed(m, 1024), E_alibi(m, 1024), 1e-20), f"closed form = sum, h={h}"))
    results.append((1 / (mp.e ** m - 1) < 1 / m, f"limit < 1/m, h={h}"))
tot = T4["$m_h$"][8]
ok = tot == "255/256" and mp.almosteq(mp.fsum(m8), mp.mpf(255) / 256)
print(f"{'OK' if ok else 'NG'}  {tot:>22}  computed {float(mp.fsum(m8)):>18.10g}  | table ALiBi: total")
results.append((ok, "ALiBi total"))
chk("$1/m_8 = 256$", "256", 1 / m8[7])
chk("極限の 255.5003 より小さい 236.40", "255.5003", 1 / (mp.e ** m8[7] - 1))
chk("極限の 255.5003 より小さい 236.40", "236.40", E_closed(m8[7], 1024))
rho = mp.e ** (-m8[0])
chk("$\\rho = e^{-1/2} \\approx 0.6065$", "0.6065", rho)
den = 1 + rho + rho ** 2 + rho ** 3
chk("1 + \\rho + \\rho^2 + \\rho^3 \\approx 2.1975", "2.1975", den)
w_text = "(0.1015,\\ 0.1674,\\ 0.2760,\\ 0.4551)"
for txt, val in zip(["0.1015", "0.1674", "0.2760", "0.4551"], [rho ** 3 / den, rho ** 2 / den, rho / den, 1 / den]):
    chk(w_text, txt, val)
chk("期待値は $1.5415 - 4e^{-2}/(1 - e^{-2}) \\approx 1.5415 - 0.6261 = 0.9154$", "1.5415", rho / (1 - rho))
chk("期待値は $1.5415 - 4e^{-2}/(1 - e^{-2}) \\approx 1.5415 - 0.6261 = 0.9154$", "0.6261", 4 * mp.e ** -2 / (1 - mp.e ** -2))
chk("期待値は $1.5415 - 4e^{-2}/(1 - e^{-2}) \\approx 1.5415 - 0.6261 = 0.9154$", "0.9154", E_alibi(m8[0], 4))
results.append((mp.almosteq(E_closed(m8[0], 4), E_alibi(m8[0], 4), 1e-30), "E_4 closed form"))

# ---------------------------------------------------------------- 7 節の本文（コードと同じ乱数列で計算し直す）
rng = np.random.default_rng(0)
rng.standard_normal((2, 1000, 128))
mm = 2.0 ** (-8.0 * np.arange(1, 9) / 8)
dist512 = np.arange(511, -1, -1.0)


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


far = max(softmax(rng.uniform(-1, 1, 512) - mm[1] * dist512)[: 512 - 32].sum() for _ in range(200))
chk("重みの合計の最大が $6.285 \\times 10^{-4}$", "6.285 \\times 10^{-4}", far)
chk("$e^{2 - 8} = e^{-6} \\approx 2.479 \\times 10^{-3}$", "2.479 \\times 10^{-3}", mp.e ** (2 - 32 * mp.mpf(1) / 4))
results.append((far <= math.exp(-6), "far weight <= e^{-6}"))
X = rng.standard_normal((6, 64))
WQ, WK = rng.standard_normal((2, 64, 64)) / 8


def rope_np(x, pos):
    a = np.multiply.outer(np.asarray(pos, dtype=float), 10000.0 ** (-2.0 * np.arange(32) / 64))
    c, s = np.cos(a), np.sin(a)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., 0::2] * s + x[..., 1::2] * c
    return out


def weights(X, pos):
    return softmax(rope_np(X @ WQ, pos) @ rope_np(X @ WK, pos).T / 8)


p = [1, 0, 2, 3, 4, 5]
A = weights(X, np.arange(6))
chk("$PAP^{\\mathsf{T}}$ と $1.6 \\times 10^{-1}$ 違います", "1.6 \\times 10^{-1}", np.abs(weights(X[p], np.arange(6)) - A[p][:, p]).max())
results.append((np.abs(weights(X, np.arange(6) + 1000) - A).max() < 1e-12, "shift invariance"))
chk("隣どうしの内積がどの位置でも 3.5353", "3.5353", dot(pe(3), pe(4)))
chk("<Ref to=\"ex-sinusoid-d8\" /> の距離 1.6755", "1.6755", mp.sqrt(8 - 2 * cos44))

# ---------------------------------------------------------------- 演習
lg = mp.log(8192 / (2 * mp.pi))
chk("$\\log(8192/2\\pi) \\approx 7.1730$", "7.1730", lg)
chk("$\\log b \\approx 9.2103$ で $x \\approx 49.84$", "9.2103", mp.log(10000))
chk("$\\log b \\approx 9.2103$ で $x \\approx 49.84$", "49.84", 64 * lg / mp.log(10000))
chk("個数は $63 - 49 = 14$ です", "49", mp.floor(64 * lg / mp.log(10000)))
chk("個数は $63 - 49 = 14$ です", "14", count_long(128, 10000, 8192))
chk("$\\log b \\approx 13.1224$ で $x \\approx 34.98$", "13.1224", mp.log(500000))
chk("$\\log b \\approx 13.1224$ で $x \\approx 34.98$", "34.98", 64 * lg / mp.log(500000))
chk("個数は $63 - 34 = 29$ です", "34", mp.floor(64 * lg / mp.log(500000)))
chk("個数は $63 - 34 = 29$ です", "29", count_long(128, 500000, 8192))
results.append((63 - 49 == count_long(128, 10000, 8192) and 63 - 34 == count_long(128, 500000, 8192), "63 - floor(x)"))
ones = [1, 0] * 4
chk("\\cos 0.003 \\approx 1.9649$", "1.9649", dot(rope_vec(ones, 0), rope_vec(ones, 3)))
chk("\\cos 0.003 \\approx 1.9649$", "1.9649", dot(pe(0), pe(3)))
chk("$|n - m| = 6$ では約 $3.7837$", "3.7837", dot(rope_vec(ones, 10), rope_vec(ones, 4)))
chk("$|n - m| = 6$ では約 $3.7837$", "3.7837", dot(pe(4), pe(10)))
chk("波長 $2\\pi \\approx 6.2832$", "6.2832", lam8[0])
chk("（$\\cos 6 \\approx 0.9602$）", "0.9602", mp.cos(6))
chk("（$\\cos 3 \\approx -0.9900$）", "-0.9900", mp.cos(3))

# ---------------------------------------------------------------- 命題の数値による確認（印刷された数ではないが式の確認）
rng2 = np.random.default_rng(123)
for _ in range(20):
    qv, kv = rng2.standard_normal(8), rng2.standard_normal(8)
    mq, nk = (mp.mpf(float(v)) for v in rng2.uniform(-50, 50, 2))   # 角度の差を mpmath の精度で取る
    lhs = dot(rope_vec(list(qv), mq), rope_vec(list(kv), nk))
    rhs = dot(list(qv), rope_vec(list(kv), nk - mq))
    qc = [complex(qv[2 * i], qv[2 * i + 1]) for i in range(4)]
    kc = [complex(kv[2 * i], kv[2 * i + 1]) for i in range(4)]
    cplx = mp.re(mp.fsum(mp.mpc(a) * mp.conj(mp.mpc(b)) * mp.expj((mq - nk) * t) for a, b, t in zip(qc, kc, th8)))
    results.append((mp.almosteq(lhs, rhs, 1e-25) and mp.almosteq(lhs, cplx, 1e-12), "RoPE relative / complex form"))
results.append((all(mp.almosteq(B(-r), B(r), 1e-25) and B(r) <= B(0) for r in (1, 7, 300)), "B symmetric, B <= B(0)"))

# ---------------------------------------------------------------- コードの一覧
blocks = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", DOC, flags=re.S)
for k, (code, printed) in enumerate(blocks, start=1):
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "rope.py"
        path.write_text(code, encoding="utf-8")
        run = subprocess.run([sys.executable, str(path)], cwd=tmp, capture_output=True, text=True)
    ok = run.returncode == 0 and run.stdout == printed
    print(f"{'OK' if ok else 'NG'}  listing {k}: output {'matches' if ok else 'DIFFERS'} ({len(printed.splitlines())} lines)")
    if not ok:
        print(run.stdout, run.stderr)
    results.append((ok, f"listing {k}"))
results.append((len(blocks) == 1, "one listing found"))

n_bad = sum(1 for ok, _ in results if not ok)
print(f"\n{len(results) - n_bad} / {len(results)} checks passed")
for ok, label in results:
    if not ok:
        print("FAILED:", label)
sys.exit(1 if n_bad else 0)

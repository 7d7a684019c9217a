"""alibi.txt に印字した数値を定義から計算し直して照合する。

各数値について「本文の断片・印字された数・計算した値」を並べ、断片が本文にそのまま
現れること、計算した値を印字された桁数で丸めると印字された数になることを確かめる。
表は行ごとに計算した値から行全体の文字列を組み立て、本文の行と完全に一致するかを見る。
最後に 2 つのコードを本文から取り出してメモリ上で実行し、印字された出力と比べる。
1 つでも食い違えば終了コード 1。
"""
import contextlib
import io
import math
import os
import re
import sys
import types

import mpmath as mp
import numpy as np

mp.mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "alibi.txt"), encoding="utf-8").read()
LINES = TEXT.split("\n")

n_checked = 0
failures = []


def report(ok, label, printed, computed):
    global n_checked
    n_checked += 1
    print(("ok   " if ok else "FAIL ") + f"{label}: printed {printed!r}, computed {computed}")
    if not ok:
        failures.append(label)


def format_like(printed, value):
    """value を printed と同じ書式（小数の桁数・有効数字・10 のべき・% ・桁区切り）で書く。"""
    value = float(value)
    p = printed.replace("{,}", "").replace(",", "").replace("−", "-").strip()
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)\s*\\times\s*10\^\{(-?\d+)\}", p)
    if m:
        mant, exp = m.group(1), int(m.group(2))
        dec = len(mant.split(".")[1]) if "." in mant else 0
        e = math.floor(math.log10(abs(value)))
        s = f"{value / 10.0 ** e:.{dec}f}"
        if abs(float(s)) >= 10:                       # 9.9996 -> 10.000 のような繰り上がり
            e += 1
            s = f"{value / 10.0 ** e:.{dec}f}"
        return f"{s} \\times 10^{{{e}}}", f"{mant} \\times 10^{{{exp}}}"
    if p.endswith("%"):
        num = p[:-1].strip()
        dec = len(num.split(".")[1]) if "." in num else 0
        return f"{100 * value:.{dec}f}", num
    dec = len(p.split(".")[1]) if "." in p else 0
    return f"{value:.{dec}f}", p


def num(fragment, printed, value):
    """本文の断片 fragment に printed が含まれ、value を同じ桁で丸めると printed になるか。"""
    if fragment not in TEXT:
        report(False, f"fragment not found: {fragment[:50]}", printed, value)
        return
    if printed not in fragment:
        report(False, f"number not in fragment: {fragment[:50]}", printed, value)
        return
    got, want = format_like(printed, value)
    report(got == want, fragment[:60], printed, got)


def table_row(cells, label, n_labels=1):
    """計算したセルから表の行を組み立て、本文の行と比べる。先頭の n_labels 個（設定の値）を除く各セルを 1 つの数として数える。"""
    global n_checked
    row = "\t".join(cells)
    ok = row in LINES
    n_numbers = sum(1 for c in cells[n_labels:] if re.search(r"\d", c))
    n_checked += n_numbers - 1
    report(ok, f"table row {label} ({n_numbers} numbers)", row, "row found" if ok else "row NOT found")


# ---------------------------------------------------------------------------
# 定義 2.1, 2.2: 傾き
def slopes(H):
    return [mp.mpf(2) ** (-mp.mpf(8) * h / H) for h in range(1, H + 1)]


m8 = slopes(8)
m16 = slopes(16)
assert all(abs(m8[h] - mp.mpf(1) / 2 ** (h + 1)) < mp.mpf(10) ** -40 for h in range(8))
num("$H = 16$ では $2^{-1/2} \\approx 0.7071$", "0.7071", m16[0])
num("$2^{-3/2} \\approx 0.3536$", "0.3536", m16[2])

# 例 3.3 の表: e^{-m_h k}
for k in (1, 2, 4, 8, 16):
    table_row([str(k)] + [f"{float(mp.e ** (-m8[h] * k)):.4f}" for h in range(8)], f"exp(-m_h k), k = {k}")
num("ヘッド 1 では距離 16 の重みが距離 0 の約 0.0003 倍", "0.0003", mp.e ** (-m8[0] * 16))
num("（$e^{-8} \\approx 3.355 \\times 10^{-4}$）", "3.355 \\times 10^{-4}", mp.e ** -8)
num("ヘッド 8 では 0.9394 倍", "0.9394", mp.e ** (-m8[7] * 16))
# 斜めに同じ値が並ぶこと（H = 8 で m_{h+1} = m_h / 2）
diag_ok = all(abs(m8[h + 1] * 2 * k - m8[h] * k) < 1e-40 for h in range(7) for k in (1, 2, 4, 8))
report(diag_ok, "m_{h+1} * 2k = m_h * k (diagonal of the table)", "same values on diagonals", diag_ok)


def geometric_row(m, i):
    r = mp.e ** (-m)
    return [(1 - r) * r ** k / (1 - r ** i) for k in range(i)]


# 命題 3.2 の閉じた形を softmax の定義から直接計算したものと比べる
for h in range(8):
    raw = [mp.e ** (-m8[h] * k) for k in range(16)]
    direct = [x / sum(raw) for x in raw]
    err = max(abs(a - b) for a, b in zip(direct, geometric_row(m8[h], 16)))
    assert err < mp.mpf(10) ** -40, err
row1, row8 = geometric_row(m8[0], 16), geometric_row(m8[7], 16)
num("$A_{16,16} = (1 - e^{-1/2})/(1 - e^{-8}) \\approx 0.3936$", "0.3936", row1[0])
num("$A_{16,15} \\approx 0.2387$", "0.2387", row1[1])
num("(1 - e^{-1/2})e^{-15/2}/(1 - e^{-8}) \\approx 2.177 \\times 10^{-4}$", "2.177 \\times 10^{-4}", row1[15])
num("では $A_{16,16} \\approx 0.06435$", "0.06435", row8[0])
num("$A_{16,1} \\approx 0.06069$", "0.06069", row8[15])
num("一様な重み $1/16 = 0.0625$", "0.0625", mp.mpf(1) / 16)
num("両端の比は $e^{-15/256} \\approx 0.9431$", "0.9431", mp.e ** (-mp.mpf(15) / 256))
num("内容の点数の差が $32/16 = 2$ を超える", "2", mp.mpf(32) / 16)

# ---------------------------------------------------------------------------
# 命題 4.1 の閉じた形を、和を直接計算して確かめる（いくつかの r と n）
for r in (mp.mpf("0.3"), mp.e ** -0.5, mp.e ** (-mp.mpf(1) / 256)):
    for n in (1, 2, 16, 100):
        S = sum(r ** k for k in range(n))
        T = sum(k * r ** k for k in range(n))
        assert abs(S - (1 - r ** n) / (1 - r)) < mp.mpf(10) ** -35
        assert abs(T - (r - n * r ** n + (n - 1) * r ** (n + 1)) / (1 - r) ** 2) < mp.mpf(10) ** -30


def sig(x, n):
    """有効数字 n 桁（末尾の 0 も残す）。"""
    return f"{float(x):#.{n}g}".rstrip(".")


def span(m, eps):
    return mp.log(1 / eps) / m


def mean_inf(m):
    return 1 / (mp.e ** m - 1)


def mean_trunc(m, i):
    r = mp.e ** (-m)
    T = (r - i * r ** i + (i - 1) * r ** (i + 1)) / (1 - r) ** 2
    S = (1 - r ** i) / (1 - r)
    return T / S


# 命題 4.3 の 3 の不等式を傾きのいくつかの値で確かめる
for m in (mp.mpf("0.01"), mp.mpf("0.5"), mp.mpf("1.9"), mp.mpf(3)):
    assert 1 / m - mp.mpf(1) / 2 < mean_inf(m) < 1 / m

num("$\\log(1/0.01) = \\log 100 \\approx 4.6052$", "4.6052", mp.log(100))
fractions = ["1/2", "1/4", "1/8", "1/16", "1/32", "1/64", "1/128", "1/256"]
for h in range(8):
    s = span(m8[h], mp.mpf("0.01"))
    s4 = sig(s, 4)
    count = int(mp.floor(s)) + 1
    # 比が 0.01 以上の距離を数えて閉じた形と比べる
    assert count == sum(1 for k in range(5000) if mp.e ** (-m8[h] * k) >= mp.mpf("0.01"))
    assert mp.mpf(fractions[h].split("/")[1]) == 1 / m8[h]
    cells = [str(h + 1), fractions[h], s4, str(count), f"{float(mean_inf(m8[h])):.4f}",
             mp.nstr(1 / m8[h] - mp.mpf(1) / 2, 6), sig(mean_trunc(m8[h], 16), 4)]
    table_row(cells, f"span table h = {h + 1}", n_labels=2)
num("ヘッド 1 の約 9.210 からヘッド 8 の約 1,179", "9.210", span(m8[0], mp.mpf("0.01")))
num("幅の長いヘッドほど一様な重みの平均 $7.5$ に近づきます（ヘッド 8 で 7.417）", "7.417", mean_trunc(m8[7], 16))
assert all(mean_trunc(m8[h], 16) < mean_inf(m8[h]) for h in range(8))
assert all(mean_trunc(m8[h], 16) < mean_trunc(m8[h + 1], 16) for h in range(7))
num("ヘッド 1 の約 9.210 からヘッド 8 の約 1,179", "1,179", span(m8[7], mp.mpf("0.01")))
num("幅は約 9.210 から約 1,179 までです", "9.210", span(m8[0], mp.mpf("0.01")))
num("幅は約 9.210 から約 1,179 までです", "1,179", span(m8[7], mp.mpf("0.01")))
num("（命題 4.3 の 4、$2^{8/8} = 2$）", "2", mp.mpf(2) ** (mp.mpf(8) / 8))
assert all(abs(span(m8[h + 1], 0.01) / span(m8[h], 0.01) - 2) < 1e-40 for h in range(7))
num("$1.5415 - 1.5 = 0.0415$", "1.5415", mean_inf(m8[0]))
num("$1.5415 - 1.5 = 0.0415$", "0.0415", mean_inf(m8[0]) - mp.mpf("1.5"))
num("から $0.0003$ まで", "0.0003", mean_inf(m8[7]) - (1 / m8[7] - mp.mpf(1) / 2))
num("一様な重みの平均 $7.5$ に近づきます", "7.5", mp.mpf(sum(range(16))) / 16)
# 距離 16 以上の裾の合計 e^{-16 m_h} が 例 3.3 の k = 16 の行と同じ数であること
for h in range(8):
    p = [(1 - mp.e ** -m8[h]) * mp.e ** (-m8[h] * k) for k in range(16)]
    assert abs((1 - sum(p)) - mp.e ** (-16 * m8[h])) < mp.mpf(10) ** -40

# ---------------------------------------------------------------------------
# 例 5.2
def tail(m, i, ip):
    r = mp.e ** (-m)
    return (r ** i - r ** ip) / (1 - r ** ip)


def l1_rows(m, i, ip):
    a, b = geometric_row(m, i), geometric_row(m, ip)
    return sum(abs(x - y) for x, y in zip(a + [0] * (ip - i), b))


t8 = tail(m8[7], 1024, 2048)
num("$t = (e^{-4} - e^{-8})/(1 - e^{-8}) \\approx 0.01799$", "0.01799", t8)
num("1 ノルムの差は $2t \\approx 0.03597$", "0.03597", 2 * t8)
mp.mp.dps = 30
assert abs(l1_rows(m8[7], 1024, 2048) - 2 * t8) < mp.mpf(10) ** -20     # 命題 5.1 の 2 を直接の和で確認
mp.mp.dps = 50
num("ヘッド 7（$m = 1/128$）では $t \\approx 3.354 \\times 10^{-4}$", "3.354 \\times 10^{-4}", tail(m8[6], 1024, 2048))
num("ヘッド 6（$m = 1/64$）では $t \\approx 1.125 \\times 10^{-7}$", "1.125 \\times 10^{-7}", tail(m8[5], 1024, 2048))
num("$e^{2 - 4} = e^{-2} \\approx 0.1353$", "0.1353", mp.e ** (2 - 1024 * m8[7]))
num("$e^{2 - 8} = e^{-6} \\approx 0.002479$", "0.002479", mp.e ** (2 - 1024 * m8[6]))
num("$e^{2 - 16} = e^{-14} \\approx 8.315 \\times 10^{-7}$", "8.315 \\times 10^{-7}", mp.e ** (2 - 1024 * m8[5]))
num("ヘッド 8 の幅 $s_{0.01} \\approx 1179$", "1179", span(m8[7], mp.mpf("0.01")))
assert span(m8[7], 0.01) > 1024 > span(m8[6], 0.01)

# ---------------------------------------------------------------------------
# 定義 5.3、命題 5.4、例 5.5


def g(k, d=64):
    return sum(mp.cos(mp.mpf(10000) ** (-mp.mpf(2) * l / d) * k) for l in range(d // 2)) * 2 / d


ks = [1, 4, 16, 64, 256, 1024, 1030, 2048, 4096]


def cell_exp(x):
    x = float(x)
    if x >= 0.1:
        return f"{x:.4f}"
    if x >= 0.01:
        return f"{x:.4g}"
    e = math.floor(math.log10(x))
    return f"${x / 10 ** e:.3f} \\times 10^{{{e}}}$"


for k in ks:
    table_row([str(k), f"{float(g(k)):.4f}", cell_exp(mp.e ** (-mp.mpf(k) / 64)), cell_exp(mp.e ** (-mp.mpf(k) / 256))],
              f"sinusoid table k = {k}")

# 1 <= k <= 4096 の g を倍精度でまとめて計算（最大・最小の位置を探す）
w = 10000.0 ** (-2 * np.arange(32) / 64)
kk = np.arange(1, 4097)
gg = np.cos(np.outer(kk, w)).mean(axis=1)
kmax = 1025 + int(np.argmax(gg[1024:]))
kmin = 1 + int(np.argmin(gg))
num("距離 1,024 の 0.2629 から", "0.2629", g(1024))
num("6 だけ離れた 1,030 で 0.4008 に上がり", "0.4008", g(1030))
num("距離 256 の 0.3537 より大きく", "0.3537", g(256))
num("$1{,}025 \\le k \\le 4{,}096$ での最大値がこの 0.4008", "0.4008", g(kmax))
report(kmax == 1030, "argmax of g on 1025..4096", "1030", kmax)
num("$k = 4{,}075$ の $-0.2441$", "-0.2441", g(kmin))
report(kmin == 4075, "argmin of g on 1..4096", "4,075", kmin)
# 命題 5.4 の 1: 内積が t - s だけで決まる（いくつかの s, t で）
for s_, t_ in ((3, 10), (100, 107), (2000, 2007)):
    P = lambda t: [f(t * mp.mpf(10000) ** (-mp.mpf(2) * l / 64)) for l in range(32) for f in (mp.sin, mp.cos)]
    ip = sum(a * b for a, b in zip(P(s_), P(t_)))
    assert abs(ip * 2 / 64 - g(7)) < mp.mpf(10) ** -40

w31 = mp.mpf(10000) ** (-mp.mpf(62) / 64)
num("$\\omega_{31} = 10000^{-62/64} \\approx 1.334 \\times 10^{-4}$", "1.334 \\times 10^{-4}", w31)
num("周期は $2\\pi/\\omega_{31} \\approx 47{,}117$", "47{,}117", 2 * mp.pi / w31)
num("角度 $t\\,\\omega_{31}$ は約 0.1366 以下", "0.1366", 1024 * w31)
num("1 周の約 2.2 % しか見ていません", "2.2 %", 1024 / (2 * mp.pi / w31))

# ---------------------------------------------------------------------------
# 演習
num("$m_1 = 2^{-1/2} \\approx 0.7071$", "0.7071", m16[0])
num("公比は $2^{-1/2} \\approx 0.7071$", "0.7071", m16[1] / m16[0])
assert m16[1] == mp.mpf(1) / 2 and m16[15] == mp.mpf(1) / 256
num("$s_{0.01}(m_1) = \\sqrt{2}\\,\\log 100 \\approx 6.513$", "6.513", span(m16[0], mp.mpf("0.01")))
num("比が 0.01 以上の距離は $k = 0, \\ldots, 6$ の 7 個", "7", mp.floor(span(m16[0], mp.mpf("0.01"))) + 1)
num("$\\mu(m_1) = 1/(e^{0.7071} - 1) \\approx 0.9727$", "0.9727", mean_inf(m16[0]))

r = mp.e ** -0.5
U = mp.nsum(lambda k: k ** 2 * r ** k, [0, mp.inf])
assert abs(U - r * (1 + r) / (1 - r) ** 3) < mp.mpf(10) ** -30
var = (1 - r) * U - mean_inf(mp.mpf("0.5")) ** 2
assert abs(var - mp.e ** 0.5 / (mp.e ** 0.5 - 1) ** 2) < mp.mpf(10) ** -30
num("$e^{1/2}/(e^{1/2} - 1)^2 \\approx 1.6487/0.42084 \\approx 3.918$", "1.6487", mp.e ** 0.5)
num("$e^{1/2}/(e^{1/2} - 1)^2 \\approx 1.6487/0.42084 \\approx 3.918$", "0.42084", (mp.e ** 0.5 - 1) ** 2)
num("$e^{1/2}/(e^{1/2} - 1)^2 \\approx 1.6487/0.42084 \\approx 3.918$", "3.918", var)
num("標準偏差は約 1.979", "1.979", mp.sqrt(var))

big = [k for k in range(1, 51) if mp.cos(k) > mp.mpf("0.99")]
report(big == [25, 44], "k in 1..50 with cos k > 0.99", "25, 44", big)
num("$\\arccos 0.99 \\approx 0.1415$", "0.1415", mp.acos(mp.mpf("0.99")))
num("$16\\pi \\approx 50.2655$", "50.2655", 16 * mp.pi)
num("$8\\pi \\approx 25.1327$（$25$ との差 0.1327）", "25.1327", 8 * mp.pi)
num("$8\\pi \\approx 25.1327$（$25$ との差 0.1327）", "0.1327", 8 * mp.pi - 25)
num("$14\\pi \\approx 43.9823$（$44$ との差 0.0177）", "43.9823", 14 * mp.pi)
num("$14\\pi \\approx 43.9823$（$44$ との差 0.0177）", "0.0177", 44 - 14 * mp.pi)
num("次に近い $6\\pi \\approx 18.8496$ でも $19$ との差は 0.1504", "18.8496", 6 * mp.pi)
num("次に近い $6\\pi \\approx 18.8496$ でも $19$ との差は 0.1504", "0.1504", 19 - 6 * mp.pi)
gaps = sorted((abs(2 * mp.pi * j - round(2 * mp.pi * j)), j) for j in range(1, 9))
report([j for _, j in gaps[:3]] == [7, 4, 3], "closest multiples of 2*pi to integers: 14pi, 8pi, then 6pi",
       "14pi, 8pi, 6pi", [j for _, j in gaps[:3]])
num("$k = 25$（$\\cos 25 \\approx 0.9912$）", "0.9912", mp.cos(25))
num("$k = 44$（$\\cos 44 \\approx 0.9998$）", "0.9998", mp.cos(44))
num("距離 1 の $\\cos 1 \\approx 0.5403$", "0.5403", mp.cos(1))

# ---------------------------------------------------------------------------
# コードの取り出しと実行


def listing(header):
    """header の行から始まるコードと、その直後に印字された出力を本文から取り出す。"""
    start = LINES.index(header)
    bullet = next(i for i in range(start, len(LINES)) if LINES[i].startswith("• "))
    end = bullet - 2                                  # 出力の最後の行（その次が空行、その次が箇条書き）
    first = end
    while LINES[first - 1] != "":
        first -= 1
    return "\n".join(LINES[start:first - 1]) + "\n", "\n".join(LINES[first:end + 1])


def run(code, name, modules):
    saved = {k: sys.modules.get(k) for k in modules}
    sys.modules.update(modules)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(code, name, "exec"), {"__name__": "__main__"})
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return buf.getvalue().rstrip("\n")


code1, out1 = listing("# Python 3.11.7, NumPy 2.4.6")
code2, out2 = listing("# Python 3.11.7, NumPy 2.4.6。alibi.py は前のコード")
alibi = types.ModuleType("alibi")
exec(compile(code1, "alibi.py", "exec"), alibi.__dict__)
got1 = run(code1, "alibi.py", {})
got2 = run(code2, "listing2.py", {"alibi": alibi})
if "--emit" in sys.argv:
    print("=== listing 1 ===\n" + got1 + "\n=== listing 2 ===\n" + got2)
    sys.exit(0)
for label, got, printed in (("listing 1 output", got1, out1), ("listing 2 output", got2, out2)):
    ok = got == printed
    lines_n = len(printed.split("\n"))
    print(("ok   " if ok else "FAIL ") + f"{label}: {lines_n} lines, printed output identical to a fresh run: {ok}")
    if not ok:
        failures.append(label)
        for a, b in zip(got.split("\n"), printed.split("\n")):
            if a != b:
                print("   run:     " + a + "\n   printed: " + b)

# 出力の数がこの節の計算とも合っていること（出力の中の値を独立に計算した値と比べる）
num("head 1, row 16, distances 0-3: [0.3936 0.2387", "0.3936", row1[0])
num("head 8: tail 1.7986e-02", "1.7986", tail(m8[7], 1024, 2048) * 100)

print(f"\n{n_checked} printed numbers checked, {len(failures)} failures")
sys.exit(1 if failures else 0)

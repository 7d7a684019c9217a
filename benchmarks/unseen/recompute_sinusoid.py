"""sinusoid.txt（第 38 章）の数値を定義から計算し直し、本文に印字された値と照合する。

各検査は、計算した値から本文と同じ書式の文字列を組み立て、それが本文にそのまま
現れることを確かめる（check）か、本文が言葉で述べた性質を確かめる（truth）。
表は見出しの行から 1 行ずつ読み、各セルをその位置で計算し直した値と比べる（table）。
リスティング sinusoid_pe.py を実行し、本文のコードと出力が一字一句一致することも確かめる。
最後に、本文（リスティングと参考文献を除く）に現れる小数・4 桁以上の数・3 桁区切りの数が
すべてどれかの検査に含まれていることを確かめる。1 つでも失敗すれば終了コード 1。
"""
import math
import os
import re
import subprocess
import sys
from fractions import Fraction
from math import cos, exp, log, log10, pi, sin, sqrt

import mpmath
import numpy as np
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = open(os.path.join(HERE, "sinusoid.txt"), encoding="utf-8").read()
mpmath.mp.dps = 50

checked = 0
failures = 0
covered = []          # 照合に成功した文字列（数値の網羅性の検査に使う）


def check(label, expected, count=1):
    global checked, failures
    ok = expected in TEXT
    checked += count
    if ok:
        covered.append(expected)
    else:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{count}] {label}: {expected}")


def truth(label, cond, count=1):
    global checked, failures
    checked += count
    if not cond:
        failures += 1
    print(("OK   " if cond else "FAIL ") + f"[{count}] {label}")


def fx(x, dec):
    """小数第 dec 位に丸めた固定小数点表記。丸めの境目に近すぎる値は拒む。"""
    x = mpmath.mpf(x)
    s = mpmath.mpf(10) ** dec * abs(x)
    frac = s - mpmath.floor(s)
    assert abs(frac - mpmath.mpf("0.5")) > mpmath.mpf("1e-6"), f"丸めの境目に近い: {x}"
    r = f"{float(x):.{dec}f}"
    return "0." + "0" * dec if r == "-0." + "0" * dec else r


def group(s, sep):
    """'12345.6' → '12,345.6'（sep = ','）または '12{,}345.6'（sep = '{,}'）。"""
    neg = s.startswith("-")
    s = s.lstrip("-")
    ip, _, dp = s.partition(".")
    g = ""
    while len(ip) > 3:
        g = sep + ip[-3:] + g
        ip = ip[:-3]
    return ("-" if neg else "") + ip + g + ("." + dp if dp else "")


def cp(x, dec=0):
    """本文中の 3 桁区切り（65,536 や 19,869.18）。"""
    return group(fx(x, dec) if dec else str(int(x)), ",")


def cm(x, dec=0):
    """数式中の 3 桁区切り（65{,}536）。"""
    return group(fx(x, dec) if dec else str(int(x)), "{,}")


def sig(x, n, sep=","):
    """有効数字 n 桁（末尾の 0 は付けない）。表 38.1・38.2 の書式。"""
    x = mpmath.mpf(x)
    e = int(mpmath.floor(mpmath.log10(abs(x))))
    dec = max(n - 1 - e, 0)
    s = fx(x, dec)
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return group(s, sep)


# ======================= 定義 38.1 の高精度版 =======================
B = mpmath.mpf(10000)


def om(i, d):
    return B ** (-mpmath.mpf(2 * i) / d)


def lam(i, d):
    return 2 * mpmath.pi / om(i, d)


def fd(k, d):
    return mpmath.fsum(mpmath.cos(k * om(i, d)) for i in range(d // 2))


def PEv(p, d):
    v = []
    for i in range(d // 2):
        v += [mpmath.sin(p * om(i, d)), mpmath.cos(p * om(i, d))]
    return v


def pe_np(p, d):
    w = 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty(d)
    out[0::2], out[1::2] = np.sin(p * w), np.cos(p * w)
    return out


# ======================= 表の読み取り =======================
def table(num):
    """「表 38.num（」で始まる行の次が見出し、その後の空行までが行。セルはタブ区切り。"""
    lines = TEXT.split("\n")
    i = next(j for j, l in enumerate(lines) if l.startswith(f"表 38.{num}（"))
    header = lines[i + 1].split("\t")
    rows = []
    for l in lines[i + 2:]:
        if not l.strip():
            break
        rows.append(l.split("\t"))
    return header, rows


def cells(label, got, want):
    global checked, failures
    ok = len(got) == len(want) and all(g == w for g, w in zip(got, want))
    checked += len(want)
    if ok:
        covered.append("\t".join(got))
    else:
        failures += 1
    print(("OK   " if ok else "FAIL ") + f"[{len(want)}] {label}: " + " | ".join(want)
          + ("" if ok else "   本文: " + " | ".join(got)))


# ======================= リスティングの実行 =======================
code = open(os.path.join(HERE, "sinusoid_pe.py"), encoding="utf-8").read().rstrip("\n")
pos = TEXT.find(code)
block = TEXT[pos + len(code):].lstrip("\n").split("\n\n")[0] if pos >= 0 else None
run = subprocess.run([sys.executable, "sinusoid_pe.py"], cwd=HERE, capture_output=True, text=True,
                     env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
OUT = run.stdout.rstrip("\n").splitlines()
truth(f"リスティング sinusoid_pe.py：本文のコードと同一で、実行結果が本文の出力 {len(OUT)} 行と一字一句一致",
      pos >= 0 and run.returncode == 0 and run.stdout.rstrip("\n") == block)
truth("リスティングは 60 行以下", len(code.splitlines()) <= 60, 0)

# ======================= 38.0・定義 38.1・例 38.2 =======================
check("要点 10000·2π", f"$10{{,}}000 \\cdot 2\\pi \\approx {cm(2 * mpmath.pi * B, 2)}$")
check("要点 λ_255（d = 512）", f"$d = 512$ では最後の項は約 ${cm(lam(255, 512), 2)}$")
check("要点 f_512(1)、f_512(100)", f"$f_{{512}}(1) \\approx {fx(fd(1, 512), 4)}$、$f_{{512}}(100) \\approx {fx(fd(100, 512), 4)}$", 2)
check("要点 f_16(3) < f_16(5)", f"$f_{{16}}(3) \\approx {fx(fd(3, 16), 4)} < f_{{16}}(5) \\approx {fx(fd(5, 16), 4)}$", 2)
truth("要点 f_16(3) < f_16(5)（単調でない）", fd(3, 16) < fd(5, 16))
check("要点 GPT-2 small の位置の表", f"$L_{{\\max}} = 1{{,}}024$、$d = 768$）では ${cm(1024 * 768)}$ 個、モデル全体の約 {100 * 786432 / 124439808:.3f} %", 2)
check("要点 114 ブロック", "256 ブロックのうち 114 ブロックがそうなります")
check("定義 38.1 の周波数", "$\\omega_i := 10{,}000^{-2i/d}$")
check("要点 定義 38.1 の式", "$\\mathrm{PE}(p)_{2i} = \\sin(p\\,\\omega_i)$、$\\mathrm{PE}(p)_{2i+1} = \\cos(p\\,\\omega_i)$、$\\omega_i = 10{,}000^{-2i/d}$")
ii = sp.symbols("i", integer=True, nonnegative=True)
truth("例 38.2 d = 16 で 10000^(-2i/16) = 10^(-i/2)（記号）",
      sp.simplify(sp.Integer(10000) ** (-2 * ii / 16) - sp.Integer(10) ** (-ii / 2)) == 0)
check("例 38.2 ω_i = 10^{-i/2}", "$\\omega_i = 10{,}000^{-i/8} = 10^{-i/2}$")
pe2 = PEv(2, 16)
vec = ",\\ ".join(fx(pe2[2 * i], 4) + ", " + fx(pe2[2 * i + 1], 4) for i in range(8))
check("例 38.2 PE(2) の 16 成分", f"$$\\mathrm{{PE}}(2) \\approx ({vec})$$", 16)
truth("例 38.2 PE(2) はリスティングの sinusoidal_pe と一致", np.allclose(pe_np(2, 16), [float(v) for v in pe2], atol=1e-14), 0)
check("例 38.2 2 ラジアンの度数", f"角度 2 ラジアン（約 {fx(2 * 180 / mpmath.pi, 2)} 度）")
truth("例 38.2 後ろの 3 ブロックの余弦は 1.0000、第 4 ブロックはそうでない",
      all(fx(pe2[2 * i + 1], 4) == "1.0000" for i in (5, 6, 7)) and fx(pe2[9], 4) != "1.0000")
check("例 38.2 ノルムの 2 乗", "$\\|\\mathrm{PE}(2)\\|^2 = 8$")
truth("例 38.2 ‖PE(2)‖² = 8", abs(mpmath.fsum(v ** 2 for v in pe2) - 8) < 1e-40)

# ======================= 命題 38.3 =======================
dd, i_ = sp.symbols("d i", positive=True)
r_ = sp.Integer(10000) ** (2 / dd)
om_ = sp.Integer(10000) ** (-2 * i_ / dd)
truth("命題 38.3 の 1：ω_{i+1}/ω_i = 1/r、ω_i = r^{-i}（記号）",
      sp.simplify(om_.subs(i_, i_ + 1) / om_ - 1 / r_) == 0 and sp.simplify(om_ - r_ ** (-i_)) == 0, 2)
truth("命題 38.3 の 2：λ_{m-1} = 2π·10000^{1-2/d} = 10000·2π/r（記号）",
      sp.simplify(2 * sp.pi / om_.subs(i_, dd / 2 - 1) - 2 * sp.pi * sp.Integer(10000) ** (1 - 2 / dd)) == 0
      and sp.simplify(2 * sp.pi * sp.Integer(10000) ** (1 - 2 / dd) - 10000 * 2 * sp.pi / r_) == 0, 2)
truth("命題 38.3 の 2：d = 2..1024 で λ は公比 r の等比数列、最後の項 < 10000·2π",
      all(abs(lam(i + 1, d) / lam(i, d) - B ** (mpmath.mpf(2) / d)) < 1e-40 and lam(d // 2 - 1, d) < 2 * mpmath.pi * B
          for d in (2, 4, 8, 16, 64, 512, 1024) for i in range(min(d // 2 - 1, 6))), 1)
pp = sp.symbols("p", real=True)
truth("命題 38.3 の 3・4：周期 λ_i、ブロックの 2 乗和 1（記号）",
      sp.simplify(sp.sin((pp + 2 * sp.pi / om_) * om_) - sp.sin(pp * om_)) == 0
      and sp.simplify(sp.cos((pp + 2 * sp.pi / om_) * om_) - sp.cos(pp * om_)) == 0
      and sp.simplify(sp.sin(pp * om_) ** 2 + sp.cos(pp * om_) ** 2) == 1, 2)
rng = np.random.default_rng(38)
truth("命題 38.3 の 4：乱数の実数位置 500 個で ‖PE(p)‖² = d/2（d = 2, 16, 512）",
      all(abs(pe_np(p, d) @ pe_np(p, d) - d / 2) < 1e-9 for d in (2, 16, 512) for p in rng.uniform(-1e4, 1e4, 500)))
r512 = B ** (mpmath.mpf(2) / 512)
check("38.2 節 Vaswani らの記述", "「波長は $2\\pi$ から $10{,}000 \\cdot 2\\pi$ までの等比数列をなす」")
check("38.2 節 10000·2π", f"$10{{,}}000 \\cdot 2\\pi \\approx {cm(2 * mpmath.pi * B, 2)}$ は数列の最後の項ではなく")
check("38.2 節 d = 512 の r と λ_255", f"$r = 10{{,}}000^{{1/256}} \\approx {fx(r512, 6)}$、最後の項は $\\lambda_{{255}} \\approx {cm(lam(255, 512), 2)}$", 2)
check("38.2 節 1/r の百分率", f"$1/r \\approx {fx(100 / r512, 2)}$ %")
truth("38.2 節 λ_255/(10000·2π) = 1/r", abs(lam(255, 512) / (2 * mpmath.pi * B) - 1 / r512) < 1e-40)
check("38.2 節 d = 16", f"$r = \\sqrt{{10}} \\approx {fx(mpmath.sqrt(10), 4)}$、$\\lambda_7 = 2\\pi \\cdot 10^{{3.5}} \\approx {cm(lam(7, 16), 2)}$", 2)
truth("38.2 節 d = 16 の r = 10000^(1/8) = √10、λ_7 = 2π·10^3.5", abs(B ** (mpmath.mpf(1) / 8) - mpmath.sqrt(10)) < 1e-40
      and abs(lam(7, 16) - 2 * mpmath.pi * mpmath.mpf(10) ** 3.5) < 1e-35, 2)
check("38.2 節 約 31.62 %", f"約 {fx(100 * lam(7, 16) / (2 * mpmath.pi * B), 2)} % にとどまります")
check("38.2 節 ノルム", f"$d = 512$ で $\\sqrt{{256}} = 16$、$d = 16$ で $\\sqrt{{8}} \\approx {fx(mpmath.sqrt(8), 4)}$", 2)

# ======================= 表 38.1・表 38.2 =======================
h1, rows1 = table(1)
truth("表 38.1 の見出しは 5 列で、λ と角度の欄は ω の欄からの式", len(h1) == 5 and "2\\pi/\\omega_i" in h1[3] and "180\\,\\omega_i/\\pi" in h1[4])
truth("表 38.1 は 8 行（d = 16 の全ブロック）", len(rows1) == 8, 0)
for row in rows1:
    i = int(row[0])
    w = om(i, 16)
    truth(f"表 38.1 i = {i}: ω_i = 10^(-i/2)", abs(w - mpmath.mpf(10) ** (-mpmath.mpf(i) / 2)) < 1e-40, 0)
    cells(f"表 38.1 i = {i} の行", row, [str(i), f"{2 * i}, {2 * i + 1}", sig(w, 5), sig(2 * mpmath.pi / w, 5),
                                        sig(180 * w / mpmath.pi, 5)])
check("表 38.1 の後 約 6.28 位置で 1 周", f"約 {fx(lam(0, 16), 2)} 位置で 1 周し")
check("表 38.1 の後 1 周に約 19,869 位置", f"1 周に約 {cp(lam(7, 16))} 位置かかります")
truth("表 38.1 の後 d = 512 の第 32i ブロックは d = 16 の第 i ブロックと同じ周波数",
      all(abs(om(32 * i, 512) - om(i, 16)) < 1e-40 for i in range(8)))
h2, rows2 = table(2)
truth("表 38.2 の見出しは 5 列", len(h2) == 5 and h2[4] == "$512/\\lambda_i$")
for row in rows2:
    i = int(row[0])
    fr = Fraction(2 * i, 512)
    cells(f"表 38.2 i = {i} の行", row, [str(i), str(fr), sig(om(i, 512), 5), sig(lam(i, 512), 5), sig(512 / lam(i, 512), 4)])
check("表 38.2 の後 81 周以上", f"第 0 ブロックは {int(512 / lam(0, 512))} 周以上回り")
truth("表 38.2 の後 第 128 ブロックは 1 周もしない", 512 / lam(128, 512) < 1)
thr = mpmath.log(512 / (2 * mpmath.pi)) / mpmath.log(B)
check("表 38.2 の後 閾値", f"$2i/d > \\log_{{10000}}(512/2\\pi) \\approx {fx(thr, 5)}$、$i > 256 \\times {fx(thr, 5)} \\approx {fx(256 * thr, 2)}$", 3)
once = [i for i in range(256) if lam(i, 512) > 512]
check("表 38.2 の後 133 個", f"$i = {once[0]}$ から 255 までの {len(once)} 個です")
truth("表 38.2 の後 λ_i > 512 のブロックは連続した i ≥ 123 で、半分以上", once == list(range(123, 256)) and len(once) > 128, 2)

# ======================= 命題 38.4・例 38.5 =======================
a_, b_, t_ = sp.symbols("alpha beta theta", real=True)


def Rm(th):
    return sp.Matrix([[sp.cos(th), sp.sin(th)], [-sp.sin(th), sp.cos(th)]])


truth("命題 38.4 の 1：R(b)(sin a, cos a) = (sin(a+b), cos(a+b))（記号）",
      sp.simplify(Rm(b_) * sp.Matrix([sp.sin(a_), sp.cos(a_)]) - sp.Matrix([sp.sin(a_ + b_), sp.cos(a_ + b_)])) == sp.zeros(2, 1), 2)
truth("命題 38.4 の 2：R^T R = I、det R = 1、R(α)R(β) = R(α+β)（記号）",
      sp.simplify(Rm(t_).T * Rm(t_) - sp.eye(2)) == sp.zeros(2, 2) and sp.simplify(Rm(t_).det()) == 1
      and sp.simplify(Rm(a_) * Rm(b_) - Rm(a_ + b_)) == sp.zeros(2, 2), 3)


def M_np(k, d):
    M = np.zeros((d, d))
    for i, w in enumerate(10000.0 ** (-np.arange(0, d, 2) / d)):
        c, s = np.cos(k * w), np.sin(k * w)
        M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
    return M


ok1 = ok2 = ok3 = True
for _ in range(200):
    d = int(rng.choice([2, 4, 16, 64]))
    p, k, l = rng.uniform(-50, 50, 3)
    ok1 &= np.allclose(pe_np(p + k, d), M_np(k, d) @ pe_np(p, d), atol=1e-12)
    ok2 &= np.allclose(M_np(k, d) @ M_np(l, d), M_np(k + l, d), atol=1e-12) and np.allclose(M_np(-k, d), M_np(k, d).T)
    ok3 &= np.allclose(pe_np(p, d), M_np(p, d) @ pe_np(0, d), atol=1e-12)
truth("命題 38.4 の 1：実数の p, k の乱数 200 組で PE(p+k) = M_k PE(p)", ok1)
truth("命題 38.4 の 2：M_k M_l = M_{k+l}、M_{-k} = M_k^T（乱数 200 組）", ok2, 2)
truth("命題 38.4 の 3：PE(p) = M_p PE(0)、PE(0) = (0, 1, …, 0, 1)", ok3 and np.array_equal(pe_np(0, 8), np.array([0, 1] * 4)), 2)
check("例 38.5 cos 3、sin 3", f"$\\cos 3 \\approx {fx(mpmath.cos(3), 5)}$、$\\sin 3 \\approx {fx(mpmath.sin(3), 5)}$", 2)
check("例 38.5 u_0(2)", f"$\\boldsymbol{{u}}_0(2) = (\\sin 2, \\cos 2) \\approx ({fx(mpmath.sin(2), 5)}, {fx(mpmath.cos(2), 5)})$", 2)
R3 = Rm(3) * sp.Matrix([sp.sin(2), sp.cos(2)])
truth("例 38.5 R(3) u_0(2) = (sin 5, cos 5)（記号）", sp.simplify(sp.expand_trig(R3 - sp.Matrix([sp.sin(5), sp.cos(5)]))) == sp.zeros(2, 1)
      or all(abs(complex(sp.N(v, 30))) < 1e-25 for v in (R3 - sp.Matrix([sp.sin(5), sp.cos(5)]))), 2)
check("例 38.5 u_0(5)", f"\\approx \\begin{{pmatrix}} {fx(mpmath.sin(5), 5)} \\\\ {fx(mpmath.cos(5), 5)} \\end{{pmatrix}}$$", 2)
check("例 38.5 第 1 ブロックの回転角", f"$3\\omega_1 \\approx {fx(3 * om(1, 16), 5)}$ ラジアン（約 {fx(3 * om(1, 16) * 180 / mpmath.pi, 2)} 度）", 2)
check("例 38.5 第 7 ブロックの回転角", f"$3\\omega_7 \\approx {fx(3 * om(7, 16), 8)}$ ラジアン")
check("例 38.5 PE(1,000) → PE(1,003)", "$\\mathrm{PE}(1{,}000)$ を $\\mathrm{PE}(1{,}003)$ に写します")
truth("例 38.5 同じ M_3 が PE(100) → PE(103)、PE(1000) → PE(1003)",
      np.allclose(M_np(3, 16) @ pe_np(100, 16), pe_np(103, 16), atol=1e-12) and np.allclose(M_np(3, 16) @ pe_np(1000, 16), pe_np(1003, 16), atol=1e-12), 2)

# ======================= 命題 38.6・系 38.7 =======================
P_, Q_, w_ = sp.symbols("P Q w", real=True)
truth("命題 38.6 の 1：sin Pw sin Qw + cos Pw cos Qw = cos((P-Q)w)（記号）",
      sp.simplify(sp.sin(P_ * w_) * sp.sin(Q_ * w_) + sp.cos(P_ * w_) * sp.cos(Q_ * w_) - sp.cos((P_ - Q_) * w_)) == 0)
truth("命題 38.6 の 1（別証）：(0, 1) R(θ) (0, 1)^T = cos θ", sp.simplify((sp.Matrix([[0, 1]]) * Rm(t_) * sp.Matrix([0, 1]))[0] - sp.cos(t_)) == 0)
ok = True
for _ in range(300):
    d = int(rng.choice([2, 6, 16, 128, 512]))
    p, q = rng.uniform(-3000, 3000, 2)
    fv = np.cos((p - q) * 10000.0 ** (-np.arange(0, d, 2) / d)).sum()
    ok &= abs(pe_np(p, d) @ pe_np(q, d) - fv) < 1e-8 and abs(np.sum((pe_np(p, d) - pe_np(q, d)) ** 2) - (d - 2 * fv)) < 1e-8
    ok &= abs(fv) <= d / 2 + 1e-12
truth("命題 38.6 の 1・2・3：乱数の実数位置 300 組で内積 = f_d(p-q)、|f_d| ≤ d/2、距離² = d - 2f_d", ok, 3)
truth("命題 38.6 の 2：f_d(0) = d/2、f_d(-k) = f_d(k)", fd(0, 512) == 256 and fd(0, 16) == 8 and abs(fd(-7.3, 16) - fd(7.3, 16)) < 1e-40, 2)
okc = True
for d in (2, 16, 512):
    ks = np.arange(1, 20001)
    W = 10000.0 ** (-np.arange(0, d, 2) / d)
    vals = np.cos(np.outer(ks, W)).sum(axis=1)
    okc &= (vals < d / 2 - 1e-9).all()
truth("系 38.7：d = 2, 16, 512、整数 1 ≤ k ≤ 20,000 で f_d(k) < d/2", okc, 3)
truth("系 38.7 の証明の鍵：cos k = 1 の整数 k は 0 だけ（|k| ≤ 20,000 で 1 - cos k > 0）",
      min(1 - mpmath.cos(k) for k in range(1, 20001)) > 0)

# ======================= 表 38.3 =======================
h3, rows3 = table(3)
truth("表 38.3 の見出しは 7 列で、距離の欄は f の欄からの式", len(h3) == 7 and "\\sqrt{d - 2f_d(k)}" in TEXT.split("\n")[TEXT.split("\n").index("\t".join(h3)) - 1])
lst = {int(l.split()[0]): l.split()[1:] for l in OUT[6:17]}
for row in rows3:
    k = int(row[0].replace(",", ""))
    f16, f512 = fd(k, 16), fd(k, 512)
    want = [cp(k), fx(f16, 4), fx(f16 / 8, 4), fx(mpmath.sqrt(16 - 2 * f16), 4),
            fx(f512, 4), fx(f512 / 256, 4), fx(mpmath.sqrt(512 - 2 * f512), 4)]
    cells(f"表 38.3 k = {k} の行", row, want)
    truth(f"表 38.3 k = {k}: リスティングの出力と一致", lst.get(k) == [want[1], want[2], want[4], want[5]], 0)
F512 = [fd(k, 512) for k in range(0, 60)]
truth("表 38.3 の後 f_512 は k = 0..43 で狭義減少、f_512(44) > f_512(43)",
      all(F512[k + 1] < F512[k] for k in range(43)) and F512[44] > F512[43], 2)
check("表 38.3 の後 43 → 44", f"$k = 43$ から 44 でわずかに増えます（${fx(F512[43], 4)}$ から ${fx(F512[44], 4)}$）", 2)
check("表 38.3 の後 d = 16 の崩れ", f"$f_{{16}}(3) \\approx {fx(fd(3, 16), 4)} < f_{{16}}(4) \\approx {fx(fd(4, 16), 4)} < f_{{16}}(5) \\approx {fx(fd(5, 16), 4)}$", 3)
truth("表 38.3 の後 5 離れた位置のほうが 3 離れた位置より似ている", fd(5, 16) > fd(4, 16) > fd(3, 16), 2)
first_neg = next(k for k in range(1, 1000) if fd(k, 16) < 0)
check("表 38.3 の後 初めて負", f"初めて負になるのは $k = {first_neg}$（$f_{{16}}({first_neg - 1}) \\approx {fx(fd(first_neg - 1, 16), 4)}$、$f_{{16}}({first_neg}) \\approx {fx(fd(first_neg, 16), 4)}$）", 3)
check("表 38.3 の後 k = 10,000", f"$k = 10{{,}}000$ では内積は負で、余弦類似度は約 ${fx(fd(10000, 512) / 256, 4)}$", 2)
g1 = mpmath.fsum(a * b for a, b in zip(PEv(0, 512), PEv(10, 512)))
g2 = mpmath.fsum(a * b for a, b in zip(PEv(500, 512), PEv(510, 512)))
check("表 38.3 の後 PE(0)·PE(10) = PE(500)·PE(510)", f"はどちらも約 ${fx(g1, 4)}$ です")
truth("表 38.3 の後 2 つの内積が等しい（50 桁）", abs(g1 - g2) < 1e-40 and fx(g2, 4) == fx(g1, 4), 2)

# ======================= 命題 38.9・注意 38.10 =======================
a0, b0 = sp.symbols("a b", real=True)
Wb = sp.Matrix([[a0, b0], [-b0, a0]])
expr = (sp.Matrix([[sp.sin(P_), sp.cos(P_)]]) * Wb * sp.Matrix([sp.sin(Q_), sp.cos(Q_)]))[0]
truth("命題 38.9 の 1：(sin A, cos A) W_i (sin B, cos B)^T = a cos(A-B) + b sin(A-B)（記号）",
      sp.simplify(sp.expand_trig(expr - a0 * sp.cos(P_ - Q_) - b0 * sp.sin(P_ - Q_))) == 0)
truth("命題 38.9 の 1：W_i は回転 R(θ) と交換する（記号）", sp.simplify(Wb * Rm(t_) - Rm(t_) * Wb) == sp.zeros(2, 2))
ok = True
for _ in range(100):
    d = int(rng.choice([4, 16, 64]))
    ab = rng.standard_normal((d // 2, 2))
    W = np.zeros((d, d))
    for i, (a, b) in enumerate(ab):
        W[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[a, b], [-b, a]]
    p, q, s = rng.uniform(-100, 100, 3)
    ok &= abs(pe_np(p, d) @ W @ pe_np(q, d) - pe_np(p + s, d) @ W @ pe_np(q + s, d)) < 1e-9
truth("命題 38.9 の 1：乱数の a_i, b_i と位置 100 組で g_W(p, q) = g_W(p+s, q+s)", ok)
truth("命題 38.9 の 2：sin p sin q = (cos(p-q) - cos(p+q))/2（記号）",
      sp.simplify(sp.sin(P_) * sp.sin(Q_) - (sp.cos(P_ - Q_) - sp.cos(P_ + Q_)) / 2) == 0)
check("命題 38.9 の 2：sin² 1", f"$g_W(1, 1) = \\sin^2 1 \\approx {fx(mpmath.sin(1) ** 2, 4)}$")
check("命題 38.9 の証明 sin² 1", f"値は 0 と $\\sin^2 1 \\approx {fx(mpmath.sin(1) ** 2, 4)}$ で異なります")
truth("命題 38.9 の後 [[a, b], [-b, a]] は (x, y) ↦ (a - b√-1)(x + y√-1)",
      all(abs(complex(*(np.array([[a, b], [-b, a]]) @ np.array([x, y]))) - complex(a, -b) * complex(x, y)) < 1e-12
          for a, b, x, y in rng.standard_normal((20, 4))))
truth("命題 38.9 の後 W = I で命題 38.6 の 1", abs(pe_np(3.0, 16) @ np.eye(16) @ pe_np(11.0, 16) - float(fd(-8, 16))) < 1e-12)
Wg = rng.standard_normal((16, 16))
ap, aq = rng.standard_normal(16), rng.standard_normal(16)
xp, xq = ap + pe_np(5, 16), aq + pe_np(9, 16)
truth("注意 38.10 スコアの 4 項の展開", abs(xp @ Wg @ xq - (ap @ Wg @ aq + ap @ Wg @ pe_np(9, 16) + pe_np(5, 16) @ Wg @ aq + pe_np(5, 16) @ Wg @ pe_np(9, 16))) < 1e-10)
truth("注意 38.10 一般の W では g_W(p, q) は p - q だけで決まらない",
      abs(pe_np(5, 16) @ Wg @ pe_np(9, 16) - pe_np(25, 16) @ Wg @ pe_np(29, 16)) > 1e-3)
qv, kv = rng.standard_normal(16), rng.standard_normal(16)
truth("注意 38.10 RoPE の形 (M_p q)^T (M_p' k) = q^T M_{p'-p} k", abs((M_np(7, 16) @ qv) @ (M_np(19, 16) @ kv) - qv @ M_np(12, 16) @ kv) < 1e-12)

# ======================= 命題 38.12・表 38.4 =======================
# 小さなモデル：位置の表 P (Lmax×d) を足して 1 層の因果注意と出力を計算し、損失の P についての勾配を数値微分で求める
Lmax, d, V = 6, 4, 5
E = rng.standard_normal((V, d)); Pm = rng.standard_normal((Lmax, d))
Wq, Wk, Wv = (rng.standard_normal((d, d)) for _ in range(3))
toks = np.array([1, 3, 0, 4])


def loss(Pm, X0=None):
    n = len(toks)
    X = E[toks] + Pm[:n] if X0 is None else X0
    S = (X @ Wq) @ (X @ Wk).T / 2 + np.triu(np.full((n, n), -1e9), 1)
    A = np.exp(S - S.max(1, keepdims=True)); A /= A.sum(1, keepdims=True)
    Z = (A @ (X @ Wv)) @ E.T
    Z = Z - Z.max(1, keepdims=True)
    return -np.sum(Z[np.arange(n - 1), toks[1:]] - np.log(np.exp(Z[:n - 1]).sum(1)))


def num_grad(fun, X, h=1e-6):
    G = np.zeros_like(X)
    for idx in np.ndindex(X.shape):
        Xp, Xm = X.copy(), X.copy()
        Xp[idx] += h; Xm[idx] -= h
        G[idx] = (fun(Xp) - fun(Xm)) / (2 * h)
    return G


GP = num_grad(loss, Pm)
GX = num_grad(lambda X: loss(Pm, X), E[toks] + Pm[:len(toks)])
truth("命題 38.12 の 2：長さ 4 の列で p ≥ 4 の行の勾配は 0、p < 4 では ∂ℓ/∂P_p = ∂ℓ/∂x_p（数値微分）",
      np.abs(GP[4:]).max() == 0 and np.allclose(GP[:4], GX, atol=1e-6) and np.abs(GP[:4]).max() > 1e-3, 2)
truth("命題 38.12 の 1：パラメータ数 L_max × d（例 Lmax = 6, d = 4 で 24）", Pm.size == Lmax * d == 24)
h4, rows4 = table(4)
truth("表 38.4 の見出しは 6 列", len(h4) == 6)
for row in rows4:
    if row[0].startswith("正弦波"):
        cells("表 38.4 正弦波の行", row, ["正弦波（定義 38.1）", "—", "任意", "0", "0", "0"])
        continue
    L_, d_ = int(row[1].replace(",", "")), int(row[2].replace(",", ""))
    n_ = L_ * d_
    mib = Fraction(4 * n_, 2 ** 20)
    mib_s = str(mib.numerator) if mib.denominator == 1 else str(float(mib))
    truth(f"表 38.4 {row[0]}: MiB は有限小数", Fraction(mib_s) == mib, 0)
    cells(f"表 38.4 {row[0]} の行", row, [row[0], cp(L_), cp(d_), cp(n_), cp(4 * n_), mib_s])
known = {"BERT-base": (512, 768), "BERT-large": (512, 1024), "GPT-2 small": (1024, 768), "GPT-2 XL": (1024, 1600)}
truth("表 38.4 のモデルの L_max と d は公開されている構成（BERT [3]、GPT-2 [4]）",
      all((int(r[1].replace(",", "")), int(r[2].replace(",", ""))) == known[r[0]] for r in rows4 if r[0] in known) and len(rows4) == 5, 4)
truth("表 38.4 とリスティングの最終行", OUT[-1] == f"learned parameters L_max * d: 512*768 = {512 * 768}  1024*768 = {1024 * 768}  1024*1600 = {1024 * 1600}", 0)
Vg, dg, Lg, Lc = 50257, 768, 12, 1024
total = Vg * dg + Lc * dg + Lg * (12 * dg * dg + 13 * dg) + 2 * dg
truth(f"38.5 節 GPT-2 small のパラメータ数（定理 5.1［Transformer ブロック］ の式）= {total}", total == 124439808)
check("38.5 節 124,439,808", f"パラメータ数は ${cm(total)}$ です")
check("38.5 節 位置の表の割合", f"${cm(786432)}/{cm(total)} \\approx {100 * 786432 / total:.3f}$ %")
check("38.5 節 トークンの埋め込み", f"${cm(Vg)} \\times 768 = {cm(Vg * dg)}$ の約 {100 * 786432 / (Vg * dg):.2f} %")
check("38.5 節 正弦波の表の記憶", f"$2{{,}}048 \\times 512 = {cm(2048 * 512)}$ 成分、fp32 で $4 \\times {cm(2048 * 512)}$ バイト $= {4 * 2048 * 512 // 2 ** 20}$ MiB", 3)

# ======================= 命題 38.13・例 38.14 =======================
ok = True
for d in (8, 16, 64, 512):
    for L in (2, 16, 100, 512):
        for i in range(d // 2):
            w = float(om(i, d))
            cond = (L - 1) * w < pi
            eq = 2 * i / d > math.log((L - 1) / pi) / math.log(10000)
            ok &= cond == eq and cond == (float(lam(i, d)) > 2 * (L - 1))
            if cond:
                mn = min(cos(p * w) for p in range(L))
                ps = range(L, min(int(pi / w), L + 3000) + 1)
                ok &= abs(mn - cos((L - 1) * w)) < 1e-15 and all(cos(p * w) < mn for p in ps)
truth("命題 38.13 の 3：d ∈ {8,16,64,512}、L ∈ {2,16,100,512} の全ブロックで条件の同値と、L-1 < p ≤ π/ω_i で cos が学習中の最小値を下回る", ok, 3)
thr2 = mpmath.log(511 / mpmath.pi) / mpmath.log(B)
blocks = [i for i in range(256) if 511 * om(i, 512) < mpmath.pi]
check("例 38.14 閾値", f"$\\log_{{10000}}(511/\\pi) \\approx {fx(thr2, 5)}$ なので、条件は $i > 256 \\times {fx(thr2, 5)} \\approx {fx(256 * thr2, 2)}$", 3)
check("例 38.14 ブロック数", f"つまり $i = {blocks[0]}$ から 255 までの {len(blocks)} ブロックです", 2)
truth("例 38.14 条件を満たすブロックは i ≥ 142 の連続した 114 個", blocks == list(range(142, 256)))
truth("例 38.14 リスティングの 19 行目", OUT[18] == f"blocks with (L-1) w_i < pi: {len(blocks)} (i >= {blocks[0]})", 0)
w255 = om(255, 512)
check("例 38.14 1/ω_255", f"$1/\\omega_{{255}} \\approx {cm(1 / w255, 2)}$")
check("例 38.14 学習中の角度と値", f"$511\\omega_{{255}} \\approx {fx(511 * w255, 5)}$ ラジアンまで、余弦は ${fx(mpmath.cos(511 * w255), 6)}$ 以上、正弦は ${fx(mpmath.sin(511 * w255), 6)}$ 以下", 3)
truth("例 38.14 学習中の余弦の最小・正弦の最大は p = 511", all(mpmath.cos(p * w255) >= mpmath.cos(511 * w255) and mpmath.sin(p * w255) <= mpmath.sin(511 * w255) for p in range(512)), 2)
check("例 38.14 p = 2,047", f"$p = 2{{,}}047$ では角度は約 ${fx(2047 * w255, 5)}$ ラジアン、余弦は約 ${fx(mpmath.cos(2047 * w255), 6)}$、正弦は約 ${fx(mpmath.sin(2047 * w255), 6)}$", 4)
truth("例 38.14 2,047 = 4 × 512 - 1、値は学習中の範囲の外", 2047 == 4 * 512 - 1 and mpmath.cos(2047 * w255) < mpmath.cos(511 * w255) and mpmath.sin(2047 * w255) > mpmath.sin(511 * w255), 2)
truth("例 38.14 リスティングの 20 行目", OUT[19] == f"slowest block: cos((L-1) w) = {fx(mpmath.cos(511 * w255), 6)}  cos(2047 w) = {fx(mpmath.cos(2047 * w255), 6)}", 0)
check("例 38.14 π/ω_255", f"$\\pi/\\omega_{{255}} \\approx {cm(mpmath.pi / w255, 2)}$ なので、位置 512 から ${cm(int(mpmath.pi / w255))}$ までのすべて", 2)
ang = np.sort(np.mod(np.arange(512), 2 * np.pi))
gaps = np.diff(np.concatenate([ang, [ang[0] + 2 * np.pi]]))
check("例 38.14 第 0 ブロックの隙間", f"隙間は最大でも約 {fx(gaps.max(), 4)} ラジアンで、どんな角度も学習中のどれかの角度から約 {fx(gaps.max() / 2, 4)} ラジアン以内", 2)
check("例 38.14 第 0 ブロックの回転数", f"第 0 ブロックは 512 位置の間に {int(512 / lam(0, 512))} 周以上しています")

# ======================= 38.7 節の出力の説明 =======================
truth("出力 1 行目：ノルムがすべて 16", OUT[0] == "norms: min 16.000000  max 16.000000  sqrt(d/2) = 16.000000", 0)
check("38.7 節 2,048 個のノルム", "2,048 個の位置のノルムがすべて $\\sqrt{256} = 16$ です")
errs = [float(l.split("= ")[2].split()[0]) for l in OUT[1:4]]
orth = [float(l.split("= ")[3]) for l in OUT[1:4]]
truth("出力 2〜4 行目：ずれは 10^{-13} 程度（1e-14 〜 1e-12）、直交性は 1e-15 以下", all(1e-14 <= e < 1e-12 for e in errs) and all(o < 1e-15 for o in orth), 2)
check("38.7 節 k = 1, 7, 300", "$k = 1, 7, 300$ の $M_k$")
max_angle = (2048 - 1) * float(om(0, 512))
check("38.7 節 最大の角度 2,047·ω_0 は 2,000 程度", f"角度 $p\\,\\omega_i$ が {cp(round(max_angle, -3))} 程度まで")
check("38.7 節 組の数", f"$2{{,}}048^2 = {cm(2048 ** 2)}$ 組")
truth("出力 5 行目の組の数", OUT[4].endswith(f"over {2048 ** 2} pairs") and float(OUT[4].split("= ")[1].split()[0]) < 1e-10, 0)
truth("出力 18 行目：λ_0、λ_255、公比", OUT[17] == f"d = 512: lambda_0 = {fx(lam(0, 512), 4)}  lambda_255 = {fx(lam(255, 512), 2)}  ratio = {fx(r512, 6)}", 0)
check("38.7 節 行番号の説明", "• 6〜17 行目：表 38.3 の $f_d$ と余弦類似度の欄です。")
truth("38.7 節 出力は 21 行（6 行目が表の見出し、21 行目がパラメータ数）", len(OUT) == 21 and OUT[5].split() == ["k", "f16(k)", "cos16", "f512(k)", "cos512"], 0)

# ======================= 演習 =======================
w8 = [om(i, 8) for i in range(4)]
truth("演習 38.16 ω_i = 10^{-i}", all(abs(w8[i] - mpmath.mpf(10) ** (-i)) < 1e-45 for i in range(4)))
check("演習 38.16 波長", "波長は $2\\pi, 20\\pi, 200\\pi, 2{,}000\\pi \\approx " + ", ".join(cm(lam(i, 8), 4 - i) for i in range(4)) + "$", 4)
check("演習 38.16 公比", "公比は $r = 10{,}000^{1/4} = 10$ です")
f81 = fd(1, 8)
check("演習 38.16 f_8(1)", f"$f_8(1) = \\cos 1 + \\cos 0.1 + \\cos 0.01 + \\cos 0.001 \\approx {fx(f81, 4)}$")
check("演習 38.16 距離", f"$\\|\\mathrm{{PE}}(0) - \\mathrm{{PE}}(1)\\| = \\sqrt{{8 - 2f_8(1)}} \\approx \\sqrt{{{fx(8 - 2 * f81, 4)}}} \\approx {fx(mpmath.sqrt(8 - 2 * f81), 4)}$", 2)
truth("演習 38.17 (1)：M_1^k = M_k（k = 1..6、d = 16）", all(np.allclose(np.linalg.matrix_power(M_np(1, 16), k), M_np(k, 16), atol=1e-12) for k in range(1, 7)))
th = mpmath.mpf(100) - 15 * 2 * mpmath.pi
check("演習 38.17 (2)", f"$100 - 15 \\times 2\\pi \\approx {fx(th, 4)}$")
truth("演習 38.17 (2) 0 ≤ θ < 2π で、R(100) = R(θ)", 0 <= th < 2 * mpmath.pi and np.allclose(M_np(100, 16)[:2, :2], [[cos(float(th)), sin(float(th))], [-sin(float(th)), cos(float(th))]]), 2)
truth("演習 38.17 (3)：整数 k ≠ 0（|k| ≤ 500）で M_k ≠ I", all(np.abs(M_np(k, 16) - np.eye(16)).max() > 1e-3 for k in range(-500, 501) if k))
n18 = 2048 * 1024
check("演習 38.18 パラメータ数と記憶", f"$2{{,}}048 \\times 1{{,}}024 = {cm(n18)}$ 個で、fp32 では $4 \\times {cm(n18)}$ バイト $= {4 * n18 // 2 ** 20}$ MiB、bf16 では {2 * n18 // 2 ** 20} MiB", 3)
check("演習 38.18 広げた行", f"$(8{{,}}192 - 2{{,}}048) \\times 1{{,}}024 = {cm(8192 - 2048)} \\times 1{{,}}024 = {cm((8192 - 2048) * 1024)}$", 2)
thr3 = mpmath.log(2047 / mpmath.pi) / mpmath.log(B)
check("演習 38.18 学習する位置", f"位置 0〜{cp(2048 - 1)} を学習したとき")
bl3 = [i for i in range(512) if 2047 * om(i, 1024) < mpmath.pi]
check("演習 38.18 閾値", f"$\\log_{{10000}}(2{{,}}047/\\pi) \\approx {fx(thr3, 5)}$ で、条件は $i > 512 \\times {fx(thr3, 5)} \\approx {fx(512 * thr3, 2)}$", 3)
check("演習 38.18 ブロック数", f"すなわち $i = {bl3[0]}$ から 511 までの {len(bl3)} ブロック", 2)
truth("演習 38.18 ブロックは連続", bl3 == list(range(bl3[0], 512)))
truth("演習 38.19 cos p cos q = (cos(p-q) + cos(p+q))/2（記号）", sp.simplify(sp.cos(P_) * sp.cos(Q_) - (sp.cos(P_ - Q_) + sp.cos(P_ + Q_)) / 2) == 0)
check("演習 38.19 cos² 1", f"$(1, 1)$ では $\\cos^2 1 \\approx {fx(mpmath.cos(1) ** 2, 4)}$")
truth("演習 38.19 e0e0^T + e1e1^T で g_W = cos(p-q)", abs(pe_np(2.5, 8)[:2] @ pe_np(7.0, 8)[:2] - cos(4.5)) < 1e-14)

# ======================= 本文の数値の網羅性 =======================
body = TEXT.replace(code, "").replace(block or "", "")
body = body[:body.index("参考文献")]
pat = re.compile(r"\d+(?:\{,\}\d{3})+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{4,}")
uncovered = []
for line in body.splitlines():
    for mt in pat.finditer(line):
        tok = mt.group()
        after = line[mt.end():mt.end() + 2]
        if re.fullmatch(r"38\.\d+", tok) or after.startswith("［") or after == " 節" or tok == "3.5" and after == "}$":
            continue                                      # 要素・節の番号、他章の番号、論文の節、10^{3.5}
        if not any(tok in s for s in covered):
            uncovered.append(tok)
truth(f"本文の小数・4 桁以上・3 桁区切りの数はすべて検査済み（未検査: {uncovered}）", not uncovered, 0)

print(f"\n照合した数値の個数: {checked}  失敗: {failures}")
sys.exit(1 if failures else 0)

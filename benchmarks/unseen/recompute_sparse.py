"""sparse.mdx の数値を定義から計算し直し、章に印字された値と照合する。

各項目は、計算した値から章と同じ書式で文字列を組み立て、その文字列が章の本文に
そのまま現れるかを確かめる（数値は計算結果から作るので、章の値の写しではない）。
最後に、章のコードをその場で実行し、出力が章に貼られた出力と完全に一致するかを確かめる。
一つでも合わなければ終了コード 1 を返す。
"""
import contextlib
import io
import math
import re
import sys
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TEXT = (HERE / "sparse.mdx").read_text(encoding="utf-8")

results = []


def check(label, printed):
    ok = printed in TEXT
    results.append(ok)
    print(f"{'OK  ' if ok else 'FAIL'} {label}: {printed}")


def expect(label, ok):
    results.append(bool(ok))
    print(f"{'OK  ' if ok else 'FAIL'} {label}")


def tex(x, sep4=False):
    """TeX の千の位区切り 1{,}966{,}336。4 桁の数は sep4=True のときだけ 1{,}023 と区切る。"""
    s = f"{x:,}"
    return s.replace(",", "{,}") if (x >= 10000 or sep4) else str(x)


def com(x):
    return f"{x:,}"


# ---- 定義（マスク行列）----------------------------------------------------

def offsets(n):
    k = np.arange(n)
    return k[:, None] - k[None, :]


def window(n, w, r=1):
    t = offsets(n)
    return (t >= 0) & (t % r == 0) & (t <= (w - 1) * r)


def causal(n):
    return offsets(n) >= 0


def block_global(n, b, g, causal_version=False):
    i = np.arange(1, n + 1)
    beta = np.ceil(i / b).astype(int)
    m = (beta[:, None] == beta[None, :]) | (i[:, None] <= g) | (i[None, :] <= g)
    return m & causal(n) if causal_version else m


def sink(n, w, g):
    j = np.arange(1, n + 1)
    return window(n, w) | (causal(n) & (j[None, :] <= g))


def nnz(m):
    return int(m.sum())


# 閉じた式（章の命題）
def f_win(n, w, r=1):
    return n * w - r * w * (w - 1) // 2


def f_blk(n, b, g):
    return n * b + 2 * g * (n - b)


def f_blkc(n, b, g):
    return n * (b + 1) // 2 + g * (n - b)


def receptive(m, L, i):
    """R_L(i)（1 から数える）: M^L の第 i 行 e_i^T M^L を、行ベクトルに M を L 回掛けて求める。"""
    v = np.zeros(m.shape[0], dtype=np.int64)
    v[i - 1] = 1
    mi = m.astype(np.int64)
    for _ in range(L):
        v = np.minimum(v @ mi, 1)          # 正かどうかだけを保つ（道の本数のあふれを防ぐ）
    return set((np.flatnonzero(v) + 1).tolist())


def row_counts(m):
    return ", ".join(str(int(c)) for c in m.sum(axis=1))


def mat_tex(m):
    rows = [" & ".join(str(int(v)) for v in row).replace(" ", "") for row in m]
    return r"\begin{pmatrix} " + r" \\ ".join(rows) + r" \end{pmatrix}"


# ---- 式そのものの確認（小さな n での総当たり）------------------------------
ok = all(nnz(window(n, w)) == f_win(n, w) for n in range(1, 40) for w in range(1, n + 1))
expect("prop-window-count: nnz(M_w) = nw - w(w-1)/2 for n < 40", ok)
ok = all(nnz(window(n, w, r)) == f_win(n, w, r)
         for n in range(1, 40) for w in range(1, 8) for r in range(1, 6) if n >= (w - 1) * r)
expect("prop-dilated 1: nnz(M_{w,r}) = nw - r w(w-1)/2 for n >= (w-1)r", ok)
ok = all(nnz(block_global(m_ * b, b, g)) == f_blk(m_ * b, b, g)
         and nnz(block_global(m_ * b, b, g, True)) == f_blkc(m_ * b, b, g)
         for b in range(1, 7) for m_ in range(1, 6) for g in range(1, b + 1))
expect("prop-block-global-count: both closed forms", ok)
ok = True
for n, w in ((20, 1), (20, 2), (20, 3), (30, 5)):
    M = window(n, w)
    for L in (1, 2, 3, 4):
        P = np.linalg.matrix_power(M.astype(np.int64), L)
        for i in range(1, n + 1):
            ok &= receptive(M, L, i) == set(range(max(1, i - L * (w - 1)), i + 1))
            for j in range(1, i + 1):
                t = i - j
                N = sum(1 for s in np.ndindex(*([w] * L)) if sum(s) == t)
                ok &= P[i - 1, j - 1] == N
                if L == 2 and t <= 2 * (w - 1):
                    ok &= P[i - 1, j - 1] == w - abs(t - (w - 1))
expect("thm-window-receptive-field 1-3 (n <= 30)", ok)
ok = True
for n, w, r in ((30, 3, 2), (40, 4, 3)):
    M = window(n, w, r)
    for L in (1, 2, 3):
        for i in range(1, n + 1):
            R = receptive(M, L, i)
            ok &= R == {j for j in range(1, i + 1) if (i - j) % r == 0 and i - j <= L * (w - 1) * r}
            ok &= len(R) == min((i - 1) // r + 1, L * (w - 1) + 1)
expect("prop-dilated 2: receptive field of M_{w,r}", ok)
ok = True
for b, m_, g in ((4, 3, 1), (3, 4, 2), (5, 2, 5)):
    n = b * m_
    G, Gc = block_global(n, b, g), block_global(n, b, g, True)
    for i in range(1, n + 1):
        ok &= receptive(G, 2, i) == set(range(1, n + 1))
        R1 = receptive(Gc, 1, i)
        ok &= all(receptive(Gc, L, i) == R1 for L in (2, 3, 5))
expect("prop-block-global-field: bidirectional R_2 = all, causal R_L = R_1", ok)
ok = all(nnz(sink(n, w, g)) == f_win(n, w) + g * (n - w) - g * (g - 1) // 2
         for n in range(2, 30) for w in range(1, n) for g in range(1, n - w + 1))
expect("exr-sink-window: closed form", ok)
ok = True
for w in (2, 3, 4, 5):
    for n in range((w - 1) * w, (w - 1) * w + 6):
        U = window(n, w) | window(n, w, w)
        ok &= nnz(U) == n * (2 * w - 1) - (w ** 3 - w) // 2
        for i in range(1, n + 1):
            ok &= set(range(max(1, i - w * w + 1), i + 1)) <= receptive(U, 2, i)
expect("exr-strided: closed form and 2-layer field", ok)

# ---- 章の数値 --------------------------------------------------------------
n, w, d, h, b, g, r = 4096, 512, 768, 12, 512, 8, 2
N2, Nc = n * n, n * (n + 1) // 2
Wn = nnz(window(n, w))
assert Wn == f_win(n, w)
proj, full_attn = 4 * n * d * d, 2 * n * n * d

# 0・1 節
check("0: nnz(M_512) at n = 4096", f"$n = 4096$、$w = 512$ では ${tex(Wn)}$ 個で、全注意の約 {100 * Wn / N2:.2f} %")
Lmin = math.ceil((n - 1) / (w - 1))
check("0: layers to cover n = 4096", f"$n = 4096$ 全体に届くには {Lmin} 層")
check("1: 4nd^2", f"$4nd^2 = {tex(proj)}$")
check("1: 2n^2d and ratio", f"$2n^2d = {tex(full_attn)}$ が約 {full_attn / proj:.3f} 倍")
# 2 節
check("2: n^2 and nnz(C)", f"$n^2 = {tex(N2)}$、$\\mathrm{{nnz}}(C) = 4096 \\times 4097/2 = {tex(nnz(causal(n)))}$")
# 例 3.3
M3, M32 = window(8, 3), window(8, 3, 2)
check("ex-window-small: M_3", "M_3 = " + mat_tex(M3))
check("ex-window-small: M_{3,2}", "M_{3,2} = " + mat_tex(M32))
check("ex-window-small: row counts of M_3", f"$M_3$ の行ごとの個数は ${row_counts(M3)}$")
check("ex-window-small: nnz(M_3)", f"$8 \\times 3 - 3 \\times 2/2 = {8 * 3} - {3 * 2 // 2} = {nnz(M3)}$")
check("ex-window-small: causal and full at n = 8", f"$8 \\times 9/2 = {nnz(causal(8))}$ 個、全注意の {8 * 8} 個")
check("ex-window-small: 21/64", f"${nnz(M3)}/64 \\approx {nnz(M3) / 64:.4f}$")
check("ex-window-small: n = 4096 parts",
      f"$4096 \\times 512 = {tex(n * w)}$、$512 \\times 511/2 = {tex(w * (w - 1) // 2)}$ なので、"
      f"$\\mathrm{{nnz}}(M_{{512}}) = {tex(Wn)}$")
check("ex-window-small: ratios",
      f"全注意の ${tex(N2)}$ 個の約 {100 * Wn / N2:.2f} %、因果マスクの ${tex(Nc)}$ 個の約 {100 * Wn / Nc:.2f} %")
# 例 4.4
row8 = np.linalg.matrix_power(M3.astype(np.int64), 2)[-1]
check("ex-receptive-field: row 8 of M_3^2", "$(" + ", ".join(str(v) for v in row8) + ")$")
check("ex-receptive-field: sum and size",
      f"和は $3^2 = {int(row8.sum())}$、受容野は $\\{{{min(receptive(M3, 2, 8))}, \\ldots, 8\\}}$ の "
      f"$2 \\times 2 + 1 = {len(receptive(M3, 2, 8))}$ 個")
check("ex-receptive-field: most paths", f"$j = {int(np.argmax(row8)) + 1}$ が最も多くの道（{int(row8.max())} 本）")
sizes = [len(receptive(window(5000, w), L, 5000)) for L in (1, 2, 4, 8, 9)]
check("ex-receptive-field: |R_L(n)| for w = 512",
      "で " + "、".join(f"${tex(v, sep4=True)}$" for v in sizes) + " です")
check("ex-receptive-field: 4095/511", f"$4095/511 \\approx {4095 / 511:.3f}$ なので {Lmin} 層が要り、8 層では {n - (8 * 511 + 1)} 個足りません")
check("ex-receptive-field: Mistral-like", f"$32 \\times 4095 + 1 = {tex(32 * 4095 + 1)}$")
check("ex-receptive-field: layers for 131,072",
      f"$\\lceil {tex(131071)}/{tex(4095, sep4=True)} \\rceil = {math.ceil(131071 / 4095)}$ 層")
# 5 節
check("dilated: row counts of M_{3,2}", f"行ごとの個数は ${row_counts(M32)}$")
check("dilated: nnz(M_{3,2})", f"$8 \\times 3 - 2 \\times 3 \\times 2/2 = {8 * 3} - {2 * 3 * 2 // 2} = {nnz(M32)}$")
Dn = nnz(window(n, w, r))
check("dilated: n = 4096 numbers",
      f"$r\\,w(w-1)/2 = {tex(r * w * (w - 1) // 2)}$ で、$\\mathrm{{nnz}} = {tex(Dn)}$ です。同じ $w$ の窓より ${tex(Wn - Dn)}$ 個少なく、"
      f"1 層で届く距離は $(w-1)r = {tex((w - 1) * r, sep4=True)}$")
# 6 節
Gc41, G41 = block_global(8, 4, 1, True), block_global(8, 4, 1)
check("ex-block-global-small: causal count", f"$8 \\times 5/2 + 1 \\times 4 = {8 * 5 // 2} + {4} = {nnz(Gc41)}$")
check("ex-block-global-small: bidirectional count", f"$8 \\times 4 + 2 \\times 1 \\times 4 = {nnz(G41)}$")
check("ex-block-global-small: field of row 8",
      "$\\{" + ", ".join(str(j) for j in sorted(receptive(Gc41, 5, 8))) + "\\}$ のまま")
# 表 1
half = Nc
table1 = [("全注意", "$n^2$", N2),
          ("因果マスク", "$n(n+1)/2$", nnz(causal(n))),
          ("窓 $w = 512$", "$nw - w(w-1)/2$", Wn),
          ("拡張 $w = 512$, $r = 2$", "$nw - r\\,w(w-1)/2$", Dn),
          ("ブロックと大域", "$nb + 2g(n-b)$", nnz(block_global(n, b, g))),
          ("その因果版", "$n(b+1)/2 + g(n-b)$", nnz(block_global(n, b, g, True)))]
for name, form, c in table1:
    check(f"table 1: {name}", f"| {name} | {form} | {com(c)} | {c / N2:.4f} | {c / half:.4f} |")
check("ex-cost-4096: block parts",
      f"$nb = {tex(n * b)}$ に $2 \\times 8 \\times 3584 = {tex(2 * g * (n - b))}$ を足したもの、"
      f"因果版は $4096 \\times 513/2 = {tex(n * (b + 1) // 2)}$ に $8 \\times 3584 = {tex(g * (n - b))}$")
att = 2 * d * Wn
check("ex-cost-4096: attention term",
      f"$2 \\times 768 \\times {tex(Wn)} = {tex(att)}$ 回で、全注意の ${tex(full_attn)}$ 回の約 {100 * att / full_attn:.2f} %")
check("ex-cost-4096: totals",
      f"射影の ${tex(proj)}$ 回は減らないので、1 層の合計は ${tex(proj + att)}$ 回対 ${tex(proj + full_attn)}$ 回で、"
      f"比は約 {(proj + att) / (proj + full_attn):.4f}")
check("ex-cost-4096: weight memory",
      f"$12 \\times {tex(Wn)} = {tex(h * Wn)}$ 個対 $12 \\times {tex(N2)} = {tex(h * N2)}$ 個")
# 表 2（窓の nnz は行ごとの min(i, w) の和で数える）
prev = None
for nn in (1024, 2048, 4096, 8192, 16384, 32768):
    c = int(np.minimum(np.arange(1, nn + 1), w).sum())
    assert c == f_win(nn, w)
    layer = (4 * nn * d * d + 2 * d * c) / (4 * nn * d * d + 2 * nn * nn * d)
    ratio = "" if prev is None else f"{c / prev:.3f}"
    row = f"| {nn} | {com(nn * (nn + 1) // 2)} | {com(c)} | {ratio} | {c / nn ** 2:.4f} | {layer:.4f} |"
    check(f"table 2: n = {nn}", row.replace("|  |", "| |"))
    prev = c
cw = w * (w - 1) // 2
check("ex-cost-4096: doubling ratio at 8192",
      f"$n = 8192$ の比 {f_win(8192, w) / f_win(4096, w):.3f} は $2 + {tex(cw)}/{tex(f_win(4096, w))}$")
expect("ex-cost-4096: 2 + c/(nw - c) equals the ratio", abs(2 + cw / f_win(4096, w) - f_win(8192, w) / f_win(4096, w)) < 1e-12)
l1024 = (4 * 1024 * d * d + 2 * d * f_win(1024, w)) / (4 * 1024 * d * d + 2 * 1024 ** 2 * d)
check("ex-cost-4096: n = 1024 layer ratio", f"1 層の比は約 {l1024:.4f} です")
# KV キャッシュ
L12 = 12
kv_w, kv_full = 2 * L12 * w * d, 2 * L12 * n * d
check("kv: window cache", f"$2 \\times 12 \\times 512 \\times 768 = {tex(kv_w)}$ 個（16 ビットで {2 * kv_w // 2 ** 20} MiB）")
check("kv: full cache", f"$2 \\times 12 \\times 4096 \\times 768 = {tex(kv_full)}$ 個（{2 * kv_full // 2 ** 20} MiB）の {kv_full // kv_w} 分の 1")
tok_w, tok_f = 12 * d * d + 2 * w * d, 12 * d * d + 2 * n * d
check("kv: per-token parts",
      f"$12 \\times 768^2 = {tex(12 * d * d)}$ に窓なら $2 \\times 512 \\times 768 = {tex(2 * w * d)}$、"
      f"全注意なら $2 \\times 4096 \\times 768 = {tex(2 * n * d)}$")
check("kv: per-token totals", f"${tex(tok_w)}$ 回対 ${tex(tok_f)}$ 回、比は約 {tok_w / tok_f:.4f}")
# 8 節の箇条書き
Rd = receptive(window(64, 4, 2), 3, 64)
check("listing notes: dilated field size",
      f"$\\min(\\lfloor 63/2 \\rfloor + 1,\\ 3 \\times 3 + 1) = {len(Rd)}$ 個で、最小の位置は $64 - 9 \\times 2 = {min(Rd)}$")
# 演習
S = nnz(sink(n, w, 4))
check("exr-sink-window: value",
      f"${tex(Wn)} + 4 \\times 3584 - 6 = {tex(S)}$ 個で、増えたのは ${tex(S - Wn)}$ 個、窓の約 {100 * (S - Wn) / Wn:.4f} %")
check("exr-sink-window: ratio", f"$n^2$ との比は約 {S / N2:.4f} です")
expect("exr-sink-window: parts 4 x 3584 and 6", 4 * (n - w) - 4 * 3 // 2 == S - Wn)
ws = 64
U = nnz(window(n, ws) | window(n, ws, ws))
check("exr-strided: value",
      f"$4096 \\times 127 - ({tex(ws ** 3)} - 64)/2 = {tex(n * 127)} - {tex((ws ** 3 - ws) // 2)} = {tex(U)}$ 個")
check("exr-strided: ratio", f"$n^2$ との比は約 {U / N2:.5f}")
check("exr-strided: w^2", f"$w^2 = {ws * ws}$ 個の位置")

# ---- コードの実行と出力の照合 ------------------------------------------------
m = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", TEXT, re.S)
code, printed = m.group(1), m.group(2)
mod = types.ModuleType("sparse_masks")
exec(compile(code, "sparse_masks.py", "exec"), mod.__dict__)
sys.modules["sparse_masks"] = mod
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    exec(compile(code, "sparse_masks.py", "exec"), {"__name__": "__main__"})
expect("listing sparse_masks.py: output identical to the printed output", buf.getvalue() == printed)
if buf.getvalue() != printed:
    print(buf.getvalue())

n_ok = sum(results)
print(f"{n_ok}/{len(results)} checks passed")
sys.exit(0 if n_ok == len(results) else 1)

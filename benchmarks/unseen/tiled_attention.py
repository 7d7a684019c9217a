# Python 3.11.7, NumPy 2.4.6
import numpy as np

def attention(Q, K, V, causal=False):
    n, d = Q.shape
    S = Q @ K.T / np.sqrt(d)
    if causal:
        S = np.where(np.tril(np.ones((n, n), dtype=bool)), S, -np.inf)
    P = np.exp(S - S.max(axis=1, keepdims=True))
    return (P / P.sum(axis=1, keepdims=True)) @ V

def online_scan(z, B):                                        # 各ブロックの後の (係数, m, l)
    m, l, out = -np.inf, 0.0, []
    for j in range(0, len(z), B):
        m_new = max(m, z[j:j + B].max())
        alpha = np.exp(m - m_new)
        l, m = alpha * l + np.exp(z[j:j + B] - m_new).sum(), m_new
        out.append((alpha, m, l))
    return out

def tiled_attention(Q, K, V, Br, Bc, causal=False):
    """タイル分割した注意（前向き）。出力 O、L = m + log l、HBM との読み書きの個数を返す。"""
    n, d = Q.shape
    O, L, io = np.zeros((n, d)), np.zeros(n), 0
    for r in range(0, n, Br):
        Qi = Q[r:r + Br]; io += Qi.size                      # Q_i を読む
        rows = np.arange(r, r + len(Qi))
        m, l, acc = np.full(len(Qi), -np.inf), np.zeros(len(Qi)), np.zeros((len(Qi), d))
        for c in range(0, n, Bc):
            if causal and c > rows[-1]:
                break                                         # すべてマスクされるタイルは読まない
            Kj, Vj = K[c:c + Bc], V[c:c + Bc]; io += Kj.size + Vj.size
            S = Qi @ Kj.T / np.sqrt(d)
            if causal:
                S = np.where(rows[:, None] >= np.arange(c, c + len(Kj)), S, -np.inf)
            m_new = np.maximum(m, S.max(axis=1))
            alpha = np.exp(m - m_new)                         # 再スケーリングの係数
            P = np.exp(S - m_new[:, None])
            l, acc, m = alpha * l + P.sum(axis=1), alpha[:, None] * acc + P @ Vj, m_new
        O[r:r + Br], L[r:r + Br] = acc / l[:, None], m + np.log(l)
        io += acc.size + len(Qi)                              # O_i と L_i を書く
    return O, L, io

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n, d = 8, 4
    Q, K, V = rng.standard_normal((3, n, d))
    s = Q @ K.T / np.sqrt(d)
    print("row 1 scores:", " ".join(f"{v:.4f}" for v in s[0]))
    for a, m, l in online_scan(s[0], 2):
        print(f"alpha {a:.4f}  m {m:.4f}  l {l:.4f}")
    lse = np.log(np.exp(s).sum(axis=1))
    for Br, Bc, causal in ((2, 2, False), (4, 2, False), (8, 8, False), (2, 2, True)):
        O, L, io = tiled_attention(Q, K, V, Br, Bc, causal)
        err = np.abs(O - attention(Q, K, V, causal)).max()
        lerr = "-" if causal else f"{np.abs(L - lse).max():.1e}"
        print(f"Br={Br} Bc={Bc} causal={causal!s:5}  max|O - O_def| = {err:.1e}  max|L - LSE| = {lerr}  io = {io}")
    print("standard io >= 4n^2 + 4nd =", 4 * n * n + 4 * n * d)
    Q, K, V = rng.standard_normal((3, 1024, 64))              # 6 節の表の n = 1024 の行
    O, L, io = tiled_attention(Q, K, V, 256, 64)
    print(f"n=1024 d=64 Br=256 Bc=64  max|O - O_def| = {np.abs(O - attention(Q, K, V)).max():.1e}  io = {io}")

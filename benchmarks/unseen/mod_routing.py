# Python 3.11.7, NumPy 2.4.6
import math
import numpy as np

d, L, T = 2048, 24, 4096
routed = range(1, L, 2)                           # 2, 4, ..., 24 番目のブロック（12 個）で経路選択
mult = lambda n: 12 * n * d * d + 2 * n * n * d   # n 個のトークンを処理する 1 ブロックの乗算の回数

def topk(r, C):
    """スコア r の大きい C 個の位置を昇順で返す（同点は前の位置を優先）。"""
    return np.sort(np.argsort(-r, kind="stable")[:C])

def mod_block(X, w, C, f):
    r = X @ w                                     # ルーターのスコア
    S = topk(r, C)
    Y = X.copy()
    Y[S] += r[S, None] * f(X[S])                  # 選ばれた位置だけ処理し、スコアを掛けて足す
    return Y, S

def expected_depth(q, L, m=1):                    # 層 m, ..., L-1 で確率 q で抜けるときの E[D]
    return m + (1 - q) * (1 - (1 - q) ** (L - m)) / q

if __name__ == "__main__":
    Lr = len(routed)
    for rho in (1, 0.5, 0.3, 0.25, 0.125, 0.0625):
        C = math.ceil(rho * T)
        R = mult(C) / mult(T)
        print("rho %.4f  C %4d  block %.6f  model %.6f  blocks/token %.4f" % (rho, C, R,
              (L - Lr + Lr * (R + (T + C) * d / mult(T))) / L, L - Lr + Lr * C / T))
    rng = np.random.default_rng(0)
    X, w, W = rng.standard_normal((8, 4)), rng.standard_normal(4), rng.standard_normal((4, 4))
    f = lambda Z: np.tanh(np.cumsum(Z, axis=0) / np.arange(1, len(Z) + 1)[:, None] @ W)  # 因果的な混合
    Y, S = mod_block(X, w, 2, f)
    X2 = X.copy()
    X2[7] = 3 * w                                 # 8 番目（最後）のトークンだけを変える
    Y2, S2 = mod_block(X2, w, 2, f)
    print("selected", S + 1, "->", S2 + 1,
          "  rows changed:", np.flatnonzero(np.abs(Y2 - Y).max(axis=1) > 0) + 1)
    print("unselected rows unchanged:", np.array_equal(np.delete(Y, S, 0), np.delete(X, S, 0)))
    K = np.zeros(T, dtype=int)                    # 各トークンを処理したブロックの数
    for l in range(L):
        K[topk(rng.standard_normal(T), T // 8) if l in routed else np.arange(T)] += 1
    print("blocks per token: mean %.4f  min %d  max %d  share with 12: %.4f"
          % (K.mean(), K.min(), K.max(), np.mean(K == 12)))
    U = rng.random((2000, T))                     # 一様なスコアに固定の閾値 7/8 を使う
    N = (U > 7 / 8).sum(axis=1)
    print("threshold 7/8: mean N %.2f  mean |N - 512| %.3f  P(N > 512) %.4f"
          % (N.mean(), np.abs(N - 512).mean(), np.mean(N > 512)))
    for q, m in ((0.1, 1), (0.2, 8)):
        exits = rng.random((200000, L - 1)) < q   # 列 j が層 j + 1 での判定
        exits[:, :m - 1] = False
        D = np.where(exits.any(axis=1), exits.argmax(axis=1) + 1, L)
        print("early exit q %.1f  m %d: simulated E[D] %.4f  formula %.4f"
              % (q, m, D.mean(), expected_depth(q, L, m)))

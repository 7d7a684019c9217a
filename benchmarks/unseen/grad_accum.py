# Python 3.11.7, NumPy 2.4.6
import numpy as np
def token_grads(W, X, y):                             # トークンごとの交差エントロピーの勾配 (N, d, V)
    Z = X @ W
    P = np.exp(Z - Z.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    P[np.arange(len(y)), y] -= 1.0                    # ロジットについての勾配 p - e_y
    return np.einsum("nd,nv->ndv", X, P)
def grad_mean(W, X, y):                               # トークン平均の損失の勾配
    return token_grads(W, X, y).mean(axis=0)
def adam(grad_fn, W, steps=5, lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    m, v = np.zeros_like(W), np.zeros_like(W)
    for t in range(1, steps + 1):
        g = grad_fn(W)
        m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        W = W - lr * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps)
    return W
rng = np.random.default_rng(0)
N, d, V, K = 64, 8, 5, 4
X, y = rng.standard_normal((N, d)), rng.integers(0, V, N)
W = 0.1 * rng.standard_normal((d, V))
full = grad_mean(W, X, y)
equal = np.split(np.arange(N), K)                     # 16 トークンずつ 4 個のマイクロバッチ
acc = sum(grad_mean(W, X[p], y[p]) / K for p in equal)
acc_sum = sum(grad_mean(W, X[p], y[p]) for p in equal)
print("equal sizes   max|A_mean - grad| = %.1e" % np.abs(acc - full).max())
print("without 1/K   |A_sum| / |grad| = %.3f" % (np.linalg.norm(acc_sum) / np.linalg.norm(full)))
unequal = np.split(np.arange(N), [40, 52, 60])        # 40, 12, 8, 4 トークン
mom = sum(grad_mean(W, X[p], y[p]) / K for p in unequal)
tok = sum(len(p) / N * grad_mean(W, X[p], y[p]) for p in unequal)
print("sizes", [len(p) for p in unequal], " mean of means: rel. error %.3f" % (np.linalg.norm(mom - full) / np.linalg.norm(full)),
      "  token-weighted: max error %.1e" % np.abs(tok - full).max())
forgot = lambda W: sum(grad_mean(W, X[p], y[p]) for p in equal)          # 1/K を忘れた累積
right = lambda W: sum(grad_mean(W, X[p], y[p]) / K for p in equal)
WA, WB, WC = adam(forgot, W), adam(right, W, eps=1e-8 / K), adam(right, W)
print("Adam: K*g with eps vs g with eps/K  max|diff| = %.1e" % np.abs(WA - WB).max())
print("Adam: K*g with eps vs g with eps    max|diff| = %.1e" % np.abs(WA - WC).max())

# Python 3.11.7, NumPy 2.4.6。random_projection.py は前のコード
import numpy as np
from random_projection import gaussian_projection
rank = np.linalg.matrix_rank
def softmax(Z):
    E = np.exp(Z - Z.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)
def nystrom(G, J):
    """G[:, J] G[J, J]^{-1} G[J, :]（定義 34.15）。"""
    return G[:, J] @ np.linalg.solve(G[np.ix_(J, J)], G[J, :])
if __name__ == "__main__":
    q = np.array([[0.0], [1.0], [2.0]])                   # 例 34.11：d_k = 1
    print("d_k=1: rank S = %d  rank A = %d  det exp(S) = %.4f  det A = %.5f"
          % (rank(q @ q.T), rank(softmax(q @ q.T)), np.linalg.det(np.exp(q @ q.T)), np.linalg.det(softmax(q @ q.T))))
    rng = np.random.default_rng(1)
    Q, K = rng.standard_normal((64, 8)), rng.standard_normal((64, 8))
    S = Q @ K.T / np.sqrt(8)
    print("n=64, d_k=8: rank S = %d  rank S^2 = %d  rank A = %d" % (rank(S), rank(S ** 2), rank(softmax(S))))
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])  # 例 34.17：u, w, u, w
    G, v = np.exp(X @ X.T / np.sqrt(2)), np.array([1.0, 2.0, 3.0, 4.0])
    Gh = nystrom(G, [0, 1])
    print("rank G = %d  max|G - Nystrom| = %.1e  outputs" % (rank(G), np.abs(G - Gh).max()),
          " ".join("%.5f" % o for o in Gh @ v / Gh.sum(axis=1)))
    n, dk, k = 256, 16, 64                                 # 命題 34.14：系列方向のガウス射影
    Q, K, V = (rng.standard_normal((n, dk)) for _ in range(3))
    A = softmax(Q @ K.T / np.sqrt(dk))
    a0, v0 = A[0], V[:, 0]                                 # (A R^T R V) の (1, 1) 成分 = <R a0, R v0>
    est = np.array([(R @ a0) @ (R @ v0) for R in (gaussian_projection(k, n, rng) for _ in range(20000))])
    print("entry (1,1): exact %.4f  mean %.4f  var %.5f  formula %.5f"
          % (a0 @ v0, est.mean(), est.var(), (a0 @ a0 * v0 @ v0 + (a0 @ v0) ** 2) / k))
    print("mean |a_i|^2 = %.4f  mean max_j A_ij = %.4f  1/n = %.4f"
          % ((A ** 2).sum(axis=1).mean(), A.max(axis=1).mean(), 1 / n))
    d, k, m = 64, 256, 64                                  # 表 34.2・34.3：1 ヘッド、d_k = d_v = 64
    cost = {"standard": lambda n: n * n * 2 * d, "Linformer": lambda n: 2 * n * k * 2 * d,
            "Nystrom": lambda n: 2 * n * m * 2 * d + m * m * d + m ** 3}
    for n in (1024, 4096, 16384, 65536):
        print("n=%5d " % n + "  ".join("%s %d (%.5f)" % (s, c(n), c(n) / cost["standard"](n)) for s, c in cost.items()))

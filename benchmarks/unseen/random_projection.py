# Python 3.11.7, NumPy 2.4.6
import numpy as np
def gaussian_projection(k, d, rng):
    """成分が独立に N(0, 1/k) の k×d 行列（定義 34.1）。"""
    return rng.standard_normal((k, d)) / np.sqrt(k)
def k_jl(n, eps, delta=None):
    """定理 34.5 の次元。delta を与えると失敗の確率を delta 以下にする次元。"""
    top = 4 * np.log(n) if delta is None else 2 * np.log(n * (n - 1) / delta)
    return int(np.ceil(top / (eps ** 2 / 2 - eps ** 3 / 3)))
def sq_dists(X):
    """行どうしの距離の 2 乗を、i < j の組について並べたもの。"""
    G = X @ X.T
    D = np.diag(G)[:, None] + np.diag(G)[None, :] - 2 * G
    return D[np.triu_indices(len(X), 1)]
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    d, trials = 16, 20000
    x, y = np.zeros(d), np.zeros(d)
    x[:3], y[:3] = (1.0, 2.0, 2.0), (2.0, -1.0, 2.0)     # |x|^2 = |y|^2 = 9, <x, y> = 4
    print("   k  mean|Rx|^2  var|Rx|^2  2|x|^4/k  mean<Rx,Ry>  var<Rx,Ry>  theory")
    for k in (4, 16, 64):
        R = rng.standard_normal((trials, k, d)) / np.sqrt(k)
        Rx, Ry = R @ x, R @ y
        nx, ip = (Rx ** 2).sum(axis=1), (Rx * Ry).sum(axis=1)
        print("%4d %10.3f %10.3f %9.3f %12.3f %11.3f %7.3f"
              % (k, nx.mean(), nx.var(), 2 * 81 / k, ip.mean(), ip.var(), (81 + 16) / k))
    n, D = 100, 1000                                       # 100 点・1000 次元の JL 実験
    X = rng.standard_normal((n, D))
    base = sq_dists(X)
    print("k_jl(100, 0.5) =", k_jl(100, 0.5), "  with delta = 0.01:", k_jl(100, 0.5, 0.01))
    for k in (25, 100, k_jl(100, 0.5), k_jl(100, 0.5, 0.01)):
        ratio = sq_dists(X @ gaussian_projection(k, D, rng).T) / base
        print("k = %3d  min ratio %.3f  max ratio %.3f  pairs %d" % (k, ratio.min(), ratio.max(), ratio.size))
    for n in (1024, 4096, 65536, 1048576):
        print("n = %7d  k_jl: eps=0.1 %5d  eps=0.2 %4d  eps=0.5 %3d"
              % (n, k_jl(n, 0.1), k_jl(n, 0.2), k_jl(n, 0.5)))

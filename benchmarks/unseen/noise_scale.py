# Python 3.11.7, NumPy 2.4.6
import numpy as np
rng = np.random.default_rng(1)
N, D, T = 200, 10, 20000                                           # 例の数、次元、ミニバッチの個数
g = 0.3 + rng.standard_normal((N, D)) * np.linspace(0.5, 2.0, D)   # 例ごとの勾配 g_1, ..., g_N
G = g.mean(axis=0)
s2 = ((g - G) ** 2).sum(axis=1).mean()                             # sigma^2 = tr Σ（N で割る）
print("|G|^2 = %.4f   sigma^2 = %.4f   B_simple = %.2f" % (G @ G, s2, s2 / (G @ G)))
print("   B  with repl.  sigma^2/B    without  x(N-B)/(N-1)")
for B in (1, 8, 64, 200):
    gw = g[rng.integers(0, N, (T, B))].mean(axis=1)                       # 復元抽出
    gwo = g[np.argsort(rng.random((T, N)), axis=1)[:, :B]].mean(axis=1)   # 非復元抽出
    print("%4d %10.4f %10.4f %10.4f %10.4f" % (B, ((gw - G) ** 2).sum(axis=1).mean(), s2 / B,
          ((gwo - G) ** 2).sum(axis=1).mean(), s2 / B * (N - B) / (N - 1)))
sq = lambda B: np.mean([np.sum(g[rng.integers(0, N, B)].mean(axis=0) ** 2) for _ in range(4000)])
n8, n128 = sq(8), sq(128)                                          # |g_B|^2 の 4,000 回の平均
G2, S = (128 * n128 - 8 * n8) / (128 - 8), (n8 - n128) / (1 / 8 - 1 / 128)   # 命題 18.11
print("mean |g_B|^2: B=8 %.4f  B=128 %.4f  ->  |G|^2 = %.4f  sigma^2 = %.4f  B_simple = %.2f"
      % (n8, n128, G2, S, S / G2))

# Python 3.11.7, NumPy 2.4.6
import numpy as np

def windows(N, L, s):
    """定義 32.16 の窓。(窓の始まり b, その窓で採点する位置の配列) の列を返す（位置は 0 始まり）。"""
    K = 1 + -(-(N - L) // s)                          # 1 + ceil((N - L)/s)
    ends = [min(k * s + L, N) for k in range(K)]
    return [(k * s, np.arange(ends[k - 1] if k else 0, ends[k])) for k in range(K)]

N, L, P, V = 32, 8, 5, 16                             # 例 32.18
x = np.arange(N) % P                                  # 周期 P の文章 0,1,2,3,4,0,1,...
print("  s   K  positions  min ctx  H (nats)    PPL    bits  code")
for s in (8, 4, 3, 2, 1):
    W = windows(N, L, s)
    assert np.array_equal(np.sort(np.concatenate([ts for _, ts in W])), np.arange(N))   # ちょうど 1 回ずつ
    # コピーするモデル：位置 t - P が窓の中に見えていれば x[t - P] に 0.9、見えていなければ一様
    q = np.array([(0.9 if x[t] == x[t - P] else 0.1 / (V - 1)) if t - P >= b else 1 / V
                  for b, ts in W for t in ts])
    ctx = [t - b for b, ts in W for t in ts if t >= L]
    H, bits = -np.mean(np.log(q)), -np.sum(np.log2(q))
    print(f"{s:3d} {len(W):3d} {sum(min(b + L, N) - b for b, _ in W):10d} {min(ctx):8d}"
          f" {H:9.6f} {np.exp(H):6.3f} {bits:7.2f} {int(np.ceil(bits)):5d}")

# Python 3.11.7, NumPy 2.4.6
import numpy as np

def overlap(p, q):                                           # 受理率 alpha
    return float(np.minimum(p, q).sum())

def residual(p, q):                                          # norm(max(0, p - q))
    r = np.maximum(p - q, 0.0)
    return r / r.sum()

def speculative_token(p, q, rng):
    """q から 1 個引き、確率 min(1, p/q) で受理する。棄却なら残差分布から引く。"""
    x = rng.choice(len(q), p=q)
    if rng.random() < p[x] / q[x]:
        return x, True
    return rng.choice(len(p), p=residual(p, q)), False

def speculative_step(prefix, target, draft, gamma, rng):
    """1 ステップで出るトークンのリスト。target と draft は接頭辞から次の分布を返す関数。"""
    xs, qs = [], []
    for _ in range(gamma):                                   # 下書きを gamma 個
        qs.append(draft(prefix + xs))
        xs.append(int(rng.choice(len(qs[-1]), p=qs[-1])))
    ps = [target(prefix + xs[:i]) for i in range(gamma + 1)]  # 目標モデル 1 回分
    out = []
    for i in range(gamma):
        if rng.random() < ps[i][xs[i]] / qs[i][xs[i]]:
            out.append(xs[i])
        else:
            out.append(int(rng.choice(len(ps[i]), p=residual(ps[i], qs[i]))))
            return out
    out.append(int(rng.choice(len(ps[gamma]), p=ps[gamma])))
    return out

if __name__ == "__main__":
    p, q = np.array([0.5, 0.2, 0.2, 0.1]), np.array([0.3, 0.4, 0.1, 0.2])
    print(f"alpha {overlap(p, q):.4f}  TV {0.5 * np.abs(p - q).sum():.4f}  accept",
          np.minimum(1, p / q), " residual", residual(p, q).round(4))
    rng = np.random.default_rng(0)
    draws = [speculative_token(p, q, rng) for _ in range(200_000)]
    freq = np.bincount([x for x, _ in draws], minlength=4) / len(draws)
    print("frequencies", freq.round(4), f" acceptance rate {np.mean([a for _, a in draws]):.4f}")
    steps = [len(speculative_step([], lambda s: p, lambda s: q, 4, rng)) for _ in range(50_000)]
    print(f"gamma=4: tokens per step {np.mean(steps):.4f}  formula {(1 - 0.7 ** 5) / 0.3:.4f}")
    softmax = lambda Z: np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)
    Z = rng.standard_normal((4, 4))                        # 直前のトークンで決まる分布
    P, Q = softmax(Z), softmax(Z + 0.7 * rng.standard_normal((4, 4)))
    print("alpha by previous token", np.round([overlap(P[j], Q[j]) for j in range(4)], 4))
    target, draft = (lambda s: P[(s or [0])[-1]]), (lambda s: Q[(s or [0])[-1]])
    counts = np.zeros((4, 4, 4))
    for _ in range(20_000):
        seq = []
        while len(seq) < 3:
            seq += speculative_step(seq, target, draft, 2, rng)
        counts[tuple(seq[:3])] += 1
    exact = P[0][:, None, None] * P[:, :, None] * P[None, :, :]
    direct = np.bincount(rng.choice(64, size=20_000, p=exact.ravel()), minlength=64) / 20_000
    print(f"first 3 tokens: TV to exact {0.5 * np.abs(counts.ravel() / 20_000 - exact.ravel()).sum():.4f}"
          f"  (direct sampling {0.5 * np.abs(direct - exact.ravel()).sum():.4f})")

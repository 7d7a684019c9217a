# Python 3.11.7, NumPy 2.4.6
import numpy as np

def adam_step(theta, g, state, lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, decoupled=True, correct=True):
    """Adam の 1 ステップ。decoupled=True なら AdamW、False なら L2 正則化。state = [t, m, v] を書き換える。"""
    if not decoupled:
        g = g + wd * theta                       # L2：勾配に λθ を足す
    t = state[0] + 1
    m = b1 * state[1] + (1 - b1) * g
    v = b2 * state[2] + (1 - b2) * g * g
    state[:] = [t, m, v]
    if correct:                                  # バイアス補正
        m, v = m / (1 - b1**t), v / (1 - b2**t)
    step = m / (np.sqrt(v) + eps)
    if decoupled:
        step = step + wd * theta                 # 分離した重み減衰
    return theta - lr * step

def last_step(grads, **kw):                      # 勾配の列を順に与え、最後の |Δ_t|/α_t を返す
    state = [0, 0.0, 0.0]
    for g in grads:
        step = -adam_step(0.0, g, state, 1.0, **kw)
    return np.abs(step)

def schedule(t, lr_max, lr_min, T_w, T):         # 線形ウォームアップとコサイン減衰（t = 1, 2, ... の配列）
    cos = lr_min + 0.5 * (lr_max - lr_min) * (1 + np.cos(np.pi * (np.minimum(t, T) - T_w) / (T - T_w)))
    return np.where(t <= T_w, lr_max * t / T_w, cos)

if __name__ == "__main__":
    g = np.array([3.0, -0.002])
    print("first step |D|/lr: corrected %.6f %.6f  uncorrected %.6f %.6f"
          % (*last_step([g]), *last_step([g], correct=False)))
    b1, b2, t, rng = 0.9, 0.999, 100, np.random.default_rng(0)
    gam = b1 * b1 / b2
    B = (1 - b1) * np.sqrt((1 - b2**t) * (1 - gam**t) / (1 - gam)) / ((1 - b1**t) * np.sqrt(1 - b2))
    worst, spike = (b1 / b2) ** np.arange(t - 1, -1, -1), np.r_[np.zeros(t - 1), 1.0]
    G = rng.standard_normal((t, 100000)) + rng.uniform(-1, 1, 100000)
    print("t = 100: B_t %.6f  worst %.6f  spike %.6f  constant %.6f  random max %.6f"
          % (B, *(last_step(s).max() for s in (worst, spike, np.ones(t), G))))
    G = rng.standard_normal((50, 5))
    print("gradients x 1024 with eps x 1024: max diff %.1e"
          % np.abs(last_step(G) - last_step(1024 * G, eps=1024 * 1e-8)).max())
    for k, lam in enumerate((0.125, 0.5, 2.0)):          # f = 0、θ_0 = 1、学習率 0.001 で 100 ステップ
        th1, th2, s1, s2 = 1.0, 1.0, [0, 0.0, 0.0], [0, 0.0, 0.0]
        for _ in range(100):
            th1 = adam_step(th1, 0.0, s1, 1e-3, eps=1e-8 * 4**k, wd=lam, decoupled=False)
            th2 = adam_step(th2, 0.0, s2, 1e-3, wd=lam)
        print("lambda %.3f: Adam+L2 %.6f  AdamW %.6f" % (lam, th1, th2))
    lrs = schedule(np.arange(1, 102001), 6e-4, 6e-5, 2000, 102000)
    S, Q = lrs.sum(), (lrs**2).sum()
    print("sum %.5f  sum of squares %.6f  prod(1 - 0.1 lr) %.6f in [%.6f, %.6f]"
          % (S, Q, np.prod(1 - 0.1 * lrs), np.exp(-0.1 * S - 0.01 * Q), np.exp(-0.1 * S)))
    print("fp16: g * g for g = 1e-4 -> %s, eps = 1e-8 -> %s" % (np.float16(1e-4) * np.float16(1e-4), np.float16(1e-8)))

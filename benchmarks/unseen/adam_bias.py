# Python 3.11.7, NumPy 2.4.6
import numpy as np

def adam_steps(gs, b1=0.9, b2=0.999, eps=0.0):   # 定義 4.1（eta = 1）。gs の形は (ステップ数, 成分数)
    m, v, steps = 0.0, 0.0, []
    for t, g in enumerate(gs, start=1):
        m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        steps.append(-(m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps))
    return np.array(steps)

def bound(t, b1=0.9, b2=0.999):                  # 命題 4.3 の 3 の上界 B_t
    gam = b1 ** 2 / b2
    return (1 - b1) * np.sqrt((1 - b2 ** t) * (1 - gam ** t) / ((1 - b2) * (1 - gam))) / (1 - b1 ** t)

if __name__ == "__main__":
    b1, b2 = 0.9, 0.999
    print("    t  1/(1-b1^t)  1/(1-b2^t)  uncorrected     B_t  attained")
    for t in (1, 10, 100, 1000):
        worst = (b1 / b2) ** (t - np.arange(1, t + 1))        # 等号の列 g_i = (b1/b2)^(t-i)
        print("%5d %11.4f %11.4f %12.4f %7.4f %9.4f" % (t, 1 / (1 - b1 ** t), 1 / (1 - b2 ** t),
              (1 - b1 ** t) / np.sqrt(1 - b2 ** t), bound(t), abs(adam_steps(worst[:, None])[-1, 0])))
    print("B_inf = %.4f   (1-b1)/sqrt(1-b2) = %.4f" % (bound(10 ** 6), (1 - b1) / np.sqrt(1 - b2)))
    print("constant gradient: max |step + 1| = %.1e" % np.abs(adam_steps(np.full((1000, 1), 0.02)) + 1).max())
    gs = np.random.default_rng(0).standard_normal((1000, 4)) * 1e-3 + 2e-4
    print("scale invariance: max |step(1000 g) - step(g)| = %.1e" % np.abs(adam_steps(1000 * gs) - adam_steps(gs)).max())

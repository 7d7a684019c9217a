# Python 3.11.7, NumPy 2.4.6
import numpy as np

def clip_global(grads, c):          # 定義 2.1：全テンソルに同じ倍率を掛ける
    n = np.sqrt(sum(float(np.sum(g * g)) for g in grads))
    return [min(1.0, c / n) * g for g in grads] if n > 0 else grads

def clip_per_tensor(grads, c):      # 定義 2.2：倍率はテンソルごとに違う
    return [clip_global([g], c)[0] for g in grads]

def lr(t, T, W, eta_max, eta_min=0.0):   # 定義 5.1。t = 1, ..., T
    if t <= W:
        return eta_max * t / W
    return eta_min + (eta_max - eta_min) * (1 + np.cos(np.pi * (t - W) / (T - W))) / 2

if __name__ == "__main__":
    g = [np.array([2.0, -1.0, 2.0]), np.array([2.4, 3.2])]   # 例 3.2：テンソル A と B
    flat = np.concatenate(g)
    print("norms: A %.4f  B %.4f  global %.4f" % (np.linalg.norm(g[0]), np.linalg.norm(g[1]), np.linalg.norm(flat)))
    for c in (1.0, 2.0, 3.5, 4.0, 6.0):                      # 例 3.4
        a, b = np.concatenate(clip_global(g, c)), np.concatenate(clip_per_tensor(g, c))
        print("c=%.1f  |global| %.4f  |per-tensor| %.4f  cos %.4f"
              % (c, np.linalg.norm(a), np.linalg.norm(b), b @ flat / (np.linalg.norm(b) * np.linalg.norm(flat))))
    np.set_printoptions(precision=4, suppress=True)
    print("c=1 global:    ", np.concatenate(clip_global(g, 1.0)))
    print("c=1 per-tensor:", np.concatenate(clip_per_tensor(g, 1.0)))
    T, W, emax, emin = 10000, 500, 3e-4, 3e-5                # 例 5.3
    for t in (1, 250, 500, 1000, 2875, 5250, 7625, 9000, 10000):
        print("t=%5d  lr=%.4e  lr/max=%.4f" % (t, lr(t, T, W, emax, emin), lr(t, T, W, emax, emin) / emax))
    s = sum(lr(t, T, W, emax, emin) for t in range(1, T + 1))
    print("sum %.6f  closed form %.6f  ratio %.6f" % (s, emax * T / 2 + emin * (T - W + 1) / 2, s / (emax * T)))
    decay = {"constant": lambda t: 1.0, "linear": lambda t: (T - t) / (T - W),   # 例 5.6（eta_max = 1）
             "cosine": lambda t: lr(t, T, W, 1.0), "cosine 10%": lambda t: lr(t, T, W, 1.0, 0.1),
             "inv sqrt": lambda t: np.sqrt(W / t)}
    for name, f in decay.items():
        etas = [t / W if t <= W else f(t) for t in range(1, T + 1)]
        print("%-10s  sum %8.2f  ratio %.6f  final %.4f" % (name, sum(etas), sum(etas) / T, etas[-1]))

# Python 3.11.7, NumPy 2.4.6
import numpy as np

def log_softmax(z):
    """最後の軸に沿った log softmax。最大値を引いてから計算する（命題 3.1［自己注意］ の 2）。"""
    m = z.max(axis=-1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=-1, keepdims=True))

def smoothed_target(y, V, eps):
    """定義 2.3 の目標 q。y は正解のトークン id の配列、戻り値は (len(y), V)。"""
    q = np.full((len(y), V), eps / V)
    q[np.arange(len(y)), y] += 1.0 - eps
    return q

def ls_loss(z, y, eps):
    """平滑化した損失の平均と、z についての勾配（命題 3.2）。z は (N, V)。"""
    q = smoothed_target(y, z.shape[1], eps)
    lp = log_softmax(z)
    return -(q * lp).sum(axis=1).mean(), (np.exp(lp) - q) / len(y)

def entropy(q):
    return -(q * np.log(q)).sum(axis=-1)

if __name__ == "__main__":
    z, y = np.array([[2.0, 1.0, 0.0, -1.0]]), np.array([0])
    for eps in (0.0, 0.1):
        loss, g = ls_loss(z, y, eps)
        print(f"eps={eps}: loss={loss:.6f}  grad=" + " ".join(f"{v:+.6f}" for v in g[0]))
    h, E = 1e-6, np.eye(4)
    fd = np.array([(ls_loss(z + h * E[k], y, 0.1)[0] - ls_loss(z - h * E[k], y, 0.1)[0]) / (2 * h) for k in range(4)])
    print("max |finite difference - (p - q)| = %.1e" % np.abs(fd - ls_loss(z, y, 0.1)[1][0]).max())

    w = np.zeros((1, 4))                          # 勾配降下で最小化する（定理 4.1）
    for _ in range(5000):
        w -= ls_loss(w, y, 0.1)[1]
    print("gradient descent: gap=%.6f  loss=%.6f  log 37=%.6f  H(q)=%.6f"
          % (w[0, 0] - w[0, 1], ls_loss(w, y, 0.1)[0], np.log(37), entropy(smoothed_target(y, 4, 0.1))[0]))

    print("    V   eps   gap*      min loss  H(q)")
    for V in (4, 32000, 50257):
        for eps in (0.05, 0.1, 0.2):
            q = smoothed_target(y, V, eps)
            zs = np.log(q)                        # 最小点の 1 つ z = log q
            print(f"{V:5d}  {eps:.2f}  {zs[0, 0] - zs[0, 1]:8.4f}  {ls_loss(zs, y, eps)[0]:8.4f}  {entropy(q)[0]:.4f}")

    p = np.array([0.5, 0.25, 0.8, 0.1])           # 例 6.3：正解のトークンに置いた確率
    print("mean CE=%.6f  PPL=%.6f  1/mean(p)=%.6f  mean(1/p)=%.6f"
          % (-np.log(p).mean(), np.exp(-np.log(p).mean()), 1 / p.mean(), (1 / p).mean()))

    pi, eps = np.array([0.7, 0.2, 0.1, 0.0]), 0.1  # 例 7.3：次のトークンの真の分布
    w = np.zeros(4)
    for _ in range(5000):                         # 期待損失の勾配は softmax(w) - ((1 - eps) pi + eps/V)
        w -= np.exp(log_softmax(w)) - ((1 - eps) * pi + eps / 4)
    pstar = np.exp(log_softmax(w))
    print("p* =", np.round(pstar, 6), " confidence - accuracy = %.6f" % (pstar.max() - pi.max()))
    print("CE(pi, p*)=%.6f  H(pi)=%.6f  PPL ratio=%.6f  1/(1-eps)=%.6f"
          % (-(pi[:3] * np.log(pstar[:3])).sum(), -(pi[:3] * np.log(pi[:3])).sum(),
             np.exp(-(pi[:3] * np.log(pstar[:3] / pi[:3])).sum()), 1 / (1 - eps)))

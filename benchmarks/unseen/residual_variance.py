# Python 3.11.7, NumPy 2.4.6
import numpy as np
def ln(X):
    """層正規化（γ = 1、シフト 0、ε = 0）を行ごとに施す。"""
    return (X - X.mean(axis=-1, keepdims=True)) / X.std(axis=-1, keepdims=True)
def ffn(X, rng, gain=1.0, out_scale=1.0):
    """ReLU の MLP の枝（幅 m = 4d）。重みは分散 2/(d + m) の正規分布に gain を掛けたもの。"""
    d = X.shape[1]
    s = gain * np.sqrt(2.0 / (d + 4 * d))
    W1, W2 = rng.standard_normal((d, 4 * d)) * s, rng.standard_normal((4 * d, d)) * s
    return np.maximum(X @ W1, 0.0) @ (W2 * out_scale)
def pre_ln(X, N, rng, out_scale=1.0):
    """Pre-LN：枝を 2N 個（N ブロック）重ね、残差流 x_2N を返す。"""
    for _ in range(2 * N):
        X = X + ffn(ln(X), rng, out_scale=out_scale)
    return X
def identity_path(X, N, rng, alpha=1.0, beta=1.0):
    """LN(alpha x + G(x)) を 2N 個重ね、恒等経路の係数 prod_k alpha/sigma(u_k) を位置ごとに返す。"""
    logf = np.zeros(len(X))
    for _ in range(2 * N):
        U = alpha * X + ffn(X, rng, gain=beta)
        logf += np.log(alpha / U.std(axis=-1))
        X = ln(U)
    return np.exp(logf)
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    d, n, v = 256, 64, 0.32
    X0 = rng.standard_normal((n, d))
    q0 = (X0 ** 2).mean()
    print("q_0 = %.4f" % q0)
    print("   N  q_2N(meas)  q_0+2Nv  |  1/sqrt(2N): q_2N(meas)  q_0+v")
    for N in (12, 24, 48):
        q = (pre_ln(X0, N, rng) ** 2).mean()
        qs = (pre_ln(X0, N, rng, out_scale=1 / np.sqrt(2 * N)) ** 2).mean()
        print("%4d %11.3f %8.3f  | %23.3f %6.3f" % (N, q, q0 + v * 2 * N, qs, q0 + v))
    c = 1 - 1 / d                                          # E sigma^2(u) = alpha^2 + (1 - 1/d) v_G
    print("   N  Post-LN(meas)  (1+cv)^-N  |  DeepNorm(meas)  (1+cv b^4/a^2)^-N")
    for N in (12, 24):
        a, b = (2 * N) ** 0.25, (8 * N) ** -0.25
        post = identity_path(ln(X0), N, rng).mean()
        deep = identity_path(ln(X0), N, rng, a, b).mean()
        print("%4d %14.3e %10.3e  | %15.5f %18.5f"
              % (N, post, (1 + c * v) ** -N, deep, (1 + c * v * b ** 4 / a ** 2) ** -N))
    x0, t, eta = np.array([1.0, 2.0]), np.array([3.0, 1.0]), 0.1   # 例 36.17 の ReZero
    G = [lambda x: np.array([x[1], x[0]]), lambda x: np.array([x[0] + x[1], 0.0])]
    def forward(a):
        x = x0
        for ak, Gk in zip(a, G):
            x = x + ak * Gk(x)
        return x
    loss = lambda a: 0.5 * np.sum((forward(a) - t) ** 2)
    g = forward([0.0, 0.0]) - t
    grad = np.array([g @ Gk(x0) for Gk in G])
    h = 1e-6
    fd = [(loss(h * e) - loss(-h * e)) / (2 * h) for e in np.eye(2)]
    a1 = -eta * grad
    print("ReZero: F(a=0) - x0 =", forward([0.0, 0.0]) - x0, " grad a =", grad, " finite diff = [%.6f %.6f]" % tuple(fd))
    print("after one step: a = [%.1f %.1f]  F = [%.2f %.2f]  loss %.1f -> %.4f"
          % (*a1, *forward(a1), loss([0.0, 0.0]), loss(a1)))

# Python 3.11.7, NumPy 2.4.6
import numpy as np

def log_softmax(z, T=1.0):
    """温度 T の log softmax。最大値を引いてから指数を取る（平行移動不変性）。"""
    s = np.asarray(z, dtype=float) / T
    return s - s.max() - np.log(np.exp(s - s.max()).sum())

def kd_loss(z, v, y, T, alpha):
    """alpha T^2 KL(p(T) || q(T)) + (1 - alpha) CE。z は生徒、v は教師のロジット、y は正解。"""
    logp, logq = log_softmax(v, T), log_softmax(z, T)
    return alpha * T**2 * np.sum(np.exp(logp) * (logp - logq)) - (1 - alpha) * log_softmax(z)[y]

def kd_grad(z, v, y, T, alpha):
    """勾配の式：alpha T (q - p) + (1 - alpha)(sigma(z) - e_y)。"""
    p, q = np.exp(log_softmax(v, T)), np.exp(log_softmax(z, T))
    return alpha * T * (q - p) + (1 - alpha) * (np.exp(log_softmax(z)) - np.eye(len(z))[y])

def numerical_grad(f, z, h=1e-6):
    """中心差分による勾配。"""
    return np.array([(f(z + h * e) - f(z - h * e)) / (2 * h) for e in np.eye(len(z))])

def fmt(x):
    return "(" + ", ".join("%.4f" % t for t in x) + ")"

if __name__ == "__main__":
    v = np.array([4.0, 2.0, 1.0, 0.0])
    print("     T      p1      p2      p3      p4    H(T)   p4/p1")
    for T in (0.5, 1, 2, 4, 10, 100):
        p = np.exp(log_softmax(v, T))
        print("%6g  %s  %.4f  %.4f" % (T, "  ".join("%.4f" % t for t in p), -(p * np.log(p)).sum(), p[3] / p[0]))

    z, v, y, T, alpha = np.array([1.0, 1.0, 0.0]), np.array([2.0, 1.0, -1.0]), 0, 2.0, 0.5
    g, gn = kd_grad(z, v, y, T, alpha), numerical_grad(lambda u: kd_loss(u, v, y, T, alpha), z)
    print("example: loss %.4f  grad %s  sum %.1e  |grad - finite diff| %.1e"
          % (kd_loss(z, v, y, T, alpha), fmt(g), abs(g.sum()), np.abs(g - gn).max()))

    rng, err = np.random.default_rng(0), 0.0
    for _ in range(100):
        n = rng.integers(3, 9)
        z, v = 3 * rng.standard_normal(n), 3 * rng.standard_normal(n)
        y, T, alpha = rng.integers(n), rng.uniform(0.5, 20.0), rng.uniform()
        gn = numerical_grad(lambda u: kd_loss(u, v, y, T, alpha), z)
        err = max(err, np.abs(kd_grad(z, v, y, T, alpha) - gn).max())
    print("100 random cases: max |grad - finite diff| = %.1e" % err)

    z, v = np.array([1.0, 0.5, -1.5]), np.array([2.0, 0.0, -2.0])
    print("     T   T(q-p) = T^2 dKL/dz                T^2 KL    |dKL/dz|")
    for T in (1, 2, 5, 10, 100, 1000):
        logp, logq = log_softmax(v, T), log_softmax(z, T)
        p, q = np.exp(logp), np.exp(logq)
        print("%6g   %s  %.4f  %.3e" % (T, fmt(T * (q - p)), T**2 * np.sum(p * (logp - logq)),
                                       np.linalg.norm((q - p) / T)))
    print(" limit   %s  %.4f" % (fmt((z - v) / len(z)), np.sum((z - v) ** 2) / (2 * len(z))))

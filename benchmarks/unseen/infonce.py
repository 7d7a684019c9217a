# Python 3.11.7, NumPy 2.4.6
import math
import numpy as np

def log_softmax(Z, axis=-1):
    Z = Z - Z.max(axis=axis, keepdims=True)            # 平行移動不変性で桁あふれを防ぐ
    return Z - np.log(np.exp(Z).sum(axis=axis, keepdims=True))

def info_nce(U, V, tau, axis=1):
    """axis=1: U の第 i 行がアンカーで V の第 i 行が正例（行方向）。axis=0: 列方向。"""
    return -np.diag(log_softmax(U @ V.T / tau, axis=axis)).mean()

def anchor_grad(u, V, pos, tau):
    """-log softmax(V u / tau)[pos] の u についての勾配 (1/tau)(sum_j p_j v_j - v_pos)。"""
    return (np.exp(log_softmax(V @ u / tau)) @ V - V[pos]) / tau

U = np.array([[1.0, 0.0], [0.0, 1.0], [-0.6, 0.8]])
V = np.array([[0.8, 0.6], [0.6, 0.8], [-0.8, 0.6]])
rows, cols = info_nce(U, V, 0.5), info_nce(U, V, 0.5, axis=0)
print("tau = 0.5: rows %.4f  columns %.4f  symmetric %.4f" % (rows, cols, (rows + cols) / 2))
loss1 = lambda a: -log_softmax(V @ (a / np.linalg.norm(a)) / 0.5)[0]   # 正規化の手前 a の関数
g, a, h = anchor_grad(U[0], V, 0, 0.5), np.array([2.0, 0.0]), 1e-6
ga = (np.eye(2) - np.outer(U[0], U[0])) @ g / np.linalg.norm(a)
fd = np.array([(loss1(a + h * e) - loss1(a - h * e)) / (2 * h) for e in np.eye(2)])
print("grad u_1 = (%.4f, %.4f)  grad a = (%.4f, %.4f)  a.grad = %.1e  finite difference error %.1e"
      % (*g, *ga, a @ ga, np.abs(ga - fd).max()))
u = np.array([math.cos(0.1), -math.sin(0.1)])         # u_1 を時計回りに 0.1 rad 回す
print("rotate u_1: loss %.4f -> %.4f  s_11 %.4f -> %.4f  s_12 %.4f -> %.4f"
      % (loss1(U[0]), loss1(u), V[0] @ U[0], V[0] @ u, V[1] @ U[0], V[1] @ u))

s = np.array([0.8, 0.5, 0.1, -0.3])
print("  tau      p+     loss  log4-loss  entropy  2(1-p+)/tau  hardest")
for tau in (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 10.0):
    p = np.exp(log_softmax(s / tau))
    print("%5.2f %7.4f %8.4f %8.4f %9.4f %10.4f %10.4f" % (tau, p[0], -math.log(p[0]), math.log(4) + math.log(p[0]),
          -(p * np.log(p)).sum(), 2 * (1 - p[0]) / tau, p[1] / (1 - p[0])))

eps, r_match, r_flip = 0.1, 1.8, 0.2                   # Y は X を確率 eps で反転。r = p(y|x)/p(y)
I = math.log(2) + eps * math.log(eps) + (1 - eps) * math.log(1 - eps)
for N in (2, 4, 16, 256):                              # k = 負例 N-1 個のうち x と一致する個数
    E = sum(prob * math.comb(N - 1, k) / 2 ** (N - 1) * math.log((r + k * r_match + (N - 1 - k) * r_flip) / r)
            for prob, r in ((1 - eps, r_match), (eps, r_flip)) for k in range(N))
    print("N = %3d  E[loss] %.4f  log N - E[loss] %.4f  <= I(X;Y) %.4f" % (N, E, math.log(N) - E, I))

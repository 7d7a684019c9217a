# Python 3.11.7, NumPy 2.4.6
import numpy as np

def frequencies(d, base=10000.0):
    """ω_i = base^(-2i/d)、i = 0, ..., d/2 - 1（定義 38.1）。"""
    return base ** (-np.arange(0, d, 2) / d)

def sinusoidal_pe(n, d, base=10000.0):
    """位置 0, ..., n-1 の正弦波の位置符号化を行に並べた (n, d) 行列。"""
    ang = np.arange(n)[:, None] * frequencies(d, base)[None, :]
    PE = np.empty((n, d))
    PE[:, 0::2], PE[:, 1::2] = np.sin(ang), np.cos(ang)
    return PE

def shift_matrix(k, d, base=10000.0):
    """PE(p + k) = M_k PE(p) を満たすブロック対角の回転行列 M_k（命題 38.4）。"""
    M = np.zeros((d, d))
    for i, w in enumerate(frequencies(d, base)):
        c, s = np.cos(k * w), np.sin(k * w)
        M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
    return M

def f(k, d):
    """PE(p)・PE(p + k) = Σ_i cos(k ω_i)（命題 38.6）。"""
    return np.cos(k * frequencies(d)).sum()

if __name__ == "__main__":
    n, d = 2048, 512
    PE = sinusoidal_pe(n, d)
    norms = np.linalg.norm(PE, axis=1)
    print("norms: min %.6f  max %.6f  sqrt(d/2) = %.6f" % (norms.min(), norms.max(), np.sqrt(d / 2)))
    for k in (1, 7, 300):
        M = shift_matrix(k, d)
        print("k = %3d  max|PE(p+k) - M_k PE(p)| = %.1e  max|M_k^T M_k - I| = %.1e"
              % (k, np.abs(PE[k:] - PE[:-k] @ M.T).max(), np.abs(M.T @ M - np.eye(d)).max()))
    G = PE @ PE.T
    p, q = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    fs = np.array([f(k, d) for k in range(n)])
    print("max|PE(p).PE(q) - f(|p - q|)| = %.1e over %d pairs" % (np.abs(G - fs[np.abs(p - q)]).max(), n * n))
    print("    k    f16(k)   cos16     f512(k)   cos512")
    for k in (0, 1, 2, 3, 4, 5, 10, 50, 100, 1000, 10000):
        print("%5d %9.4f %7.4f %11.4f %8.4f" % (k, f(k, 16), f(k, 16) / 8, f(k, d), f(k, d) / 256))
    lam = 2 * np.pi / frequencies(d)
    print("d = 512: lambda_0 = %.4f  lambda_255 = %.2f  ratio = %.6f" % (lam[0], lam[-1], lam[1] / lam[0]))
    L, w = 512, frequencies(d)[-1]
    slow = (L - 1) * frequencies(d) < np.pi
    print("blocks with (L-1) w_i < pi: %d (i >= %d)" % (slow.sum(), np.argmax(slow)))
    print("slowest block: cos((L-1) w) = %.6f  cos(2047 w) = %.6f" % (np.cos((L - 1) * w), np.cos(2047 * w)))
    print("learned parameters L_max * d: 512*768 = %d  1024*768 = %d  1024*1600 = %d"
          % (512 * 768, 1024 * 768, 1024 * 1600))

# Python 3.11.7, NumPy 2.4.6
import numpy as np

def rope_freqs(d, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d)          # θ_j = base^(-2j/d), j = 0, ..., d/2 - 1

def rotate(x, pos, theta):                            # 第 j 対 (x_{2j+1}, x_{2j+2}) を pos·θ_j 回す
    z = (x[0::2] + 1j * x[1::2]) * np.exp(1j * pos * theta)
    return np.stack([z.real, z.imag], axis=-1).reshape(-1)

def yarn_freqs(theta, s, L, alpha=1.0, beta=32.0):
    gamma = np.clip((L * theta / (2 * np.pi) - alpha) / (beta - alpha), 0.0, 1.0)   # γ(r_j)
    return (1 - gamma) * theta / s + gamma * theta

def entropy_of_softmax(z):
    p = np.exp(z - z.max()); p /= p.sum()
    return -(p * np.log(p)).sum()

d, L, s, b, D = 128, 4096, 8, 10000.0, 4096
Lp, theta = s * L, rope_freqs(d, b)
lam = 2 * np.pi / theta
rng = np.random.default_rng(0)
q, k = rng.standard_normal(d), rng.standard_normal(d)
diff = rotate(q, 1003, theta) @ rotate(k, 1000, theta) - rotate(q, 3, theta) @ rotate(k, 0, theta)
print("score(1003, 1000) - score(3, 0) = %.1e, pairs with wavelength <= L: %d" % (diff, (lam <= L).sum()))
methods = {"PI": theta / s, "NTK": rope_freqs(d, b * s ** (d / (d - 2))), "YaRN": yarn_freqs(theta, s, L)}
for name, th in methods.items():
    kappa = theta / th                                 # 対ごとの倍率
    print("%-4s kappa_0 %.4f  kappa_32 %.4f  kappa_63 %.4f  overshoot %.3f" % (name, kappa[0],
          kappa[32], kappa[63], ((Lp - 1) / kappa[lam > L]).max() - (L - 1)))
print("YaRN: extrapolated %d, mixed %d, interpolated %d"
      % ((kappa == 1).sum(), ((kappa > 1) & (kappa < s)).sum(), (kappa == s).sum()))
h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])
a = lambda t: np.real(np.exp(1j * np.multiply.outer(t, theta)) @ h)    # a(t) = Re Σ h_j e^{i t θ_j}
t = np.arange(Lp) / s
gap = np.abs(a(t) - a(np.minimum(np.round(t), L - 1))).max()
print("PI: max |a(D/s) - a(k)| = %.4f <= bound %.4f" % (gap, max(0.5, 1 - 1 / s) * (np.abs(h) * theta).sum()))
tau, z = (0.1 * np.log(s) + 1) ** 2, rng.standard_normal(Lp)
print("tau(8) = %.4f, entropy: n = 4096 %.4f, n = 32768 %.4f, with tau %.4f"
      % (tau, entropy_of_softmax(z[:L]), entropy_of_softmax(z), entropy_of_softmax(tau * z)))
print("per-token cost ratio: %.4f" % ((12 * D * D + 2 * Lp * D) / (12 * D * D + 2 * L * D)))

# Python 3.11.7, NumPy 2.4.6
import numpy as np

COEFFS = {"cubic": (1.5, -0.5, 0.0), "quintic": (15 / 8, -10 / 8, 3 / 8), "jordan": (3.4445, -4.7750, 2.0315)}

def p(x, cf, steps=1):                             # 奇多項式（定義 4.1）を steps 回施す
    for _ in range(steps):
        x = cf[0] * x + cf[1] * x**3 + cf[2] * x**5
    return x

def ortho_svd(G):                                  # 特異値分解による直交化（定義 2.2）
    U, s, Vt = np.linalg.svd(G, full_matrices=False)
    r = int((s > s[0] * 1e-12).sum())
    return U[:, :r] @ Vt[:r]

def newton_schulz(G, steps, cf):                   # 定義 4.1。横長にして小さいほうのグラム行列を使う
    X = G.T if G.shape[0] > G.shape[1] else G
    X = X / np.linalg.norm(X)
    for _ in range(steps):
        A = X @ X.T
        X = cf[0] * X + (cf[1] * A + cf[2] * A @ A) @ X
    return X.T if G.shape[0] > G.shape[1] else X

if __name__ == "__main__":
    x0, hat = np.array([1.0, 0.5, 0.1, 1e-2, 1e-3, 1e-4]), np.array([3.0, 1.0]) / np.sqrt(10)
    for name, cf in COEFFS.items():
        k = next(k for k in range(100) if p(1e-3, cf, k) >= 0.5)    # 10^-3 から 0.5 以上になる回数
        print(f"{name:8s} k*={k:2d}", " ".join(f"{v:.4f}" for v in p(x0, cf, 5)), "|",
              " ".join(f"{v:.4f}" for j in range(6) for v in p(hat, cf, j)))
    print("Ortho(A) =", np.round(ortho_svd(np.array([[3.0, 0.0], [4.0, 5.0]])), 4).tolist())
    rng = np.random.default_rng(0)
    G = rng.standard_normal((256, 4)) @ rng.standard_normal((4, 64)) + 0.1 * rng.standard_normal((256, 64))
    s, O = np.linalg.svd(G, compute_uv=False), ortho_svd(G)
    print(f"sigma_hat: max {s[0] / np.linalg.norm(G):.4f}  min {s[-1] / np.linalg.norm(G):.4f}")
    for name, cf in COEFFS.items():
        Xs = {k: newton_schulz(G, k, cf) for k in (5, 10)}
        print(f"{name:8s}", "   ".join(f"k={k:2d}: [{np.linalg.svd(X, compute_uv=False)[-1]:.4f}, "
              f"{np.linalg.norm(X, 2):.4f}] err {np.linalg.norm(X - O, 2):.4f}" for k, X in Xs.items()))
    D, S = 16 * O, np.sign(G)                      # sqrt(max(256, 64)) = 16。RMS をそろえた 2 つの更新
    print(f"RMS {np.sqrt(np.mean(D**2)):.4f} {np.sqrt(np.mean(S**2)):.4f}"
          f"  spectral {np.linalg.norm(D, 2):.4f} {np.linalg.norm(S, 2):.4f}")
    print(f"<G,D>/||D||_2 {np.sum(G * D) / 16:.4f} {np.sum(G * S) / np.linalg.norm(S, 2):.4f}  nuclear {s.sum():.4f}")

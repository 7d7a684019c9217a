# Python 3.11.7, NumPy 2.4.6
import numpy as np

def softmax(z, beta=1.0):
    """最後の軸に沿った softmax(beta * z)。最大値を引いてから指数を取る。"""
    s = beta * np.asarray(z, dtype=float)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def entropy(p):
    """最後の軸に沿ったエントロピー（自然対数、0 log 0 = 0）。"""
    return -(p * np.log(np.where(p > 0, p, 1.0))).sum(axis=-1)

def beta_star(z, target, lo=0.0, hi=10.0):
    """H(softmax(beta z)) = target となる beta。H は beta について減少するので二分法。"""
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if entropy(softmax(z, mid)) > target else (lo, mid)
    return (lo + hi) / 2

if __name__ == "__main__":
    z = np.array([2.0, 1.0, 0.0, -1.0])
    print(" tau  beta      p1       H     e^H     Var  -beta*Var  central diff")
    for tau in (0.25, 0.5, 1.0, 2.0, 4.0):
        b, h = 1 / tau, 1e-5
        p = softmax(z, b)
        var = p @ z**2 - (p @ z) ** 2
        fd = (entropy(softmax(z, b + h)) - entropy(softmax(z, b - h))) / (2 * h)
        print(f"{tau:4.2f} {b:5.2f} {p[0]:7.4f} {entropy(p):7.4f} {np.exp(entropy(p)):7.4f}"
              f" {var:7.4f} {-b * var:9.4f} {fd:12.4f}")
    n_train, gap = 1024, 8.0
    needle = lambda n: np.r_[gap, np.zeros(n - 1)]     # 高さ gap の針の行
    H_train = entropy(softmax(needle(n_train)))
    print(f"needle: n_train = {n_train}, gap = {gap}, H_train = {H_train:.4f}")
    print("     n  b_log  b_wt  b_star  H(b=1)  H(b_log)  H(b_wt)  b_log/b_star")
    for n in (1024, 4096, 16384, 65536, 262144):
        b_log, b_wt = np.log(n) / np.log(n_train), 1 + np.log((n - 1) / (n_train - 1)) / gap
        b_st = beta_star(needle(n), H_train)
        H1, Hl, Hw = (entropy(softmax(needle(n), b)) for b in (1.0, b_log, b_wt))
        print(f"{n:6d} {b_log:6.4f} {b_wt:6.4f} {b_st:6.4f} {H1:7.4f} {Hl:8.4f} {Hw:8.4f} {b_log / b_st:10.4f}")
    rng = np.random.default_rng(0)
    print("     n   log n  H(b=1)  log n-1/2  H(b_log)  log n-b_log^2/2")
    for n in (256, 1024, 4096, 16384, 65536):
        Z, b_log = rng.standard_normal((32, n)), np.log(n) / np.log(n_train)
        print(f"{n:6d} {np.log(n):7.4f} {entropy(softmax(Z)).mean():7.4f} {np.log(n) - 0.5:9.4f}"
              f" {entropy(softmax(Z, b_log)).mean():9.4f} {np.log(n) - b_log**2 / 2:12.4f}")
    n = 1024
    print("  w   bound  two-level min (k)")
    for w in (4.0, 8.0, 12.0):
        two = entropy(softmax(w * (np.arange(n) < np.arange(1, n)[:, None])))   # 上に k 個、下に n - k 個
        print(f"{w:3.0f} {np.log(1 + (n - 1) * np.exp(-w)):7.4f} {two.min():9.4f} ({two.argmin() + 1:3d})")

# Python 3.11.7, NumPy 2.4.6
import numpy as np

def ppl(p):
    """正解のトークンに付けた確率の列 p から、パープレキシティ exp(-mean(ln p)) を返す。"""
    return float(np.exp(-np.mean(np.log(p))))

p = np.array([0.5, 0.25, 0.8, 0.1])                                     # 例 32.3
H = -np.mean(np.log(p))
print(f"example: H = {H:.6f} nats = {H / np.log(2):.6f} bits, PPL = {ppl(p):.4f}")
print(f"  1/mean(p) = {1 / p.mean():.4f} <= PPL <= mean(1/p) = {np.mean(1 / p):.4f}")
for name, N, h in (("A", 500_000, 2.60), ("B", 800_000, 1.70), ("C", 2_000_000, 0.62)):   # 例 32.11
    bits = N * h / np.log(2)                              # 合計の負の対数尤度を bits で（B = 2,000,000、C = 800,000）
    print(f"model {name}: PPL/token = {np.exp(h):7.3f}  BPB = {bits / 2_000_000:.5f}  BPC = {bits / 800_000:.4f}")
a = np.array([0.30, 0.05, 0.60, 0.02, 0.40, 0.10, 0.70, 0.05])          # 例 32.15：q1 が正解に付けた確率
b = np.array([0.10, 0.40, 0.20, 0.30, 0.05, 0.50, 0.30, 0.20])          # q2 が正解に付けた確率
print("lambda    PPL   bound  ratio")
for lam in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0):
    q, bound = ppl(lam * a + (1 - lam) * b), ppl(a) ** lam * ppl(b) ** (1 - lam)
    print(f"  {lam:.1f}  {q:6.3f}  {bound:6.3f}  {q / bound:.3f}")
lo, hi = 0.0, 1.0                                   # 命題 32.13 の 4：H'(λ) の符号を見る二分法
for _ in range(60):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if np.mean((a - b) / (mid * a + (1 - mid) * b)) > 0 else (lo, mid)
lam = (lo + hi) / 2
print(f"best lambda = {lam:.4f}, PPL = {ppl(lam * a + (1 - lam) * b):.4f}, oracle PPL = {ppl(np.maximum(a, b)):.4f}")

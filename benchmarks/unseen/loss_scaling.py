# Python 3.11.7, NumPy 2.4.6。lowprec.py は前のコード
import numpy as np
from lowprec import fl, FP16, BF16, FP32

g = np.array([1.5, 2e-3, 5e-6, 4e-8, 1e-8])      # 例 5.3：S 倍して fp16 に丸め、S で割り戻す
for k in (0, 10, 16):
    print(f"S=2^{k:<2d}", " ".join(f"{e:.3e}" for e in np.abs(fl(2.0 ** k * g, FP16) / 2.0 ** k - g) / g))

deltas = np.array([1e-4, 1e-5, 1e-6, 1e-7, 1e-8])  # 例 7.3：w = 1 から delta を 1,000 回引く
print("exact ", " ".join(f"{v:.6f}" for v in 1 - 1000 * deltas))
for name, fmt, comp in (("fp16", FP16, 0), ("bf16", BF16, 0), ("fp32", FP32, 0), ("fp16+K", FP16, 1), ("bf16+K", BF16, 1)):
    w, c, d = np.ones(5), np.zeros(5), fl(-deltas, fmt)
    for _ in range(1000):
        if comp:                                  # +K：補償つき（定義 6.1 の補償和と同じ手順）
            y = fl(d - c, fmt)
            t = fl(w + y, fmt)
            w, c = t, fl(fl(t - w, fmt) - y, fmt)
        else:
            w = fl(w + d, fmt)
    print(f"{name:6s}", " ".join(f"{v:.6f}" for v in w))

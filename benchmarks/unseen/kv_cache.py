# Python 3.11.7, NumPy 2.4.6
import numpy as np

def kv_bytes_per_token(L, h_kv, d_h, b):                # 1 トークンのキャッシュ 2 L h_kv d_h b
    return 2 * L * h_kv * d_h * b

def quantize(X, bits, axis):
    """対称な round-to-nearest。axis=1 はトークン（行）ごと、axis=0 はチャネル（列）ごとの目盛り。"""
    qmax = 2 ** (bits - 1) - 1
    scale = np.abs(X).max(axis=axis, keepdims=True) / qmax
    return np.clip(np.round(X / scale), -qmax, qmax) * scale, scale

def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()

if __name__ == "__main__":
    L, d, h, d_h = 32, 4096, 32, 128
    N = 12 * L * d * d                                  # 埋め込みを除く重み行列の成分の個数
    m = kv_bytes_per_token(L, h, d_h, 2)
    print(f"bytes/token {m}  GiB per 4096 tokens {4096 * m / 2 ** 30}  cache = weights at n = {2 * N // m}")
    for i in (512, 4096):
        I = [B * (2 * N + 4 * L * i * d) / (2 * N + B * i * m) for B in (1, 8, 32, 128)]   # F_dec / Q_dec
        print(f"decode intensity, i = {i:4d}, B = 1, 8, 32, 128:", "  ".join(f"{x:6.2f}" for x in I))
    rng = np.random.default_rng(0)
    n = rng.integers(1, 4097, size=100_000)             # 列の長さ（1〜4096 の一様分布）
    for s in (16, 256):
        w = s * -(-n // s) - n                          # s * ceil(n / s) - n
        print(f"block size {s:3d}: mean waste {w.mean():7.2f}  (s-1)/2 = {(s - 1) / 2:5.1f}  max {w.max()}")
    print(f"contiguous 4096: mean waste {(4096 - n).mean():7.2f}  (n_max-1)/2 = {(4096 - 1) / 2}")
    K = rng.standard_normal((256, d_h))
    K[:, 7] *= 20.0                                     # 1 つのチャネルだけ大きい
    q = rng.standard_normal(d_h)
    score = K @ q / np.sqrt(d_h)
    for bits in (8, 4):
        for axis, name in ((1, "per-token  "), (0, "per-channel")):
            Kq, scale = quantize(K, bits, axis)
            delta = np.broadcast_to(scale / 2, K.shape)  # 成分ごとの誤差の上界
            eps = (np.abs(q) * delta).sum(axis=1).max() / np.sqrt(d_h)
            s_hat = Kq @ q / np.sqrt(d_h)
            logratio = np.abs(np.log(softmax(s_hat) / softmax(score))).max()
            print(f"int{bits} {name}: within bound {bool((np.abs(K - Kq) <= delta).all())}"
                  f"  rel. error {np.linalg.norm(K - Kq) / np.linalg.norm(K):.4f}"
                  f"  score err {np.abs(s_hat - score).max():.4f} (eps {eps:.4f})"
                  f"  log weight ratio {logratio:.4f} (2 eps {2 * eps:.4f})")

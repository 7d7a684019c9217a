# Python 3.11.7, NumPy 2.4.6
import numpy as np

FP32, FP16, BF16 = (24, -126, 127), (11, -14, 15), (8, -126, 127)     # (p, e_min, e_max)。定義 2.1

def fl(x, fmt):
    """最近接偶数丸め（定義 2.2）。x は倍精度の数か配列。"""
    p, emin, emax = fmt
    x = np.asarray(x, dtype=np.float64)
    e = np.maximum(np.frexp(x)[1] - 1, emin)      # 2^e <= |x| < 2^(e+1)。非正規数の範囲では e_min
    q = np.ldexp(1.0, e - p + 1)                  # その範囲での間隔（命題 3.1 の 2）
    r = np.round(x / q) * q                       # np.round は同点を偶数に丸める
    return np.where(np.abs(r) >= 2.0 ** (emax + 1), np.copysign(np.inf, x), r)

def recursive_sum(x, fmt):
    s = 0.0
    for xi in x:
        s = fl(s + xi, fmt)
    return float(s)

def pairwise_sum(x, fmt):
    h = len(x) // 2
    return float(x[0]) if h == 0 else float(fl(pairwise_sum(x[:h], fmt) + pairwise_sum(x[h:], fmt), fmt))

def kahan_sum(x, fmt):
    s = c = 0.0
    for xi in x:
        y = fl(xi - c, fmt)
        t = fl(s + y, fmt)
        s, c = t, fl(fl(t - s, fmt) - y, fmt)     # c は、この加算で失われた量の符号を変えたもの
    return float(s)

if __name__ == "__main__":
    for name, (p, emin, emax) in (("fp32", FP32), ("fp16", FP16), ("bf16", BF16)):
        print(f"{name}: max={(2 - 2.0 ** (1 - p)) * 2.0 ** emax:.3e}  min normal={2.0 ** emin:.3e}"
              f"  min subnormal={2.0 ** (emin - p + 1):.3e}  u={2.0 ** -p:.3e}")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(100000) * 10.0 ** rng.uniform(-9, 4, 100000)
    print("max |fl(x, FP16) - float16(x)| =", np.abs(fl(x, FP16) - x.astype(np.float16)).max())
    ones = np.ones(4096)
    print("1 added 4096 times:", recursive_sum(ones, FP16), recursive_sum(ones, BF16), kahan_sum(ones, FP16))
    for n in (1024, 4096, 16384, 65536):
        v = fl(rng.uniform(0, 1, n), FP16)        # fp16 で表せる入力
        exact = v.sum()                           # 倍精度で正確（和は 2^17 未満で 2^-24 の倍数）
        err = [abs(f(v, fmt) - exact) / exact for fmt in (FP16, BF16) for f in (recursive_sum, pairwise_sum, kahan_sum)]
        print(f"n={n:5d}  sum={exact:9.2f}  " + " ".join(f"{e:.2e}" for e in err))

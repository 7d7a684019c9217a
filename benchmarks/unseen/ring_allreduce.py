# Python 3.11.7, NumPy 2.4.6
import numpy as np

def ring_allreduce(xs, trace=False):
    """p 台の装置の長さ N のベクトル xs（N は p の倍数）を ring all-reduce で足し合わせる（定義 5.4）。
    各装置の最後のバッファと、各装置が送った要素の個数を返す。"""
    p = len(xs)
    buf = [np.array(x).reshape(p, -1).copy() for x in xs]     # 装置 k のバッファを p 個の塊に分ける
    sent = np.zeros(p, dtype=np.int64)
    for s in range(2 * (p - 1)):
        msgs = [buf[k][(k - s) % p].copy() for k in range(p)]  # 全装置が同時に塊 c(k, s) を右隣へ送る
        for k in range(p):
            c, r = (k - s) % p, (k + 1) % p
            if s < p - 1:
                buf[r][c] += msgs[k]                           # reduce-scatter：受け取った塊を足す
            else:
                buf[r][c] = msgs[k]                            # all-gather：受け取った塊で置き換える
            sent[k] += msgs[k].size
        if trace:
            print(f"step {s + 1}:", "  ".join(str(b.reshape(-1).tolist()) for b in buf))
    return [b.reshape(-1) for b in buf], sent

if __name__ == "__main__":
    xs = [np.array([1, 2, 3]), np.array([10, 20, 30]), np.array([100, 200, 300])]
    out, sent = ring_allreduce(xs, trace=True)                 # 例 5.6 の手計算
    print("sent per device:", sent.tolist())
    rng = np.random.default_rng(0)
    N = 1680                                                   # 2, 3, 4, 5, 6, 7, 8, 16 の倍数
    print(" p   sent/device  2(p-1)N/p  ratio to N  all equal to sum")
    for p in (2, 3, 4, 8, 16):
        xs = [rng.integers(-1000, 1000, N) for _ in range(p)]
        out, sent = ring_allreduce(xs)
        ok = all(np.array_equal(o, np.sum(xs, axis=0)) for o in out)
        print(f"{p:2d} {sent.max():12d} {2 * (p - 1) * N // p:10d} {sent.max() / N:11.4f}  {ok and sent.min() == sent.max()}")

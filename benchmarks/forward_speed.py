"""How close the forward model runs to the machine's matrix-product speed, and to PyTorch.

Prints, from one run (ratios, so they travel between machines):
0. the BLAS kernels that ran (threadpoolctl: OpenBLAS's architecture, e.g. Haswell when
   OPENBLAS_CORETYPE=Haswell, SkylakeX for the native AVX-512 kernel), and PyTorch's CPU
   capability when torch is importable;
1. the multiply rate of one forward pass of a GPT-2-small-shaped model
   (d = 768, h = 12, L = 12, |V| = 50257, n = 1024, float32, random weights,
   tanh GELU), counted as the chapters count it, L(12nd^2 + 2n^2 d) + nd|V|,
   divided by the wall time, over the rate of 2048 x 2048 float32 np.matmul
   products (2048^3 multiplications each) measured in the same run (goal >= 0.80);
2. when torch and transformers are importable (the `bench` extra): Hugging Face's
   GPT2LMHeadModel of the same shape (random weights, float32, eval mode,
   torch.no_grad()), its multiply rate over torch.matmul's on the same 2048 x 2048
   products, and the package's time over its time (goal <= 1.1);
3. that pass split into the time inside its matrix products (the BLAS calls of
   numeric.contraction, timed by wrapping them) and the time outside them (softmax,
   GELU, LayerNorm, biases, copies), and the ratio the pass would reach if the time
   outside were zero: the ceiling that the products' own speed sets;
4. exact GELU on a (1024, 3072) float32 array against np.vectorize(math.erf)
   (goal >= 8x, and float32 stays float32);
5. the forward pass with exact GELU relative to the one with tanh GELU
   (goal <= 1.25);
6. with --growth N ...: how the pass's time grows with n, beside the chapter's count: for
   each n its time, the count's and the time's ratios to the previous n, and the multiply
   rate over the matmul rate; then the growth exponent, the least-squares slope of log time
   against log n (the count's own slope beside it: 1 for the products linear in n, 2 for
   the attention's n^2 d).

Each time is the best of a few interleaved repetitions (the least disturbed by
the rest of the machine); the slowest matmul run is printed beside the best, so that a
run disturbed throughout shows itself. On a machine shared with other work the ratios drop:
BLAS threads then wait on each other in every one of the pass's 2,377 BLAS
calls (12 x 198: the q, k, v, output and MLP products and two per head per block of
128 causal query rows; and the LM head).
Run: python -m benchmarks.forward_speed [--n 1024] [--repeats 3] [--growth 256 512 ...]
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

import numeric.contraction
from benchmarks.growth import growth_exponent
from numeric.activations import gelu
from numeric.model import forward, init_parameters
from spec import ModelConfig
from spec.contractions import BLOCK, LM_HEAD

MATMUL_RUN = 16  # 2048^3 multiplications each: about 1.4e11, one forward pass's count
BUSY_SPREAD = 1.15  # slowest / fastest matmul run beyond which a run is reported disturbed
RATE_GOAL = 0.80  # the pass's multiply rate over np.matmul's, native kernel
TORCH_GOAL = 1.1  # the package's time over GPT2LMHeadModel's


def best_time(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def chapter_count(config: ModelConfig, n: int) -> int:
    """L(12nd^2 + 2n^2 d) + nd|V| at d_ff = 4d: symbolic/'s polynomial when it is there,
    else the product of the declared contractions' sizes (the same declaration)."""
    sizes = {**config.sizes(), "n": n, "m": n}
    try:
        from symbolic import counts, symbols
    except ImportError:
        per_layer = sum(math.prod(sizes[dim] for dim in c.dims) for c in BLOCK)
        return config.n_layer * per_layer + math.prod(sizes[dim] for dim in LM_HEAD.dims)
    poly = config.n_layer * counts.block_multiplications() + counts.lm_head_multiplications()
    values = {
        symbols.SIZES[name]: value
        for name, value in sizes.items()
        if name in symbols.SIZES and name not in ("d_head", "m")
    }
    return int(poly.subs(values))


@contextmanager
def product_timer() -> Iterator[list[float]]:
    """Within the block, every BLAS product that numeric.contraction runs adds its wall
    time to the yielded one-element list."""
    spent = [0.0]
    products = dict(numeric.contraction._FAST)

    def timed(product: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        def run(*args: np.ndarray, **kwargs: object) -> np.ndarray:
            start = time.perf_counter()
            try:
                return product(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start

        return run

    numeric.contraction._FAST.update({key: timed(f) for key, f in products.items()})
    try:
        yield spent
    finally:
        numeric.contraction._FAST.update(products)


def kernels() -> str:
    """The BLAS libraries loaded in this process as threadpoolctl sees them (their kernel
    architecture and threads), or why it cannot say."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown (pip install threadpoolctl to see the OpenBLAS kernel)"
    found = [
        f"{Path(i['filepath']).parent.name}: {i['internal_api']} {i.get('version') or ''} "
        f"kernel {i.get('architecture') or '?'}, {i['num_threads']} threads"
        for i in threadpool_info()
        if i["user_api"] == "blas"
    ]
    return "; ".join(" ".join(f.split()) for f in found) or "no BLAS library seen"


def hugging_face(
    config: ModelConfig, n: int
) -> tuple[Callable[[], object], Callable[[], object], str] | None:
    """(one forward pass of GPT2LMHeadModel of config's shape on n random tokens, 16
    torch.matmul products of 2048 x 2048 float32 matrices, PyTorch's CPU capability), or
    None when torch or transformers is not importable."""
    try:
        import torch
        from transformers import GPT2Config, GPT2LMHeadModel
    except ImportError:
        return None
    torch.manual_seed(0)
    hf = GPT2LMHeadModel(
        GPT2Config(
            vocab_size=config.vocab,
            n_positions=config.n_ctx,
            n_embd=config.d,
            n_layer=config.n_layer,
            n_head=config.n_head,
            n_inner=config.d_ff,
            activation_function="gelu_new",
        )
    ).eval()
    ids = torch.randint(0, config.vocab, (1, n))
    a, b = torch.randn(2048, 2048), torch.randn(2048, 2048)

    def forward_hf() -> object:
        with torch.no_grad():
            return hf(ids).logits  # (1, n, |V|)

    def matmul_torch() -> object:
        return [a @ b for _ in range(MATMUL_RUN)]

    return forward_hf, matmul_torch, str(torch.backends.cpu.get_cpu_capability())


def gpt2_small(n_ctx: int = 1024) -> ModelConfig:
    """GPT-2 small's shape with tanh GELU, its context widened to n_ctx when asked."""
    return ModelConfig(
        vocab=50257, d=768, n_layer=12, n_head=12, d_ff=3072, n_ctx=n_ctx, activation="gelu_tanh"
    )


def matmul_run(a: np.ndarray, b: np.ndarray) -> float:
    """Seconds per 2048^2 product, sustained over MATMUL_RUN of them."""
    return best_time(lambda: [a @ b for _ in range(MATMUL_RUN)], 1) / MATMUL_RUN


def growth(sizes: list[int], repeats: int, a: np.ndarray, b: np.ndarray) -> None:
    """Print how the pass's time grows with n: each n's best pass, interleaved with
    matmul runs, the ratios to the previous n, and the growth exponents."""
    config = gpt2_small(max(1024, *sizes))
    params = init_parameters(config, np.random.default_rng(0), dtype=np.float32)
    print(f"the forward pass against n ({repeats} interleaved runs each, the best):")
    print(
        f"  {'n':>6} {'count':>11} {'seconds':>8} {'count ratio':>12} {'time ratio':>11} "
        f"{'rate / matmul':>14}"
    )
    counts: list[int] = []
    times: list[float] = []
    for n in sizes:
        tokens = np.random.default_rng(3).integers(0, config.vocab, size=n)
        forward(tokens, params, config)  # the first pass allocates
        matmul_time = seconds = math.inf
        for _ in range(repeats):
            matmul_time = min(matmul_time, matmul_run(a, b))
            start = time.perf_counter()
            forward(tokens, params, config)
            seconds = min(seconds, time.perf_counter() - start)
        count = chapter_count(config, n)
        ratios = f"{count / counts[-1]:12.2f} {seconds / times[-1]:11.2f}" if counts else f"{'':24}"
        rate = count / seconds / (2048**3 / matmul_time)
        print(f"  {n:>6} {count:11.4e} {seconds:8.3f} {ratios} {rate:14.2f}")
        counts.append(count)
        times.append(seconds)
    if len(sizes) > 1:
        print(
            "  growth exponent against n (log-log slope): "
            f"time {growth_exponent(sizes, times):.2f}, count {growth_exponent(sizes, counts):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1024, help="sequence length")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--growth",
        type=int,
        nargs="+",
        metavar="N",
        help="only the pass's growth with n, over these lengths (e.g. 256 512 1024 2048 4096)",
    )
    args = parser.parse_args()
    if args.repeats < 1 or args.n < 1 or any(n < 1 for n in args.growth or ()):
        parser.error("--repeats, --n and the --growth lengths must be >= 1")

    a = np.random.default_rng(1).standard_normal((2048, 2048), dtype=np.float32)
    b = np.random.default_rng(2).standard_normal((2048, 2048), dtype=np.float32)
    if args.growth:
        print(f"BLAS (threadpoolctl): {kernels()}")
        growth(sorted(set(args.growth)), args.repeats, a, b)
        return

    config = gpt2_small(max(1024, args.n))
    params = init_parameters(config, np.random.default_rng(0), dtype=np.float32)
    tokens = np.random.default_rng(3).integers(0, config.vocab, size=args.n)
    count = chapter_count(config, args.n)
    exact = ModelConfig(**{**config.__dict__, "activation": "gelu"})
    assert forward(tokens, params, config).dtype == np.float32  # also touches the memory once
    torch_runs = hugging_face(config, args.n)
    if torch_runs is not None:
        torch_runs[0]()  # the first call allocates

    # Interleaved, so that the machine's load affects each measurement alike; the best of
    # each is the least disturbed. The matmul rate is sustained over MATMUL_RUN products
    # (about as long as one forward pass), not caught in one lucky product.
    matmul_time = tanh_time = exact_time = hf_time = torch_matmul_time = math.inf
    products_time = math.inf
    slowest_matmul = 0.0
    for _ in range(args.repeats):
        run = matmul_run(a, b)
        matmul_time = min(matmul_time, run)
        slowest_matmul = max(slowest_matmul, run)
        with product_timer() as spent:  # about 1 us per product: 2 ms on a pass of seconds
            timed_pass = best_time(lambda: forward(tokens, params, config), 1)
        if timed_pass < tanh_time:  # the least disturbed pass, and its own split
            tanh_time, products_time = timed_pass, spent[0]
        exact_time = min(exact_time, best_time(lambda: forward(tokens, params, exact), 1))
        if torch_runs is not None:
            torch_matmul_time = min(torch_matmul_time, best_time(torch_runs[1], 1) / MATMUL_RUN)
            hf_time = min(hf_time, best_time(torch_runs[0], 1))
    matmul_rate = 2048**3 / matmul_time

    t = np.random.default_rng(4).standard_normal((1024, 3072), dtype=np.float32)
    fast = best_time(lambda: gelu(t), args.repeats + 2)
    erf = np.vectorize(math.erf)
    slow = best_time(lambda: t * 0.5 * (1.0 + erf(t / math.sqrt(2.0))), 1)

    print(f"BLAS (threadpoolctl): {kernels()}")
    busy = (
        ""
        if slowest_matmul <= BUSY_SPREAD * matmul_time
        else (
            f"; the runs differ by more than {BUSY_SPREAD - 1:.0%}: the machine was busy and the "
            "ratios below are unreliable"
        )
    )
    print(
        f"matmul 2048^2 float32: {matmul_rate / 1e9:.1f} G multiplications/s (slowest of the "
        f"{args.repeats} runs: {2048**3 / slowest_matmul / 1e9:.1f}{busy})"
    )
    print(
        f"forward pass n = {args.n}: {count:.4e} multiplications (chapter count) in "
        f"{tanh_time:.3f} s = {count / tanh_time / 1e9:.1f} G/s"
    )
    rate = count / tanh_time / matmul_rate
    print(
        f"forward multiply rate / matmul rate: {rate:.2f}"
        f"   (goal >= {RATE_GOAL:.2f}: {'met' if rate >= RATE_GOAL else 'not met'})"
    )
    print(
        f"inside the matrix products: {products_time:.3f} s of a {tanh_time:.3f} s pass; "
        f"outside them: {tanh_time - products_time:.3f} s "
        f"({(tanh_time - products_time) / tanh_time:.0%})"
    )
    print(
        f"ceiling (the products' time alone) / matmul rate: "
        f"{count / products_time / matmul_rate:.2f}"
    )
    if torch_runs is None:
        print("PyTorch: not importable (pip install '.[bench]' to compare with GPT2LMHeadModel)")
    else:
        torch_rate = 2048**3 / torch_matmul_time
        print(
            f"PyTorch CPU capability {torch_runs[2]}: torch.matmul 2048^2 float32 "
            f"{torch_rate / 1e9:.1f} G multiplications/s"
        )
        print(
            f"GPT2LMHeadModel n = {args.n}: {hf_time:.3f} s = {count / hf_time / 1e9:.1f} G/s;"
            f" its multiply rate / torch.matmul rate: {count / hf_time / torch_rate:.2f}"
        )
        ratio = tanh_time / hf_time
        met = "met" if ratio <= TORCH_GOAL else "not met"
        print(f"package time / GPT2LMHeadModel time: {ratio:.2f}   (goal <= {TORCH_GOAL}: {met})")
    print(
        f"exact GELU (1024, 3072) float32: {fast * 1e3:.1f} ms, np.vectorize(math.erf) "
        f"{slow * 1e3:.0f} ms: {slow / fast:.0f}x faster   (goal >= 8x), dtype "
        f"{gelu(t).dtype}"
    )
    print(f"forward exact GELU / tanh GELU: {exact_time / tanh_time:.3f}   (goal <= 1.25)")


if __name__ == "__main__":
    main()

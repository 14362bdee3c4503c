"""Time four ways to build a float32 sinusoidal table, side by side in one run, and measure their errors.

    (a) tutorial  the usual code: zeros, exp/log frequencies in float32, pe[:, 0::2] = sin(p·w)
                  (phase in float32)
    (b) f64-cast  phase in float64, sin/cos in float64, then cast (pe_docs' previous implementation)
    (c) fill      torch.empty(L, d).fill_(1.0): the floor for any freshly allocated table of that size
    (d) pe_docs   pe_docs.sinusoidal_table (block start × offset, angle addition as one complex multiply)

Run from the repository root:

    PYTHONPATH=$PWD python benchmarks/bench_table.py            # L = 100 000, d = 1024, 1 and 2 threads

Each variant is timed ``--repeats`` times, the variants taking turns within each round so that they see the
same machine state; the median is reported. Errors are the max abs difference from a float64 reference at the
same positions, computed in chunks of rows to bound memory.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

import torch

from pe_docs import inverse_frequencies, sinusoidal_table


def tutorial(max_len: int, d_model: int) -> torch.Tensor:
    """(a) The PyTorch tutorial / Annotated Transformer code, phase in float32."""
    pe = torch.zeros(max_len, d_model)
    position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def float64_then_cast(max_len: int, d_model: int) -> torch.Tensor:
    """(b) Phase, sin and cos in float64, interleaved, then cast to float32."""
    w = inverse_frequencies(d_model, dtype=torch.float64)
    phase = torch.arange(max_len, dtype=torch.float64)[:, None] * w[None, :]
    table = torch.stack((torch.sin(phase), torch.cos(phase)), dim=-1).reshape(max_len, d_model)
    return table.to(torch.float32)


def fill_floor(max_len: int, d_model: int) -> torch.Tensor:
    """(c) Allocate and write a table of the same size: no table can be built faster than this."""
    return torch.empty(max_len, d_model).fill_(1.0)


def fast_exact(max_len: int, d_model: int) -> torch.Tensor:
    """(d) pe_docs.sinusoidal_table."""
    return sinusoidal_table(max_len, d_model)


VARIANTS: dict[str, Callable[[int, int], torch.Tensor]] = {
    "a": tutorial,
    "b": float64_then_cast,
    "c": fill_floor,
    "d": fast_exact,
}


def max_error(table: torch.Tensor, *, chunk_rows: int = 4096) -> float:
    """Max abs difference between ``table`` (interleaved) and the float64 reference, chunk by chunk."""
    max_len, d_model = table.shape
    w = inverse_frequencies(d_model, dtype=torch.float64)
    worst = 0.0
    for start in range(0, max_len, chunk_rows):
        stop = min(max_len, start + chunk_rows)
        phase = torch.arange(start, stop, dtype=torch.float64)[:, None] * w[None, :]
        rows = table[start:stop].to(torch.float64).view(stop - start, d_model // 2, 2)
        worst = max(
            worst,
            (rows[..., 0] - torch.sin(phase)).abs().max().item(),
            (rows[..., 1] - torch.cos(phase)).abs().max().item(),
        )
    return worst


def measure(max_len: int, d_model: int, threads: int, repeats: int) -> dict[str, float]:
    """Median wall time in ms of every variant, with ``threads`` intra-op threads."""
    torch.set_num_threads(threads)
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for fn in VARIANTS.values():  # warm-up round (allocator, kernels)
        fn(max_len, d_model)
    for _ in range(repeats):
        for name, fn in VARIANTS.items():
            t0 = time.perf_counter()
            out = fn(max_len, d_model)
            times[name].append((time.perf_counter() - t0) * 1e3)
            del out
    return {name: statistics.median(ts) for name, ts in times.items()}


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-len", type=int, default=100_000)
    parser.add_argument("--d-model", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args(argv)
    L, d = args.max_len, args.d_model

    saved_threads = torch.get_num_threads()
    errors = {name: max_error(VARIANTS[name](L, d)) for name in ("a", "b", "d")}
    print(f"float32 table, L = {L}, d = {d}, torch {torch.__version__}, median of {args.repeats} runs")
    print(
        "max abs error vs float64 reference:  "
        + "  ".join(f"({name}) {err:.2e}" for name, err in errors.items())
        + "  (c) -"
    )
    results: dict[int, dict[str, float]] = {}
    try:
        for threads in args.threads:
            ms = measure(L, d, threads, args.repeats)
            results[threads] = ms
            print(
                f"threads={threads}:  "
                + "  ".join(f"({name}) {t:8.1f} ms" for name, t in ms.items())
                + f"   d/c = {ms['d'] / ms['c']:.2f}  a/d = {ms['a'] / ms['d']:.2f}"
                + f"  b/d = {ms['b'] / ms['d']:.2f}"
            )
    finally:
        torch.set_num_threads(saved_threads)
    return {"errors": errors, "ms": results}


if __name__ == "__main__":
    main()

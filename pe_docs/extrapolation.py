"""A seeded toy experiment: does a model trained on short sequences work on longer ones?

The task is "repeat the previous token": at every position ``p >= 1`` the model must output the token at
``p − 1``. It needs position information (without it, attention cannot tell the previous token from any
other) but only *relative* position. A one-layer causal attention model is trained on sequences of
``train_len`` tokens and evaluated on sequences of ``test_len`` tokens; accuracy is reported separately for
positions inside the training range and beyond it. It runs in about a second on one CPU core.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import torch
from torch import nn

from pe_docs._checks import check_choice, check_int
from pe_docs.alternatives import LearnedPositionalEmbedding, alibi_bias, rope_rotate
from pe_docs.encoding import sinusoidal_table

Encoding = Literal["sinusoidal", "learned", "rope", "alibi", "none"]
ENCODINGS: tuple[str, ...] = ("sinusoidal", "learned", "rope", "alibi", "none")


class TinyCausalAttention(nn.Module):
    """Token embedding + one multi-head causal self-attention layer + a linear read-out.

    Args:
        encoding: How positions enter: ``"sinusoidal"`` (table added to the input), ``"learned"``
            (:class:`~pe_docs.alternatives.LearnedPositionalEmbedding`), ``"rope"`` (queries and keys
            rotated), ``"alibi"`` (bias on the scores) or ``"none"``.
        vocab: Vocabulary size.
        d_model: Width; even, divisible by ``n_heads``, and ``d_model / n_heads`` even (for RoPE).
        n_heads: Number of heads.
        max_len: Rows of the learned embedding (ignored by the other encodings).
    """

    def __init__(
        self, encoding: Encoding, *, vocab: int = 16, d_model: int = 32, n_heads: int = 4, max_len: int = 32
    ) -> None:
        super().__init__()
        self.encoding = check_choice("encoding", encoding, ENCODINGS)
        self.vocab = check_int("vocab", vocab, minimum=2)
        self.d_model = check_int("d_model", d_model, minimum=2)
        self.n_heads = check_int("n_heads", n_heads, minimum=1)
        if d_model % n_heads or (d_model // n_heads) % 2:
            raise ValueError(
                f"d_model / n_heads must be an even integer, got d_model={d_model}, n_heads={n_heads}"
            )
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.readout = nn.Linear(d_model, vocab)
        self.positions = LearnedPositionalEmbedding(max_len, d_model) if self.encoding == "learned" else None

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Logits of shape ``(batch, seq, vocab)`` for integer ``tokens`` of shape ``(batch, seq)``."""
        batch, seq = tokens.shape
        x = self.embed(tokens)
        if self.encoding == "sinusoidal":
            x = x + sinusoidal_table(seq, self.d_model)
        elif self.positions is not None:
            x = self.positions(x)
        d_head = self.d_model // self.n_heads
        q, k, v = (
            t.reshape(batch, seq, self.n_heads, d_head).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1)
        )
        if self.encoding == "rope":
            q, k = rope_rotate(q), rope_rotate(k)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
        if self.encoding == "alibi":
            scores = scores + alibi_bias(self.n_heads, seq).to(scores.dtype)
        else:
            future = torch.ones(seq, seq, dtype=torch.bool).triu(1)
            scores = scores.masked_fill(future, float("-inf"))
        out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(batch, seq, self.d_model)
        return self.readout(out)


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """Run on one intra-op thread (fast for tiny tensors, and bit-reproducible); restore afterwards."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


@dataclass(frozen=True)
class ExtrapolationResult:
    """Accuracy of the previous-token task inside and beyond the training length.

    Attributes:
        encoding: The position encoding of the model.
        seed: The seed of the run.
        train_len: Length of the training sequences.
        test_len: Length of the evaluation sequences.
        in_range_accuracy: Accuracy at positions ``1 … train_len − 1`` of the evaluation sequences.
        out_of_range_accuracy: Accuracy at positions ``train_len … test_len − 1``.
        chance: ``1 / vocab``, the accuracy of guessing.
    """

    encoding: str
    seed: int
    train_len: int
    test_len: int
    in_range_accuracy: float
    out_of_range_accuracy: float
    chance: float


def train_previous_token(
    encoding: Encoding,
    *,
    seed: int = 0,
    train_len: int = 32,
    steps: int = 120,
    batch_size: int = 64,
    vocab: int = 16,
    d_model: int = 32,
    n_heads: int = 4,
    lr: float = 1e-2,
) -> TinyCausalAttention:
    """Train a :class:`TinyCausalAttention` on the previous-token task (deterministic for a given seed).

    The global RNG is left untouched: initialisation runs under :func:`torch.random.fork_rng` and data
    come from a private generator. Training runs on one intra-op thread (restored afterwards).
    """
    seed = check_int("seed", seed, minimum=0)
    train_len = check_int("train_len", train_len, minimum=2)
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = TinyCausalAttention(encoding, vocab=vocab, d_model=d_model, n_heads=n_heads, max_len=train_len)
    data = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    with _one_thread():
        for _ in range(steps):
            tokens = torch.randint(vocab, (batch_size, train_len), generator=data)
            logits = model(tokens)[:, 1:]
            loss = nn.functional.cross_entropy(logits.reshape(-1, vocab), tokens[:, :-1].reshape(-1))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return model


def run_extrapolation(
    encoding: Encoding,
    *,
    seed: int = 0,
    train_len: int = 32,
    test_len: int = 128,
    steps: int = 120,
    n_test: int = 64,
    d_model: int = 32,
    n_heads: int = 4,
) -> ExtrapolationResult:
    """Train on ``train_len`` tokens, evaluate on ``test_len`` tokens, split accuracy by position.

    Args:
        encoding: ``"sinusoidal"``, ``"learned"``, ``"rope"``, ``"alibi"`` or ``"none"``.
        seed: Seed of initialisation, training data and test data.
        train_len: Training sequence length (>= 2).
        test_len: Evaluation length (> ``train_len``).
        steps: Adam steps of batch 64.
        n_test: Number of evaluation sequences.
        d_model: Width of the model (see :class:`TinyCausalAttention`).
        n_heads: Number of attention heads.

    Returns:
        An :class:`ExtrapolationResult`.

    Raises:
        ValueError: ``test_len <= train_len``, or ``encoding="learned"`` (which has no row for positions
            ``>= train_len`` and raises in the forward pass).

    Examples:
        >>> r = run_extrapolation("sinusoidal", seed=0)
        >>> r.in_range_accuracy > 0.95 > 0.3 > r.out_of_range_accuracy
        True
    """
    train_len = check_int("train_len", train_len, minimum=2)
    test_len = check_int("test_len", test_len, minimum=2)
    if test_len <= train_len:
        raise ValueError(f"test_len must be > train_len={train_len}, got {test_len}")
    n_test = check_int("n_test", n_test, minimum=1)
    model = train_previous_token(
        encoding, seed=seed, train_len=train_len, steps=steps, d_model=d_model, n_heads=n_heads
    )
    tokens = torch.randint(model.vocab, (n_test, test_len), generator=torch.Generator().manual_seed(seed + 1))
    with torch.no_grad(), _one_thread():
        correct = model(tokens)[:, 1:].argmax(-1) == tokens[:, :-1]
    position = torch.arange(1, test_len)
    inside = correct[:, position < train_len].double().mean().item()
    outside = correct[:, position >= train_len].double().mean().item()
    return ExtrapolationResult(
        encoding=encoding,
        seed=seed,
        train_len=train_len,
        test_len=test_len,
        in_range_accuracy=inside,
        out_of_range_accuracy=outside,
        chance=1.0 / model.vocab,
    )

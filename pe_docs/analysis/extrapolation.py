"""A seeded toy experiment: does a model trained on short sequences work on longer ones?

The task is "repeat the previous token": at every position ``p >= 1`` the model must output the token at
``p − 1``. It needs position information (without it, attention cannot tell the previous token from any
other) but only *relative* position. A one-layer causal attention model is trained on sequences of
``train_len`` tokens and evaluated on sequences of ``test_len`` tokens; accuracy is reported separately for
positions inside the training range and beyond it. With the default settings one run takes one to two
seconds on one CPU core.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import torch
from torch import nn

from pe_docs._checks import check_choice, check_int, check_real
from pe_docs.analysis.learned import LearnedPositionalEmbedding
from pe_docs.analysis.rope import rope_rotate
from pe_docs.bias import alibi_bias
from pe_docs.encoding import sinusoidal_table

Encoding = Literal["sinusoidal", "learned", "rope", "alibi", "none"]
"""How positions enter ``TinyCausalAttention``."""

ENCODINGS: tuple[Encoding, ...] = ("sinusoidal", "learned", "rope", "alibi", "none")
"""Every value of ``Encoding``, in the order the documentation lists them."""


class TinyCausalAttention(nn.Module):
    """Token embedding + one multi-head causal self-attention layer + a linear read-out.

    Everything ``forward`` builds per call (the sinusoidal table, the causal mask, the ALiBi bias) is created
    on the input's device in the model's dtype, so the model works after ``.to(device)`` or ``.double()``.

    Args:
        encoding: How positions enter: ``"sinusoidal"`` (table added to the input), ``"learned"``
            (``LearnedPositionalEmbedding``), ``"rope"`` (queries and keys
            rotated), ``"alibi"`` (bias on the scores) or ``"none"``.
        vocab: Vocabulary size; an integer >= 2.
        d_model: Width; an integer >= 2, divisible by ``n_heads``, with ``d_model / n_heads`` even (for
            RoPE and the sinusoidal table).
        n_heads: Number of heads; an integer >= 1.
        max_len: Rows of the learned embedding, i.e. the longest sequence ``"learned"`` accepts; an integer
            >= 1, checked for every encoding (the others accept any length).

    Attributes:
        encoding: The position encoding, as given.
        vocab: Vocabulary size.
        d_model: Width.
        n_heads: Number of heads.
        max_len: Longest sequence the ``"learned"`` encoding accepts.
        embed: The token embedding, ``nn.Embedding(vocab, d_model)``.
        qkv: The query/key/value projection, ``nn.Linear(d_model, 3 * d_model, bias=False)``.
        readout: The output layer, ``nn.Linear(d_model, vocab)``.
        positions: The ``LearnedPositionalEmbedding`` for ``"learned"``, else
            ``None``.

    Raises:
        TypeError: an integer argument is not an integer.
        ValueError: ``encoding`` is unknown, an integer argument is below its minimum, or ``d_model /
            n_heads`` is not an even integer.

    Examples:
        >>> model = TinyCausalAttention("rope", vocab=16, d_model=32, n_heads=4)
        >>> model(torch.zeros(2, 7, dtype=torch.long)).shape
        torch.Size([2, 7, 16])
    """

    def __init__(
        self, encoding: Encoding, *, vocab: int = 16, d_model: int = 32, n_heads: int = 4, max_len: int = 32
    ) -> None:
        super().__init__()
        self.encoding = check_choice("encoding", encoding, ENCODINGS)
        self.vocab = check_int("vocab", vocab, minimum=2)
        self.d_model = check_int("d_model", d_model, minimum=2)
        self.n_heads = check_int("n_heads", n_heads, minimum=1)
        self.max_len = check_int("max_len", max_len, minimum=1)
        if d_model % n_heads or (d_model // n_heads) % 2:
            raise ValueError(f"d_model / n_heads must be an even integer, got d_model={d_model}, n_heads={n_heads}")
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.readout = nn.Linear(d_model, vocab)
        self.positions = LearnedPositionalEmbedding(self.max_len, d_model) if self.encoding == "learned" else None

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Next-token logits for a batch of token sequences.

        Args:
            tokens: Integer tensor of shape ``(batch, seq)`` with ``batch, seq >= 1`` and values in
                ``[0, vocab)``, on the model's device.

        Returns:
            Logits of shape ``(batch, seq, vocab)`` in the model's dtype.

        Raises:
            TypeError: ``tokens`` is not an integer tensor.
            ValueError: ``tokens`` is not 2-D or empty, holds a value outside ``[0, vocab)``, or (for
                ``"learned"``) ``seq > max_len``.

        Examples:
            >>> model = TinyCausalAttention("none", vocab=4, d_model=8, n_heads=2)
            >>> model(torch.tensor([[0, 3, 1]])).shape
            torch.Size([1, 3, 4])
            >>> model(torch.tensor([[0, 4]]))
            Traceback (most recent call last):
            ...
            ValueError: tokens must lie in [0, vocab=4), got values in [0, 4] (shape (1, 2))
        """
        if not isinstance(tokens, torch.Tensor):
            raise TypeError(f"tokens must be a torch.Tensor, got {type(tokens).__name__}")
        if tokens.dtype.is_floating_point or tokens.dtype.is_complex or tokens.dtype == torch.bool:
            raise TypeError(f"tokens must be an integer tensor, got dtype {tokens.dtype}")
        if tokens.dim() != 2 or tokens.numel() == 0:
            raise ValueError(f"tokens must have shape (batch, seq) with batch, seq >= 1, got {tuple(tokens.shape)}")
        low, high = int(tokens.min()), int(tokens.max())
        if low < 0 or high >= self.vocab:
            raise ValueError(
                f"tokens must lie in [0, vocab={self.vocab}), got values in [{low}, {high}] "
                f"(shape {tuple(tokens.shape)})"
            )
        batch, seq = tokens.shape
        x = self.embed(tokens)
        if self.encoding == "sinusoidal":
            x = x + sinusoidal_table(seq, self.d_model, dtype=x.dtype, device=x.device)
        elif self.positions is not None:
            x = self.positions(x)
        head_dim = self.d_model // self.n_heads
        q, k, v = (t.reshape(batch, seq, self.n_heads, head_dim).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        if self.encoding == "rope":
            q, k = rope_rotate(q, pairing="interleaved"), rope_rotate(k, pairing="interleaved")
        scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim)
        if self.encoding == "alibi":
            scores = scores + alibi_bias(self.n_heads, seq, dtype=scores.dtype, device=scores.device)
        else:
            future = torch.ones(seq, seq, dtype=torch.bool, device=scores.device).triu(1)
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

    Returned by ``run_extrapolation``; frozen, and equal for equal runs.

    Attributes:
        encoding: The position encoding of the model.
        seed: The seed of the run.
        train_len: Length of the training sequences.
        test_len: Length of the evaluation sequences.
        in_range_accuracy: Accuracy at positions ``1 … train_len − 1`` of the evaluation sequences.
        out_of_range_accuracy: Accuracy at positions ``train_len … test_len − 1``.
        chance: ``1 / vocab``, the accuracy of guessing.

    Examples:
        >>> r = ExtrapolationResult("none", 0, 32, 128, 0.25, 0.12, 1 / 16)
        >>> r.out_of_range_accuracy > r.chance
        True
    """

    encoding: Encoding
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
    """Train a ``TinyCausalAttention`` on the previous-token task (deterministic for a given seed).

    Every step draws ``batch_size`` random sequences of ``train_len`` tokens and minimises the cross-entropy
    of predicting token ``p − 1`` at positions ``p >= 1`` with Adam. The global RNG is left untouched:
    initialisation runs under ``torch.random.fork_rng`` and data come from a private generator.
    Training runs on the CPU on one intra-op thread (restored afterwards).

    Args:
        encoding: The position encoding (see ``TinyCausalAttention``).
        seed: Seed of the initialisation and of the training data; an integer >= 0.
        train_len: Length of the training sequences, also the learned embedding's ``max_len``; >= 2.
        steps: Number of Adam steps; an integer >= 1.
        batch_size: Sequences per step; an integer >= 1.
        vocab: Vocabulary size; an integer >= 2.
        d_model: Width of the model.
        n_heads: Number of attention heads.
        lr: Adam's learning rate; a finite number > 0.

    Returns:
        The trained model (in training mode, on the CPU).

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range (see ``TinyCausalAttention`` for the model's).

    Examples:
        >>> model = train_previous_token("alibi", steps=2, batch_size=4, train_len=8)
        >>> model.encoding, model.vocab
        ('alibi', 16)
    """
    seed = check_int("seed", seed, minimum=0)
    train_len = check_int("train_len", train_len, minimum=2)
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lr = check_real("lr", lr, minimum=0.0, open_minimum=True)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = TinyCausalAttention(encoding, vocab=vocab, d_model=d_model, n_heads=n_heads, max_len=train_len)
    data = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    with _one_thread():
        for _ in range(steps):
            tokens = torch.randint(model.vocab, (batch_size, train_len), generator=data)
            logits = model(tokens)[:, 1:]
            loss = nn.functional.cross_entropy(logits.reshape(-1, model.vocab), tokens[:, :-1].reshape(-1))
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

    The model is ``train_previous_token``'s (vocabulary 16, batch 64); the ``n_test`` evaluation
    sequences come from a generator seeded with ``seed + 1``. With the defaults a run takes one to two
    seconds on one CPU core and gives the same result every time.

    Args:
        encoding: ``"sinusoidal"``, ``"rope"``, ``"alibi"`` or ``"none"``. ``"learned"`` is rejected: a
            learned table has no row for positions ``>= train_len``, so there is nothing to evaluate beyond
            the training length.
        seed: Seed of initialisation, training data and test data; an integer >= 0.
        train_len: Training sequence length; an integer >= 2.
        test_len: Evaluation length; an integer > ``train_len``.
        steps: Adam steps of batch 64; an integer >= 1.
        n_test: Number of evaluation sequences; an integer >= 1.
        d_model: Width of the model (see ``TinyCausalAttention``).
        n_heads: Number of attention heads.

    Returns:
        An ``ExtrapolationResult``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``encoding`` is unknown or ``"learned"``, ``test_len <= train_len``, or another
            argument is out of range. All checks run before any training.

    Examples:
        >>> r = run_extrapolation("sinusoidal", seed=0)
        >>> r.in_range_accuracy > 0.95 > 0.3 > r.out_of_range_accuracy
        True
        >>> run_extrapolation("learned")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: encoding='learned' cannot be evaluated beyond train_len=32: a learned table has no row ...
    """
    encoding = check_choice("encoding", encoding, ENCODINGS)
    seed = check_int("seed", seed, minimum=0)
    train_len = check_int("train_len", train_len, minimum=2)
    if encoding == "learned":
        others = ", ".join(repr(e) for e in ENCODINGS if e != "learned")
        others = " or ".join(others.rsplit(", ", 1))
        raise ValueError(
            f"encoding='learned' cannot be evaluated beyond train_len={train_len}: a learned table has no "
            f"row for positions >= {train_len} (use {others})"
        )
    test_len = check_int("test_len", test_len, minimum=2)
    if test_len <= train_len:
        raise ValueError(f"test_len must be > train_len={train_len}, got {test_len}")
    steps = check_int("steps", steps, minimum=1)
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

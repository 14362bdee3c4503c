"""The shape of the set of encodings: distances between rows, principal components, and frequency bands.

Every row of the table lies on the sphere of radius ``√(d/2)``: pair ``i`` contributes
``sin²(p·w_i) + cos²(p·w_i) = 1``. More precisely, pair ``i`` lies on its own unit circle, so the rows lie on the
product of ``d/2`` circles (a torus) and trace a curve on it as ``p`` grows. Two rows ``k`` apart are
``‖PE[p] − PE[p+k]‖ = 2·√(Σ_i sin²(k·w_i / 2))`` apart, whatever ``p`` is. This module computes that
distance from its closed form, the principal components of a stretch of the curve (what a 2-D or 3-D picture of
it can show), and how the bands of frequencies share the similarity of two positions.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from pe_docs._checks import check_base, check_d_model, check_int, check_real_tensor
from pe_docs.frequencies import inverse_frequencies

_CHUNK_ELEMENTS = 1 << 22  # elements per block in chunked computations (~32 MB of float64)


def offset_distances(d_model: int, max_k: int, *, base: float = 10000.0) -> torch.Tensor:
    """Euclidean distance ``‖PE[p] − PE[p+k]‖`` for ``k = 0 … max_k``, from the closed form.

    Pair ``i`` moves along a chord of its unit circle of length ``2·|sin(k·w_i / 2)|``, so
    ``‖PE[p] − PE[p+k]‖² = Σ_i 4·sin²(k·w_i / 2) = d − 2·Σ_i cos(k·w_i)``, the same for every ``p`` and for
    ``±k``. The sine form is used: it has no cancellation for small ``k``. Computed in float64 in blocks of
    ``k``, so ``max_k`` can be large.

    Args:
        d_model: Width; a positive even integer.
        max_k: Largest offset; an integer >= 0.
        base: The constant of the encoding; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_k + 1,)``; entry ``k`` is the distance, entry 0 is 0.

    Raises:
        TypeError: ``d_model`` or ``max_k`` is not an integer, ``base`` is not a real number.
        ValueError: ``d_model`` is odd or < 1, ``max_k`` < 0, ``base`` not finite and > 0.

    Examples:
        >>> offset_distances(2, 2)  # one pair, w = 1: chords of the unit circle
        tensor([0.0000, 0.9589, 1.6829], dtype=torch.float64)
    """
    d = check_d_model(d_model)
    max_k = check_int("max_k", max_k, minimum=0)
    base = check_base(base)
    half_w = inverse_frequencies(d, base=base, dtype=torch.float64) / 2
    k = torch.arange(max_k + 1, dtype=torch.float64)
    step = max(1, _CHUNK_ELEMENTS // half_w.numel())
    blocks = [torch.sin(k[s : s + step, None] * half_w[None, :]).square().sum(dim=1) for s in range(0, max_k + 1, step)]
    return torch.cat(blocks).sqrt() * 2


class PrincipalComponents(NamedTuple):
    """Principal components of a table's rows (the result of ``principal_components``).

    Attributes:
        coordinates: ``(L, n_components)`` float64: row ``p`` projected on components ``1 … n_components``.
        explained: ``(min(L, d),)`` float64: the share of the total variance each component holds, largest
            first.
    """

    coordinates: torch.Tensor
    explained: torch.Tensor


def principal_components(table: torch.Tensor, n_components: int = 3) -> PrincipalComponents:
    """Principal component analysis of the rows of ``table`` (one row per position), in float64.

    The rows are centred (the mean row is subtracted); the components are the eigenvectors ``v_j`` of the
    scatter matrix ``XᵀX`` of the centred table ``X`` (found through ``XXᵀ`` when ``L < d``, the smaller of
    the two; the eigenvalues ``λ_j`` are the squared singular values of ``X``): ``explained[j] = λ_j / Σ λ``
    is the share of the total variance that component ``j`` holds, and ``coordinates[:, j] = X·v_j`` the
    position of each row along it. Each component's sign
    is fixed so that its largest loading is positive, so the result does not depend on the eigen-solver's
    sign choice. Shares far below ``1e-12`` of the total are at the level of rounding.

    Args:
        table: A real floating-point 2-D tensor ``(L, d)`` with ``L >= 2`` rows, every entry finite. It is
            copied to the CPU in float64.
        n_components: Number of components whose coordinates are returned; an integer in
            ``1 … min(L, d)``.

    Returns:
        ``PrincipalComponents(coordinates, explained)``: float64 tensors of shapes ``(L, n_components)`` and
        ``(min(L, d),)``. ``explained`` is non-increasing and sums to 1 — or is all zeros for a table whose
        rows are all equal (no variance to share).

    Raises:
        TypeError: ``table`` is not a real floating-point tensor, ``n_components`` not an integer.
        ValueError: ``table`` is not 2-D, has fewer than 2 rows, or holds NaN or an infinity;
            ``n_components`` outside ``1 … min(L, d)``.

    Examples:
        >>> pca = principal_components(torch.tensor([[0.0, 1.0], [4.0, 1.0]]), 1)
        >>> pca.coordinates.flatten().round(decimals=6)
        tensor([-2.,  2.], dtype=torch.float64)
        >>> pca.explained
        tensor([1., 0.], dtype=torch.float64)
    """
    x = check_real_tensor("table", table, ndim=2)
    if x.size(0) < 2 or x.size(1) < 1:
        raise ValueError(f"table must have at least 2 rows and 1 column, got shape {tuple(x.shape)}")
    n_components = check_int("n_components", n_components, minimum=1)
    rank_bound = min(x.shape)
    if n_components > rank_bound:
        raise ValueError(f"n_components must be <= min(L, d) = {rank_bound}, got {n_components}")
    x = x.detach().to(device="cpu", dtype=torch.float64)
    centred = x - x.mean(dim=0, keepdim=True)
    # Eigen-decomposition of the smaller of the two scatter matrices XᵀX (d × d) and XXᵀ (L × L), whose nonzero
    # eigenvalues are the squared singular values of the centred table X: several times faster than an SVD of
    # the table, and exact enough for variance shares.
    if x.size(0) < x.size(1):
        values, left = torch.linalg.eigh(centred @ centred.T)
        values, left = values.flip(0)[:rank_bound].clamp(min=0), left.flip(1)[:, :rank_bound]
        root = values.sqrt()
        vectors = (centred.T @ left) / torch.where(root > 0, root, 1.0)  # v_j = Xᵀu_j / σ_j
    else:
        values, vectors = torch.linalg.eigh(centred.T @ centred)
        values, vectors = values.flip(0)[:rank_bound].clamp(min=0), vectors.flip(1)[:, :rank_bound]
    # sign convention: the largest-magnitude loading of every component is positive
    biggest = vectors.abs().argmax(dim=0)
    signs = torch.sign(vectors[biggest, torch.arange(vectors.size(1))])
    signs[signs == 0] = 1.0
    loadings = vectors[:, :n_components] * signs[:n_components]
    total = values.sum()
    explained = values / total if total > 0 else torch.zeros_like(values)
    return PrincipalComponents(centred @ loadings, explained)


class BandContributions(NamedTuple):
    """How bands of frequencies add up to the cosine similarity of positions ``k`` apart
    (the result of ``band_contributions``).

    Attributes:
        edges: ``n_bands + 1`` pair indices: band ``b`` holds pairs ``edges[b] … edges[b+1] − 1``.
        values: ``(n_bands, max_k + 1)`` float64: band ``b``'s term of ``s(k)``; the bands sum to ``s(k)``.
    """

    edges: tuple[int, ...]
    values: torch.Tensor


def band_contributions(d_model: int, max_k: int, *, n_bands: int = 3, base: float = 10000.0) -> BandContributions:
    """Split the cosine similarity ``s(k)`` of ``PE[p]`` and ``PE[p+k]`` into the terms of frequency bands.

    ``s(k) = (2/d)·Σ_i cos(k·w_i)`` (see ``pe_docs.analysis.neighbour_similarity``). The ``d/2`` pairs are cut into
    ``n_bands`` contiguous bands of (nearly) equal size, fastest first — as ``torch.tensor_split`` does, so
    the first bands get one pair more when ``d/2`` is not a multiple of ``n_bands`` — and band ``b``'s term
    is ``(2/d)·Σ_{i in band b} cos(k·w_i)``. The terms add up to ``s(k)``; at ``k = 0`` each is the band's
    share of the pairs. Computed in float64 in blocks of ``k``.

    Args:
        d_model: Width; a positive even integer.
        max_k: Largest offset; an integer >= 0.
        n_bands: Number of bands; an integer in ``1 … d_model/2``.
        base: The constant of the encoding; finite and > 0.

    Returns:
        ``BandContributions(edges, values)``: ``edges`` has ``n_bands + 1`` pair indices from 0 to
        ``d_model/2`` (band ``b`` holds columns ``2·edges[b] … 2·edges[b+1] − 1``), ``values`` is a float64
        tensor of shape ``(n_bands, max_k + 1)``.

    Raises:
        TypeError: ``d_model``, ``max_k`` or ``n_bands`` is not an integer, ``base`` not a real number.
        ValueError: ``d_model`` odd or < 1, ``max_k`` < 0, ``n_bands`` outside ``1 … d_model/2``, ``base``
            not finite and > 0.

    Examples:
        >>> bands = band_contributions(4, 1, n_bands=2)
        >>> bands.edges
        (0, 1, 2)
        >>> bands.values
        tensor([[0.5000, 0.2702],
                [0.5000, 0.5000]], dtype=torch.float64)
    """
    d = check_d_model(d_model)
    max_k = check_int("max_k", max_k, minimum=0)
    n_bands = check_int("n_bands", n_bands, minimum=1)
    if n_bands > d // 2:
        raise ValueError(f"n_bands must be <= d_model / 2 = {d // 2} (at least one pair per band), got {n_bands}")
    base = check_base(base)
    w = inverse_frequencies(d, base=base, dtype=torch.float64)
    sizes = [len(part) for part in torch.tensor_split(torch.arange(d // 2), n_bands)]
    edges = (0, *torch.tensor(sizes).cumsum(0).tolist())
    k = torch.arange(max_k + 1, dtype=torch.float64)
    step = max(1, _CHUNK_ELEMENTS // w.numel())
    values = torch.empty(n_bands, max_k + 1, dtype=torch.float64)
    for s in range(0, max_k + 1, step):
        cos = torch.cos(k[s : s + step, None] * w[None, :])
        for b in range(n_bands):
            values[b, s : s + step] = cos[:, edges[b] : edges[b + 1]].sum(dim=1)
    return BandContributions(tuple(int(e) for e in edges), values * (2.0 / d))

"""What the code page says about its snippets and cannot cheaply show in a block: its modules under torch.compile
with ``fullgraph=True`` (decoding token by token with tensor positions is one graph; the dynamic rope type breaks
the graph where it reads the length — the page's own box counts the graphs of a Python int offset in each mode),
and FSDP's meta-device initialisation calling ``reset_parameters()``. The snippets are executed from
docs/en/code.md as a reader copies them (the Chinese page has the same code: tests/test_pages.py holds the two to
it)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from pe_docs import sinusoidal_table
from site_tools import pages

CODE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "en" / "code.md"


def _snippet(defines: str) -> dict[str, Any]:
    """Run the page's block that defines ``defines`` (a class or function name) in a fresh namespace."""
    for fence in pages.fences(CODE_PAGE):
        if fence.runs and (f"class {defines}(" in fence.code or f"def {defines}(" in fence.code):
            namespace: dict[str, Any] = {}
            exec(compile(fence.code, f"{CODE_PAGE}:{fence.line}", "exec"), namespace)
            return namespace
    raise AssertionError(f"no block of {CODE_PAGE} defines {defines}")


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    import torch._dynamo

    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def test_positional_encoding_snippet_decodes_with_one_graph() -> None:
    import torch._dynamo

    module = _snippet("SinusoidalPositionalEncoding")["SinusoidalPositionalEncoding"](32, 64, 0.0).eval()
    x = torch.randn(2, 1, 32)
    start = torch.tensor([[0], [3]])
    compiled = torch.compile(module, fullgraph=True, backend="eager")
    with torch._dynamo.config.patch(error_on_recompile=True):
        for t in range(6):
            assert torch.equal(compiled(x, position_ids=start + t), module(x, position_ids=start + t))
    torch._dynamo.reset()
    compiled = torch.compile(module, fullgraph=True, backend="eager")
    with torch._dynamo.config.patch(error_on_recompile=True):
        for t in range(6):
            assert torch.equal(compiled(x, offset=torch.tensor(t)), module(x, offset=t))


def test_rotary_snippet_decodes_with_one_graph() -> None:
    import torch._dynamo

    snippet = _snippet("RotaryEmbedding")
    scaling = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 64}  # fmt: skip
    rotary = snippet["RotaryEmbedding"](32, scaling=scaling)
    apply_rope = snippet["apply_rope"]
    q = torch.randn(2, 4, 1, 32)

    def step(position_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return apply_rope(q, q, *rotary(position_ids))

    compiled = torch.compile(step, fullgraph=True, backend="eager")
    start = torch.tensor([[0], [5]])
    with torch._dynamo.config.patch(error_on_recompile=True):
        for t in range(6):
            assert torch.equal(compiled(start + t)[0], step(start + t)[0])


def test_fsdp_meta_initialisation_calls_reset_parameters() -> None:
    """torch/distributed/fsdp/_init_utils.py ``_materialize_meta_module`` (FSDP's default when modules are on the
    meta device): ``to_empty`` then ``reset_parameters()`` on every module that directly holds a parameter or a
    buffer; a module with a buffer and no ``reset_parameters`` stops it."""
    from torch.distributed.fsdp._common_utils import _FSDPDeviceHandle
    from torch.distributed.fsdp._init_utils import _materialize_meta_module

    encoding = _snippet("SinusoidalPositionalEncoding")["SinusoidalPositionalEncoding"]
    handle = _FSDPDeviceHandle.from_device(torch.device("cpu"))
    with torch.device("meta"):
        model = nn.Sequential(nn.Linear(16, 16), encoding(16, max_len=20))
    _materialize_meta_module(model, torch.device("cpu"), set(), handle)
    assert torch.allclose(model[1].pe, sinusoidal_table(20, 16), rtol=0, atol=3e-7)

    class TableWithoutReset(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("pe", sinusoidal_table(20, 16), persistent=False)

    with torch.device("meta"):
        model = nn.Sequential(TableWithoutReset())
    with warnings.catch_warnings(), pytest.raises(AttributeError, match="reset_parameters"):
        warnings.simplefilter("ignore")
        _materialize_meta_module(model, torch.device("cpu"), set(), handle)


def test_rotary_snippet_dynamic_type_breaks_the_graph_where_it_reads_the_length() -> None:
    import torch._dynamo

    snippet = _snippet("RotaryEmbedding")
    rotary = snippet["RotaryEmbedding"](32, scaling={"rope_type": "dynamic", "factor": 2.0}, max_position_embeddings=64)
    explanation = torch._dynamo.explain(rotary)(torch.arange(100)[None])
    assert explanation.graph_break_count >= 1
    with pytest.raises(Exception, match="[Dd]ata-dependent|item|__int__|[Gg]raph break"):
        torch.compile(rotary, fullgraph=True, backend="eager")(torch.arange(100)[None])

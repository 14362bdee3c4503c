"""ALiBi and T5, live (relative-schemes): ``alibiSlopes(nHeads)`` ≙ ``alibi_slopes`` within ``REL``,
``t5RelativeBucket(relativePosition, bidirectional, numBuckets, maxDistance)`` ≙ ``t5_relative_bucket``, equal
(a bucket is an integer), over a grid; the two explorers' figures, messages and addresses (``harness.live`` has
the shared part).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest
import torch
from harness.live import ARRAYS_JS, LANG_PATHS, REL, Visit, check_adjusted, check_error, raised, unpack

from pe_docs import alibi_slopes, t5_relative_bucket

pytestmark = pytest.mark.browser


T5_SETTINGS = [
    (bidirectional, buckets, max_distance)
    for bidirectional in (True, False)
    for buckets in (4, 6, 8, 16, 32, 64, 128)
    for max_distance in (20, 128, 1000)
    if max_distance > (buckets // 2 if bidirectional else buckets) // 2
] + [(True, 32, 9), (False, 32, 17), (True, 10, 3)]
OFFSETS = list(range(-5000, 5001))


BIAS_JS = (
    "text => {"
    + ARRAYS_JS
    + """
  const [t5Settings, [lo, hi]] = JSON.parse(text);
  const api = window.peDocs;
  const slopes = flat(Array.from({length: 100}, (_, j) => api.alibiSlopes(j + 1)));
  const offsets = Array.from({length: hi - lo + 1}, (_, j) => lo + j);
  const buckets = Int32Array.from(t5Settings.flatMap(([bi, n, m]) => api.t5RelativeBucket(offsets, bi, n, m)));
  const single = api.t5RelativeBucket(-200, true, 32, 128);
  return { slopes: b64(slopes), buckets: b64(buckets), single };
}"""
)


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_slopes_and_buckets_match_pe_docs(visits: Callable[[str], Visit], lang: str) -> None:
    page = visits(lang + "relative-schemes/").page
    got = page.evaluate(BIAS_JS, json.dumps([T5_SETTINGS, [OFFSETS[0], OFFSETS[-1]]]))

    want_slopes = torch.cat([alibi_slopes(n) for n in range(1, 101)]).numpy()
    assert np.abs(unpack(got["slopes"]) / want_slopes - 1).max() < REL

    offsets = torch.tensor(OFFSETS)
    buckets = unpack(got["buckets"], "<i4").reshape(len(T5_SETTINGS), len(OFFSETS))
    for (bidirectional, n, max_distance), js in zip(T5_SETTINGS, buckets, strict=True):
        want = t5_relative_bucket(offsets, bidirectional=bidirectional, num_buckets=n, max_distance=max_distance)
        assert np.array_equal(js, want.numpy()), (bidirectional, n, max_distance)
    assert got["single"] == 15  # a number gives a number (relative-schemes: offset -200 is in bucket 15)


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_alibi_slopes_and_t5_buckets(visits: object, lang: str) -> None:
    v = visits(lang + "relative-schemes/")  # type: ignore[operator]
    alibi, t5 = "bias-explorer-alibi", "bias-explorer-t5"
    # T5 opened as the decoder (t5.bidirectional=0): relative-schemes says its last bucket starts at distance 113
    s = v.state(t5)["data"]
    assert not s["bidirectional"] and s["reach"] == 200
    offsets = torch.arange(-200, 201)
    assert s["buckets"] == t5_relative_bucket(offsets, bidirectional=False).tolist()
    assert s["last"] == 113 and s["exact"] == 16
    v.toggle(t5, "bidirectional")
    s = v.state(t5)["data"]
    encoder = t5_relative_bucket(torch.arange(-129, 130))
    assert s["last"] == 91 == int(torch.arange(-129, 130)[encoder == 15].abs().min())
    assert s["used"] == 31 and s["unused"] == [16] == sorted(set(range(32)) - set(encoder.tolist()))
    summary = v.state(t5)["summary"]
    assert all(x in summary for x in ("91", "31", "16", "0", "7")), summary
    v.enter(t5, "num_buckets", "33")
    check_error(v, t5, "num_buckets", raised(lambda: t5_relative_bucket(torch.tensor([0]), num_buckets=33)), "偶数")
    v.enter(t5, "num_buckets", "32")
    v.enter(t5, "max_distance", "8")
    check_error(
        v, t5, "max_distance", raised(lambda: t5_relative_bucket(torch.tensor([0]), max_distance=8)), "必须 ≥ 9"
    )
    # more buckets need a larger max_distance; an odd number of buckets turned bidirectional: both adapted
    v.enter(t5, "max_distance", "9")
    v.enter(t5, "num_buckets", "64")
    assert check_adjusted(v, t5, "max_distance", "17")["data"]["last"] == 17
    v.toggle(t5, "bidirectional")
    v.enter(t5, "num_buckets", "33")
    v.toggle(t5, "bidirectional")
    assert check_adjusted(v, t5, "num_buckets", "34")["data"]["bidirectional"]
    v.enter(t5, "num_buckets", "32")
    v.enter(t5, "max_distance", "128")
    assert v.address("t5") == {"bidirectional": "1", "num_buckets": "32", "max_distance": "128", "reach": "200"}

    # ALiBi: slopes for a number of heads that is not a power of two; the matrix of one head
    v.enter(alibi, "n_heads", "12")
    v.enter(alibi, "head", "9")
    a = v.state(alibi)["data"]
    assert np.abs(np.array(a["slopes"]) / alibi_slopes(12).numpy() - 1).max() < REL
    assert (a["m"], a["power"], a["h"]) == (8, False, 9)
    cells = v.page.eval_on_selector_all(f"#{alibi} .pe-live__celltext", "els => els.map(e => e.textContent)")
    assert len(cells) == 64 and cells[8] == f"−{alibi_slopes(12)[8].item():.3g}"  # row 1, column 0: −m_9
    v.enter(alibi, "head", "13")
    check_error(v, alibi, "head", "head must be between 1 and n_heads = 12, got 13", "之间")
    v.enter(alibi, "head", "9")
    v.enter(alibi, "n_heads", "4")  # fewer heads than the head shown: the last one is shown
    assert check_adjusted(v, alibi, "head", "4")["data"]["h"] == 4
    v.enter(alibi, "n_heads", "12")
    v.enter(alibi, "head", "1")
    assert v.address("alibi") == {"n_heads": "12", "seq_len": "8", "head": "1", "causal": "1"}

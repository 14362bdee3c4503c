"""Start here's clock hands, live: ``clockAngles`` ≙ start here's ``rad2deg(remainder(p · w, 2π))``; the slider,
the Play button, the messages and the address (``harness.live`` has the shared part).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from harness.live import LANG_PATHS, check_error, raised

from pe_docs import inverse_frequencies
from pe_docs._checks import check_int

pytestmark = pytest.mark.browser


def clock_angles(p: int) -> np.ndarray:
    """Start here's block: where each hand of the figure points at position p, degrees clockwise from twelve."""
    return torch.rad2deg(torch.remainder(p * inverse_frequencies(8), 2 * math.pi)).numpy()


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_clock_hands_turn_by_the_same_angle_at_every_position(visits: object, lang: str) -> None:
    v = visits(lang + "start-here/")  # type: ignore[operator]
    part = "clock-explorer"
    # opened with ?clock.position=100&clock.offset=7: restored
    s = v.state(part)
    assert s["state"] == "ok" and (s["data"]["p"], s["data"]["k"], s["data"]["rate"]) == (100, 7, 100), s["values"]
    assert v.page.locator(f"#{part}-position").input_value() == "100"
    assert v.page.locator(f"#{part}-position-slider").input_value() == "100"
    for key in ("at", "next", "turns"):
        p = {"at": 100, "next": 107, "turns": 7}[key]
        assert np.abs(np.array(s["data"][key]) - clock_angles(p)).max() < 1e-9, key
    # drawn as the figure: a hand at (x, y) = (sin θ, cos θ), θ clockwise from twelve o'clock (the screen's y grows
    # downwards); the arc of a one-hand face turns clockwise from p to p + k round the face's centre, through the
    # half-way angle
    drawn = v.page.evaluate(
        """part => { const faces = [...document.querySelectorAll(`#${part} .pe-live__face`)];
            const angle = (dx, dy) => ((Math.atan2(dx, -dy) * 180 / Math.PI) % 360 + 360) % 360;
            const hands = [...faces[0].querySelectorAll("line.pe-live__hand:not(.pe-live__hand--next)")]
              .map(l => angle(l.x2.baseVal.value - l.x1.baseVal.value, l.y2.baseVal.value - l.y1.baseVal.value));
            const arcs = faces.slice(1).map(f => {
              const a = f.querySelector(".pe-live__arc"), c = f.viewBox.baseVal.width / 2;
              const [s, m] = [0, a.getTotalLength() / 2].map(x => a.getPointAtLength(x));
              return [angle(m.x - c, m.y - c), Math.hypot(m.x - c, m.y - c) - Math.hypot(s.x - c, s.y - c)]; });
            return { hands, arcs }; }""",
        part,
    )
    assert np.abs(np.array(drawn["hands"]) - clock_angles(100)).max() < 0.1, drawn["hands"]
    halfway = (clock_angles(100) + clock_angles(7) / 2) % 360
    arcs = np.array(drawn["arcs"])
    assert np.abs(arcs[:, 0] - halfway).max() < 0.5 and np.abs(arcs[:, 1]).max() < 0.1, drawn["arcs"]

    # the turn from p to p + k is k·w_i whatever p is (every p of the slider, in one evaluate)
    turns = v.page.evaluate(
        """k => { const out = [];
            for (let p = 0; p <= 1000; p++) {
              const a = window.peDocs.clockAngles(p), b = window.peDocs.clockAngles(p + k);
              out.push(a.map((x, i) => ((b[i] - x) % 360 + 360) % 360)); }
            return out; }""",
        7,
    )
    spread = np.array(turns) - clock_angles(7)
    spread = (spread + 180) % 360 - 180
    assert np.abs(spread).max() < 1e-9

    # the keyboard: the slider moves p by one, the field takes a position, the table shows start here's numbers
    v.page.locator(f"#{part}-position-slider").focus()
    v.page.keyboard.press("ArrowRight")
    assert v.state(part)["data"]["p"] == 101
    v.enter(part, "offset", "0")
    v.enter(part, "position", "1000", press="Enter")
    rows = v.page.eval_on_selector_all(
        f"#{part} tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert [float(r[2].rstrip("°")) for r in rows] == [55.8, 329.6, 213.0, 57.3]  # start here's expected output
    assert [r[4] for r in rows] == ["0.0°"] * 4
    assert v.address("clock") == {"position": "1000", "offset": "0", "rate": "100"}
    summary = v.state(part)["summary"]
    assert "1000" in summary and ("每个 p" if v.zh else "every p") in summary

    # Play moves p (100 positions a second), Pause stops it and writes the address
    v.enter(part, "position", "0", press="Enter")
    v.enter(part, "offset", "10")
    button = v.page.locator(f"#{part} button")
    assert button.inner_text() == ("播放" if v.zh else "Play")
    button.focus()
    v.page.keyboard.press("Enter")
    v.page.wait_for_function(f"() => document.getElementById('{part}').peLive.data.p >= 20")
    assert button.get_attribute("aria-pressed") == "true"
    v.page.keyboard.press("Enter")
    p = v.state(part)["data"]["p"]
    assert button.get_attribute("aria-pressed") == "false" and v.address("clock")["position"] == str(p)
    # typing in a field while it plays stops it (here with a bad offset), and the button reads Play again
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    v.enter(part, "offset", "-1")
    v.page.wait_for_function(f"() => document.querySelector('#{part} button').getAttribute('aria-pressed') === 'false'")
    assert button.inner_text() == ("播放" if v.zh else "Play")
    v.enter(part, "offset", "10")

    # bad settings: a message in the page's language, and back
    v.enter(part, "position", "-3")
    check_error(v, part, "position", raised(lambda: check_int("position", -3, minimum=0)), "必须 ≥ 0")
    v.enter(part, "position", "2.5")
    check_error(v, part, "position", raised(lambda: check_int("position", 2.5)), "必须是整数")
    v.enter(part, "position", "")
    check_error(v, part, "position", "position is empty or not a number", "为空")
    v.enter(part, "position", "12")
    assert v.state(part)["state"] == "ok"

    # the address round trip (relative-schemes' test opens the page again): a figure started from what the page
    # wrote has the same settings
    v.enter(part, "offset", "3")
    assert v.address("clock") == {"position": "12", "offset": "3", "rate": "100"}
    assert v.page.evaluate("() => location.hash") == "#" + part
    again = v.again("clock", "clock-again")
    assert again["values"] == v.state(part)["values"] and again["data"]["at"] == v.state(part)["data"]["at"]

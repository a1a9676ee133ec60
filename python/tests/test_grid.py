"""golab.grid: dense worlds on golab's strategies, checked against the scalar strategy and
against the hashed universe (a pattern on a torus large enough never to wrap)."""

import numpy as np
import pytest

import golab

CPU = ["scalar", "rayon", "cpu-bitsliced"]


def soup(width, height, seed):
    rng = np.random.default_rng(seed)
    return (rng.random((height, width)) < 0.35).astype(np.uint8)


@pytest.mark.parametrize("strategy", CPU[1:])
def test_cpu_strategies_equal_scalar(strategy):
    start = soup(96, 64, 3)
    ref, other = golab.grid(96, 64), golab.grid(96, 64, strategy=strategy)
    ref.states = start
    other.states = start
    for n in [1, 5, 60]:
        ref.step(n)
        other.step(n)
        np.testing.assert_array_equal(ref.states, other.states)
        np.testing.assert_array_equal(ref.ages, other.ages)
        assert ref.population == other.population == int(ref.states.sum())
    assert other.generation == 66
    assert other.strategy == strategy


def test_grid_follows_the_hashed_universe():
    lt = golab.load_rules("b3s23").lifetree()
    r = lt.pattern("b2o$2o$bo!")
    g = golab.grid(256)
    for x, y in r.coords():
        g[int(x) + 128, int(y) + 128] = 1
    g.step(300)
    expected = r[300]
    cells = np.argwhere(g.states == 1)[:, ::-1] - 128
    got = cells[np.lexsort((cells[:, 0], cells[:, 1]))]
    np.testing.assert_array_equal(got, expected.coords())


def test_ages_count_generations_survived():
    g = golab.grid(16, rule="b3s23")
    g[5, 5] = g[6, 5] = g[5, 6] = g[6, 6] = 1
    g.step(10)
    ages = g.ages
    assert ages.dtype == np.uint32 and ages.shape == (16, 16)
    assert ages[5, 5] == ages[6, 6] >= 10
    assert ages[0, 0] == 0


def test_generations_rule_states():
    g = golab.grid(32, rule="/2/3")  # Brian's Brain
    g[10, 10] = g[11, 10] = 1
    g.step(1)
    s = g.states
    assert s.dtype == np.uint8
    assert set(np.unique(s)) <= {0, 1, 2}
    assert s[10, 10] == 2 and s[10, 11] == 2


def test_random_fill_and_switching_keep_cells():
    g = golab.grid(128, 96, strategy="scalar")
    g.fill_random(0.3, seed=9)
    before = g.states
    assert 0.2 < before.mean() < 0.4
    g.switch("rayon")
    np.testing.assert_array_equal(g.states, before)
    assert g.strategy == "rayon"


def test_gpu_strategy_runs_or_says_how_to_get_a_driver():
    start = soup(64, 64, 5)
    ref = golab.grid(64)
    ref.states = start
    ref.step(20)
    try:
        g = golab.grid(64, strategy="gpu-bitpacked")
    except RuntimeError as e:
        assert "mesa-vulkan-drivers" in str(e), str(e)
        return
    g.states = start
    g.step(20)
    np.testing.assert_array_equal(g.states, ref.states)


def test_gpu_strategy_without_an_adapter_names_lavapipe():
    # No Vulkan driver visible: the error says how to install the software one.
    import os
    import subprocess
    import sys

    env = dict(os.environ, VK_ICD_FILENAMES="/nonexistent.json", VK_DRIVER_FILES="/nonexistent.json")
    code = (
        "import golab\n"
        "try:\n"
        "    golab.grid(64, strategy='gpu-bitpacked')\n"
        "except RuntimeError as e:\n"
        "    print('raised:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert "raised:" in out.stdout, out.stdout + out.stderr
    assert "mesa-vulkan-drivers" in out.stdout


def test_bad_input_raises():
    with pytest.raises(ValueError, match="unknown strategy"):
        golab.grid(16, strategy="quantum")
    with pytest.raises(ValueError):
        golab.grid(16, rule="not a rule")
    g = golab.grid(8)
    with pytest.raises(IndexError):
        g[8, 0]
    with pytest.raises(ValueError):
        g.states = np.zeros((4, 4), dtype=np.uint8)

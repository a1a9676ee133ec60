"""What golab adds or must guarantee beyond lifelib's results: the GIL released while
stepping, Ctrl-C interrupting a long step with the pattern whole, errors as exceptions."""

import os
import signal
import threading
import time

import pytest

import golab


def big_soup(lt, size=384, seed=1):
    import numpy as np

    rng = np.random.default_rng(seed)
    p = lt.pattern()
    cells = np.argwhere(rng.random((size, size)) < 0.4)[:, ::-1].astype(np.int64)
    p[cells] = np.ones(len(cells), dtype=np.uint64)
    return p


def test_ctrl_c_interrupts_a_long_step_and_keeps_the_pattern():
    lt = golab.load_rules("b3s23").lifetree(memory=400)
    # A soup large enough that 2^40 generations take many seconds even on every core
    # (a 384² soup finished within the half second on an idle machine).
    p = big_soup(lt, size=1024)
    before = p.population
    rle = p.rle_string()
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        p[2**40]
    assert time.monotonic() - start < 20
    timer.join()
    assert p.population == before
    assert p.rle_string() == rle
    assert p[10].population > 0


def test_the_gil_is_released_while_stepping():
    lt = golab.load_rules("b3s23").lifetree(memory=400)
    p = big_soup(lt, size=256, seed=2)
    done = threading.Event()
    ticks = 0

    def step():
        p[4096]
        done.set()

    t = threading.Thread(target=step)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert ticks > 5


def test_lifelib_errors():
    lt = golab.load_rules("b3s23").lifetree()
    with pytest.raises(ValueError, match="not in the configured rules"):
        lt.pattern("bo$2bo$3o!", "b36s23")
    with pytest.raises(ValueError, match="period implied"):
        lt.pattern("xp3_7")
    with pytest.raises(ValueError):
        lt.pattern("3o!").transform("sideways")
    with pytest.raises(TypeError):
        lt.pattern("3o!")["no"]
    with pytest.raises(KeyError):
        lt.pattern("b2o$2o$bo!").apgcode  # grows for 1103 generations, then emits gliders


def test_other_rules_in_one_session():
    sess = golab.load_rules("b3s23", "b36s23")
    assert sess.rules == ["b3s23", "b36s23"]
    lt = sess.lifetree()
    with pytest.raises(TypeError):
        lt.pattern("3o!")
    blinker = lt.pattern("3o!", "b36s23")
    assert blinker.getrule() == "b36s23"
    assert blinker.oscar(verbose=False) == {"period": 2, "displacement": (0, 0)}

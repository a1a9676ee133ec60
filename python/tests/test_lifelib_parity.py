"""golab's lifelib API against python-lifelib 2.5.6 on the same inputs: real patterns
(assets/patterns), apgsearch soups and random RLE; populations, boxes, cells, apgcodes,
oscar, RLE text, boolean operations, transformations, matching, components, hashsoup."""

import random

import numpy as np
import pytest

from conftest import life_patterns

PATTERNS = life_patterns()
NAMES = [name for name, _ in PATTERNS]
TEXT = dict(PATTERNS)
# Guns and puffers: lifelib names guns through a B3/S23-only heuristic golab lacks.
GROWING = {"gosper-glider-gun", "simkin-glider-gun", "switch-engine", "5x5-infinite-growth"}


def random_rle(rng, width=12, height=12, density=0.4):
    rows = []
    for _ in range(height):
        rows.append("".join("o" if rng.random() < density else "b" for _ in range(width)))
    return "$".join(rows) + "!"


def same(a, b):
    """Both patterns hold the same cells, in the same order lifelib lists them."""
    np.testing.assert_array_equal(a.coords(), b.coords())


def test_pattern_names():
    assert len(PATTERNS) >= 20, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_populations_boxes_and_cells(name, golab_lt, lifelib_lt):
    g, l = golab_lt.pattern(TEXT[name]), lifelib_lt.pattern(TEXT[name])
    for n in [0, 1, 2, 30, 100, 1000]:
        gn, ln = g[n], l[n]
        assert gn.population == ln.population, (name, n)
        assert gn.getrect() == ln.getrect(), (name, n)
        assert gn.bounding_box == ln.bounding_box
        same(gn, ln)
    assert g[2**20].population == l[2**20].population
    assert g[2**20].getrect() == l[2**20].getrect()


@pytest.mark.parametrize("name", NAMES)
def test_rle_strings_and_round_trips(name, golab_lt, lifelib_lt):
    g, l = golab_lt.pattern(TEXT[name]), lifelib_lt.pattern(TEXT[name])
    for n in [0, 7, 200]:
        assert g[n].rle_string() == l[n].rle_string(), (name, n)
        back = golab_lt.pattern(g[n].rle_string())
        # RLE starts at the box's corner.
        assert back == g[n].shift(-g[n].getrect()[0], -g[n].getrect()[1]) if g[n] else True


@pytest.mark.parametrize("name", [n for n in NAMES if n not in GROWING])
def test_oscar_and_apgcodes(name, golab_lt, lifelib_lt):
    g, l = golab_lt.pattern(TEXT[name]), lifelib_lt.pattern(TEXT[name])
    expected = l.oscar(verbose=False, return_apgcode=True)
    assert g.oscar(verbose=False, return_apgcode=True) == expected, name
    assert g.oscar(verbose=False) == l.oscar(verbose=False)
    if "period" in l.oscar(eventual_oscillator=False, verbose=False):
        assert g.apgcode == l.apgcode
        assert g.period == l.period
        assert g.displacement == l.displacement


def test_apgcodes_of_objects(golab_lt, lifelib_lt):
    for code in ["xs4_33", "xs6_696", "xs7_2596", "xp2_7", "xp3_co9nas0san9oczgoldlo0oldlogz1047210127401",
                 "xq4_153", "xq4_6frc", "xq4_27dee6", "xp15_4r4z4r4", "xs5_253", "xs8_6996",
                 "xs6_356", "xp2_7e", "xp2_318c"]:
        g, l = golab_lt.pattern(code), lifelib_lt.pattern(code)
        same(g, l)
        assert g.apgcode == l.apgcode == code


def test_random_soups(golab_lt, lifelib_lt):
    rng = random.Random(51)
    for _ in range(12):
        rle = random_rle(rng)
        g, l = golab_lt.pattern(rle), lifelib_lt.pattern(rle)
        for n in [0, 1, 50, 500, 3000]:
            assert g[n].population == l[n].population
            same(g[n], l[n])
        settled_g, settled_l = g[3000], l[3000]
        assert settled_g.rle_string() == settled_l.rle_string()
        gcs, lcs = settled_g.components(), settled_l.components()
        assert len(gcs) == len(lcs)
        for a, b in zip(gcs, lcs):
            same(a, b)
        assert [c.apgcode for c in gcs if c.population < 40] == [c.apgcode for c in lcs if c.population < 40]
        assert settled_g.oscar(verbose=False) == settled_l.oscar(verbose=False)


@pytest.mark.parametrize("symmetry", ["C1", "D8_1", "C2_1", "C4_4", "D2_+1", "D4_x1", "8x32"])
def test_hashsoup_cells(symmetry, golab_lt, lifelib_lt):
    for seed in ["k_abc", "k_golab51", "n_1234567"]:
        g = golab_lt.hashsoup("b3s23", symmetry, seed)
        l = lifelib_lt.hashsoup("b3s23", symmetry, seed)
        same(g, l)
        assert g[1000].population == l[1000].population


def test_boolean_operations(golab_lt, lifelib_lt):
    rng = random.Random(7)
    for _ in range(5):
        a_rle, b_rle = random_rle(rng), random_rle(rng)
        ga, gb = golab_lt.pattern(a_rle), golab_lt.pattern(b_rle)(3, -2)
        la, lb = lifelib_lt.pattern(a_rle), lifelib_lt.pattern(b_rle)(3, -2)
        for op in [lambda x, y: x & y, lambda x, y: x | y, lambda x, y: x ^ y,
                   lambda x, y: x - y, lambda x, y: x + y]:
            same(op(ga, gb), op(la, lb))
        assert (ga == gb) == (la == lb)
        assert ((ga & gb) <= ga) and ((la & lb) <= la)
        assert ga == golab_lt.pattern(a_rle)
        x, y = golab_lt.pattern(a_rle), lifelib_lt.pattern(a_rle)
        x -= gb
        y -= lb
        same(x, y)


def test_transforms_and_shifts(golab_lt, lifelib_lt):
    text = TEXT["r-pentomino"] if "r-pentomino" in TEXT else "b2o$2o$bo!"
    g, l = golab_lt.pattern(text)(5, -3), lifelib_lt.pattern(text)(5, -3)
    for t in ["flip", "rot180", "identity", "transpose", "flip_x", "flip_y",
              "rot90", "rot270", "swap_xy", "swap_xy_flip", "rcw", "rccw"]:
        same(g.transform(t), l.transform(t))
        same(g(t, 4, 9), l(t, 4, 9))
    same(g.shift(3, 1, 5), l.shift(3, 1, 5))
    same(g.centre(), l.centre())
    with pytest.raises(ValueError):
        g.transform("sideways")


def test_cells_get_and_set(golab_lt, lifelib_lt):
    g, l = golab_lt.pattern("bo$2bo$3o!"), lifelib_lt.pattern("bo$2bo$3o!")
    for x in range(-1, 4):
        for y in range(-1, 4):
            assert g[x, y] == l[x, y]
    g[10, 10] = 1
    l[10, 10] = 1
    g[1, 0] = 0
    l[1, 0] = 0
    same(g, l)
    same(g[0:2, 0:3], l[0:2, 0:3])
    coords = np.array([[0, 2], [1, 2], [5, 5]], dtype=np.int64)
    np.testing.assert_array_equal(g[coords], l[coords])
    assert g.firstcell == l.firstcell


def test_match_and_components(golab_lt, lifelib_lt):
    text = "2o$2o5$5b2o$5b2o5$10bo$10bo$10bo!"
    g, l = golab_lt.pattern(text), lifelib_lt.pattern(text)
    same(g.match("2o$2o!"), l.match("2o$2o!"))
    same(g.match("o!", halo="3o$3o$3o!"), l.match("o!", halo="3o$3o$3o!"))
    same(g.match("3o!"), l.match("3o!"))
    gcs, lcs = g.components(), l.components()
    assert len(gcs) == len(lcs) == 3
    for a, b in zip(gcs, lcs):
        same(a, b)
    same(g.component_containing((10, 12)), l.component_containing((10, 12)))
    same(g.onecell(), l.onecell())


def test_negative_advance_of_a_ship(golab_lt, lifelib_lt):
    g, l = golab_lt.pattern(TEXT["glider"]), lifelib_lt.pattern(TEXT["glider"])
    same(g[-7], l[-7])
    same(g.advance(3, 2), l.advance(3, 2))


def test_files(tmp_path, golab_lt, lifelib_lt):
    g, l = golab_lt.pattern(TEXT["glider"])[5], lifelib_lt.pattern(TEXT["glider"])[5]
    g.write_rle(str(tmp_path / "g.rle"), comments=["a glider"])
    l.write_rle(str(tmp_path / "l.rle"), comments=["a glider"])
    assert (tmp_path / "g.rle").read_text() == (tmp_path / "l.rle").read_text()
    # Macrocell keeps the position; RLE starts at the bounding box's corner.
    at_corner = l.shift(-l.getrect()[0], -l.getrect()[1])
    for name, expected in [("g.mc", l), ("g.mc.gz", l), ("g.rle.gz", at_corner), ("g.rle", at_corner)]:
        g.write_file(str(tmp_path / name))
        same(lifelib_lt.load(str(tmp_path / name)), expected)
        same(golab_lt.load(str(tmp_path / name)), expected)


def test_empty_patterns(golab_lt, lifelib_lt):
    g, l = golab_lt.pattern(), lifelib_lt.pattern()
    assert g.population == l.population == 0
    assert g.getrect() is None and l.getrect() is None
    assert g.rle_string() == l.rle_string()
    assert g.apgcode == l.apgcode == "xs0_0"
    assert not g and not l

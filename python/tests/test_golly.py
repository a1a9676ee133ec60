"""golab's headless ``golly`` module: Golly's own scripts (../shared/golly, a copy of Golly
5's Scripts folder beside the repository, used as tests only) run through
``python -m golab.script``'s runner, their results checked against python-lifelib building
the same patterns; and the cell-list functions against lifelib."""

import pathlib
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPTS = ROOT.parent / "shared" / "golly" / "Scripts" / "Python"


def run_script(tmp_path, body):
    """Run a driver script (which may run Golly's scripts) through golab.script."""
    driver = tmp_path / "driver.py"
    driver.write_text(
        "import runpy, sys\n"
        f"sys.path.insert(0, {str(SCRIPTS)!r})\n"
        "import golly as g\n" + body
    )
    out = subprocess.run(
        [sys.executable, "-m", "golab.script", str(driver)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def coords_of(flat):
    pairs = sorted(zip(flat[0::2], flat[1::2]), key=lambda c: (c[1], c[0]))
    return [list(c) for c in pairs]


def test_golly_scripts_are_there():
    assert (SCRIPTS / "bricklayer.py").is_file(), f"Golly's scripts are expected in {SCRIPTS}"


def test_bricklayer_builds_what_lifelib_builds(tmp_path, lifelib_lt):
    out = run_script(tmp_path, (
        f"runpy.run_path({str(SCRIPTS / 'bricklayer.py')!r})\n"
        "print('name', g.getname())\n"
        "print('pop', g.getpop())\n"
        "print('cells', g.getcells(g.getrect()))\n"
    ))
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert lines["name"] == "bricklayer"
    # The same construction in lifelib: glife's p(x, y, t) is lifelib's p(t, x, y).
    L = lifelib_lt
    p22_half = L.pattern("2o$bo$bobo$2b2o3bo$6bob2o$5bo4bo$6bo3bo$7b3o!")
    p22 = p22_half + p22_half("flip", 26, 9)
    gun22 = p22 + p22[1](-18, 11)
    gun154 = gun22[27] + gun22[5]("rcw", 49, 12) + gun22("flip_y", 5, 53)
    p7 = L.pattern("2b2o5b2o$2b2o5bo$7bobo$7b2o$3b2o$3bobo$4bo3$13bo$10bo2b3o3b2o$3b5o"
                   "2b3o3bo2bo$b3obob3o4b2obobo$o4bo4b4obobo2b2o$2ob2ob4o3bobob2obo$"
                   "4bobobobobo2bo2bobo$4bobobo2bo2bob3ob2o$3b2obob4o6bobo$7bo4b6o2b"
                   "o$9bo2bo2bo4b2o$8b2o!")
    pre_lom = L.pattern("2bo$2ob2o$2ob2o2$b2ob2o$b2ob2o$3bo!")
    expected = (gun154[210](-52, -38) + gun154[254]("flip_x", 52, -38) + p7(8, 23)
                + pre_lom(-3, 30))
    assert int(lines["pop"]) == expected.population
    assert coords_of(eval(lines["cells"])) == expected.coords().tolist()


def test_density_and_invert(tmp_path):
    out = run_script(tmp_path, (
        "g.new('test')\n"
        "g.putcells(g.parse('bo$2bo$3o!'), 10, 20)\n"
        f"runpy.run_path({str(SCRIPTS / 'density.py')!r})\n"
        "g.select([10, 20, 3, 3])\n"
        f"runpy.run_path({str(SCRIPTS / 'invert.py')!r})\n"
        "print('after', g.getcells([10, 20, 3, 3]))\n"
    ))
    lines = out.splitlines()
    assert lines[0] == "Density = %.6f" % (5 / 9)
    inverted = [10, 20, 12, 20, 10, 21, 11, 21]
    assert lines[1] == "after " + str(inverted)


def test_exit_ends_a_script_with_its_message(tmp_path):
    out = run_script(tmp_path, f"runpy.run_path({str(SCRIPTS / 'density.py')!r})\nprint('not reached')\n")
    assert out.strip() == "The pattern is empty."


def test_cell_lists_against_lifelib(lifelib_lt):
    import golab.golly as g

    g._reset_all()
    cells = g.parse("b2o$2o$bo!", 5, -3)
    l = lifelib_lt.pattern("b2o$2o$bo!")(5, -3)
    assert coords_of(cells) == l.coords().tolist()
    assert coords_of(g.evolve(cells, 100)) == l[100].coords().tolist()
    assert coords_of(g.transform(cells, 1, 2, 0, -1, 1, 0)) == l("rcw", 1, 2).coords().tolist()
    g.new("x")
    g.putcells(cells)
    g.run(1000)
    assert g.getgen() == "1000" and g.getpop() == str(l[1000].population)
    assert g.getrect() == l[1000].getrect()
    g.reset()
    assert g.getgen() == "0" and g.getpop() == "5"
    with pytest.raises(g.error):
        g.putcells([1, 2, 3, 4, 5])  # odd: multi-state triples plus one padding 0, not 5
    g.addlayer()
    assert g.numlayers() == 2 and g.empty()
    g.setrule("/2/3")  # Brian's Brain in the new layer: three states, triples
    assert g.numstates() == 3
    g.putcells([0, 0, 1, 1, 0, 1, 0])
    g.run(1)
    assert g.getcells(g.getrect()) == [0, -1, 1, 1, -1, 1, 0, 0, 2, 1, 0, 2, 0, 1, 1, 1, 1, 1, 0]
    g.setlayer(0)
    assert not g.empty() and g.numstates() == 2


def test_golab_script_runs_a_golly_script(tmp_path):
    # The binary's `golab script` hands the script to this interpreter's golab package.
    golab_bin = ROOT / "target" / "release" / "golab"
    assert golab_bin.is_file(), "build golab first (cargo build --release)"
    script = tmp_path / "hello.py"
    script.write_text(
        "import sys\nimport golly as g\n"
        "g.putcells(g.parse('3o!'))\n"
        "g.run(1)\n"
        "g.show('pop %s rect %s args %s' % (g.getpop(), g.getrect(), sys.argv[1:]))\n"
    )
    out = subprocess.run([str(golab_bin), "script", "--python", sys.executable, str(script), "a", "-b"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "pop 3 rect [1, -1, 1, 3] args ['a', '-b']"
    bad = subprocess.run([str(golab_bin), "script", "--python", sys.executable, str(tmp_path / "none.py")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "no such script" in bad.stderr

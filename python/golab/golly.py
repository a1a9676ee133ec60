"""Golly's ``golly`` module, headless: a first part of Golly 5's Python API over golab's
hashed universe, enough for scripts that build, edit, step and measure patterns.

Run a Golly script with ``python -m golab.script FILE.py [args]``: ``import golly`` then
finds this module, Golly's ``glife`` helpers are found beside the script as in Golly's
Scripts folder, and what ``g.show``, ``g.note``, ``g.warn`` and ``g.exit`` say is printed.

Golly's conventions are kept: cell lists are flat (``[x0, y0, x1, y1, ...]`` for two-state
rules; ``[x, y, state, ...]`` with a padding 0 when the length would be even for rules with
more states), rectangles are ``[x, y, width, height]`` (``[]`` when empty), populations and
generations are returned as strings, and errors are raised as ``golly.error`` with Golly's
messages. Viewing calls (``fit``, ``update``, ``setpos`` ...) do nothing headless, and
``visrect`` says every rectangle is visible. Layers hold one universe each.

Not yet here (docs/user-guide.md, "Python"): the clipboard, dialogs and events, options,
colours, algorithms other than HashLife, bounded grids (a rule's ``:T`` suffix), and the
window.
"""

import builtins as _builtins
import os as _os

from . import _golab
from ._golly_control import *  # noqa: F401,F403 - control, viewing, layers, messages
from ._golly_control import getrule
from ._golly_world import (  # noqa: F401 - error and Exit are part of the API
    Exit, _affine, _cells_of, _flat, _layer, _put_into, _reset_all, _set, _triples,
    error, numstates,
)


def open(filename, remember=False):
    """Open a pattern file into the current layer (its rule, generation 0)."""
    lay = _layer()
    if not _os.path.isfile(filename):
        raise error("open error: given file does not exist")
    probe = _golab.load_rules("b3s23").lifetree().load(filename)
    rule = probe.getrule()
    lay.rule = rule
    lay.tree = _golab.load_rules(rule).lifetree(memory=1000)
    lay.pattern = lay.tree.load(filename)
    lay.generation = 0
    lay.name = _os.path.basename(filename)
    lay.start = None


def save(filename, format="rle", remember=False):
    """Save the current layer's pattern (``rle`` or ``mc``)."""
    _layer().pattern.write_file(filename, file_format=format)


def load(filename):
    """A file's cells as a cell list (the current layer is untouched)."""
    if not _os.path.isfile(filename):
        raise error("load error: given file does not exist")
    return _flat(_cells_of(_golab.load_rules("b3s23").lifetree().load(filename)))


def store(cells, filename):
    """Write a cell list to an RLE file under the current rule."""
    lay = _layer()
    p = lay.tree.pattern("", lay.rule)
    _put_into(p, _triples(cells))
    p.write_file(filename)


def getdir(dirname):
    """Golly's folders: ``app``, ``data``, ``temp``, ``rules``, ``files``, ``download``."""
    import tempfile

    base = _os.path.join(_os.path.expanduser("~"), ".golab", "golly")
    if dirname == "app":
        return _os.path.dirname(_os.path.abspath(__file__)) + _os.sep
    if dirname == "temp":
        return tempfile.gettempdir() + _os.sep
    if dirname in ("data", "rules", "files", "download"):
        path = _os.path.join(base, dirname)
        _os.makedirs(path, exist_ok=True)
        return path + _os.sep
    raise error("getdir error: unknown directory name")


# --- editing ---------------------------------------------------------------------------


def new(title):
    """An empty universe in the current layer, generation 0, named ``title``."""
    lay = _layer()
    lay.pattern = lay.tree.pattern("", lay.rule)
    lay.generation = 0
    lay.selection = []
    lay.name = title
    lay.start = None


def parse(rle, x0=0, y0=0, axx=1, axy=0, ayx=0, ayy=1):
    """An RLE string (or Life 1.05 rows) as a cell list, transformed."""
    lay = _layer()
    p = lay.tree.pattern(rle, lay.rule)
    return _flat(_affine(_cells_of(p), x0, y0, axx, axy, ayx, ayy))


def transform(cells, x0, y0, axx=1, axy=0, ayx=0, ayy=1):
    """A cell list moved by ``(x0, y0)`` after the matrix ``[[axx, axy], [ayx, ayy]]``."""
    return _flat(_affine(_triples(cells), x0, y0, axx, axy, ayx, ayy))


def join(cells1, cells2):
    """The two cell lists joined (one list of both lists' cells, as Golly joins them)."""
    return _flat(_triples(cells1) + _triples(cells2))


def evolve(cells, numgens):
    """A cell list ``numgens`` generations later under the current rule."""
    if numgens < 0:
        raise error("evolve error: number of generations is negative")
    lay = _layer()
    p = lay.tree.pattern("", lay.rule)
    _put_into(p, _triples(cells))
    return _flat(_cells_of(p[numgens]))


def putcells(cells, x0=0, y0=0, axx=1, axy=0, ayx=0, ayy=1, mode="or"):
    """Paste a cell list into the current layer (modes ``or``, ``copy``, ``xor``, ``and``,
    ``not``, as Golly)."""
    placed = _affine(_triples(cells), x0, y0, axx, axy, ayx, ayy)
    lay = _layer()
    if mode == "or":
        _set([c for c in placed if c[2] != 0])
    elif mode == "copy":
        _set(placed)
    elif mode == "xor":
        current = lay.pattern
        _set([(x, y, 0 if current[x, y] else max(s, 1)) for x, y, s in placed if s])
    elif mode == "and":
        current = lay.pattern
        _set([(x, y, 0) for x, y, s in placed if current[x, y] and not s])
    elif mode == "not":
        _set([(x, y, 0) for x, y, s in placed if s])
    else:
        raise error("putcells error: unknown mode")


def getcells(rect):
    """The cells inside ``rect`` as a cell list, row by row (``[]`` for ``[]``)."""
    if len(rect) == 0:
        return []
    if len(rect) != 4 or rect[2] <= 0 or rect[3] <= 0:
        raise error("getcells error: arg must be [] or [x,y,wd,ht]")
    x, y, w, h = rect
    return _flat(_cells_of(_layer().pattern[x : x + w, y : y + h]))


def hash(rect):
    """A hash of the cells in ``rect``, the same wherever the rectangle lies."""
    cells = _triples(getcells(rect)) if rect else []
    x, y = (rect[0], rect[1]) if rect else (0, 0)
    return _builtins.hash(tuple((cx - x, cy - y, s) for cx, cy, s in cells)) & 0x7FFFFFFF


def select(rect):
    """Select ``rect`` (``[]`` removes the selection)."""
    if len(rect) not in (0, 4) or (rect and (rect[2] <= 0 or rect[3] <= 0)):
        raise error("select error: arg must be [] or [x,y,wd,ht]")
    _layer().selection = list(rect)


def getselrect():
    """The selection, or ``[]``."""
    return list(_layer().selection)


def getrect():
    """The pattern's bounding box, or ``[]`` when empty."""
    r = _layer().pattern.getrect()
    return [] if r is None else list(r)


def clear(where):
    """Clear inside (0) or outside (1) the selection."""
    sel = _layer().selection
    if not sel:
        raise error("clear error: no selection")
    x, y, w, h = sel
    lay = _layer()
    inside_cells = lay.pattern[x : x + w, y : y + h]
    lay.pattern = (lay.pattern - inside_cells) if where == 0 else inside_cells


def setcell(x, y, state):
    """Set one cell."""
    if state < 0 or state >= numstates():
        raise error("setcell error: state value is out of range")
    _set([(x, y, state)])


def getcell(x, y):
    """One cell's state."""
    return int(_layer().pattern[x, y])


def randfill(percentage):
    """Fill the selection at random, ``percentage`` % of its cells alive."""
    import random

    sel = _layer().selection
    if not sel:
        raise error("randfill error: no selection")
    if not 1 <= percentage <= 100:
        raise error("randfill error: percentage must be from 1 to 100")
    x, y, w, h = sel
    clear(0)
    _set([(cx, cy, 1) for cy in range(y, y + h) for cx in range(x, x + w)
          if random.randrange(100) < percentage])


# --- control ---------------------------------------------------------------------------

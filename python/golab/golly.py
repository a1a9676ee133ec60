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

import builtins
import os as _os
import sys

from . import _golab


class error(Exception):
    """Golly's script error (``golly.error``)."""


class Exit(SystemExit):
    """Raised by ``exit(message)`` to end a script; the runner prints the message."""

    def __init__(self, message=""):
        super().__init__(0)
        self.message = message


_MAX_LAYERS = 10


class _Layer:
    """One layer: a universe (a lifetree pattern), its name, selection and step."""

    def __init__(self, name, rule):
        self.name = name
        self.rule = rule
        self.tree = _golab.load_rules(rule).lifetree(memory=1000)
        self.pattern = self.tree.pattern("", rule)
        self.generation = 0
        self.selection = []
        self.base = 2
        self.exponent = 0
        self.start = None


_layers = [_Layer("untitled", "B3/S23")]
_current = 0
_said = []


def _layer():
    return _layers[_current]


def _name(rule):
    """A rule's lifelib-style name, as golab parses it."""
    return _golab.load_rules(rule).rules[0]


def numstates():
    """Number of cell states of the current rule (2 for two-state rules)."""
    return _golab.rule_states(getrule())


def _multi():
    return numstates() > 2


def _flat(cells):
    """Cells ``[(x, y, state)]`` as Golly's flat list for the current rule."""
    out = []
    if _multi():
        for x, y, s in cells:
            out += [x, y, s]
        if len(out) % 2 == 0 and out:
            out.append(0)
    else:
        for x, y, s in cells:
            out += [x, y]
    return out


def _triples(cells):
    """Golly's flat list as ``[(x, y, state)]``; refuses a malformed list as Golly does.
    (glife's ``pattern`` is a list whose indexing steps it: read it by iteration.)"""
    cells = list(cells)
    n = len(cells)
    if n % 2 == 1 and n > 1:
        if (n - 1) % 3 != 0:
            raise error("putcells error: list has invalid length")
        return [(cells[i], cells[i + 1], cells[i + 2]) for i in range(0, n - 1, 3)]
    if n % 2 == 1:
        raise error("putcells error: list has invalid length")
    return [(cells[i], cells[i + 1], 1) for i in range(0, n, 2)]


def _cells_of(pattern):
    """``[(x, y, state)]`` of a pattern, row by row."""
    coords = pattern.coords()
    if len(coords) == 0:
        return []
    states = pattern[coords]
    return [(int(x), int(y), int(s)) for (x, y), s in zip(coords, states)]


def _set(cells):
    """Set cells ``[(x, y, state)]`` in the current layer."""
    import numpy as np

    if not cells:
        return
    at = np.array([(x, y) for x, y, _ in cells], dtype=np.int64)
    states = np.array([s for _, _, s in cells], dtype=np.uint64)
    _layer().pattern[at] = states


def _affine(cells, x0, y0, axx, axy, ayx, ayy):
    return [(x0 + axx * x + axy * y, y0 + ayx * x + ayy * y, s) for x, y, s in cells]


# --- filing ----------------------------------------------------------------------------


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


def _put_into(pattern, cells):
    import numpy as np

    if cells:
        at = np.array([(x, y) for x, y, _ in cells], dtype=np.int64)
        pattern[at] = np.array([s for _, _, s in cells], dtype=np.uint64)


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
    return builtins.hash(tuple((cx - x, cy - y, s) for cx, cy, s in cells)) & 0x7FFFFFFF


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


def _advance(n):
    lay = _layer()
    if lay.start is None:
        lay.start = (lay.pattern, lay.generation)
    lay.pattern = lay.pattern[n]
    lay.generation += n


def run(numgens):
    """Step ``numgens`` generations."""
    if numgens < 0:
        raise error("run error: number of generations is negative")
    if numgens:
        _advance(numgens)


def step():
    """Step by the current step (``base`` ^ ``exponent`` generations)."""
    lay = _layer()
    _advance(lay.base ** max(lay.exponent, 0))


def setstep(exp):
    """Set the step exponent."""
    _layer().exponent = exp


def getstep():
    """The step exponent."""
    return _layer().exponent


def setbase(base):
    """Set the step base (2 to 10 000)."""
    if not 2 <= base <= 10000:
        raise error("setbase error: base must be from 2 to 10000")
    _layer().base = base


def getbase():
    """The step base."""
    return _layer().base


def reset():
    """Back to the starting pattern and generation."""
    lay = _layer()
    if lay.start is not None:
        lay.pattern, lay.generation = lay.start
        lay.start = None


def setgen(gen):
    """Set the generation count (a string; ``+n`` and ``-n`` are relative)."""
    lay = _layer()
    text = str(gen).replace(",", "")
    value = int(text)
    lay.generation = lay.generation + value if text[:1] in "+-" else value


def getgen(sepchar="\0"):
    """The generation count as a string (with ``sepchar`` between thousands)."""
    return _grouped(_layer().generation, sepchar)


def getpop(sepchar="\0"):
    """The population as a string."""
    return _grouped(_layer().pattern.population, sepchar)


def _grouped(n, sep):
    text = str(n)
    if sep == "\0" or not sep:
        return text
    return "{:,}".format(n).replace(",", sep)


def empty():
    """Whether the universe is empty."""
    return not _layer().pattern


def setrule(rule):
    """Change the rule, keeping the cells."""
    lay = _layer()
    name = _name(rule)
    cells = _cells_of(lay.pattern)
    lay.rule = name
    lay.tree = _golab.load_rules(name).lifetree(memory=1000)
    lay.pattern = lay.tree.pattern("", name)
    _set(cells)


def getrule():
    """The rule (lifelib's name, which Golly's setrule accepts)."""
    return _layer().pattern.getrule()


def getalgo(index=None):
    """The algorithm: golab's hashed universe is HashLife."""
    return "HashLife"


def setalgo(algo):
    """Golly's algorithms run on golab's engines; the name is accepted."""


def numalgos():
    """Algorithms offered."""
    return 1


# --- viewing (headless: nothing to draw) -----------------------------------------------


def fit():
    """Nothing to fit headless."""


def fitsel():
    """Nothing to fit headless."""


def update():
    """Nothing to draw headless."""


def autoupdate(flag):
    """Nothing to draw headless."""


def setpos(x, y):
    """Nothing to move headless."""


def getpos(sepchar="\0"):
    """The view's centre: the origin headless."""
    return ["0", "0"]


def setmag(mag):
    """Nothing to zoom headless."""


def getmag():
    """The scale: 1:1 headless."""
    return 0


def visrect(rect):
    """Every rectangle counts as visible headless."""
    return True


def setcursor(name):
    """The cursor mode is remembered and returned, as Golly returns the old one."""
    global _cursor
    old, _cursor = _cursor, name
    return old


def getcursor():
    """The cursor mode."""
    return _cursor


_cursor = "Draw"


# --- layers ----------------------------------------------------------------------------


def addlayer():
    """A new empty layer after the others, made current; its index."""
    global _current
    if len(_layers) >= _MAX_LAYERS:
        raise error("addlayer error: no more layers can be added")
    _layers.append(_Layer("untitled", _layer().rule))
    _current = len(_layers) - 1
    return _current


def duplicate():
    """A copy of the current layer, made current."""
    global _current
    if len(_layers) >= _MAX_LAYERS:
        raise error("duplicate error: no more layers can be added")
    src = _layer()
    copy = _Layer(src.name, src.rule)
    copy.tree, copy.pattern, copy.generation = src.tree, src.pattern, src.generation
    _layers.insert(_current + 1, copy)
    _current += 1
    return _current


def dellayer():
    """Delete the current layer."""
    global _current
    if len(_layers) == 1:
        raise error("dellayer error: there is only one layer")
    del _layers[_current]
    _current = min(_current, len(_layers) - 1)


def setlayer(index):
    """Make layer ``index`` current."""
    global _current
    if not 0 <= index < len(_layers):
        raise error("setlayer error: bad index")
    _current = index


def getlayer():
    """The current layer's index."""
    return _current


def numlayers():
    """How many layers exist."""
    return len(_layers)


def maxlayers():
    """The most layers there can be."""
    return _MAX_LAYERS


def movelayer(from_index, to_index):
    """Move a layer to another position."""
    global _current
    n = len(_layers)
    if not (0 <= from_index < n and 0 <= to_index < n):
        raise error("movelayer error: bad index")
    lay = _layers.pop(from_index)
    _layers.insert(to_index, lay)
    _current = to_index


def setname(name, index=None):
    """Name the current layer (or layer ``index``)."""
    _layers[_current if index is None else index].name = name


def getname(index=None):
    """The current layer's name (or layer ``index``'s)."""
    return _layers[_current if index is None else index].name


# --- miscellaneous ---------------------------------------------------------------------


def show(message):
    """The status line: printed headless."""
    _said.append(("show", message))
    print(message)


def note(message, cancel=False):
    """A message box: printed headless."""
    _said.append(("note", message))
    print(message)


def warn(message, cancel=False):
    """A warning box: printed headless."""
    _said.append(("warn", message))
    print(message, file=sys.stderr)


def exit(message=""):
    """End the script, showing ``message``."""
    raise Exit(message)


def getstring(prompt, initial="", title=""):
    """Headless there is nobody to ask: the answer is ``GOLAB_ANSWERS``' next line, else
    ``initial``."""
    answers = _os.environ.get("GOLAB_ANSWERS")
    if answers:
        lines = answers.split("\n")
        _os.environ["GOLAB_ANSWERS"] = "\n".join(lines[1:])
        return lines[0]
    return initial


def os():
    """The operating system: ``Linux``, ``Mac`` or ``Windows`` (Golly's ``g.os()``)."""
    import platform

    return {"Darwin": "Mac", "Windows": "Windows"}.get(platform.system(), "Linux")


def _reset_all():
    """A fresh module state (each script run starts with one untitled layer)."""
    global _layers, _current
    _layers = [_Layer("untitled", "B3/S23")]
    _current = 0
    del _said[:]

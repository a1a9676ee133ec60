"""Golly's control, viewing, layer and message functions for golab's headless ``golly``
module (golly.py re-exports them)."""

import os as _os
import sys as _sys

from . import _golab
from ._golly_world import (  # noqa: F401 - W is the state, not part of the API
    _MAX_LAYERS, W, Exit, _cells_of, _Layer, _layer, _name, _set, error,
)


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
    old, W.cursor = W.cursor, name
    return old


def getcursor():
    """The cursor mode."""
    return W.cursor


# --- layers ----------------------------------------------------------------------------


def addlayer():
    """A new empty layer after the others, made current; its index."""
    if len(W.layers) >= _MAX_LAYERS:
        raise error("addlayer error: no more layers can be added")
    W.layers.append(_Layer("untitled", _layer().rule))
    W.current = len(W.layers) - 1
    return W.current


def duplicate():
    """A copy of the current layer, made current."""
    if len(W.layers) >= _MAX_LAYERS:
        raise error("duplicate error: no more layers can be added")
    src = _layer()
    copy = _Layer(src.name, src.rule)
    copy.tree, copy.pattern, copy.generation = src.tree, src.pattern, src.generation
    W.layers.insert(W.current + 1, copy)
    W.current += 1
    return W.current


def dellayer():
    """Delete the current layer."""
    if len(W.layers) == 1:
        raise error("dellayer error: there is only one layer")
    del W.layers[W.current]
    W.current = min(W.current, len(W.layers) - 1)


def setlayer(index):
    """Make layer ``index`` current."""
    if not 0 <= index < len(W.layers):
        raise error("setlayer error: bad index")
    W.current = index


def getlayer():
    """The current layer's index."""
    return W.current


def numlayers():
    """How many layers exist."""
    return len(W.layers)


def maxlayers():
    """The most layers there can be."""
    return _MAX_LAYERS


def movelayer(from_index, to_index):
    """Move a layer to another position."""
    n = len(W.layers)
    if not (0 <= from_index < n and 0 <= to_index < n):
        raise error("movelayer error: bad index")
    lay = W.layers.pop(from_index)
    W.layers.insert(to_index, lay)
    W.current = to_index


def setname(name, index=None):
    """Name the current layer (or layer ``index``)."""
    W.layers[W.current if index is None else index].name = name


def getname(index=None):
    """The current layer's name (or layer ``index``'s)."""
    return W.layers[W.current if index is None else index].name


# --- miscellaneous ---------------------------------------------------------------------


def show(message):
    """The status line: printed headless."""
    W.said.append(("show", message))
    print(message)


def note(message, cancel=False):
    """A message box: printed headless."""
    W.said.append(("note", message))
    print(message)


def warn(message, cancel=False):
    """A warning box: printed headless."""
    W.said.append(("warn", message))
    print(message, file=_sys.stderr)


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


# What golly.py re-exports: every public function defined here.
__all__ = [n for n, v in list(globals().items()) if callable(v) and not n.startswith("_")
           and getattr(v, "__module__", None) == __name__]

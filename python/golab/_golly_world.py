"""The state behind golab's headless ``golly`` module: its layers (a lifetree pattern
each, with name, rule, generation, selection and step), and Golly's flat cell lists read and
written (golly.py has the API; _golly_control.py its control, viewing, layer and message
functions)."""

import os as _os

import numpy as _np

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


class _World:
    """The layers and which is current, the cursor mode, and what was said."""

    def __init__(self):
        self.layers = [_Layer("untitled", "B3/S23")]
        self.current = 0
        self.cursor = "Draw"
        self.said = []


W = _World()


def _layer():
    return W.layers[W.current]


def _name(rule):
    """A rule's lifelib-style name, as golab parses it."""
    return _golab.load_rules(rule).rules[0]


def numstates():
    """Number of cell states of the current rule (2 for two-state rules)."""
    return _golab.rule_states(_layer().pattern.getrule())


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
    if not cells:
        return
    at = _np.array([(x, y) for x, y, _ in cells], dtype=_np.int64)
    states = _np.array([s for _, _, s in cells], dtype=_np.uint64)
    _layer().pattern[at] = states


def _affine(cells, x0, y0, axx, axy, ayx, ayy):
    return [(x0 + axx * x + axy * y, y0 + ayx * x + ayy * y, s) for x, y, s in cells]


# --- filing ----------------------------------------------------------------------------



def _put_into(pattern, cells):
    if cells:
        at = _np.array([(x, y) for x, y, _ in cells], dtype=_np.int64)
        pattern[at] = _np.array([s for _, _, s in cells], dtype=_np.uint64)



def _reset_all():
    """A fresh state (each script run starts with one untitled layer)."""
    W.__init__()

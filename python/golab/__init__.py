"""golab in Python.

lifelib's pattern API over golab's hashed universe::

    import golab
    sess = golab.load_rules("b3s23")
    lt = sess.lifetree(memory=1000)
    p = lt.pattern("bo$2bo$3o!")
    p[2**20].population, p.apgcode, p.oscar()

and dense worlds on every strategy (``golab.grid(512, strategy="rayon")``) with their
states and ages as numpy arrays. See docs/user-guide.md, "Python".
"""

from ._golab import Grid, Lifetree, Pattern, Session, __version__, grid, load_rules

__all__ = ["Grid", "Lifetree", "Pattern", "Session", "__version__", "grid", "load_rules"]

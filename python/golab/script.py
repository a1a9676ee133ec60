"""Run a Golly script headless: ``python -m golab.script FILE.py [args]``.

``import golly`` in the script gets golab's headless module (golab/golly.py); the script's
folder is first on ``sys.path`` (so Golly's ``glife`` beside it is found, as in Golly's
Scripts folder); ``g.show``, ``g.note`` and ``g.warn`` print, and ``g.exit(message)`` ends the
script printing its message. The exit status is 0, or 1 with the traceback on an error.
"""

import os
import runpy
import sys
import traceback

from . import golly


def main(argv=None):
    """Run the script named by ``argv[0]`` with the rest as its ``sys.argv[1:]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print("usage: python -m golab.script FILE.py [args]", file=sys.stderr)
        return 2
    path = os.path.abspath(argv[0])
    sys.modules["golly"] = golly
    golly._reset_all()
    sys.argv = [path] + argv[1:]
    sys.path.insert(0, os.path.dirname(path))
    try:
        runpy.run_path(path, run_name="__main__")
    except golly.Exit as done:
        if done.message:
            print(done.message)
    except Exception:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

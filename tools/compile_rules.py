"""Compile the rules engine with mypyc, in place, inside the package (``make`` runs this).

``mypyc FILE...`` puts the code of every module it compiles into one shared library named
after a hash, at the top of the folder it runs in: Python then found the engine only when
started from the checkout's root. Compiled separately, each module's code sits beside it
(``companion/rules/state__mypyc.*.so`` next to the ``state.*.so`` Python imports), so the
compiled engine loads whatever folder Python starts in. mypyc derives each module's
``__file__`` and a package's ``__path__`` from where its library lies, which is right only for
a library above the whole tree or beside its module; one library inside ``companion/`` would
give ``companion.rules`` a wrong ``__path__``. Measured with ``benchmarks/bench_rules.py``,
separate libraries judge as fast as one (calls between modules stay native).

Usage: ``python tools/compile_rules.py companion/rules/x.py ...``
"""

from __future__ import annotations

import sys

from mypyc.build import mypycify
from setuptools import setup


def main(paths: list[str]) -> None:
    if not paths:
        raise SystemExit("usage: python tools/compile_rules.py SOURCE.py ...")
    setup(
        name="rules-compiled",
        ext_modules=mypycify(paths, opt_level="3", separate=True),
        script_args=["build_ext", "--inplace"],
    )


if __name__ == "__main__":
    main(sys.argv[1:])

"""simkit: Monte Carlo simulation and balance analysis for four vehicle-combat board games.

Starfire (1979), Dark Future (1988), Demon's Run (1981) and Demo Derby (1982).
See README.md for the command line and ``simkit.analysis`` for the library calls.
"""

__version__ = "0.1.0"

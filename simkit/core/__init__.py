"""Game-agnostic machinery: random streams and dice, exact dice distributions, rules data,
statistics and the trial runner. Nothing in ``simkit.core`` imports a game package."""

"""Starfire's physical components as data: the hex map (``hexmap``: coordinates, facings,
arcs, lines of fire) and the ship control sheets (``sheet``: systems in damage order, Hold
runs)."""

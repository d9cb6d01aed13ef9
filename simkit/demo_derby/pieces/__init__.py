"""Demo Derby's physical components as data: the arena (``arena``: terrain, start spots, poles,
hex geometry), the record sheet (``sheet``: boxes per part, the damage flow), and the car state
layout the compiled derby and the drivers share (``layout``: state columns, limits, events)."""

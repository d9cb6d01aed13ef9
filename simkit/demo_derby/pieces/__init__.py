"""Demo Derby's physical components as data: the arena (``arena``: terrain, start spots, poles,
hex geometry) and the record sheet (``sheet``: boxes per part, the damage flow)."""

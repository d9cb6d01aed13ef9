"""Deadlock diagnostics over a Dark Future game's event log (issue 15: drivers 'never deadlock').

A competent driver moves off, slows or holds steady; it does not back off a space and come on
onto it again, turn after turn, until the turn limit draws the game (a 'shuttling draw'), nor
sit stopped with a move open to it. These counters read a game's log (``scenario.play_one``'s
events: turn, phase, vehicle, code, then the code's fields) and its final vehicle table; they
judge nothing about the rules, only how the drivers spent the game. Used by the property test
(``tests/test_dark_future_properties.py``) and by ``benchmarks/dark_future_deadlocks.py``,
which plays every seeded game of every shipped Game through them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import engine as EG
from .pieces import vehicle as VH

# A judgement, checked on the seeded games (docs/rules/dark-future.md, issue 15): lining up on
# a stranded enemy or backing off a block brings a car forward once or twice onto a space it
# had reversed onto; the shuttling draws of seed 2026 ran to three to ten.
SHUTTLE_DRAW = 2
# The most times any vehicle of any game (drawn or not) may come forward onto a space it had
# reversed onto: lining up or backing off a block takes one or two; the shuttling draws of seed
# 2026 (a car backing off a bend and coming on in the same lanes, to the turn limit) ran to four
# to ten. A judgement, held by the property test and reported by the deadlock survey.
SHUTTLES = 3
# Turns without a move, stopped and able to move, for a vehicle to count as waiting at the end
# of a drawn game (a turn-limit draw of 40 turns; a car lining up waits a turn or two).
WAIT_TURNS = 10

# the kinds of drawn game, most telling first (draw_kind)
KIND_SHUTTLE = "backing and filling"
KIND_WAITING = "stopped with a move available"
KIND_SHUT = "shut in, every move a collision"
KIND_FROZEN = "repeated position"
KIND_STALEMATE = "nothing could move or shoot"
KIND_RUNNING = "still fighting at the turn limit"
KIND_OTHER = "drawn by the verdict"


def _moves_and_reverses(events):
    """The moves, reverses and riders' turn-rounds (EV_ACTION ``turn round``), each move's
    section in the numbering of the game's start: when the engine renumbers the sections to lay
    track before section 0 (``engine._renumber``, logged as EV_TRACK with section
    ``EV_TRACK_RENUMBER``), the shift is taken off again, so a place backed off from before it
    is the same place after it."""
    ev = np.asarray(events)
    if ev.shape[0] == 0:
        return []
    ren = (ev[:, 3] == EG.EV_TRACK) & (ev[:, 4] == EG.EV_TRACK_RENUMBER)
    shift = np.cumsum(np.where(ren, ev[:, 5], 0))
    turn = (ev[:, 3] == EG.EV_ACTION) & (ev[:, 4] == EG.A_TURN_ROUND)
    keep = (ev[:, 3] == EG.EV_MOVE) | (ev[:, 3] == EG.EV_REVERSE) | turn
    out = ev[keep][:, :7].copy()
    out[:, 4] -= np.where(turn[keep], 0, shift[keep])
    return out.tolist()


REVERSED, TURNED = 1, 2   # how a move left the vehicle: reversed onto, or turned round in


def _shuttle_table(events) -> dict[int, tuple[int, int]]:
    """Per vehicle, (the most times it moved forward onto one space it had earlier reversed
    onto, or a rider had turned round in, the turn of its last such move; 0 if none). A rider
    may not reverse (p64): its turn-round in its own square (p64 'Moving Off') is its backing
    off, and coming back onto that space round after round its backing and filling (seeded
    gang pursues 4445 before session 32: a rider turned round and moved a space, back and
    forth over a level crossing, until a train hit it; 691: round a loop of five sections)."""
    moves: dict[int, list] = {}
    for e in _moves_and_reverses(events):
        v, code = int(e[2]), int(e[3])
        if code == EG.EV_MOVE:
            moves.setdefault(v, []).append([(int(e[4]), int(e[5]), int(e[6])), 0,
                                            int(e[0])])
        elif code == EG.EV_REVERSE and moves.get(v):
            moves[v][-1][1] = REVERSED      # the move was the reverse onto that space
        elif code == EG.EV_ACTION and moves.get(v):
            moves[v][-1][1] = TURNED        # the move came forward onto the space turned in
    out = {}
    for v, ms in moves.items():
        backed = set()
        again: dict[tuple, int] = {}
        last = 0
        for p, how, turn in ms:
            if how != REVERSED and p in backed:
                again[p] = again.get(p, 0) + 1
                last = turn
            if how:
                backed.add(p)
        out[v] = (max(again.values(), default=0), last)
    return out


def shuttle_counts(events) -> dict[int, int]:
    """Per vehicle, the most times it moved forward onto one space (section, lane, space) it
    had earlier reversed onto or turned round in (a rider). A reverse is logged (EV_REVERSE)
    after the move it made; a turn-round (EV_ACTION) where the rider stands, after its last
    move."""
    return {v: n for v, (n, _) in _shuttle_table(events).items()}


def shuttling_at_end(events, final_turn, turns=WAIT_TURNS) -> int:
    """The most shuttles of any vehicle still shuttling in the last ``turns`` turns of the
    game. A game drawn at the turn limit in a chase, by a car that backed and filled earlier
    and then got going, is no shuttling draw (seeded gang pursues 3362, issue 15 session 26:
    the whole game's count named it one)."""
    return _late(_shuttle_table(events), final_turn, turns)


def _late(table, final_turn, turns):
    """:func:`shuttling_at_end` on a table already made (:func:`_shuttle_table`)."""
    return max((n for n, last in table.values() if last and final_turn - last < turns),
               default=0)


def shuttles(events) -> int:
    """The most times one vehicle moved forward onto a space it had earlier reversed onto."""
    return max(shuttle_counts(events).values(), default=0)


def shut_in(board, V, v) -> bool:
    """Is car ``v`` stopped where every move it could make (moving off straight, drifting or
    with a U-turn, reversing, p13-p17) runs it into a vehicle, a wreck or an obstacle before it
    can stop again, so that it cannot move without ramming (p52, p57, p77)? The stand-off
    planner's search (``policies._plan_search``: the slowest moves, every other vehicle where
    it stands) then reaches no place stopped but its own. ``board`` is the final (T, TM, M,
    NM). Such a car that waits has nothing to wait instead of but a ram (seeded intercept 2295,
    issue 15 session 30: the last target boxed in by the attacker, a wreck and debris, the
    ram of the attacker a race it loses), so it is not counted as waiting. Bikes: not judged
    (False)."""
    from . import policies as PO

    if V[v, VH.V_BIKE]:
        return False
    T, TM, M, NM = board
    # (obst: a rider's dodge past an obstacle, which a car's search never asks)
    dist, first, q, qs, tail = PO._plan_search(T, TM, M, NM, V, V.shape[0], v, -1, False, 0)
    return not any(qs[k, 4] == 0 for k in range(1, tail))


def places_to_go(board, V, WS, hp, POL) -> list[tuple[int, str, int]]:
    """The vehicles in play, stopped, in control and able to drive, for which the stand-off
    planner's own search (``policies._plan_search``: the slowest moves, every other vehicle
    where it stands, two sections either side, ``PLAN_MOVES`` moves) from this position reaches
    a place a driver would go to: one with a shot where it wins the exchange
    (``policies._exchange_at``, with its own ``shoot_sixths``); for a car, one from which it
    wins a race of rams (``policies._race_at``; a driver with ``ram_race`` 2 goes); or a way
    past: a place from which driving straight on leaves every enemy behind
    (``policies._past_from``, p75, where taking them out wins), where it stands it does not.
    Each as (vehicle, 'shot', 'ram' or 'past', fewest moves there). Whatever gates the
    drivers put before the planner (everyone stopped, nobody shooting, a gun, the side's aim),
    none of those gates is asked here: an empty list for a drawn game's last position says it
    is forced within the planner's window, which nothing the drivers can plan changes; an
    entry says where a driver failed to go (seeded intercept 2677's gunless target, with a ram
    to win the race from, counted the enemy left behind and waited; issue 15, session 30). The
    window is the planner's, compiled into it; ``benchmarks/dark_future_forced.py`` asks again
    with a wider one. ``board`` is the final (T, TM, M, NM); ``POL`` the policy rows."""
    from . import policies as PO
    from .pieces.board import K_TBUF, K_TBUF_END

    T, TM, M, NM = board
    n = V.shape[0]
    tbuf = np.zeros(K_TBUF_END - K_TBUF, T.dtype)
    out = []
    for v in range(n):
        if V[v, VH.V_STATUS] != VH.ACTIVE or V[v, VH.V_MPH] != 0 \
                or V[v, VH.V_OOC] != VH.IN_CONTROL or EG._is_out(V, v) or PO._cannot_drive(V, v):
            continue
        dist, first, q, qs, tail = PO._plan_search(T, TM, M, NM, V, n, v, -1, False,
                                                   hp[PO.HP_DODGE_OBST])
        best = {}
        behind = PO._leaves_behind(T, TM, M, NM, V, n, v, hp)
        for k in range(tail):            # where it stands too (0 moves)
            if qs[k, 4] != 0:
                continue
            place = (qs[k, 0], qs[k, 1], qs[k, 2], qs[k, 3])
            d = int(dist[q[k]])
            mine, theirs = PO._exchange_at(T, M, NM, V, WS, n, v, hp, tbuf,
                                           POL[v, PO.P_SHOOT], *place)
            if mine > theirs and d < best.get("shot", PO.PLAN_MOVES + 1):
                best["shot"] = d
            if not V[v, VH.V_BIKE] and PO._race_at(T, M, NM, V, WS, n, v, hp, tbuf, *place)[0] \
                    >= 0.0 and d < best.get("ram", PO.PLAN_MOVES + 1):
                best["ram"] = d
            if not behind and d < best.get("past", PO.PLAN_MOVES + 1) \
                    and PO._past_from(T, TM, M, NM, V, n, v, hp, *place):
                best["past"] = d
        out.extend((v, what, d) for what, d in sorted(best.items()))
    return out


def waiting(events, V, final_turn, turns=WAIT_TURNS, board=None) -> list[int]:
    """Vehicles still in play at the end, stopped, in control and able to move (not out,
    ``engine._is_out``), that made no move and fired no shot in the last ``turns`` turns. A
    vehicle stopped and shooting every turn is fighting, not waiting: the seeded gang-pursues
    draws named 'stopped with a move available' were mostly a rider firing at the stopped Op
    to the turn limit (issue 15, session 22). With the final ``board`` (T, TM, M, NM), a rider
    queued behind a stopped team-mate facing its way that fired in that time (or behind a line
    of such team-mates led by one) is fighting too: the closest vehicle in a corridor is the
    target (p25), so the line has one shot a turn whoever fires, and the one behind waits to
    take over (``policies._queued_behind``; seeded gang pursues 3076, 4704, issue 15 session
    28). With the board, a car shut in (:func:`shut_in`) is not waiting either."""
    last_move = {}
    for e in _moves_and_reverses(events):
        if int(e[3]) == EG.EV_MOVE:
            last_move[int(e[2])] = int(e[0])
    ev = np.asarray(events)
    last_shot = {}
    if ev.shape[0]:
        for e in ev[ev[:, 3] == EG.EV_SHOT][:, :3].tolist():
            last_shot[int(e[2])] = int(e[0])
    out = []
    for v in range(V.shape[0]):
        if V[v, VH.V_STATUS] != VH.ACTIVE or V[v, VH.V_MPH] != 0 or EG._is_out(V, v) \
                or V[v, VH.V_OOC] != VH.IN_CONTROL:
            continue
        if final_turn - max(last_move.get(v, 0), last_shot.get(v, 0)) >= turns \
                and not (board is not None and (_queued(board, V, v, last_shot,
                                                        final_turn - turns)
                                                or shut_in(board, V, v))):
            out.append(v)
    return out


def shut_waiting(events, V, final_turn, board, turns=WAIT_TURNS) -> list[int]:
    """The cars that made no move and fired no shot in the last ``turns`` turns, stopped and
    able to move, but shut in (:func:`shut_in`)."""
    idle = waiting(events, V, final_turn, turns)
    return [v for v in idle if shut_in(board, V, v)]


def _queued(board, V, v, last_shot, since) -> bool:
    """Does ``v`` stand behind a line of stopped team-mates facing its way (each first in the
    lanes of the one behind it within two spaces, ``policies._first_in_way``) one of which
    fired after turn ``since``?"""
    from . import policies as PO

    T, TM, M, NM = board
    n = V.shape[0]
    u, seen = v, {v}
    while True:
        w = int(PO._first_in_way(T, M, NM, V, n, u, 2))
        if w < 0 or w in seen or V[w, VH.V_SIDE] != V[v, VH.V_SIDE] \
                or V[w, VH.V_STATUS] != VH.ACTIVE or V[w, VH.V_MPH] != 0 \
                or V[w, VH.V_DIR] != V[v, VH.V_DIR]:
            return False
        if last_shot.get(w, 0) > since:
            return True
        u = w
        seen.add(w)


@dataclass(frozen=True)
class Draw:
    """One drawn game: its trial, how the engine ended it, the drivers' worst shuttle (count
    and vehicle), the vehicles waiting at the end, the kind (``KIND_*``), and the cars idle at
    the end only because they are shut in (:func:`shut_in`)."""
    trial: int
    reason: str
    turns: int
    shuttles: int
    shuttler: int
    waiting: tuple
    kind: str
    shut: tuple = ()


def draw_kind(reason, shuttle, waits, shut=()) -> str:
    """Which kind of drawn game: shuttling first (the deadlock issue 15 forbids; ``shuttle``
    counts a vehicle still shuttling in the game's last ``WAIT_TURNS`` turns,
    ``shuttling_at_end``), then a vehicle waiting though it could move, then one idle because
    every move it has is a collision (``shut``), then how the engine ended it."""
    if reason == EG.REASON_TIME and shuttle >= SHUTTLE_DRAW:
        return KIND_SHUTTLE
    if reason == EG.REASON_REPEAT:
        return KIND_FROZEN
    if reason == EG.REASON_STALEMATE:
        return KIND_STALEMATE
    if reason == EG.REASON_TIME and waits:
        return KIND_WAITING
    if reason == EG.REASON_TIME and shut:
        return KIND_SHUT
    if reason == EG.REASON_TIME:
        return KIND_RUNNING
    return KIND_OTHER


def examine(events, res, V, trial=0, board=None) -> Draw:
    """The diagnosis of one game (drawn or not: ``kind`` is only meaningful for a draw);
    ``board`` (the final T, TM, M, NM) lets :func:`waiting` see riders queued behind a firing
    team-mate and cars shut in (:func:`shut_in`)."""
    table = _shuttle_table(events)
    counts = {v: n for v, (n, _) in table.items()}
    who = max(counts, key=lambda v: (counts[v], -v), default=-1)
    most = counts.get(who, 0)
    reason = int(res[EG.R_REASON])
    turns = int(res[EG.R_TURNS])
    waits = tuple(waiting(events, V, turns, board=board)) if reason == EG.REASON_TIME else ()
    shut = tuple(shut_waiting(events, V, turns, board)) \
        if reason == EG.REASON_TIME and board is not None else ()
    late = _late(table, turns, WAIT_TURNS) if reason == EG.REASON_TIME else most
    return Draw(trial, EG.REASON_NAMES[reason], turns, most, who, waits,
                draw_kind(reason, late, waits, shut), shut)


def is_draw(res) -> bool:
    return int(res[EG.R_WINNER]) < 0



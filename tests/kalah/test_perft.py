"""perft (move-path counts) against a deliberately simple, independent Kalah written here.

The independent version follows RULES.md's words with different data: each player's
sowing walks a precomputed cycle of the holes it may sow into, captures look at the
list of holes actually sown, and a position is a tuple. It shares no code with
boardgames.kalah except the numbering from RULES.md.
"""

from __future__ import annotations

import importlib.util

import pytest

from boardgames.kalah.game import Kalah
from boardgames.kalah.perft import perft


class SimpleKalah:
    def __init__(self, m: int, seeds: int, etudes: bool) -> None:
        self.m, self.etudes = m, etudes
        self.start = tuple([seeds] * m + [0] + [seeds] * m + [0])
        self.store = (m, 2 * m + 1)
        self.pits = (list(range(m)), list(range(m + 1, 2 * m + 1)))
        # Holes a player sows into, in order: everything but the opponent's store.
        self.cycle = tuple([h for h in range(2 * m + 2) if h != self.store[1 - p]] for p in (0, 1))

    def sow(self, b: list[int], player: int, pit: int) -> list[int]:
        """Sow in place; the holes that received a stone, in order."""
        cyc = self.cycle[player]
        at = cyc.index(pit)
        n, b[pit] = b[pit], 0
        sown = [cyc[(at + k) % len(cyc)] for k in range(1, n + 1)]
        for h in sown:
            b[h] += 1
        return sown

    def over(self, b: tuple[int, ...], player: int) -> bool:
        if not self.etudes:
            return not any(b[i] for i in self.pits[0]) or not any(b[i] for i in self.pits[1])
        total = sum(b)
        return 2 * max(b[self.store[0]], b[self.store[1]]) > total or not any(
            b[i] for i in self.pits[player]
        )

    def moves(self, pos: tuple[tuple[int, ...], int]) -> list[tuple[tuple[int, ...], int]]:
        """Children (board, player to move) of one single move."""
        b, player = pos
        if self.over(b, player):
            return []
        return [self.play(b, player, pit) for pit in self.pits[player] if b[pit]]

    def play(self, b0: tuple[int, ...], p: int, pit: int) -> tuple[tuple[int, ...], int]:
        b = list(b0)
        mine, theirs, store = self.pits[p], self.pits[1 - p], self.store[p]
        if not self.etudes:
            last = self.sow(b, p, pit)[-1]
            if last in mine and b[last] == 1 and b[2 * self.m - last]:
                b[store] += 1 + b[2 * self.m - last]
                b[last] = b[2 * self.m - last] = 0
            if not any(b[i] for i in mine) or not any(b[i] for i in theirs):
                for side in (0, 1):
                    for i in self.pits[side]:
                        b[self.store[side]] += b[i]
                        b[i] = 0
                return tuple(b), 1 - p
            return tuple(b), (p if last == store else 1 - p)
        while True:
            sown = self.sow(b, p, pit)
            last = sown[-1]
            for h in reversed(sown):  # capture backwards over the holes just sown
                if h in theirs and b[h] in (2, 3):
                    b[store] += b[h]
                    b[h] = 0
                else:
                    break
            if 2 * max(b[self.store[0]], b[self.store[1]]) > sum(b):
                return tuple(b), 1 - p
            if last in mine and b[last] >= 2 and any(h in theirs for h in sown):
                pit = last
                continue
            break
        if not any(b[i] for i in self.pits[1 - p]):
            for i in mine:
                b[store] += b[i]
                b[i] = 0
        return tuple(b), 1 - p

    def perft(self, pos: tuple[tuple[int, ...], int], depth: int) -> int:
        if depth == 0:
            return 1
        return sum(self.perft(child, depth - 1) for child in self.moves(pos))

    def compound_children(self, pos: tuple[tuple[int, ...], int]) -> list:
        out = []
        for child in self.moves(pos):
            if child[1] == pos[1] and not self.over(*child):
                out.extend(self.compound_children(child))
            else:
                out.append(child)
        return out

    def perft_compound(self, pos: tuple[tuple[int, ...], int], depth: int) -> int:
        if depth == 0:
            return 1
        return sum(self.perft_compound(c, depth - 1) for c in self.compound_children(pos))


CASES = [
    # (pits, seeds, rules, depth)
    (6, 6, "classic", 6),
    (6, 4, "classic", 5),
    (4, 3, "classic", 7),
    (3, 3, "classic", 9),
    (2, 1, "classic", 12),
    (1, 5, "classic", 6),
    (6, 6, "etudes", 6),
    (4, 3, "etudes", 7),
    (3, 2, "etudes", 10),
    (5, 9, "etudes", 4),
    (12, 20, "classic", 2),
    (12, 20, "etudes", 2),
]


@pytest.mark.parametrize(("m", "seeds", "rule_set", "depth"), CASES)
def test_perft_against_simple_implementation(m: int, seeds: int, rule_set: str, depth: int) -> None:
    game = Kalah(m, seeds, rule_set)
    simple = SimpleKalah(m, seeds, rule_set == "etudes")
    for d in range(depth + 1):
        assert perft(game, game.initial_state(), d) == simple.perft((simple.start, 0), d), d


@pytest.mark.parametrize(
    ("m", "seeds", "rule_set", "depth"),
    [(6, 6, "classic", 3), (4, 4, "classic", 4), (3, 3, "classic", 6), (4, 3, "etudes", 5)],
)
def test_compound_perft_against_simple_implementation(
    m: int, seeds: int, rule_set: str, depth: int
) -> None:
    game = Kalah(m, seeds, rule_set)
    simple = SimpleKalah(m, seeds, rule_set == "etudes")
    for d in range(depth + 1):
        got = perft(game, game.initial_state(), d, compound=True)
        assert got == simple.perft_compound((simple.start, 0), d), d


def test_perft_small_values_by_hand() -> None:
    # 6 x 6, classic: 6 first moves. Of them only 0 ends in the store (extra turn: 5 more
    # sowings for A); the other 5 pass the turn and B has 6 replies: 5 + 30 = 35.
    g = Kalah()
    assert perft(g, g.initial_state(), 1) == 6
    assert perft(g, g.initial_state(), 2) == 35
    # 1 pit, 1 seed: A sows into its store; A's side is empty: the game is over.
    assert perft(Kalah(1, 1), Kalah(1, 1).initial_state(), 1) == 1
    assert perft(Kalah(1, 1), Kalah(1, 1).initial_state(), 2) == 0


@pytest.mark.slow
@pytest.mark.parametrize(("m", "seeds", "rule_set", "depth"), [(6, 6, "classic", 7)])
def test_perft_deeper(m: int, seeds: int, rule_set: str, depth: int) -> None:
    game = Kalah(m, seeds, rule_set)
    simple = SimpleKalah(m, seeds, rule_set == "etudes")
    assert perft(game, game.initial_state(), depth) == simple.perft((simple.start, 0), depth)


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="open_spiel not installed")
def test_perft_against_openspiel_mancala() -> None:  # pragma: no cover - optional
    """OpenSpiel's ``mancala`` is classic Kalah with 6 pits of 4 stones."""
    import pyspiel

    game = pyspiel.load_game("mancala")

    def spiel_perft(state, depth: int) -> int:
        if depth == 0:
            return 1
        if state.is_terminal():
            return 0
        total = 0
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            total += spiel_perft(child, depth - 1)
        return total

    ours = Kalah(6, 4)
    for d in range(6):
        assert perft(ours, ours.initial_state(), d) == spiel_perft(game.new_initial_state(), d)

"""Protocol laws checked over every registered two-player game: a new game is checked by
registering it (its plugin's default options, and its examples).

- a finished game has no moves, and an unfinished one has some;
- ``play`` never changes its input, and a legal move is accepted, an illegal one refused;
- move notation round-trips (``parse_move(format_move(m)) == m``), and so does position
  notation where the game has it;
- a state stays a flat int64 array; ``to_move`` is 0 or 1; evaluations stay heuristic;
- the SVG drawing is well-formed XML and marks every legal move (``data-move``), no other;
- the action codec (where offered) maps legal moves one-to-one onto ids and back;
- the numba rule kernels (where offered) agree with the Python rules on random games, and
  the numba alpha-beta finds the Python one's value and move;
- an in-range illegal move (an empty pit, a full column) is refused by ``play`` and by
  ``parse_move``, with one line;
- the exact solver (where offered) agrees with plain search to the end of the game.

The laws that need only the Python rules run over every rule-changing option set as well
(:func:`rule_setups`: each choice and switch away from its default, and the smallest
board), so a new option of a game is checked by declaring it.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from boardgames.core.capabilities import (
    ActionCodec,
    Drawing,
    PositionNotation,
    capabilities,
    format_position,
    legal_mask,
    parse_position,
)
from boardgames.core.protocol import HEURISTIC_LIMIT, GameError
from boardgames.core.registry import plugins, two_player

GAMES = sorted(two_player())
GAMES_RANDOM = 12
"""Random games played from each game's start for the laws below."""


def rule_setups(name: str) -> list[dict[str, Any]]:
    """The option sets that change ``name``'s rules: its defaults, each other choice of a
    choice option and the other value of a switch (one at a time), and the smallest
    board (every whole-number option at its lowest; rows of 1 and 2 chips)."""
    spec = two_player()[name]
    setups: list[dict[str, Any]] = [{}]
    for o in spec.options:
        if o.kind == "choice":
            setups += [{o.name: c} for c in o.choices if c != o.default]
        elif o.kind == "bool":
            setups.append({o.name: not o.default})
    small = {o.name: o.low for o in spec.options if o.kind == "int" and o.low is not None}
    small.update({o.name: (1, 2) for o in spec.options if o.kind == "ints"})
    if small:
        setups.append(small)
    return setups


SETUPS = [(name, options) for name in GAMES for options in rule_setups(name)]
SETUP_IDS = [
    name + "".join(f"-{k}={'_'.join(map(str, v)) if isinstance(v, tuple) else v}"
                   for k, v in options.items())
    for name, options in SETUPS
]  # fmt: skip


def game_of(name: str, options: dict[str, Any] | None = None) -> Any:
    return two_player()[name].make(**(options or {}))


def random_positions(
    game: Any, seed: int, games: int = GAMES_RANDOM
) -> list[tuple[Any, list[int]]]:
    """Every position of ``games`` seeded random games, with the moves that led to it."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state, moves = game.initial_state(), []
        out.append((state, list(moves)))
        for _ in range(400):
            legal = game.legal_moves(state)
            if not legal:
                break
            move = rng.choice(legal)
            state, _ = game.play(state, move)
            moves.append(move)
            out.append((state, list(moves)))
    return out


def test_the_built_in_games_are_registered() -> None:
    assert {"kalah", "nim", "queens"} <= set(plugins())
    assert {"kalah", "nim"} <= set(GAMES)


@pytest.mark.parametrize("name, options", SETUPS, ids=SETUP_IDS)
def test_rules_laws(name: str, options: dict[str, Any]) -> None:
    game = game_of(name, options)
    assert "rules" in capabilities(game)
    for state, _ in random_positions(game, 1):
        assert isinstance(state, np.ndarray) and state.dtype == np.int64 and state.ndim == 1
        legal = game.legal_moves(state)
        over = game.outcome(state)
        assert (over is None) == bool(legal), "a finished game has no moves, else some"
        assert game.to_move(state) in (0, 1)
        if over is not None:
            continue
        assert len(set(legal)) == len(legal)
        assert abs(game.evaluate(state)) < HEURISTIC_LIMIT
        before = state.copy()
        for move in legal:
            child, again = game.play(state, move)
            assert np.array_equal(state, before), "play changed its input"
            assert isinstance(again, bool | np.bool_)
            assert child.shape == state.shape
        illegal = next(m for m in range(-1, 10**6) if m not in legal)
        with pytest.raises((GameError, ValueError, IndexError)):
            game.play(state, illegal)


@pytest.mark.parametrize("name, options", SETUPS, ids=SETUP_IDS)
def test_notation_round_trips(name: str, options: dict[str, Any]) -> None:
    game = game_of(name, options)
    for state, moves in random_positions(game, 2, games=4):
        for move in game.legal_moves(state):
            text = game.format_move(move)
            assert game.parse_move(text, state) == move
        text = format_position(game, state, moves)
        back = parse_position(game, text)
        if isinstance(game, PositionNotation):
            assert game.format_position(back) == text
        assert np.array_equal(back[: len(state)], state) or game.format_position(back) == text


@pytest.mark.parametrize("name", GAMES)
def test_bad_move_text_is_one_line(name: str) -> None:
    game = game_of(name)
    state = game.initial_state()
    for text in ("", "xyz", "99999999999999999999", "٣", "-1", "1.5"):
        try:
            move = game.parse_move(text, state)
        except GameError as e:
            assert "\n" not in str(e) and str(e)
        else:
            assert move in game.legal_moves(state), text


@pytest.mark.parametrize("name, options", SETUPS, ids=SETUP_IDS)
def test_svg_is_well_formed_and_marks_every_legal_move(name: str, options: dict[str, Any]) -> None:
    game = game_of(name, options)
    if not isinstance(game, Drawing):
        pytest.skip(f"{name} draws no SVG")
    for state, _ in random_positions(game, 3, games=3)[::3]:
        root = ET.fromstring(str(game.svg(state)))
        assert root.tag.endswith("svg")
        marked = {int(e.get("data-move")) for e in root.iter() if e.get("data-move") is not None}
        assert marked == set(game.legal_moves(state))


@pytest.mark.parametrize("name, options", SETUPS, ids=SETUP_IDS)
def test_action_codec_maps_legal_moves_one_to_one(name: str, options: dict[str, Any]) -> None:
    game = game_of(name, options)
    if not isinstance(game, ActionCodec):
        pytest.skip(f"{name} has no action codec")
    for state, _ in random_positions(game, 4, games=4):
        legal = game.legal_moves(state)
        actions = [game.action_of(state, m) for m in legal]
        assert len(set(actions)) == len(actions)
        assert all(0 <= a < game.num_actions for a in actions)
        assert [game.move_of(state, a) for a in actions] == legal
        mask = legal_mask(game, state)
        assert int(mask.sum()) == len(legal)
        for a in range(game.num_actions):
            if not mask[a]:
                assert game.move_of(state, a) is None
        for player in (0, 1):
            obs = game.observation(state, player)
            assert obs.shape == tuple(game.observation_shape)
            assert obs.min() >= 0 and obs.max() <= game.observation_high


KERNEL_GAMES = [n for n in GAMES if two_player()[n].kernels]


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_kernels_agree_with_the_python_rules(name: str) -> None:
    from boardgames.core.kernels import AGAIN, NOT_OVER, OVER
    from boardgames.core.strategies import kernel_spec

    game = game_of(name)
    spec = kernel_spec(game)
    k = spec.kernels
    stack = np.zeros((2, spec.cells), dtype=np.int64)
    moves = np.zeros((2, spec.max_moves), dtype=np.int64)
    for state, _ in random_positions(game, 5, games=6):
        params = spec.params(state)
        stack[0, : len(state)] = state
        r = k.result(stack, 0, params)
        assert (None if r == NOT_OVER else r) == game.outcome(state)
        if r != NOT_OVER:
            continue
        n = k.gen_moves(stack, 0, params, moves)
        assert list(moves[0, :n]) == game.legal_moves(state)
        assert k.evaluate(stack, 0, params) == game.evaluate(state)
        for move in game.legal_moves(state):
            child, again = game.play(state, move)
            code = k.apply_move(stack, 0, move, params)
            assert (code == AGAIN) == bool(again)
            assert (code == OVER) == (game.outcome(child) is not None) or code == AGAIN
            assert list(stack[1, : len(child)]) == list(child)


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_numba_alphabeta_equals_the_python_reference(name: str) -> None:
    from boardgames.core.search import alphabeta
    from boardgames.core.strategies import numba_searcher

    game = game_of(name)
    searcher = numba_searcher(game)
    positions = [s for s, _ in random_positions(game, 6, games=3) if game.outcome(s) is None]
    for state in positions[:: max(1, len(positions) // 6)]:
        python = alphabeta(game, state, 3)
        numba = searcher.run("alphabeta", state, 3)
        assert (numba.value, numba.best_move, numba.nodes) == (
            python.value,
            python.best_move,
            python.nodes,
        )


@pytest.mark.parametrize("name, options", SETUPS, ids=SETUP_IDS)
def test_an_illegal_move_in_range_is_refused(name: str, options: dict[str, Any]) -> None:
    """A move that is legal somewhere in the game but not here (an empty pit, a full
    column, an empty row) is refused by ``play`` and by ``parse_move``, one line each."""
    game = game_of(name, options)
    positions = random_positions(game, 7, games=6)
    seen = {m for state, _ in positions for m in game.legal_moves(state)}
    refused = 0
    for state, _ in positions[::2]:
        if game.outcome(state) is not None:
            continue
        for move in sorted(seen - set(game.legal_moves(state)))[:4]:
            with pytest.raises(GameError) as played:
                game.play(state, move)
            with pytest.raises(GameError) as parsed:
                game.parse_move(game.format_move(move), state)
            assert "\n" not in str(played.value) and "\n" not in str(parsed.value)
            refused += 1
    if refused == 0:  # a one-pit Kalah: its only move is legal whenever the game is on
        pytest.skip(f"{name} {options}: every move is legal in every unfinished position")


def on_the_smallest_board(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with every whole-number option at its lowest: a search to the end of
    the game stays small there."""
    spec = two_player()[name]
    low = {o.name: o.low for o in spec.options if o.kind == "int" and o.low is not None}
    return {**options, **low}


SOLVER_SETUPS: list[tuple[str, dict[str, Any]]] = []
for _name, _options in SETUPS:
    _small = (_name, on_the_smallest_board(_name, _options))
    if two_player()[_name].solver and _small not in SOLVER_SETUPS:
        SOLVER_SETUPS.append(_small)


def small_positions(game: Any, seed: int, most: int) -> list[Any]:
    """Unfinished positions of random games whose search to the end is small: the last
    plies of each game."""
    out = []
    for i in range(most):
        line = [s for s, _ in random_positions(game, seed + i, games=1)]
        late = [s for s in line[-9:-1] if game.outcome(s) is None]
        out += late[:2]
    return out


@pytest.mark.parametrize("name, options", SOLVER_SETUPS, ids=[f"{n}-{o}" for n, o in SOLVER_SETUPS])
def test_the_solver_agrees_with_plain_search_to_the_end(name: str, options: dict[str, Any]) -> None:
    """The solver's value is the value of a search to the end of the game (the same
    final margin), and its move keeps that value."""
    from boardgames.core.protocol import score_margin
    from boardgames.core.registry import load
    from boardgames.core.search import alphabeta_tt

    game = game_of(name, options)
    solve = load(str(two_player()[name].solver))
    for state in small_positions(game, 40, 6):
        solved = solve(game, state)
        searched = alphabeta_tt(game, state, None)
        assert solved.exact
        assert score_margin(solved.value) == score_margin(searched.value), game.format_move(
            solved.best_move
        )
        child, again = game.play(state, solved.best_move)
        if game.outcome(child) is None:
            after = alphabeta_tt(game, child, None).value
            assert score_margin(after if again else -after) == score_margin(searched.value)

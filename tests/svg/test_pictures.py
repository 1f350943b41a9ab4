"""The pictures of every game: well-formed SVG, and the numbers in their ``data-*``
attributes are the position's (stones per hole, chips per row, queen columns)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardgames.queens
from boardgames.connect4.game import ConnectFour
from boardgames.core.capabilities import Mark
from boardgames.core.protocol import GameError
from boardgames.core.svg import SVG, EvalPoint, el, escape, evaluation_graph
from boardgames.kalah.game import Kalah
from boardgames.kalah.svg import trace_move
from boardgames.nim.game import Nim, encode_move
from boardgames.nim.rules import winning_moves
from boardgames.queens.solve import Solution, is_solution, solutions

NS = "{http://www.w3.org/2000/svg}"


def parse(picture: str) -> ET.Element:
    assert isinstance(picture, SVG)
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    assert root.find(f"{NS}title") is not None
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def random_positions(game: Kalah, rng: random.Random, games: int):
    """(before, pits, after) for every compound move of ``games`` random games."""
    for _ in range(games):
        state = game.initial_state(rng.randrange(2))
        while game.outcome(state) is None:
            pits: list[int] = []
            after = state
            player = game.to_move(state)
            while game.outcome(after) is None and game.to_move(after) == player:
                pit = rng.choice(game.legal_moves(after))
                after, again = game.play(after, pit)
                pits.append(pit)
                if not again:
                    break
            yield state, pits, after
            state = after


# --- Kalah --------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "etudes"])
@pytest.mark.parametrize(("pits", "seeds"), [(6, 6), (3, 2), (1, 5), (12, 4), (4, 20)])
def test_kalah_pictures_hold_the_position(rules: str, pits: int, seeds: int) -> None:
    game = Kalah(pits, seeds, rules)
    rng = random.Random(pits * 100 + seeds + len(rules))
    seen = 0
    for before, move, after in random_positions(game, rng, 8):
        root = parse(game.svg(after, before=before, last=move))
        holes = {int(g.get("data-hole")): g for g in groups(root, "hole")}
        assert sorted(holes) == list(range(game.size))
        assert [int(holes[i].get("data-count")) for i in range(game.size)] == game.board(after)
        for i, g in holes.items():
            store = i in (game.store_index(0), game.store_index(1))
            assert ("store" in g.get("class").split()) == store
            assert (g.get("data-pit") is None) == store
            assert g.get("data-owner") == ("A" if i <= pits else "B")
        over = game.outcome(after) is not None
        assert root.get("data-to-move") == ("" if over else "AB"[game.to_move(after)])
        # the last sowing: it started in the move's pits, ended where its last stone fell
        started = {i for i, g in holes.items() if "start" in g.get("class").split()}
        assert started >= set(move)
        assert {int(g.get("data-hole")) for g in groups(root, "last-move")} == set(move)
        assert len(groups(root, "last")) == 1
        path = [int(h) for h in root.get("data-path").split()]
        dropped = {i: [int(k) for k in g.get("data-sown", "").split()] for i, g in holes.items()}
        assert [i for k in range(1, len(path) + 1) for i in dropped if k in dropped[i]] == path
        seen += 1
    assert seen >= 8


@pytest.mark.parametrize("rules", ["classic", "etudes"])
@pytest.mark.parametrize("empty_capture", [False, True])
def test_the_trace_replays_the_rules(rules: str, empty_capture: bool) -> None:
    """The trace of a move reaches the board the rules reach; every stone it drops is in
    its path, and a capture empties the holes it names."""
    if rules == "etudes" and empty_capture:
        pytest.skip("the variant is a classic one")
    for pits, seeds in ((6, 6), (4, 3), (2, 5)):
        game = Kalah(pits, seeds, rules, empty_capture=empty_capture)
        rng = random.Random(pits + seeds)
        for before, move, after in random_positions(game, rng, 20):
            trace, board = trace_move(
                pits, rules, game.board(before), game.to_move(before), move, empty_capture
            )
            assert board == game.board(after)
            assert trace.sown_from[:1] == move[:1]
            assert sum(game.board(before)[p] for p in move[:1]) <= len(trace.passed)
            for hole in trace.captured:
                assert board[hole] == 0 or game.outcome(after) is not None


def test_kalah_capture_of_the_worked_example_is_marked() -> None:
    """RULES.md 1: A sows 0 into its empty pit 1 facing pit 11 (7 stones): both captured."""
    game = Kalah()
    s = game.initial_state()
    for pits in ([0, 1], [7]):
        s = game.play_compound(s, pits)
    after = game.play_compound(s, [0])
    root = parse(game.svg(after, before=s, last=[0]))
    captured = sorted(int(g.get("data-hole")) for g in groups(root, "captured"))
    assert captured == [1, 11]
    assert [int(g.get("data-hole")) for g in groups(root, "last")] == [1]


def test_kalah_best_move_is_numbered_in_order() -> None:
    game = Kalah()
    root = parse(game.svg(game.initial_state(), marks=[Mark((2, 5), "best"), Mark(4, "hint")]))
    best = {int(g.get("data-hole")): g.get("data-best") for g in groups(root, "best")}
    assert best == {2: "1", 5: "2"}
    assert [g.get("data-hole") for g in groups(root, "mark-hint")] == ["4", None]  # and badge
    assert {b.get("class") for b in groups(root, "badge")} == {"badge mark-best", "badge mark-hint"}


def test_kalah_svg_refuses_a_move_that_does_not_lead_there() -> None:
    game = Kalah()
    start = game.initial_state()
    with pytest.raises(GameError, match="does not lead"):
        game.svg(start, before=start, last=[2])
    with pytest.raises(GameError, match="give last"):
        game.svg(start, before=start)
    with pytest.raises(GameError, match="not pits"):
        game.svg(start, last=6)
    with pytest.raises(GameError, match="not pits"):
        game.svg(start, marks=[Mark(13, "best")])


def test_kalah_last_turn_without_before_and_the_animation() -> None:
    game = Kalah()
    start = game.initial_state()
    after = game.play_compound(start, [0, 1])  # an extra turn, then a second sowing
    root = parse(game.svg(after, last=[0, 1]))
    assert [int(g.get("data-hole")) for g in groups(root, "last-move")] == [0, 1]
    assert not groups(root, "sown") and root.get("data-path") is None
    root = parse(game.svg(after, last=(0, 1), before=start, animate=True))
    assert root.get("data-sown-from") == "0 1"
    assert "animate" in root.get("class").split()
    rings = [r for g in groups(root, "sown") for r in g if "ring" in r.get("class", "")]
    assert rings and all("animation-delay" in r.get("style") for r in rings)


def test_kalah_render_shows_itself_with_its_text_unchanged() -> None:
    game = Kalah()
    state = game.initial_state()
    board = game.render(state, highlight=3)
    root = parse(SVG(board._repr_svg_()))
    assert [int(g.get("data-count")) for g in groups(root, "hole")] == game.board(state)
    assert "A to move" in str(board) and "<svg" not in str(board)


# --- Nim ----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 50), min_size=1, max_size=14).flatmap(
        lambda start: st.tuples(
            st.just(start), st.tuples(*(st.integers(0, r) for r in start)), st.booleans()
        )
    )
)
def test_nim_pictures_hold_the_rows(case) -> None:
    start, left, binary = case
    game = Nim(tuple(start), max_chips=50)
    state = game.state_from_rows(left)
    hints = [Mark(encode_move(w.row, w.take), "hint") for w in winning_moves(left)[:1]]
    root = parse(game.svg(state, binary=binary, marks=hints))
    rows = groups(root, "row")
    assert [int(r.get("data-row")) for r in rows] == list(range(1, len(start) + 1))
    assert [int(r.get("data-chips")) for r in rows] == list(left)
    assert [int(r.get("data-start")) for r in rows] == start
    if max(start) <= 40:  # drawn chip by chip
        for r, n in zip(rows, left, strict=True):
            kept = [c for c in r if c.get("class", "").startswith("chip")]
            on_board = [c for c in kept if "taken" not in c.get("class").split()]
            assert len(on_board) == n
    marked = sorted(int(e.get("data-move")) for e in root.iter() if e.get("data-move"))
    assert marked == game.legal_moves(state)  # a bar too: one slot a chip
    hinted = groups(root, "mark-hint")
    assert bool(hinted) == bool(hints) and all("take" in c.get("class").split() for c in hinted)
    if binary:
        bits = {
            (int(c.get("data-row")), int(c.get("data-bit"))): int(c.get("data-value"))
            for c in groups(root, "bit")
        }
        for row, n in enumerate(left, 1):
            value = sum(v << bit for (r, bit), v in bits.items() if r == row)
            assert value == n
        for column in groups(root, "column"):
            bit = int(column.get("data-bit"))
            assert int(column.get("data-ones")) == sum((n >> bit) & 1 for n in left)


def test_nim_marks_the_chips_of_a_move_and_the_last_one() -> None:
    game = Nim((3, 4, 5))
    root = parse(game.svg(game.initial_state(), marks=[Mark(encode_move(1, 3), "best")]))
    row2 = groups(root, "row")[1]
    assert sum("mark-best" in c.get("class", "").split() for c in row2) == 3
    with pytest.raises(GameError):
        game.svg(game.initial_state(), marks=[Mark(encode_move(0, 4), "best")])
    state = game.state_from_rows((3, 1, 5))
    root = parse(game.svg(state, last=encode_move(1, 2)))
    gone = groups(root, "last-move")
    assert len(gone) == 2 and all("taken" in c.get("class").split() for c in gone)
    with pytest.raises(GameError):
        game.svg(state, last=encode_move(1, 4))  # only 3 chips have left row 2


def test_the_old_keywords_still_work_and_say_so() -> None:
    """The web page's and the games' own commands may still call the old spellings."""
    kalah, start = Kalah(), Kalah().initial_state()
    after = kalah.play_compound(start, [2])
    nim = Nim((3, 4, 5))
    c4 = ConnectFour()
    pos = c4.parse_position("4453")
    for old, new in (
        (lambda: kalah.svg(after, before=start, move=2, best=[9]),
         lambda: kalah.svg(after, before=start, last=2, marks=[Mark(9, "best")])),
        (lambda: nim.svg(nim.initial_state(), move=encode_move(1, 3)),
         lambda: nim.svg(nim.initial_state(), marks=[Mark(encode_move(1, 3), "best")])),
        (lambda: nim.svg(nim.initial_state(), hint=True, binary=True),
         lambda: nim.svg(nim.initial_state(), marks=[Mark(encode_move(0, 2), "hint")],
                         binary=True)),
        (lambda: c4.svg(pos, move=2, best=4),
         lambda: c4.svg(pos, last=2, marks=[Mark(4, "best")])),
    ):  # fmt: skip
        with pytest.warns(DeprecationWarning, match="deprecated"):
            assert old() == new()


def test_nim_render_shows_itself() -> None:
    game = Nim((3, 4, 5))
    table = game.render(game.state_from_rows((1, 4, 0)))
    root = parse(SVG(table._repr_svg_()))
    assert [int(r.get("data-chips")) for r in groups(root, "row")] == [1, 4, 0]


# --- queens -------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 20).flatmap(lambda n: st.lists(st.integers(0, n), min_size=n, max_size=n)))
def test_queens_pictures_hold_the_placement(cols: list[int]) -> None:
    root = parse(boardgames.queens.svg(cols, attacks=True))
    n = len(cols)
    assert int(root.get("data-n")) == n
    assert [int(c) for c in root.get("data-queens").split()] == cols
    queens = {int(q.get("data-row")): int(q.get("data-col")) for q in groups(root, "queen")}
    assert queens == {r: c for r, c in enumerate(cols, 1) if c}
    assert len(groups(root, "square")) == n * n
    conflict = bool(groups(root, "conflict"))
    full = all(cols)
    if full:
        assert conflict == (not is_solution(tuple(cols)))


def test_every_solution_shows_itself() -> None:
    for sol in solutions(6):
        assert isinstance(sol, Solution) and isinstance(sol, tuple)
        root = parse(SVG(sol._repr_svg_()))
        assert [int(c) for c in root.get("data-queens").split()] == list(sol)
        assert not groups(root, "conflict")
    assert next(solutions(8)) == (1, 5, 8, 6, 3, 7, 2, 4)
    assert repr(next(solutions(8))) == "(1, 5, 8, 6, 3, 7, 2, 4)"


def test_a_partial_placement_and_bad_ones() -> None:
    root = parse(boardgames.queens.svg((2, 4), n=4))
    assert root.get("data-queens") == "2 4 0 0"
    with pytest.raises(GameError):
        boardgames.queens.svg((5,), n=4)
    with pytest.raises(GameError):
        boardgames.queens.svg((1, 2, 3), n=2)


# --- the shared module --------------------------------------------------------------------


def test_escaping_keeps_the_document_well_formed() -> None:
    hostile = "<b>&\"'\x00\x1b]"
    picture = SVG(
        el(
            "svg",
            el("text", escape(hostile)),
            xmlns="http://www.w3.org/2000/svg",
            data_note=hostile,
        )
    )
    root = ET.fromstring(picture)
    assert root.get("data-note") == "<b>&\"']"
    assert root[0].text == "<b>&\"']"


def test_the_evaluation_graph_reads_back() -> None:
    points = [
        EvalPoint(k, k % 2, v, kind, mark, loss)
        for k, (v, kind, mark, loss) in enumerate(
            [
                (0, "estimate", None, 0),
                (-3, "lower", "inaccuracy", 2),
                (6, "exact", "mistake", 6),
                (-6, "upper", None, 0),
                (1e9, "exact", None, 0),
            ],
            1,
        )
    ]
    root = parse(evaluation_graph(points, series=["A", "B"], heading="<test & graph>"))
    got = [
        (int(p.get("data-move")), p.get("data-kind"), p.get("data-mark"))
        for p in groups(root, "point")
    ]
    assert got == [
        (1, "estimate", ""),
        (2, "lower", "inaccuracy"),
        (3, "exact", "mistake"),
        (4, "upper", ""),
        (5, "exact", ""),
    ]
    assert len(groups(root, "band")) == 2


def test_a_notebook_shows_the_pictures() -> None:
    pytest.importorskip("IPython")
    from IPython.core.formatters import DisplayFormatter

    formatter = DisplayFormatter()
    game, nim = Kalah(), Nim((3, 4, 5))
    for shown in (
        game.svg(game.initial_state()),
        game.render(game.initial_state()),
        nim.render(nim.initial_state()),
        next(solutions(8)),
        boardgames.queens.svg((2, 4, 1, 3)),
    ):
        data, _ = formatter.format(shown)
        assert "image/svg+xml" in data


def test_a_long_game_numbers_round_moves_readably() -> None:
    points = [EvalPoint(k, k % 2, (-1) ** k * k / 10) for k in range(1, 121)]
    root = parse(evaluation_graph(points, series=["A", "B"], heading="120 moves"))
    labels = [int(t.text) for t in groups(root, "move-number")]
    assert labels[0] == 1 and labels[-1] == 120
    assert all(m % 5 == 0 for m in labels[1:])
    assert len(labels) <= 30  # about 26 pixels apart at least

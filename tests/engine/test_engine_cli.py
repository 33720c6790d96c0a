"""``python -m engine simulate`` and ``bench``, and RandomPolicy's coverage of the rules
(R9 discards and reshuffles, R10 swaps, R11 optional before, after or skipped)."""

import json
import subprocess
import sys
from collections import Counter

import pytest

from engine import Game, GameConfig, RandomPolicy, from_record
from engine.__main__ import main
from engine.simulate import game_seeds, simulate_games


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r14_simulate_writes_records_that_replay_identically(tmp_path, seats, capsys):
    """R3–R14: every line is a hats-record/1 that rebuilds the same game; same args, same bytes."""
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert (
        main(
            ["simulate", "--seats", str(seats), "--games", "6", "--seed", "42", "--out", str(first)]
        )
        == 0
    )
    main(["simulate", "--seats", str(seats), "--games", "6", "--seed", "42", "--out", str(second)])
    assert first.read_bytes() == second.read_bytes()
    assert "wrote 6 games" in capsys.readouterr().out
    lines = first.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    for line, game in zip(lines, simulate_games(seats, 6, 42), strict=True):
        record = json.loads(line)
        assert line == json.dumps(record)  # default json.dumps formatting, fields in order
        assert record["seats"] == seats
        rebuilt = from_record(record)
        assert rebuilt.snapshot() == game.snapshot()
        replayed = Game.replay(GameConfig(seats, record["seed"]), game.steps)
        assert replayed.snapshot() == rebuilt.snapshot()
    other = tmp_path / "c.jsonl"
    main(["simulate", "--seats", str(seats), "--games", "6", "--seed", "43", "--out", str(other)])
    assert other.read_bytes() != first.read_bytes()


def test_r6_simulate_seeds_depend_on_seed_and_index_only():
    assert game_seeds(1, 0) == game_seeds(1, 0)
    assert len({game_seeds(1, i) for i in range(50)} | {game_seeds(2, i) for i in range(50)}) == 100


def test_r9_r11_simulate_runs_as_a_module(tmp_path):
    out = tmp_path / "m.jsonl"
    command = ["simulate", "--seats", "3", "--games", "2", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "engine", *command], capture_output=True, text=True, check=True
    )
    assert len(out.read_text().splitlines()) == 2 and "wrote 2 games" in done.stdout


def test_r9_r10_r11_random_policy_uses_every_part_of_the_rules():
    """R9: discards and reshuffles (2, 3 seats); R10: swaps accepted, declined and withdrawn;
    R11: optional before the main action, after it, and skipped."""
    for seats in (2, 3, 4):
        shapes: Counter[str] = Counter()
        for game in simulate_games(seats, 12, seed=5):
            kinds = Counter(s.action.kind.value for s in game.steps)
            shapes.update(kinds)
            shapes["reshuffle"] += sum(e.reshuffled for e in game.events)
            for turn in game.record_turns():
                steps = [s["kind"] for s in turn["steps"]]
                if len(steps) == 1:
                    shapes["skipped"] += 1
                elif steps[0] in ("discard", "swap"):
                    shapes["before"] += 1
                else:
                    shapes["after"] += 1
        assert shapes["skipped"] and shapes["before"] and shapes["after"]
        assert shapes["end_turn"] and shapes["exchange"] and shapes["black_hat"]
        if seats == 4:
            assert shapes["answer_swap"] and shapes["decline_swap"] and shapes["withdraw_swap"]
            assert not shapes["discard"]
        else:
            assert shapes["discard"] and shapes["reshuffle"] and not shapes["offer_swap"]


def test_r10_random_policy_chooses_from_an_observation_or_a_game():
    game = Game.new(GameConfig(4, 6))
    seat = game.to_move
    from_game = RandomPolicy(3).choose(game, seat)
    from_view = RandomPolicy(3).choose(game.observation(seat), seat)
    assert from_game == from_view and from_game in game.legal_actions(seat)
    with pytest.raises(ValueError):
        RandomPolicy(3).choose(game.observation(seat), (seat + 1) % 4)
    with pytest.raises(ValueError):
        RandomPolicy(3).choose(game, (seat + 1) % 4)  # not its move


def test_r14_bench_prints_figures_for_every_seat_count(capsys):
    assert main(["bench", "--seconds", "0.01", "--repeat", "1", "--step-games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in out if line.split() and line.split()[0] in "234"]
    assert [r[0] for r in rows] == ["2", "3", "4"]
    assert all(float(x) > 0 for r in rows for x in r[1:])


def test_r1_engine_imports_no_discord_and_does_no_io():
    """The rules engine stays pure: importing it loads neither discord nor the CLI modules."""
    code = (
        "import sys, engine, engine.game, engine.record, engine.policies, engine.legal\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('discord', 'aiosqlite')"
        " or m in ('engine.simulate', 'engine.bench')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

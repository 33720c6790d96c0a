"""Write the example pictures of docs/images/ (docs/players.md): table at 2, 3 and 4 seats, a hand
with its legal slots, an end board.

    .venv/bin/python scripts/render_examples.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import io
import random
from pathlib import Path

from PIL import Image

from engine import Exchange, Game, GameConfig
from pictures import render_end, render_hand, render_table
from texts.i18n import Translator

NAMES = ("Zoë", "Björn", "Ñandú de la Peña", "Łukasz")


def play(seats: int, seed: int, steps: int | None) -> Game:
    rng = random.Random(seed)
    game = Game.new(GameConfig(seats, seed))
    while not game.is_over and (steps is None or len(game.steps) < steps):
        seat = game.to_move
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def save(path: Path, png: bytes) -> None:
    image = Image.open(io.BytesIO(png))
    image.save(path, optimize=True)
    print(f"{path}: {image.width}×{image.height}, {path.stat().st_size // 1024} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    en = Translator.load().for_locale("en")
    for seats, steps in ((2, 20), (3, 40), (4, 60)):
        game = play(seats, seats, steps)
        save(args.out / f"table-{seats}p.png", render_table(game.public_view(), NAMES[:seats], en))
    game = play(3, 3, 40)
    while not any(isinstance(a, Exchange) for a in game.legal_actions(game.to_move)):
        game = play(3, 3, len(game.steps) + 1)
    hand = render_hand(game.observation(game.to_move), NAMES[:3], en)
    save(args.out / "hand.png", hand)
    game = play(4, 4, None)
    save(args.out / "end-4p.png", render_end(game.public_view(), NAMES, en, game_id=42))


if __name__ == "__main__":
    main()

/** Issue 35.4, 35.5, 35.10, 35.13: the turn cue, the moves, the log's cards, the keyboard. */
import { describe, expect, it } from "vitest";
import { splitCards } from "../src/eventText";
import { movesBetween } from "../src/motion";
import { roveIndex, tabStop } from "../src/rove";
import { initialState, reduce } from "../src/store";
import { cueOf, ringFraction } from "../src/turn";
import { view } from "./fixtures";

const WJ = "\u2060";

describe("the turn cue", () => {
  it("cues the viewer's own turn once per turn, and nothing while others play", () => {
    const mine = cueOf(view());
    expect(mine).toEqual({ kind: "turn", key: "12:4:0:turn" });
    expect(cueOf(view({ step: 18 }))?.key).toBe(mine!.key); // a later step of the same turn
    expect(cueOf(view({ legal: [], active_seat: 1, to_move: 1 }))).toBeNull();
    expect(cueOf(view({ round: 5 }))?.key).not.toBe(mine!.key);
    expect(cueOf(view({ seat: null, legal: null }))).toBeNull(); // a spectator
  });

  it("says the partner's answer is awaited, not whose turn it is (R10)", () => {
    const answer = view({
      active_seat: 1,
      to_move: 0,
      pending_swap: { offerer: 1, partner: 0 },
      legal: [{ kind: "answer_swap", card: "red1" }, { kind: "decline_swap" }],
    });
    expect(cueOf(answer)).toEqual({ kind: "answer", key: "12:4:1:answer" });
  });

  it("empties the ring as the time runs out", () => {
    expect(ringFraction(90, 90)).toBe(1);
    expect(ringFraction(45, 90)).toBe(0.5);
    expect(ringFraction(-3, 90)).toBe(0);
    expect(ringFraction(10, 0)).toBe(1);
  });
});

describe("the moves between two views", () => {
  const before = view({ step: 17, events: [{ number: 16, seat: 2, kind: "exchange", slot: 2, text: "…" }] });

  it("reads an exchange's played and taken cards from the two boards", () => {
    const after = view({
      step: 18,
      board: ["red1", "blue2", "green6", "yellow1", "purple3", "brown4"],
      events: [...before.events, { number: 17, seat: 0, kind: "exchange", slot: 1, text: "…" }],
    });
    expect(movesBetween(before, after)).toEqual([
      { number: 17, seat: 0, kind: "exchange", slot: 1, played: "red1", taken: "red5" },
    ]);
  });

  it("shows black hats and discards, and nothing for swaps, a new game or the same step", () => {
    const after = view({
      step: 20,
      events: [
        ...before.events,
        { number: 17, seat: 1, kind: "black_hat", slot: null, text: "…" },
        { number: 18, seat: 2, kind: "discard", slot: null, text: "…" },
        { number: 19, seat: 2, kind: "offer_swap", slot: null, text: "…" },
      ],
    });
    expect(movesBetween(before, after).map((m) => [m.kind, m.seat])).toEqual([
      ["black_hat", 1],
      ["discard", 2],
    ]);
    expect(movesBetween(before, { ...after, game_id: "13" })).toEqual([]);
    expect(movesBetween(before, before)).toEqual([]);
    expect(movesBetween(null, after)).toEqual([]);
  });

  it("keeps a changed slot marked until the next move", () => {
    let s = reduce(initialState("en"), before);
    expect(s.moved).toEqual([2]); // opened mid-game: the last exchange's slot
    const played = view({
      step: 18,
      board: ["red1", "blue2", "green6", "yellow1", "purple3", "brown4"],
      events: [...before.events, { number: 17, seat: 0, kind: "exchange", slot: 1, text: "…" }],
    });
    s = reduce(s, played);
    expect(s.moved).toEqual([1]);
    s = reduce(s, { ...played, step: 19, active_seat: 1, to_move: 1, legal: [] }); // the turn ends
    expect(s.moved).toEqual([1]);
    s = reduce(s, {
      ...played,
      step: 20,
      events: [...played.events, { number: 19, seat: 1, kind: "black_hat", slot: null, text: "…" }],
    });
    expect(s.moved).toEqual([]); // the next move changed no slot
  });
});

describe("the log's cards", () => {
  it("splits a line into text and cards, black hats' faces included", () => {
    expect(splitCards(`Bo played 🟦${WJ}1 on slot 2 and took 🟦${WJ}2.`)).toEqual([
      "Bo played ",
      { code: "blue1", black: false },
      " on slot 2 and took ",
      { code: "blue2", black: false },
      ".",
    ]);
    expect(splitCards(`You made ⬛${WJ}🟥${WJ}5 a black hat.`)).toEqual([
      "You made ",
      { code: "red5", black: true },
      " a black hat.",
    ]);
    expect(splitCards("🟪3 and 🟫6")).toEqual([{ code: "purple3", black: false }, " and ", { code: "brown6", black: false }]);
    expect(splitCards("Ana ended their turn.")).toEqual(["Ana ended their turn."]);
  });
});

describe("one hint a turn", () => {
  it("hides the hint button's turn once its hint came", () => {
    let s = reduce(initialState("en"), view({ hints: true }));
    s = reduce(s, { t: "hint", id: 3, text: "Play 🟥1 on slot 1.", action: { kind: "exchange", card: "red1", slot: 1 } });
    expect(s.hintTurn).toBe(cueOf(view())!.key);
  });
});

describe("arrow keys in a group", () => {
  it("moves to the next or previous enabled item, wrapping, and Home/End", () => {
    const on = [true, false, true, true];
    expect(roveIndex("ArrowRight", 0, on)).toBe(2);
    expect(roveIndex("ArrowDown", 3, on)).toBe(0);
    expect(roveIndex("ArrowLeft", 0, on)).toBe(3);
    expect(roveIndex("ArrowUp", 2, on)).toBe(0);
    expect(roveIndex("Home", 3, [false, true, true])).toBe(1);
    expect(roveIndex("End", 0, on)).toBe(3);
    expect(roveIndex("a", 0, on)).toBeNull();
    expect(roveIndex("ArrowRight", 0, [false, false])).toBe(1); // nothing enabled: all usable
  });

  it("puts the Tab stop on the current item, else the preferred, else the first enabled", () => {
    const items = ["a", "b", "c"];
    expect(tabStop(items, [true, true, true], "c")).toBe(2);
    expect(tabStop(items, [false, true, true], null, [null, "c"])).toBe(2);
    expect(tabStop(items, [false, true, true], "z")).toBe(1);
    expect(tabStop(items, [false, false, false], null)).toBe(0);
  });
});

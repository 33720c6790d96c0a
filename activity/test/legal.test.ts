import { describe, expect, it } from "vitest";
import { answering, canDo, changedSlots, keepSelection, myMove, playableCards, tapSlot, targetsFor } from "../src/legal";
import { view } from "./fixtures";

describe("targets of a selected card", () => {
  it("lists the slots the view's legal actions allow (R7), and the card actions", () => {
    const t = targetsFor(view(), "green3");
    expect(t.slots).toEqual([2, 3, 4]);
    expect(t).toMatchObject({ blackHat: true, discard: true, offer: false, answer: false });
  });

  it("has nothing for a spectator, another seat's turn or no card", () => {
    expect(targetsFor(view({ seat: null, legal: null }), "green3").slots).toEqual([]);
    expect(targetsFor(view({ legal: [] }), "green3").slots).toEqual([]);
    expect(targetsFor(view(), null).slots).toEqual([]);
    expect(myMove(view({ legal: [] }))).toBe(false);
  });

  it("knows which hand cards can be played at all", () => {
    const v = view({ legal: [{ kind: "exchange", card: "red1", slot: 1 }, { kind: "end_turn" }] });
    expect([...playableCards(v)]).toEqual(["red1"]);
    expect(canDo(v, "end_turn")).toBe(true);
    expect(canDo(v, "decline_swap")).toBe(false);
  });
});

describe("tapping a slot", () => {
  it("makes the exchange when the slot is a legal target: two taps a turn", () => {
    expect(tapSlot(view(), "red1", 1)).toEqual({ ok: true, action: { kind: "exchange", card: "red1", slot: 1 } });
  });

  it("says why not in one line when the slot is not a target", () => {
    const tap = tapSlot(view(), "red1", 5);
    expect(tap).toEqual({ ok: false, reason: "blocked", message: view().blocked!.red1 });
  });

  it("does nothing without a selected card or off turn", () => {
    expect(tapSlot(view(), null, 1)).toMatchObject({ ok: false, reason: "no_card" });
    expect(tapSlot(view({ legal: [] }), "red1", 1)).toMatchObject({ ok: false, reason: "not_your_move" });
  });
});

describe("partner swap (R10)", () => {
  it("an offer waiting for the viewer's answer lists the cards to give back and decline", () => {
    const v = view({
      teams: [[0, 2], [1, 3]],
      pending_swap: { offerer: 2, partner: 0 },
      legal: [
        { kind: "answer_swap", card: "red1" },
        { kind: "answer_swap", card: "green3" },
        { kind: "decline_swap" },
      ],
    });
    expect(answering(v)).toBe(true);
    expect(targetsFor(v, "red1").answer).toBe(true);
    expect(targetsFor(v, "red1").slots).toEqual([]);
    expect(canDo(v, "decline_swap")).toBe(true);
  });
});

describe("after a new view", () => {
  it("keeps the selected card only while it is in hand and playable", () => {
    expect(keepSelection(view(), "red1")).toBe("red1");
    expect(keepSelection(view({ hand: ["orange2", "green3"] }), "red1")).toBeNull();
    expect(keepSelection(view({ legal: [] }), "red1")).toBeNull();
    expect(keepSelection(view(), null)).toBeNull();
  });

  it("finds the slots that changed, for the animation, only within one game", () => {
    const before = view();
    const after = view({ step: 18, board: ["red1", ...before.board.slice(1)] });
    expect(changedSlots(before, after)).toEqual([1]);
    expect(changedSlots(null, after)).toEqual([]);
    expect(changedSlots(view({ game_id: "9" }), after)).toEqual([]);
  });
});

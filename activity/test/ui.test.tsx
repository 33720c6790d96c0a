// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import type { Answer, Connection } from "../src/connection";
import { Controller } from "../src/controller";
import type { Request, ServerFrame } from "../src/protocol";
import { initialState, reduce, Store } from "../src/store";
import { App } from "../src/ui/App";
import { view } from "./fixtures";

function mount(frames: ServerFrame[] = [view()], language: "en" | "de" = "en", answer?: (r: Request) => Answer) {
  let state = initialState(language);
  for (const f of frames) state = reduce(state, f);
  state = { ...state, conn: { status: "open", attempt: 0, retryAt: null } };
  const store = new Store(state);
  const sent: Request[] = [];
  const conn = {
    request: (r: Request): Promise<Answer> => {
      sent.push(r);
      return Promise.resolve(answer ? answer(r) : { ok: true, frame: { t: "ack", id: 1 } });
    },
    retryNow: () => undefined,
  } as unknown as Connection;
  const ctl = new Controller(store, conn);
  const root = document.createElement("div");
  document.body.append(root);
  act(() => render(<App ctl={ctl} />, root));
  const q = (testid: string) => root.querySelector(`[data-testid="${testid}"]`) as HTMLElement | null;
  return { root, q, sent, store };
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the game screen", () => {
  it("names every slot and card with its colour and value for screen readers", () => {
    const { q } = mount();
    expect(q("slot-1")!.getAttribute("aria-label")).toBe("slot 1: red 5");
    expect(q("hand-green3")!.getAttribute("aria-label")).toBe("green 3");
    expect(q("hand-green3")!.tagName).toBe("BUTTON");
    expect(q("table")!.getAttribute("aria-label")).toBe("Tea table");
  });

  it("speaks the player's language from the same catalogs", () => {
    const { q } = mount([view()], "de");
    expect(q("slot-1")!.getAttribute("aria-label")).toContain("5");
    expect(q("prompt")!.textContent).not.toBe("Choose a card, then what to do with it.");
  });

  it("two taps: a card, then a highlighted slot, sends the exchange", async () => {
    const { q, sent } = mount();
    act(() => q("hand-green3")!.click());
    expect(q("hand-green3")!.getAttribute("aria-pressed")).toBe("true");
    const targets = ["slot-1", "slot-2", "slot-3", "slot-4", "slot-5", "slot-6"].filter((s) => q(s)!.classList.contains("target"));
    expect(targets).toEqual(["slot-2", "slot-3", "slot-4"]);
    await act(async () => q("slot-3")!.click());
    expect(sent).toEqual([{ t: "act", game_id: "12", step: 17, action: { kind: "exchange", card: "green3", slot: 3 } }]);
  });

  it("an illegal slot says why in full, in a toast that stays until tapped, and sends nothing", () => {
    const { q, sent, store } = mount();
    act(() => q("hand-red1")!.click());
    act(() => q("slot-5")!.click());
    expect(q("toast-text")!.textContent).toBe(view().blocked!.red1);
    expect(q("toast")!.getAttribute("role")).toBe("alert");
    expect(sent).toEqual([]);
    // another player's step does not take it away; a tap does (issue 35.3)
    act(() => store.update((s) => reduce(s, view({ step: 18 }))));
    expect(q("toast-text")!.textContent).toBe(view().blocked!.red1);
    act(() => q("toast-text")!.click());
    expect(q("toast")).toBeNull();
  });

  it("shows every seat's running score as the server counts it, yours too (issue 35.2)", () => {
    const { q } = mount([view({ scores: [6, 0, 11] })]);
    expect(q("score-0")!.textContent).toBe("6 points");
    expect(q("score-0")!.classList.contains("own")).toBe(true);
    expect(q("score-2")!.textContent).toBe("11 points");
    expect(q("score-2")!.getAttribute("aria-label")).toBe("Score now: 11 points");
  });

  it("after the main action: discard a card, or a large Done; the toggle says what it does (issue 35.11)", async () => {
    const legal = [
      { kind: "discard" as const, card: "red1" },
      { kind: "discard" as const, card: "green3" },
      { kind: "end_turn" as const },
    ];
    const { q, sent } = mount([view({ main_done: true, legal, hand: ["red1", "green3"], auto_end: false })]);
    expect(q("prompt")!.textContent).toBe("Discard a card, or tap Done.");
    expect(q("action-end-turn")!.textContent).toBe("Done");
    expect(q("action-end-turn")!.classList.contains("wide")).toBe(true);
    expect(q("auto-end")!.textContent).toBe("End my turn after my main action");
    expect(q("auto-end")!.getAttribute("aria-pressed")).toBe("false");
    await act(async () => q("action-end-turn")!.click());
    expect(sent).toEqual([{ t: "act", game_id: "12", step: 17, action: { kind: "end_turn" } }]);
  });

  it("offers the optional and main card actions the view allows", () => {
    const { q } = mount();
    act(() => q("hand-red1")!.click());
    expect(q("action-black-hat")).not.toBeNull();
    expect(q("action-discard")).not.toBeNull();
    expect(q("action-offer")).toBeNull(); // 3 players: no partner swap (R10)
  });

  it("lets a partner answer a swap offer or decline it", async () => {
    const v = view({
      teams: [[0, 2], [1, 3]],
      names: ["Ana", "Bo", "Cy", "Di"],
      hand_sizes: [3, 3, 3, 3],
      collections: [[], [], [], []],
      black_hat_counts: [0, 0, 0, 0],
      active_seat: 2,
      to_move: 0,
      pending_swap: { offerer: 2, partner: 0 },
      legal: [{ kind: "answer_swap", card: "red1" }, { kind: "decline_swap" }],
    });
    const { q, sent } = mount([v]);
    expect(q("prompt")!.textContent).toBe("Choose a card to give back, or decline.");
    expect(q("action-decline")).not.toBeNull();
    act(() => q("hand-red1")!.click());
    await act(async () => q("action-answer")!.click());
    expect(sent[0]).toMatchObject({ t: "act", action: { kind: "answer_swap", card: "red1" } });
    expect(q("chat-open")).not.toBeNull();
  });

  it("shows a spectator the public table without a hand or actions", () => {
    const { q } = mount([view({ seat: null, hand: null, own_black_hats: null, legal: null, blocked: null })]);
    expect(q("hand")).toBeNull();
    expect(q("actions")).toBeNull();
    expect(q("prompt")!.textContent).toBe("You are watching this game.");
    expect(q("seat-0")).not.toBeNull();
  });

  it("renders a team message as text, never as HTML", () => {
    const v = view({ teams: [[0, 2], [1, 3]], names: ["Ana", "Bo", "Cy", "Di"], hand_sizes: [3, 3, 3, 3], collections: [[], [], [], []], black_hat_counts: [0, 0, 0, 0] });
    const { q, root } = mount([v, { t: "chat", game_id: "12", from: 2, name: "Cy", text: "<img src=x onerror=alert(1)>" }]);
    act(() => q("chat-open")!.click());
    expect(root.querySelector(".chat img")).toBeNull();
    expect(q("chat")!.textContent).toContain("<img src=x onerror=alert(1)>");
  });
});

/** A finished 3-player game: Bo (seat 2) wins with 12 points. */
const END_RESULT = {
  ranking: [2, 0, 1],
  totals: [9, 4, 12],
  favourites: ["red1", "blue3", "green2"],
  black_hats: [["blue6"], [], []],
  hands: [["red1"], ["blue3"], ["green2"]],
  teams: null,
  winners: [2],
};

describe("the end screen", () => {
  it("ranks the players with a trophy for the winner and offers a rematch", async () => {
    const result = END_RESULT;
    const { q, sent } = mount([view({ result, legal: [] })]);
    expect(q("winner")!.textContent).toBe("🏆 Bo wins with 12 points.");
    expect(q("rank-2")!.textContent).toContain("🏆");
    await act(async () => q("rematch")!.click());
    expect(sent).toEqual([{ t: "rematch", game_id: "12" }]);
  });

  it("explains each total by the rules' parts, marks the favourite in words and says why the winner won (issue 35.2)", () => {
    const result = {
      ...END_RESULT,
      breakdown: [
        { collection: 4, black_hats: 1, favourite: -1, cookie: 5, total: 9 },
        { collection: 7, black_hats: 0, favourite: -3, cookie: 0, total: 4 },
        { collection: 8, black_hats: 0, favourite: 4, cookie: 0, total: 12 },
      ],
      tie_break: "score" as const,
    };
    const { q } = mount([view({ result, legal: [] })], "de");
    expect(q("why")!.textContent).toBe("Sieg nach Punkten: 3 Punkte Vorsprung.");
    const parts = q("parts-0")!;
    const part = (name: string) => parts.querySelector(`[data-part=${name}]`)!.textContent;
    expect(part("collection")).toBe("Sammlung 4");
    expect(part("black_hats")).toBe("Schwarze Hüte 1");
    expect(part("favourite")).toContain("Lieblingshut −1");
    expect(part("cookie")).toBe("Keks 5");
    expect(q("fav-2")!.getAttribute("aria-label")).toBe("Lieblingshut: grün 2");
  });

  it("shows a refused rematch on the end screen (issue 35.1)", async () => {
    const result = { ranking: [0, 1, 2], totals: [9, 4, 1], favourites: [], black_hats: [], hands: [], teams: null, winners: [0] };
    const refusal = "There is already a lobby in this channel.";
    const { q } = mount([view({ result, legal: [] })], "en", () => ({
      ok: false,
      code: "refused",
      message: refusal,
    }));
    await act(async () => q("rematch")!.click());
    expect(q("toast-text")!.textContent).toBe(refusal);
  });

  it("shows the engine's places: equal points, more black hats ranks ahead (R19)", () => {
    const result = {
      ranking: [2, 0, 1],
      places: [2, 3, 1],
      totals: [9, 9, 12],
      favourites: ["red1", "blue3", "green2"],
      black_hats: [["blue6"], [], []],
      hands: [["red1"], ["blue3"], ["green2"]],
      teams: null,
      winners: [2],
    };
    const { q } = mount([view({ result, legal: [] })]);
    const rank = (seat: number) => q(`rank-${seat}`)!.querySelector(".rank")!.textContent;
    expect([rank(2), rank(0), rank(1)]).toEqual(["1.", "2.", "3."]);
  });
});

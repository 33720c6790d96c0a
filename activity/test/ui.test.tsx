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

function mount(frames: ServerFrame[] = [view()], language: "en" | "de" = "en") {
  let state = initialState(language);
  for (const f of frames) state = reduce(state, f);
  state = { ...state, conn: { status: "open", attempt: 0, retryAt: null } };
  const store = new Store(state);
  const sent: Request[] = [];
  const conn = {
    request: (r: Request): Promise<Answer> => {
      sent.push(r);
      return Promise.resolve({ ok: true, frame: { t: "ack", id: 1 } });
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

  it("an illegal slot says why in one line and sends nothing", () => {
    const { q, sent } = mount();
    act(() => q("hand-red1")!.click());
    act(() => q("slot-5")!.click());
    expect(q("prompt")!.textContent).toBe(view().blocked!.red1);
    expect(q("prompt")!.getAttribute("role")).toBe("alert");
    expect(sent).toEqual([]);
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

describe("the end screen", () => {
  it("ranks the players with a trophy for the winner and offers a rematch", async () => {
    const result = {
      ranking: [2, 0, 1],
      totals: [9, 4, 12],
      favourites: ["red1", "blue3", "green2"],
      black_hats: [["blue6"], [], []],
      hands: [["red1"], ["blue3"], ["green2"]],
      teams: null,
      winners: [2],
    };
    const { q, sent } = mount([view({ result, legal: [] })]);
    expect(q("winner")!.textContent).toBe("🏆 Bo wins with 12 points.");
    expect(q("rank-2")!.textContent).toContain("🏆");
    await act(async () => q("rematch")!.click());
    expect(sent).toEqual([{ t: "rematch", game_id: "12" }]);
  });
});

import { describe, expect, it } from "vitest";
import { initialState, reduce, screenOf } from "../src/store";
import { view } from "./fixtures";

const lobby = {
  id: "5",
  host_id: "1",
  seats: [{ user_id: "1", name: "Ana", ai_level: null, team: null }],
  max_seats: 4,
  timer: null,
  hints: false,
  you_joined: true,
  you_host: true,
  can_start: false,
};

describe("the app's state", () => {
  it("shows connecting, then the lobby, then the game", () => {
    let s = initialState("en");
    expect(screenOf(s)).toBe("connecting");
    s = reduce(s, { t: "welcome", user: { id: "1", name: "Ana" }, locale: "fr", channel_id: "42" });
    expect(s.language).toBe("fr");
    s = reduce(s, { t: "lobby", lobby });
    expect(screenOf(s)).toBe("lobby");
    s = reduce(s, view());
    expect(screenOf(s)).toBe("game");
  });

  it("keeps a running game on screen when a lobby frame comes, and shows a rematch's lobby after the end", () => {
    let s = reduce(initialState("en"), view());
    s = reduce(s, { t: "lobby", lobby });
    expect(screenOf(s)).toBe("game");
    const result = { ranking: [0, 1, 2], totals: [9, 5, 3], favourites: [], black_hats: [], hands: [], teams: null, winners: [0] };
    s = reduce(s, view({ step: 40, result, legal: [] }));
    expect(screenOf(s)).toBe("game");
    s = reduce(s, { t: "lobby", lobby });
    expect(screenOf(s)).toBe("lobby");
  });

  it("marks the slots a new step changed and clears a card that left the hand", () => {
    let s = reduce(initialState("en"), view());
    s = { ...s, selected: "red1" };
    s = reduce(s, view({ step: 18, board: ["red1", "blue2", "green6", "yellow1", "purple3", "brown4"], hand: ["orange2", "green3"] }));
    expect(s.moved).toEqual([1]);
    expect(s.selected).toBeNull();
  });

  it("counts unread team messages while the chat is closed", () => {
    let s = reduce(initialState("en"), view());
    s = reduce(s, { t: "chat", game_id: "12", from: 2, name: "Bo", text: "<b>hi</b>" });
    expect(s.chatUnread).toBe(1);
    expect(s.chat[0]!.text).toBe("<b>hi</b>"); // kept as text; the UI renders it as text
    s = reduce(s, { t: "chat", game_id: "12", from: 2, name: "Bo", text: "again" }, true);
    expect(s.chatUnread).toBe(0);
  });

  it("shows the unsupported message (a DM) instead of anything else", () => {
    const s = reduce(initialState("en"), { t: "unsupported", reason: "dm", message: "Needs a server channel." });
    expect(screenOf(s)).toBe("unsupported");
  });
});

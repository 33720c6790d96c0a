// @vitest-environment happy-dom
/** The people at the table (issue 34 s. 3, 35 s. 9): avatars, Invite, reactions, watchers. */
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Answer, Connection } from "../src/connection";
import { Controller } from "../src/controller";
import type { Request, ServerFrame } from "../src/protocol";
import { AVATAR_COLOURS, avatarColour, initials, REACTION_MS, Social, type DiscordBits } from "../src/social";
import { initialState, reduce, Store } from "../src/store";
import { App } from "../src/ui/App";
import { DiscordContext, SocialContext } from "../src/ui/Avatar";
import { view } from "./fixtures";

function mount(frames: ServerFrame[], bits: Partial<DiscordBits> = {}) {
  let state = initialState("en");
  const social = new Social();
  for (const f of frames) {
    state = reduce(state, f);
    social.receive(f);
  }
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
  const value: DiscordBits = { avatarUrl: null, invite: null, chooseLanguage: null, ...bits };
  act(() =>
    render(
      <DiscordContext.Provider value={value}>
        <SocialContext.Provider value={social}>
          <App ctl={ctl} />
        </SocialContext.Provider>
      </DiscordContext.Provider>,
      root,
    ),
  );
  const q = (sel: string) => root.querySelector(sel) as HTMLElement | null;
  return { root, q, sent, social };
}

afterEach(() => {
  document.body.innerHTML = "";
  vi.useRealTimers();
});

describe("avatars", () => {
  it("load Discord's through the URL mapping; AI seats keep their look; no CDN path: initials", () => {
    const withAvatars = view({ avatars: [null, null, "avatars/90351110224678913/abc.png"] });
    const { q } = mount([withAvatars], { avatarUrl: (p) => `/discord-cdn/${p}?size=64` });
    const bo = q("[data-testid=seat-2] img.avatar") as HTMLImageElement;
    expect(bo.getAttribute("src")).toBe("/discord-cdn/avatars/90351110224678913/abc.png?size=64");
    expect(q("[data-testid=seat-1] [data-avatar=ai]")).not.toBeNull();
    expect(q("[data-testid=mine] [data-avatar=drawn]")!.textContent).toBe("AN");
  });

  it("mark the player to move", () => {
    const { root } = mount([view({ active_seat: 2, to_move: 2 })]);
    const active = root.querySelectorAll(".avatar.active");
    expect(active.length).toBe(1);
    expect(active[0]!.closest("[data-testid=seat-2]")).not.toBeNull();
  });

  it("draw the same colour for the same name, white text at 4.5:1 or more", () => {
    expect(initials("Ana Lopez")).toBe("AL");
    expect(initials("bo")).toBe("BO");
    expect(avatarColour("Ana")).toBe(avatarColour(" ana "));
    expect(AVATAR_COLOURS).toContain(avatarColour("Zoë"));
  });
});

describe("the table bar", () => {
  it("has Invite inside Discord only, and it opens the SDK's dialog", () => {
    const invite = vi.fn(() => Promise.resolve());
    const { q } = mount([view()], { invite });
    act(() => q("[data-testid=invite]")!.click());
    expect(invite).toHaveBeenCalledOnce();
    document.body.innerHTML = "";
    expect(mount([view()]).q("[data-testid=invite]")).toBeNull();
  });

  it("the lobby has Invite too", () => {
    const lobby: ServerFrame = {
      t: "lobby",
      lobby: {
        id: "3", host_id: "1", max_seats: 4, timer: null, hints: false,
        you_joined: true, you_host: true, can_start: false,
        seats: [{ user_id: "1", name: "Ana", ai_level: null, team: null, avatar: null }],
      },
    };
    expect(mount([lobby], { invite: () => Promise.resolve() }).q("[data-testid=invite]")).not.toBeNull();
  });

  it("sends a reaction, and shows one on its seat for a moment", async () => {
    vi.useFakeTimers();
    const { q, sent, social } = mount([view()]);
    act(() => q("[data-testid=react]")!.click());
    await act(async () => q("[data-testid='react-👏']")!.click());
    expect(sent).toEqual([{ t: "react", game_id: "12", emoji: "👏" }]);
    act(() => social.receive({ t: "reaction", game_id: "12", seat: 2, emoji: "👏" }));
    expect(q("[data-testid=reaction-2]")!.textContent).toBe("👏");
    act(() => {
      vi.advanceTimersByTime(REACTION_MS + 10);
    });
    expect(q("[data-testid=reaction-2]")).toBeNull();
  });

  it("counts who watches, and a spectator has no reactions", () => {
    const watching: ServerFrame = {
      t: "watching", game_id: "12", count: 3,
      watchers: [{ name: "Cy", avatar: null }, { name: "Dee", avatar: null }, { name: "Eve", avatar: null }],
    };
    const player = mount([view(), watching]);
    expect(player.q("[data-testid=watching]")!.textContent).toContain("3 watching");
    expect(player.q("[data-testid=watching]")!.getAttribute("aria-label")).toBe("3 watching: Cy, Dee, Eve");
    document.body.innerHTML = "";
    const spectator = mount([view({ seat: null, hand: null, legal: null, blocked: null, own_black_hats: null }), watching]);
    expect(spectator.q("[data-testid=react]")).toBeNull();
  });
});

describe("the Activity's URL mapping of Discord's CDN", () => {
  it("maps an avatar's CDN address onto the Activity's own host under /discord-cdn", async () => {
    const { attemptRemap } = await import("@discord/embedded-app-sdk");
    const { CDN_MAPPING } = await import("../src/social");
    const url = new URL("https://cdn.discordapp.com/avatars/80351110224678912/a_1f.png?size=64");
    const mapped = attemptRemap({ url, mappings: [CDN_MAPPING] });
    expect(mapped.host).toBe(window.location.host);
    expect(mapped.pathname).toBe("/discord-cdn/avatars/80351110224678912/a_1f.png");
    expect(mapped.search).toBe("?size=64");
  });
});

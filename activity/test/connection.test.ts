import { describe, expect, it } from "vitest";
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  BAD_SESSION,
  CONNECT_TIMEOUT_MS,
  Connection,
  type SocketLike,
  type Timers,
} from "../src/connection";
import type { ServerFrame } from "../src/protocol";
import { view } from "./fixtures";

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed: number | null = null;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000): void {
    this.closed = code;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(frame: ServerFrame | Record<string, unknown>): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

class FakeTimers implements Timers {
  time = 0;
  queue: { at: number; fn: () => void; id: number }[] = [];
  private id = 0;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.id;
    this.queue.push({ at: this.time + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }
  now(): number {
    return this.time;
  }
  /** Advance to the next timer and run it; returns the delay waited. */
  next(): number {
    this.queue.sort((a, b) => a.at - b.at);
    const t = this.queue.shift();
    if (!t) throw new Error("no timer");
    const waited = t.at - this.time;
    this.time = t.at;
    t.fn();
    return waited;
  }
}

function setup(opts: { renew?: () => Promise<void>; random?: () => number } = {}) {
  const sockets: FakeSocket[] = [];
  const frames: ServerFrame[] = [];
  const timers = new FakeTimers();
  let session = "s1";
  const conn = new Connection({
    url: "ws://x/ws",
    socket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    hello: () => ({ session, instance_id: "i-9", channel_id: "42", guild_id: "7", locale: "de" }),
    onFrame: (f) => frames.push(f),
    timers,
    random: opts.random ?? (() => 1),
    renewSession:
      opts.renew ??
      (async () => {
        session = "s2";
      }),
  });
  const last = () => sockets[sockets.length - 1]!;
  const welcome = () => last().push({ t: "welcome", user: { id: "1", name: "Ana" }, locale: "de", channel_id: "42" });
  return { conn, sockets, frames, timers, last, welcome };
}

describe("backoff", () => {
  it("doubles from 0.25 s with jitter between half and all of it, capped at 1.5 s", () => {
    expect(backoffDelay(0, () => 1)).toBe(250);
    expect(backoffDelay(0, () => 0)).toBe(125);
    expect(backoffDelay(2, () => 1)).toBe(1000);
    expect(BACKOFF_CAP_MS).toBeLessThanOrEqual(1500); // back within 2 s of the server (issue 35.8)
    expect(backoffDelay(20, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(20, () => 0)).toBe(BACKOFF_CAP_MS / 2);
  });
});

describe("the connection", () => {
  it("says hello first, with the session, channel, guild and locale and no resume", () => {
    const { conn, last } = setup();
    conn.start();
    last().open();
    expect(last().sent).toEqual([
      { t: "hello", session: "s1", instance_id: "i-9", channel_id: "42", guild_id: "7", locale: "de", resume: null },
    ]);
  });

  it("stops after a refusal (4003: not in the Activity instance) and never retries", () => {
    const { conn, sockets, frames, last } = setup();
    conn.start();
    last().open();
    last().push({ t: "unsupported", reason: "not_in_instance", message: "You are not in this Activity" });
    last().drop(4003);
    expect(conn.state.status).toBe("unsupported");
    expect(frames.map((f) => f.t)).toEqual(["unsupported"]);
    conn.start();
    expect(sockets).toHaveLength(1);
  });

  it("stops after a 4003 close that came without its frame too", () => {
    const { conn, sockets, last } = setup();
    conn.start();
    last().open();
    last().drop(4003);
    expect(conn.state).toMatchObject({ status: "unsupported", retryAt: null });
    expect(sockets).toHaveLength(1);
  });

  it("reconnects after a loss with growing delays and resumes from the last view's step", () => {
    const { conn, sockets, timers, last, welcome } = setup();
    conn.start();
    last().open();
    welcome();
    last().push(view({ game_id: "12", step: 17 }));
    expect(conn.state.status).toBe("open");
    last().drop();
    expect(conn.state.status).toBe("waiting");
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      delays.push(timers.next());
      last().drop(); // the bot is still down
    }
    expect(delays).toEqual([250, 500, 1000, 1500]);
    expect(sockets).toHaveLength(5);
    timers.next();
    last().open();
    expect(last().sent[0]).toMatchObject({ t: "hello", resume: { game_id: "12", step: 17 } });
    welcome();
    expect(conn.state).toMatchObject({ status: "open", attempt: 0 });
    last().drop();
    expect(timers.next()).toBe(250); // welcomed: the backoff starts over
  });

  it("matches answers to requests by id and fails what is pending when the socket closes", async () => {
    const { conn, last, welcome } = setup();
    conn.start();
    last().open();
    welcome();
    const first = conn.request({ t: "act", game_id: "12", step: 17, action: { kind: "end_turn" } });
    const second = conn.request({ t: "chat", game_id: "12", text: "hi" });
    const third = conn.request({ t: "hint", game_id: "12" });
    const [a, b, c] = last().sent.slice(1) as { id: number }[];
    expect(new Set([a!.id, b!.id, c!.id]).size).toBe(3);
    last().push({ t: "error", id: b!.id, code: "refused", message: "Nope." });
    last().push({ t: "ack", id: a!.id });
    expect(await first).toMatchObject({ ok: true });
    expect(await second).toEqual({ ok: false, code: "refused", message: "Nope." });
    last().drop();
    expect(await third).toEqual({ ok: false, code: "disconnected", message: null });
  });

  it("sends nothing while not welcomed: a move is never queued for later", async () => {
    const { conn, last } = setup();
    conn.start();
    last().open();
    const answer = await conn.request({ t: "hint", game_id: "12" });
    expect(answer).toMatchObject({ ok: false, code: "disconnected" });
    expect(last().sent).toHaveLength(1); // only the hello
  });

  it("renews the session after a 4001 close, then says hello with the new one at once", async () => {
    const { conn, sockets, last } = setup();
    conn.start();
    last().open();
    last().drop(BAD_SESSION);
    await Promise.resolve();
    await Promise.resolve();
    expect(sockets).toHaveLength(2); // no backoff: a restarted local bot forgot the session
    expect(conn.state.status).toBe("connecting");
    last().open();
    expect(last().sent[0]).toMatchObject({ t: "hello", session: "s2" });
    last().drop(BAD_SESSION); // refused again straight after a renewal: now it waits
    await Promise.resolve();
    await Promise.resolve();
    expect(conn.state.status).toBe("waiting");
    expect(sockets).toHaveLength(2);
  });

  it("is signed out when the session cannot be renewed", async () => {
    const { conn, last } = setup({ renew: () => Promise.reject(new Error("no")) });
    conn.start();
    last().open();
    last().drop(BAD_SESSION);
    await new Promise((r) => setTimeout(r, 0));
    expect(conn.state.status).toBe("signed_out");
  });

  it("stops retrying where the server says the place is unsupported (a DM)", () => {
    const { conn, timers, last } = setup();
    conn.start();
    last().open();
    last().push({ t: "unsupported", reason: "dm", message: "Use a server channel." });
    last().drop();
    expect(conn.state.status).toBe("unsupported");
    expect(timers.queue).toHaveLength(0);
  });

  it("retries at once when asked (the network came back)", () => {
    const { conn, sockets, timers, last } = setup();
    conn.start();
    last().open();
    last().drop();
    conn.retryNow();
    expect(sockets).toHaveLength(2);
    expect(timers.queue.map((t) => t.at)).toEqual([CONNECT_TIMEOUT_MS]); // no retry left waiting
    conn.stop();
    expect(last().closed).toBe(1000);
    expect(conn.state.status).toBe("stopped");
  });

  it("ignores frames that are not JSON objects with a type", () => {
    const { conn, frames, last } = setup();
    conn.start();
    last().open();
    last().onmessage?.({ data: "not json" });
    last().onmessage?.({ data: "[1]" });
    expect(frames).toHaveLength(0);
  });

  it("Try now replaces an attempt the server never answers, at once", () => {
    const { conn, sockets, last } = setup();
    conn.start();
    last().open(); // the TCP side opened, but no welcome comes (a proxy holding the line)
    const hung = last();
    conn.retryNow();
    expect(hung.closed).toBe(1000);
    expect(sockets).toHaveLength(2);
    expect(conn.state.status).toBe("connecting");
    hung.drop(); // the old socket's late close changes nothing
    expect(conn.state.status).toBe("connecting");
  });

  it("abandons an attempt unanswered for 5 s and retries with the short backoff", () => {
    const { conn, sockets, timers, last } = setup();
    conn.start();
    last().open();
    expect(timers.next()).toBe(CONNECT_TIMEOUT_MS);
    expect(sockets[0]!.closed).toBe(1000);
    expect(conn.state.status).toBe("waiting");
    expect(timers.next()).toBe(250);
    expect(sockets).toHaveLength(2);
  });
});

/**
 * The WebSocket client of `hats-activity/1` (docs/ACTIVITY_PROTOCOL.md).
 *
 * One socket at a time. It opens, sends `hello` (with `resume: {game_id, step}` once it has
 * seen a view, so a reconnect picks the game up where it was), numbers requests and matches
 * their `ack` / `error` / `hint` answers, and after a lost connection (network loss, a bot
 * restart) it reconnects by itself with a short capped backoff and jitter (issue 35.8: back
 * within 2 s of the server answering again), and gives up on an attempt that hangs unanswered.
 * A close with code 4001 (forged, expired or replayed session) first renews the session.
 * Timers and the socket are injected, so the tests drive time and frames.
 */
import {
  parseFrame,
  type ClientFrame,
  type Request,
  type Resume,
  type ServerFrame,
} from "./protocol";

/** The part of a browser WebSocket the client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const BROWSER_TIMERS: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as number),
  now: () => Date.now(),
};

const OPEN = 1;
/** Close code of the protocol for a bad session (docs/ACTIVITY_PROTOCOL.md). */
export const BAD_SESSION = 4001;
/**
 * Milliseconds before the first retry, and the cap of the backoff. The cap bounds how long a
 * player waits after the server is back (issue 35.8: at most 2 s, with the connect itself);
 * a refused connection to a restarting bot costs the server nothing, so retrying every
 * 0.75–1.5 s while it is down is cheap, and the jitter still spreads a crowd's returns.
 */
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 1500;
/** An attempt that is neither welcomed nor closed after this long is abandoned and retried. */
export const CONNECT_TIMEOUT_MS = 5000;
/** Close code: Discord does not list this user in the Activity instance; never retried. */
export const NOT_IN_INSTANCE = 4003;

/**
 * Milliseconds to wait before reconnect attempt `attempt` (0 = the first retry): the base
 * doubled per attempt, capped at {@link BACKOFF_CAP_MS}, with "equal jitter" (between half
 * and all of it), so the clients dropped by one bot restart do not all come back in the same
 * instant.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export type ConnStatus =
  | "idle"
  | "connecting"
  | "open"
  | "waiting" // lost; a retry is scheduled
  | "signed_out" // the session could not be renewed
  | "unsupported" // the server said this place is not supported (a DM)
  | "stopped";

export interface ConnState {
  status: ConnStatus;
  /** Failed attempts in a row (0 once welcomed). */
  attempt: number;
  /** When the next retry happens (ms, the timers' clock), while waiting. */
  retryAt: number | null;
}

/** The answer to a request: committed, or refused with the server's words. */
export type Answer =
  | { ok: true; frame: ServerFrame }
  | { ok: false; code: string; message: string | null };

export interface HelloParams {
  session: string;
  instance_id: string | null;
  channel_id: string;
  guild_id: string | null;
  locale: string;
}

export interface ConnectionOptions {
  url: string;
  hello: () => HelloParams;
  socket: (url: string) => SocketLike;
  onFrame: (frame: ServerFrame) => void;
  onState?: (state: ConnState) => void;
  /** Called after a 4001 close; resolves when `hello()` has a fresh session. */
  renewSession?: () => Promise<void>;
  timers?: Timers;
  random?: () => number;
}

interface Pending {
  resolve: (answer: Answer) => void;
}

export class Connection {
  private readonly opts: ConnectionOptions;
  private readonly timers: Timers;
  private socket: SocketLike | null = null;
  private retryTimer: unknown = null;
  private connectTimer: unknown = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private welcomed = false;
  /** The session was renewed since the last welcome. */
  private renewed = false;
  state: ConnState = { status: "idle", attempt: 0, retryAt: null };
  /** The last view seen: sent as `resume` on every (re)connect. */
  resume: Resume | null = null;

  constructor(opts: ConnectionOptions) {
    this.opts = opts;
    this.timers = opts.timers ?? BROWSER_TIMERS;
  }

  /** Open the connection (again); a no-op while one is open or opening. */
  start(): void {
    if (this.state.status === "stopped") this.state = { ...this.state, status: "idle" };
    if (this.socket || this.state.status === "unsupported") return;
    this.clearRetry();
    this.setState({ status: "connecting", retryAt: null });
    let socket: SocketLike;
    try {
      socket = this.opts.socket(this.opts.url);
    } catch {
      this.lost(null);
      return;
    }
    this.socket = socket;
    this.welcomed = false;
    this.connectTimer = this.timers.setTimeout(() => {
      this.connectTimer = null;
      if (this.socket === socket && !this.welcomed) this.abandon(socket);
    }, CONNECT_TIMEOUT_MS);
    socket.onopen = () => {
      if (this.socket !== socket) return;
      const hello: ClientFrame = { t: "hello", ...this.opts.hello(), resume: this.resume };
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (ev) => {
      if (this.socket !== socket || typeof ev.data !== "string") return;
      const frame = parseFrame(ev.data);
      if (frame) this.receive(frame);
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.lost(ev.code);
    };
    socket.onerror = () => {
      /* a close event follows */
    };
  }

  /**
   * Retry now (the network came back, the page became visible, the user tapped "Try now"):
   * skips the wait, and replaces an attempt still unanswered (it may hang on a dead route).
   */
  retryNow(): void {
    const status = this.state.status;
    if (status === "connecting" && this.socket && !this.welcomed) {
      const socket = this.socket;
      this.socket = null;
      this.clearConnectTimer();
      socket.close(1000, "retry");
      this.welcomed = false;
      this.failPending("disconnected");
      this.start();
      return;
    }
    if (status === "waiting" || status === "signed_out") {
      this.clearRetry();
      this.start();
    }
  }

  /** Give up on `socket` (unanswered too long): counts as a lost attempt. */
  private abandon(socket: SocketLike): void {
    this.socket = null;
    socket.close(1000, "timeout");
    this.lost(null);
  }

  /** Close for good (the app is leaving). */
  stop(): void {
    this.clearRetry();
    this.clearConnectTimer();
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, "bye");
    this.failPending("disconnected");
    this.setState({ status: "stopped", retryAt: null });
  }

  /** Whether requests can be sent now (open and welcomed). */
  get ready(): boolean {
    return this.welcomed && this.socket?.readyState === OPEN;
  }

  /**
   * Send `request` with a fresh id; resolves with the server's `ack` (or `hint`), or its
   * `error` (code and message in the player's language), or `disconnected` when the socket is
   * not open or closes first. Nothing is queued: a move made while offline is not replayed
   * later against a game that moved on.
   */
  request(request: Request): Promise<Answer> {
    const socket = this.socket;
    if (!this.ready || !socket) {
      return Promise.resolve({ ok: false, code: "disconnected", message: null });
    }
    const id = this.nextId++;
    return new Promise<Answer>((resolve) => {
      this.pending.set(id, { resolve });
      socket.send(JSON.stringify({ ...request, id }));
    });
  }

  private receive(frame: ServerFrame): void {
    switch (frame.t) {
      case "welcome":
        this.welcomed = true;
        this.renewed = false;
        this.clearConnectTimer();
        this.setState({ status: "open", attempt: 0, retryAt: null });
        break;
      case "view":
        this.resume = { game_id: frame.game_id, step: frame.step };
        break;
      case "unsupported":
        this.clearRetry();
        this.setState({ status: "unsupported", retryAt: null });
        break;
      case "ack":
      case "hint":
      case "error": {
        const id = frame.id;
        const waiting = typeof id === "number" ? this.pending.get(id) : undefined;
        if (waiting && typeof id === "number") {
          this.pending.delete(id);
          waiting.resolve(
            frame.t === "error"
              ? { ok: false, code: frame.code, message: frame.message }
              : { ok: true, frame },
          );
        }
        break;
      }
      default:
        break;
    }
    this.opts.onFrame(frame);
  }

  private lost(code: number | null): void {
    this.welcomed = false;
    this.clearConnectTimer();
    this.failPending("disconnected");
    const status = this.state.status;
    if (status === "stopped" || status === "unsupported") return;
    if (code === NOT_IN_INSTANCE) {
      // refused by the server (its `unsupported` frame, shown as a page, says why)
      this.setState({ status: "unsupported", retryAt: null });
      return;
    }
    if (code === BAD_SESSION && this.opts.renewSession) {
      // A fresh session is worth trying at once (a restarted local bot forgets every
      // session); a second 4001 straight after a renewal waits out the backoff instead.
      const again = this.renewed;
      this.setState({ status: "connecting", retryAt: null });
      this.opts.renewSession().then(
        () => {
          this.renewed = true;
          if (again) this.schedule();
          else this.start();
        },
        () => this.setState({ status: "signed_out", retryAt: null }),
      );
      return;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.state.status === "stopped") return;
    const attempt = this.state.attempt;
    const delay = backoffDelay(attempt, this.opts.random);
    this.clearRetry();
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.start();
    }, delay);
    this.setState({ status: "waiting", attempt: attempt + 1, retryAt: this.timers.now() + delay });
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) {
      this.timers.clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
  }

  private clearConnectTimer(): void {
    if (this.connectTimer !== null) {
      this.timers.clearTimeout(this.connectTimer);
      this.connectTimer = null;
    }
  }

  private failPending(code: string): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.resolve({ ok: false, code, message: null });
  }

  private setState(patch: Partial<ConnState>): void {
    this.state = { ...this.state, ...patch };
    this.opts.onState?.(this.state);
  }
}

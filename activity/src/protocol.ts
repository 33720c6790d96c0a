/**
 * The frames of `hats-activity/1` (docs/ACTIVITY_PROTOCOL.md), as TypeScript types.
 *
 * Ids of Discord objects are strings of digits; times are unix seconds; cards are codes
 * `<type><value>` (R1); seats are 0-based; board slots 1–6 (R2).
 */

export const PROTOCOL = "hats-activity/1";

/** A card code such as `red5` (R1). */
export type CardCode = string;

export type Language = "en" | "de" | "es" | "fr" | "it";
export type AiLevel = "easy" | "normal" | "hard" | "expert";

/** The engine's action dicts (the `action` of an `act` frame). */
export type Action =
  | { kind: "exchange"; card: CardCode; slot: number }
  | { kind: "black_hat"; card: CardCode }
  | { kind: "discard"; card: CardCode }
  | { kind: "offer_swap"; card: CardCode }
  | { kind: "answer_swap"; card: CardCode }
  | { kind: "decline_swap" }
  | { kind: "withdraw_swap" }
  | { kind: "end_turn" };

export type ActionKind = Action["kind"];

export interface User {
  id: string;
  name: string;
}

export interface PendingSwap {
  offerer: number;
  partner: number;
  /** Only in the offerer's own view. */
  card?: CardCode | null;
}

export interface GameEvent {
  number: number;
  seat: number | null;
  /** The step's action kind (turn ends are not sent: one line per move). */
  kind?: ActionKind;
  /** An exchange's slot (1-based, R7); null otherwise. */
  slot?: number | null;
  text: string;
}

export interface GameResult {
  ranking: number[];
  /** Each seat's 1-based place from the engine's standings (tied seats share one, R19-R20). */
  places?: number[];
  totals: number[];
  favourites: CardCode[];
  black_hats: CardCode[][];
  hands: CardCode[][];
  teams: number[][] | null;
  winners: number[];
  /** Each seat's points by the rules' parts (R16–R19); they add up to `total`. */
  breakdown?: ScoreParts[];
  team_totals?: number[] | null;
  /** What decided the winner (R19, R20). */
  tie_break?: "score" | "black_hats" | "cookie" | "shared";
  cookie?: number | null;
}

/** One seat's score at the end: face-up collection (R16), black hats (R16), favourite (R17), cookie (R18). */
export interface ScoreParts {
  collection: number;
  black_hats: number;
  favourite: number;
  cookie: number;
  total: number;
}

/** The per-viewer `view` frame: a seated player's own observation or the public table. */
export interface View {
  t: "view";
  game_id: string;
  step: number;
  /** The viewer's seat; null for a spectator. */
  seat: number | null;
  names: string[];
  ai: (AiLevel | null)[];
  /** Each seat's avatar: a path on Discord's CDN, or null (an AI, a local player). */
  avatars?: (string | null)[];
  teams: number[][] | null;
  board: CardCode[];
  hand: CardCode[] | null;
  own_black_hats: CardCode[] | null;
  hand_sizes: number[];
  collections: CardCode[][];
  black_hat_counts: number[];
  deck_size: number;
  discard_size: number;
  cookie: number | null;
  /** Each seat's score as the rules count it now (public: the favourite is not in it); the totals after the end. */
  scores?: number[];
  active_seat: number;
  to_move: number;
  round: number;
  main_done: boolean;
  optional_used: boolean;
  pending_swap: PendingSwap | null;
  deadline: number | null;
  auto_end: boolean;
  hints: boolean;
  legal: Action[] | null;
  blocked: Record<CardCode, string> | null;
  events: GameEvent[];
  result: GameResult | null;
}

export interface LobbySeat {
  user_id: string | null;
  name: string;
  ai_level: AiLevel | null;
  team: 0 | 1 | null;
  /** A path on Discord's CDN, or null (an AI, a local player). */
  avatar?: string | null;
}

export interface Lobby {
  id: string;
  host_id: string;
  seats: LobbySeat[];
  max_seats: number;
  timer: number | null;
  hints: boolean;
  you_joined: boolean;
  you_host: boolean;
  can_start: boolean;
  /** False in a DM or group DM (issue 34.2): ratings are per server. */
  rated?: boolean;
  /** Says why the game is unrated, in the player's language (null in a server). */
  note?: string | null;
}

export type ErrorCode =
  | "bad_frame"
  | "too_big"
  | "rate_limited"
  | "not_signed_in"
  | "unknown_game"
  | "not_your_seat"
  | "not_your_turn"
  | "out_of_date"
  | "illegal"
  | "game_over"
  | "refused"
  | "store_failed";

export type ServerFrame =
  | {
      t: "welcome";
      user: User;
      locale: Language;
      channel_id: string;
      place?: "server" | "private";
      texts?: Record<string, string>;
    }
  | { t: "unsupported"; reason: string; message: string }
  | { t: "lobby"; lobby: Lobby | null }
  | View
  | { t: "ack"; id: number }
  | { t: "error"; id?: number | null; code: ErrorCode | string; message: string }
  | { t: "hint"; id?: number | null; text: string; action: Action | null }
  | { t: "chat"; game_id: string; from: number; name: string; text: string }
  | Watching
  | { t: "reaction"; game_id: string; seat: number; emoji: string };

/** Who watches a game without a seat: the count, and the first few by name. */
export interface Watching {
  t: "watching";
  game_id: string;
  count: number;
  watchers: { name: string; avatar: string | null }[];
}

export type LobbyOp =
  | { op: "open" }
  | { op: "join" }
  | { op: "leave" }
  | { op: "team"; team: 0 | 1 }
  | { op: "shuffle" }
  | { op: "ai_add"; level: AiLevel }
  | { op: "ai_remove" }
  | { op: "timer"; seconds: number }
  | { op: "hints"; on: boolean }
  | { op: "start" }
  | { op: "cancel" };

export interface Resume {
  game_id: string;
  step: number;
}

export type ClientFrame =
  | {
      t: "hello";
      session: string;
      /** The SDK's `instanceId`: the server asks Discord where it runs and who is in it. */
      instance_id: string | null;
      channel_id: string;
      guild_id: string | null;
      locale: string;
      resume: Resume | null;
    }
  | { t: "act"; id?: number; game_id: string; step: number; action: Action }
  | { t: "auto_end"; id?: number; game_id: string; on: boolean }
  | { t: "hint"; id?: number; game_id: string }
  | { t: "chat"; id?: number; game_id: string; text: string }
  | ({ t: "lobby"; id?: number } & LobbyOp)
  | { t: "rematch"; id?: number; game_id: string }
  | { t: "react"; id?: number; game_id: string; emoji: string };

/** A request frame without its `id` (the connection numbers requests). */
export type Request = ClientFrame extends infer F
  ? F extends { t: "hello" }
    ? never
    : F extends { id?: number }
      ? Omit<F, "id">
      : never
  : never;

/** Sign-in answers (HTTP). */
export interface Config {
  client_id: string;
  local: boolean;
  protocol: string;
}

export interface SessionAnswer {
  session: string;
  user: User;
  expires_at: number;
  access_token?: string;
}

/** Parses a frame's text; null when it is not a JSON object with a string `t`. */
export function parseFrame(text: string): ServerFrame | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const t = (data as { t?: unknown }).t;
  return typeof t === "string" ? (data as ServerFrame) : null;
}

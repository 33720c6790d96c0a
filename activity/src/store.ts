/**
 * The app's state: what the server last pushed (welcome, lobby, view), the connection's
 * state, the team chat, the card the player selected and the one-line notice. Frames come in
 * through `receive`; the UI reads `state` and subscribes to changes.
 */
import type { ConnState } from "./connection";
import { changedSlots, keepSelection } from "./legal";
import { movesBetween } from "./motion";
import { cueOf } from "./turn";
import type { Action, CardCode, Language, Lobby, ServerFrame, User, View } from "./protocol";

export interface ChatLine {
  key: number;
  from: number | null;
  name: string;
  text: string;
  /** A refusal of the table-talk guard (shown in the chat, not sent). */
  error?: boolean;
}

export interface Notice {
  text: string;
  kind: "info" | "error";
}

export type Screen = "connecting" | "lobby" | "game" | "unsupported";

export interface State {
  conn: ConnState;
  user: User | null;
  language: Language;
  /** The channel's lobby (null: none); undefined until the server said. */
  lobby: Lobby | null | undefined;
  view: View | null;
  /** Board slots the last move changed: marked until the next move (issue 35.5). */
  moved: number[];
  /** The kind of the last lobby/view frame: a lobby after a finished game shows the lobby. */
  showing: "lobby" | "view" | null;
  selected: CardCode | null;
  notice: Notice | null;
  hint: Action | null;
  /** The turn (turn.ts cue key) whose one hint the player had (issue 35.10). */
  hintTurn: string | null;
  chat: ChatLine[];
  chatUnread: number;
  unsupported: string | null;
}

export function initialState(language: Language): State {
  return {
    conn: { status: "idle", attempt: 0, retryAt: null },
    user: null,
    language,
    lobby: undefined,
    view: null,
    moved: [],
    showing: null,
    selected: null,
    notice: null,
    hint: null,
    hintTurn: null,
    chat: [],
    chatUnread: 0,
    unsupported: null,
  };
}

/** Which screen `state` shows. */
export function screenOf(state: State): Screen {
  if (state.unsupported !== null) return "unsupported";
  const view = state.view;
  if (view && (view.result === null || state.showing === "view")) return "game";
  if (state.lobby !== undefined) return "lobby";
  return view ? "game" : "connecting";
}

let chatKey = 0;

/**
 * The slots marked after a new step: the ones it changed; none after a move that changed no
 * slot (a black hat, a discard); else the marks stay (a turn's end, a swap): a changed slot
 * stays marked until the next move.
 */
/** The slot of the view's last move when it was an exchange (a game opened mid-way). */
function lastMoveSlots(view: View): number[] {
  const last = [...view.events].reverse().find((e) => e.kind === "exchange" || e.kind === "black_hat" || e.kind === "discard");
  return last?.kind === "exchange" && last.slot ? [last.slot] : [];
}

function markedSlots(marked: number[], before: View | null, after: View): number[] {
  const changed = changedSlots(before, after);
  if (changed.length) return changed;
  return movesBetween(before, after).length ? [] : marked;
}

/** `state` after the server's `frame` (pure: returns a new state). */
export function reduce(state: State, frame: ServerFrame, chatOpen = false): State {
  switch (frame.t) {
    case "welcome":
      return { ...state, user: frame.user, language: frame.locale };
    case "unsupported":
      return { ...state, unsupported: frame.message };
    case "lobby":
      return { ...state, lobby: frame.lobby, showing: "lobby" };
    case "view": {
      const before = state.view;
      const sameStep = before?.game_id === frame.game_id && before.step === frame.step;
      const newGame = before?.game_id !== frame.game_id;
      return {
        ...state,
        view: frame,
        showing: "view",
        moved: newGame ? lastMoveSlots(frame) : sameStep ? state.moved : markedSlots(state.moved, before, frame),
        selected: keepSelection(frame, state.selected),
        hint: sameStep ? state.hint : null,
        // a refusal or hint stays until tapped (issue 35.3); another game clears it
        notice: newGame ? null : state.notice,
        chat: newGame ? [] : state.chat,
        chatUnread: newGame ? 0 : state.chatUnread,
      };
    }
    case "chat": {
      const line: ChatLine = { key: ++chatKey, from: frame.from, name: frame.name, text: frame.text };
      return {
        ...state,
        chat: [...state.chat.slice(-49), line],
        chatUnread: chatOpen ? 0 : state.chatUnread + 1,
      };
    }
    case "hint":
      return {
        ...state,
        hint: frame.action,
        hintTurn: cueOf(state.view)?.key ?? state.hintTurn,
        notice: { text: frame.text, kind: "info" },
      };
    case "error":
      // a request's refusal is shown by whoever sent it; an error without id here
      return typeof frame.id === "number"
        ? state
        : { ...state, notice: { text: frame.message, kind: "error" } };
    default:
      return state;
  }
}

/** A tiny observable holder of the state. */
export class Store {
  state: State;
  private readonly listeners = new Set<() => void>();

  constructor(state: State) {
    this.state = state;
  }

  set(next: State): void {
    if (next === this.state) return;
    this.state = next;
    for (const fn of this.listeners) fn();
  }

  update(fn: (s: State) => State): void {
    this.set(fn(this.state));
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

export function addChatLine(state: State, line: Omit<ChatLine, "key">): State {
  return { ...state, chat: [...state.chat.slice(-49), { ...line, key: ++chatKey }] };
}

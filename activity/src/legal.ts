/**
 * What the viewer may do, read from the view's `legal` (the engine's legal actions for the
 * viewer's seat) and `blocked` (why a card cannot take some slots, in the viewer's language).
 * No rules are computed here: the server's engine decides (R7–R11); this only maps taps to
 * those actions. Pure functions, unit-tested.
 */
import type { Action, CardCode, View } from "./protocol";

/** What one selected hand card can do now. */
export interface Targets {
  /** Board slots (1–6) it may be exchanged with (R7). */
  slots: number[];
  /** It may be played face down as a black hat (R8). */
  blackHat: boolean;
  /** It may be discarded for a new card (R9, 2–3 players). */
  discard: boolean;
  /** It may be offered to the partner (R10, 4 players). */
  offer: boolean;
  /** It may be given back to the partner who offered a swap (R10). */
  answer: boolean;
}

const NONE: Targets = { slots: [], blackHat: false, discard: false, offer: false, answer: false };

function legalOf(view: View | null): Action[] {
  return view?.legal ?? [];
}

/** What `card` may do in `view` (nothing for a spectator or off turn). */
export function targetsFor(view: View | null, card: CardCode | null): Targets {
  if (!view || card === null) return NONE;
  const t: Targets = { slots: [], blackHat: false, discard: false, offer: false, answer: false };
  for (const a of legalOf(view)) {
    if (!("card" in a) || a.card !== card) continue;
    if (a.kind === "exchange") t.slots.push(a.slot);
    else if (a.kind === "black_hat") t.blackHat = true;
    else if (a.kind === "discard") t.discard = true;
    else if (a.kind === "offer_swap") t.offer = true;
    else if (a.kind === "answer_swap") t.answer = true;
  }
  t.slots.sort((a, b) => a - b);
  return t;
}

/** Hand cards that take part in at least one legal action (the rest are dimmed). */
export function playableCards(view: View | null): Set<CardCode> {
  const out = new Set<CardCode>();
  for (const a of legalOf(view)) if ("card" in a) out.add(a.card);
  return out;
}

/** Whether an action of `kind` without a card is legal now (end turn, decline, withdraw). */
export function canDo(view: View | null, kind: "end_turn" | "decline_swap" | "withdraw_swap"): boolean {
  return legalOf(view).some((a) => a.kind === kind);
}

/** The viewer must answer a partner's swap offer now (choose a card to give back, or decline). */
export function answering(view: View | null): boolean {
  return legalOf(view).some((a) => a.kind === "answer_swap" || a.kind === "decline_swap");
}

/** The viewer has something to do now. */
export function myMove(view: View | null): boolean {
  return legalOf(view).length > 0;
}

/** The answer to tapping board slot `slot` with `card` selected. */
export type SlotTap =
  | { ok: true; action: Action }
  | { ok: false; reason: "no_card" | "not_your_move" | "blocked"; message: string | null };

/**
 * A tap on `slot` with `card` selected: the exchange when it is legal, else why not in one
 * line (the view's `blocked` text for that card, which names the slots it cannot take).
 */
export function tapSlot(view: View | null, card: CardCode | null, slot: number): SlotTap {
  if (!view || !myMove(view)) return { ok: false, reason: "not_your_move", message: null };
  if (card === null) return { ok: false, reason: "no_card", message: null };
  if (targetsFor(view, card).slots.includes(slot)) {
    return { ok: true, action: { kind: "exchange", card, slot } };
  }
  return { ok: false, reason: "blocked", message: view.blocked?.[card] ?? null };
}

/**
 * The card selected after a new view: kept when it is still in hand and still playable,
 * else none (a card that left the hand, or a turn that ended, clears the choice).
 */
export function keepSelection(view: View | null, card: CardCode | null): CardCode | null {
  if (card === null || !view?.hand?.includes(card)) return null;
  return playableCards(view).has(card) ? card : null;
}

/** The board slots whose card changed between two views of one game (for the animation). */
export function changedSlots(before: View | null, after: View): number[] {
  if (!before || before.game_id !== after.game_id) return [];
  const out: number[] = [];
  after.board.forEach((card, i) => {
    if (before.board[i] !== card) out.push(i + 1);
  });
  return out;
}

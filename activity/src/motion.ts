/**
 * What just happened, shown (issue 35.5): the moves between two views of one game, and their
 * motion on screen. An exchange's card travels from the player to its slot and the taken card
 * from the slot to their collection (R7); a black hat goes face down into the player's
 * collection (R8); a discard goes to the discard pile and a card comes from the deck (R9).
 * Under `prefers-reduced-motion` nothing travels: the changed slot and the player's seat are
 * highlighted instead (the slot's mark stays until the next move either way).
 *
 * `movesBetween` is pure (unit-tested); `playMoves` drives the DOM with the Web Animations API
 * (flying copies of the cards on a fixed layer above the table; the real cards appear when
 * their copy lands), so no layout or grid of the game screen changes.
 */
import type { ActionKind, CardCode, View } from "./protocol";

/** One move to show. */
export interface Move {
  /** The step's event number (unique within a game). */
  number: number;
  seat: number;
  kind: "exchange" | "black_hat" | "discard";
  /** The exchange's slot (1-based). */
  slot: number | null;
  /** The card that went onto the slot (an exchange), as the board now shows it. */
  played: CardCode | null;
  /** The card taken from the slot into the player's collection (an exchange). */
  taken: CardCode | null;
}

const SHOWN: ReadonlySet<ActionKind> = new Set(["exchange", "black_hat", "discard"]);

/**
 * The moves that `after` shows and `before` did not (new events of one game, oldest first),
 * with the cards of each exchange read from the two boards. Empty for the first view, a new
 * game, the same step again, or a server that sends no `kind` (then `changedSlots` marks).
 */
export function movesBetween(before: View | null, after: View): Move[] {
  if (!before || before.game_id !== after.game_id || after.step <= before.step) return [];
  const seen = before.events.reduce((n, e) => Math.max(n, e.number), -1);
  const fresh = after.events.filter((e) => e.number > seen && e.kind !== undefined && SHOWN.has(e.kind));
  const lastBySlot = new Map<number, number>();
  for (const e of fresh) if (e.kind === "exchange" && e.slot) lastBySlot.set(e.slot, e.number);
  return fresh.map((e) => {
    const slot = e.kind === "exchange" && e.slot ? e.slot : null;
    // One slot taken twice within one frame: only the last exchange's card is on the board.
    const last = slot !== null && lastBySlot.get(slot) === e.number;
    return {
      number: e.number,
      seat: e.seat ?? after.active_seat,
      kind: e.kind as Move["kind"],
      slot,
      played: slot !== null && last ? (after.board[slot - 1] ?? null) : null,
      taken: slot !== null ? (before.board[slot - 1] ?? null) : null,
    };
  });
}

/** Milliseconds of one card's flight, and between two moves of one frame. */
export const FLIGHT_MS = 480;
export const STAGGER_MS = 520;

function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function centre(r: DOMRect): { x: number; y: number } {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Where a seat sits on screen: the hand for the viewer, else the seat's panel. */
function seatBox(root: HTMLElement, seat: number, viewer: number | null): HTMLElement | null {
  if (seat === viewer) return root.querySelector<HTMLElement>("[data-testid=hand]");
  return root.querySelector<HTMLElement>(`[data-testid=seat-${seat}]`);
}

/** Where a seat's collection is on screen (its chips). */
function collectionBox(root: HTMLElement, seat: number, viewer: number | null): HTMLElement | null {
  const box = seat === viewer ? root.querySelector<HTMLElement>("[data-testid=mine]") : seatBox(root, seat, viewer);
  return box?.querySelector<HTMLElement>(".chips:not(.blacks)") ?? box ?? null;
}

/**
 * Flies a copy of `face` (an svg) from `from` to `to` (boxes on screen), sized from the
 * source box to the target's; `hide` (the real card) is invisible until the copy lands.
 */
function fly(
  layer: HTMLElement,
  face: Element,
  from: DOMRect,
  to: DOMRect,
  delay: number,
  opts: { hide?: HTMLElement | null; flip?: boolean; fade?: boolean; kind: string; scale?: number },
): void {
  const w = to.width || 40;
  const h = to.height || 52;
  const copy = document.createElement("div");
  copy.className = `flyer ${opts.kind}`;
  copy.setAttribute("aria-hidden", "true");
  copy.style.width = `${w}px`;
  copy.style.height = `${h}px`;
  copy.style.left = `${to.left}px`;
  copy.style.top = `${to.top}px`;
  copy.appendChild(face.cloneNode(true));
  layer.appendChild(copy);
  const a = centre(from);
  const b = centre(to);
  const scale = opts.scale ?? Math.max(0.4, Math.min(2.5, (from.width || w) / w));
  const start = `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})${opts.flip ? " rotateY(180deg)" : ""}`;
  const hide = opts.hide;
  if (hide) hide.style.visibility = "hidden";
  const anim = copy.animate(
    [
      { transform: start, opacity: 0.85 },
      { transform: "translate(0, 0) scale(1.08)", opacity: 1, offset: 0.85 },
      { transform: "none", opacity: opts.fade ? 0 : 1 },
    ],
    { duration: FLIGHT_MS, delay, easing: "cubic-bezier(0.3, 0.7, 0.3, 1)", fill: "backwards" },
  );
  const done = () => {
    copy.remove();
    if (hide) hide.style.visibility = "";
  };
  anim.onfinish = done;
  anim.oncancel = done;
}

function flash(el: Element | null, delay: number): void {
  if (!el) return;
  el.classList.remove("just-moved");
  setTimeout(() => {
    el.classList.add("just-moved");
    setTimeout(() => el.classList.remove("just-moved"), 1600);
  }, delay);
}

/**
 * Shows `moves` on the game screen `root` (viewer: the viewer's seat). Returns how many
 * flights started (0 under reduced motion, where seats and slots are only highlighted).
 */
export function playMoves(root: HTMLElement, moves: Move[], viewer: number | null): number {
  if (!moves.length) return 0;
  const still = reducedMotion() || typeof Element.prototype.animate !== "function";
  let flights = 0;
  let layer = document.getElementById("flight-layer");
  if (!still && !layer) {
    layer = document.createElement("div");
    layer.id = "flight-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
  }
  moves.forEach((move, i) => {
    const delay = i * STAGGER_MS;
    const seat = seatBox(root, move.seat, viewer);
    if (move.seat !== viewer) flash(seat, delay);
    if (still || !layer || !seat) return;
    const from = seat.getBoundingClientRect();
    if (move.kind === "exchange" && move.slot !== null) {
      const slot = root.querySelector<HTMLElement>(`[data-testid=slot-${move.slot}] .face`);
      if (slot && move.played) {
        fly(layer, slot, from, slot.getBoundingClientRect(), delay, { hide: slot, kind: "played", scale: 0.7 });
        flights++;
      }
      const chips = collectionBox(root, move.seat, viewer);
      const chip = chips?.querySelector<HTMLElement>(`[data-card="${move.taken}"]`) ?? null;
      if (slot && chips) {
        const face = chip ?? slot;
        const target = (chip ?? chips).getBoundingClientRect();
        fly(layer, face, slot.getBoundingClientRect(), target, delay + FLIGHT_MS * 0.7, { hide: chip, kind: "taken" });
        flights++;
      }
    } else if (move.kind === "black_hat") {
      // the viewer's own black hats, or the seat's black-hat count (the second count)
      const box =
        move.seat === viewer
          ? root.querySelector<HTMLElement>("[data-testid=mine] .blacks")
          : seat.querySelector<HTMLElement>(".counts .count:last-child");
      const faces = box?.querySelectorAll<HTMLElement>(".face.black");
      const black = faces?.length ? faces[faces.length - 1]! : null;
      if (box && black) {
        fly(layer, black, from, black.getBoundingClientRect(), delay, { flip: true, kind: "black-hat", scale: 1.8 });
        flights++;
      }
    } else if (move.kind === "discard") {
      const pile = document.querySelector<HTMLElement>("[data-testid=header] .icon.discard");
      const back = root.querySelector<HTMLElement>(".face.back") ?? document.querySelector<HTMLElement>(".face");
      if (pile && back) {
        fly(layer, back, from, pile.getBoundingClientRect(), delay, { fade: true, kind: "discard", scale: 2 });
        const deck = document.querySelector<HTMLElement>("[data-testid=header] .icon.deck");
        const hand = move.seat === viewer ? root.querySelector<HTMLElement>("[data-testid=hand]") : seat;
        if (deck && hand) {
          const to = hand.getBoundingClientRect();
          const land = new DOMRect(to.left + to.width / 2 - 15, to.top + to.height / 2 - 20, 30, 40);
          fly(layer, back, deck.getBoundingClientRect(), land, delay + FLIGHT_MS * 0.6, { fade: true, kind: "draw", scale: 0.5 });
        }
        flights += deck ? 2 : 1;
      }
    }
  });
  return flights;
}

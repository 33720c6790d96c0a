/**
 * When the game waits for the viewer (issue 35.4): the cue's kind and a key that changes each
 * time the turn (or a partner's swap offer) comes to them, and how much of the turn timer is
 * left as a fraction for the ring. Pure, unit-tested; TurnCue.tsx shows it.
 */
import { answering, myMove } from "./legal";
import type { View } from "./protocol";

export interface Cue {
  /** "turn": the viewer's own turn; "answer": their partner's swap offer awaits their answer (R10). */
  kind: "turn" | "answer";
  /** Changes whenever the game comes to the viewer anew (one cue per key). */
  key: string;
}

/** The cue for `view`, or null when the game does not wait for the viewer. */
export function cueOf(view: View | null): Cue | null {
  if (!view || view.result !== null || view.seat === null || !myMove(view)) return null;
  const kind = answering(view) ? "answer" : "turn";
  return { kind, key: `${view.game_id}:${view.round}:${view.active_seat}:${kind}` };
}

/** The fraction (0–1) of the turn left: `left` of `total` seconds (1 when the total is unknown). */
export function ringFraction(left: number, total: number): number {
  if (!(total > 0)) return 1;
  return Math.max(0, Math.min(1, left / total));
}

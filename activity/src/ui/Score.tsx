/**
 * The running score (issue 35.2): each seat's points as the rules count them at this step,
 * sent by the server (`view.scores`, the engine's provisional_scores: public information only,
 * the favourite hat being hidden until the end). The client adds nothing of its own.
 */
import type { JSX } from "preact";
import type { View } from "../protocol";
import { useApp } from "./context";

/** Seat `seat`'s running score as a pill ("12 points"); nothing when the server sent none. */
export function ScorePill({ view, seat, mine = false }: { view: View; seat: number; mine?: boolean }): JSX.Element | null {
  const { tr } = useApp();
  const score = view.scores?.[seat];
  if (score === undefined) return null;
  const points = tr.plural("{n} point", "{n} points", score);
  return (
    <span
      class={`score${mine ? " own" : ""}`}
      data-testid={`score-${seat}`}
      data-score={score}
      data-step={view.step}
      role="img"
      aria-label={tr.t("Score now: {points}", { points })}
    >
      {points}
    </span>
  );
}

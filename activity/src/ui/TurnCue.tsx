/**
 * Your turn, impossible to miss (issue 35.4): a banner with a motion cue when the game comes
 * to the viewer (their turn, or a partner's swap offer to answer, R10), a short chime and
 * buzz (sound.ts; one tap mutes, remembered), the document's title, and the turn timer as a
 * ring that empties as the time runs out.
 */
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { View } from "../protocol";
import { setSoundOn, soundOn, turnChime, unlockAudio } from "../sound";
import { cueOf, ringFraction, type Cue } from "../turn";
import { useApp } from "./context";

/** How long the banner stays (ms). */
export const CUE_MS = 2600;
const TITLE = "Hats";

/** The banner, the chime and the title; renders nothing while the game waits for others. */
export function TurnCue({ view }: { view: View }): JSX.Element | null {
  const { tr } = useApp();
  const cue = cueOf(view);
  const key = cue?.key ?? null;
  const [shown, setShown] = useState<Cue | null>(null);
  const last = useRef<string | null>(null);
  useEffect(() => {
    const unlock = () => unlockAudio();
    window.addEventListener("pointerdown", unlock, true);
    window.addEventListener("keydown", unlock, true);
    return () => {
      window.removeEventListener("pointerdown", unlock, true);
      window.removeEventListener("keydown", unlock, true);
      document.title = TITLE;
    };
  }, []);
  useEffect(() => {
    if (key === last.current) return undefined;
    last.current = key;
    if (!cue) {
      setShown(null);
      return undefined;
    }
    setShown(cue);
    turnChime();
    const timer = setTimeout(() => setShown(null), CUE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  useEffect(() => {
    document.title = cue ? `▶ ${tr.t(cue.kind === "answer" ? "Your answer is awaited" : "Your turn")} · ${TITLE}` : TITLE;
  }, [key, tr]);
  if (!shown) return null;
  const offerer = view.pending_swap ? (view.names[view.pending_swap.offerer] ?? "") : "";
  return (
    <div class={`turn-cue ${shown.kind}`} data-testid="turn-cue" data-kind={shown.kind} aria-hidden="true">
      <strong>{tr.t(shown.kind === "answer" ? "Your answer is awaited" : "Your turn")}</strong>
      {shown.kind === "answer" && offerer ? <span>{tr.t("{offerer} offers you a card swap.", { offerer })}</span> : null}
    </div>
  );
}

/** The one-tap mute of the turn's chime and buzz (remembered). */
export function SoundToggle(): JSX.Element {
  const { tr } = useApp();
  const [on, setOn] = useState(soundOn);
  const label = tr.t("Sound and vibration on my turn");
  return (
    <button
      type="button"
      class="tool"
      data-testid="sound"
      aria-pressed={on}
      aria-label={label}
      title={label}
      onClick={() => {
        setSoundOn(!on);
        setOn(!on);
      }}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
        <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
        <path d="M10 20a2 2 0 0 0 4 0" />
        {on ? <path d="M20.5 7.5a9 9 0 0 0-2-3M3.5 7.5a9 9 0 0 1 2-3" /> : <path d="M3 3l18 18" stroke-width="2.5" />}
      </svg>
    </button>
  );
}

const RING = 2 * Math.PI * 15; // the ring's circumference in its 36 × 36 viewBox

/**
 * The turn timer: the time left as m:ss inside a ring that empties. The turn's length is the
 * time from when this deadline was first seen to the deadline (the view says only when the
 * turn ends), so a player who joins mid-turn sees the rest as a full ring.
 */
export function TurnTimer({ deadline, left }: { deadline: number; left: number }): JSX.Element {
  const { tr } = useApp();
  const seen = useRef<{ deadline: number; total: number } | null>(null);
  if (!seen.current || seen.current.deadline !== deadline) seen.current = { deadline, total: Math.max(left, 1) };
  const fraction = ringFraction(left, seen.current.total);
  return (
    <span
      class={`timer${left <= 10 ? " urgent" : ""}`}
      data-testid="timer"
      data-fraction={fraction.toFixed(2)}
      role="timer"
      aria-label={tr.t("Time left: {time}", { time: tr.duration(left) })}
    >
      <svg class="ring" viewBox="0 0 36 36" aria-hidden="true" focusable="false">
        <circle class="ring-track" cx="18" cy="18" r="15" />
        <circle class="ring-left" cx="18" cy="18" r="15" stroke-dasharray={`${RING}`} stroke-dashoffset={`${RING * (1 - fraction)}`} />
      </svg>
      <span class="time">
        {Math.floor(left / 60)}:{String(left % 60).padStart(2, "0")}
      </span>
    </span>
  );
}

/**
 * The turn's sound and vibration (issue 35.4): a short two-note chime synthesized with
 * WebAudio (no file to download) and a short buzz where the phone allows it
 * (`navigator.vibrate`). On by default; one tap mutes both, remembered in localStorage.
 * Browsers let audio start only after a gesture: the context is made on the first tap or key.
 */

const KEY = "hats.sound";

function store(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Whether the turn cue may sound and vibrate (on unless the player muted it). */
export function soundOn(): boolean {
  return store()?.getItem(KEY) !== "off";
}

/** Remember the player's choice. */
export function setSoundOn(on: boolean): void {
  try {
    store()?.setItem(KEY, on ? "on" : "off");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  muted = !on;
}

let muted = false;
let context: AudioContext | null = null;

type AudioCtor = typeof AudioContext;

function audioContext(): AudioContext | null {
  if (context) return context;
  const Ctor = (globalThis as { AudioContext?: AudioCtor; webkitAudioContext?: AudioCtor }).AudioContext ??
    (globalThis as { webkitAudioContext?: AudioCtor }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    context = null;
  }
  return context;
}

/** Makes (or resumes) the audio context inside a user gesture; installed once by TurnCue. */
export function unlockAudio(): void {
  const ctx = audioContext();
  if (ctx && ctx.state === "suspended") void ctx.resume().catch(() => undefined);
}

/**
 * How many cues were given (`cues`: not muted), how many chimes sounded (the audio context was
 * running) and buzzes the phone accepted; read by the browser tests through `window.hats`.
 */
export const played = { cues: 0, chimes: 0, buzzes: 0 };

/** Plays the chime and the buzz, unless muted. */
export function turnChime(): void {
  if (muted || !soundOn()) return;
  played.cues++;
  const ctx = audioContext();
  if (ctx && ctx.state === "running") {
    const start = ctx.currentTime + 0.01;
    [660, 880].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const t = start + i * 0.13;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.22);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.25);
    });
    played.chimes++;
  }
  const nav = globalThis.navigator as Navigator | undefined;
  if (nav && typeof nav.vibrate === "function") {
    try {
      if (nav.vibrate([90, 60, 90])) played.buzzes++;
    } catch {
      /* not allowed here (an iframe without the permission) */
    }
  }
}

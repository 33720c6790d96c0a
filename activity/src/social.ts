/**
 * The table you share (issue 34 s. 3, issue 35 s. 9): who watches a game without a seat
 * (`watching` frames), the quick reactions players send (`reaction` frames, shown on their
 * seat for a moment), and what only Discord can do for the app (avatars through the
 * Activity's URL mapping, the invite dialog). Kept apart from the game's store: these frames
 * never change the game.
 */
import type { Language, ServerFrame, Watching } from "./protocol";

/** The emoji a player may send (the server's web.server.REACTIONS, in the same order). */
export const REACTIONS = ["👍", "👏", "😮", "😂", "🙈", "🎉"] as const;

/** How long a reaction stays on its seat (ms). */
export const REACTION_MS = 2600;

export interface Shown {
  emoji: string;
  key: number;
}

export interface SocialState {
  watching: Watching | null;
  /** The reaction each seat shows now, by seat. */
  reactions: Record<number, Shown>;
}

/** What the app may ask of Discord (null outside Discord: local mode, tests). */
export interface DiscordBits {
  /** The address to load a Discord CDN path from (through the Activity's URL mapping). */
  avatarUrl: ((path: string) => string) | null;
  /** Opens Discord's invite dialog for this Activity. */
  invite: (() => Promise<void>) | null;
  /** Local mode: switch the app's language (remembered in this browser). */
  chooseLanguage: ((language: Language) => void) | null;
}

export const NO_DISCORD: DiscordBits = { avatarUrl: null, invite: null, chooseLanguage: null };

/** The Activity's URL mapping of Discord's CDN (Developer Portal: prefix → target). */
export const CDN_MAPPING = { prefix: "/discord-cdn", target: "cdn.discordapp.com" };

let reactionKey = 0;

export class Social {
  state: SocialState = { watching: null, reactions: {} };
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  private set(next: SocialState): void {
    this.state = next;
    for (const fn of this.listeners) fn();
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Take a server frame (others are ignored). */
  receive(frame: ServerFrame): void {
    if (frame.t === "watching") {
      this.set({ ...this.state, watching: frame });
    } else if (frame.t === "reaction") {
      const seat = frame.seat;
      const shown = { emoji: frame.emoji, key: ++reactionKey };
      this.set({ ...this.state, reactions: { ...this.state.reactions, [seat]: shown } });
      const old = this.timers.get(seat);
      if (old !== undefined) clearTimeout(old);
      this.timers.set(
        seat,
        setTimeout(() => {
          this.timers.delete(seat);
          if (this.state.reactions[seat]?.key !== shown.key) return;
          const rest = { ...this.state.reactions };
          delete rest[seat];
          this.set({ ...this.state, reactions: rest });
        }, REACTION_MS),
      );
    }
  }
}

/** Up to two initials of a name (letters or digits), upper-cased. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = (w: string | undefined) => (w ? [...w][0] ?? "" : "");
  const text = words.length > 1 ? first(words[0]) + first(words[1]) : [...(words[0] ?? "?")].slice(0, 2).join("");
  return text.toLocaleUpperCase() || "?";
}

/** Colours of generated avatars: white text on each has a contrast of at least 4.5:1. */
export const AVATAR_COLOURS = ["#1f5fa8", "#a3132a", "#1c6e42", "#7a4a00", "#6b2fa0", "#006e78", "#aa2878", "#4a5560"];

/** A generated avatar's colour for `name` (the same name, the same colour everywhere). */
export function avatarColour(name: string): string {
  let hash = 2166136261;
  for (const ch of name.trim().toLocaleLowerCase()) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length]!;
}

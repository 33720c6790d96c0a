/**
 * Arrow keys within a group of controls (the hand, the tea table's slots): one Tab stop per
 * group, the arrows move inside it, Enter or Space chooses (issue 35.13, the WAI-ARIA
 * "roving tabindex" pattern). Pure, unit-tested; the components hold the current index.
 */

/** Keys that move within a group, and where to. */
const STEPS: Record<string, number | "first" | "last"> = {
  ArrowLeft: -1,
  ArrowUp: -1,
  ArrowRight: 1,
  ArrowDown: 1,
  Home: "first",
  End: "last",
};

/**
 * The index the focus moves to from `from` on `key` among items whose `enabled` flags are
 * given (wrapping round; disabled items are skipped while any item is enabled), or null when
 * the key does not move (not an arrow, Home or End; or an empty group).
 */
export function roveIndex(key: string, from: number, enabled: boolean[]): number | null {
  const step = STEPS[key];
  const n = enabled.length;
  if (step === undefined || n === 0) return null;
  const usable = enabled.some(Boolean) ? enabled : enabled.map(() => true);
  if (step === "first") return usable.indexOf(true);
  if (step === "last") return usable.lastIndexOf(true);
  for (let i = 1; i <= n; i++) {
    const at = (((from + step * i) % n) + n) % n;
    if (usable[at]) return at;
  }
  return null;
}

/**
 * The one item of a group that takes the Tab stop: `current` when it is still there, else the
 * first of `preferred` that is, else the first enabled, else the first.
 */
export function tabStop<T>(items: T[], enabled: boolean[], current: T | null, preferred: (T | null)[] = []): number {
  if (current !== null && items.includes(current)) return items.indexOf(current);
  for (const p of preferred) if (p !== null && items.includes(p)) return items.indexOf(p);
  const first = enabled.indexOf(true);
  return first >= 0 ? first : 0;
}

/** Moves the focus after a keyboard choice, once the next frame rendered (`selector` first). */
export function focusSoon(...selectors: string[]): void {
  const go = () => {
    for (const s of selectors) {
      const el = document.querySelector<HTMLElement>(s);
      if (el) {
        el.focus();
        return;
      }
    }
  };
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(go);
  else setTimeout(go, 0);
}

/**
 * Whole lines only (issue 35.3): in a list that may wrap, hide the oldest items until the
 * rest fits its box, so no line is ever shown cut in half.
 */
import type { RefObject } from "preact";
import { useLayoutEffect } from "preact/hooks";

export function useWholeLines(list: RefObject<HTMLElement | null>, deps: unknown[]): void {
  useLayoutEffect(() => {
    const box = list.current;
    if (!box) return;
    const items = Array.from(box.children) as HTMLElement[];
    for (const item of items) item.hidden = false;
    for (const item of items.slice(0, -1)) {
      if (box.scrollHeight <= box.clientHeight + 1) break;
      item.hidden = true;
    }
  }, deps);
}

/**
 * The "?" guide (issue 35.10): one screen that names what is on the table (the draw deck, the
 * discard pile, the cookie, a black hat, the favourite hat's frame, the slot numbers), each
 * next to its own picture, in the player's language from the bot's catalogs.
 */
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { BlackHatFace, CardFace } from "./art";
import { useApp } from "./context";

/** The "?" button of the header; `onOpen` shows the guide. */
export function GuideButton({ onOpen }: { onOpen: () => void }): JSX.Element {
  const { tr } = useApp();
  const label = tr.t("What is on the table?");
  return (
    <button type="button" class="tool" data-testid="guide-open" aria-label={label} title={label} onClick={onOpen}>
      <span aria-hidden="true">?</span>
    </button>
  );
}

/** The guide as a modal dialog; Escape or Close shuts it and the focus goes back. */
export function Guide({ onClose }: { onClose: () => void }): JSX.Element {
  const { tr } = useApp();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      before?.focus?.();
    };
  }, []);
  const rows: [JSX.Element, string][] = [
    [<span class="icon deck" />, tr.t("Draw deck: after a discard you draw from it.")],
    [<span class="icon discard" />, tr.t("Discard pile: cards put away face down, one a turn with 2 or 3 players.")],
    [
      <span class="guide-cookie">🍪</span>,
      tr.t("The cookie: held by whoever has the most different hat types in their collection; worth 5 points at the end."),
    ],
    [<BlackHatFace />, tr.t("Black hat: a card played face down into a collection; it scores 1 point and only its owner sees it.")],
    [
      <span class="fav">
        <CardFace code="blue4" size="chip" />
      </span>,
      tr.t("Favourite hat (marked at the end): your last hand card. Your collection cards of its type add their values, minus its own."),
    ],
    [
      <span class="guide-slot">3</span>,
      tr.t("Slot numbers: a collection card scores the number of the lowest slot showing its type at the end."),
    ],
  ];
  return (
    <div class="guide-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <section class="guide" role="dialog" aria-modal="true" aria-labelledby="guide-title" data-testid="guide">
        <h2 id="guide-title">{tr.t("What is on the table?")}</h2>
        <ul>
          {rows.map(([picture, text], i) => (
            <li key={i}>
              <span class="guide-picture" aria-hidden="true">
                {picture}
              </span>
              <span class="guide-text">{text}</span>
            </li>
          ))}
        </ul>
        <button ref={close} type="button" class="action primary" data-testid="guide-close" onClick={onClose}>
          {tr.t("Close")}
        </button>
      </section>
    </div>
  );
}

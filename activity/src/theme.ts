/**
 * The pictures' colours (src/generated/pictures.json) as CSS custom properties on :root: the
 * light theme. Written as a style rule (not inline on <html>), so the dark theme of
 * styles.css (`prefers-color-scheme: dark`, issue 35 s. 9) can replace them.
 */
import { ART } from "./cards";

export function applyTheme(root: HTMLElement): void {
  const vars: Record<string, string> = {
    "--bg": ART.background,
    "--ink": ART.ink,
    "--panel": ART.panel,
    "--panel-active": ART.panelActive,
    "--active-outline": ART.activeOutline,
    "--muted": ART.muted,
    "--active-text": ART.activeText,
    "--team0": ART.teams[0] ?? "#006e78",
    "--team1": ART.teams[1] ?? "#aa2878",
  };
  const doc = root.ownerDocument;
  const style = doc.createElement("style");
  style.id = "hats-theme";
  style.textContent = `:root{${Object.entries(vars)
    .map(([k, v]) => `${k}:${v}`)
    .join(";")}}`;
  doc.head.prepend(style); // before the stylesheet: its dark block wins where it applies
}

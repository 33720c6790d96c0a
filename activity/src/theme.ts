/** The pictures' colours (src/generated/pictures.json) as CSS custom properties on :root. */
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
  for (const [k, v] of Object.entries(vars)) root.style.setProperty(k, v);
}

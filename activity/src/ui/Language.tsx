/**
 * The language menu of local mode (issue 35 s. 12): try the five languages without changing
 * the browser's. The choice is remembered in this browser (localStorage) and sent to the
 * server in `hello`, so the server's own texts (moves, refusals) follow it too.
 */
import type { JSX } from "preact";
import { useContext } from "preact/hooks";
import { LANGUAGES } from "../i18n";
import type { Tr } from "../i18n";
import type { Language } from "../protocol";
import { DiscordContext } from "./Avatar";

export const LANGUAGE_KEY = "hats.language";

/** Each language by its own name (not translated: a reader looks for their own). */
export const ENDONYMS: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  it: "Italiano",
};

/** The language chosen in this browser's menu, or null. */
export function storedLanguage(): Language | null {
  try {
    const value = window.localStorage.getItem(LANGUAGE_KEY);
    return value && (LANGUAGES as string[]).includes(value) ? (value as Language) : null;
  } catch {
    return null;
  }
}

export function saveLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    /* private mode: this page only */
  }
}

export function LanguageSelect({ tr, value, onChange }: { tr: Tr; value: Language; onChange: (l: Language) => void }): JSX.Element {
  return (
    <select
      class="language-menu"
      data-testid="language-menu"
      aria-label={tr.t("Language")}
      value={value}
      onChange={(e) => onChange((e.target as HTMLSelectElement).value as Language)}
    >
      {LANGUAGES.map((l) => (
        <option key={l} value={l} lang={l}>
          {ENDONYMS[l]}
        </option>
      ))}
    </select>
  );
}

/** The menu where the page offers it (local mode), else nothing. */
export function LanguageMenu({ tr, value }: { tr: Tr; value: Language }): JSX.Element | null {
  const { chooseLanguage } = useContext(DiscordContext);
  if (!chooseLanguage) return null;
  return <LanguageSelect tr={tr} value={value} onChange={chooseLanguage} />;
}

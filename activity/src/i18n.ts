/**
 * The app's words, from the bot's own catalogs (exported at build time by
 * scripts/export_data.py from texts/locales/<lang>/LC_MESSAGES/messages.po; no second
 * translation). Msgids are the English sentences with `{named}` placeholders, filled as
 * Python's str.format fills them (`{{` and `}}` are literal braces).
 */
import de from "./generated/i18n/de.json";
import en from "./generated/i18n/en.json";
import es from "./generated/i18n/es.json";
import fr from "./generated/i18n/fr.json";
import it from "./generated/i18n/it.json";
import type { Language } from "./protocol";

export interface CatalogData {
  lang: string;
  plural: string;
  messages: Record<string, string>;
  plurals: Record<string, string[]>;
}

export const CATALOGS: Record<Language, CatalogData> = { en, de, es, fr, it };
export const LANGUAGES: Language[] = ["en", "de", "es", "fr", "it"];

/** The gettext Plural-Forms expressions of the catalogs, as functions (index of the form). */
export const PLURAL_RULES: Record<string, (n: number) => number> = {
  "(n != 1)": (n) => (n !== 1 ? 1 : 0),
  "(n > 1)": (n) => (n > 1 ? 1 : 0),
};

/** A Discord locale (`es-ES`, `en-US`, `de`, `pt-BR`) -> one of our languages (else English). */
export function languageOf(locale: string | null | undefined): Language {
  const base = (locale ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return (LANGUAGES as string[]).includes(base) ? (base as Language) : "en";
}

export type Params = Record<string, string | number>;

/**
 * `text` with its `{placeholders}` filled from `params`; null when one is missing (the caller
 * then falls back to English, as texts.i18n.Tr does).
 */
export function format(text: string, params: Params): string | null {
  let missing = false;
  const out = text.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name: string | undefined) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    const value = name === undefined ? undefined : params[name];
    if (value === undefined) {
      missing = true;
      return match;
    }
    return String(value);
  });
  return missing ? null : out;
}

/** One language's translator: `t(msgid, params)` and `plural(singular, plural, n, params)`. */
export class Tr {
  readonly lang: Language;
  private readonly data: CatalogData;
  private readonly rule: (n: number) => number;

  constructor(lang: Language) {
    this.lang = lang;
    this.data = CATALOGS[lang];
    this.rule = PLURAL_RULES[this.data.plural] ?? PLURAL_RULES["(n != 1)"]!;
  }

  /** `msgid` translated and formatted; English when the catalog lacks it. */
  t(msgid: string, params: Params = {}): string {
    const text = this.data.messages[msgid] ?? msgid;
    return format(text, params) ?? format(msgid, params) ?? msgid;
  }

  /** The form for count `n` (`{n}` is filled unless `params` sets it). */
  plural(singular: string, pluralForm: string, n: number, params: Params = {}): string {
    const all = { n, ...params };
    const forms = this.data.plurals[singular];
    const english = n === 1 ? singular : pluralForm;
    const text = forms ? (forms[Math.min(this.rule(n), forms.length - 1)] ?? english) : english;
    return format(text, all) ?? format(english, all) ?? english;
  }

  /** A duration in words, as texts.common.duration_text: 90 -> `1 min 30 s`. */
  duration(seconds: number): string {
    const total = Math.max(0, Math.round(seconds));
    const hours = Math.floor(total / 3600);
    const rest = total % 3600;
    let minutes = Math.floor(rest / 60);
    const secs = rest % 60;
    if (hours && !rest) return this.plural("{n} hour", "{n} hours", hours);
    if (hours) minutes += hours * 60;
    if (minutes && !secs) return this.plural("{n} minute", "{n} minutes", minutes);
    if (!minutes) return this.plural("{n} second", "{n} seconds", secs);
    return this.t("{minutes} min {seconds} s", { minutes, seconds: secs });
  }
}

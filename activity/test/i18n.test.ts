import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGS, format, languageOf, LANGUAGES, PLURAL_RULES, Tr } from "../src/i18n";

describe("languages", () => {
  it("maps Discord locales to the five catalogs, English otherwise", () => {
    expect(languageOf("es-ES")).toBe("es");
    expect(languageOf("en-US")).toBe("en");
    expect(languageOf("de")).toBe("de");
    expect(languageOf("pt-BR")).toBe("en");
    expect(languageOf(null)).toBe("en");
  });

  it("knows every catalog's plural rule", () => {
    for (const lang of LANGUAGES) expect(PLURAL_RULES[CATALOGS[lang].plural]).toBeTypeOf("function");
  });
});

describe("lookup", () => {
  it("translates from the bot's catalogs", () => {
    expect(new Tr("de").t("End turn")).toBe("Zug beenden");
    expect(new Tr("en").t("End turn")).toBe("End turn");
    expect(new Tr("fr").t("Round {round}/{rounds}: it's your turn.", { round: 2, rounds: 8 })).toContain("2/8");
  });

  it("fills placeholders as str.format does, braces escaped", () => {
    expect(format("{a} and {{b}}", { a: 1 })).toBe("1 and {b}");
    expect(format("{a} {b}", { a: 1 })).toBeNull();
  });

  it("falls back to English for a msgid a catalog lacks", () => {
    expect(new Tr("it").t("A sentence nobody translated.")).toBe("A sentence nobody translated.");
  });

  it("picks plural forms by each language's rule (French: 0 and 1 are singular)", () => {
    const fr = new Tr("fr");
    const en = new Tr("en");
    const one = fr.plural("{n} point", "{n} points", 0);
    expect(one).toBe(fr.plural("{n} point", "{n} points", 1).replace("1", "0"));
    expect(en.plural("{n} point", "{n} points", 0)).toBe("0 points");
    expect(en.plural("{n} point", "{n} points", 1)).toBe("1 point");
  });

  it("words durations as the bot does", () => {
    const en = new Tr("en");
    expect(en.duration(90)).toBe("1 min 30 s");
    expect(en.duration(300)).toBe("5 minutes");
    expect(en.duration(3600)).toBe("1 hour");
    expect(en.duration(45)).toBe("45 seconds");
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("every text the app shows is exported from the catalogs", () => {
  const src = sources(join(__dirname, "..", "src"))
    .map((p) => readFileSync(p, "utf-8"))
    .join("\n");
  const strings = (re: RegExp) => [...src.matchAll(re)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  const singles = strings(/\bt\(\s*"((?:[^"\\]|\\.)*)"/g);
  const plurals = strings(/\bplural\(\s*"((?:[^"\\]|\\.)*)"/g);

  it("finds the app's msgids", () => {
    expect(singles.length).toBeGreaterThan(40);
    expect(plurals.length).toBeGreaterThan(5);
  });

  it("has every t() msgid in texts/activity.py", () => {
    const missing = singles.filter((m) => !(m in CATALOGS.en.messages));
    expect(missing).toEqual([]);
  });

  it("has every plural() msgid in texts/activity.py", () => {
    const missing = plurals.filter((m) => !(m in CATALOGS.en.plurals));
    expect(missing).toEqual([]);
  });

  it("translates every msgid in de, es, fr and it (the catalog tests keep them complete)", () => {
    for (const lang of ["de", "es", "fr", "it"] as const) {
      expect(Object.keys(CATALOGS[lang].messages).sort()).toEqual(Object.keys(CATALOGS.en.messages).sort());
      expect(Object.keys(CATALOGS[lang].plurals).sort()).toEqual(Object.keys(CATALOGS.en.plurals).sort());
    }
  });
});

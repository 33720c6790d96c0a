/**
 * Cards (R1): codes `<type><value>`, the seven types in canonical order, and the art of the
 * PNG pictures (colours, symbols, hat silhouettes) exported from pictures/ at build time.
 */
import pictures from "./generated/pictures.json";
import type { Tr } from "./i18n";
import type { CardCode } from "./protocol";

export interface Prim {
  k: string;
  p: number[];
  fill: string | null;
  stroke: string | null;
  w: number;
}

export interface HatArt {
  id: string;
  emoji: string;
  colour: string;
  card: string;
  symbol: string;
  hat: Prim[];
  symbolShapes: Prim[];
}

export const ART = pictures as {
  ink: string;
  black: string;
  background: string;
  panel: string;
  panelActive: string;
  activeOutline: string;
  muted: string;
  activeText: string;
  teams: string[];
  blackHatCard: { fill: string; outline: string };
  back: { fill: string; outline: string; inner: string };
  types: HatArt[];
  blackHat: Prim[];
};

export const TYPES: string[] = ART.types.map((t) => t.id);

export interface Card {
  type: string;
  value: number;
}

/** `red5` -> {type: "red", value: 5}; null for anything else. */
export function parseCard(code: string): Card | null {
  const m = /^([a-z]+)([1-6])$/.exec(code);
  if (!m || !TYPES.includes(m[1]!)) return null;
  return { type: m[1]!, value: Number(m[2]) };
}

export function artOf(type: string): HatArt {
  return ART.types.find((t) => t.id === type) ?? ART.types[0]!;
}

/** A card in words for screen readers: `red 5` (`rouge 5`), as the bot's `{type} {value}`. */
export function cardName(code: CardCode, tr: Tr): string {
  const card = parseCard(code);
  if (!card) return code;
  return tr.t("{type} {value}", { type: tr.t(card.type), value: card.value });
}

/** Cards grouped by type in R1 order, values ascending (as the pictures' chips). */
export function sortCards(cards: CardCode[]): CardCode[] {
  const key = (code: CardCode): number => {
    const c = parseCard(code);
    return c ? TYPES.indexOf(c.type) * 10 + c.value : 999;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

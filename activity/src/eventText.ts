/**
 * Cards inside the bot's event lines (issue 35.5: the log shows cards as cards). The lines
 * come worded by the server with each card as one token, `🟥⁠5` (the type's square, a WORD
 * JOINER, the value; `⬛⁠🟥⁠5` for a black hat's face, texts.common.card_token); this splits
 * a line into its text and its cards, so the app draws each card as on the table.
 */
import { ART } from "./cards";
import type { CardCode } from "./protocol";

/** A piece of a line: text, or a card (`black`: the face of a black hat, seen by its owner). */
export type Piece = string | { code: CardCode; black: boolean };

const BLACK = "⬛";
const JOINER = "\u2060";
const BY_EMOJI = new Map(ART.types.map((t) => [t.emoji, t.id]));
const TOKEN = new RegExp(
  `(${BLACK}${JOINER}?)?(${ART.types.map((t) => t.emoji).join("|")})${JOINER}?([1-6])`,
  "gu",
);

/** `text` split into text and cards, in order (text pieces never empty). */
export function splitCards(text: string): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(TOKEN)) {
    const type = BY_EMOJI.get(m[2]!);
    if (!type) continue;
    if (m.index! > at) out.push(text.slice(at, m.index));
    out.push({ code: `${type}${m[3]}`, black: Boolean(m[1]) });
    at = m.index! + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

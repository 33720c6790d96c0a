/**
 * Cards drawn as SVG from the pictures' own data (src/generated/pictures.json, exported from
 * pictures/hats.py): the same hat silhouettes, colours and colour-blind symbols as the PNGs.
 * `Sprite` defines each hat and symbol once; cards `<use>` them. Every card has a text label
 * (its colour and value) for screen readers; the drawing itself is hidden from them.
 */
import type { JSX } from "preact";
import { ART, artOf, parseCard, type Prim } from "../cards";
import type { CardCode } from "../protocol";

function prim(p: Prim, i: number): JSX.Element {
  const style = {
    fill: p.fill ?? "none",
    stroke: p.stroke ?? "none",
    strokeWidth: p.w,
    strokeLinejoin: "round" as const,
  };
  const [a = 0, b = 0, c = 0, d = 0] = p.p;
  if (p.k === "poly") {
    const pts: string[] = [];
    for (let j = 0; j + 1 < p.p.length; j += 2) pts.push(`${p.p[j]},${p.p[j + 1]}`);
    return <polygon key={i} points={pts.join(" ")} style={style} />;
  }
  if (p.k === "ellipse") {
    return <ellipse key={i} cx={(a + c) / 2} cy={(b + d) / 2} rx={(c - a) / 2} ry={(d - b) / 2} style={style} />;
  }
  if (p.k === "chord") {
    const cy = (b + d) / 2;
    const rx = (c - a) / 2;
    const ry = (d - b) / 2;
    return <path key={i} d={`M${a},${cy} A${rx},${ry} 0 0 1 ${c},${cy} Z`} style={style} />;
  }
  return <rect key={i} x={a} y={b} width={c - a} height={d - b} style={style} />;
}

/** The shared definitions: `#hat-<type>`, `#sym-<type>`, `#hat-black` in a 100 × 100 box. */
export function Sprite(): JSX.Element {
  return (
    <svg width="0" height="0" style={{ position: "absolute" }} aria-hidden="true" focusable="false">
      <defs>
        {ART.types.map((t) => (
          <g id={`hat-${t.id}`} key={`h${t.id}`}>
            {t.hat.map(prim)}
          </g>
        ))}
        {ART.types.map((t) => (
          <g id={`sym-${t.id}`} key={`s${t.id}`}>
            {t.symbolShapes.map(prim)}
          </g>
        ))}
        <g id="hat-black">{ART.blackHat.map(prim)}</g>
      </defs>
    </svg>
  );
}

export type FaceSize = "card" | "chip";

/**
 * A face-up card (R1). `card`: value top left, symbol top right, hat below (as the PNG's
 * board cards); `chip`: value over symbol, for the small collection chips.
 */
export function CardFace({ code, size = "card", down = false }: { code: CardCode; size?: FaceSize; down?: boolean }): JSX.Element | null {
  const card = parseCard(code);
  if (!card) return null;
  const art = artOf(card.type);
  if (size === "chip") {
    return (
      <svg class="face chip" viewBox="0 0 100 130" aria-hidden="true" focusable="false" data-card={code}>
        <rect x="3" y="3" width="94" height="124" rx="14" fill={art.card} stroke={art.colour} stroke-width="6" />
        <text x="50" y="62" text-anchor="middle" class="digit" fill={ART.ink}>
          {card.value}
        </text>
        <use href={`#sym-${card.type}`} transform="translate(24 72) scale(0.52)" />
      </svg>
    );
  }
  return (
    <svg class={`face card${down ? " down" : ""}`} viewBox="0 0 100 130" aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="96" height="126" rx="12" fill={art.card} stroke={art.colour} stroke-width="4" />
      <text x="11" y="40" class="digit" fill={ART.ink}>
        {card.value}
      </text>
      <use href={`#sym-${card.type}`} transform="translate(64 10.4) scale(0.28)" />
      <use href={`#hat-${card.type}`} transform="translate(8 41) scale(0.84)" />
      {down ? (
        <g stroke="#5a505a" stroke-width="8" opacity="0.9">
          <line x1="15" y1="20" x2="85" y2="110" />
          <line x1="85" y1="20" x2="15" y2="110" />
        </g>
      ) : null}
    </svg>
  );
}

/** A black hat (R8): a dark card with the black top hat; its face only for its owner. */
export function BlackHatFace({ code }: { code?: CardCode | null }): JSX.Element {
  const card = code ? parseCard(code) : null;
  return (
    <svg class="face chip black" viewBox="0 0 100 130" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="94" height="124" rx="14" fill={ART.blackHatCard.fill} stroke={ART.blackHatCard.outline} stroke-width="6" />
      <use href="#hat-black" transform={card ? "translate(10 2) scale(0.8)" : "translate(5 15) scale(0.9)"} />
      {card ? (
        <text x="50" y="118" text-anchor="middle" class="digit small" fill="#fff">
          {card.value}
        </text>
      ) : null}
      {card ? <use href={`#sym-${card.type}`} transform="translate(8 90) scale(0.3)" /> : null}
    </svg>
  );
}

/** The back of a hand card (another player's hand size). */
export function CardBack(): JSX.Element {
  return (
    <svg class="face chip back" viewBox="0 0 100 130" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="94" height="124" rx="16" fill={ART.back.fill} stroke={ART.back.outline} stroke-width="6" />
      <rect x="24" y="24" width="52" height="82" rx="10" fill="none" stroke={ART.back.inner} stroke-width="6" />
    </svg>
  );
}

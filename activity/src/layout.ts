/**
 * Layout fit: the sizes that put a whole turn on one screen without scrolling (issue 28:
 * phone first, 360 × 640 portrait; a landscape and a desktop layout too).
 *
 * `fitLayout` picks the mode from the viewport and sizes every row of the game screen in CSS
 * pixels; the app applies them as CSS variables and the grid places the areas. Pure and
 * unit-tested: every column's rows add up to at most the viewport's height.
 */

export type Mode = "portrait" | "landscape" | "desktop";

export interface FitInput {
  width: number;
  height: number;
  /** Seats of the game (2–4). */
  seats: number;
  /** Board slots (5 with 2 players, else 6; R3). */
  slots: number;
  /** Cards in the viewer's hand (0 for a spectator). */
  handSize: number;
  spectator: boolean;
}

export interface Row {
  name: string;
  height: number;
}

export interface Fit {
  mode: Mode;
  /** Rows per column, top to bottom (one column in portrait, two in landscape/desktop). */
  columns: Row[][];
  /** Column widths (px). */
  columnWidths: number[];
  tableCard: { w: number; h: number };
  handCard: { w: number; h: number };
  handColumns: number;
  chip: { w: number; h: number };
  opponentRow: number;
  eventLines: number;
  /** Pixels between rows and around the edges. */
  gap: number;
}

export const CARD_RATIO = 1.3; // height / width of an upright card, as the pictures' board cards
export const HEADER = 30;
export const PROMPT = 22;
export const ACTIONS = 42;
export const EVENT_LINE = 17;
export const SLOT_NUMBER = 14;
export const MIN_HAND_CARD = 44; // a comfortable touch target (px)
/** The table bar under the tea table: who watches, reactions, Invite (44 px controls). */
export const SOCIAL = 44;

/** The mode for a viewport: desktop when wide and tall enough, landscape when wider than tall. */
export function modeOf(width: number, height: number): Mode {
  if (width >= 900 && height >= 600) return "desktop";
  if (width > height) return "landscape";
  return "portrait";
}

function cardsFit(count: number, width: number, gap: number, max: number): number {
  if (count <= 0) return max;
  return Math.min(max, Math.floor((width - gap * (count - 1)) / count));
}

/** Hand cards: one row when they stay wide enough to tap, else two (or three). */
function handFit(
  count: number,
  width: number,
  gap: number,
  max: number,
): { w: number; h: number; rows: number; cols: number } {
  for (const rows of [1, 2, 3]) {
    const cols = Math.max(1, Math.ceil(count / rows));
    const w = cardsFit(cols, width, gap, max);
    if (w >= MIN_HAND_CARD || rows === 3) {
      return { w, h: Math.round(w * CARD_RATIO), rows: count ? rows : 1, cols };
    }
  }
  throw new Error("unreachable");
}

function sum(rows: Row[]): number {
  return rows.reduce((total, r) => total + r.height, 0);
}

/**
 * Sizes for the game screen. Shrinks the table and hand cards (never under 30 px wide) until
 * every column fits; the slack left over goes to the last-events row.
 */
export function fitLayout(input: FitInput): Fit {
  const mode = modeOf(input.width, input.height);
  const gap = mode === "desktop" ? 10 : 4;
  const pad = gap;
  const opponents = input.spectator ? input.seats : input.seats - 1;
  const big = mode === "desktop";
  const chip = big ? { w: 28, h: 36 } : { w: 20, h: 26 };
  const opponentRow = chip.h + (big ? 30 : 6);
  const columnWidths =
    mode === "portrait"
      ? [input.width - 2 * pad]
      : mode === "landscape"
        ? [Math.floor((input.width - 3 * pad) * 0.52), Math.ceil((input.width - 3 * pad) * 0.48)]
        : [Math.floor((input.width - 3 * pad) * 0.3), Math.ceil((input.width - 3 * pad) * 0.7)];
  const tableWidth = mode === "desktop" ? columnWidths[1]! : columnWidths[0]!;
  const handWidth = mode === "portrait" ? columnWidths[0]! : columnWidths[1]!;
  const mine = input.spectator ? 0 : chip.h + 8;

  let tableMax = big ? 120 : 90;
  let handMax = big ? 110 : 80;
  for (;;) {
    const tw = cardsFit(input.slots, tableWidth, gap, tableMax);
    const table = { w: tw, h: Math.round(tw * CARD_RATIO) };
    const hand = input.spectator ? { w: 0, h: 0, rows: 0, cols: 0 } : handFit(input.handSize, handWidth, gap, handMax);
    const handRows = input.spectator ? 0 : hand.rows * hand.h + (hand.rows - 1) * gap;
    const tableRow = SLOT_NUMBER + table.h;
    const turnRows: Row[] = input.spectator
      ? [{ name: "prompt", height: PROMPT }]
      : [
          { name: "mine", height: mine },
          { name: "hand", height: handRows },
          { name: "prompt", height: PROMPT },
          { name: "actions", height: ACTIONS },
        ];
    const boardRows: Row[] = [
      { name: "opponents", height: opponents * opponentRow + Math.max(0, opponents - 1) * 2 },
      { name: "table", height: tableRow },
    ];
    let columns: Row[][];
    if (mode === "portrait") {
      columns = [[{ name: "header", height: HEADER }, ...boardRows, ...turnRows]];
    } else if (mode === "landscape") {
      columns = [[{ name: "header", height: HEADER }, ...boardRows], turnRows];
    } else {
      columns = [
        [{ name: "header", height: HEADER }, boardRows[0]!],
        [boardRows[1]!, ...turnRows],
      ];
    }
    const eventsColumn = 0; // under the table (portrait, landscape) or the players (desktop)
    const budget = input.height - 2 * pad;
    const used = columns.map((rows) => sum(rows) + rows.length * gap);
    // the events row, the table bar (SOCIAL) and their gaps
    const extra = (c: number) => (c === eventsColumn ? SOCIAL + gap : 0);
    const fits = used.every((u, c) => u + gap + EVENT_LINE * 2 + extra(c) <= budget);
    if (fits || (tableMax <= 30 && handMax <= 30)) {
      const slack = Math.max(0, budget - used[eventsColumn]! - gap - SOCIAL - gap);
      const eventLines = Math.max(1, Math.min(6, Math.floor(slack / EVENT_LINE)));
      const events: Row = { name: "events", height: eventLines * EVENT_LINE };
      const target = columns[eventsColumn]!;
      const at = target.findIndex((r) => r.name === "table");
      target.splice(at >= 0 ? at + 1 : target.length, 0, { name: "social", height: SOCIAL }, events);
      return {
        mode,
        columns,
        columnWidths,
        tableCard: table,
        handCard: { w: hand.w, h: hand.h },
        handColumns: hand.cols,
        chip,
        opponentRow,
        eventLines,
        gap,
      };
    }
    tableMax = Math.max(30, tableMax - 4);
    handMax = Math.max(30, handMax - 4);
  }
}

/** The fit as CSS custom properties for the game screen's root element. */
export function fitVars(fit: Fit): Record<string, string> {
  const px = (n: number): string => `${n}px`;
  const vars: Record<string, string> = {
    "--gap": px(fit.gap),
    "--table-w": px(fit.tableCard.w),
    "--table-h": px(fit.tableCard.h),
    "--hand-w": px(fit.handCard.w),
    "--hand-h": px(fit.handCard.h),
    "--hand-cols": String(fit.handColumns),
    "--chip-w": px(fit.chip.w),
    "--chip-h": px(fit.chip.h),
    "--opp-row": px(fit.opponentRow),
  };
  fit.columns.forEach((rows, c) => {
    vars[`--col${c}-rows`] = rows.map((r) => (r.name === "events" ? "1fr" : px(r.height))).join(" ");
    vars[`--col${c}-areas`] = rows.map((r) => `"${r.name}"`).join(" ");
  });
  return vars;
}

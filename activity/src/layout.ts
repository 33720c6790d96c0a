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
export const HEADER = 46; // the turn line (up to three lines of 15 px with a long name) beside 44 px buttons
export const PROMPT = 36; // two lines of guidance: never cut (issue 35.3)
export const ACTIONS = 48; // 44 px buttons (issue 35.7)
export const EVENT_LINE = 17;
export const SLOT_NUMBER = 14;
export const NAME_LINE = 18; // a player's name, team, cookie and running score (issue 35.2, 35.6)
export const MIN_HAND_CARD = 44; // a touch target (px): Apple's and WCAG's 44 × 44
export const MIN_EVENT_LINES = 2;
/**
 * The table bar (who watches, reactions, sound, Invite: 44 px controls). It shares the
 * last-events row, at its right end, so that row is never lower than the bar: a row of its
 * own (48 px with its gap) would cost a 4-player hand of 9 its second row at 360 × 640.
 */
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

/**
 * Hand cards: the layout (1–3 rows) that gives the widest card within `width` and `height`
 * (issue 35.7: the hand uses the room it has); fewer rows win a tie.
 */
function handFit(
  count: number,
  width: number,
  height: number,
  gap: number,
  max: number,
): { w: number; h: number; rows: number; cols: number } {
  let best = { w: 0, h: 0, rows: 1, cols: Math.max(1, count) };
  for (const rows of [1, 2, 3]) {
    const cols = Math.max(1, Math.ceil(count / rows));
    if (count && rows > 1 && Math.ceil(count / cols) < rows) continue; // an empty row
    const byHeight = Math.floor((height - (rows - 1) * gap) / rows / CARD_RATIO);
    const w = Math.min(cardsFit(cols, width, gap, max), byHeight);
    if (w > best.w) best = { w, h: Math.round(w * CARD_RATIO), rows: count ? rows : 1, cols };
    if (!count) break;
  }
  return best;
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
  const opponentRow = NAME_LINE + chip.h + (big ? 14 : 4);
  const columnWidths =
    mode === "portrait"
      ? [input.width - 2 * pad]
      : mode === "landscape"
        ? [Math.floor((input.width - 3 * pad) * 0.52), Math.ceil((input.width - 3 * pad) * 0.48)]
        : [Math.floor((input.width - 3 * pad) * 0.3), Math.ceil((input.width - 3 * pad) * 0.7)];
  const tableWidth = mode === "desktop" ? columnWidths[1]! : columnWidths[0]!;
  const handWidth = mode === "portrait" ? columnWidths[0]! : columnWidths[1]!;
  const mine = input.spectator ? 0 : opponentRow;
  const budget = input.height - 2 * pad;
  const eventsColumn = 0; // under the table (portrait, landscape) or the players (desktop)
  const handColumn = mode === "portrait" ? 0 : 1;
  // the events row (beside the table bar, so never lower than it) and its gap
  const minEvents = gap + Math.max(EVENT_LINE * MIN_EVENT_LINES, SOCIAL);

  let tableMax = big ? 120 : 90;
  const handMax = big ? 110 : 80;
  for (;;) {
    const tw = cardsFit(input.slots, tableWidth, gap, tableMax);
    const table = { w: tw, h: Math.round(tw * CARD_RATIO) };
    const tableRow = SLOT_NUMBER + table.h;
    const build = (handRows: number): Row[][] => {
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
      if (mode === "portrait") return [[{ name: "header", height: HEADER }, ...boardRows, ...turnRows]];
      if (mode === "landscape" && input.spectator) {
        // a spectator has no hand: the players go to the right-hand column
        return [[{ name: "header", height: HEADER }, boardRows[1]!], [boardRows[0]!, ...turnRows]];
      }
      if (mode === "landscape") return [[{ name: "header", height: HEADER }, ...boardRows], turnRows];
      return [
        [{ name: "header", height: HEADER }, boardRows[0]!],
        [boardRows[1]!, ...turnRows],
      ];
    };
    const used = (columns: Row[][]) => columns.map((rows) => sum(rows) + rows.length * gap);
    // the hand takes what its column has left (keeping the events' minimum where they share it)
    const without = used(build(0));
    const room = budget - without[handColumn]! - (handColumn === eventsColumn ? minEvents : 0);
    const hand = input.spectator
      ? { w: 0, h: 0, rows: 0, cols: 0 }
      : handFit(input.handSize, handWidth, Math.max(0, room), gap, handMax);
    const handRows = input.spectator ? 0 : hand.rows * hand.h + (hand.rows - 1) * gap;
    const columns = build(handRows);
    const fits =
      used(columns).every((u, c) => u + (c === eventsColumn ? minEvents : 0) <= budget) &&
      (input.spectator || hand.w >= MIN_HAND_CARD);
    if (fits || tableMax <= 30) {
      const slack = Math.max(SOCIAL, budget - used(columns)[eventsColumn]! - gap);
      const eventLines = Math.max(1, Math.min(6, Math.floor(slack / EVENT_LINE)));
      const events: Row = { name: "events", height: eventLines * EVENT_LINE };
      const target = columns[eventsColumn]!;
      const at = target.findIndex((r) => r.name === "table");
      target.splice(at >= 0 ? at + 1 : target.length, 0, events);
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

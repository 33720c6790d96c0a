import { describe, expect, it } from "vitest";
import { fitLayout, fitVars, MIN_HAND_CARD, modeOf, SOCIAL, type FitInput } from "../src/layout";

function total(rows: { height: number }[], gap: number): number {
  return rows.reduce((sum, r) => sum + r.height, 0) + rows.length * gap;
}

const SIZES: [number, number][] = [
  [360, 640],
  [640, 360],
  [1280, 800],
  [320, 568],
  [412, 915],
  [768, 1024],
];

describe("fitLayout", () => {
  it("picks portrait, landscape and desktop by the viewport", () => {
    expect(modeOf(360, 640)).toBe("portrait");
    expect(modeOf(640, 360)).toBe("landscape");
    expect(modeOf(1280, 800)).toBe("desktop");
  });

  for (const [width, height] of SIZES) {
    for (const seats of [2, 3, 4]) {
      for (const spectator of [false, true]) {
        it(`fits ${seats} seats at ${width}x${height}${spectator ? " (spectator)" : ""} without scrolling`, () => {
          const input: FitInput = { width, height, seats, slots: seats === 2 ? 5 : 6, handSize: spectator ? 0 : 9, spectator };
          const fit = fitLayout(input);
          for (const column of fit.columns) {
            expect(total(column, fit.gap) + 2 * fit.gap).toBeLessThanOrEqual(height);
          }
          const names = fit.columns.flat().map((r) => r.name);
          for (const needed of ["header", "opponents", "table", "events", "prompt"]) expect(names).toContain(needed);
          if (!spectator) for (const needed of ["mine", "hand", "actions"]) expect(names).toContain(needed);
          // the table's slots and the hand fit the width of their column
          const tableColumn = fit.mode === "desktop" ? fit.columnWidths[1]! : fit.columnWidths[0]!;
          expect(input.slots * fit.tableCard.w + (input.slots - 1) * fit.gap).toBeLessThanOrEqual(tableColumn);
          if (!spectator) {
            const handColumn = fit.mode === "portrait" ? fit.columnWidths[0]! : fit.columnWidths[1]!;
            expect(fit.handColumns * fit.handCard.w + (fit.handColumns - 1) * fit.gap).toBeLessThanOrEqual(handColumn);
          }
        });
      }
    }
  }

  it("keeps a full hand of 9 cards comfortable to tap on a 360 px phone (two rows)", () => {
    const fit = fitLayout({ width: 360, height: 640, seats: 4, slots: 6, handSize: 9, spectator: false });
    expect(fit.handCard.w).toBeGreaterThanOrEqual(MIN_HAND_CARD);
    expect(fit.handColumns).toBe(5);
    expect(fit.tableCard.w).toBeGreaterThanOrEqual(50);
    expect(fit.eventLines).toBeGreaterThanOrEqual(2);
  });

  it("gives the slack to the last events and writes CSS variables for every column", () => {
    const fit = fitLayout({ width: 360, height: 640, seats: 3, slots: 6, handSize: 5, spectator: false });
    const vars = fitVars(fit);
    expect(vars["--col0-rows"]).toContain("1fr");
    expect(vars["--col0-areas"]).toContain('"hand"');
    expect(vars["--hand-cols"]).toBe("3"); // 5 cards in two rows of 75 px rather than one of 67
    expect(fit.handCard.w).toBeGreaterThan(67);
  });

  it("lets the hand use the room it has: 7 cards in a 4-player game are not 46 px wide (issue 35.7)", () => {
    const fit = fitLayout({ width: 360, height: 640, seats: 4, slots: 6, handSize: 7, spectator: false });
    expect(fit.handCard.w).toBeGreaterThanOrEqual(52); // was 46 in one row
    const rows = Object.fromEntries(fit.columns.flat().map((r) => [r.name, r.height]));
    expect(rows.actions).toBeGreaterThanOrEqual(44);
    expect(rows.header).toBeGreaterThanOrEqual(44);
  });

  it("leaves the table bar (44 px) its place at the end of the last events' row, never a row of its own", () => {
    for (const [width, height] of SIZES) {
      for (const seats of [2, 3, 4]) {
        for (const spectator of [false, true]) {
          const fit = fitLayout({ width, height, seats, slots: seats === 2 ? 5 : 6, handSize: spectator ? 0 : 9, spectator });
          const names = fit.columns.flat().map((r) => r.name);
          expect(names).not.toContain("social");
          const column = fit.columns.find((rows) => rows.some((r) => r.name === "events"))!;
          const others = column.filter((r) => r.name !== "events");
          // the events row is 1fr: it gets what the other rows and the gaps leave
          expect(height - 2 * fit.gap - total(others, fit.gap) - fit.gap).toBeGreaterThanOrEqual(SOCIAL);
        }
      }
    }
  });
});

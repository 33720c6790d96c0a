import type { Tr } from "../i18n";
import type { View } from "../protocol";

/** Team index (0: Team A, 1: Team B) of `seat`, null without teams (R5). */
export function teamOf(view: { teams: number[][] | null }, seat: number): 0 | 1 | null {
  const i = view.teams?.findIndex((team) => team.includes(seat)) ?? -1;
  return i === 0 || i === 1 ? i : null;
}

export const TEAM_NAMES = ["Team A", "Team B"] as const;

/** A seat's name as shown: the viewer's own with "(you)". */
export function seatName(view: View, seat: number, tr: Tr): string {
  const name = view.names[seat] ?? `#${seat + 1}`;
  return seat === view.seat ? tr.t("{name} (you)", { name }) : name;
}

/** The viewer's partner in a 4-player game (R5: partners sit opposite). */
export function partnerOf(view: View): number | null {
  if (view.seat === null || !view.teams) return null;
  const team = view.teams.find((t) => t.includes(view.seat!));
  return team?.find((s) => s !== view.seat) ?? null;
}

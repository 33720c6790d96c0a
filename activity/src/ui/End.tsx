/**
 * The end (R14–R21): the tea table after clean-up, the winner in one sentence, each player by
 * rank with 🏆, total, favourite hat, revealed black hats and collection; with 4 players the
 * team totals (R20). Rematch opens a new lobby with the same players and settings.
 */
import type { JSX } from "preact";
import { cardName } from "../cards";
import type { GameResult, View } from "../protocol";
import { BlackHatFace, CardFace } from "./art";
import { useApp } from "./context";
import { seatName, TEAM_NAMES, teamOf } from "./names";
import { Toast } from "./Toast";
import type { Tr } from "../i18n";

/** Why the winner won (R19, R20), from the server's tie-break and totals; "" when not sent. */
export function whyLine(result: GameResult, tr: Tr): string {
  switch (result.tie_break) {
    case "score": {
      const totals = result.team_totals ?? result.totals;
      const groups = result.teams ?? result.totals.map((_, s) => [s]);
      const won = groups.map((g) => g.some((s) => result.winners.includes(s)));
      const best = Math.max(...totals.filter((_, i) => won[i]));
      const rest = totals.filter((_, i) => !won[i]);
      if (!rest.length) return "";
      const ahead = best - Math.max(...rest);
      return tr.plural("Won on points: {n} point ahead.", "Won on points: {n} points ahead.", ahead);
    }
    case "black_hats":
      return tr.t("Tied on points: more black hats decided.");
    case "cookie":
      return tr.t("Tied on points and black hats: the cookie decided.");
    case "shared":
      return tr.t("Nothing separates them: a shared win.");
    default:
      return "";
  }
}

/** "+9", "−3", "0": a part of a score as the breakdown shows it. */
function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** The winner sentence, as the bot's end message words it (texts.end). */
export function winnerLine(view: View, result: GameResult, tr: Tr): string {
  const trophy = "🏆";
  const teams = result.teams;
  if (teams) {
    const totals = teams.map((team) => team.reduce((sum, s) => sum + (result.totals[s] ?? 0), 0));
    const winning = teams.findIndex((team) => team.some((s) => result.winners.includes(s)));
    const shared = teams.every((team) => team.some((s) => result.winners.includes(s)));
    if (shared) {
      return tr.plural("{trophy} Shared win: both teams have {n} point.", "{trophy} Shared win: both teams have {n} points.", totals[0] ?? 0, { trophy });
    }
    const team = teams[winning] ?? [];
    return tr.plural(
      "{trophy} {team} wins ({members}) with {n} point.",
      "{trophy} {team} wins ({members}) with {n} points.",
      totals[winning] ?? 0,
      { trophy, team: tr.t(TEAM_NAMES[winning === 1 ? 1 : 0]), members: team.map((s) => view.names[s] ?? "").join(" & ") },
    );
  }
  const winners = result.winners;
  const points = result.totals[winners[0] ?? 0] ?? 0;
  if (winners.length > 1) {
    return tr.plural("{trophy} Shared win: {players}, with {n} point each.", "{trophy} Shared win: {players}, with {n} points each.", points, {
      trophy,
      players: winners.map((s) => view.names[s] ?? "").join(", "),
    });
  }
  return tr.plural("{trophy} {who} wins with {n} point.", "{trophy} {who} wins with {n} points.", points, {
    trophy,
    who: view.names[winners[0] ?? 0] ?? "",
  });
}

export function EndPanel({ view, result }: { view: View; result: GameResult }): JSX.Element {
  const { tr, ctl } = useApp();
  const teams = result.teams;
  const teamTotals = teams?.map((team) => team.reduce((sum, s) => sum + (result.totals[s] ?? 0), 0)) ?? null;
  // teams (R20): the winning team first, each team's players together, ranked as their team
  const teamRank = (seat: number): number => {
    const team = teamOf(result, seat);
    return team === null || teams![team]!.some((s) => result.winners.includes(s)) ? 0 : 1;
  };
  const at = (seat: number) => result.ranking.indexOf(seat);
  const order = [...result.ranking].sort(
    (a, b) => teamRank(a) - teamRank(b) || (teamOf(result, a) ?? 0) - (teamOf(result, b) ?? 0) || at(a) - at(b),
  );
  let rank = 0;
  let previous = "";
  return (
    <section class="end" data-testid="end" aria-labelledby="end-title">
      <h1 id="end-title">{tr.t("Hats: game #{game_id} is over", { game_id: view.game_id })}</h1>
      {teams ? null : (
        <p class="winner" data-testid="winner">
          {winnerLine(view, result, tr)}
        </p>
      )}
      {whyLine(result, tr) ? (
        <p class="why" data-testid="why">
          {whyLine(result, tr)}
        </p>
      ) : null}
      {teams && teamTotals ? (
        <ul class="team-totals" data-testid="winner" aria-label={winnerLine(view, result, tr)}>
          {[0, 1]
            .sort((a, b) => (teamTotals[b] ?? 0) - (teamTotals[a] ?? 0))
            .map((i) => (
              <li key={i} class={`team${i}`}>
                {teams[i]!.some((s) => result.winners.includes(s)) ? "🏆 " : ""}
                {/* the members are in the rows below, each with their team's name */}
                {tr.t(TEAM_NAMES[i === 1 ? 1 : 0])} · {tr.plural("{n} point", "{n} points", teamTotals[i] ?? 0)}
              </li>
            ))}
        </ul>
      ) : null}
      <ol class="ranking" data-testid="ranking">
        {order.map((seat, position) => {
          const winner = result.winners.includes(seat);
          const team = teamOf(result, seat);
          const key = teams ? String(teamRank(seat)) : `${winner}:${result.totals[seat]}`;
          if (key !== previous) {
            rank = teams ? rank + 1 : position + 1;
            previous = key;
          }
          // The server's places are the rules' (a tie on points goes to more black hats, then
          // the cookie, R19); the count above only stands in when a server sends none.
          const place = result.places?.[seat] ?? rank;
          const blacks = result.black_hats[seat] ?? [];
          const favourite = result.favourites[seat];
          const parts = result.breakdown?.[seat];
          return (
            <li key={seat} class={`row${winner ? " winner" : ""}${team !== null ? ` team${team}` : ""}`} data-testid={`rank-${seat}`}>
              <span class="rank">{place}.</span>
              <span class="name">
                {winner ? "🏆 " : ""}
                {seatName(view, seat, tr)}
              </span>
              <span class="total">{tr.plural("{n} point", "{n} points", result.totals[seat] ?? 0)}</span>
              <span class="detail">
                {team !== null ? <span class={`team-label team${team}`}>{tr.t(TEAM_NAMES[team])}</span> : null}
                {favourite ? (
                  <span class="fav" data-testid={`fav-${seat}`} role="img" aria-label={`${tr.t("Favourite hat")}: ${cardName(favourite, tr)}`}>
                    <span class="heart" aria-hidden="true">♥</span>
                    <CardFace code={favourite} size="chip" />
                  </span>
                ) : null}
                {blacks.length ? (
                  <span
                    class="chips blacks"
                    role="img"
                    aria-label={tr.plural("{n} black hat: {cards}", "{n} black hats: {cards}", blacks.length, {
                      cards: blacks.map((c) => cardName(c, tr)).join(", "),
                    })}
                  >
                    {blacks.map((c, i) => (
                      <BlackHatFace key={`${c}${i}`} code={c} />
                    ))}
                  </span>
                ) : null}
                <span class="chips" role="img" aria-label={tr.t("Collection: {cards}", { cards: (view.collections[seat] ?? []).map((c) => cardName(c, tr)).join(", ") || "—" })}>
                  {(view.collections[seat] ?? []).map((c, i) => (
                    <CardFace key={`${c}${i}`} code={c} size="chip" />
                  ))}
                </span>
              </span>
              {parts ? (
                <span class="parts" data-testid={`parts-${seat}`}>
                  <span class="part" data-part="collection">
                    {tr.t("Collection")} <b>{parts.collection}</b>
                  </span>
                  <span class="part" data-part="black_hats">
                    {tr.t("Black hats")} <b>{parts.black_hats}</b>
                  </span>
                  <span class="part fav-part" data-part="favourite">
                    <span class="heart" aria-hidden="true">♥</span> {tr.t("Favourite hat")} <b>{signed(parts.favourite)}</b>
                  </span>
                  <span class="part" data-part="cookie">
                    {tr.t("Cookie")} <b>{parts.cookie}</b>
                  </span>
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      <div class="end-actions">
        {view.seat !== null ? (
          <button type="button" class="action primary" data-testid="rematch" onClick={() => void ctl.rematch()}>
            {tr.t("Rematch")}
          </button>
        ) : null}
      </div>
    </section>
  );
}

export function EndScreen({ view, result }: { view: View; result: GameResult }): JSX.Element {
  const { tr } = useApp();
  return (
    <main class="end-screen" data-testid="end-screen" data-game-id={view.game_id}>
      <section class="end-table" aria-label={tr.t("Tea table")}>
        {view.board.map((card, i) => (
          <span key={i} class="slot" role="img" aria-label={tr.t("slot {slot}: {card}", { slot: i + 1, card: cardName(card, tr) })}>
            <span class="number" aria-hidden="true">
              {i + 1}
            </span>
            <CardFace code={card} />
          </span>
        ))}
      </section>
      <EndPanel view={view} result={result} />
      <Toast />
    </main>
  );
}

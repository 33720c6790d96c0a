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
import type { Tr } from "../i18n";

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
      {teams && teamTotals ? (
        <ul class="team-totals" data-testid="winner" aria-label={winnerLine(view, result, tr)}>
          {[0, 1]
            .sort((a, b) => (teamTotals[b] ?? 0) - (teamTotals[a] ?? 0))
            .map((i) => (
              <li key={i} class={`team${i}`}>
                {teams[i]!.some((s) => result.winners.includes(s)) ? "🏆 " : ""}
                {tr.t("{team}: {members}", {
                  team: tr.t(TEAM_NAMES[i === 1 ? 1 : 0]),
                  members: teams[i]!.map((s) => view.names[s] ?? "").join(" & "),
                })}{" "}
                · {tr.plural("{n} point", "{n} points", teamTotals[i] ?? 0)}
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
          return (
            <li key={seat} class={`row${winner ? " winner" : ""}${team !== null ? ` team${team}` : ""}`} data-testid={`rank-${seat}`}>
              <span class="rank">{place}.</span>
              <span class="name">
                {winner ? "🏆 " : ""}
                {seatName(view, seat, tr)}
                {team !== null ? <span class={`team-label team${team}`}> {tr.t(TEAM_NAMES[team])}</span> : null}
              </span>
              <span class="total">{tr.plural("{n} point", "{n} points", result.totals[seat] ?? 0)}</span>
              <span class="detail">
                {favourite ? (
                  <span class="fav" role="img" aria-label={`${tr.t("Favourite hat")}: ${cardName(favourite, tr)}`}>
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
    </main>
  );
}

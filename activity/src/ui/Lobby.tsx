/**
 * The channel's lobby, as its message and buttons in the channel: who sits where (teams with
 * 4 players, R5), AI players and their level, the turn timer, hints; join, leave, pick a
 * team, shuffle, add or remove an AI, start, cancel; or open a new lobby when there is none.
 * The server checks who may do what (the host's controls are only shown to the host).
 */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AiLevel, Lobby } from "../protocol";
import { useApp } from "./context";
import { Avatar } from "./Avatar";
import { LanguageMenu } from "./Language";
import { TEAM_NAMES } from "./names";
import { InviteButton } from "./Reactions";

const LEVELS: AiLevel[] = ["easy", "normal", "hard", "expert"];
const AI_LABELS: Record<AiLevel, string> = {
  easy: "AI: easy",
  normal: "AI: normal",
  hard: "AI: hard",
  expert: "AI: expert",
};
/** The lobby's timer choices in seconds (0: none), as cogs.timers.TIMER_CHOICES. */
export const TIMER_CHOICES = [0, 30, 60, 120, 300, 600, 1800, 3600];

export function LobbyScreen({ lobby }: { lobby: Lobby | null }): JSX.Element {
  const { tr, ctl, state } = useApp();
  const [level, setLevel] = useState<AiLevel>("normal");
  if (lobby === null) {
    return (
      <main class="lobby empty" data-testid="lobby-empty">
        <h1>🎩 Hats</h1>
        <LanguageMenu tr={tr} value={state.language} />
        <p>{tr.t("There is no lobby in this channel yet.")}</p>
        <InviteButton />
        <button type="button" class="action primary" data-testid="lobby-open" onClick={() => void ctl.lobby({ op: "open" })}>
          {tr.t("Open a new lobby")}
        </button>
        {state.notice ? <p class="prompt error" role="alert">{state.notice.text}</p> : null}
      </main>
    );
  }
  const taken = lobby.seats.filter((s) => s.user_id !== null || s.ai_level !== null);
  const open = Math.max(0, lobby.max_seats - taken.length);
  const host = lobby.seats.find((s) => s.user_id === lobby.host_id)?.name ?? "";
  const status =
    taken.length < 2
      ? tr.plural("Waiting for {n} more player to start.", "Waiting for {n} more players to start.", 2 - taken.length)
      : open
        ? tr.plural("Ready to start; {n} place is still open.", "Ready to start; {n} places are still open.", open)
        : tr.t("The table is full.");
  const teams = taken.length === 4 || lobby.seats.some((s) => s.team !== null);
  const seats = [...lobby.seats];
  while (seats.length < lobby.max_seats) seats.push({ user_id: null, name: "", ai_level: null, team: null });
  const hasAi = lobby.seats.some((s) => s.ai_level !== null);
  const timerLabel = (v: number) => (v ? tr.t("Turn timer: {time}", { time: tr.duration(v) }) : tr.t("Turn timer: none"));
  const timers = lobby.timer !== null && !TIMER_CHOICES.includes(lobby.timer) ? [...TIMER_CHOICES, lobby.timer] : TIMER_CHOICES;
  return (
    <main class="lobby" data-testid="lobby" data-lobby-id={lobby.id}>
      <div class="lobby-head">
        <h1>{tr.t("Hats: a new game is forming")}</h1>
        <div class="row people-row">
          <LanguageMenu tr={tr} value={state.language} />
          <InviteButton />
        </div>
      </div>
      <p class="host">{tr.t("Hosted by {host}.", { host })}</p>
      {teams ? <p class="teams-note">{tr.t("Teams (partners sit opposite)")}</p> : null}
      {lobby.note ? <p class="note" data-testid="lobby-note">{lobby.note}</p> : null}
      <ol class="seats" data-testid="lobby-seats">
        {seats.map((s, i) => {
          const empty = s.user_id === null && s.ai_level === null;
          const name = empty
            ? tr.t("open place")
            : s.ai_level
              ? tr.t("{player} · {level}", { player: s.name, level: tr.t(s.ai_level) })
              : s.name;
          return (
            <li key={i} class={`seat${empty ? " empty" : ""}${s.team !== null ? ` team${s.team}` : ""}`} data-testid={`lobby-seat-${i}`}>
              {empty ? null : <Avatar name={s.name} avatar={s.avatar} ai={s.ai_level !== null} size={24} />}
              <span class="name">{name}</span>
              {s.team !== null ? <span class={`team-label team${s.team}`}>{tr.t(TEAM_NAMES[s.team])}</span> : null}
            </li>
          );
        })}
      </ol>
      <p class="status" data-testid="lobby-status">
        {status}
      </p>
      <p class="settings">
        {timerLabel(lobby.timer ?? 0)}
      </p>
      <div class="row">
        {lobby.you_joined ? (
          <button type="button" class="action" data-testid="lobby-leave" onClick={() => void ctl.lobby({ op: "leave" })}>
            {tr.t("Leave")}
          </button>
        ) : (
          <button type="button" class="action primary" data-testid="lobby-join" onClick={() => void ctl.lobby({ op: "join" })}>
            {tr.t("Join")}
          </button>
        )}
        {lobby.you_joined && teams ? (
          <>
            <button type="button" class="action team0" data-testid="lobby-team-0" onClick={() => void ctl.lobby({ op: "team", team: 0 })}>
              {tr.t("Team A")}
            </button>
            <button type="button" class="action team1" data-testid="lobby-team-1" onClick={() => void ctl.lobby({ op: "team", team: 1 })}>
              {tr.t("Team B")}
            </button>
          </>
        ) : null}
      </div>
      {lobby.you_host ? (
        <div class="host-controls">
          <div class="row">
            <select
              data-testid="lobby-ai-level"
              aria-label={tr.t("Add an AI player (choose its level)")}
              value={level}
              onChange={(e) => setLevel((e.target as HTMLSelectElement).value as AiLevel)}
            >
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {tr.t(AI_LABELS[l])}
                </option>
              ))}
            </select>
            <button
              type="button"
              class="action"
              data-testid="lobby-ai-add"
              disabled={open === 0}
              onClick={() => void ctl.lobby({ op: "ai_add", level })}
            >
              + {tr.t(AI_LABELS[level])}
            </button>
            <button type="button" class="action" data-testid="lobby-ai-remove" disabled={!hasAi} onClick={() => void ctl.lobby({ op: "ai_remove" })}>
              {tr.t("Remove AI")}
            </button>
          </div>
          <div class="row">
            <select
              data-testid="lobby-timer"
              aria-label={timerLabel(lobby.timer ?? 0)}
              value={String(lobby.timer ?? 0)}
              onChange={(e) => void ctl.lobby({ op: "timer", seconds: Number((e.target as HTMLSelectElement).value) })}
            >
              {timers.map((v) => (
                <option key={v} value={String(v)}>
                  {timerLabel(v)}
                </option>
              ))}
            </select>
            <button
              type="button"
              class="toggle"
              data-testid="lobby-hints"
              aria-pressed={lobby.hints}
              onClick={() => void ctl.lobby({ op: "hints", on: !lobby.hints })}
            >
              {tr.t(lobby.hints ? "Hints: on (turn off)" : "Hints: off (turn on)")}
            </button>
            {teams ? (
              <button type="button" class="action" data-testid="lobby-shuffle" onClick={() => void ctl.lobby({ op: "shuffle" })}>
                {tr.t("Shuffle teams")}
              </button>
            ) : null}
          </div>
          <div class="row">
            <button type="button" class="action primary" data-testid="lobby-start" disabled={!lobby.can_start} onClick={() => void ctl.lobby({ op: "start" })}>
              {tr.t("Start")}
            </button>
            <button type="button" class="action danger" data-testid="lobby-cancel" onClick={() => void ctl.lobby({ op: "cancel" })}>
              {tr.t("Cancel")}
            </button>
          </div>
        </div>
      ) : null}
      {state.notice ? (
        <p class="prompt error" role="alert" data-testid="prompt">
          {state.notice.text}
        </p>
      ) : null}
    </main>
  );
}

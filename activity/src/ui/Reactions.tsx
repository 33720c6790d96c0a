/**
 * The table bar (issue 34 s. 3, issue 35 s. 9): who watches ("3 watching", their avatars),
 * quick reactions (a player taps 🙂 and one of six fixed emoji; the server shows it on their
 * seat to the whole table, public as everything said at the table, R10) and, inside Discord,
 * Invite (the SDK's invite dialog), a player's sound toggle and the guide's "?". 44 px controls under the tea
 * table, at the end of the last events' row; the open picker covers that row.
 */
import type { JSX } from "preact";
import { useContext, useState } from "preact/hooks";
import type { View } from "../protocol";
import { REACTIONS } from "../social";
import { Avatar, DiscordContext, useSocial } from "./Avatar";
import { useApp } from "./context";
import { SoundToggle } from "./TurnCue";

/** "3 watching" with the watchers' avatars; nothing while nobody watches. */
export function Watchers({ gameId }: { gameId: string }): JSX.Element | null {
  const { tr } = useApp();
  const { watching } = useSocial();
  if (!watching || watching.game_id !== gameId || watching.count === 0) return null;
  const names = watching.watchers.map((w) => w.name).join(", ");
  const text = tr.plural("{n} watching", "{n} watching", watching.count);
  return (
    <span class="watchers" data-testid="watching" role="status" aria-label={`${text}: ${names}`}>
      <span class="faces" aria-hidden="true">
        {watching.watchers.slice(0, 3).map((w, i) => (
          <Avatar key={i} name={w.name} avatar={w.avatar} size={22} />
        ))}
      </span>
      <span class="count" aria-hidden="true">
        {text}
      </span>
    </span>
  );
}

/** Discord's invite dialog (inside Discord only). */
export function InviteButton(): JSX.Element | null {
  const { tr } = useApp();
  const { invite } = useContext(DiscordContext);
  if (!invite) return null;
  return (
    <button type="button" class="action invite" data-testid="invite" onClick={() => void invite().catch(() => undefined)}>
      {tr.t("Invite")}
    </button>
  );
}

/** `guide`: the guide's "?" button, the bar's last control. */
export function TableBar({ view, guide }: { view: View; guide?: JSX.Element }): JSX.Element {
  const { tr, ctl } = useApp();
  const [open, setOpen] = useState(false);
  const player = view.seat !== null && view.result === null;
  const send = async (emoji: string): Promise<void> => {
    setOpen(false);
    const answer = await ctl.conn.request({ t: "react", game_id: view.game_id, emoji });
    if (!answer.ok && answer.message) {
      const text = answer.message;
      ctl.store.update((s) => ({ ...s, notice: { text, kind: "error" } }));
    }
  };
  return (
    <section class={`table-bar${open ? " open" : ""}`} data-testid="table-bar">
      {open ? (
        <span class="reaction-picker" role="group" aria-label={tr.t("React")}>
          {REACTIONS.map((emoji) => (
            <button key={emoji} type="button" class="emoji" data-testid={`react-${emoji}`} onClick={() => void send(emoji)}>
              {emoji}
            </button>
          ))}
        </span>
      ) : (
        <Watchers gameId={view.game_id} />
      )}
      <span class="bar-end">
        {player ? (
          <button
            type="button"
            class="emoji react"
            data-testid="react"
            aria-label={tr.t("React")}
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            <span aria-hidden="true">{open ? "✕" : "🙂"}</span>
          </button>
        ) : null}
        {player && !open ? <SoundToggle /> : null}
        {open ? null : <InviteButton />}
        {open ? null : guide}
      </span>
    </section>
  );
}

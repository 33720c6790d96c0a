/**
 * The people at the table (issue 34 s. 3): avatars, who watches, quick reactions, Invite.
 *
 * A Discord player shows their Discord avatar (a CDN path the server sent, loaded through
 * the Activity's URL mapping); an AI seat keeps its own look (🤖); a local player, or one
 * whose picture does not load, gets initials on a colour drawn from the name.
 */
import { createContext, type JSX } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";
import { avatarColour, initials, NO_DISCORD, type DiscordBits, type Social, type SocialState } from "../social";

export const DiscordContext = createContext<DiscordBits>(NO_DISCORD);
export const SocialContext = createContext<Social | null>(null);

/** The shared-table state (watching, reactions), re-rendering on change. */
export function useSocial(): SocialState {
  const social = useContext(SocialContext);
  const [state, setState] = useState<SocialState>(social?.state ?? { watching: null, reactions: {} });
  useEffect(() => {
    if (!social) return undefined;
    setState(social.state);
    return social.subscribe(() => setState(social.state));
  }, [social]);
  return state;
}

export function Avatar({
  name,
  avatar,
  ai = false,
  active = false,
  size = 24,
}: {
  name: string;
  avatar?: string | null;
  ai?: boolean;
  active?: boolean;
  size?: number;
}): JSX.Element {
  const { avatarUrl } = useContext(DiscordContext);
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [avatar]);
  const style = { width: `${size}px`, height: `${size}px`, fontSize: `${Math.round(size * 0.42)}px` };
  const cls = `avatar${active ? " active" : ""}`;
  if (ai) {
    return (
      <span class={`${cls} ai`} style={style} aria-hidden="true" data-avatar="ai">
        🤖
      </span>
    );
  }
  if (avatar && avatarUrl && !failed) {
    return (
      <img
        class={cls}
        style={style}
        src={avatarUrl(avatar)}
        alt=""
        aria-hidden="true"
        data-avatar="discord"
        loading="lazy"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span class={`${cls} drawn`} style={{ ...style, background: avatarColour(name) }} aria-hidden="true" data-avatar="drawn">
      {initials(name)}
    </span>
  );
}

/** A reaction shown on a seat for a moment (announced politely to screen readers). */
export function ReactionBubble({ seat, name }: { seat: number; name: string }): JSX.Element | null {
  const { reactions } = useSocial();
  const shown = reactions[seat];
  if (!shown) return null;
  return (
    <span key={shown.key} class="reaction-bubble" data-testid={`reaction-${seat}`} role="status" aria-label={`${name}: ${shown.emoji}`}>
      {shown.emoji}
    </span>
  );
}

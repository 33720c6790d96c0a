/**
 * Signing in, as Discord's Activities do it (docs/ACTIVITY_PROTOCOL.md, HTTP):
 *
 * - Inside Discord (the iframe's URL carries `frame_id`): the Embedded App SDK's `ready`,
 *   `authorize` (scope `identify`) for an OAuth2 code, `POST /api/token` with it, then
 *   `authenticate` with the returned access token. The instance id comes from the SDK (the
 *   server asks Discord where that instance runs: the client's channel is never trusted),
 *   the locale from `userSettingsGetLocale`.
 * - Outside Discord (local mode, tests): `DiscordSDKMock` stands in for the SDK; the player
 *   picks a name and `POST /api/local` signs them in (only when `GET /api/config` says the
 *   server runs in local mode). The channel is the URL's `channel_id` (default "1").
 */
import type { Config, SessionAnswer, User } from "./protocol";
import { CDN_MAPPING } from "./social";

export interface Session {
  session: string;
  user: User;
  expiresAt: number;
  /** The Activity instance (the SDK's `instanceId`): the server verifies it with Discord. */
  instanceId: string | null;
  channelId: string;
  guildId: string | null;
  locale: string;
  local: boolean;
  /** Signs in again (a 4001 close: expired session); resolves with the new session. */
  renew: () => Promise<Session>;
  /** Inside Discord: a CDN path's address through the Activity's URL mapping. */
  avatarUrl?: (path: string) => string;
  /** Inside Discord: the SDK's invite dialog. */
  invite?: () => Promise<void>;
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Whether the page runs inside Discord's Activity iframe (Discord adds `frame_id`). */
export function inDiscord(search: string): boolean {
  return new URLSearchParams(search).has("frame_id");
}

export class SignInError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
  ) {
    super(`sign-in failed: ${status} ${code}`);
  }
}

async function postJson<T>(fetchFn: Fetch, path: string, body: unknown): Promise<T> {
  const res = await fetchFn(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const code = (data as { error?: unknown } | null)?.error;
    throw new SignInError(typeof code === "string" ? code : "http_error", res.status);
  }
  return data as T;
}

export async function getConfig(fetchFn: Fetch): Promise<Config> {
  const res = await fetchFn("/api/config");
  if (!res.ok) throw new SignInError("no_config", res.status);
  return (await res.json()) as Config;
}

type Sdk = typeof import("@discord/embedded-app-sdk");

/** Sign in through Discord (inside the Activity iframe). */
export async function discordSignIn(config: Config, sdkModule: Sdk, fetchFn: Fetch): Promise<Session> {
  const sdk = new sdkModule.DiscordSDK(config.client_id);
  await sdk.ready();
  const once = async (): Promise<Session> => {
    const { code } = await sdk.commands.authorize({
      client_id: config.client_id,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    });
    const answer = await postJson<SessionAnswer>(fetchFn, "/api/token", { code });
    if (!answer.access_token) throw new SignInError("no_access_token", 200);
    await sdk.commands.authenticate({ access_token: answer.access_token });
    let locale = "en-US";
    try {
      locale = (await sdk.commands.userSettingsGetLocale()).locale || locale;
    } catch {
      /* an older client: English */
    }
    return {
      session: answer.session,
      user: answer.user,
      expiresAt: answer.expires_at,
      instanceId: sdk.instanceId || null,
      channelId: sdk.channelId ?? "",
      guildId: sdk.guildId ?? null,
      locale,
      local: false,
      renew: once,
      // the iframe may only load mapped addresses: cdn.discordapp.com through CDN_MAPPING
      avatarUrl: (path) =>
        sdkModule
          .attemptRemap({ url: new URL(`https://${CDN_MAPPING.target}/${path}?size=64`), mappings: [CDN_MAPPING] })
          .toString(),
      invite: async () => {
        await sdk.commands.openInviteDialog();
      },
    };
  };
  return once();
}

const STORE_KEY = "hats.local.session";

interface Stored {
  name: string;
  answer: SessionAnswer;
}

/**
 * Where the SDK mock says a local table sits: the URL's `channel_id` and `guild_id` (defaults
 * "1"); `guild_id=none` is a DM or group DM (no server: the lobby is unrated, as in Discord).
 */
export function localPlace(search: string): { channelId: string; guildId: string | null } {
  const q = new URLSearchParams(search);
  const digits = (v: string | null, d: string): string => (v && /^\d{1,20}$/.test(v) ? v : d);
  const guildId = q.get("guild_id") === "none" ? null : digits(q.get("guild_id"), "1");
  return { channelId: digits(q.get("channel_id"), "1"), guildId };
}

/** The name a player must pick in local mode: 1–32 characters once trimmed. */
export function validName(name: string): string | null {
  const trimmed = name.trim();
  const length = [...trimmed].length;
  return length >= 1 && length <= 32 ? trimmed : null;
}

/** A session this tab already has (sessionStorage: another tab is another player). */
export function storedLocal(storage: Storage | null, now: number): Stored | null {
  try {
    const raw = storage?.getItem(STORE_KEY);
    if (!raw) return null;
    const stored = JSON.parse(raw) as Stored;
    return stored.answer.expires_at * 1000 > now + 60_000 ? stored : null;
  } catch {
    return null;
  }
}

/** Sign in by name in local mode (`POST /api/local`), with the SDK mock for the place. */
export async function localSignIn(
  name: string,
  config: Config,
  sdkModule: Sdk,
  fetchFn: Fetch,
  opts: { search: string; storage: Storage | null; language: string; reuse?: SessionAnswer },
): Promise<Session> {
  const place = localPlace(opts.search);
  const mock = new sdkModule.DiscordSDKMock(config.client_id || "0", place.guildId, place.channelId, null);
  await mock.ready();
  const once = async (reuse?: SessionAnswer): Promise<Session> => {
    const answer = reuse ?? (await postJson<SessionAnswer>(fetchFn, "/api/local", { name }));
    try {
      opts.storage?.setItem(STORE_KEY, JSON.stringify({ name, answer } satisfies Stored));
    } catch {
      /* private mode: no storage */
    }
    return {
      session: answer.session,
      user: answer.user,
      expiresAt: answer.expires_at,
      instanceId: null, // local mode: one local table, nothing to verify
      channelId: mock.channelId ?? place.channelId,
      guildId: place.guildId === null ? null : (mock.guildId ?? place.guildId),
      locale: opts.language,
      local: true,
      renew: () => once(),
    };
  };
  return once(opts.reuse);
}

/**
 * Entry point: sign in (Discord or local mode), open the protocol connection and render.
 * See auth.ts for the sign-in, connection.ts for the WebSocket, ui/ for the screens.
 */
import { render } from "preact";
import { discordSignIn, getConfig, inDiscord, localSignIn, storedLocal, validName, type Session } from "./auth";
import { Connection } from "./connection";
import { Controller } from "./controller";
import { languageOf, Tr } from "./i18n";
import type { Config } from "./protocol";
import { played } from "./sound";
import { initialState, reduce, Store } from "./store";
import { App } from "./ui/App";
import { SignIn } from "./ui/SignIn";
import "./styles.css";
import { applyTheme } from "./theme";
import type { Language } from "./protocol";
import { Social, type DiscordBits } from "./social";
import { DiscordContext, SocialContext } from "./ui/Avatar";
import { LanguageSelect, saveLanguage, storedLanguage } from "./ui/Language";

const root = document.getElementById("app")!;
applyTheme(document.documentElement);
/** The browser's language, or the one chosen in local mode's menu (remembered). */
let browserLanguage = languageOf(storedLanguage() ?? navigator.language);

function message(text: string, retry?: () => void): void {
  const tr = new Tr(browserLanguage);
  render(
    <main class="message" data-testid="message">
      <h1>🎩 Hats</h1>
      <p role="alert">{text}</p>
      {retry ? (
        <button type="button" class="action primary" onClick={retry}>
          {tr.t("Try again")}
        </button>
      ) : null}
    </main>,
    root,
  );
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function wsUrl(): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws`;
}

function play(first: Session): void {
  let session = first;
  const chosen = (): string => (session.local ? (storedLanguage() ?? session.locale) : session.locale);
  const store = new Store(initialState(languageOf(chosen())));
  const social = new Social();
  let ctl: Controller | null = null;
  const conn = new Connection({
    url: wsUrl(),
    socket: (url) => new WebSocket(url) as unknown as import("./connection").SocketLike,
    hello: () => ({
      session: session.session,
      instance_id: session.instanceId,
      channel_id: session.channelId,
      guild_id: session.guildId,
      locale: chosen(),
    }),
    renewSession: async () => {
      session = await session.renew();
    },
    onFrame: (frame) => {
      social.receive(frame);
      store.update((s) => reduce(s, frame, ctl?.chatOpen ?? false));
    },
    onState: (state) => store.update((s) => ({ ...s, conn: state })),
  });
  ctl = new Controller(store, conn);
  window.addEventListener("online", () => conn.retryNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") conn.retryNow();
  });
  const bits: DiscordBits = {
    avatarUrl: session.avatarUrl ?? null,
    invite: session.invite ?? null,
    // local mode: another language at once, and the server's texts in it (a new hello)
    chooseLanguage: session.local
      ? (language: Language) => {
          saveLanguage(language);
          store.update((s) => ({ ...s, language }));
          conn.stop();
          conn.start();
        }
      : null,
  };
  render(
    <DiscordContext.Provider value={bits}>
      <SocialContext.Provider value={social}>
        <App ctl={ctl} />
      </SocialContext.Provider>
    </DiscordContext.Provider>,
    root,
  );
  conn.start();
  (window as unknown as { hats?: unknown }).hats = { store, conn, sound: played, social };
}

async function boot(): Promise<void> {
  let tr = new Tr(browserLanguage);
  // Something on screen at once, and the SDK's chunk (the larger half of the app) fetched and
  // evaluated while the config is asked for: first render 4x CPU-throttled, BENCHMARKS.md.
  render(
    <main class="message" data-testid="connecting">
      <h1>🎩 Hats</h1>
      <p>{tr.t("Connecting…")}</p>
    </main>,
    root,
  );
  const sdkModule = import("@discord/embedded-app-sdk");
  let config: Config;
  try {
    config = await getConfig(fetch);
  } catch {
    message(tr.t("Could not sign in. Try again."), () => void boot());
    return;
  }
  const sdk = await sdkModule;
  if (inDiscord(location.search)) {
    try {
      play(await discordSignIn(config, sdk, fetch));
    } catch {
      message(tr.t("Could not sign in. Try again."), () => void boot());
    }
    return;
  }
  if (!config.local) {
    message(tr.t("Could not sign in. Try again."));
    return;
  }
  const opts = { search: location.search, storage: storage(), language: storedLanguage() ?? navigator.language };
  const stored = storedLocal(opts.storage, Date.now());
  if (stored) {
    play(await localSignIn(stored.name, config, sdk, fetch, { ...opts, reuse: stored.answer }));
    return;
  }
  const preset = new URLSearchParams(location.search).get("name"); // harness and tests: no prompt
  if (preset && validName(preset)) {
    play(await localSignIn(validName(preset)!, config, sdk, fetch, opts));
    return;
  }
  const ask = (failed: boolean, busy = false, initial = ""): void => {
    const language = (l: Language): void => {
      saveLanguage(l);
      browserLanguage = l;
      opts.language = l;
      tr = new Tr(l);
      document.documentElement.lang = l;
      ask(failed, busy, initial);
    };
    render(
      <SignIn
        tr={tr}
        languageMenu={<LanguageSelect tr={tr} value={browserLanguage} onChange={language} />}
        initial={initial}
        busy={busy}
        failed={failed}
        onName={(name) => {
          ask(false, true, name);
          localSignIn(name, config, sdk, fetch, opts).then(play, () => ask(true, false, name));
        }}
      />,
      root,
    );
  };
  ask(false);
}

void boot();

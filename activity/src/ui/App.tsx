/** The app's screens: sign-in (local mode), connecting, lobby, game, end; the connection banner. */
import type { JSX } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Controller } from "../controller";
import { Tr } from "../i18n";
import { screenOf, type Store } from "../store";
import { Sprite } from "./art";
import { AppContext } from "./context";
import { EndScreen } from "./End";
import { GameScreen } from "./Game";
import { LobbyScreen } from "./Lobby";
import { offline, Status } from "./Status";

export function useStore(store: Store): Store["state"] {
  const [state, setState] = useState(store.state);
  useEffect(() => {
    setState(store.state);
    return store.subscribe(() => setState(store.state));
  }, [store]);
  return state;
}

export function App({ ctl }: { ctl: Controller }): JSX.Element {
  const state = useStore(ctl.store);
  const tr = useMemo(() => new Tr(state.language), [state.language]);
  useEffect(() => {
    document.documentElement.lang = state.language;
  }, [state.language]);
  const screen = screenOf(state);
  let body: JSX.Element;
  if (screen === "unsupported") {
    body = (
      <main class="message" data-testid="unsupported">
        <h1>🎩 Hats</h1>
        <p>{state.unsupported}</p>
      </main>
    );
  } else if (screen === "game" && state.view) {
    body = state.view.result ? <EndScreen view={state.view} result={state.view.result} /> : <GameScreen view={state.view} />;
  } else if (screen === "lobby") {
    body = <LobbyScreen lobby={state.lobby ?? null} />;
  } else {
    body = (
      <main class="message" data-testid="connecting">
        <h1>🎩 Hats</h1>
        <p>{tr.t("Connecting…")}</p>
      </main>
    );
  }
  // Offline after having been online: the last screen stays in sight, greyed and inert (no
  // control takes a tap or the focus) until the connection is back (issue 35.8).
  const wasOnline = state.user !== null;
  const away = offline(state.conn, wasOnline);
  return (
    <AppContext.Provider value={{ state, tr, ctl }}>
      <Sprite />
      <Status conn={state.conn} tr={tr} onRetry={() => ctl.conn.retryNow()} wasOnline={wasOnline} />
      <div class={`screen${away ? " offline" : ""}`} data-testid="screen" data-offline={away ? "true" : "false"} inert={away}>
        {body}
      </div>
    </AppContext.Provider>
  );
}

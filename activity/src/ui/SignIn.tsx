/** Local mode's sign-in: pick a name (1–32 characters); another tab is another player. */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { validName } from "../auth";
import type { Tr } from "../i18n";

export function SignIn({ tr, initial, busy, failed, onName, languageMenu }: {
  tr: Tr;
  /** Local mode's language menu (src/ui/Language.tsx). */
  languageMenu?: JSX.Element;
  initial: string;
  busy: boolean;
  failed: boolean;
  onName: (name: string) => void;
}): JSX.Element {
  const [name, setName] = useState(initial);
  const [invalid, setInvalid] = useState(false);
  return (
    <main class="signin" data-testid="signin">
      <h1>🎩 Hats</h1>
      {languageMenu ?? null}
      <p>{tr.t("Pick a name to play in this browser; another tab is another player.")}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const ok = validName(name);
          setInvalid(ok === null);
          if (ok !== null) onName(ok);
        }}
      >
        <label for="player-name">{tr.t("Your name")}</label>
        <input
          id="player-name"
          data-testid="name-input"
          type="text"
          maxLength={32}
          autoComplete="nickname"
          value={name}
          aria-invalid={invalid}
          aria-describedby={invalid ? "name-error" : undefined}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="action primary" data-testid="name-submit" disabled={busy}>
          {tr.t("Play")}
        </button>
      </form>
      {invalid ? (
        <p id="name-error" class="prompt error" role="alert">
          {tr.t("A name has 1 to 32 characters.")}
        </p>
      ) : null}
      {failed ? (
        <p class="prompt error" role="alert">
          {tr.t("Could not sign in. Try again.")}
        </p>
      ) : null}
    </main>
  );
}

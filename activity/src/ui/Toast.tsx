/**
 * A refusal or a hint, in full (issue 35.3): it wraps over as many lines as it needs and
 * stays until the player taps it (or acts: the controller clears it), never cut to one line
 * with an ellipsis nor kept in a tooltip a phone never shows.
 */
import type { JSX } from "preact";
import { useApp } from "./context";

export function Toast(): JSX.Element | null {
  const { tr, state, ctl } = useApp();
  const notice = state.notice;
  if (!notice) return null;
  return (
    <div class={`toast ${notice.kind}`} data-testid="toast" role={notice.kind === "error" ? "alert" : "status"}>
      <button type="button" class="toast-body" data-testid="toast-text" onClick={() => ctl.dismissNotice()}>
        {notice.text}
      </button>
      <button type="button" class="toast-close" aria-label={tr.t("Close")} onClick={() => ctl.dismissNotice()}>
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}

/**
 * The connection banner: connecting, reconnecting, or lost with the next retry and a "Try now"
 * button that tries at once (issue 35.8). While the app is offline after having been online,
 * the screen under the banner is greyed out and inert (App), so no tap goes nowhere.
 */
import type { JSX } from "preact";
import type { ConnState } from "../connection";
import type { Tr } from "../i18n";
import { useNow } from "./context";

/** Whether the app lost a connection it had (the screen below shows the last known state). */
export function offline(conn: ConnState, wasOnline: boolean): boolean {
  return wasOnline && (conn.status === "connecting" || conn.status === "waiting" || conn.status === "signed_out");
}

export function Status({
  conn,
  tr,
  onRetry,
  wasOnline = false,
}: {
  conn: ConnState;
  tr: Tr;
  onRetry: () => void;
  wasOnline?: boolean;
}): JSX.Element | null {
  const waiting = conn.status === "waiting" || conn.status === "signed_out";
  const now = useNow(waiting);
  if (conn.status === "open" || conn.status === "idle" || conn.status === "unsupported" || conn.status === "stopped") {
    return null;
  }
  const retry = (
    <button type="button" data-testid="conn-retry" onClick={onRetry}>
      {tr.t("Try now")}
    </button>
  );
  if (conn.status === "connecting") {
    if (!wasOnline) {
      return (
        <div class="status-banner" role="status" data-testid="conn-status" data-status="connecting">
          {tr.t("Connecting…")}
        </div>
      );
    }
    return (
      <div class="status-banner lost" role="status" data-testid="conn-status" data-status="reconnecting">
        <span>{tr.t("Reconnecting…")}</span>
        {retry}
      </div>
    );
  }
  const seconds = conn.retryAt !== null ? Math.max(0, Math.ceil(conn.retryAt / 1000 - now)) : 0;
  return (
    <div class="status-banner lost" role="alert" data-testid="conn-status" data-status={conn.status}>
      <span>
        {conn.status === "signed_out"
          ? tr.t("Could not sign in. Try again.")
          : tr.t("Connection lost: trying again in {seconds} s.", { seconds })}
      </span>
      {retry}
    </div>
  );
}

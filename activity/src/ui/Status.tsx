/** The connection banner: connecting, or lost with the next retry and a "Try now" button. */
import type { JSX } from "preact";
import type { ConnState } from "../connection";
import type { Tr } from "../i18n";
import { useNow } from "./context";

export function Status({ conn, tr, onRetry }: { conn: ConnState; tr: Tr; onRetry: () => void }): JSX.Element | null {
  const waiting = conn.status === "waiting" || conn.status === "signed_out";
  const now = useNow(waiting);
  if (conn.status === "open" || conn.status === "idle" || conn.status === "unsupported" || conn.status === "stopped") {
    return null;
  }
  if (conn.status === "connecting") {
    return (
      <div class="status-banner" role="status" data-testid="conn-status" data-status="connecting">
        {tr.t("Connecting…")}
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
      <button type="button" data-testid="conn-retry" onClick={onRetry}>
        {tr.t("Try now")}
      </button>
    </div>
  );
}

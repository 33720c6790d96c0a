/**
 * The team chat of a 4-player game (R10: partners may talk, but not name a card's type,
 * colour or number): a drawer with the partner's `chat` frames and a field to answer. The
 * server's table-talk guard refuses a message that names a card; its words show in the chat.
 * Messages are user text: rendered as plain text (never HTML).
 */
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { View } from "../protocol";
import { useApp } from "./context";

let openSetter: ((open: boolean) => void) | null = null;

export function ChatButton(): JSX.Element {
  const { tr, state } = useApp();
  return (
    <button
      type="button"
      class="chat-button"
      data-testid="chat-open"
      aria-label={tr.t("Team chat")}
      title={tr.t("Team chat")}
      onClick={() => openSetter?.(true)}
    >
      {/* a speech bubble: the header's room goes to the turn line */}
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
      </svg>
      {state.chatUnread ? (
        <span class="badge" data-testid="chat-unread">
          {state.chatUnread}
        </span>
      ) : null}
    </button>
  );
}

export function Chat({ view }: { view: View }): JSX.Element | null {
  const { tr, state, ctl } = useApp();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    openSetter = (o) => {
      setOpen(o);
      ctl.setChatOpen(o);
    };
    return () => {
      openSetter = null;
    };
  }, [ctl]);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView?.({ block: "nearest" });
  }, [state.chat.length, open]);
  if (!open) return null;
  const close = () => {
    setOpen(false);
    ctl.setChatOpen(false);
  };
  return (
    <div
      class="chat"
      role="dialog"
      aria-modal="true"
      aria-label={tr.t("Team chat")}
      data-testid="chat"
      onKeyDown={(e) => {
        if (e.key === "Escape") close();
      }}
    >
      <div class="chat-head">
        <strong>{tr.t("Team chat")}</strong>
        <button type="button" data-testid="chat-close" onClick={close}>
          {tr.t("Close")}
        </button>
      </div>
      <ol class="chat-lines" ref={list} aria-live="polite">
        {state.chat.map((line) => (
          <li key={line.key} class={line.error ? "error" : line.from === view.seat ? "me" : "them"}>
            {line.error ? null : <strong>{line.name}: </strong>}
            {line.text}
          </li>
        ))}
      </ol>
      <form
        class="chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          void ctl.chat(text).then((sent) => {
            if (sent) setText("");
          });
        }}
      >
        <input
          ref={input}
          type="text"
          maxLength={500}
          value={text}
          data-testid="chat-input"
          aria-label={tr.t("Message to your partner")}
          placeholder={tr.t("Message to your partner")}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <button type="submit" data-testid="chat-send">
          {tr.t("Send")}
        </button>
      </form>
    </div>
  );
}

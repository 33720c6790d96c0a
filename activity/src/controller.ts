/**
 * The player's intents (tap a card, tap a slot, press an action) turned into protocol
 * requests, and their answers into the one-line notice. Holds no rules: what is legal comes
 * from the view (see legal.ts); the server decides and answers `ack` or `error`.
 */
import type { Connection, Answer } from "./connection";
import { answering, targetsFor, tapSlot } from "./legal";
import type { Action, CardCode, LobbyOp } from "./protocol";
import { addChatLine, type Store } from "./store";

export class Controller {
  /** Whether the chat drawer is open (its lines then count as read). */
  chatOpen = false;

  constructor(
    readonly store: Store,
    readonly conn: Connection,
  ) {}

  private notice(answer: Answer): void {
    if (answer.ok) return;
    if (answer.message) {
      this.store.update((s) => ({ ...s, notice: { text: answer.message!, kind: "error" } }));
    }
  }

  /** The player tapped the refusal or hint away (it stays until then, issue 35.3). */
  dismissNotice(): void {
    this.store.update((s) => ({ ...s, notice: null }));
  }

  /** Select (or unselect) a hand card; in a swap answer, the card to give back. */
  selectCard(card: CardCode): void {
    this.store.update((s) => ({
      ...s,
      selected: s.selected === card ? null : card,
      notice: null,
    }));
  }

  /** A tap on board slot `slot`: the exchange when legal, else why not (one line). */
  async tapSlot(slot: number): Promise<void> {
    const { view, selected } = this.store.state;
    const tap = tapSlot(view, selected, slot);
    if (tap.ok) {
      await this.act(tap.action);
      return;
    }
    if (tap.reason === "blocked" && tap.message) {
      const text = tap.message;
      this.store.update((s) => ({ ...s, notice: { text, kind: "error" } }));
    }
  }

  /** Play the selected card with a card action (black hat, discard, offer, answer). */
  async cardAction(kind: "black_hat" | "discard" | "offer_swap" | "answer_swap"): Promise<void> {
    const { view, selected } = this.store.state;
    if (!selected) return;
    const targets = targetsFor(view, selected);
    const ok =
      (kind === "black_hat" && targets.blackHat) ||
      (kind === "discard" && targets.discard) ||
      (kind === "offer_swap" && targets.offer) ||
      (kind === "answer_swap" && targets.answer);
    if (ok) await this.act({ kind, card: selected });
  }

  /** Send a move; the `view` that follows shows it. */
  async act(action: Action): Promise<void> {
    const view = this.store.state.view;
    if (!view) return;
    this.store.update((s) => ({ ...s, selected: null, notice: null, hint: null }));
    const answer = await this.conn.request({ t: "act", game_id: view.game_id, step: view.step, action });
    this.notice(answer);
  }

  async simple(kind: "end_turn" | "decline_swap" | "withdraw_swap"): Promise<void> {
    await this.act({ kind });
  }

  async autoEnd(on: boolean): Promise<void> {
    const view = this.store.state.view;
    if (!view) return;
    this.notice(await this.conn.request({ t: "auto_end", game_id: view.game_id, on }));
  }

  async hint(): Promise<void> {
    const view = this.store.state.view;
    if (!view) return;
    this.notice(await this.conn.request({ t: "hint", game_id: view.game_id }));
  }

  /** A team message; a refusal (the table-talk guard) shows in the chat itself. */
  async chat(text: string): Promise<boolean> {
    const view = this.store.state.view;
    const trimmed = text.trim();
    if (!view || !trimmed) return false;
    const answer = await this.conn.request({ t: "chat", game_id: view.game_id, text: trimmed });
    if (answer.ok) {
      const me = view.seat;
      const name = me !== null ? (view.names[me] ?? "") : "";
      this.store.update((s) => addChatLine(s, { from: me, name, text: trimmed }));
      return true;
    }
    if (answer.message) {
      const message = answer.message;
      this.store.update((s) => addChatLine(s, { from: null, name: "", text: message, error: true }));
    }
    return false;
  }

  async lobby(op: LobbyOp): Promise<void> {
    this.notice(await this.conn.request({ t: "lobby", ...op }));
  }

  async rematch(): Promise<void> {
    const view = this.store.state.view;
    if (!view) return;
    this.notice(await this.conn.request({ t: "rematch", game_id: view.game_id }));
  }

  setChatOpen(open: boolean): void {
    this.chatOpen = open;
    if (open) this.store.update((s) => ({ ...s, chatUnread: 0 }));
  }

  /** Whether the viewer is answering a partner's swap offer (the hand picks the card to give). */
  answering(): boolean {
    return answering(this.store.state.view);
  }
}

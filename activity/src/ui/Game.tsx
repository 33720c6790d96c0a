/**
 * The game screen: the whole turn at one glance (issue 28). Header (whose turn, timer, draw
 * deck and discard pile), the other players (hand size, black hats, collection, cookie,
 * team), the tea table's slots, the last events, your collection and black hats, your hand,
 * one line of guidance or refusal, and the actions. Tap a card, then a slot: 2 taps a turn.
 */
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { cardName, sortCards } from "../cards";
import { fitLayout, fitVars, type Fit } from "../layout";
import { answering, canDo, myMove, playableCards, targetsFor } from "../legal";
import type { CardCode, View } from "../protocol";
import { splitCards } from "../eventText";
import { movesBetween, playMoves } from "../motion";
import { focusSoon, roveIndex, tabStop } from "../rove";
import { cueOf } from "../turn";
import { BlackHatFace, CardBack, CardFace } from "./art";
import { Avatar, ReactionBubble } from "./Avatar";
import { Chat, ChatButton } from "./Chat";
import { Guide, GuideButton } from "./Guide";
import { TurnCue, TurnTimer } from "./TurnCue";
import { useApp, useNow, useViewport } from "./context";
import { useWholeLines } from "./fitLines";
import { partnerOf, seatName, TEAM_NAMES, teamOf } from "./names";
import { ScorePill } from "./Score";
import { Toast } from "./Toast";
import { TableBar } from "./Reactions";

const TURNS = 8; // R14

function Chips({ cards, label }: { cards: CardCode[]; label: string }): JSX.Element {
  return (
    <span class="chips" role="img" aria-label={label}>
      {sortCards(cards).map((c, i) => (
        <CardFace key={`${c}${i}`} code={c} size="chip" />
      ))}
    </span>
  );
}

function Header({ view }: { view: View }): JSX.Element {
  const { tr } = useApp();
  const over = view.result !== null;
  const mine = view.seat !== null && view.active_seat === view.seat;
  // A partner who must answer a swap offer is told that their answer is awaited (R10).
  const answer = !over && answering(view);
  const line = over
    ? tr.t("The game is over.")
    : answer
      ? tr.t("Round {round}/{rounds}: your answer is awaited.", { round: view.round, rounds: TURNS })
      : mine
        ? tr.t("Round {round}/{rounds}: it's your turn.", { round: view.round, rounds: TURNS })
        : tr.t("Round {round}/{rounds}: it's {who}'s turn.", {
            round: view.round,
            rounds: TURNS,
            who: view.names[view.active_seat] ?? "",
          });
  const now = useNow(view.deadline !== null && !over);
  const left = view.deadline !== null ? Math.max(0, Math.round(view.deadline - now)) : null;
  const deck = tr.plural("Draw deck: {n} card", "Draw deck: {n} cards", view.deck_size);
  const discard = tr.plural("Discard pile: {n} card", "Discard pile: {n} cards", view.discard_size);
  return (
    <header class="area header" style={{ gridArea: "header" }} data-testid="header">
      <span class={`turn${mine || answer ? " mine" : ""}`} data-testid="turn-line" aria-live="polite">
        {line}
      </span>
      {left !== null && view.deadline !== null && !over ? <TurnTimer deadline={view.deadline} left={left} /> : null}
      {view.teams === null ? (
        <span class="piles">
          <span class="pile" title={deck} aria-label={deck} role="img">
            <span class="icon deck" aria-hidden="true" />
            {view.deck_size}
          </span>
          <span class="pile" title={discard} aria-label={discard} role="img">
            <span class="icon discard" aria-hidden="true" />
            {view.discard_size}
          </span>
        </span>
      ) : null}
      {view.teams !== null && view.seat !== null && !over ? <ChatButton /> : null}
    </header>
  );
}

function Opponents({ view }: { view: View }): JSX.Element {
  const { tr } = useApp();
  const seats = view.names.map((_, s) => s).filter((s) => s !== view.seat);
  return (
    <section class="area opponents" style={{ gridArea: "opponents" }} data-testid="opponents">
      {seats.map((seat) => {
        const team = teamOf(view, seat);
        const name = seatName(view, seat, tr);
        const active = seat === view.active_seat && view.result === null;
        const hand = tr.plural("{n} card in hand", "{n} cards in hand", view.hand_sizes[seat] ?? 0);
        const blacks = tr.t("Black hats: {hats}", { hats: view.black_hat_counts[seat] ?? 0 });
        const collection = view.collections[seat] ?? [];
        const described = tr.t("Collection: {cards}", {
          cards: collection.map((c) => cardName(c, tr)).join(", ") || "—",
        });
        return (
          <div
            key={seat}
            class={`opponent${active ? " active" : ""}${team !== null ? ` team${team}` : ""}`}
            data-testid={`seat-${seat}`}
          >
            <ReactionBubble seat={seat} name={view.names[seat] ?? ""} />
            <span class="who">
              <Avatar name={view.names[seat] ?? ""} avatar={view.avatars?.[seat]} ai={view.ai[seat] != null} active={active} size={18} />
              <span class="name">{name}</span>
              {view.cookie === seat ? (
                <span class="cookie" role="img" aria-label={tr.t("{cookie} {who} holds the cookie.", { cookie: "🍪", who: name })}>
                  🍪
                </span>
              ) : null}
              <ScorePill view={view} seat={seat} />
            </span>
            <span class="goods">
              {team !== null ? <span class={`team-label team${team}`}>{tr.t(TEAM_NAMES[team])}</span> : null}
              <span class="counts">
                <span class="count" role="img" aria-label={hand}>
                  <CardBack />×{view.hand_sizes[seat] ?? 0}
                </span>
                <span class="count" role="img" aria-label={blacks}>
                  <BlackHatFace />×{view.black_hat_counts[seat] ?? 0}
                </span>
              </span>
              <Chips cards={collection} label={described} />
            </span>
          </div>
        );
      })}
    </section>
  );
}

function Table({ view }: { view: View }): JSX.Element {
  const { tr, state, ctl } = useApp();
  const targets = targetsFor(view, state.selected);
  const choosing = state.selected !== null && myMove(view);
  const hinted = state.hint?.kind === "exchange" ? state.hint.slot : null;
  // One Tab stop for the six slots; the arrows move between them (lit ones while choosing).
  const [current, setCurrent] = useState<number | null>(null);
  const slots = view.board.map((_, i) => i + 1);
  const enabled = slots.map((slot) => !choosing || targets.slots.includes(slot));
  const stop = tabStop(slots, enabled, current !== null && enabled[current - 1] ? current : null, [
    targets.slots[0] ?? null,
  ]);
  const onKeyDown = (e: KeyboardEvent) => {
    const from = slots.indexOf(Number((e.target as HTMLElement).dataset.slotButton));
    const to = from >= 0 ? roveIndex(e.key, from, enabled) : null;
    if (to === null) return;
    e.preventDefault();
    setCurrent(slots[to]!);
    (e.currentTarget as HTMLElement).querySelector<HTMLElement>(`[data-slot-button="${slots[to]}"]`)?.focus();
  };
  return (
    <section class="area table" style={{ gridArea: "table" }} aria-label={tr.t("Tea table")} data-testid="table" onKeyDown={onKeyDown}>
      {view.board.map((card, i) => {
        const slot = i + 1;
        const target = choosing && targets.slots.includes(slot);
        const label = tr.t("slot {slot}: {card}", { slot, card: cardName(card, tr) });
        return (
          <button
            key={slot}
            type="button"
            class={`slot${target ? " target" : ""}${choosing && !target ? " off" : ""}${state.moved.includes(slot) ? " moved" : ""}${hinted === slot ? " hinted" : ""}`}
            data-testid={`slot-${slot}`}
            data-slot-button={slot}
            data-card={card}
            aria-label={label}
            aria-disabled={!target}
            tabIndex={i === stop ? 0 : -1}
            onFocus={() => setCurrent(slot)}
            onClick={() => void ctl.tapSlot(slot)}
          >
            {/* Drawn by CSS from data-slot: the name says "slot 1: red 5", and a digit in the
                text next to the card's own value would read "15" to speech input (axe-core's
                label-content-name-mismatch, WCAG 2.5.3). */}
            <span class="number" aria-hidden="true" data-slot={slot} />
            <CardFace key={`${slot}:${card}`} code={card} />
          </button>
        );
      })}
    </section>
  );
}

function Events({ view, lines }: { view: View; lines: number }): JSX.Element {
  const { tr } = useApp();
  const shown = view.events.slice(-Math.max(lines, 6));
  const list = useRef<HTMLOListElement>(null);
  useWholeLines(list, [view.step, lines, shown.length]);
  return (
    <section class="area events" style={{ gridArea: "events" }} aria-label={tr.t("Last moves")} data-testid="events">
      <ol ref={list} aria-live="polite">
        {shown.map((e) => (
          <li key={e.number} data-kind={e.kind}>
            {splitCards(e.text).map((piece, i) =>
              typeof piece === "string" ? (
                piece
              ) : (
                <span key={i} class="card-inline" role="img" aria-label={piece.black ? `${tr.t("Black hat")}: ${cardName(piece.code, tr)}` : cardName(piece.code, tr)}>
                  {piece.black ? <BlackHatFace code={piece.code} /> : <CardFace code={piece.code} size="chip" />}
                </span>
              ),
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Mine({ view }: { view: View }): JSX.Element {
  const { tr } = useApp();
  const me = view.seat!;
  const collection = view.collections[me] ?? [];
  const team = teamOf(view, me);
  const own = view.own_black_hats ?? [];
  const cards = collection.map((c) => cardName(c, tr)).join(", ") || "—";
  return (
    <section class={`area mine${team !== null ? ` team${team}` : ""}${view.active_seat === me ? " active" : ""}`} style={{ gridArea: "mine" }} data-testid="mine">
      <ReactionBubble seat={me} name={view.names[me] ?? ""} />
      <span class="who">
        <Avatar name={view.names[me] ?? ""} avatar={view.avatars?.[me]} active={view.active_seat === me && view.result === null} size={18} />
        <span class="label" aria-hidden="true">
          {tr.t("Your collection")}
        </span>
        {team !== null ? <span class={`team-label team${team}`}>{tr.t(TEAM_NAMES[team])}</span> : null}
        {view.cookie === me ? (
          <span class="cookie" role="img" aria-label={tr.t("{cookie} {who} holds the cookie.", { cookie: "🍪", who: view.names[me] ?? "" })}>
            🍪
          </span>
        ) : null}
        <ScorePill view={view} seat={me} mine />
      </span>
      <span class="goods">
      <Chips cards={collection} label={tr.t("Your collection: {cards}", { cards })} />
      {own.length ? (
        <span
          class="chips blacks"
          role="img"
          aria-label={tr.plural("{n} black hat: {cards}", "{n} black hats: {cards}", own.length, {
            cards: own.map((c) => cardName(c, tr)).join(", "),
          })}
        >
          {own.map((c, i) => (
            <BlackHatFace key={`${c}${i}`} code={c} />
          ))}
        </span>
      ) : null}
      </span>
    </section>
  );
}

function Hand({ view }: { view: View }): JSX.Element {
  const { tr, state, ctl } = useApp();
  const hand = sortCards(view.hand ?? []);
  const playable = playableCards(view);
  const moving = myMove(view);
  const hinted = state.hint && "card" in state.hint ? state.hint.card : null;
  // One Tab stop for the hand; the arrows move between the cards (playable ones on a turn).
  const [current, setCurrent] = useState<CardCode | null>(null);
  const enabled = hand.map((card) => !moving || playable.has(card));
  const firstPlayable = hand.find((card) => playable.has(card)) ?? null;
  const stop = tabStop(hand, enabled, current !== null && enabled[hand.indexOf(current)] ? current : null, [
    state.selected,
    hinted,
    firstPlayable,
  ]);
  const onKeyDown = (e: KeyboardEvent) => {
    const from = hand.indexOf((e.target as HTMLElement).dataset.card ?? "");
    const to = from >= 0 ? roveIndex(e.key, from, enabled) : null;
    if (to === null) return;
    e.preventDefault();
    setCurrent(hand[to]!);
    (e.currentTarget as HTMLElement).querySelector<HTMLElement>(`[data-testid="hand-${hand[to]}"]`)?.focus();
  };
  return (
    <section class="area hand" style={{ gridArea: "hand" }} aria-label={tr.t("Your hand")} data-testid="hand" onKeyDown={onKeyDown}>
      {hand.map((card, i) => {
        const targets = targetsFor(view, card);
        const onlyBlack = targets.blackHat && !targets.slots.length;
        const name = cardName(card, tr);
        const label = onlyBlack ? tr.t("{card} (only as a black hat)", { card: name }) : name;
        const selected = state.selected === card;
        const dim = moving && !playable.has(card);
        return (
          <button
            key={card}
            type="button"
            class={`hand-card${selected ? " selected" : ""}${dim ? " dim" : ""}${hinted === card ? " hinted" : ""}`}
            data-testid={`hand-${card}`}
            data-card={card}
            aria-label={label}
            aria-pressed={selected}
            aria-disabled={!moving || !playable.has(card)}
            tabIndex={i === stop ? 0 : -1}
            onFocus={() => setCurrent(card)}
            onClick={(e) => {
              if (!moving || !playable.has(card)) return;
              ctl.selectCard(card);
              // Chosen from the keyboard (a click without a pointer): on to the first lit slot,
              // or the card's one action (a card that may only be a black hat).
              if (e.detail === 0 && !selected) {
                focusSoon("[data-testid=table] .slot.target", "[data-testid=actions] .action.primary");
              }
            }}
          >
            <CardFace code={card} />
          </button>
        );
      })}
    </section>
  );
}

/** The one line under the hand: a refusal or hint when there is one, else what to do now. */
export function promptText(view: View, selected: CardCode | null, tr: ReturnType<typeof useApp>["tr"]): string {
  if (view.result !== null) return "";
  if (view.seat === null) return tr.t("You are watching this game.");
  const swap = view.pending_swap;
  if (swap && swap.offerer === view.seat && !answering(view)) {
    return tr.t("Waiting for {partner} to answer the swap.", { partner: view.names[swap.partner] ?? "" });
  }
  if (answering(view)) return tr.t("Choose a card to give back, or decline."); // the events say who offered
  if (!myMove(view)) return "";
  if (selected) {
    const t = targetsFor(view, selected);
    if (!t.slots.length && t.blackHat) return tr.t("{card} (only as a black hat)", { card: cardName(selected, tr) });
    return tr.t("Pick a slot or another action.");
  }
  if (view.main_done) {
    // the optional action still open after the main one: one clear step (issue 35.11)
    if (view.legal?.some((a) => a.kind === "discard")) return tr.t("Discard a card, or tap Done.");
    if (view.legal?.some((a) => a.kind === "offer_swap")) return tr.t("Offer a card to your partner, or tap Done.");
    return tr.t("You can end your turn now.");
  }
  return tr.t("Choose a card, then what to do with it.");
}

/** What to do now, in full (two lines at most); refusals and hints come as a Toast. */
function Prompt({ view }: { view: View }): JSX.Element {
  const { tr, state } = useApp();
  const text = promptText(view, state.selected, tr);
  return (
    <p class="area prompt" style={{ gridArea: "prompt" }} data-testid="prompt" role="status">
      {text}
    </p>
  );
}

function Actions({ view }: { view: View }): JSX.Element {
  const { tr, state, ctl } = useApp();
  const t = targetsFor(view, state.selected);
  const answer = answering(view);
  const buttons: JSX.Element[] = [];
  const add = (testid: string, label: string, onClick: () => void, primary = false, wide = false) =>
    buttons.push(
      <button key={testid} type="button" class={`action${primary ? " primary" : ""}${wide ? " wide" : ""}`} data-testid={testid} onClick={onClick}>
        {label}
      </button>,
    );
  if (answer) {
    if (t.answer) add("action-answer", tr.t("Give this card"), () => void ctl.cardAction("answer_swap"), true);
    if (canDo(view, "decline_swap")) add("action-decline", tr.t("Decline the swap"), () => void ctl.simple("decline_swap"));
  } else {
    if (t.blackHat) add("action-black-hat", tr.t("Black hat"), () => void ctl.cardAction("black_hat"), !t.slots.length);
    if (t.discard) add("action-discard", tr.t("Discard and draw"), () => void ctl.cardAction("discard"));
    if (t.offer) add("action-offer", tr.t("Offer to partner"), () => void ctl.cardAction("offer_swap"));
    if (canDo(view, "withdraw_swap")) add("action-withdraw", tr.t("Withdraw my offer"), () => void ctl.simple("withdraw_swap"));
    // after the main action: "discard (or offer) a card, or Done", Done large (issue 35.11)
    if (canDo(view, "end_turn")) add("action-end-turn", tr.t("Done"), () => void ctl.simple("end_turn"), true, state.selected === null);
  }
  if (view.hints && myMove(view) && cueOf(view)?.key !== state.hintTurn) {
    const label = tr.t("What should I do?");
    buttons.push(
      <button key="hint" type="button" class="action icon" data-testid="action-hint" aria-label={label} title={label} onClick={() => void ctl.hint()}>
        <span aria-hidden="true">💡</span>
      </button>,
    );
  }
  return (
    <section class="area actions" style={{ gridArea: "actions" }} data-testid="actions">
      <span class="buttons">{buttons}</span>
      {/* the setting, in words; out of the way while a card's actions need the row */}
      {state.selected === null || !myMove(view) ? (
        <button
          type="button"
          class="toggle"
          data-testid="auto-end"
          aria-pressed={view.auto_end}
          onClick={() => void ctl.autoEnd(!view.auto_end)}
        >
          <span class="check" aria-hidden="true">
            {view.auto_end ? "✓" : ""}
          </span>
          {tr.t("End my turn after my main action")}
        </button>
      ) : null}
    </section>
  );
}

export function GameScreen({ view }: { view: View }): JSX.Element {
  const { state } = useApp();
  const { width, height } = useViewport();
  const spectator = view.seat === null;
  const fit: Fit = fitLayout({
    width,
    height,
    seats: view.names.length,
    slots: view.board.length,
    handSize: view.hand?.length ?? 0,
    spectator,
  });
  const vars = fitVars(fit);
  const [guide, setGuide] = useState(false);
  const areas: Record<string, JSX.Element> = {
    header: <Header view={view} />,
    opponents: <Opponents view={view} />,
    table: <Table view={view} />,
    // the table bar shares the last events' row, at its end (layout.ts SOCIAL)
    events: (
      <div class="events-row">
        <Events view={view} lines={fit.eventLines} />
        <TableBar view={view} guide={<GuideButton onOpen={() => setGuide(true)} />} />
      </div>
    ),
    prompt: <Prompt view={view} />,
  };
  if (!spectator) {
    areas.mine = <Mine view={view} />;
    areas.hand = <Hand view={view} />;
    areas.actions = <Actions view={view} />;
  }
  const root = useRef<HTMLElement>(null);
  const partner = partnerOf(view);
  const keyboard = useRef(false);
  // The moves since the last view travel across the table (before the browser paints them).
  const previous = useRef<View | null>(null);
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = view;
    if (root.current && before && before.step !== view.step) playMoves(root.current, movesBetween(before, view), view.seat);
  }, [view.step, view.game_id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Tab" || e.key === "Enter" || e.key === " " || e.key.startsWith("Arrow")) keyboard.current = true;
    };
    const onPointer = () => {
      keyboard.current = false;
    };
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("pointerdown", onPointer, true);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      window.removeEventListener("pointerdown", onPointer, true);
    };
  }, []);
  useEffect(() => {
    root.current?.setAttribute("data-step", String(view.step));
    // A keyboard player whose focus the move left on a spent slot (or nowhere) goes on to
    // End turn, else back to the hand: no Tab round the page between two steps (issue 35.13).
    const el = document.activeElement as HTMLElement | null;
    const lost = !el || el === document.body || !el.isConnected || (el.classList.contains("slot") && el.getAttribute("aria-disabled") === "true");
    if (keyboard.current && lost) {
      focusSoon("[data-testid=action-end-turn]", "[data-testid=action-answer]", "[data-testid=hand] [tabindex='0']");
    }
  }, [view.step]);
  return (
    <main
      ref={root}
      class={`game mode-${fit.mode}`}
      style={vars}
      data-testid="game"
      data-game-id={view.game_id}
      data-seat={view.seat ?? "spectator"}
    >
      {fit.columns.map((rows, c) => (
        <div
          key={c}
          class={`col col${c}`}
          style={{ gridTemplateRows: vars[`--col${c}-rows`], gridTemplateAreas: vars[`--col${c}-areas`] }}
        >
          {rows.map((r) => <div key={r.name} class="cell" style={{ gridArea: r.name }}>{areas[r.name] ?? null}</div>)}
        </div>
      ))}
      {partner !== null && state.view?.teams ? <Chat view={view} /> : null}
      <TurnCue view={view} />
      {guide ? <Guide onClose={() => setGuide(false)} /> : null}
      <Toast />
    </main>
  );
}

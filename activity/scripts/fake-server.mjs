#!/usr/bin/env node
/**
 * A tiny fake of the bot's web server for developing and screenshotting the client: it
 * serves dist/ and speaks hats-activity/1 (docs/ACTIVITY_PROTOCOL.md) in local mode, with
 * canned games chosen by the page's `channel_id` (the URL's `?channel_id=`):
 *
 *   1  a 3-seat game, you against two AIs; your turn (plays on: the AIs answer)
 *   2  a 2-seat game (5 slots), discard allowed
 *   4  a 4-seat team game with long names (32 characters: Discord's longest); your turn, partner swap offer possible
 *   5  4 seats: your partner offered you a swap (answer or decline)
 *   6  a spectator's view of the 3-seat game
 *   7  the end of a 4-seat team game
 *   8  the end of a 3-seat game
 *   9  a 4-seat team game in round 8, names of 20 characters, full collections (issue 35.6)
 *   12 the end of that game
 *   10 the channel's lobby (you are the host)
 *   11 no lobby in this channel
 *
 * It is NOT the game: its rules are a rough stand-in (R7 exchanges, black hats, discards)
 * so that taps have visible effects. `POST /fake/drop` closes every socket (a bot restart).
 *
 * Usage: node scripts/fake-server.mjs [--port 8765]   (after `npm run build`)
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { WebSocketServer } from "ws";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const args = process.argv.slice(2);
const PORT = Number(args[args.indexOf("--port") + 1] || process.env.PORT || 8765);
const TYPES = ["red", "orange", "yellow", "green", "blue", "purple", "brown"];
const MIME = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml" };

let nextUser = 100;
const sessions = new Map(); // session -> user
const games = new Map(); // channel -> game state
const sockets = new Set();

/** A seeded random generator (mulberry32), so canned games are the same every run. */
function rng(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const parse = (c) => ({ type: c.replace(/\d$/, ""), value: Number(c.at(-1)) });
const legalExchange = (card, onBoard) => {
  const a = parse(card);
  const b = parse(onBoard);
  return a.type === b.type || a.value > b.value; // R7
};

function deal(seats, seed, names, ai) {
  const random = rng(seed);
  let deck = TYPES.flatMap((t) => [1, 2, 3, 4, 5, 6].map((v) => `${t}${v}`));
  if (seats === 2) deck = deck.filter((c) => !c.startsWith("purple") && !c.startsWith("brown"));
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  const slots = seats === 2 ? 5 : 6;
  const board = deck.splice(0, slots);
  const hands = Array.from({ length: seats }, () => deck.splice(0, 9));
  return {
    seats, names, ai, board, hands, deck, discard: [],
    collections: Array.from({ length: seats }, () => []),
    blacks: Array.from({ length: seats }, () => []),
    teams: seats === 4 ? [[0, 2], [1, 3]] : null,
    active: 0, round: 1, turnsTaken: 0, main_done: false, optional_used: false,
    pending_swap: null, step: 1, events: [], cookie: null, auto_end: true, hints: true,
    result: null, game_id: String(seed), deadline: Date.now() / 1000 + 90, random,
  };
}

function legal(g, seat) {
  if (g.result) return [];
  const out = [];
  const hand = g.hands[seat];
  if (g.pending_swap && g.pending_swap.partner === seat) {
    for (const card of hand) out.push({ kind: "answer_swap", card });
    out.push({ kind: "decline_swap" });
    return out;
  }
  if (g.active !== seat) return [];
  if (g.pending_swap) return [{ kind: "withdraw_swap" }];
  if (!g.main_done) {
    for (const card of hand) {
      g.board.forEach((b, i) => {
        if (legalExchange(card, b)) out.push({ kind: "exchange", card, slot: i + 1 });
      });
      out.push({ kind: "black_hat", card });
    }
  }
  if (!g.optional_used && hand.length > 1) {
    for (const card of hand) {
      if (g.seats === 4) out.push({ kind: "offer_swap", card });
      else if (g.deck.length + g.discard.length > 0) out.push({ kind: "discard", card });
    }
  }
  if (g.main_done) out.push({ kind: "end_turn" });
  return out;
}

function blocked(g, seat) {
  const out = {};
  for (const card of g.hands[seat]) {
    const bad = g.board.map((b, i) => (legalExchange(card, b) ? null : i + 1)).filter((s) => s !== null);
    if (bad.length) out[card] = `Not slot${bad.length > 1 ? "s" : ""} ${bad.join(", ")}: it needs the same type or a higher value.`;
  }
  return out;
}

const EMOJI = { red: "🟥", orange: "🟧", yellow: "🟨", green: "🟩", blue: "🟦", purple: "🟪", brown: "🟫" };
const token = (c) => `${EMOJI[parse(c).type]}${parse(c).value}`;

function event(g, seat, text, kind, slot = null) {
  g.events.push({ number: g.step, seat, kind, slot, text });
  g.events = g.events.slice(-12);
}

function cookieHolder(g) {
  let best = null;
  let bestTypes = 0;
  g.collections.forEach((col, s) => {
    const types = new Set(col.map((c) => parse(c).type)).size + (g.blacks[s].length ? 1 : 0);
    if (types > bestTypes) {
      best = s;
      bestTypes = types;
    }
  });
  return best;
}

function endTurn(g) {
  g.turnsTaken += 1;
  g.main_done = false;
  g.optional_used = false;
  g.active = (g.active + 1) % g.seats;
  g.round = Math.floor(g.turnsTaken / g.seats) + 1;
  g.deadline = Date.now() / 1000 + 90;
  if (g.turnsTaken >= 8 * g.seats) finish(g);
}

function finish(g) {
  const totals = g.collections.map((col, s) => col.length * 2 + g.blacks[s].length + (g.cookie === s ? 5 : 0));
  let winners;
  if (g.teams) {
    const teamTotals = g.teams.map((t) => t.reduce((a, s) => a + totals[s], 0));
    winners = teamTotals[0] >= teamTotals[1] ? g.teams[0] : g.teams[1];
  } else {
    const top = Math.max(...totals);
    winners = totals.map((t, s) => (t === top ? s : -1)).filter((s) => s >= 0);
  }
  const ranking = [...totals.keys()].sort((a, b) => totals[b] - totals[a]);
  const breakdown = g.collections.map((col, s) => ({
    collection: col.length * 2, black_hats: g.blacks[s].length, favourite: 0, cookie: g.cookie === s ? 5 : 0, total: totals[s],
  }));
  g.result = {
    ranking, totals, winners, breakdown, tie_break: "score", cookie: g.cookie,
    team_totals: g.teams ? g.teams.map((t) => t.reduce((a, s) => a + totals[s], 0)) : null,
    favourites: g.hands.map((h) => h[0]),
    black_hats: g.blacks.map((b) => [...b]),
    hands: g.hands.map((h) => [...h]),
    teams: g.teams,
  };
  g.deadline = null;
}

function apply(g, seat, action) {
  const hand = g.hands[seat];
  const name = g.names[seat];
  const take = (card) => hand.splice(hand.indexOf(card), 1);
  switch (action.kind) {
    case "exchange": {
      take(action.card);
      const taken = g.board[action.slot - 1];
      g.board[action.slot - 1] = action.card;
      g.collections[seat].push(taken);
      g.main_done = true;
      g.cookie = cookieHolder(g);
      event(g, seat, `${name} played ${token(action.card)} on slot ${action.slot} and took ${token(taken)}.`, "exchange", action.slot);
      break;
    }
    case "black_hat":
      take(action.card);
      g.blacks[seat].push(action.card);
      g.main_done = true;
      g.cookie = cookieHolder(g);
      event(g, seat, `${name} made a black hat.`, "black_hat");
      break;
    case "discard":
      take(action.card);
      g.discard.push(action.card);
      if (!g.deck.length) g.deck = g.discard.splice(0);
      hand.push(g.deck.pop());
      g.optional_used = true;
      event(g, seat, `${name} discarded a card and drew one.`, "discard");
      break;
    case "offer_swap": {
      const partner = g.teams.find((t) => t.includes(seat)).find((s) => s !== seat);
      g.pending_swap = { offerer: seat, partner, card: action.card };
      event(g, seat, `${name} offered ${g.names[partner]} a card swap.`, "offer_swap");
      break;
    }
    case "answer_swap": {
      const swap = g.pending_swap;
      const given = swap.card;
      g.hands[swap.offerer].splice(g.hands[swap.offerer].indexOf(given), 1);
      take(action.card);
      g.hands[swap.offerer].push(action.card);
      hand.push(given);
      g.pending_swap = null;
      g.optional_used = true;
      event(g, seat, `${g.names[swap.offerer]} and ${name} swapped one card each.`, "answer_swap");
      break;
    }
    case "decline_swap":
      event(g, seat, `${name} declined ${g.names[g.pending_swap.offerer]}'s swap offer.`, "decline_swap");
      g.pending_swap = null;
      break;
    case "withdraw_swap":
      g.pending_swap = null;
      event(g, seat, `${name} withdrew their swap offer.`, "withdraw_swap");
      break;
    case "end_turn":
      event(g, seat, `${name} ended their turn.`, "end_turn");
      endTurn(g);
      break;
    default:
      return false;
  }
  g.step += 1;
  if (action.kind !== "end_turn" && g.main_done && (g.auto_end || g.optional_used) && !g.pending_swap) endTurn(g);
  return true;
}

function aiTurns(g, human) {
  let guard = 0;
  while (!g.result && g.active !== human && guard++ < 10) {
    const seat = g.active;
    const options = legal(g, seat).filter((a) => a.kind === "exchange" || a.kind === "black_hat");
    const pick = options.find((a) => a.kind === "exchange") ?? options[0];
    if (!pick) break;
    apply(g, seat, pick);
    if (!g.result && g.active === seat) apply(g, seat, { kind: "end_turn" });
  }
}

function viewFor(g, seat) {
  const swap = g.pending_swap
    ? { offerer: g.pending_swap.offerer, partner: g.pending_swap.partner, ...(seat === g.pending_swap.offerer ? { card: g.pending_swap.card } : {}) }
    : null;
  return {
    t: "view", game_id: g.game_id, step: g.step, seat, names: g.names, ai: g.ai, teams: g.teams,
    board: g.board, hand: seat === null ? null : g.hands[seat],
    own_black_hats: seat === null ? null : g.blacks[seat],
    hand_sizes: g.hands.map((h) => h.length), collections: g.collections,
    black_hat_counts: g.blacks.map((b) => b.length), deck_size: g.seats === 4 ? 0 : g.deck.length,
    discard_size: g.discard.length, cookie: g.cookie, active_seat: g.active,
    // a stand-in for the engine's running score (2 a card, 1 a black hat, 5 the cookie)
    scores: g.result ? g.result.totals : g.collections.map((col, s) => col.length * 2 + g.blacks[s].length + (g.cookie === s ? 5 : 0)),
    to_move: g.pending_swap ? g.pending_swap.partner : g.active, round: Math.min(8, g.round),
    main_done: g.main_done, optional_used: g.optional_used, pending_swap: swap,
    deadline: g.deadline, auto_end: g.auto_end, hints: g.hints,
    legal: seat === null ? null : legal(g, seat), blocked: seat === null ? null : blocked(g, seat),
    // one line per move, as the bot's views (turn ends left out)
    events: g.events.filter((e) => e.kind !== "end_turn").slice(-6), result: g.result,
  };
}

function playUntil(g, turns) {
  while (g.turnsTaken < turns && !g.result) {
    const seat = g.active;
    const options = legal(g, seat).filter((a) => a.kind === "exchange" || a.kind === "black_hat");
    const pick = options.find((a) => a.kind === "exchange" && g.random() < 0.85) ?? options.at(-1);
    apply(g, seat, pick);
    if (!g.result && g.active === seat) apply(g, seat, { kind: "end_turn" });
  }
}

function scenario(channel, user) {
  if (games.has(channel)) return games.get(channel);
  const you = user.name;
  let g;
  switch (channel) {
    case "2":
      g = deal(2, 2, [you, "AI (normal)"], [null, "normal"]);
      playUntil(g, 4);
      break;
    case "9":
    case "12":
      g = deal(4, 9, [you, "Marco Squadrone Ross", "Giulia Bianchi-Verdi", "Zoë Wolkenschieberin"], [null, null, null, null]);
      playUntil(g, channel === "12" ? 32 : 28);
      break;
    case "4":
    case "5":
    case "7":
      g = deal(4, Number(channel), [you, "Maximiliane von Hohenzollern-Sig", "Bartholomew the Magnificent", "Zoë 🎩 Wolkenschieber"], [null, "hard", null, "expert"]);
      playUntil(g, channel === "7" ? 32 : 13);
      break;
    default:
      g = deal(3, 3, [you, "AI (hard)", "AI (expert)"], [null, "hard", "expert"]);
      playUntil(g, channel === "8" ? 24 : 6);
  }
  if (channel === "5") {
    while (g.active !== 2) apply(g, g.active, legal(g, g.active).find((a) => a.kind === "black_hat") ?? { kind: "end_turn" });
    apply(g, 2, { kind: "offer_swap", card: g.hands[2][0] });
  }
  g.humanSeat = channel === "6" ? null : 0;
  games.set(channel, g);
  return g;
}

const lobbies = new Map();
function lobbyFor(channel, user) {
  if (channel === "11") return lobbies.get(channel) ?? null;
  if (!lobbies.has(channel)) {
    lobbies.set(channel, {
      id: "77", host_id: user.id, max_seats: 4, timer: 120, hints: false,
      seats: [
        { user_id: user.id, name: user.name, ai_level: null, team: null },
        { user_id: "555", name: "Bartholomew the Magnificent", ai_level: null, team: null },
        { user_id: null, name: "AI 1", ai_level: "hard", team: null },
      ],
    });
  }
  return lobbies.get(channel);
}

function lobbyFrame(lobby, user) {
  if (!lobby) return { t: "lobby", lobby: null };
  const joined = lobby.seats.some((s) => s.user_id === user.id);
  return { t: "lobby", lobby: { ...lobby, you_joined: joined, you_host: lobby.host_id === user.id, can_start: lobby.seats.length >= 2 && lobby.host_id === user.id } };
}

function lobbyOp(channel, user, frame) {
  let lobby = lobbies.get(channel) ?? null;
  if (frame.op === "open") {
    lobby = { id: "78", host_id: user.id, max_seats: 4, timer: null, hints: false, seats: [{ user_id: user.id, name: user.name, ai_level: null, team: null }] };
    lobbies.set(channel, lobby);
    return lobby;
  }
  if (!lobby) return null;
  const mine = lobby.seats.findIndex((s) => s.user_id === user.id);
  if (frame.op === "join" && mine < 0) lobby.seats.push({ user_id: user.id, name: user.name, ai_level: null, team: null });
  if (frame.op === "leave" && mine >= 0) lobby.seats.splice(mine, 1);
  if (frame.op === "ai_add" && lobby.seats.length < 4) lobby.seats.push({ user_id: null, name: `AI ${lobby.seats.length}`, ai_level: frame.level, team: null });
  if (frame.op === "ai_remove") {
    const i = lobby.seats.findLastIndex((s) => s.ai_level);
    if (i >= 0) lobby.seats.splice(i, 1);
  }
  if (frame.op === "timer") lobby.timer = frame.seconds || null;
  if (frame.op === "hints") lobby.hints = Boolean(frame.on);
  if (frame.op === "team" && mine >= 0) lobby.seats[mine].team = frame.team;
  if (frame.op === "shuffle") lobby.seats.forEach((s, i) => (s.team = i % 2));
  if (frame.op === "cancel") lobbies.set(channel, null);
  return lobbies.get(channel);
}

const server = createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  const json = (status, body) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === "/api/config") return json(200, { client_id: "0", local: true, protocol: "hats-activity/1" });
  if (url.pathname === "/fake/drop" && req.method === "POST") {
    for (const ws of sockets) ws.close(1012, "restart");
    return json(200, { dropped: sockets.size });
  }
  if (url.pathname === "/api/local" && req.method === "POST") {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      let name = "";
      try {
        name = String(JSON.parse(body).name ?? "").trim();
      } catch {
        return json(400, { error: "bad_request" });
      }
      if (!name || [...name].length > 32) return json(400, { error: "bad_request" });
      const user = { id: String(nextUser++), name };
      const session = `s${user.id}.${Math.random().toString(36).slice(2)}`;
      sessions.set(session, user);
      json(200, { session, user, expires_at: Date.now() / 1000 + 3600 });
    });
    return undefined;
  }
  const path = normalize(join(DIST, url.pathname === "/" ? "index.html" : url.pathname));
  if (!path.startsWith(DIST) || !existsSync(path) || !statSync(path).isFile()) {
    res.writeHead(404);
    return res.end("not found");
  }
  res.writeHead(200, { "content-type": MIME[extname(path)] ?? "application/octet-stream" });
  createReadStream(path).pipe(res);
  return undefined;
});

const wss = new WebSocketServer({ server, path: "/ws" });
wss.on("connection", (ws) => {
  sockets.add(ws);
  let user = null;
  let channel = null;
  const send = (f) => ws.send(JSON.stringify(f));
  const push = () => {
    const g = games.get(channel);
    if (g && ["1", "2", "4", "5", "6", "7", "8", "9", "12"].includes(channel)) send(viewFor(g, g.humanSeat));
    else send(lobbyFrame(lobbies.get(channel) ?? null, user));
  };
  ws.on("close", () => sockets.delete(ws));
  ws.on("message", (data) => {
    let f;
    try {
      f = JSON.parse(String(data));
    } catch {
      return send({ t: "error", code: "bad_frame", message: "Not JSON." });
    }
    if (!user) {
      if (f.t !== "hello") return send({ t: "error", code: "not_signed_in", message: "Say hello first." });
      user = sessions.get(f.session);
      if (!user) return ws.close(4001, "bad_session");
      channel = f.channel_id;
      send({ t: "welcome", user, locale: (f.locale || "en").slice(0, 2), channel_id: channel });
      if (["10", "11"].includes(channel)) lobbyFor(channel, user);
      else scenario(channel, user);
      return push();
    }
    const g = games.get(channel);
    const ack = () => send({ t: "ack", id: f.id });
    switch (f.t) {
      case "act": {
        if (!g) return send({ t: "error", id: f.id, code: "unknown_game", message: "There is no live game here." });
        if (f.step !== g.step) return send({ t: "error", id: f.id, code: "out_of_date", message: "The game moved on meanwhile; look at your hand and try again." });
        const ok = legal(g, g.humanSeat).some((a) => JSON.stringify(a) === JSON.stringify(f.action));
        if (!ok) return send({ t: "error", id: f.id, code: "illegal", message: "That move is not allowed." });
        apply(g, g.humanSeat, f.action);
        ack();
        push();
        setTimeout(() => {
          aiTurns(g, g.humanSeat);
          push();
        }, 600);
        return undefined;
      }
      case "auto_end":
        if (g) g.auto_end = Boolean(f.on);
        ack();
        return push();
      case "hint": {
        const move = g && legal(g, g.humanSeat).find((a) => a.kind === "exchange");
        return send({ t: "hint", id: f.id, text: move ? `Hint: play ${token(move.card)} on slot ${move.slot}.` : "Nothing to suggest right now.", action: move ?? null });
      }
      case "chat":
        if (/red|blue|green|yellow|purple|orange|brown|\d/i.test(f.text)) {
          return send({ t: "error", id: f.id, code: "refused", message: `Team chat may not name a card: your message names a hat type or colour.` });
        }
        ack();
        return setTimeout(() => send({ t: "chat", game_id: g.game_id, from: 2, name: g.names[2], text: "Sounds good, go for it!" }), 400);
      case "lobby":
        lobbyOp(channel, user, f);
        ack();
        return push();
      case "rematch":
        games.delete(channel);
        lobbies.set(channel, { id: "79", host_id: user.id, max_seats: 4, timer: null, hints: false, seats: [{ user_id: user.id, name: user.name, ai_level: null, team: null }] });
        ack();
        return send(lobbyFrame(lobbies.get(channel), user));
      default:
        return send({ t: "error", id: f.id, code: "bad_frame", message: "Unknown frame." });
    }
  });
});

server.listen(PORT, "127.0.0.1", () => console.log(`fake server on http://127.0.0.1:${PORT}/`));

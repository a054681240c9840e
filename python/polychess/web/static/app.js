// polychess in the browser: plain JavaScript, no build step, nothing from the network.
// The server owns the game and draws the board; this page sends clicks and shows state.
"use strict";

const $ = (id) => document.getElementById(id);
const NAMES = { white: "White", red: "Red", black: "Black", blue: "Blue", yellow: "Yellow", green: "Green" };
const PROMOTIONS = { Q: "Queen", R: "Rook", B: "Bishop", N: "Knight", D: "Queen (1 point)" };
const ENGINE_PAUSE_MS = 300; // lets a person see each engine move before the next one

let meta = null;        // variants and their seats (GET /api/meta)
let game = null;        // the latest state from the server
let receivedAt = 0;     // when `game` arrived, for the running clock
let selected = null;    // the cell of the piece the player picked
let engineLoop = 0;     // bumped to stop a running engine loop (new game, load)
let refreshing = false;
let token = null;       // this page's invitation secret, in a game played by invitation
let invitations = null; // the links of the game this page created (shown once by the server)
let events = null;      // the live-update stream (EventSource) of a game played by invitation
let analysis = null;    // the analysis mode's state while it is on (see "analysis" below)

// -- talking to the server ----------------------------------------------------------------

async function api(method, path, body, signal) {
  const options = { method, headers: {}, signal };
  if (token) options.headers["X-Polychess-Token"] = token;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    throw new Error(`${response.status} ${response.statusText}`);
  }
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error : `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function gamePath(suffix = "", params = {}) {
  const query = new URLSearchParams();
  const orientation = $("orientation").value;
  if (orientation) query.set("orientation", orientation);
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return `/api/games/${encodeURIComponent(game.id)}${suffix}${text ? "?" + text : ""}`;
}

async function refresh(cell = null) {
  if (!game) return;
  show(await api("GET", gamePath("", { selected: cell })));
}

// -- showing the state --------------------------------------------------------------------

// `live`: a state pushed by the server (listen()), which may arrive after the answer to this
// page's own request, and must neither go back nor drop the piece the player has picked.
function show(state, live = false) {
  const newGame = !game || game.id !== state.id;
  if (live && !newGame && state.version <= game.version) return;
  game = state;
  receivedAt = performance.now();
  selected = state.selected;
  if (newGame && analysis) stopAnalysis();
  if (!analysis) $("board").innerHTML = state.svg;
  // (the server refuses the engine's help against a human opponent while the game runs)
  $("analysis-button").disabled = Boolean(state.analysis_refused);
  $("analysis-button").title = state.analysis_refused || (state.open_analysis ? "Open analysis: the players agreed" : "");
  if (newGame) {
    fillOrientation();
    history.replaceState(null, "", `#game=${state.id}` + (token ? `&token=${token}` : ""));
    listen();
  }
  showStatus();
  showSeats();
  showMoves();
  showLog();
  showExports(state.exports);
  const save = $("save-record");
  save.classList.remove("disabled");
  save.removeAttribute("aria-disabled");
  showTogether();
}

// Save record's formats: the game's own (PGN, PGN4) first, then the polychess record and the
// position as it stands; the link follows the choice.
function showExports(exports) {
  const select = $("save-format");
  const names = exports.map((e) => e.name).join(",");
  if (select.dataset.names !== names) {
    select.replaceChildren(...exports.map((e) => new Option(e.label, e.name)));
    select.dataset.names = names;
  }
  saveLink();
}

function saveLink() {
  if (!game) return;
  const format = encodeURIComponent($("save-format").value);
  $("save-record").href = `/api/games/${encodeURIComponent(game.id)}/record?format=${format}`;
}

// -- games played by invitation -------------------------------------------------------------

function mySeat() {
  return game && game.invited && game.viewer !== "spectator" ? game.viewer : null;
}

function myTurn() {
  return game && game.human_to_move && (!game.invited || game.viewer === game.turn);
}

function showTogether() {
  const seat = mySeat();
  const inGame = seat && !game.outcome && game.seats.some((s) => s.colour === seat && s.status !== "out");
  const resigner = game.invited ? (inGame ? seat : null) : (game.human_to_move ? game.turn : null);
  $("resign-button").disabled = !resigner;
  $("resign-button").textContent = resigner ? `Resign (${NAMES[resigner]})` : "Resign";
  $("you").hidden = !game.invited;
  $("you").textContent = seat ? `You play ${NAMES[seat]}.` : "You are watching.";
  for (const id of ["draw-button", "takeback-button"]) {
    $(id).hidden = !game.invited || !seat;
    $(id).disabled = !inGame || game.offer !== null;
  }
  $("takeback-button").disabled ||= !game.moves.some((m) => m.player === seat);
  $("invitations-button").hidden = !(invitations && invitations.id === game.id);
  const offer = game.offer;
  $("offer").hidden = offer === null;
  if (offer) {
    const what = offer.kind === "draw" ? "offers a draw" : "asks to take back their last move";
    const waiting = offer.waiting_for.map((c) => NAMES[c]).join(", ");
    $("offer-text").textContent = `${NAMES[offer.by]} ${what}; waiting for ${waiting}.`;
    const asked = offer.waiting_for.includes(seat);
    $("offer-accept").hidden = !asked;
    $("offer-decline").hidden = !asked;
  }
}

// Every page of a game played by invitation follows it live; the browser reconnects by
// itself after a drop (or a restart of the server), and the first event is the state now.
function listen() {
  if (events) events.close();
  events = null;
  if (!game.invited || !token) return;
  events = new EventSource(`/api/games/${encodeURIComponent(game.id)}/events?token=${encodeURIComponent(token)}`);
  events.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    if (game && state.id === game.id) {
      show(state, true);
      if (mySeat()) runEngines();
    }
  });
}

async function offer(kind) {
  try {
    show(await api("POST", gamePath("/offer"), { kind }));
  } catch (error) {
    report(error);
  }
}

async function answer(accept) {
  try {
    show(await api("POST", gamePath("/answer"), { accept }));
  } catch (error) {
    report(error);
  }
}

function showInvitations() {
  const list = $("invitation-links");
  list.replaceChildren();
  for (const [role, link] of Object.entries(invitations.links)) {
    const item = document.createElement("li");
    item.dataset.role = role;
    const label = document.createElement("span");
    label.textContent = role === "spectator" ? "Spectators" : NAMES[role] + (role === invitations.mine ? " (you)" : "");
    const field = document.createElement("code");
    field.className = "link";
    field.textContent = link;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "copy";
    copy.textContent = "Copy";
    copy.addEventListener("click", () => copyLink(field, copy));
    item.append(label, field, copy);
    list.append(item);
  }
  $("invitations").showModal();
}

// The clipboard API is there only for a secure context (https, or this machine's own address);
// a page opened on the network's address copies the selected text the old way.
async function copyLink(field, button) {
  try {
    await navigator.clipboard.writeText(field.textContent);
  } catch (error) {
    getSelection().selectAllChildren(field);
    if (!document.execCommand("copy")) {
      report(new Error("The link is selected: copy it with Ctrl+C (⌘C on a Mac)."));
      return;
    }
  }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}

// A game this page has just created: by invitation, this page plays the first invited seat
// and keeps the links for the others.
async function showNew(state) {
  invitations = null;
  if (!state.invitations) {
    show(state);
    return;
  }
  const mine = Object.keys(state.invitations).find((role) => role !== "spectator");
  invitations = { id: state.id, links: state.invitations, mine };
  token = new URLSearchParams(new URL(state.invitations[mine]).hash.slice(1)).get("token");
  game = null;
  show(await api("GET", `/api/games/${encodeURIComponent(state.id)}`));
}

// In a game played by invitation each player has their own window, often in the background:
// the one whose turn it is says so in the status, around the board and in the tab's title.
function showStatus() {
  const status = $("status");
  status.className = "";
  const yours = Boolean(game.invited && myTurn());
  if (game.outcome) {
    status.textContent = game.outcome.text;
    status.classList.add("over");
  } else if (game.engine_to_move) {
    status.textContent = `${NAMES[game.turn]} (engine) is thinking…`;
    status.classList.add("thinking");
  } else {
    const check = game.check ? " — check!" : "";
    status.textContent = yours ? `Your move (${NAMES[game.turn]})${check}` : `${NAMES[game.turn]} to move${check}`;
    if (game.check) status.classList.add("check");
    if (yours) status.classList.add("your-move");
  }
  $("board-area").classList.toggle("your-move", yours);
  document.title = yours ? `● Your move (${NAMES[game.turn]}) — polychess` : "polychess";
}

function swatch(colour, title) {
  const span = document.createElement("span");
  span.className = `swatch ${colour}`;
  span.title = title || NAMES[colour];
  return span;
}

function showSeats() {
  const body = $("seats").querySelector("tbody");
  body.replaceChildren();
  const ffa = game.mode === "ffa";
  $("seats").classList.toggle("with-clock", game.clock !== null);
  $("seats").classList.toggle("with-points", ffa);
  for (const seat of game.seats) {
    const row = document.createElement("tr");
    row.dataset.colour = seat.colour;
    if (seat.colour === game.turn) row.classList.add("to-move");
    if (seat.status === "out") row.classList.add("out");

    const name = document.createElement("td");
    name.append(swatch(seat.colour), " ", NAMES[seat.colour]);
    for (const army of seat.controls) {
      if (army !== seat.colour) name.append(" +", swatch(army, `${NAMES[army]}'s army`));
    }
    const player = document.createElement("td");
    const select = document.createElement("select");
    select.className = "seat-player";
    select.setAttribute("aria-label", `${NAMES[seat.colour]} is played by`);
    for (const [value, label] of [["human", "Human"], ["engine", "Engine"]]) {
      select.add(new Option(label, value, false, (value === "engine") === seat.engine));
    }
    select.disabled = game.outcome !== null || game.invited; // a game by invitation keeps its seats
    select.addEventListener("change", () => changeSeat(seat.colour, select.value === "engine"));
    player.append(select);

    const clock = document.createElement("td");
    clock.className = "clock-col clock";
    const points = document.createElement("td");
    points.className = "points-col";
    points.textContent = seat.points === null ? "" : String(seat.points);
    const state = document.createElement("td");
    state.textContent = seat.place !== null ? ordinal(seat.place) : seat.status === "active" ? "" : seat.status;
    row.append(name, player, clock, points, state);
    body.append(row);
  }
  tickClocks();
}

function ordinal(place) {
  return { 1: "1st", 2: "2nd", 3: "3rd" }[place] || `${place}th`;
}

function showMoves() {
  const list = $("moves");
  list.replaceChildren();
  let row = null;
  let number = null;
  let ply = 0;
  for (const entry of game.moves) {
    if (!row || entry.number !== number) {
      number = entry.number;
      row = document.createElement("div");
      row.className = "round";
      const label = document.createElement("span");
      label.className = "number";
      label.textContent = `${number}.`;
      row.append(label);
      list.append(row);
    }
    const move = document.createElement("span");
    move.className = entry.player ? `move ${entry.player}` : "move event";
    move.textContent = entry.notation; // as people read it: SAN, chess.com's notation, rules §4's
    if (entry.player) {
      move.title = entry.notation === entry.text ? NAMES[entry.player] : `${NAMES[entry.player]}: ${entry.text}`;
      move.dataset.ply = String(++ply);
      if (analysis) {
        move.classList.add("clickable");
        const mark = analysis.marks[ply];
        if (mark) {
          move.classList.add(mark);
          move.title += ` (${mark})`;
          const glyph = document.createElement("span");
          glyph.className = "glyph";
          glyph.textContent = GLYPHS[mark];
          move.append(glyph);
        }
        move.classList.toggle("current", ply === analysis.ply && analysis.line.length === 0);
      }
    }
    row.append(move);
    if (analysis && entry.player) {
      for (const node of analysis.tree[ply - 1] || []) row.append(variationOf(ply - 1, [], node, previousOf(ply - 1)));
    }
  }
  if (!analysis) list.scrollTop = list.scrollHeight;
}

// A variation of the move list, in brackets: its moves, each leading to its position, with the
// variations that leave it after each move nested where they leave it.
function variationOf(ply, before, node, previous) {
  const box = document.createElement("span");
  box.className = "variation";
  box.append("(");
  const line = [...before];
  let alternatives = [];
  let first = true;
  while (node) {
    line.push(node.move);
    const move = document.createElement("span");
    move.className = `move ${node.player} clickable`;
    move.textContent = numbered(node, previous, first);
    move.title = `${NAMES[node.player]}: ${node.move}`;
    move.dataset.ply = String(ply);
    move.dataset.line = line.join(",");
    const here = ply === analysis.ply && line.join(",") === analysis.line.join(",");
    move.classList.toggle("current", here);
    box.append(...(first ? [] : [" "]), move);
    for (const other of alternatives) box.append(" ", variationOf(ply, line.slice(0, -1), other, previous));
    alternatives = node.children.slice(1);
    previous = node;
    first = false;
    node = node.children[0];
  }
  box.append(")");
  return box;
}

function showLog() {
  const log = $("log");
  log.replaceChildren();
  for (const entry of game.log) {
    const item = document.createElement("li");
    item.textContent = entry.text;
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function fillOrientation() {
  const select = $("orientation");
  const keep = select.value;
  select.replaceChildren(new Option("auto", ""));
  for (const seat of game.seats) select.add(new Option(NAMES[seat.colour], seat.colour));
  select.value = game.seats.some((s) => s.colour === keep) ? keep : "";
}

function formatTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(s / 60);
  return `${minutes}:${String(s % 60).padStart(2, "0")}`;
}

// The running clock counts down here between answers; the server keeps the real time and
// is asked again when a human's clock reaches zero (it then ends the game on time).
function tickClocks() {
  if (!game || !game.clock) return;
  const elapsed = (performance.now() - receivedAt) / 1000;
  for (const row of $("seats").querySelectorAll("tbody tr")) {
    const colour = row.dataset.colour;
    const running = game.clock.running === colour;
    const left = game.clock.remaining[colour] - (running ? elapsed : 0);
    const cell = row.querySelector(".clock");
    cell.textContent = formatTime(left);
    cell.classList.toggle("running", running);
    cell.classList.toggle("low", left < 10);
    if (running && left <= 0 && game.human_to_move && !refreshing) {
      refreshing = true;
      refresh().catch(report).finally(() => { refreshing = false; });
    }
  }
}

// -- playing ------------------------------------------------------------------------------

// Pieces and dots lie over the cells; whatever was clicked, the cell is found by the
// data-cell attribute of some element under the pointer.
function cellAt(x, y) {
  for (const element of document.elementsFromPoint(x, y)) {
    const cell = element.getAttribute && element.getAttribute("data-cell");
    if (cell) return cell;
    if (element === $("board")) break;
  }
  return null;
}

async function onBoardClick(event) {
  if (analysis) return analysisClick(event);
  if (!myTurn() || !$("promotion").hidden) return;
  const cell = cellAt(event.clientX, event.clientY);
  if (cell === null) return;
  const targets = selected ? (game.legal[selected] || []).filter((m) => m.to === cell) : [];
  try {
    if (targets.length > 0) {
      await play(selected, cell, targets);
    } else if (game.legal[cell] && cell !== selected) {
      await refresh(cell);
    } else if (selected) {
      await refresh();
    }
  } catch (error) {
    report(error);
  }
}

async function play(from, to, moves) {
  let promotion = null;
  const choices = moves.map((m) => m.promotion).filter((p) => p);
  if (choices.length > 1) {
    promotion = await choosePromotion(choices);
    if (promotion === null) return;
  }
  const body = { from, to };
  if (promotion) body.promotion = promotion;
  show(await api("POST", gamePath("/move"), body));
  await runEngines();
}

function choosePromotion(choices) {
  return new Promise((resolve) => {
    const box = $("promotion-choices");
    box.replaceChildren();
    const done = (value) => {
      $("promotion").hidden = true;
      resolve(value);
    };
    for (const letter of choices) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.promotion = letter;
      button.textContent = PROMOTIONS[letter.toUpperCase()] || letter;
      button.addEventListener("click", () => done(letter));
      box.append(button);
    }
    $("promotion-cancel").onclick = () => done(null);
    $("promotion").hidden = false;
  });
}

// Engine seats move one request at a time until a human is to move (or the game ends).
async function runEngines() {
  const loop = ++engineLoop;
  if (game && game.invited && !mySeat()) return; // a spectator's page only watches
  while (game && game.engine_to_move && loop === engineLoop) {
    await new Promise((resolve) => setTimeout(resolve, ENGINE_PAUSE_MS));
    if (loop !== engineLoop) return;
    try {
      show(await api("POST", gamePath("/engine"), {}));
    } catch (error) {
      if (error.status === 409 && game.invited) {
        return; // another player's page had the engine move: the live update shows it
      } else if (error.status === 409) {
        await refresh(); // someone else moved meanwhile (another tab): carry on from there
      } else if (error.status === 503) {
        continue; // the server's engines were all busy with other games: ask again
      } else {
        report(error);
        return;
      }
    }
  }
}

async function changeSeat(colour, engine) {
  const engines = game.seats.filter((s) => (s.colour === colour ? engine : s.engine)).map((s) => s.colour);
  try {
    show(await api("POST", gamePath("/seats"), { engines }));
    await runEngines();
  } catch (error) {
    report(error);
  }
}

async function resign() {
  const player = game && (game.invited ? mySeat() : game.human_to_move && game.turn);
  if (!player) return;
  if (!confirm(`${NAMES[player]} resigns?`)) return;
  try {
    show(await api("POST", gamePath("/resign"), { player }));
    await runEngines();
  } catch (error) {
    report(error);
  }
}

// -- the dialogs --------------------------------------------------------------------------

function formVariant() {
  return $("new-game-form").elements.variant.value;
}

function updateNewGameForm(seats = true) {
  const variant = formVariant();
  const form = $("new-game-form");
  for (const element of form.querySelectorAll(".only-four-player")) element.hidden = variant !== "four-player";
  for (const element of form.querySelectorAll(".only-three-player")) element.hidden = variant !== "three-player";
  for (const element of form.querySelectorAll(".only-not-standard")) element.hidden = variant === "standard";
  for (const name of ["minutes", "increment", "hourglass"]) form.elements[name].disabled = !form.elements.clocks.checked;
  if (!seats) return;
  const two = variant === "three-player" && form.elements.two_players.checked;
  let colours = meta ? meta.variants[variant].colours : [];
  if (two) colours = colours.filter((c) => c !== "black");
  const box = $("seat-choices");
  box.replaceChildren();
  colours.forEach((colour, index) => {
    const row = document.createElement("div");
    row.className = "seat-choice";
    const name = document.createElement("span");
    name.textContent = NAMES[colour];
    row.append(swatch(colour), name);
    for (const [value, label] of [["human", "Human"], ["engine", "Engine"]]) {
      const option = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = `seat-${colour}`;
      input.value = value;
      input.checked = (value === "human") === (index === 0); // you play first, engines the rest
      option.append(input, ` ${label}`);
      row.append(option);
    }
    box.append(row);
  });
}

// The strength levels the server offers, weakest first, labelled with their measured Elo.
function fillLevels() {
  const select = $("new-game-form").elements.engine_level;
  select.replaceChildren();
  for (const { level, elo } of meta.levels) {
    const last = level === meta.levels.length;
    const label = `Level ${level}` + (last ? " (full strength)" : "") + (elo ? `, about ${elo} Elo` : "");
    select.append(new Option(label, String(level), last, last));
  }
}

function newGameRequest() {
  const form = $("new-game-form").elements;
  const variant = formVariant();
  const body = { variant, engines: [], engine_level: Number(form.engine_level.value) };
  if (variant === "four-player") {
    body.mode = form.mode.value;
    body.setup = form.setup.value;
  }
  if (variant === "three-player") {
    body.neutrality = form.neutrality.checked;
    body.first_mate_wins = form.first_mate_wins.checked;
    if (form.two_players.checked) body.players = 2;
  }
  for (const input of $("seat-choices").querySelectorAll("input:checked")) {
    if (input.value === "engine") body.engines.push(input.name.slice("seat-".length));
  }
  if (form.invite.checked) body.invite = true;
  if (form.invite.checked && form.analysis.checked) body.analysis = true;
  if (form.clocks.checked) {
    body.time_control = Number(form.minutes.value) * 60;
    body.increment = Number(form.increment.value);
    if (variant !== "standard") body.hourglass = form.hourglass.checked;
  }
  return body;
}

async function startNewGame(event) {
  event.preventDefault();
  try {
    engineLoop++;
    token = null;
    await showNew(await api("POST", "/api/games", newGameRequest()));
    $("new-game").close();
    if (invitations) showInvitations();
    await runEngines();
  } catch (error) {
    report(error);
  }
}

async function loadRecord(event) {
  event.preventDefault();
  try {
    engineLoop++;
    token = null;
    const body = { record: $("record-text").value };
    if ($("record-invite").checked) body.invite = true;
    if ($("record-invite").checked && $("record-analysis").checked) body.analysis = true;
    await showNew(await api("POST", "/api/records", body));
    $("load-record").close();
    if (invitations) showInvitations();
    await runEngines();
  } catch (error) {
    report(error);
  }
}

function readRecordFile() {
  const file = $("record-file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("record-text").value = String(reader.result); };
  reader.onerror = () => report(new Error(`cannot read ${file.name}`));
  reader.readAsText(file);
}

let toastTimer = 0;
function report(error) {
  const toast = $("toast");
  toast.textContent = error.message || String(error);
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toast.hidden = true; }, 6000);
}

// -- analysis -----------------------------------------------------------------------------
// Any position of the game (a ply of its moves, then a side line tried on the board) with the
// engine's best lines, thinking on in the server's engine pool until stopped, a request at a
// time (each longer than the last: the engine's table stays warm between them); the whole
// game's evaluation graph, whose points and the move list lead to their positions.
//
// The side lines tried are kept as a tree, as lichess's analysis board keeps them: the
// variations that leave the game after each of its plies (analysis.tree[ply]), each node a move
// with the variations that go on from it (children[0] its continuation, the others its
// alternatives). A position is (ply, line): the game's first ply moves, then the line's.

const THINK_LIMIT_MS = 120000; // thinking stops by itself after this long at one position

function gameMoves() {
  return game.moves.filter((m) => m.player);
}

function movesPlayed() {
  return gameMoves().length;
}

function startAnalysis() {
  analysis = { ply: movesPlayed(), line: [], thinking: false, turn: 0, picked: null, legal: {}, marks: {}, tree: {} };
  $("analysis").hidden = false;
  $("analysis-graph").hidden = false;
  document.body.classList.add("analysing");
  $("analysis-summary").hidden = true; // until this game's review comes
  $("analysis-button").setAttribute("aria-pressed", "true");
  showMoves();
  loadGraph();
  goTo(analysis.ply, []);
}

function stopAnalysis() {
  if (!analysis) return;
  analysis.turn++; // ends the thinking loop
  if (analysis.request) analysis.request.abort();
  analysis = null;
  $("analysis").hidden = true;
  $("analysis-graph").hidden = true;
  document.body.classList.remove("analysing");
  $("analysis-button").setAttribute("aria-pressed", "false");
  if (game) {
    showMoves();
    refresh().catch(report);
  }
}

// A line that begins with the game's own next move is the game a ply further on.
function goTo(ply, line) {
  const moves = gameMoves();
  ply = Math.max(0, Math.min(moves.length, ply));
  while (line.length && ply < moves.length && moves[ply].text === line[0]) {
    ply++;
    line = line.slice(1);
  }
  analysis.ply = ply;
  analysis.line = line;
  analysis.picked = null;
  analysis.legal = {}; // until the position's answer brings its moves
  showWhere();
  $("analysis-lines").replaceChildren();
  $("analysis-depth").textContent = "thinking...";
  showMoves();
  markGraph();
  saveLineLink();
  think();
}

// "After 15...Qe6 (ply 30 of 80)", then the side line in the list's notation where known.
function showWhere() {
  const nodes = nodesOf(analysis.ply, analysis.line);
  const texts = nodes.map((node, i) => {
    if (!node) return analysis.line[i]; // not written by the server yet
    return numbered(node, i === 0 ? previousOf(analysis.ply) : nodes[i - 1], i === 0);
  });
  const extra = texts.length ? `, then ${texts.join(" ")}` : "";
  $("analysis-where").textContent = `${moveLabel(analysis.ply)} (ply ${analysis.ply} of ${movesPlayed()})${extra}`;
}

// The tree's nodes along a line from a ply of the game (undefined where not in the tree yet).
function nodesOf(ply, line) {
  const nodes = [];
  let children = analysis.tree[ply] || [];
  for (const move of line) {
    const node = children.find((n) => n.move === move);
    nodes.push(node);
    children = node ? node.children : [];
  }
  return nodes;
}

// The moves played next from a position: the game's own first (on the game's line), then the
// variations tried there in the order they were tried.
function nextMoves(ply, line) {
  if (line.length === 0) {
    const own = ply < movesPlayed() ? [gameMoves()[ply].text] : [];
    return [...own, ...(analysis.tree[ply] || []).map((n) => n.move)];
  }
  const node = nodesOf(ply, line).pop();
  return node ? node.children.map((n) => n.move) : [];
}

// A line the engine was asked about, with its moves as the server wrote them, into the tree.
function addToTree(ply, moves) {
  if (!moves.length) return;
  let children = (analysis.tree[ply] ||= []);
  for (const entry of moves) {
    let node = children.find((n) => n.move === entry.text);
    if (!node) {
      node = { move: entry.text, number: entry.number, player: entry.player, notation: entry.notation, children: [] };
      children.push(node);
    }
    children = node.children;
  }
}

// A move's text (a node of the tree, or an entry of the move list) with its number where a reader
// needs one: the first of a variation or label, and the first of each round ("15.Qd5", "15...Qd5"
// for a later player of round 15).
function numbered(node, previous, first) {
  const opens = !previous || previous.number !== node.number;
  if (opens) return `${node.number}.${node.notation}`;
  return first ? `${node.number}...${node.notation}` : node.notation;
}

// The game's move before ply + 1 (numbered as the list is), for the variations that start there.
function previousOf(ply) {
  return ply > 0 ? gameMoves()[ply - 1] : null;
}

// Back: a side line's last move, then the game's. Forward: the first of the next moves (the
// game's own on its line). Up and down: the other moves tried in place of the last one.
function step(delta) {
  if (delta < 0) {
    if (analysis.line.length) goTo(analysis.ply, analysis.line.slice(0, -1));
    else if (analysis.ply > 0) goTo(analysis.ply - 1, []);
    return;
  }
  const next = nextMoves(analysis.ply, analysis.line);
  if (next.length) goTo(analysis.ply, [...analysis.line, next[0]]);
}

function switchVariation(delta) {
  let ply = analysis.ply;
  let line = analysis.line.slice(0, -1);
  let move;
  if (analysis.line.length) {
    move = analysis.line[analysis.line.length - 1];
  } else if (ply > 0) {
    ply -= 1;
    move = gameMoves()[ply].text;
  } else {
    return;
  }
  const choices = nextMoves(ply, line);
  const index = choices.indexOf(move) + delta;
  if (index >= 0 && index < choices.length) goTo(ply, [...line, choices[index]]);
}

// Save line: the game to the position shown, with its side line, in the chosen format.
function saveLineLink() {
  const format = encodeURIComponent($("save-format").value);
  const line = analysis.line.length ? `&line=${encodeURIComponent(analysis.line.join(","))}` : "";
  $("analysis-save").href = `/api/games/${encodeURIComponent(game.id)}/record?format=${format}&ply=${analysis.ply}${line}`;
}

// The request of a position left is aborted: the server stops its search when the connection
// goes, and a reader stepping through the moves never waits for searches of positions passed.
async function think() {
  const turn = ++analysis.turn;
  if (analysis.request) analysis.request.abort();
  const request = (analysis.request = new AbortController());
  analysis.thinking = true;
  $("analysis-think").textContent = "Stop";
  const started = performance.now();
  let seconds = 0.3;
  try {
    while (analysis && analysis.turn === turn) {
      const lines = Number($("analysis-count").value); // 1 to 5, the server's MAX_LINES
      const body = { ply: analysis.ply, line: analysis.line, lines, time: seconds };
      let data;
      try {
        data = await api("POST", gamePath("/analysis"), body, request.signal);
      } catch (error) {
        if (error.status !== 429 || performance.now() - started > 10000) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250)); // an aborted search still ending
        continue;
      }
      if (!analysis || analysis.turn !== turn) return; // the position changed meanwhile
      if (data.line_moves.length && !nodesOf(analysis.ply, analysis.line).every(Boolean)) {
        addToTree(analysis.ply, data.line_moves);
        showWhere();
        showMoves();
      }
      showAnalysis(data);
      if (data.lines.length === 0 || performance.now() - started > THINK_LIMIT_MS) break;
      seconds = Math.min(4, seconds * 2);
    }
  } catch (error) {
    if (analysis && analysis.turn === turn && error.name !== "AbortError") report(error);
  }
  if (analysis && analysis.turn === turn) {
    analysis.thinking = false;
    $("analysis-think").textContent = "Think";
  }
}

function toggleThinking() {
  if (analysis.thinking) {
    analysis.turn++;
    analysis.request.abort();
    analysis.thinking = false;
    $("analysis-think").textContent = "Think";
  } else {
    think();
  }
}

function showAnalysis(data) {
  $("board").innerHTML = data.svg;
  analysis.legal = data.legal;
  if (data.result) {
    $("analysis-depth").textContent = `Game over: ${data.result}`;
  } else {
    $("analysis-depth").textContent = `depth ${data.depth}, ${data.nodes.toLocaleString("en")} nodes; ${NAMES[data.turn]} to move`;
  }
  showBars(data.lines.length ? data.lines[0].players : null);
  const list = $("analysis-lines");
  list.replaceChildren();
  for (const line of data.lines) {
    const item = document.createElement("li");
    item.className = "line";
    const move = document.createElement("span");
    move.className = "line-move";
    move.textContent = line.notation[0];
    move.title = line.move;
    const pv = document.createElement("span");
    pv.className = "pv";
    pv.textContent = line.notation.slice(1).join(" ");
    pv.title = line.pv.slice(1).join(" ");
    const outlooks = document.createElement("div");
    outlooks.className = "outlooks";
    for (const [colour, o] of Object.entries(line.players)) {
      const chip = document.createElement("span");
      chip.className = "outlook";
      chip.dataset.colour = colour;
      chip.title = `${NAMES[colour]}: win ${pct(o.win)}, draw or middle place ${pct(o.draw)}, loss ${pct(o.loss)}, expected place ${o.expected_place}`;
      chip.append(swatch(colour), `${o.text} (${pct(o.win)} win)`);
      outlooks.append(chip);
    }
    item.append(move, pv, outlooks);
    list.append(item);
  }
}

// "After 15...Qe6" as the move list numbers it: the move's number, "." for the first move of
// its round and "..." for the others, its notation; "Start" before the first.
function moveLabel(ply) {
  return ply === 0 ? "Start" : `After ${numbered(gameMoves()[ply - 1], previousOf(ply - 1), true)}`;
}

// The evaluation bar of the best line: in a two-sided game one bar shared as the sides' expected
// results (a win 1, a draw half), in the others one bar a player, as long as his expected result.
function showBars(players) {
  const box = $("analysis-bars");
  box.replaceChildren();
  if (!players) return;
  const entries = Object.entries(players);
  const share = (o) => o.win + o.draw / 2;
  if (entries.length === 2) {
    const bar = document.createElement("div");
    bar.className = "bar shared";
    for (const [colour, o] of entries) {
      const part = document.createElement("span");
      part.className = `part ${colour}`;
      part.style.width = `${(100 * share(o)).toFixed(1)}%`;
      part.title = `${NAMES[colour]}: ${o.text}, ${pct(share(o))} expected`;
      bar.append(part);
    }
    const label = document.createElement("span");
    label.className = "bar-text";
    label.textContent = entries[0][1].text;
    bar.append(label);
    box.append(bar);
    return;
  }
  for (const [colour, o] of entries) {
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.title = `${NAMES[colour]}: ${o.text}, ${pct(share(o))} expected`;
    const part = document.createElement("span");
    part.className = `part ${colour}`;
    part.style.width = `${(100 * share(o)).toFixed(1)}%`;
    const label = document.createElement("span");
    label.className = "bar-text";
    label.textContent = `${NAMES[colour]} ${o.text}`;
    bar.append(part, label);
    box.append(bar);
  }
}

function pct(share) {
  return `${Math.round(share * 100)}%`;
}

async function loadGraph() {
  const box = $("analysis-graph");
  box.textContent = "Reviewing the game...";
  try {
    const data = await api("POST", gamePath("/review"), { nodes: 2000 });
    if (!analysis) return;
    box.innerHTML = data.svg;
    analysis.marks = {};
    for (const move of data.moves) if (move.mark) analysis.marks[move.ply] = move.mark;
    showSummary(data.players);
    showMoves();
    markGraph();
  } catch (error) {
    box.textContent = "";
    report(error);
  }
}

const GLYPHS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// Each player's accuracy (lichess's formula: docs/search.md, "Game review") and marks, under the graph.
function showSummary(players) {
  const table = $("analysis-summary");
  const head = document.createElement("tr");
  for (const [text, title] of [["", ""], ["accuracy", "lichess's formula"], ["?!", "inaccuracies"], ["?", "mistakes"], ["??", "blunders"]]) {
    const cell = document.createElement("th");
    cell.textContent = text;
    cell.title = title;
    head.append(cell);
  }
  table.replaceChildren(head);
  for (const [colour, summary] of Object.entries(players)) {
    const row = document.createElement("tr");
    const name = document.createElement("td");
    name.append(swatch(colour), NAMES[colour]);
    row.append(name);
    const accuracy = summary.accuracy === null ? "-" : `${Math.round(summary.accuracy)}%`;
    for (const value of [accuracy, summary.marks.inaccuracy, summary.marks.mistake, summary.marks.blunder]) {
      const cell = document.createElement("td");
      cell.className = "number";
      cell.textContent = String(value);
      row.append(cell);
    }
    table.append(row);
  }
  table.hidden = false;
}

function markGraph() {
  for (const point of $("analysis-graph").querySelectorAll(".point")) {
    point.classList.toggle("current", Number(point.dataset.ply) === analysis.ply);
  }
}

function analysisClick(event) {
  const cell = cellAt(event.clientX, event.clientY);
  if (cell === null) return;
  const picked = analysis.picked;
  const targets = picked ? (analysis.legal[picked] || []).filter((m) => m.to === cell) : [];
  for (const element of $("board").querySelectorAll(".analysis-selected")) element.classList.remove("analysis-selected");
  if (targets.length > 0) {
    // a promotion tried in analysis is a queen's, or the first the rules offer
    const move = targets.find((m) => !m.promotion || m.promotion.toUpperCase() === "Q") || targets[0];
    goTo(analysis.ply, [...analysis.line, move.move]);
  } else if (analysis.legal[cell] && cell !== picked) {
    analysis.picked = cell;
    const shape = $("board").querySelector(`[data-cell="${cell}"].cell`);
    if (shape) shape.classList.add("analysis-selected");
  } else {
    analysis.picked = null;
  }
}

function onKey(event) {
  if (!analysis || event.target.closest("input, textarea, select, dialog[open]")) return;
  const keys = {
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    ArrowUp: () => switchVariation(-1),
    ArrowDown: () => switchVariation(1),
    Home: () => goTo(0, []),
    End: () => goTo(movesPlayed(), []),
    " ": toggleThinking,
    Escape: stopAnalysis,
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

function onAnalysisTarget(event) {
  if (!analysis) return;
  const target = event.target.closest("[data-ply]");
  if (target) goTo(Number(target.dataset.ply), target.dataset.line ? target.dataset.line.split(",") : []);
}

// -- start --------------------------------------------------------------------------------

async function start() {
  $("board").addEventListener("click", onBoardClick);
  $("new-game-button").addEventListener("click", () => { updateNewGameForm(); $("new-game").showModal(); });
  $("new-game-cancel").addEventListener("click", () => $("new-game").close());
  $("new-game-form").addEventListener("submit", startNewGame);
  $("new-game-form").addEventListener("change", (event) => {
    if (["variant", "two_players", "clocks"].includes(event.target.name)) {
      updateNewGameForm(event.target.name !== "clocks");
    }
  });
  $("load-record-button").addEventListener("click", () => $("load-record").showModal());
  $("load-record-cancel").addEventListener("click", () => $("load-record").close());
  $("load-record-form").addEventListener("submit", loadRecord);
  $("record-file").addEventListener("change", readRecordFile);
  $("resign-button").addEventListener("click", resign);
  $("draw-button").addEventListener("click", () => offer("draw"));
  $("takeback-button").addEventListener("click", () => offer("takeback"));
  $("offer-accept").addEventListener("click", () => answer(true));
  $("offer-decline").addEventListener("click", () => answer(false));
  $("invitations-button").addEventListener("click", showInvitations);
  $("orientation").addEventListener("change", () => refresh(selected).catch(report));
  $("save-record").addEventListener("click", (event) => { if (!game) event.preventDefault(); });
  $("save-format").addEventListener("change", () => { saveLink(); if (analysis) saveLineLink(); });
  $("analysis-button").addEventListener("click", () => (analysis ? stopAnalysis() : startAnalysis()));
  $("analysis-first").addEventListener("click", () => goTo(0, []));
  $("analysis-prev").addEventListener("click", () => step(-1));
  $("analysis-next").addEventListener("click", () => step(1));
  $("analysis-last").addEventListener("click", () => goTo(movesPlayed(), []));
  $("analysis-think").addEventListener("click", toggleThinking);
  $("analysis-count").addEventListener("change", () => analysis && goTo(analysis.ply, analysis.line));
  $("analysis-exit").addEventListener("click", stopAnalysis);
  $("analysis-graph").addEventListener("click", onAnalysisTarget);
  $("moves").addEventListener("click", onAnalysisTarget);
  document.addEventListener("keydown", onKey);
  setInterval(tickClocks, 250);
  try {
    meta = await api("GET", "/api/meta");
  } catch (error) {
    report(error);
    return;
  }
  fillLevels();
  // An invitation link, or a page reloaded: #game=<id>, and &token=<secret> for a game played
  // by invitation (a fragment: the browser sends it to nobody, not even in a Referer).
  const link = new URLSearchParams(location.hash.slice(1));
  const id = link.get("game");
  if (id && /^[A-Za-z0-9_-]{1,32}$/.test(id)) {
    token = link.get("token");
    try {
      show(await api("GET", `/api/games/${id}`));
      await runEngines();
      return;
    } catch (error) {
      report(error);
      if (error.status === 404) history.replaceState(null, "", location.pathname); // the server no longer has it
      if (error.status === 403) return; // a wrong link: say so, and offer nothing else
    }
  }
  updateNewGameForm();
  $("new-game").showModal();
}

start();

// The npuzzle web game. Moves are played here, in the browser, on any board from 2×2 to 16×16; the server
// is asked only for new boards (/api/generate), goal layouts (/api/layouts), checks of shared deals
// (/api/check), hints and solutions. Arrow keys move the tile in the arrow's direction (the tile
// convention used across npuzzle); on touch screens a swipe does the same.

import {
  BLANK,
  DIRECTION_WORDS,
  applyMove,
  classicGoal,
  directionOf,
  formatTime,
  isSolved,
  randomWalk,
  segment,
  tileForDirection,
} from "./game.js";
import { formatDealId, parseDealId, qualityText } from "./deal.js";
import { BUILT_IN, adoptDataUrl, adoptFile, croppedPicture, forgetPicture, storedPicture } from "./picture.js";
import {
  assembledPicture,
  cellList,
  doubtfulCells,
  drawReading,
  holeHome,
  layoutOf,
  parseCellNumber,
  parseCrop,
  prepareUpload,
  readRequest,
  refusalCells,
  refusalFromData,
  sendBudget,
  unsureCells,
} from "./reader.js";
import { addRecord, recordKey, records, summary, toCsv } from "./records.js";
// the sides this server plays and the largest exact-length deal, served from its settings, not copied here
import { LENGTH_CELLS, MAX_SIDE, MIN_SIDE } from "./limits.js";

const STATE_KEY = "npuzzle.game.v1";
const SOLVE_SECONDS = 5;
const NUMBERS_FROM_CELLS = 36; // little numbers on the picture by default from 6×6 up
const SWIPE_PX = 24; // a touch that travels this far is a swipe, not a tap
const BLANK_AT = "blank-at:"; // the missing-piece goals: "blank-at:CELL", the blank's home cell in the goal
const LAYOUT_NAMES = {
  classic: "Classic (1, 2, 3 … blank last)",
  "blank-first": "Blank first",
  snake: "Snake",
  spiral: "Spiral",
  column: "Columns",
  "blank-at:0": "Missing piece (blank anywhere)",
  "random:1": "Scrambled goal (seed 1)",
};
// Milliseconds per move of an auto-solve or replay of `n` moves. "normal" scales with the length, so a
// short solve is easy to follow and a 1,000-move 8×8 one still plays in about ten seconds.
const PACES = {
  slow: () => 450,
  normal: (n) => Math.min(250, Math.max(0.5, 10_000 / n)),
  fast: (n) => Math.min(90, Math.max(1, 2_500 / n)),
  instant: (n) => Math.min(20, 600 / n),
};

const $ = (id) => document.getElementById(id);
const el = {
  board: $("board"),
  moves: $("moves"),
  timer: $("timer"),
  status: $("status"),
  play: document.querySelector(".play"),
  notice: $("board-notice"),
  noticeText: $("board-notice-text"),
  win: $("win"),
  winTitle: $("win-title"),
  winDetail: $("win-detail"),
  winAgain: $("win-again"),
  winReplay: $("win-replay"),
  winRestart: $("win-restart"),
  winClose: $("win-close"),
  undo: $("undo"),
  redo: $("redo"),
  hint: $("hint"),
  solve: $("solve"),
  solveLabel: document.querySelector("#solve .solve-label"),
  restart: $("restart"),
  share: $("share"),
  newGame: $("new-game"),
  actions: document.querySelector(".actions"),
  playback: $("playback"),
  pause: $("pause"),
  pauseLabel: document.querySelector("#pause .pause-label"),
  stop: $("stop"),
  speed: $("speed"),
  progress: $("progress"),
  progressText: $("progress-text"),
  width: $("width"),
  height: $("height"),
  layout: $("layout"),
  blankHome: $("blank-home"),
  blankRow: $("blank-row"),
  blankColumn: $("blank-column"),
  preview: $("goal-preview"),
  difficulty: $("difficulty"),
  modeNumbers: $("mode-numbers"),
  modePicture: $("mode-picture"),
  pictureOptions: $("picture-options"),
  showNumbers: $("show-numbers"),
  pictureFile: $("picture-file"),
  pictureReset: $("picture-reset"),
  gameId: $("game-id"),
  gameIdLoad: $("game-id-load"),
  copyLink: $("copy-link"),
  records: $("records"),
  recordsKey: $("records-key"),
  exportCsv: $("export"),
  announce: $("announce"),
  panel: $("panel"),
  panelClose: $("panel-close"),
  settingsToggle: $("settings-toggle"),
  settingsSummary: $("settings-summary"),
  confirm: $("confirm"),
  confirmTitle: $("confirm-title"),
  confirmText: $("confirm-text"),
  lengthRow: $("length-row"),
  lengthMin: $("length-min"),
  lengthMax: $("length-max"),
  lengthDeal: $("length-deal"),
  lengthNote: $("length-note"),
  lengthOption: $("difficulty-length"),
  analysis: $("analysis"),
  analyze: $("analyze"),
  readCard: $("read-card"),
  readDrop: $("read-drop"),
  readFile: $("read-file"),
  readFileName: $("read-file-name"),
  readReference: $("read-reference"),
  readReferenceName: $("read-reference-name"),
  readWidth: $("read-width"),
  readHeight: $("read-height"),
  readHole: $("read-hole"),
  readHoleHome: $("read-hole-home"),
  readHoleMenus: $("read-hole-menus"),
  readHoleRow: $("read-hole-row"),
  readHoleColumn: $("read-hole-column"),
  readHoleTyped: $("read-hole-typed"),
  readHoleCell: $("read-hole-cell"),
  readHoleNote: $("read-hole-cell-note"),
  readOptions: $("read-options"),
  readCrop: $("read-crop"),
  readGuess: $("read-guess"),
  readGo: $("read-go"),
  readStatus: $("read-status"),
  readPreview: $("read-preview"),
};
const narrow = window.matchMedia("(max-width: 860px)");

/** The whole game, saved to localStorage after every change. */
let state = null;
let layouts = []; // [{name, board}] for the size in the selects
let tileEls = new Map(); // label -> button
let startedAt = null; // performance.now() while the clock runs
let version = 0; // bumps on every board change, so late server answers are dropped
let playback = null; // auto-solve or replay in progress: see startPlayback
let thinking = null; // "hint" | "solve" while the server is asked
let hintTimer = null;
let saveTimer = null;
let pending = 0; // new games being dealt; the board is aria-busy meanwhile
let swipe = null; // {id, x, y} while a touch is down on the board
let swipedAt = -Infinity; // a click right after a swipe is the swipe's own tap: ignored (none yet: a click in the page's first 400 ms counts)
let readFiles = { shot: null, reference: null }; // files chosen for "From a screenshot"
let reading = false; // a screenshot is being read

function busy(delta) {
  pending += delta;
  el.board.setAttribute("aria-busy", String(pending > 0));
}

function freshState(width, height) {
  const goal = classicGoal(width, height);
  return {
    width,
    height,
    layout: "classic",
    goal,
    start: goal.slice(),
    tiles: goal.slice(),
    history: [],
    stamps: [], // per action of the history: ms on the game's clock when it was made (for replays)
    redo: [],
    elapsed: 0,
    solved: true,
    assisted: false,
    difficulty: "hard",
    band: { low: 20, high: 24 }, // difficulty "length": the shortest solution's length, in moves
    analysis: null, // {id, answer} of /api/analyze for this deal's start
    mode: "numbers",
    showNumbers: null, // null: on from NUMBERS_FROM_CELLS cells up
    picture: "builtin",
    speed: "normal",
    seed: null,
    notice: null, // a warning kept beside this deal until another is dealt (a best guess read from a screenshot)
    previous: null, // the game before this deal, one Undo away
  };
}

/** The start of a saved game from before `start` was kept: its tiles with the history undone. */
function startOf(saved) {
  let tiles = saved.tiles.slice();
  for (const action of [...saved.history].reverse()) {
    for (const m of [...action].reverse()) tiles = applyMove(tiles, saved.width, m);
  }
  return tiles;
}

function revive(saved) {
  if (!saved || !Array.isArray(saved.tiles) || saved.tiles.length !== saved.width * saved.height) return null;
  const out = { ...freshState(saved.width, saved.height), ...saved };
  if (!Array.isArray(out.start) || out.start.length !== out.tiles.length) out.start = startOf(out);
  if (!Array.isArray(out.stamps) || out.stamps.length !== out.history.length) out.stamps = out.history.map(() => 0);
  out.previous = saved.previous ? revive({ ...saved.previous, previous: null }) : null;
  return out;
}

function load() {
  try {
    return revive(JSON.parse(localStorage.getItem(STATE_KEY) || "null"));
  } catch {
    return null; // corrupt or unavailable storage: start afresh
  }
}

function save() {
  clearTimeout(saveTimer);
  saveTimer = null;
  try {
    localStorage.setItem(STATE_KEY, JSON.stringify({ ...state, elapsed: elapsed() }));
  } catch {
    /* storage full or disabled */
  }
}

function saveSoon() {
  if (saveTimer === null) saveTimer = setTimeout(save, 400);
}

/** A copy of the game as it is now, to keep one Undo away. */
function snapshot() {
  return {
    ...state,
    elapsed: elapsed(),
    previous: null,
    history: state.history.slice(),
    stamps: state.stamps.slice(),
    redo: state.redo.slice(),
  };
}

// -- server -----------------------------------------------------------------------------------------------
async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("the server cannot be reached");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.detail || `the server answered ${response.status}`);
    error.status = response.status; // the server answered: not an offline problem
    error.body = data; // a refusal's data beside its sentence (/api/read's cells)
    throw error;
  }
  return data;
}

function position() {
  return { board: state.tiles, width: state.width, height: state.height, goal: state.goal, blank: BLANK };
}

// -- clock ------------------------------------------------------------------------------------------------
function elapsed() {
  return state.elapsed + (startedAt === null ? 0 : performance.now() - startedAt);
}

function startClock() {
  if (startedAt === null && !state.solved) startedAt = performance.now();
}

function stopClock() {
  state.elapsed = elapsed();
  startedAt = null;
}

setInterval(() => {
  if (state && startedAt !== null) el.timer.textContent = formatTime(elapsed());
}, 100);

// -- announcements ----------------------------------------------------------------------------------------
function announce(text) {
  el.announce.textContent = "";
  requestAnimationFrame(() => {
    el.announce.textContent = text;
  });
}

function setStatus(text) {
  el.status.textContent = text;
}

// -- drawing ----------------------------------------------------------------------------------------------
function buildBoard() {
  const { width, height } = state;
  for (const node of [el.board, el.board.parentElement]) {
    node.style.setProperty("--w", width);
    node.style.setProperty("--h", height);
  }
  el.board.dataset.size = `${width}x${height}`;
  el.board.setAttribute("aria-label", `Puzzle board, ${width} by ${height}`);
  el.board.replaceChildren();
  const inner = document.createElement("div");
  inner.className = "board-inner";
  el.board.append(inner);
  tileEls = new Map();
  for (const label of [...state.goal].sort((a, b) => a - b)) {
    const tile = document.createElement(label === BLANK ? "div" : "button");
    tile.className = "tile";
    tile.dataset.tile = String(label);
    if (label === BLANK) {
      tile.setAttribute("aria-hidden", "true");
    } else {
      tile.type = "button";
      tile.tabIndex = -1;
      tile.addEventListener("click", () => {
        if (performance.now() - swipedAt > 400) play(label);
      });
    }
    const face = document.createElement("span");
    face.className = "face";
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = label === BLANK ? "" : String(label);
    face.append(num);
    tile.append(face);
    // the picture piece this tile carries: its home cell in the goal
    const home = state.goal.indexOf(label);
    const hr = Math.floor(home / width);
    const hc = home % width;
    face.style.backgroundPosition = `${(hc / (width - 1)) * 100}% ${(hr / (height - 1)) * 100}%`;
    inner.append(tile);
    tileEls.set(label, tile);
  }
  drawPreview();
  drawDeal();
  drawNotice();
  applyLook();
}

/** The deal's warning, if it has one, above the board: moves, undo, hints and reloads leave it in place. */
function drawNotice() {
  el.noticeText.textContent = state.notice ?? "";
  el.notice.hidden = !state.notice;
  el.play.classList.toggle("noticed", Boolean(state.notice));
  fitNotice();
}

/**
 * The board gives up the height the warning takes, gap included (--notice-h; the style sheet's 2.7rem and
 * 3.4rem are the one line of a desktop and two of a phone until measured): a warning that wraps further, in
 * a wider font or a narrower window, shrinks the board rather than push the actions below the fold.
 */
function fitNotice() {
  if (el.notice.hidden) {
    el.play.style.removeProperty("--notice-h");
    return;
  }
  const gap = parseFloat(getComputedStyle(el.play).rowGap) || 0;
  el.play.style.setProperty("--notice-h", `${Math.ceil(el.notice.offsetHeight + gap)}px`);
}
new ResizeObserver(fitNotice).observe(el.notice);

function draw() {
  const { width, tiles, goal } = state;
  tiles.forEach((label, cell) => {
    const tile = tileEls.get(label);
    if (!tile) return;
    const r = Math.floor(cell / width);
    const c = cell % width;
    tile.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
    tile.dataset.cell = String(cell);
    tile.classList.toggle("home", label !== BLANK && goal[cell] === label);
    if (label !== BLANK) tile.setAttribute("aria-label", `${label}, row ${r + 1}, column ${c + 1}`);
  });
  const solved = isSolved(tiles, goal);
  const locked = playback !== null;
  el.board.dataset.solved = String(solved);
  el.board.classList.toggle("solved", solved);
  el.moves.textContent = String(playback?.kind === "replay" ? playback.index : moveCount());
  el.timer.textContent = formatTime(elapsed());
  el.undo.disabled = locked || (state.history.length === 0 && !state.previous);
  el.redo.disabled = locked || state.redo.length === 0;
  el.hint.disabled = solved || locked || thinking !== null;
  el.solve.disabled = solved || locked || thinking !== null;
  el.restart.disabled = locked || (state.history.length === 0 && isSolved(tiles, state.start));
  el.undo.title = state.history.length === 0 && state.previous ? "Undo: bring back the previous game" : "";
}

function moveCount() {
  return state.history.reduce((n, action) => n + action.length, 0);
}

function drawPreview() {
  el.preview.style.gridTemplateColumns = `repeat(${state.width}, 1fr)`;
  el.preview.style.width = `${Math.min(180, 20 * state.width)}px`;
  el.preview.classList.toggle("dense", state.width > 8 || state.height > 8);
  el.preview.replaceChildren(
    ...state.goal.map((label) => {
      const s = document.createElement("span");
      s.textContent = label === BLANK ? "" : String(label);
      if (label === BLANK) s.className = "blank";
      return s;
    }),
  );
}

function layoutName(name) {
  if (LAYOUT_NAMES[name]) return LAYOUT_NAMES[name];
  const [kind, arg] = name.split(":");
  if (kind === "random") return `Scrambled goal (seed ${arg})`;
  if (kind === "blank-at") return LAYOUT_NAMES["blank-at:0"]; // one entry: the row and column menus say where
  return name;
}

function layoutTitle(name) {
  return layoutName(name).split(" (")[0];
}

/** The goal in words, with where the blank belongs for a missing-piece goal on a board `width` wide. */
function goalWords(name, width) {
  if (!name.startsWith(BLANK_AT)) return layoutTitle(name);
  const { row, column } = blankHomeOf(name, width);
  return `${layoutTitle(name)}, blank at row ${row}, column ${column}`;
}

/** Where a missing-piece goal ("blank-at:6") puts the blank on a board `width` wide: 1-based row and column. */
function blankHomeOf(name, width) {
  const cell = Number(name.slice(BLANK_AT.length));
  return { row: Math.floor(cell / width) + 1, column: (cell % width) + 1 };
}

/** The goal the settings name: the layout menu's, with the row and column menus' cell for a missing piece. */
function chosenLayout() {
  const layout = el.layout.value || "classic";
  if (!layout.startsWith(BLANK_AT)) return layout;
  const cell = (Number(el.blankRow.value) - 1) * Number(el.width.value) + Number(el.blankColumn.value) - 1;
  return `${BLANK_AT}${cell}`; // the server checks it is on the board (a 400 naming the cell otherwise)
}

/** Layouts that differ only by a parameter the page sets elsewhere (the blank's cell) share a menu entry. */
function layoutFamily(name) {
  return name.startsWith(BLANK_AT) ? BLANK_AT : name;
}

/**
 * The row and column menus of the blank's home, shown for a missing-piece goal: as many rows and columns
 * as the size menus say, `home` (1-based) chosen, else the menus' own choice (cut to the size).
 */
function drawBlankHome(home = null) {
  el.blankHome.hidden = !el.layout.value.startsWith(BLANK_AT);
  const kept = home ?? { row: Number(el.blankRow.value) || 1, column: Number(el.blankColumn.value) || 1 };
  for (const [select, n, chosen] of [
    [el.blankRow, Number(el.height.value), kept.row],
    [el.blankColumn, Number(el.width.value), kept.column],
  ]) {
    select.replaceChildren(...Array.from({ length: n }, (_, i) => new Option(String(i + 1), String(i + 1))));
    select.value = String(Math.min(Math.max(1, chosen), n));
  }
}

/** The deal's id in the panel and the address bar: a link to it restarts the same deal. */
function drawDeal() {
  const id = formatDealId(state);
  el.gameId.value = id;
  try {
    history.replaceState(null, "", `#${id}`);
  } catch {
    /* some embedded views forbid it */
  }
  el.settingsSummary.textContent = `${state.width}×${state.height} · ${layoutTitle(state.layout)}`;
}

function numbersOn() {
  return state.showNumbers ?? state.width * state.height >= NUMBERS_FROM_CELLS;
}

async function applyLook() {
  const picture = state.mode === "picture";
  el.modePicture.checked = picture;
  el.modeNumbers.checked = !picture;
  el.pictureOptions.hidden = !picture;
  el.showNumbers.checked = numbersOn();
  el.board.classList.toggle("numbers", numbersOn());
  if (!picture) {
    el.board.classList.remove("picture");
    return;
  }
  const source = (state.picture === "own" && storedPicture()) || BUILT_IN;
  try {
    const url = await croppedPicture(source, state.width, state.height);
    el.board.style.setProperty("--pic", `url("${url}")`);
    el.board.classList.toggle("picture", state.mode === "picture");
  } catch {
    setStatus("Could not load the picture; showing numbers");
    el.board.classList.remove("picture");
  }
}

// -- playing ----------------------------------------------------------------------------------------------
/** The player clicked/tapped/keyed/swiped tile `label`: slide it (and the tiles between it and the blank). */
function play(label) {
  if (playback) stopPlayback();
  if (state.solved && isSolved(state.tiles, state.goal)) return;
  const moves = segment(state.tiles, state.width, label);
  if (moves.length === 0) {
    announce(`Tile ${label} is not in the gap's row or column`);
    return;
  }
  const direction = directionOf(state.tiles, state.width, label);
  commit(moves);
  state.redo = [];
  const count = moves.length === 1 ? `${label}` : `${moves.length} tiles up to ${label}`;
  afterMove(`Moved ${count} ${DIRECTION_WORDS[direction]}.`);
}

/** Apply single-tile moves as one undoable action. */
function commit(moves) {
  clearHint();
  let tiles = state.tiles;
  for (const m of moves) tiles = applyMove(tiles, state.width, m);
  state.tiles = tiles;
  state.history.push(moves);
  state.stamps.push(Math.round(elapsed()));
  version += 1;
  startClock();
}

function afterMove(sentence) {
  const solved = isSolved(state.tiles, state.goal);
  draw();
  if (solved && !state.solved) {
    win();
  } else {
    announce(`${sentence} ${moveCount()} moves.`);
    setStatus("Playing");
  }
  saveSoon();
}

function win(how = "") {
  stopClock();
  state.solved = true;
  const moves = moveCount();
  let detail = `${plural(moves, "move")} in ${timeWords(state.elapsed)}`;
  if (state.assisted) {
    detail += " · with help, so not recorded";
  } else {
    const broke = addRecord(recordKey(state.width, state.height, state.layout), state.elapsed, moves);
    if (broke.time && broke.moves) detail += " · new best time and fewest moves!";
    else if (broke.time) detail += " · new best time!";
    else if (broke.moves) detail += " · fewest moves yet!";
  }
  el.winTitle.textContent = "Solved!";
  el.winDetail.textContent = detail;
  showWin();
  setStatus(how || "Solved");
  announce(`Solved! ${detail}.`);
  drawRecords();
  draw();
  save();
}

function showWin() {
  el.win.hidden = false;
  el.winAgain.focus({ preventScroll: true });
}

function closeWin() {
  if (el.win.hidden) return;
  el.win.hidden = true;
  el.board.focus({ preventScroll: true });
}

function undo() {
  if (playback) stopPlayback();
  if (state.history.length === 0) {
    if (state.previous) restorePrevious();
    return;
  }
  const action = state.history.pop();
  state.stamps.pop();
  let tiles = state.tiles;
  for (const m of [...action].reverse()) tiles = applyMove(tiles, state.width, m);
  state.tiles = tiles;
  state.redo.push(action);
  version += 1;
  clearHint();
  reopenIfUnsolved();
  draw();
  announce(`Undone. ${moveCount()} moves.`);
  saveSoon();
}

function redo() {
  if (playback) stopPlayback();
  if (state.redo.length === 0) return;
  const action = state.redo.pop();
  commit(action);
  afterMove("Redone.");
}

/** Undo after a win reopens the game (it was already recorded; further solves are not). */
function reopenIfUnsolved() {
  if (state.solved && !isSolved(state.tiles, state.goal)) {
    state.solved = false;
    state.assisted = true;
    el.win.hidden = true;
    setStatus("Playing");
  }
}

/** Undo with no moves left to undo: the game before this deal comes back, as it was. */
async function restorePrevious() {
  const previous = state.previous;
  const look = { mode: state.mode, showNumbers: state.showNumbers, picture: state.picture, speed: state.speed, band: state.band };
  state = { ...previous, ...look, previous: null };
  showNewState();
  setStatus("Previous game back: the clock restarts with your next move");
  announce(`Previous ${state.width} by ${state.height} game back.`);
  await loadLayouts();
}

function onKey(event) {
  const target = event.target;
  if (event.key === "Escape") {
    if (!el.win.hidden) {
      closeWin();
      event.preventDefault();
    } else if (el.panel.classList.contains("open")) {
      closePanel();
      event.preventDefault();
    }
    return;
  }
  if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
  if (target instanceof HTMLElement && target.closest("dialog")) return;
  if (event.ctrlKey || event.metaKey) {
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) undo();
    else if (key === "y" || (key === "z" && event.shiftKey)) redo();
    else return;
    event.preventDefault();
    return;
  }
  if (event.key === " " && playback && !(target instanceof HTMLButtonElement)) {
    event.preventDefault();
    togglePause();
    return;
  }
  const direction = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" }[event.key];
  if (direction) {
    event.preventDefault();
    moveToward(direction);
  } else if ((event.key === "h" || event.key === "H") && !(target instanceof HTMLButtonElement && target.id === "hint")) {
    hint();
  }
}

/** Move the tile that travels `direction` into the gap (arrow keys and swipes). */
function moveToward(direction) {
  const label = tileForDirection(state.tiles, state.width, state.height, direction);
  if (label === null) announce(`No tile can move ${DIRECTION_WORDS[direction]}`);
  else play(label);
}

// -- swipes (touch and pen; a mouse clicks) ---------------------------------------------------------------
function onPointerDown(event) {
  if (event.pointerType === "mouse" || !event.isPrimary) return;
  swipe = { id: event.pointerId, x: event.clientX, y: event.clientY };
}

function onPointerUp(event) {
  if (!swipe || event.pointerId !== swipe.id) return;
  const dx = event.clientX - swipe.x;
  const dy = event.clientY - swipe.y;
  swipe = null;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return; // a tap: the tile's click handles it
  swipedAt = performance.now();
  const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : dy > 0 ? "D" : "U";
  moveToward(direction);
}

// -- help from the server ---------------------------------------------------------------------------------
function clearHint() {
  if (hintTimer) clearTimeout(hintTimer);
  hintTimer = null;
  for (const t of tileEls.values()) t.classList.remove("hint");
}

async function hint() {
  if (playback || thinking || isSolved(state.tiles, state.goal)) return;
  const asked = version;
  thinking = "hint";
  draw();
  setStatus(`Thinking about a hint…`);
  try {
    const answer = await api("/api/hint", position());
    if (asked !== version || answer.move === null) return;
    state.assisted = true;
    clearHint();
    const tile = tileEls.get(answer.move);
    tile.classList.add("hint");
    hintTimer = setTimeout(clearHint, 4000);
    const where = `${answer.move} ${DIRECTION_WORDS[answer.direction]}`;
    const n = answer.remaining;
    const text = answer.optimal
      ? `Hint: ${where} · ${n} moves to go (optimal)`
      : `Hint: ${where} · moves to go: ${qualityText(n, false, answer.lower_bound)}`;
    setStatus(text);
    announce(`${text}.`);
    saveSoon();
  } catch (error) {
    if (asked !== version) return;
    setStatus(`No hint: ${error.message}`);
    announce(`No hint: ${error.message}`);
  } finally {
    thinking = null;
    draw();
  }
}

async function solve() {
  if (playback || thinking || isSolved(state.tiles, state.goal)) return;
  const asked = version;
  thinking = "solve";
  draw();
  setStatus(state.width * state.height > 16 ? `Finding a solution (up to ${SOLVE_SECONDS} s)…` : "Finding a solution…");
  try {
    const answer = await api("/api/solve", { ...position(), max_seconds: SOLVE_SECONDS });
    if (asked !== version) return;
    state.assisted = true;
    thinking = null;
    const quality = qualityText(answer.length, answer.optimal, answer.lower_bound);
    announce(`Solving in ${answer.length} moves (${quality}). Space pauses.`);
    startPlayback("solve", answer.moves, quality);
  } catch (error) {
    if (asked !== version) return;
    setStatus(`Could not solve: ${error.message}`);
    announce(`Could not solve: ${error.message}`);
  } finally {
    thinking = null;
    draw();
  }
}

// -- playback: auto-solve and replay ----------------------------------------------------------------------
/**
 * Play `moves` one by one. kind "solve" commits each move to the game (undoable); kind "replay" shows the
 * finished game again from its start and leaves the history as it was. Pausable; the pace follows the
 * speed select and, at "normal", the length.
 */
function startPlayback(kind, moves, quality, times = null) {
  stopPlayback();
  clearHint();
  const now = performance.now();
  const run = { kind, moves, quality, times, clock: times?.[0] ?? 0, index: 0, paused: false, timer: null, due: 1, last: now };
  if (kind === "replay") {
    run.finalTiles = state.tiles;
    state.tiles = state.start.slice();
    el.win.hidden = true;
  }
  playback = run;
  el.playback.hidden = false;
  el.actions.hidden = true;
  el.pauseLabel.textContent = "Pause";
  el.pause.setAttribute("aria-pressed", "false");
  el.speed.value = state.speed;
  setPace();
  drawPlayback();
  draw();
  el.pause.focus({ preventScroll: true });
  run.timer = setTimeout(tick, 0);
}

/** True when a replay follows the times the moves were made at ("As played"). */
function asPlayed() {
  return state.speed === "real" && playback?.times != null;
}

function pace() {
  return (PACES[state.speed] ?? PACES.normal)(Math.max(1, playback.moves.length));
}

function setPace() {
  if (asPlayed()) {
    playback.clock = playback.times[Math.max(0, playback.index - 1)];
    el.board.style.setProperty("--speed", "80ms");
    return;
  }
  const ms = pace();
  el.board.style.setProperty("--speed", ms < 12 ? "0ms" : `${Math.round(Math.min(130, ms * 0.8))}ms`);
}

function tick() {
  const run = playback;
  if (!run || run.paused) return;
  const now = performance.now();
  let n = 0;
  if (asPlayed()) {
    run.clock += now - run.last;
    while (run.index + n < run.moves.length && run.times[run.index + n] <= run.clock) n += 1;
  } else {
    run.due += (now - run.last) / pace();
    n = Math.min(Math.floor(run.due), run.moves.length - run.index);
    run.due -= n;
  }
  run.last = now;
  for (; n > 0; n -= 1) {
    const label = run.moves[run.index];
    try {
      if (run.kind === "solve") {
        commit([label]);
        state.redo = [];
      } else {
        state.tiles = applyMove(state.tiles, state.width, label);
      }
    } catch {
      endPlayback();
      setStatus(`Stopped: move ${label} does not fit this board`);
      draw();
      return;
    }
    run.index += 1;
  }
  draw();
  drawPlayback();
  if (run.index >= run.moves.length) {
    finishPlayback();
    return;
  }
  saveSoon();
  run.timer = setTimeout(tick, asPlayed() ? 16 : Math.max(4, Math.min(pace(), 250) - 1));
}

function progressText() {
  const run = playback;
  const what = run.kind === "solve" ? "Auto-solve" : "Replay";
  const paused = run.paused ? " · paused" : "";
  const quality = run.quality ? ` (${run.quality})` : "";
  return `${what}: move ${run.index} of ${run.moves.length}${quality}${paused}`;
}

function drawPlayback() {
  const run = playback;
  el.progress.max = Math.max(1, run.moves.length);
  el.progress.value = run.index;
  el.progressText.textContent = `${run.index} / ${run.moves.length}`;
  setStatus(progressText());
}

function togglePause() {
  const run = playback;
  if (!run) return;
  run.paused = !run.paused;
  clearTimeout(run.timer);
  el.pauseLabel.textContent = run.paused ? "Resume" : "Pause";
  el.pause.setAttribute("aria-pressed", String(run.paused));
  drawPlayback();
  announce(run.paused ? `Paused at move ${run.index} of ${run.moves.length}.` : "Resumed.");
  if (run.paused) {
    save();
  } else {
    run.last = performance.now();
    run.due = 1;
    run.timer = setTimeout(tick, 0);
  }
}

/** Hide the playback bar; a replay cut short shows the finished board again. */
function endPlayback() {
  const run = playback;
  if (!run) return null;
  clearTimeout(run.timer);
  playback = null;
  if (run.kind === "replay") state.tiles = run.finalTiles;
  el.board.style.removeProperty("--speed");
  el.playback.hidden = true;
  el.actions.hidden = false;
  if (el.playback.contains(document.activeElement)) el.board.focus({ preventScroll: true });
  return run;
}

function stopPlayback() {
  const run = endPlayback();
  if (!run) return;
  setStatus(`Stopped at move ${run.index} of ${run.moves.length}`);
  announce(`Stopped at move ${run.index} of ${run.moves.length}.`);
  draw();
  save();
}

function finishPlayback() {
  const run = endPlayback();
  draw();
  if (run.kind === "solve") {
    const how = `Solved by auto-solve: ${run.moves.length} moves (${run.quality})`;
    if (!state.solved) win(how);
    else setStatus(how);
  } else {
    setStatus(`Replay done: ${run.moves.length} moves`);
    announce("Replay done.");
  }
  save();
}

function replay() {
  const moves = state.history.flat();
  if (moves.length === 0) return;
  const times = state.history.flatMap((action, i) => action.map(() => state.stamps[i] ?? 0));
  startPlayback("replay", moves, "", times);
}

// -- new games, deals and settings ------------------------------------------------------------------------
function difficultyRequest(cells) {
  if (state.difficulty === "easy") return { method: "walk", moves: Math.max(10, 2 * cells) };
  if (state.difficulty === "medium") return { method: "walk", moves: 6 * cells };
  if (state.difficulty === "length" && cells <= LENGTH_CELLS) return { length: bandText() };
  return { method: "shuffle" };
}

/** The band asked for: "40" or "35..45". */
function bandText() {
  const { low, high } = state.band;
  return low === high ? String(low) : `${low}..${high}`;
}

function bandWords() {
  const { low, high } = state.band;
  return low === high ? `exactly ${plural(low, "move")}` : `${low} to ${high} moves`;
}

/** The band typed in the two boxes, or an Error saying what is wrong with it. */
function readBand() {
  const low = Number(el.lengthMin.value);
  const high = el.lengthMax.value === "" ? low : Number(el.lengthMax.value);
  if (!Number.isInteger(low) || !Number.isInteger(high) || low < 0 || high < 0 || low > 999 || high > 999) {
    throw new Error("the shortest solution is a whole number of moves (0 to 999)");
  }
  if (high < low) throw new Error(`"to" (${high}) is less than "from" (${low})`);
  return { low, high };
}

/** The length controls show when the difficulty is "length"; the option is off above 16 cells. */
function drawLengthControls() {
  const cells = Number(el.width.value) * Number(el.height.value);
  const fits = cells <= LENGTH_CELLS;
  el.lengthOption.disabled = !fits;
  el.lengthRow.hidden = el.difficulty.value !== "length";
  el.lengthMin.value = String(state.band.low);
  el.lengthMax.value = String(state.band.high);
  el.lengthNote.textContent = fits
    ? "Proven shortest solutions; a 4×4 deal can take a few seconds. Longest possible: 3×3 31, 4×4 80."
    : "Exact lengths are for boards up to 16 cells (4×4); a bigger board gets a uniform shuffle.";
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function timeWords(ms) {
  return ms < 60_000 ? `${formatTime(ms)} s` : formatTime(ms);
}

function midGame() {
  return !state.solved && moveCount() > 0;
}

/** Ask before a settings change ends a game in progress; true to go on. */
function confirmNewDeal(change) {
  if (!midGame()) return Promise.resolve(true);
  el.confirmTitle.textContent = `${change}?`;
  el.confirmText.textContent =
    `That ends this ${state.width}×${state.height} game (${plural(moveCount(), "move")}, ${timeWords(elapsed())}). ` +
    "Undo brings it back.";
  el.confirm.returnValue = "";
  return new Promise((resolve) => {
    el.confirm.addEventListener("close", () => resolve(el.confirm.returnValue === "new"), { once: true });
    el.confirm.showModal();
    el.confirm.querySelector("#confirm-keep").focus();
  });
}

/**
 * Replace the game by a new deal; the one being left stays one Undo away when it had moves. `notice` is a
 * warning that stays above the board for as long as this deal is played.
 */
function setDeal({ width, height, layout, goal, tiles, seed = null, notice = null }) {
  const look = {
    mode: state.mode,
    showNumbers: state.showNumbers,
    picture: state.picture,
    difficulty: state.difficulty,
    band: state.band,
    speed: state.speed,
  };
  const previous = moveCount() > 0 && !state.solved ? snapshot() : state.previous;
  state = {
    ...freshState(width, height),
    ...look,
    layout,
    goal,
    start: tiles.slice(),
    tiles: tiles.slice(),
    seed,
    notice,
    solved: isSolved(tiles, goal),
    previous,
  };
  showNewState();
}

/** Redraw everything after `state` was replaced (a new deal, or the previous game brought back). */
function showNewState() {
  version += 1;
  startedAt = null;
  el.win.hidden = true;
  clearHint();
  syncSelects();
  buildBoard();
  draw();
  drawRecords();
  drawAnalysis();
  save();
}

async function newGame() {
  if (playback) endPlayback();
  const asked = ++version;
  busy(+1);
  try {
    await dealNewGame(asked);
  } finally {
    busy(-1);
  }
}

async function dealNewGame(asked) {
  // the size comes from the selects: a game dealt meanwhile may have replaced `state`
  const width = Number(el.width.value);
  const height = Number(el.height.value);
  let layout = chosenLayout();
  const cells = width * height;
  const request = difficultyRequest(cells);
  const byLength = request.length !== undefined;
  setStatus(byLength ? `Dealing a board ${bandWords()} from solved (proving it takes a moment)…` : "Shuffling…");
  let goal;
  let tiles;
  let seed = null;
  let offline = null;
  let length = null;
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await api("/api/generate", { width, height, goal: layout, ...request });
      ({ goal, seed } = answer);
      tiles = answer.board;
      length = answer.optimal_length ?? null;
      if (!isSolved(tiles, goal) || byLength) break;
    }
  } catch (error) {
    if (error.status && (byLength || error.status < 500)) {
      // the server refused this band (longer than the board allows, no time left) or this goal: say so,
      // keep the game
      if (asked === version) setStatus(`Could not deal ${byLength ? bandWords() : "this goal"}: ${error.message}`);
      return;
    }
    // offline or server trouble: a random walk here is always solvable too
    const known = layouts.find((l) => l.name === layout && l.board.length === cells);
    goal = known?.board ?? classicGoal(width, height);
    if (!known) layout = "classic";
    tiles = randomWalk(goal, width, height, cells * 8);
    offline = error.message;
  }
  if (asked !== version) return;
  setDeal({ width, height, layout, goal, tiles, seed });
  if (offline) setStatus(`Offline game (${offline})`);
  else if (length !== null) setStatus(`New game: shortest solution ${plural(length, "move")} · your move`);
  else setStatus("New game: your move");
  announce(`New ${width} by ${height} game. ${narrow.matches ? "Tap or swipe tiles." : "Arrow keys move a tile in the arrow's direction."}`);
}

/** Back to the start of this deal: same tiles, clock and moves at zero. */
function restartDeal() {
  if (playback) endPlayback();
  const keep = moveCount() > 0 && !state.solved ? snapshot() : state.previous;
  const { width, height, layout, goal, start, seed, notice } = state;
  setDeal({ width, height, layout, goal, tiles: start, seed, notice }); // the same board: the same warning
  state.previous = keep;
  save();
  draw();
  setStatus("Restarted this deal: your move");
  announce("Restarted this deal.");
}

/** Play the deal of a game id (`4x4:1,2,…,0&goal=spiral`) or a link holding one. */
async function playDealId(text, { ask = true } = {}) {
  let deal;
  try {
    deal = parseDealId(text);
  } catch (error) {
    setStatus(`Bad game id: ${error.message}`);
    return false;
  }
  if (ask && formatDealId(state) === formatDealId({ ...deal, start: deal.tiles })) {
    drawDeal();
    return true; // already this deal
  }
  if (ask && !(await confirmNewDeal("Play the linked game"))) {
    drawDeal();
    return false;
  }
  const asked = ++version;
  busy(+1);
  try {
    let goal;
    try {
      const facts = await api("/api/check", {
        board: deal.tiles,
        width: deal.width,
        height: deal.height,
        goal: deal.layout,
        blank: BLANK,
      });
      if (!facts.solvable) {
        setStatus(`That game cannot be solved: ${facts.explanation}`);
        drawDeal();
        return false;
      }
      goal = facts.goal;
    } catch (error) {
      if (deal.layout !== "classic") {
        setStatus(`Could not read that game id: ${error.message}`);
        drawDeal();
        return false;
      }
      goal = classicGoal(deal.width, deal.height); // offline: trust a classic deal
    }
    if (asked !== version) return false;
    setDeal({ ...deal, goal });
    setStatus(`Linked game ${deal.width}×${deal.height}: your move`);
    announce(`Playing the linked ${deal.width} by ${deal.height} game.`);
    await loadLayouts();
    return true;
  } finally {
    busy(-1);
  }
}

async function shareLink() {
  drawDeal();
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    setStatus("Link to this deal copied: it restarts the same board");
  } catch {
    setStatus("The address bar now links to this deal (copy it from there)");
  }
  announce("Link to this deal ready.");
}

async function loadLayouts() {
  const width = Number(el.width.value);
  const height = Number(el.height.value);
  try {
    layouts = (await api(`/api/layouts?width=${width}&height=${height}`)).layouts;
  } catch {
    layouts = [{ name: "classic", board: classicGoal(width, height) }];
  }
  const wanted = state.layout;
  const entry = () => layouts.find((l) => layoutFamily(l.name) === layoutFamily(wanted));
  if (!entry() && state.goal.length === width * height) {
    layouts.push({ name: wanted, board: state.goal }); // a linked deal's own goal, e.g. random:7
  }
  el.layout.replaceChildren(
    ...layouts.map((l) => {
      const option = document.createElement("option");
      option.value = l.name;
      option.textContent = layoutName(l.name);
      return option;
    }),
  );
  el.layout.value = entry()?.name ?? "classic";
  drawBlankHome();
}

function fillSizes() {
  for (const select of [el.width, el.height, el.readWidth, el.readHeight]) {
    for (let n = MIN_SIDE; n <= MAX_SIDE; n += 1) select.append(new Option(String(n), String(n)));
  }
}

/** The settings selects show the game's own size, layout and difficulty. */
function syncSelects() {
  el.width.value = String(state.width);
  el.height.value = String(state.height);
  el.difficulty.value = state.difficulty;
  drawLengthControls();
  const family = layoutFamily(state.layout);
  const option = [...el.layout.options].find((o) => layoutFamily(o.value) === family);
  if (option) el.layout.value = option.value;
  drawBlankHome(family === BLANK_AT ? blankHomeOf(state.layout, state.width) : null);
}

async function onSettingChange(what) {
  if (what === "difficulty" && el.difficulty.value === "length") {
    // choosing "exact length" shows the band first; its Deal button starts the game
    drawLengthControls();
    el.lengthMin.focus({ preventScroll: true });
    setStatus("Choose the shortest solution's length, then Deal");
    return;
  }
  if (what === "layout") drawBlankHome(); // shown for a missing-piece goal, before the question
  const change = {
    size: `Start a new ${el.width.value}×${el.height.value} game`,
    layout: `Start a new game with the ${layoutTitle(el.layout.value)} goal`,
    blank: `Start a new game with the blank's home at row ${el.blankRow.value}, column ${el.blankColumn.value}`,
    difficulty: "Start a new game at this difficulty",
  }[what];
  if (!(await confirmNewDeal(change))) {
    syncSelects();
    if (what === "size") await loadLayouts();
    setStatus("Kept your game");
    return;
  }
  if (what === "difficulty") state.difficulty = el.difficulty.value;
  drawLengthControls();
  busy(+1);
  try {
    if (what === "size") await loadLayouts();
    state.difficulty = el.difficulty.value;
    await newGame();
  } finally {
    busy(-1);
  }
}

// -- how hard the deal is (/api/analyze) ------------------------------------------------------------------
let analyzing = null; // the deal id being analysed

/** The analysis of this deal's start, if known; on boards up to 16 cells it is asked for at once. */
function drawAnalysis() {
  const id = formatDealId(state);
  const known = state.analysis?.id === id ? state.analysis.answer : null;
  const small = state.width * state.height <= LENGTH_CELLS;
  el.analyze.hidden = small || known !== null;
  if (known) {
    el.analysis.textContent = analysisText(known);
  } else if (small) {
    analyzeDeal();
  } else {
    el.analysis.textContent = "";
  }
}

async function analyzeDeal() {
  const id = formatDealId(state);
  if (analyzing === id) return;
  analyzing = id;
  el.analyze.disabled = true;
  el.analysis.textContent = "Working out how hard this deal is…";
  try {
    const { width, height } = state;
    const answer = await api("/api/analyze", { board: state.start, width, height, goal: state.goal, blank: BLANK });
    if (formatDealId(state) !== id) return;
    state.analysis = { id, answer };
    el.analysis.textContent = analysisText(answer);
    el.analyze.hidden = true;
    saveSoon();
  } catch (error) {
    if (formatDealId(state) === id) el.analysis.textContent = `How hard it is: unknown (${error.message})`;
  } finally {
    if (analyzing === id) analyzing = null;
    el.analyze.disabled = false;
  }
}

function percentText(p) {
  if (p < 1) return "less than 1 %";
  if (p >= 99) return `${Math.min(99.99, Math.floor(p * 100) / 100)} %`;
  return `${Math.floor(p)} %`;
}

/** One line about the deal: "Shortest solution: 57 moves · harder than 76 % of 4×4 positions · hard". */
function analysisText(a) {
  const parts = [];
  if (a.optimal_length === 0) return "This deal starts solved.";
  if (a.optimal_length !== null && a.optimal_length !== undefined) {
    parts.push(`Shortest solution: ${plural(a.optimal_length, "move")}`);
    if (a.percentile !== null && a.percentile !== undefined) {
      parts.push(`harder than ${percentText(a.percentile)} of all ${state.width}×${state.height} positions`);
    }
  } else {
    const low = a.lower_bound ?? a.linear_conflict;
    parts.push(a.upper_bound ? `Shortest solution: ${low} to ${a.upper_bound} moves (proven bounds)` : `Shortest solution: at least ${low} moves`);
  }
  if (a.label) parts.push(a.label);
  return parts.join(" · ");
}

// -- a board from a screenshot of another game (/api/read) ----------------------------------------------
function setReadStatus(text, { uncertain = false } = {}) {
  el.readStatus.textContent = text;
  el.readStatus.classList.toggle("uncertain", uncertain);
}

// The request fields a refusal of /api/read names (npuzzle.web.app.field_words), as this card's controls.
const READ_FIELDS = [
  [/\bcrop \[x, y, w, h\]( \(pixels\))?|\bcrop\b/g, "“Board area”"],
  [/\ballow_ambiguous\b/g, "“Accept a best guess”"],
  [/\bhole_home\b/g, "“The hole belongs”"],
  [/(?<=\bwith |\()reference\b/g, "“Finished picture”"],
];

/**
 * The box of the hole's home for "another cell…": a row and a column menu as long as the size chosen (the
 * menus' own choice kept where it fits, as the goal's "Where the blank belongs"), or, with the size left to
 * be found, a cell number the server checks against the board it finds.
 */
function drawReadHoleHome() {
  el.readHoleHome.hidden = el.readHole.value !== "cell";
  const width = Number(el.readWidth.value);
  const height = Number(el.readHeight.value);
  const sized = Boolean(width && height);
  el.readHoleMenus.hidden = !sized;
  el.readHoleTyped.hidden = sized;
  el.readHoleNote.hidden = sized;
  if (!sized) return;
  for (const [select, n] of [[el.readHoleRow, height], [el.readHoleColumn, width]]) {
    const chosen = Number(select.value) || n; // the bottom right, the usual home, at first
    select.replaceChildren(...Array.from({ length: n }, (_, i) => new Option(String(i + 1), String(i + 1))));
    select.value = String(Math.min(chosen, n));
  }
}

/**
 * The cell (0-based) "another cell…" names: the row and column menus' for a size chosen, else typed
 * counting from 1 (NaN for an empty box; an Error for a number no board has).
 */
function readHoleCell(width) {
  if (!width) return parseCellNumber(el.readHoleCell.value);
  return (Number(el.readHoleRow.value) - 1) * width + Number(el.readHoleColumn.value) - 1;
}

const CARD_NAMED_CELLS = 3; // the card's status names this many cells to check, then counts (a few lines)

/**
 * The warning above the board for a reading accepted with cells read less surely (those the card outlines),
 * or null: "Read less surely: row 1, column 2; row 3, column 3 and 1 more." The cells are the board's as
 * read, that is as dealt and on the screenshot; two are named, then counted, so that the warning keeps to
 * one line on a desktop even on a 16x16 ("row 16, column 15"), two on a phone.
 */
function unsureNotice(reading) {
  const cells = unsureCells(reading);
  return cells.length ? `Read less surely: ${cellList(cells, reading.width)}.` : null;
}

/** The warning above the board for a best guess: the cells that could be read another way, named as above. */
function guessNotice(reading) {
  const cells = doubtfulCells(reading);
  if (cells.size === reading.tiles.length) return "Best guess: the whole board may be misread; check it.";
  return `Best guess: check ${cellList(cells, reading.width)}.`;
}

/**
 * A refusal in the words of this card (the cells it names by row and column from 1: from the refusal's data
 * where it carries them, see refusalFromData, else from its sentence, see refusalCells; the fields by the
 * card's controls); the options it names are opened.
 */
function readRefusal(error) {
  const refusal = error.body ?? {};
  const width = refusal.width || Number(el.readWidth.value) || null;
  let text = refusalFromData(refusal, width) ?? refusalCells(error.message, width);
  for (const [field, words] of READ_FIELDS) {
    if (field.test(text)) el.readOptions.open = true;
    field.lastIndex = 0;
    text = text.replace(field, words);
  }
  return text;
}

function chooseReadFile(kind, file) {
  if (!file) return;
  readFiles[kind] = file;
  if (kind === "shot") {
    el.readFileName.textContent = file.name || "pasted picture";
    el.readPreview.hidden = true;
    setReadStatus("Ready: press Read the board");
  } else {
    el.readReferenceName.textContent = `Finished picture: ${file.name || "pasted picture"}`;
  }
  el.readGo.disabled = reading || !readFiles.shot;
}

async function readScreenshot() {
  if (reading || !readFiles.shot) return;
  reading = true;
  el.readGo.disabled = true;
  el.readCard.setAttribute("aria-busy", "true");
  el.readPreview.hidden = true;
  setReadStatus("Reading the screenshot: finding the board and telling the tiles apart (seconds; longer for a picture without numbers)…");
  try {
    const width = Number(el.readWidth.value) || null;
    const height = Number(el.readHeight.value) || null;
    if ((width === null) !== (height === null)) throw new Error("give both the width and the height, or neither");
    const crop = parseCrop(el.readCrop.value);
    const hole = holeHome(el.readHole.value, width, height, el.readHole.value === "cell" ? readHoleCell(width) : NaN);
    const budget = sendBudget(readFiles.reference ? 2 : 1); // both pictures share one request body
    const shot = await prepareUpload(readFiles.shot, budget);
    const reference = readFiles.reference ? await prepareUpload(readFiles.reference, budget) : null;
    const guess = el.readGuess.checked;
    const answer = await api("/api/read", readRequest(shot, reference, { width, height, hole, crop, guess }));
    drawReading(el.readPreview, shot.image, answer);
    const unsure = unsureCells(answer);
    const doubtful = doubtfulCells(answer).size; // only a best guess (allow_ambiguous) has any
    const how =
      answer.kind === "numbers"
        ? "numbers read"
        : reference
          ? "pieces matched to your picture"
          : "picture put back together from its pieces";
    if (doubtful) {
      setReadStatus(
        `Best guess, uncertain: a ${answer.width}×${answer.height} board (${how}); ` +
          (doubtful === answer.tiles.length
            ? "the board as a whole could be read another way: check it against the screenshot."
            : `${plural(doubtful, "cell")} could be read another way ` +
              `(${cellList(doubtfulCells(answer), answer.width, CARD_NAMED_CELLS)}; dashed, marked ?): ` +
              "check them against the screenshot."),
        { uncertain: true },
      );
    } else {
      setReadStatus(
        `Read a ${answer.width}×${answer.height} board (${how})` +
          (unsure.length
            ? `; ${plural(unsure.length, "cell")} less sure, outlined (${cellList(unsure, answer.width, CARD_NAMED_CELLS)}): check them.`
            : "."),
      );
    }
    if (!(await confirmNewDeal("Play the board from the screenshot"))) {
      setStatus("Kept your game");
      return;
    }
    // the reader's own finished picture (its missing piece shown beside the board, or filled in from the
    // pieces round it) where it sends one; numbered tiles keep their cells as the screenshot shows them
    adoptDataUrl(reference ? reference.url : (answer.picture ?? assembledPicture(shot.image, answer)));
    state.picture = "own";
    state.mode = "picture";
    // a best guess, or cells read less surely, keep their warning above the board until another board is
    // dealt (moves replace the status)
    const notice = doubtful ? guessNotice(answer) : unsureNotice(answer);
    setDeal({ width: answer.width, height: answer.height, layout: layoutOf(answer), goal: answer.goal, tiles: answer.tiles, notice });
    if (narrow.matches) closePanel(); // the board it read, in full view, as soon as it is dealt
    // said as the board is dealt, not after the goal layouts' round trip: until then the status still
    // described the game before (a slow server showed "New game: your move" under a best guess)
    if (doubtful) {
      setStatus("Best guess from the screenshot (uncertain): check it");
      announce(`Playing a best guess of the ${answer.width} by ${answer.height} board: it may be wrong.`);
    } else {
      setStatus("The screenshot's board: Solve shows the way, Hint one move at a time");
      announce(`Playing the ${answer.width} by ${answer.height} board read from the screenshot.`);
    }
    await loadLayouts();
  } catch (error) {
    const message = error.status ? readRefusal(error) : error.message;
    setReadStatus(`Could not read it: ${message}`);
    announce(`Could not read the screenshot: ${message}`);
  } finally {
    reading = false;
    el.readGo.disabled = !readFiles.shot;
    el.readCard.removeAttribute("aria-busy");
  }
}

/** A new game with the band typed in the length boxes. */
async function dealLength() {
  let band;
  try {
    band = readBand();
  } catch (error) {
    setStatus(`Length: ${error.message}`);
    el.lengthNote.textContent = `Length: ${error.message}`;
    return;
  }
  const words = band.low === band.high ? `${band.low}` : `${band.low}–${band.high}`;
  if (!(await confirmNewDeal(`Start a new game of ${words} moves`))) {
    setStatus("Kept your game");
    return;
  }
  state.band = band;
  state.difficulty = "length";
  busy(+1);
  try {
    await newGame();
  } finally {
    busy(-1);
  }
}

function drawRecords() {
  const key = recordKey(state.width, state.height, state.layout);
  const s = summary(records(key));
  el.recordsKey.textContent = `· ${state.width}×${state.height} ${goalWords(state.layout, state.width)}`;
  const show = (v, f) => (v === null ? "—" : f(v));
  const rows = [
    ["Solves", String(s.count)],
    ["Best time", show(s.bestMs, formatTime)],
    ["Fewest moves", show(s.fewestMoves, String)],
    ["Average of 5", show(s.ao5, formatTime)],
    ["Average of 12", show(s.ao12, formatTime)],
  ];
  el.records.replaceChildren(
    ...rows.flatMap(([name, value]) => {
      const dt = document.createElement("dt");
      dt.textContent = name;
      const dd = document.createElement("dd");
      dd.textContent = value;
      return [dt, dd];
    }),
  );
}

function exportCsv() {
  const blob = new Blob([toCsv()], { type: "text/csv" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "npuzzle-records.csv";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// -- the settings drawer on narrow screens ----------------------------------------------------------------
function openPanel() {
  el.panel.classList.add("open");
  el.settingsToggle.setAttribute("aria-expanded", "true");
  el.panel.inert = false;
  el.width.focus({ preventScroll: true });
}

function closePanel() {
  el.panel.classList.remove("open");
  el.settingsToggle.setAttribute("aria-expanded", "false");
  el.panel.inert = narrow.matches;
  if (narrow.matches) el.settingsToggle.focus({ preventScroll: true });
}

function onNarrowChange() {
  el.panel.classList.remove("open");
  el.settingsToggle.setAttribute("aria-expanded", "false");
  el.panel.inert = narrow.matches;
}

function wire() {
  document.addEventListener("keydown", onKey);
  el.board.addEventListener("pointerdown", onPointerDown);
  el.board.addEventListener("pointerup", onPointerUp);
  el.board.addEventListener("pointercancel", () => {
    swipe = null;
  });
  el.undo.addEventListener("click", undo);
  el.redo.addEventListener("click", redo);
  el.hint.addEventListener("click", hint);
  el.solve.addEventListener("click", solve);
  el.restart.addEventListener("click", restartDeal);
  el.share.addEventListener("click", shareLink);
  el.newGame.addEventListener("click", newGame);
  el.pause.addEventListener("click", togglePause);
  el.stop.addEventListener("click", stopPlayback);
  el.speed.addEventListener("change", () => {
    state.speed = el.speed.value;
    if (playback) setPace();
    saveSoon();
  });
  el.winAgain.addEventListener("click", newGame);
  el.winReplay.addEventListener("click", replay);
  el.winRestart.addEventListener("click", restartDeal);
  el.winClose.addEventListener("click", closeWin);
  el.width.addEventListener("change", () => onSettingChange("size"));
  el.height.addEventListener("change", () => onSettingChange("size"));
  el.layout.addEventListener("change", () => onSettingChange("layout"));
  el.blankRow.addEventListener("change", () => onSettingChange("blank"));
  el.blankColumn.addEventListener("change", () => onSettingChange("blank"));
  el.difficulty.addEventListener("change", () => onSettingChange("difficulty"));
  for (const radio of [el.modeNumbers, el.modePicture]) {
    radio.addEventListener("change", () => {
      state.mode = el.modePicture.checked ? "picture" : "numbers";
      applyLook();
      save();
      announce(state.mode === "picture" ? "Picture mode" : "Number mode");
    });
  }
  el.showNumbers.addEventListener("change", () => {
    state.showNumbers = el.showNumbers.checked;
    applyLook();
    save();
  });
  el.pictureFile.addEventListener("change", async () => {
    const file = el.pictureFile.files?.[0];
    if (!file) return;
    try {
      await adoptFile(file);
      state.picture = "own";
      state.mode = "picture";
      await applyLook();
      save();
      announce("Your picture is on the tiles");
    } catch (error) {
      setStatus(error.message);
    }
  });
  el.pictureReset.addEventListener("click", () => {
    forgetPicture();
    state.picture = "builtin";
    applyLook();
    save();
  });
  el.lengthDeal.addEventListener("click", dealLength);
  for (const box of [el.lengthMin, el.lengthMax]) {
    box.addEventListener("keydown", (event) => {
      if (event.key === "Enter") dealLength();
    });
  }
  el.analyze.addEventListener("click", analyzeDeal);
  el.readFile.addEventListener("change", () => chooseReadFile("shot", el.readFile.files?.[0]));
  el.readReference.addEventListener("change", () => chooseReadFile("reference", el.readReference.files?.[0]));
  el.readGo.addEventListener("click", readScreenshot);
  for (const select of [el.readHole, el.readWidth, el.readHeight]) select.addEventListener("change", drawReadHoleHome);
  el.readDrop.addEventListener("dragover", (event) => {
    event.preventDefault();
    el.readDrop.classList.add("over");
  });
  el.readDrop.addEventListener("dragleave", () => el.readDrop.classList.remove("over"));
  el.readDrop.addEventListener("drop", (event) => {
    event.preventDefault();
    el.readDrop.classList.remove("over");
    chooseReadFile("shot", event.dataTransfer?.files?.[0]);
  });
  document.addEventListener("paste", (event) => {
    // a screenshot pasted anywhere but a text box goes to "From a screenshot"
    if (event.target instanceof HTMLInputElement) return;
    const file = [...(event.clipboardData?.files ?? [])].find((f) => f.type.startsWith("image/"));
    if (!file) return;
    chooseReadFile("shot", file);
    if (narrow.matches) openPanel();
    el.readGo.focus({ preventScroll: true });
  });
  el.gameIdLoad.addEventListener("click", () => playDealId(el.gameId.value));
  el.gameId.addEventListener("keydown", (event) => {
    if (event.key === "Enter") playDealId(el.gameId.value);
  });
  el.copyLink.addEventListener("click", shareLink);
  el.exportCsv.addEventListener("click", exportCsv);
  el.settingsToggle.addEventListener("click", () => {
    if (el.panel.classList.contains("open")) closePanel();
    else openPanel();
  });
  el.panelClose.addEventListener("click", closePanel);
  narrow.addEventListener("change", onNarrowChange);
  window.addEventListener("hashchange", () => {
    // a pasted link; not the skip link's #board
    if (/^#\d+x\d+:/.test(location.hash)) playDealId(location.hash.slice(1));
  });
  window.addEventListener("pagehide", save);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) save();
  });
}

async function start() {
  fillSizes();
  drawReadHoleHome();
  wire();
  onNarrowChange();
  const saved = load();
  state = saved ?? freshState(4, 4);
  el.speed.value = state.speed;
  syncSelects();
  await loadLayouts();
  const linked = /^#\d+x\d+:/.test(location.hash) ? location.hash.slice(1) : null;
  if (linked) {
    let same = false;
    try {
      const deal = parseDealId(linked);
      same = saved !== null && formatDealId(saved) === formatDealId({ ...deal, start: deal.tiles });
    } catch {
      /* playDealId says what is wrong with it */
    }
    // another deal than the saved game's: play it, the saved game one Undo away
    if (!same && (await playDealId(linked, { ask: false }))) return;
  }
  if (!saved) {
    await newGame();
    return;
  }
  buildBoard();
  draw();
  drawRecords();
  drawAnalysis();
  if (isSolved(state.tiles, state.goal)) {
    setStatus("Solved · press New game");
  } else {
    setStatus(state.history.length ? "Welcome back: the clock restarts with your next move" : "Your move");
  }
  announce("Game restored.");
}

start();

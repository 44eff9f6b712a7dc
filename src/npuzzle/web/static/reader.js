// Reading the sliding puzzle on a screenshot of another game (POST /api/read), and showing what was read:
// the tiles cut from the screenshot where the server found them, each marked with the piece it was read as.

// the largest /api/read request body this server takes and the largest side it plays, served from its
// settings (not copied here)
import { MAX_SIDE, MAX_UPLOAD_BYTES } from "./limits.js";

const SEND_FORMATS = new Set(["image/png", "image/jpeg", "image/webp", "image/gif", "image/bmp"]);
const MAX_SIDE_PX = 3000; // a bigger screenshot is scaled down before it is sent (JPEG, quality .92)
const MIN_SEND_PX = 64; // a screenshot that fits the upload cap only when smaller than this is refused here
const BODY_SPARE = 4096; // bytes of a /api/read body besides its data URLs: field names, size, crop, quotes
export const UNSURE = 0.6; // a cell read with less confidence than this is outlined

/**
 * The longest data URL each of `images` pictures may be (1: the screenshot; 2: with the finished picture)
 * for the request body to stay within the server's upload cap. A data URL is ASCII: one byte a character.
 */
export function sendBudget(images, cap = MAX_UPLOAD_BYTES) {
  return Math.floor((cap - BODY_SPARE) / images);
}

function loadImage(src) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("that file is not a picture the browser can open"));
    img.src = src;
  });
}

function fileAsDataUrl(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error("could not read the file"));
    reader.readAsDataURL(file);
  });
}

/**
 * The file as a data URL the server accepts, at most `budget` characters (see sendBudget): as it is when it
 * fits and is in a format the server decodes, else redrawn as a JPEG, scaled down to MAX_SIDE_PX and then
 * further until it fits. Returns {url, image, scale}: the image the server reads (the cells it reports are
 * cut from it) and its pixels per pixel of the file.
 */
export async function prepareUpload(file, budget = sendBudget(1)) {
  if (!file.type.startsWith("image/") && file.type !== "") throw new Error(`${file.name} is not an image`);
  const original = await fileAsDataUrl(file);
  const image = await loadImage(original);
  const side = Math.max(image.naturalWidth, image.naturalHeight);
  if (SEND_FORMATS.has(file.type) && original.length <= budget && side <= MAX_SIDE_PX) {
    return { url: original, image, scale: 1 };
  }
  const canvas = document.createElement("canvas");
  let scale = Math.min(1, MAX_SIDE_PX / side);
  for (;;) {
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    const url = canvas.toDataURL("image/jpeg", 0.92);
    if (url.length <= budget) return { url, image: await loadImage(url), scale: canvas.width / image.naturalWidth };
    // the JPEG's size goes about with its area: aim a little under the budget
    scale *= Math.min(0.9, 0.95 * Math.sqrt(budget / url.length));
    if (side * scale < MIN_SEND_PX) {
      throw new Error(`${file.name || "the picture"} does not fit this server's upload cap (${MAX_UPLOAD_BYTES.toLocaleString("en")} bytes) even scaled down`);
    }
  }
}

/**
 * The board area typed as "x, y, width, height" (pixels of the screenshot): four whole numbers, or null for
 * an empty box. Throws an Error quoting the text otherwise.
 */
export function parseCrop(text) {
  const typed = String(text).trim();
  if (!typed) return null;
  const parts = typed.split(/[\s,;x×]+/).filter(Boolean);
  const numbers = parts.map(Number);
  if (parts.length !== 4 || !numbers.every((n) => Number.isInteger(n) && n >= 0) || !numbers[2] || !numbers[3]) {
    throw new Error(
      `the board area is four whole numbers, x, y, width, height in the screenshot's pixels (like 40, 120, 600, 600), not '${typed.slice(0, 40)}'`,
    );
  }
  return numbers;
}

/**
 * The cell (0-based) of a cell number typed counting from 1 (1 the top left, then along each row), NaN for
 * an empty box. Throws an Error quoting the text for anything but a whole number from 1 to the cells of the
 * largest board played (MAX_SIDE²); the server checks it against the board it finds.
 */
export function parseCellNumber(text) {
  const typed = String(text).trim();
  if (!typed) return NaN;
  const number = Number(typed);
  const most = MAX_SIDE * MAX_SIDE;
  if (!Number.isInteger(number) || number < 1) {
    throw new Error(`the cell where the missing piece belongs is a whole number from 1 (the top left), not '${typed.slice(0, 20)}'`);
  }
  if (number > most) {
    throw new Error(`the cell where the missing piece belongs is at most ${most} (the last of a ${MAX_SIDE}×${MAX_SIDE} board), not ${typed.slice(0, 20)}`);
  }
  return number - 1;
}

/**
 * The cell (0-based) where the missing piece belongs for the corner chosen ("" for the usual bottom right:
 * null, the reader's default), or `cell` for "cell" (another cell, 0-based: the row and column menus' or
 * typed, see parseCellNumber; the server checks it is on the board). The top right and bottom left need the
 * board's size.
 */
export function holeHome(corner, width, height, cell = NaN) {
  if (!corner) return null;
  if (corner === "cell") {
    if (!Number.isFinite(cell)) throw new Error("type the number of the cell where the missing piece belongs");
    return cell;
  }
  if (corner === "top-left") return 0;
  if (!width || !height) throw new Error(`give the width and the height to put the hole's home ${corner.replace("-", " ")}`);
  return corner === "top-right" ? width - 1 : (height - 1) * width;
}

/**
 * The request body of /api/read. `crop` is in the file's pixels; the server gets it in those of the image
 * sent (a big screenshot is scaled down first).
 */
export function readRequest(shot, reference, { width, height, hole = null, crop = null, guess = false }) {
  const body = { screenshot: shot.url };
  if (reference) body.reference = reference.url;
  if (width && height) Object.assign(body, { width, height });
  if (hole !== null) body.hole_home = hole;
  if (crop) body.crop = crop.map((v, i) => Math.max(i < 2 ? 0 : 1, Math.round(v * shot.scale)));
  if (guess) body.allow_ambiguous = true;
  return body;
}

/** The cells of a best guess that could be read another way (the reader's `ambiguous` groups). */
export function doubtfulCells(reading) {
  return new Set((reading.ambiguous ?? []).flat());
}

/** The cells (0-based, in reading order) a reading is less sure of: confidence under UNSURE, outlined. */
export function unsureCells(reading) {
  return reading.confidence.flatMap((c, cell) => (c < UNSURE ? [cell] : []));
}

/** A cell as the page names it, counting from 1: "row 2, column 3". */
export function cellWords(cell, width) {
  return `row ${Math.floor(cell / width) + 1}, column ${(cell % width) + 1}`;
}

/** A cell named as cellWords does, no line breaking inside "column 2" (only after a cell's row). */
function unbrokenCell(cell, width) {
  return cellWords(cell, width).replace(/ (\d)/g, "\u00a0$1");
}

/**
 * `cells` (0-based) named in reading order, the first `named` by row and column and the others counted:
 * "row 1, column 2; row 3, column 3 and 4 more". A line breaks after a cell's row, never in "column 2".
 */
export function cellList(cells, width, named = 2) {
  const sorted = [...cells].sort((a, b) => a - b);
  const words = sorted.slice(0, named).map((cell) => unbrokenCell(cell, width)).join("; ");
  return sorted.length > named ? `${words} and ${sorted.length - named} more` : words;
}

// A refusal of look-alike tiles names at most this many groups and cells in all (a few lines on a phone),
// then counts the other groups; a group of more than REFUSAL_GROUP_CELLS cells is named by its first few.
const REFUSAL_GROUPS = 3;
const REFUSAL_CELLS_NAMED = 8;
const REFUSAL_GROUP_CELLS = 4;

/**
 * The words of a refusal of /api/read that carries its cells as data (npuzzle.web.app.refusal_cells:
 * `groups` of cells, 0-based and row-major, on a board `width` across; the reader's tiles too alike), or
 * null for one that carries none (refusalCells puts its sentence in the card's counting). Made from the
 * data alone, never from `detail`: the server cuts that sentence short (three groups took it past its
 * 300 characters, and the card lost cells), and its wording is the reader's to change. Cells are named by
 * row and column from 1 (by number from 1 when no width is known), the fields as the API's (the card puts
 * them as its controls).
 */
export function refusalFromData(refusal, width = null) {
  const groups = Array.isArray(refusal?.groups) ? refusal.groups.filter((g) => Array.isArray(g) && g.length) : [];
  if (!groups.length) return null;
  const across = refusal.width || width;
  const name = (cell) => (across ? unbrokenCell(cell, across) : `cell\u00a0${cell + 1}`);
  const cells = across && refusal.height ? across * refusal.height : null;
  if (cells && groups.some((group) => group.length >= cells)) {
    return (
      "tiles look too alike to tell apart: the board as a whole could be read another way (a dark, plain or " +
      "repetitive picture, a blurred or small screenshot, or a board found wrong: check the size and the crop); " +
      "use a sharper or larger screenshot, give the original picture (reference), or accept the best guess " +
      "(allow_ambiguous)"
    );
  }
  const counted = (n, what) => `${n} more ${n === 1 ? what : `${what}s`}`;
  if (groups.every((group) => group.length === 1)) {
    // the reader's own doubt of a number it read (OCR): a cell, not a pair that could be swapped
    const named = groups.slice(0, REFUSAL_GROUP_CELLS).map(([cell]) => name(cell));
    const more = groups.length > named.length ? ` and ${counted(groups.length - named.length, "cell")}` : "";
    return (
      `${named.join("; ")}${more} ${groups.length === 1 ? "was" : "were"} not read surely; use a sharper or larger ` +
      "screenshot, or accept the best guess (allow_ambiguous)"
    );
  }
  const words = [];
  let budget = REFUSAL_CELLS_NAMED;
  for (const group of groups.slice(0, REFUSAL_GROUPS)) {
    const shown = group.length > REFUSAL_GROUP_CELLS ? REFUSAL_GROUP_CELLS - 1 : group.length;
    if (words.length && shown > budget) break;
    budget -= shown;
    const named = group.slice(0, shown).map(name).join(" with ");
    words.push(shown < group.length ? `${named} and ${counted(group.length - shown, "cell")}` : named);
  }
  // "; and 2 more groups": after a group counted by its cells ("... and 13 more cells"), not one of them
  const more = groups.length > words.length ? `; and ${counted(groups.length - words.length, "group")}` : "";
  return (
    `tiles look too alike to tell apart: ${words.join("; ")}${more}; use a sharper screenshot or give the original ` +
    "picture (reference), or accept the best guess (allow_ambiguous)"
  );
}

// A refusal of /api/read names cells 0-based (the API's counting, as hole_home's): the card names them as its
// preview does, by row and column from 1 (see refusalCells for the board's width); each rule is a sentence
// of npuzzle.render.vision or npuzzle.web.app, its flags already put as request fields (app.field_words).
// Only for refusals that carry no cells as data: tiles too alike carry theirs (refusalFromData).
const NUMBERS = /\d+(?:, \d+)*/; // a Python list's items: "3, 7"
const REFUSAL_CELLS = [
  // a list of cells cut short where the server shortened a long sentence (guard.shorten: "… (57 characters
  // cut) …")
  [/\bcells \[[\d, ]*(?= … \()/g, () => "cells"],
  // a typed hole_home off the board: the number as typed, from 1 (a row and column off the board mean nothing)
  [
    /\bhole[ _]home (\d+) is outside an? (\d+x\d+) board \((?:cells )?0\.\.(\d+)\)/g,
    (name, cell, size, last) => `hole_home: cell ${Number(cell) + 1} is outside a ${size} board (cells 1..${Number(last) + 1})`,
  ],
  // numbers not read (vision._read_numbers): "cells [2, 5] not read surely (2 as 3/8, 5 as 6)"
  [
    new RegExp(String.raw`\bcells \[(${NUMBERS.source})\] not read surely(?: \(([^()]*)\))?`, "g"),
    (name, cells, seen) => {
      const read = new Map((seen ?? "").split(", ").map((one) => one.split(" as ")));
      const words = list(cells).map((cell) => {
        const seenAs = read.get(String(cell));
        return seenAs ? `${name(cell)} (read as ${seenAs.split("/").join(" or ")})` : name(cell);
      });
      return `${words.join(" and ")} not read surely`;
    },
  ],
  [new RegExp(String.raw`\bread on cells \[(${NUMBERS.source})\]`, "g"), (name, cells) => `read on ${list(cells).map(name).join(" and on ")}`],
  [new RegExp(String.raw`\b(\d+) empty cells \[(${NUMBERS.source})\]`, "g"), (name, n, cells) => `${n} empty cells (${list(cells).map(name).join("; ")})`],
  // a corner the seams prefer (vision's advice): the card's menu, not a cell number
  [
    /\bgive hole_home \d+ if the missing piece belongs at the (top|bottom)-(left|right)\b/g,
    (name, row, column) => `set hole_home to ${row} ${column} if the missing piece belongs at the ${row}-${column}`,
  ],
  [new RegExp(String.raw`\bnumbers \[(${NUMBERS.source})\]`, "g"), (name, numbers) => `numbers ${numbers}`],
  [/\bthe hole could be cell (\d+) or (\d+)/g, (name, a, b) => `the hole could be at ${name(Number(a))} or at ${name(Number(b))}`],
  // one cell: "the hole in cell 4", "(cell 3)", "at cell 15", "(the missing piece in cell 8)"
  [/(\b(?:in|at) |\()cell (\d+)\b/g, (name, before, cell) => `${before}${name(Number(cell))}`],
  // the counting the sentence warned of is the card's own now
  [/;? cells 0-based\b| \(cells 0-based\)/g, () => ""],
];

function list(items) {
  return items.split(", ").map(Number);
}

/**
 * A refusal of /api/read with the cells it names as the card names them: by row and column from 1 on a
 * board of known width (`width`: the refusal's own, or the size chosen in the card: the reader read that
 * size; else the first "WxH" the sentence names, the grid it is about), else by cell number from 1, as the
 * card's typed "Cell number, from 1"; a hole_home off the board keeps the number typed, from 1.
 */
export function refusalCells(message, width = null) {
  const size = /\b(\d+)x\d+\b/.exec(message);
  const across = width || (size ? Number(size[1]) : null);
  const name = (cell) => (across ? cellWords(cell, across) : `cell ${cell + 1}`);
  let text = message;
  for (const [pattern, words] of REFUSAL_CELLS) text = text.replace(pattern, (...match) => words(name, ...match.slice(1)));
  return text;
}

/** The game layout name of a reading's goal (classic, blank-first, or blank-at:MISSING). */
export function layoutOf(reading) {
  const n = reading.width * reading.height;
  const { goal } = reading;
  if (goal.every((label, cell) => label === (cell === n - 1 ? 0 : cell + 1))) return "classic";
  if (goal.every((label, cell) => label === cell)) return "blank-first";
  return `blank-at:${reading.missing}`;
}

function cellBox(reading, cell, image) {
  if (reading.cells) return reading.cells[cell];
  const w = image.naturalWidth / reading.width;
  const h = image.naturalHeight / reading.height;
  const r = Math.floor(cell / reading.width);
  const c = cell % reading.width;
  return [c * w, r * h, (c + 1) * w, (r + 1) * h];
}

/**
 * The picture the tiles make when each is put in its home cell (the missing piece's cell stays dark): the
 * game then shows the player's own tiles. A data URL, `side` px per cell at most.
 */
export function assembledPicture(image, reading, side = 120) {
  const { width, height, tiles, goal } = reading;
  const first = cellBox(reading, 0, image);
  // square cells: the game crops a picture to the board's own proportions
  const px = Math.max(8, Math.min(side, Math.round(Math.min(first[2] - first[0], first[3] - first[1]))));
  const py = px;
  const canvas = document.createElement("canvas");
  canvas.width = px * width;
  canvas.height = py * height;
  const g = canvas.getContext("2d");
  g.fillStyle = "#1c2040";
  g.fillRect(0, 0, canvas.width, canvas.height);
  tiles.forEach((label, cell) => {
    if (label === 0) return;
    const home = goal.indexOf(label);
    const [x0, y0, x1, y1] = cellBox(reading, cell, image);
    g.drawImage(image, x0, y0, x1 - x0, y1 - y0, (home % width) * px, Math.floor(home / width) * py, px, py);
  });
  return canvas.toDataURL("image/jpeg", 0.9);
}

const PREVIEW_PX = 260; // the widest the board read is drawn in the card (the style sheet's max-width)
const PREVIEW_PX_TALL = 400; // ... and the tallest
const DENSE_CELL_PX = 30; // cells narrower than this get smaller badges (from 9 across)
const TIGHT_CELL_PX = 21; // ... and narrower than this, badges only where a cell is to be checked (13 across)

/** Fill `container` with the board as read: the screenshot's cells, each with the piece it was read as. */
export function drawReading(container, image, reading) {
  const { width, height, tiles, confidence } = reading;
  container.style.gridTemplateColumns = `repeat(${width}, 1fr)`;
  container.style.aspectRatio = `${width} / ${height}`;
  // a tall board is drawn narrower, not taller than PREVIEW_PX_TALL; small cells get small badges (dense),
  // and the smallest only where a cell is to be checked (tight: a label of 2-3 digits is wider than them)
  const across = Math.min(PREVIEW_PX, (PREVIEW_PX_TALL * width) / height);
  container.style.maxWidth = `${Math.round(across)}px`;
  const cellPx = across / width;
  if (cellPx < TIGHT_CELL_PX) container.dataset.density = "tight";
  else if (cellPx < DENSE_CELL_PX) container.dataset.density = "dense";
  else delete container.dataset.density;
  container.setAttribute("role", "img");
  const unsure = unsureCells(reading).length;
  const doubtful = doubtfulCells(reading);
  container.dataset.uncertain = String(doubtful.size > 0);
  container.setAttribute(
    "aria-label",
    (doubtful.size ? "A best guess, uncertain: the " : "The ") +
      `${width} by ${height} board read from the screenshot: ${tiles.join(", ")} (0 is the hole)` +
      (doubtful.size ? `; ${[...doubtful].map((cell) => cellWords(cell, width)).join("; ")} could be read another way` : "") +
      (unsure ? `; ${unsure} cells read with low confidence` : ""),
  );
  const cells = tiles.map((label, cell) => {
    const box = cellBox(reading, cell, image);
    const canvas = document.createElement("canvas");
    const side = 64;
    canvas.width = side;
    canvas.height = Math.max(8, Math.round((side * (box[3] - box[1])) / Math.max(1, box[2] - box[0])));
    canvas.getContext("2d").drawImage(image, box[0], box[1], box[2] - box[0], box[3] - box[1], 0, 0, canvas.width, canvas.height);
    const wrap = document.createElement("span");
    wrap.className = "read-cell";
    wrap.dataset.label = String(label);
    if (label === 0) wrap.classList.add("hole");
    if (confidence[cell] < UNSURE) wrap.classList.add("unsure");
    if (doubtful.has(cell)) wrap.classList.add("doubtful");
    const badge = document.createElement("span");
    badge.className = "read-badge";
    badge.textContent = (label === 0 ? "hole" : String(label)) + (doubtful.has(cell) ? "?" : "");
    wrap.title =
      `${cellWords(cell, width)}: ${label === 0 ? "the hole" : `piece ${label}`} (confidence ${Math.round(confidence[cell] * 100)} %` +
      (doubtful.has(cell) ? "; a guess: it could be another piece of its group)" : ")");
    wrap.append(canvas, badge);
    return wrap;
  });
  container.replaceChildren(...cells);
  container.hidden = false;
}

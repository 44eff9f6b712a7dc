// Game ids: a deal (size, start position, goal) as text, so a link restarts the same board.
// The id is Simon Tatham's Fifteen game id, `4x4:8,1,2,…,0` (row-major labels, 0 the blank), followed by
// `&goal=NAME` when the goal layout is not classic; links carry it after `#`.

import { MAX_SIDE, MIN_SIDE } from "./limits.js"; // the server's own sizes (npuzzle.web.app.limits_js)

/** The id of the deal `s` ({width, height, start, layout}). */
export function formatDealId(s) {
  const id = `${s.width}x${s.height}:${s.start.join(",")}`;
  return s.layout && s.layout !== "classic" ? `${id}&goal=${s.layout}` : id;
}

/**
 * {width, height, tiles, layout} from an id or a link holding one (anything up to `#` is dropped).
 * Throws an Error saying what is wrong with the text.
 */
export function parseDealId(text) {
  let id = String(text).trim();
  if (id.includes("#")) id = id.slice(id.indexOf("#") + 1);
  try {
    id = decodeURIComponent(id);
  } catch {
    throw new Error(`'${id.slice(0, 40)}' is not a game id`);
  }
  const [head, ...params] = id.split("&");
  const match = /^(\d+)x(\d+):([\d,\s]+)$/.exec(head.trim());
  if (!match) throw new Error(`'${head.slice(0, 40)}' is not WxH:labels`);
  const width = Number(match[1]);
  const height = Number(match[2]);
  for (const side of [width, height]) {
    if (side < MIN_SIDE || side > MAX_SIDE) throw new Error(`sides run ${MIN_SIDE} to ${MAX_SIDE}, not ${side}`);
  }
  const tiles = match[3].split(",").map((t) => Number(t.trim()));
  if (tiles.length !== width * height) {
    throw new Error(`a ${width}x${height} board has ${width * height} labels, the id has ${tiles.length}`);
  }
  const seen = new Set();
  for (const t of tiles) {
    if (!Number.isInteger(t) || seen.has(t)) throw new Error(`label ${t} appears twice`);
    seen.add(t);
  }
  if (!seen.has(0)) throw new Error("the id has no blank (0)");
  let layout = "classic";
  for (const param of params) {
    const [key, value] = param.split("=");
    if (key === "goal" && value) layout = value;
  }
  return { width, height, tiles, layout };
}

/** How good an answer of `n` moves is: "optimal", or "at most n, at least L" when a bound is known. */
export function qualityText(n, optimal, lowerBound) {
  if (optimal) return "optimal";
  if (Number.isInteger(lowerBound) && lowerBound > 0) return `at most ${n}, at least ${lowerBound}`;
  return `at most ${n}, not proven optimal`;
}

// Pictures for picture mode: the built-in landscape or the player's own image, cropped to the board's
// shape (centre crop, like CSS object-fit: cover) and cached per aspect ratio.

export const BUILT_IN = "picture.svg";
const STORE_KEY = "npuzzle.picture.v1";
const MAX_STORED_SIDE = 1024; // px: keeps a stored JPEG well under localStorage's ~5 MB
const CROP_SIDE = 900; // px: longest side of a cropped picture

const cache = new Map();
let unstored = null; // an adopted picture too big for localStorage: kept for this page's life

function loadImage(src) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("could not load the picture"));
    img.src = src;
  });
}

/** The stored own picture (a data URL) or null. */
export function storedPicture() {
  try {
    return localStorage.getItem(STORE_KEY) ?? unstored;
  } catch {
    return unstored;
  }
}

/** Use a picture given as a data URL (e.g. a board read from a screenshot) as the own picture. */
export function adoptDataUrl(data) {
  unstored = null;
  try {
    localStorage.setItem(STORE_KEY, data);
  } catch {
    unstored = data;
  }
  cache.clear();
  return data;
}

export function forgetPicture() {
  unstored = null;
  try {
    localStorage.removeItem(STORE_KEY);
  } catch {
    /* nothing stored */
  }
  cache.clear();
}

/** Read a File chosen by the player, shrink it, keep it in localStorage; returns its data URL. */
export async function adoptFile(file) {
  const url = URL.createObjectURL(file);
  try {
    const img = await loadImage(url);
    const scale = Math.min(1, MAX_STORED_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
    canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
    return adoptDataUrl(canvas.toDataURL("image/jpeg", 0.88));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A data URL of `source` cropped to width:height proportions (cached). */
export async function croppedPicture(source, width, height) {
  const key = `${source.length}:${source.slice(-64)}:${width}x${height}`;
  if (cache.has(key)) return cache.get(key);
  const promise = (async () => {
    const img = await loadImage(source);
    const iw = img.naturalWidth || 1200;
    const ih = img.naturalHeight || 1200;
    const aspect = width / height;
    let sw = iw;
    let sh = iw / aspect;
    if (sh > ih) {
      sh = ih;
      sw = ih * aspect;
    }
    const canvas = document.createElement("canvas");
    canvas.width = aspect >= 1 ? CROP_SIDE : Math.round(CROP_SIDE * aspect);
    canvas.height = aspect >= 1 ? Math.round(CROP_SIDE / aspect) : CROP_SIDE;
    canvas.getContext("2d").drawImage(img, (iw - sw) / 2, (ih - sh) / 2, sw, sh, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/jpeg", 0.9);
  })();
  cache.set(key, promise);
  promise.catch(() => cache.delete(key));
  return promise;
}

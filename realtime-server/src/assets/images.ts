// Decoding and re-encoding uploaded images with sharp (libvips). The type comes from the bytes,
// never from what the client declared; re-encoding drops every metadata block (EXIF with its GPS
// position, XMP, comments) because sharp writes none unless asked.
// sharp (and libvips with it) is imported on the first image, not when the server starts.
import { availableParallelism } from 'node:os';
import type { AssetMime } from '@tandem/shared';
import type Sharp from 'sharp';
import type { Rendition } from './store.ts';

let sharpModule: Promise<typeof Sharp> | null = null;
/** sharp, imported on first use: libvips and its threads cost about 28 MB of RSS once loaded. */
export const loadSharp = (): Promise<typeof Sharp> => {
  sharpModule ??= import('sharp').then((m) => {
    const sharp = m.default;
    // Decodes run one at a time (below); each gets half the cores, so the event loop and password
    // hashing keep the rest even while a 50-megapixel image is being decoded.
    sharp.concurrency(Math.max(1, Math.floor(availableParallelism() / 2)));
    // libvips' operation cache (up to 50 MB) never hits here: every upload is a new file and a
    // rendition is kept once made.
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
};

/** Runs at most `size` jobs at once; the others wait their turn, first come first served. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active < this.size) this.active += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

/**
 * Image work runs one job at a time per process. sharp runs each job on one of libuv's four
 * threads, the ones password hashing (scrypt) and file reads also need: four 49-megapixel uploads
 * at once held all four for seconds (a login took 1.6-3.7 s here, 5-10 s in the issue) and peaked
 * at 1.5-1.7 GB of RSS. One at a time leaves three threads free and bounds memory to one decode
 * (docs/operations.md has the measurements, UV_THREADPOOL_SIZE raised instead among them). Each
 * user has at most MAX_UPLOADS_PER_USER uploads running (http/assets.ts), so one user cannot fill
 * the queue.
 */
const DECODES_AT_ONCE = 1;
const decodes = new Gate(DECODES_AT_ONCE);

/** Runs a sharp job in its turn. */
export const decoding = <T>(job: () => Promise<T>): Promise<T> => decodes.run(job);

const accepted: Record<string, AssetMime> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** 50 megapixels: a large photo fits; a decompression bomb does not get decoded. */
const MAX_PIXELS = 50_000_000;

export type Processed =
  | { ok: true; mime: AssetMime; width: number; height: number; data: Buffer }
  | { ok: false; reason: 'unsupported' };

/** Reads an uploaded file and answers the bytes to store, or why it cannot be stored. */
export function processUpload(path: string): Promise<Processed> {
  return decoding(() => decodeUpload(path));
}

async function decodeUpload(path: string): Promise<Processed> {
  const sharp = await loadSharp();
  let format: string | undefined;
  try {
    format = (await sharp(path, { limitInputPixels: MAX_PIXELS }).metadata()).format;
  } catch {
    return { ok: false, reason: 'unsupported' };
  }
  const mime = format ? accepted[format] : undefined;
  if (!mime) return { ok: false, reason: 'unsupported' };
  const animated = mime === 'image/gif' || mime === 'image/webp';
  let image = sharp(path, { limitInputPixels: MAX_PIXELS, animated });
  try {
    if (mime === 'image/jpeg') {
      // The EXIF orientation is about to be dropped with the rest of EXIF: apply it to the pixels.
      // Optimised Huffman coding buffers the whole image's coefficients: it doubled the peak memory
      // of a 49-megapixel JPEG (530 MB against 250 MB) to save a few per cent of its bytes.
      image = image.rotate().jpeg({ quality: 90, optimiseCoding: false });
    } else if (mime === 'image/png') image = image.png();
    else if (mime === 'image/gif') image = image.gif();
    else image = image.webp({ quality: 90 });
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    // For an animation, info.height covers every frame stacked; one frame is pageHeight.
    const height = info.pageHeight ?? info.height;
    return { ok: true, mime, width: info.width, height, data };
  } catch {
    // A header that parses but pixels that do not (a truncated or crafted file).
    return { ok: false, reason: 'unsupported' };
  }
}

/** A smaller still rendition (the first frame of an animation), WebP. */
export function makeRendition(data: Uint8Array, width: number): Promise<Rendition> {
  return decoding(async () => {
    const sharp = await loadSharp();
    const out = await sharp(data, { limitInputPixels: MAX_PIXELS })
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return { mime: 'image/webp', data: out };
  });
}

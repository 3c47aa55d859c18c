// Decoding and re-encoding uploaded images with sharp (libvips). The type comes from the bytes,
// never from what the client declared; re-encoding drops every metadata block (EXIF with its GPS
// position, XMP, comments) because sharp writes none unless asked.
// sharp (and libvips with it) is imported on the first image, not when the server starts.
import type { AssetMime } from '@tandem/shared';
import type Sharp from 'sharp';
import type { Rendition } from './store.ts';

let sharpModule: Promise<typeof Sharp> | null = null;
/** sharp, imported on first use: libvips and its threads cost about 28 MB of RSS once loaded. */
export const loadSharp = (): Promise<typeof Sharp> => {
  sharpModule ??= import('sharp').then((m) => m.default);
  return sharpModule;
};

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
export async function processUpload(path: string): Promise<Processed> {
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
      image = image.rotate().jpeg({ quality: 90 });
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
export async function makeRendition(data: Uint8Array, width: number): Promise<Rendition> {
  const sharp = await loadSharp();
  const out = await sharp(data, { limitInputPixels: MAX_PIXELS })
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
  return { mime: 'image/webp', data: out };
}

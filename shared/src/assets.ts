// Board images (docs/api.md §13): what an upload answers, which types are accepted, and the widths the
// server keeps smaller renditions at. Both sides import these so a number is written once.
import { MiB } from './limits.ts';
import { apiPaths } from './paths.ts';

/** The only image types Tandem stores; the server decides the type from the bytes. */
export const assetMimes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type AssetMime = (typeof assetMimes)[number];

export interface Asset {
  /** SHA-256 of the stored bytes, hex: the same image is stored once per board. */
  id: string;
  url: string;
  mime: AssetMime;
  width: number;
  height: number;
  bytes: number;
}
export interface AssetAnswer {
  asset: Asset;
}

export const assetIdPattern = /^[0-9a-f]{64}$/;
export const isAssetId = (value: string): boolean => assetIdPattern.test(value);

export const assetUrl = (boardId: string, assetId: string): string => apiPaths.asset(boardId, assetId);

/**
 * Where a browser loads an image: at rendition `width` (`?w=`; null for the original), and with an
 * access token (`?token=`) where no member's session cookie goes with it (a public view, §16).
 */
export function assetHref(boardId: string, assetId: string, width: number | null, token?: string): string {
  return withQuery(assetUrl(boardId, assetId), width, token);
}

/**
 * Where the live public view loads an image (§16): named by the public link itself, so the URL,
 * and the bytes the browser keeps under it, last as long as the link.
 */
export function publicAssetHref(linkToken: string, assetId: string, width: number | null): string {
  return withQuery(apiPaths.publicAsset(linkToken, assetId), width);
}

function withQuery(path: string, width: number | null, token?: string): string {
  const query = new URLSearchParams();
  if (width !== null) query.set('w', String(width));
  if (token) query.set('token', token);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * `?w=` is rounded up to one of these widths, so a board needs at most this many renditions of an
 * image, each made once and kept, whatever widths clients ask for.
 */
export const renditionWidths = [128, 256, 512, 1024] as const;

/**
 * The rendition width to ask for to draw an image `screenWidth` device pixels wide, or null for the
 * original (wider than the largest rendition, or than the image itself when its width is known).
 */
export function renditionFor(screenWidth: number, imageWidth = Number.POSITIVE_INFINITY): number | null {
  const wanted = renditionWidths.find((w) => w >= screenWidth);
  if (wanted === undefined || wanted >= imageWidth) return null;
  return wanted;
}

export const assetDefaults = {
  maxAssetBytes: 10 * MiB,
  maxBoardAssetBytes: 500 * MiB,
  /**
   * Uploads one user may have running at once on an instance (MAX_UPLOADS_PER_USER); the next gets
   * 429. The client sends one at a time per tab.
   */
  maxUploadsPerUser: 2,
  /** Retry-After of that 429, in seconds: about how long an upload of a large image takes. */
  uploadRetryAfterSeconds: 5,
  /** Unreferenced images are deleted after this many days (HISTORY_DAYS). */
  historyDays: 30,
} as const;

/** The sentences shown when an upload is refused, one per reason (docs/api.md §8, §13). */
export const assetSentences = {
  tooLarge: (maxBytes: number) =>
    `This image is larger than ${formatBytes(maxBytes)}, the most one image may be. Make it smaller and try again.`,
  boardFull: (maxBytes: number) =>
    `This board already holds ${formatBytes(maxBytes)} of images, its limit. Delete unused images or use another board.`,
  unsupported: 'Only PNG, JPEG, GIF and WebP images can be added to a board.',
  incomplete: 'The upload ended before the whole image arrived. Try again.',
  busy: (uploads: number, seconds: number) =>
    `You already have ${uploads === 1 ? 'an image' : `${uploads} images`} uploading. Try again in ${seconds} seconds, once ${uploads === 1 ? 'it has' : 'they have'} arrived.`,
  viewer: 'You can view this board but not add images to it. Ask the owner for edit access.',
  offline: 'You are offline. The image will be uploaded when the connection returns.',
} as const;

export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MB`;
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

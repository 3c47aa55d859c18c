// Upload and download of board images over REST (docs/api.md §13). Uploads go through XMLHttpRequest,
// the one browser API that reports upload progress.
import { type Asset, type AssetAnswer, apiPaths, assetUrl, type ErrorBody } from '@tandem/shared';

export type UploadResult =
  | { ok: true; asset: Asset }
  /** Refused for good (type, size, role): the sentence says why. */
  | { ok: false; refused: true; sentence: string; status: number }
  /** The network failed: keep the image and try again later. */
  | { ok: false; refused: false };

export function uploadAsset(
  boardId: string,
  body: Blob,
  onProgress: (fraction: number) => void,
): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiPaths.boardAssets(boardId));
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => resolve({ ok: false, refused: false });
    xhr.onabort = () => resolve({ ok: false, refused: false });
    xhr.onload = () => {
      if (xhr.status === 201) {
        resolve({ ok: true, asset: (xhr.response as AssetAnswer).asset });
        return;
      }
      // 5xx and a balancer's errors are worth retrying; a catalogue refusal is not.
      if (xhr.status >= 500 || xhr.status === 0 || xhr.status === 429) {
        resolve({ ok: false, refused: false });
        return;
      }
      const error = (xhr.response as Partial<ErrorBody> | null)?.error;
      resolve({
        ok: false,
        refused: true,
        status: xhr.status,
        sentence: error?.message ?? 'The image could not be added.',
      });
    };
    // The declared type is only a hint; the server reads the bytes.
    xhr.setRequestHeader('Content-Type', body.type || 'application/octet-stream');
    xhr.send(body);
  });
}

/** The image as a data: URL (for exports), or null when it cannot be fetched. */
export async function assetDataUrl(boardId: string, assetId: string): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(assetUrl(boardId, assetId), { credentials: 'same-origin' });
  } catch {
    return null;
  }
  if (!res.ok) return null;
  return blobToDataUrl(await res.blob());
}

export function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

export async function dataUrlToBlob(url: string): Promise<Blob> {
  return (await fetch(url)).blob();
}

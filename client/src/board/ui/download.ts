// Browser file helpers for export/import.
import { blobToDataUrl } from '../images/upload.ts';

export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Rasterises an SVG string at `scale` (capped so a huge board does not exhaust memory). */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const s = Math.max(0.1, Math.min(scale, 8192 / Math.max(width, height, 1)));
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * s));
    canvas.height = Math.max(1, Math.round(height * s));
    const ctx = canvas.getContext('2d')!;
    ctx.scale(s, s);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A file name from a board title: letters of any script and digits kept (accents too), the rest dashed. */
export const safeName = (title: string) =>
  title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\p{M}_\- ]+/gu, '')
    .trim()
    .replace(/\s+/g, '-') || 'board';

/**
 * A PDF of one page per picture, each page the picture's own size, drawn from its PNG (jsPDF,
 * loaded only when asked for): frames (facilitation/frameExport.ts) and a board's pages
 * (pages/pagesExport.ts). Null for no pictures.
 */
export async function picturesPdf(
  pictures: Iterable<{ svg: string; width: number; height: number }>,
): Promise<Blob | null> {
  const { jsPDF } = await import('jspdf');
  let pdf: InstanceType<typeof jsPDF> | null = null;
  for (const { svg, width, height } of pictures) {
    const png = await blobToDataUrl(await svgToPng(svg, width, height));
    const orientation = width >= height ? 'landscape' : 'portrait';
    if (!pdf) pdf = new jsPDF({ orientation, unit: 'px', format: [width, height], hotfixes: ['px_scaling'] });
    else pdf.addPage([width, height], orientation);
    // Deflated: without a compression jsPDF stores the PNG's pixels raw, so a one-page
    // flowchart came out at about 5 MB. FAST (zlib level 1) is quick even for 8192 px pictures.
    pdf.addImage(png, 'PNG', 0, 0, width, height, undefined, 'FAST');
  }
  return pdf?.output('blob') ?? null;
}

// The live public view's image URLs (client/src/pages/publicImages.ts): the viewer's token on each,
// the rendition the drawing needs, kept across reconnects while fresh, made again before expiry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import { PublicImageUrls, TOKEN_MARGIN_MS } from '../src/pages/publicImages.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const image = (id: string, assetId: string, w: number) =>
  ({ id, type: 'image', assetId, x: 0, y: 0, w, h: w / 2 }) as unknown as ShapeRecord;
const sticky = { id: 's', type: 'sticky', x: 0, y: 0, w: 200, h: 200 } as unknown as ShapeRecord;
const token = (url: string | undefined) => new URL(`http://x${url}`).searchParams.get('token');
const width = (url: string | undefined) => new URL(`http://x${url}`).searchParams.get('w');

describe('PublicImageUrls', () => {
  it('no token yet, no URLs; then each image with the token, at its rendition', () => {
    const urls = new PublicImageUrls();
    assert.equal(urls.hrefs([image('i1', A, 200)], 1, 0).size, 0);
    urls.setToken('board1', 'T1', 900_000);
    const hrefs = urls.hrefs([image('i1', A, 200), sticky, image('i2', B, 2000)], 2, 0);
    assert.equal(hrefs.size, 2);
    assert.match(hrefs.get(A)!, new RegExp(`/api/boards/board1/assets/${A}\\?`));
    assert.equal(token(hrefs.get(A)), 'T1');
    assert.equal(width(hrefs.get(A)), '512', '200 wide at pixel ratio 2');
    assert.equal(width(hrefs.get(B)), null, 'wider than the largest rendition: the original');
  });

  it('keeps a URL across a new token while it is fresh; new images take the new token', () => {
    const urls = new PublicImageUrls();
    urls.setToken('board1', 'T1', 900_000);
    const first = urls.hrefs([image('i1', A, 200)], 1, 0).get(A);
    urls.setToken('board1', 'T2', 1_800_000);
    const later = urls.hrefs([image('i1', A, 200), image('i2', B, 100)], 1, 10_000);
    assert.equal(later.get(A), first, 'the browser already holds it under that URL');
    assert.equal(token(later.get(B)), 'T2');
  });

  it('makes a URL again when its token is about to expire, or when the drawing needs it wider', () => {
    const urls = new PublicImageUrls();
    urls.setToken('board1', 'T1', 900_000);
    urls.hrefs([image('i1', A, 100)], 1, 0);
    urls.setToken('board1', 'T2', 1_800_000);
    const nearExpiry = urls.hrefs([image('i1', A, 100)], 1, 900_000 - TOKEN_MARGIN_MS);
    assert.equal(token(nearExpiry.get(A)), 'T2');
    const wider = urls.hrefs([image('i1', A, 100), image('i3', A, 900)], 1, 900_000);
    assert.equal(width(wider.get(A)), '1024', 'the widest drawing of the asset decides');
    assert.equal(token(wider.get(A)), 'T2');
  });
});

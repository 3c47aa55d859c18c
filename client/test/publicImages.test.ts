// The live public view's image URLs (client/src/pages/publicImages.ts): named by the public link,
// at the rendition the drawing needs, the same URL for as long as it is wide enough.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShapeRecord } from '@tandem/shared';
import { PublicImageUrls } from '../src/pages/publicImages.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const image = (id: string, assetId: string, w: number) =>
  ({ id, type: 'image', assetId, x: 0, y: 0, w, h: w / 2 }) as unknown as ShapeRecord;
const sticky = { id: 's', type: 'sticky', x: 0, y: 0, w: 200, h: 200 } as unknown as ShapeRecord;
const width = (url: string | undefined) => new URL(`http://x${url}`).searchParams.get('w');

describe('PublicImageUrls', () => {
  it('names each image by the link, at its rendition, with no access token in it', () => {
    const urls = new PublicImageUrls('L1nk');
    const hrefs = urls.hrefs([image('i1', A, 200), sticky, image('i2', B, 2000)], 2);
    assert.equal(hrefs.size, 2);
    assert.match(
      hrefs.get(A)!,
      new RegExp(`^/api/public/L1nk/assets/${A}\\?w=512$`),
      '200 wide at pixel ratio 2',
    );
    assert.equal(width(hrefs.get(B)), null, 'wider than the largest rendition: the original');
    assert.equal(new URL(`http://x${hrefs.get(B)}`).searchParams.get('token'), null);
  });

  it('keeps a URL while it is wide enough; a wider drawing of the asset gets a wider one', () => {
    const urls = new PublicImageUrls('L1nk');
    const first = urls.hrefs([image('i1', A, 300)], 1).get(A);
    assert.equal(width(first), '512');
    assert.equal(urls.hrefs([image('i1', A, 120)], 1).get(A), first, 'drawn smaller: the bytes held serve');
    const wider = urls.hrefs([image('i1', A, 100), image('i3', A, 900)], 1);
    assert.equal(width(wider.get(A)), '1024', 'the widest drawing of the asset decides');
  });
});

// The shared SVG renderer (docs/api.md §16): what the client's export and the server's board.svg draw.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ShapeRecord } from '../src/index.ts';
import { fontStacks } from '../src/render/fonts.ts';
import { toSvg } from '../src/render/svg.ts';

const base = { rotation: 0, createdBy: 'u1' };
const frame: ShapeRecord = {
  ...base,
  id: 'frame-1',
  type: 'frame',
  x: 0,
  y: 0,
  w: 600,
  h: 400,
  color: 'grey',
  z: 'a0',
  name: 'Ideas',
};
const note: ShapeRecord = {
  ...base,
  id: 'note-1',
  type: 'sticky',
  x: 40,
  y: 40,
  w: 200,
  h: 200,
  color: 'yellow',
  z: 'a1',
  text: 'Ship it',
};

/** The font-family attribute of the <text> element whose content is `content`, unescaped. */
function fontFamilyOfText(svg: string, content: string): string | undefined {
  for (const m of svg.matchAll(/<text\b([^>]*)>(.*?)<\/text>/g)) {
    const text = (m[2] ?? '').replace(/<[^>]*>/g, '');
    if (text !== content) continue;
    return /font-family="([^"]*)"/.exec(m[1] ?? '')?.[1]?.replace(/&quot;/g, '"');
  }
  return undefined;
}

test("a frame's title is set in the same sans stack as other text, so the embedded face applies", () => {
  const { svg } = toSvg(
    [frame, note],
    new Map([
      [frame.id, frame],
      [note.id, note],
    ]),
  );
  assert.equal(fontFamilyOfText(svg, 'Ship it'), fontStacks.sans, 'the note text uses the sans stack');
  assert.equal(fontFamilyOfText(svg, 'Ideas'), fontStacks.sans, 'the frame title uses the sans stack');
});

test('a frame stored with a blank name is titled "Untitled frame" in an export, not "Frame"', () => {
  const blank = { ...frame, name: '  ' };
  const { svg } = toSvg([blank], new Map([[blank.id, blank]]));
  assert.ok(fontFamilyOfText(svg, 'Untitled frame'), svg);
});

test("an image's alt text is its group's <title>, escaped; an image without it has none", () => {
  const photo: ShapeRecord = {
    ...base,
    id: 'img-1',
    type: 'image',
    x: 10,
    y: 20,
    w: 320,
    h: 240,
    color: 'grey',
    z: 'a2',
    assetId: 'asset-1',
    alt: 'Sketch of "login" <flow> & notes',
  };
  const all = new Map([[photo.id, photo]]);
  const { svg } = toSvg([photo], all, { images: new Map([['asset-1', 'data:image/png;base64,AAAA']]) });
  assert.match(
    svg,
    /<g transform="translate\(10 20\)"><title>Sketch of &quot;login&quot; &lt;flow&gt; &amp; notes<\/title><image /,
  );
  // The placeholder of an image whose bytes are not there carries it too.
  assert.match(toSvg([photo], all).svg, /<title>Sketch of &quot;login&quot;/);
  const { alt: _alt, ...bare } = photo;
  assert.doesNotMatch(toSvg([bare], new Map([[bare.id, bare]])).svg, /<title>/);
});

test("a frame's export holds the arrows with both ends in it, not one to a shape outside", async () => {
  const { boardSvg, shapesToDraw } = await import('../src/render/board.ts');
  const outside: ShapeRecord = { ...note, id: 'note-out', x: 800, y: 100, z: 'a2', text: 'Elsewhere' };
  const second: ShapeRecord = { ...note, id: 'note-2', x: 340, y: 40, z: 'a3', text: 'Next' };
  const arrow = (id: string, to: ShapeRecord, z: string): ShapeRecord => ({
    ...base,
    id,
    type: 'arrow',
    color: 'black',
    z,
    // Its box runs from the inside note's centre to the other's: the middle of the one to the
    // note outside, (520, 170), lies in the frame too.
    x: 140,
    y: 140,
    w: to.x + 100 - 140,
    h: to.y + 100 - 140,
    from: { shapeId: note.id, x: 140, y: 140 },
    to: { shapeId: to.id, x: to.x + 100, y: to.y + 100 },
  });
  const within = arrow('arrow-in', second, 'a4');
  const across = arrow('arrow-out', outside, 'a5');
  const shapes = [frame, note, outside, second, within, across];
  assert.deepEqual(
    shapesToDraw(shapes, frame.id).map((s) => s.id),
    [frame.id, note.id, second.id, within.id],
  );
  // The picture is the frame's (with its margin and title), not stretched towards the note outside.
  const { width } = boardSvg({ shapes }, { frame: frame.id });
  assert.equal(width, frame.w + 2 * 32);
});

test("a frame's picture is the frame: a held shape wider than it adds no empty margin", () => {
  // A template's text box, 900 wide, in a frame resized to 600: the frame clips it on the canvas.
  const wide: ShapeRecord = {
    ...note,
    id: 'text-1',
    type: 'text',
    x: 20,
    y: 100,
    w: 900,
    h: 60,
    text: 'Goal',
  };
  const outside: ShapeRecord = { ...note, id: 'note-far', x: 2000, y: 2000 };
  const all = new Map([frame, wide, outside].map((s) => [s.id, s]));
  const margin = 32;
  const framed = toSvg([frame, wide], all, { margin });
  assert.equal(framed.width, frame.w + 2 * margin);
  assert.equal(framed.height, frame.h + 2 * margin);
  assert.match(framed.svg, new RegExp(`viewBox="${frame.x - margin} ${frame.y - margin} `));
  // A shape no frame holds still counts whole.
  const loose = toSvg([wide], all, { margin });
  assert.equal(loose.width, wide.w + 2 * margin);
  assert.equal(
    toSvg([frame, wide, outside], all, { margin }).width,
    outside.x + outside.w - frame.x + 2 * margin,
  );
});

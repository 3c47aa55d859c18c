// Presence colours against note colours (client/src/board/presence/contrast.ts), in Node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colors } from '@tandem/shared';
import {
  contrastRatio,
  MARK_CONTRAST,
  presenceOutline,
  presenceSurfaces,
  visibleOn,
} from '../src/board/presence/contrast.ts';

describe('presence contrast', () => {
  it('computes WCAG contrast ratios', () => {
    assert.equal(contrastRatio('#000000', '#ffffff'), 21);
    assert.equal(contrastRatio('#ffd84d', '#ffd84d'), 1);
    assert.ok(Math.abs(contrastRatio('#767676', '#ffffff') - 4.54) < 0.01);
    assert.equal(contrastRatio('#123456', '#abcdef'), contrastRatio('#abcdef', '#123456'));
  });

  it('a colour alone is lost on a note of its own colour (why the outline exists)', () => {
    assert.ok(contrastRatio(colors.yellow, colors.yellow) < MARK_CONTRAST);
    assert.ok(contrastRatio(colors.red, colors.pink) < MARK_CONTRAST);
  });

  it('every person’s colour, with its outline, stands out on every note colour and the canvas', () => {
    for (const [name, color] of Object.entries(colors)) {
      for (const surface of presenceSurfaces) {
        assert.ok(visibleOn(color, surface), `${name} (${color}) on ${surface}`);
      }
    }
  });

  it('picks the outline that works where the colour alone does not', () => {
    // On dark surfaces white is the outline that shows; on the notes, ink.
    assert.equal(presenceOutline('#ffd84d', ['#ffd84d']), '#1f2328');
    assert.equal(presenceOutline('#202020', ['#101010', '#222222']), '#ffffff');
    assert.equal(presenceOutline(colors.yellow), '#1f2328');
  });
});

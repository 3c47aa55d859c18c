// The Keyboard shortcuts dialog's list (client/src/board/ui/shortcutList.ts) against the keyboard's
// own tables (tools/keyboard.ts): every key that picks a tool or aligns is listed, with the name
// of what it does, and no key is listed for two different things.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alignKeys, toolKeys } from '../src/board/tools/keyboard.ts';
import { alignments, paletteTools } from '../src/board/ui/controls.ts';
import { shortcutGroups } from '../src/board/ui/shortcutList.ts';

const listed = shortcutGroups().flatMap((g) => g.shortcuts.map((s) => ({ ...s, group: g.title })));
const whatFor = (key: string) => listed.filter((s) => s.keys.includes(key)).map((s) => s.what);

describe('the keyboard shortcuts list', () => {
  it('lists every tool key the keyboard binds, with the palette’s name for the tool', () => {
    for (const [letter, tool] of Object.entries(toolKeys)) {
      const what = whatFor(letter.toUpperCase());
      assert.equal(what.length, 1, `${letter.toUpperCase()} (${tool}) is listed once: ${what.join(', ')}`);
      const palette = paletteTools.find((t) => t.tool === tool);
      if (palette) assert.equal(what[0], palette.label);
    }
  });

  it('lists every alignment key, as the arrange bar names it', () => {
    for (const [code, how] of Object.entries(alignKeys)) {
      const keys = `Alt+${code.replace(/^Key/, '')}`;
      assert.deepEqual(whatFor(keys), [alignments.find((a) => a.how === how)!.label]);
    }
    assert.deepEqual(whatFor('Alt+Shift+H'), ['Distribute horizontally']);
    assert.deepEqual(whatFor('Alt+Shift+V'), ['Distribute vertically']);
  });

  it('names no key for two things, but the arrows (nudging, and stepping while presenting)', () => {
    const seen = new Map<string, string>();
    for (const s of listed)
      for (const k of s.keys) {
        if (k === 'Arrow keys') continue;
        assert.equal(seen.get(k), undefined, `${k} is listed for “${seen.get(k)}” and “${s.what}”`);
        seen.set(k, s.what);
      }
    assert.ok(seen.has('?'), 'the list says how to open it');
    assert.ok(listed.length > 40, `${listed.length} shortcuts`);
  });
});

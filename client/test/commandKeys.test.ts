// The one table of the board's command keys (client/src/board/commandKeys.ts), which the key
// handlers, the Keyboard shortcuts dialog and the context menu all read: every key of every
// command is matched by the event a browser sends for it (US layout; ⌘ for Ctrl on a Mac), and by
// no other command's matcher, so no key runs two commands.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMAND_KEYS, type Command, type KeyLike, matchesCommand } from '../src/board/commandKeys.ts';
import { shortcutGroups } from '../src/board/ui/shortcutList.ts';

const commands = Object.keys(COMMAND_KEYS) as Command[];
/** What Shift types on a US layout, for the keys of the table. */
const usShift: Record<string, string> = { '1': '!', '2': '@', ']': '}', '[': '{' };
const codeOf = (main: string): string =>
  /^[A-Z]$/.test(main)
    ? `Key${main}`
    : /^[0-9]$/.test(main)
      ? `Digit${main}`
      : ({
          ']': 'BracketRight',
          '[': 'BracketLeft',
          'Menu key': 'ContextMenu',
          '=': 'Equal',
          '+': 'Equal',
          '−': 'Minus',
        }[main] ?? main);

/** The keydown a browser sends for `combo` ("Ctrl+Shift+Z"); `mac`: ⌘ for Ctrl, and Alt's letters. */
function eventFor(combo: string, mac = false): KeyLike {
  const plus = combo === '+' || combo.endsWith('++');
  const parts = plus ? [...combo.slice(0, -1).split('+').filter(Boolean), '+'] : combo.split('+');
  const main = parts.pop()!;
  const ctrl = parts.includes('Ctrl');
  // + is Shift and = on a US layout.
  const shift = parts.includes('Shift') || main === '+';
  const alt = parts.includes('Alt');
  let key = main === 'Menu key' ? 'ContextMenu' : main === '−' ? '-' : main;
  if (/^[A-Z]$/.test(key)) key = shift ? key : key.toLowerCase();
  else if (shift && usShift[key]) key = usShift[key]!;
  // Option changes the letter on a Mac: Shift+Option+C types Ç.
  if (mac && alt && main === 'C') key = 'Ç';
  return {
    key,
    code: codeOf(main),
    ctrlKey: ctrl && !mac,
    metaKey: ctrl && mac,
    shiftKey: shift,
    altKey: alt,
  };
}

describe('the command keys', () => {
  for (const mac of [false, true])
    it(`match each command by its own keys and by no other command's${mac ? ' (on a Mac)' : ''}`, () => {
      for (const command of commands)
        for (const combo of COMMAND_KEYS[command]) {
          const e = eventFor(combo, mac);
          assert.ok(matchesCommand(e, command), `${combo} runs ${command}`);
          const others = commands.filter((c) => c !== command && matchesCommand(e, c));
          assert.deepEqual(others, [], `${combo} runs only ${command}`);
        }
    });

  it('tell the modifiers apart: Ctrl+Z is not Ctrl+Shift+Z, Ctrl+Alt+Z, Z or Alt+Z', () => {
    const z = { key: 'z', code: 'KeyZ', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false };
    assert.ok(matchesCommand(z, 'undo'));
    assert.ok(!matchesCommand({ ...z, key: 'Z', shiftKey: true }, 'undo'));
    assert.ok(!matchesCommand({ ...z, altKey: true }, 'undo'));
    assert.ok(!matchesCommand({ ...z, ctrlKey: false }, 'undo'));
    // By the letter typed, not the physical key, without Alt: Ctrl+Z on a German layout is where
    // Y is on a US one, and undoes; the key marked Y there (code KeyZ) redoes.
    assert.ok(matchesCommand({ ...z, code: 'KeyY' }, 'undo'));
    assert.ok(matchesCommand({ ...z, key: 'y' }, 'redo'));
    assert.ok(!matchesCommand({ ...z, key: 'y' }, 'undo'));
  });

  it('hold the zoom keys, as a browser sends them: + and = (with Shift or not, from the keypad), −, Ctrl+0', () => {
    const plain = { ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
    const runs = (e: KeyLike) => commands.filter((c) => matchesCommand(e, c));
    assert.deepEqual(runs({ ...plain, key: '+', code: 'Equal', shiftKey: true }), ['zoomIn']);
    assert.deepEqual(runs({ ...plain, key: '+', code: 'NumpadAdd' }), ['zoomIn']);
    assert.deepEqual(runs({ ...plain, key: '=', code: 'Equal' }), ['zoomIn']);
    // = is Shift+0 on a German layout.
    assert.deepEqual(runs({ ...plain, key: '=', code: 'Digit0', shiftKey: true }), ['zoomIn']);
    assert.deepEqual(runs({ ...plain, key: '=', code: 'Equal', ctrlKey: true }), ['zoomIn']);
    assert.deepEqual(runs({ ...plain, key: '+', code: 'Equal', metaKey: true, shiftKey: true }), ['zoomIn']);
    assert.deepEqual(runs({ ...plain, key: '-', code: 'Minus' }), ['zoomOut']);
    assert.deepEqual(runs({ ...plain, key: '-', code: 'NumpadSubtract', ctrlKey: true }), ['zoomOut']);
    assert.deepEqual(runs({ ...plain, key: '0', code: 'Digit0', ctrlKey: true }), ['zoomReset']);
    // Not with Alt, and not the 0 typed on its own.
    assert.deepEqual(runs({ ...plain, key: '=', code: 'Equal', altKey: true }), []);
    assert.deepEqual(runs({ ...plain, key: '0', code: 'Digit0' }), []);
    // The dialog's View group lists them under the names the zoom buttons have.
    const view = shortcutGroups().find((g) => g.title === 'View')!.shortcuts;
    for (const [command, what] of [
      ['zoomIn', 'Zoom in'],
      ['zoomOut', 'Zoom out'],
      ['zoomReset', 'Zoom to 100%'],
    ] as const)
      assert.deepEqual(view.find((s) => s.what === what)?.keys, [
        ...(COMMAND_KEYS as Record<string, readonly string[]>)[command]!,
      ]);
  });

  it('are the keys the shortcuts dialog lists for each command', () => {
    const listed = new Set(shortcutGroups().flatMap((g) => g.shortcuts.flatMap((s) => s.keys)));
    for (const command of commands)
      for (const combo of COMMAND_KEYS[command])
        assert.ok(listed.has(combo), `${combo} (${command}) is listed`);
  });
});

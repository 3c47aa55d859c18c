// The Keyboard shortcuts dialog: every shortcut of the board (shortcutList.ts), opened with `?`
// or the button beside the zoom controls, closed with Escape or its Close button.
import { useEffect, useState } from 'react';
import { onKeydown, ownsKey } from '../shortcuts.ts';
import { ModalDialog } from './ModalDialog.tsx';
import { SHORTCUTS_KEY, shortcutGroups } from './shortcutList.ts';

const groups = shortcutGroups();

/** Whether the dialog is open, and its opening: `?` on the board (not while typing or in a dialog). */
export function useShortcutsDialog(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(false);
  useEffect(
    () =>
      onKeydown((e) => {
        if (e.key !== SHORTCUTS_KEY || e.ctrlKey || e.metaKey || e.altKey) return;
        if (ownsKey(e)) return;
        e.preventDefault();
        setOpen(true);
      }),
    [],
  );
  return [open, setOpen];
}

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <ModalDialog title="Keyboard shortcuts" className="shortcuts-dialog" onClose={onClose}>
      <p className="shortcuts-note">On a Mac, ⌘ for Ctrl and ⌥ for Alt.</p>
      <div className="shortcuts-groups">
        {groups.map((group) => (
          <section key={group.title} aria-label={group.title}>
            <h3>{group.title}</h3>
            <dl>
              {group.shortcuts.map((s) => (
                <div key={s.what} className="shortcut">
                  <dt>{s.what}</dt>
                  <dd>
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && <span className="shortcut-or"> or </span>}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </ModalDialog>
  );
}

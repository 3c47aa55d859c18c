// The top-bar button that opens and closes a side panel (Pages, History): pressed while its panel
// is open, and carrying the id that closing the panel gives focus back to (sidePanels.ts).
import type { ReactNode } from 'react';
import { type Panel, panelButtonId, rememberOpener } from './sidePanels.ts';

export function PanelToggle({
  panel,
  name,
  open,
  onToggle,
  icon,
  label = name,
  className = 'btn',
  title = name,
  keyShortcuts,
}: {
  panel: Panel;
  /** The accessible name. */
  name: string;
  open: boolean;
  onToggle(): void;
  icon: ReactNode;
  /** The text beside the icon (hidden where the top bar is narrow), the name unless told. */
  label?: ReactNode;
  className?: string;
  title?: string;
  keyShortcuts?: string;
}) {
  return (
    <button
      type="button"
      className={className}
      id={panelButtonId[panel]}
      aria-label={name}
      // Pressed while the panel is open, as Comments: a screen reader said nothing when it opened.
      aria-pressed={open}
      title={title}
      aria-keyshortcuts={keyShortcuts}
      onClick={() => {
        // Opened from its button: closing it gives focus back here, not to where a shortcut was.
        rememberOpener(panel, null);
        onToggle();
      }}
    >
      {icon} <span className="label">{label}</span>
    </button>
  );
}

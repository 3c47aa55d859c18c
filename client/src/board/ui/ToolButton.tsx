// The square icon button of the editor's bars (tools, zoom, arrange, align and group): one place
// for its markup, so each bar says only what a button is called, what it shows and what it does.
import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons.tsx';

export function ToolButton({
  label,
  icon,
  shortcut,
  title,
  onClick,
  onDoubleClick,
  pressed,
  active = false,
  disabled,
  className,
  iconSize,
  tabIndex,
  children,
}: {
  /** The accessible name. */
  label: string;
  icon: IconName;
  /** Shown in the tooltip after the name, "Undo — Ctrl+Z", unless `title` says otherwise. */
  shortcut?: string;
  title?: string;
  onClick: () => void;
  onDoubleClick?: () => void;
  /** For a toggle: its `aria-pressed` (left out for a plain button). */
  pressed?: boolean;
  /** Drawn as on (the `active` class). */
  active?: boolean;
  disabled?: boolean;
  /** Classes beside `tool`, such as `wide-only` or `danger`. */
  className?: string;
  iconSize?: number;
  /** -1 in a bar with one Tab stop (the tool bar's roving tabindex), where arrows move between buttons. */
  tabIndex?: number;
  /** Anything drawn after the icon, such as the shortcut key. */
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      className={['tool', className, active && 'active'].filter(Boolean).join(' ')}
      aria-label={label}
      aria-pressed={pressed}
      title={title ?? (shortcut ? `${label} — ${shortcut}` : label)}
      disabled={disabled}
      tabIndex={tabIndex}
      onClick={onClick}
      onDoubleClick={onDoubleClick}
    >
      <Icon name={icon} size={iconSize} />
      {children}
    </button>
  );
}

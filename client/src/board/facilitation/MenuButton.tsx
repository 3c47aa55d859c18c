// The facilitation bar's menus, and the button that opens and closes each.

export type Menu = 'frames' | 'present' | 'reactions' | 'timer' | 'vote' | null;

/** A facilitation bar button that opens and closes one of the bar's menus. */
export function MenuButton(props: {
  menu: Exclude<Menu, null>;
  open: Menu;
  /** Opens or closes `menu`; `button` is this one, for focus to go back to when it closes. */
  onToggle: (menu: Exclude<Menu, null>, button: HTMLButtonElement) => void;
  label: string;
  icon: string;
  /** The label shown beside the icon, when shorter than the accessible name. */
  short?: string;
  title?: string;
  /** Also shown active while its menu is closed (a presentation or a vote under way). */
  active?: boolean;
}) {
  const expanded = props.open === props.menu;
  return (
    <button
      type="button"
      className={`tool ${expanded || props.active ? 'active' : ''}`}
      aria-label={props.label}
      title={props.title ?? props.label}
      aria-expanded={expanded}
      onClick={(e) => props.onToggle(props.menu, e.currentTarget)}
    >
      <span aria-hidden="true">{props.icon}</span>
      <span className="label">{props.short ?? props.label}</span>
    </button>
  );
}

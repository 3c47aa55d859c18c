// The title row of a side panel (History, Comments, Pages): its name and a close button. The
// heading takes focus as the panel opens, so a keyboard user is in the panel they asked for (and
// a screen reader says its name). Closing, by the button or by Escape anywhere in the panel
// (`closeOnEscape`), gives focus back to where the panel was opened from: the top-bar button, or
// the canvas for History opened by its shortcut. Without it the panel went, and focus with it to
// the page, so a keyboard user started again from the top.
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { Icon } from './icons.tsx';
import { focusOpener, type Panel } from './sidePanels.ts';

const titles: Record<Panel, string> = { comments: 'Comments', history: 'History', pages: 'Pages' };

/** Closes the panel and puts focus back where it was opened from. */
function closeToButton(panel: Panel, onClose: () => void): void {
  onClose();
  focusOpener(panel);
}

function SidePanelHead({
  panel,
  onClose,
  within,
}: {
  panel: Panel;
  onClose(): void;
  /** The panel this heads: focus already in it is left where it is. */
  within: RefObject<HTMLElement | null>;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const head = heading.current;
    // Unless a field of the panel took focus as it rendered: the Pages panel, shown again for the
    // page just added, opens that page's name to type (autoFocus), and taking focus from it ended
    // the renaming.
    if (!head || within.current?.contains(document.activeElement)) return;
    head.focus();
  }, [within]);
  const title = titles[panel];
  return (
    <header className="side-panel-head">
      {/* Focusable by script only (tabIndex -1): a heading is not a stop on the Tab order. */}
      <h2 ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <button
        type="button"
        className="tool"
        aria-label={`Close ${title.toLowerCase()}`}
        onClick={() => closeToButton(panel, onClose)}
      >
        <Icon name="close" size={16} />
      </button>
    </header>
  );
}

/**
 * The panel element's onKeyDown: Escape closes the panel. A field in it that uses Escape itself
 * (renaming a page) stops the key first, so Escape there only leaves the field.
 */
const closeOnEscape =
  (panel: Panel, onClose: () => void) =>
  (e: KeyboardEvent): void => {
    if (e.key !== 'Escape') return;
    // Stopped here, so the board's own Escape (clear the selection) does not see it as well.
    e.preventDefault();
    e.stopPropagation();
    closeToButton(panel, onClose);
  };

/**
 * A side panel (Pages, Comments, History): its element, headed by SidePanelHead, closed by Escape
 * anywhere in it. One place for what each panel had written out again: the ref the heading reads,
 * the Escape handler and the head.
 */
export function SidePanel({
  panel,
  element = 'aside',
  className,
  label,
  onClose,
  children,
}: {
  panel: Panel;
  /** Pages is a section of the page; Comments and History are asides beside the board. */
  element?: 'aside' | 'section';
  className: string;
  label: string;
  onClose(): void;
  children: ReactNode;
}) {
  const self = useRef<HTMLElement>(null);
  const Element = element;
  return (
    <Element
      ref={self}
      className={`panel ${className}`}
      aria-label={label}
      onKeyDown={closeOnEscape(panel, onClose)}
    >
      <SidePanelHead panel={panel} onClose={onClose} within={self} />
      {children}
    </Element>
  );
}

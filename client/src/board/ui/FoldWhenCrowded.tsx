// The top bar's less used controls (History, Templates, Export) fold behind one "More" button, as
// Miro's mobile bar does, on a phone (so the board's title keeps room beside the rest: with all of
// them in the bar it showed four letters) and on any screen whose bar is crowded (a dozen people
// on a 1280 px laptop: the people's group had no room left and the anonymous viewers' count was
// drawn under the Comments button). Otherwise the group is laid out in the bar (`display:
// contents`) and the button is not drawn (editor.css, `.fold`).
//
// The controls stay mounted whichever way they are shown, so their shortcuts (Ctrl+Alt+H) and
// the dialogs they open (the template gallery, inside its menu's element) work as before.
import {
  type MouseEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { onKeydown } from '../shortcuts.ts';
import { Icon } from './icons.tsx';
import { usePhoneLayout } from './touch.ts';

/** Where a press or a key belongs to what a folded control opened, not to the fold itself. */
const OPENED_BY_A_CONTROL = 'dialog, [role="menu"], [role="alertdialog"]';

/** Content wider than its box: what is past its edge is drawn under the next control, or off screen. */
const overflows = (el: Element | null): boolean => !!el && el.scrollWidth > el.clientWidth + 1;

/**
 * Whether the bar that holds `wrap` is crowded with the group laid out in it: the people's group
 * (which gives way first, its strip of faces down to nothing) still overflows, or the bar does.
 * Measured with the group unfolded whatever it shows now, before the browser paints, so folding
 * (which makes room) never unfolds it again on the next measure.
 */
function useCrowded(wrap: RefObject<HTMLDivElement | null>): boolean {
  const [crowded, setCrowded] = useState(false);
  useLayoutEffect(() => {
    const fold = wrap.current;
    const bar = fold?.parentElement;
    if (!fold || !bar) return;
    const measure = () => {
      const shown = fold.classList.contains('folded');
      fold.classList.remove('folded');
      const now = overflows(bar) || overflows(bar.querySelector('.avatars'));
      fold.classList.toggle('folded', shown);
      setCrowded(now);
    };
    measure();
    // The room changes with the window and the tools beside the bar; what needs it changes with
    // who is here (faces, "+N", the viewers' count) and the buttons' badges.
    const resized = new ResizeObserver(measure);
    const topbar = bar.closest('.topbar');
    if (topbar) resized.observe(topbar);
    const tools = document.querySelector('.toolbar');
    if (tools) resized.observe(tools);
    const changed = new MutationObserver(measure);
    changed.observe(bar, { childList: true, subtree: true, characterData: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [wrap]);
  return crowded;
}

export function FoldWhenCrowded({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<HTMLDivElement>(null);
  const phone = usePhoneLayout();
  const crowded = useCrowded(wrap);
  const folded = phone || crowded;
  // Unfolded with its column open (the bar has room again): nothing stays open to fold next time.
  if (!folded && open) setOpen(false);

  useEffect(() => {
    if (!open) return;
    // Opened, focus is on its first control, as a menu puts it on its first item.
    items.current?.querySelector<HTMLElement>('button:not(:disabled)')?.focus();
    const press = (e: PointerEvent) => {
      if (!(e.target instanceof Node) || !wrap.current?.contains(e.target)) setOpen(false);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !(e.target instanceof Element) || !wrap.current?.contains(e.target)) return;
      // A folded menu that is open takes its own Escape (this fold's handler runs first: it was
      // registered first): that menu closes, the fold stays.
      if (
        e.target.closest(OPENED_BY_A_CONTROL) ||
        wrap.current.querySelector('[aria-haspopup][aria-expanded="true"]')
      )
        return;
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    const stopKeys = onKeydown(key, { capture: true });
    window.addEventListener('pointerdown', press, true);
    return () => {
      stopKeys();
      window.removeEventListener('pointerdown', press, true);
    };
  }, [open]);

  /**
   * A control that does something (History, a menu's item) folds the group away; one that opens
   * a menu of its own leaves it open under that menu. A dialog the item opens stays on screen:
   * editor.css keeps a folded group that holds an open dialog laid out, though unseen.
   */
  const chosen = (e: MouseEvent<HTMLDivElement>) => {
    if (!folded || !(e.target instanceof Element)) return;
    const control = e.target.closest('button');
    if (!control || control.matches('[aria-haspopup]') || control.closest('dialog')) return;
    setOpen(false);
    // The control is now out of sight: focus goes to the button it was folded behind, unless
    // what it did moved focus on (a panel's field, a dialog).
    requestAnimationFrame(() => {
      const at = document.activeElement;
      if (!at || at === document.body || items.current?.contains(at)) button.current?.focus();
    });
  };

  return (
    <div className={['fold', folded && 'folded', open && 'open'].filter(Boolean).join(' ')} ref={wrap}>
      <button
        ref={button}
        type="button"
        className="btn ghost fold-button"
        aria-label="More"
        title="More"
        aria-expanded={open}
        onClick={() => setOpen((was) => !was)}
      >
        <Icon name="more" size={18} />
      </button>
      {/* A click handler on a group: the keys reach the buttons inside it, which are the controls. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the buttons within take the keys; Enter and Space click them */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: it only listens for its buttons' clicks */}
      <div className="fold-items" ref={items} onClick={chosen}>
        {children}
      </div>
    </div>
  );
}

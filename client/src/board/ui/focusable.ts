// Giving focus back (a dialog, a side panel, the find bar closing): the element it came from may
// be the board canvas, an <svg>, which is an SVGElement and not an HTMLElement, yet takes focus
// all the same. A check for HTMLElement alone left a keyboard user on the page's top.

/** Whether `el` is an element focus can be given back to: on the page, and not the body. */
export function canTakeFocus(el: Element | null | undefined): el is HTMLElement | SVGElement {
  return (el instanceof HTMLElement || el instanceof SVGElement) && el.isConnected && el !== document.body;
}

/**
 * Called with the Revoke / Remove / Delete button of a row in the Share dialog, once the row is
 * gone: the focused button went with it and focus fell to the page's body, so a keyboard user's
 * next Tab started from the top of the board behind the dialog. Focus goes to the first control of
 * the button's section (its form's first field, or the next row), else the dialog's first button.
 * Waits for the re-render that removes the row (up to 2 s); does nothing if the row
 * stayed (the call failed) or focus has moved on already.
 */
export async function refocusAfterRemoval(button: HTMLElement): Promise<void> {
  const section = button.closest('section');
  const dialog = button.closest('dialog');
  // Which section, by place: a reload may render the section (or the dialog) anew, and a control
  // of the old, detached one cannot take focus.
  const place = section && dialog ? [...dialog.querySelectorAll('section')].indexOf(section) : -1;
  // Polled on timers, not frames: a page that is not painting runs no animation frames.
  for (let tries = 0; tries < 100 && button.isConnected; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (button.isConnected) return;
  const liveDialog = dialog?.isConnected ? dialog : document.querySelector('dialog[open]');
  if (!liveDialog) return;
  if (canTakeFocus(document.activeElement) && liveDialog.contains(document.activeElement)) return;
  const liveSection = section?.isConnected ? section : liveDialog.querySelectorAll('section')[place];
  const target =
    liveSection?.querySelector<HTMLElement>('input, select, button:not(:disabled)') ??
    liveDialog.querySelector<HTMLElement>('button');
  target?.focus();
}

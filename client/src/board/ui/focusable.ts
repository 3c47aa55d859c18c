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
 * Waits for the re-render that removes the row (a few frames at most); does nothing if the row
 * stayed (the call failed) or focus has moved on already.
 */
export async function refocusAfterRemoval(button: HTMLElement): Promise<void> {
  const section = button.closest('section');
  const dialog = button.closest('dialog');
  for (let frame = 0; frame < 10 && button.isConnected; frame++) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  if (button.isConnected || canTakeFocus(document.activeElement)) return;
  const target =
    section?.querySelector<HTMLElement>('input, select, button:not(:disabled)') ??
    dialog?.querySelector<HTMLElement>('button') ??
    null;
  target?.focus();
}

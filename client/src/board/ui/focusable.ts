// Giving focus back (a dialog, a side panel, the find bar closing): the element it came from may
// be the board canvas, an <svg>, which is an SVGElement and not an HTMLElement, yet takes focus
// all the same. A check for HTMLElement alone left a keyboard user on the page's top.

/** Whether `el` is an element focus can be given back to: on the page, and not the body. */
export function canTakeFocus(el: Element | null | undefined): el is HTMLElement | SVGElement {
  return (el instanceof HTMLElement || el instanceof SVGElement) && el.isConnected && el !== document.body;
}

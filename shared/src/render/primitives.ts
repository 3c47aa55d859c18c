// What a shape draws, as plain SVG elements: one description rendered two ways, as React elements
// on the canvas (ShapeView) and as markup in the SVG/PNG/PDF export (svgExport), so the file shows
// exactly the strokes the screen does. Attribute names are React's (camelCase); markup() turns them
// into SVG's.

export type Attrs = Record<string, string | number>;
export interface Primitive {
  tag: 'rect' | 'ellipse' | 'polygon' | 'polyline' | 'line' | 'path' | 'circle';
  attrs: Attrs;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** strokeDasharray → stroke-dasharray; className → class. */
const svgName = (k: string) =>
  k === 'className' ? 'class' : k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export const attrsMarkup = (attrs: Attrs): string =>
  Object.entries(attrs)
    .map(([k, v]) => ` ${svgName(k)}="${esc(String(v))}"`)
    .join('');

export const markup = (parts: readonly Primitive[]): string =>
  parts.map((p) => `<${p.tag}${attrsMarkup(p.attrs)}/>`).join('');

// Shape records as the editor writes them (docs/api.md §10), for tests that need realistic sizes.
import * as Y from 'yjs';

/** Adds a sticky note record in one transaction: about 220 bytes as a Yjs update. */
export function addRecord(doc: Y.Doc, id: string, i: number, createdBy: string): void {
  doc.transact(() => {
    const shape = new Y.Map<unknown>();
    shape.set('id', id);
    shape.set('type', 'sticky');
    shape.set('x', (i % 60) * 220);
    shape.set('y', Math.floor(i / 60) * 220);
    shape.set('w', 200);
    shape.set('h', 200);
    shape.set('rotation', 0);
    shape.set('color', 'yellow');
    shape.set('z', `a${String(i).padStart(5, '0')}`);
    shape.set('createdBy', createdBy);
    shape.set('text', new Y.Text(`imported row ${i}`));
    doc.getMap('shapes').set(id, shape);
  });
}

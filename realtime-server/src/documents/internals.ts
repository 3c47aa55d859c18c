// The fence: every place the server relies on a library's internals, and nothing else. An upgrade
// of yjs, lib0 or ws that changes one of these breaks test/internals.test.ts, which exercises each
// of them against the installed library; the versions are pinned exactly in package.json so such
// an upgrade is always deliberate (the same test names the versions it was written against).
//   ws    the TCP stream under a WebSocket (`_socket`): framing.ts writes pre-built frames to it.
//   yjs   the doc's struct store (`doc.store`: clocks, structs, pending updates), a nested
//         type's item (`_item`), and Yjs's update format v1, walked without building anything
//         (checkUpdate in updates.ts).
//   lib0  the variable-length integer decoder the walk uses, and readAny's value tags.
import type { Duplex } from 'node:stream';
import { limits } from '@tandem/shared';
import * as decoding from 'lib0/decoding';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';

// --- ws ---------------------------------------------------------------------------------------

/** The stream a server-side WebSocket writes its frames to (ws's private `_socket`). */
export function rawStream(ws: WebSocket): Duplex | undefined {
  return (ws as unknown as { _socket?: Duplex })._socket;
}

// --- yjs: the struct store --------------------------------------------------------------------

/** The next clock `doc` expects of `client` (0 for a client it has nothing of). */
export function clockOf(doc: Y.Doc, client: number): number {
  return Y.getState(doc.store, client);
}

/** Every client `doc` holds structs of. */
export function clientsOf(doc: Y.Doc): IterableIterator<number> {
  return doc.store.clients.keys();
}

/** True when every item in [clock, clock + len) of `client` is known to the doc and deleted. */
export function rangeAlreadyDeleted(doc: Y.Doc, client: number, clock: number, len: number): boolean {
  if (clock + len > clockOf(doc, client)) return false;
  const structs = doc.store.clients.get(client);
  if (!structs) return false;
  let index = Y.findIndexSS(structs, clock);
  const end = clock + len;
  while (index < structs.length) {
    const struct = structs[index]!;
    if (struct.id.clock >= end) break;
    if (!struct.deleted) return false;
    index += 1;
  }
  return true;
}

/**
 * The structs of `doc` that hold any clock in [clock, clock + len) of `client`, in order (none for
 * clocks the doc does not have yet).
 */
export function* structsIn(
  doc: Y.Doc,
  client: number,
  clock: number,
  len: number,
): Generator<Y.Item | Y.GC | Y.Skip> {
  const structs = doc.store.clients.get(client);
  if (!structs || clock >= clockOf(doc, client)) return;
  const end = clock + len;
  for (let index = Y.findIndexSS(structs, clock); index < structs.length; index++) {
    const struct = structs[index]!;
    if (struct.id.clock >= end) return;
    yield struct;
  }
}

/** Something waits in the doc for a missing dependency: structs, or deletions of unknown items. */
export function hasPendingUpdates(doc: Y.Doc): boolean {
  return doc.store.pendingStructs !== null || doc.store.pendingDs !== null;
}

/** The encoded size of what waits in the doc for missing dependencies (0 when nothing does). */
export function pendingBytes(doc: Y.Doc): number {
  const { pendingStructs, pendingDs } = doc.store;
  return (pendingStructs?.update.length ?? 0) + (pendingDs?.length ?? 0);
}

/** Forgets what waits in the doc for missing dependencies (a sender that never sends them). */
export function dropPendingUpdates(doc: Y.Doc): void {
  doc.store.pendingStructs = null;
  doc.store.pendingDs = null;
}

/** The item that holds a nested type (a shape's Y.Map inside the shapes map); null at the top level. */
// biome-ignore lint/suspicious/noExplicitAny: any Yjs type, whatever its event type
export function itemOf(type: Y.AbstractType<any>): Y.Item | null {
  return type._item;
}

// --- yjs: update format v1 (with lib0's decoder) ------------------------------------------------

const BITS5 = 31;
const BIT6 = 32;
const BIT7 = 64;
const BIT8 = 128;
/** Yjs's type refs that carry a name: YXmlElement (3) and YXmlHook (5); 0–6 exist. */
const TYPE_REF_XML_ELEMENT = 3;
const TYPE_REF_XML_HOOK = 5;
const TYPE_REFS = 7;
/** The bytes after lib0's `readAny` tags 124 (float32), 123 (float64) and 122 (bigint64). */
const ANY_FIXED_SIZES: Readonly<Record<number, number>> = { 124: 4, 123: 8, 122: 8 };

/** lib0's decoder for the numbers; strings, buffers and values are skipped by length, not read. */
/** An update carries a value nested deeper than limits.maxValueDepth. */
export class ValueTooDeepError extends Error {
  constructor() {
    super(`a value nested deeper than ${limits.maxValueDepth} levels`);
    this.name = 'ValueTooDeepError';
  }
}

export class UpdateWalk {
  private readonly decoder: decoding.Decoder;
  constructor(private readonly bytes: Uint8Array) {
    this.decoder = decoding.createDecoder(bytes);
  }

  get pos(): number {
    return this.decoder.pos;
  }

  /** One byte; unlike lib0's readUint8, never past the end. */
  private byte(): number {
    if (this.decoder.pos >= this.bytes.length) throw new Error('unexpected end of update');
    return this.bytes[this.decoder.pos++]!;
  }

  varUint(): number {
    return decoding.readVarUint(this.decoder);
  }

  private skip(length: number): void {
    if (length > this.bytes.length - this.decoder.pos) throw new Error('unexpected end of update');
    this.decoder.pos += length;
  }

  /** A length-prefixed string or buffer, not decoded. */
  private bytesField(): void {
    this.skip(this.varUint());
  }

  /**
   * A length-prefixed UTF-8 string, not decoded: its length in UTF-16 code units, as Yjs counts a
   * string's length (every byte that starts a character, and one more for each character beyond
   * the Basic Multilingual Plane). Invalid UTF-8 miscounts here, but Yjs refuses it when reading.
   */
  private stringLength(): number {
    const length = this.varUint();
    const start = this.pos;
    this.skip(length);
    let units = 0;
    for (let i = start; i < start + length; i++) {
      const b = this.bytes[i]!;
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    }
    return units;
  }

  /** One struct as Yjs's readClientsStructRefs reads it (update format v1); returns its length in clocks. */
  struct(): number {
    const info = this.byte();
    const kind = info & BITS5;
    if (kind === 0 || kind === 10) return this.varUint(); // GC or Skip: a length
    if ((info & BIT8) === BIT8) {
      this.varUint(); // origin client
      this.varUint(); // origin clock
    }
    if ((info & BIT7) === BIT7) {
      this.varUint(); // right origin client
      this.varUint(); // right origin clock
    }
    if ((info & (BIT7 | BIT8)) === 0) {
      if (this.varUint() === 1)
        this.bytesField(); // parent: a root type's name
      else {
        this.varUint(); // parent: an item's id
        this.varUint();
      }
      if ((info & BIT6) === BIT6) this.bytesField(); // parentSub
    }
    switch (kind) {
      case 1: // deleted
        return this.varUint();
      case 2: {
        // JSON: strings (parsed by Yjs before it integrates anything)
        const count = this.varUint();
        for (let i = 0; i < count; i++) this.jsonField();
        return count;
      }
      case 4: // string
        return this.stringLength();
      case 3: // binary
        this.bytesField();
        return 1;
      case 5: // embed (JSON)
        this.jsonField();
        return 1;
      case 6: // format: key, JSON value
        this.bytesField();
        this.jsonField();
        return 1;
      case 7: {
        const typeRef = this.varUint();
        if (typeRef >= TYPE_REFS) throw new Error(`unknown type ref ${typeRef}`);
        if (typeRef === TYPE_REF_XML_ELEMENT || typeRef === TYPE_REF_XML_HOOK) this.bytesField();
        return 1;
      }
      case 8: {
        const count = this.varUint();
        for (let i = 0; i < count; i++) this.any();
        return count;
      }
      case 9: // subdocument: guid, options
        this.bytesField();
        this.any();
        return 1;
      default:
        throw new Error(`unknown content type ${kind}`);
    }
  }

  /**
   * A length-prefixed JSON text, not parsed: only how deep its arrays and objects nest is
   * checked (limits.maxValueDepth), brackets inside strings not counted.
   */
  private jsonField(): void {
    const length = this.varUint();
    const start = this.pos;
    this.skip(length);
    let depth = 0;
    let inString = false;
    for (let i = start; i < start + length; i++) {
      const b = this.bytes[i]!;
      if (inString) {
        if (b === 0x5c)
          i++; // backslash: the next byte is escaped
        else if (b === 0x22) inString = false;
      } else if (b === 0x22) inString = true;
      else if (b === 0x5b || b === 0x7b) {
        if (++depth > limits.maxValueDepth) throw new ValueTooDeepError();
      } else if (b === 0x5d || b === 0x7d) depth--;
    }
  }

  /** A value as lib0's readAny reads it, not built; refused past limits.maxValueDepth. */
  private any(depth = 0): void {
    const tag = this.byte();
    switch (tag) {
      case 127: // undefined
      case 126: // null
      case 121: // false
      case 120: // true
        return;
      case 125: // integer
        decoding.readVarInt(this.decoder);
        return;
      case 124: // float32
      case 123: // float64
      case 122: // bigint64
        this.skip(ANY_FIXED_SIZES[tag]!);
        return;
      case 119: // string
      case 116: // Uint8Array
        this.bytesField();
        return;
      case 118: {
        // object: key, value pairs
        if (depth >= limits.maxValueDepth) throw new ValueTooDeepError();
        const entries = this.varUint();
        for (let i = 0; i < entries; i++) {
          this.bytesField();
          this.any(depth + 1);
        }
        return;
      }
      case 117: {
        // array
        if (depth >= limits.maxValueDepth) throw new ValueTooDeepError();
        const length = this.varUint();
        for (let i = 0; i < length; i++) this.any(depth + 1);
        return;
      }
      default:
        throw new Error(`unknown value tag ${tag}`);
    }
  }
}

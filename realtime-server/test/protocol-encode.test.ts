// The sync messages the server writes by hand (documents/protocol.ts) are byte for byte what
// lib0's encoder writes, at every varuint length boundary, and parse back to the same payload.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SyncMessageType } from '@tandem/shared';
import * as encoding from 'lib0/encoding';
import {
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
  parseClientMessage,
} from '../src/documents/protocol.ts';

test('sync messages match lib0 encoding at every length boundary', () => {
  const kinds = [
    [SyncMessageType.step1, encodeSyncStep1, 'step1'],
    [SyncMessageType.step2, encodeSyncStep2, 'step2'],
    [SyncMessageType.update, encodeUpdate, 'update'],
  ] as const;
  for (const length of [0, 1, 127, 128, 300, 16_383, 16_384, 70_000, 2_097_151, 2_097_152]) {
    const payload = new Uint8Array(length).map((_, i) => (i * 7) % 251);
    for (const [syncType, encode, kind] of kinds) {
      const reference = encoding.createEncoder();
      encoding.writeVarUint(reference, 0);
      encoding.writeVarUint(reference, syncType);
      encoding.writeVarUint8Array(reference, payload);
      const expected = encoding.toUint8Array(reference);
      const actual = encode(payload);
      assert.equal(Buffer.compare(Buffer.from(actual), Buffer.from(expected)), 0, `${kind}, ${length} bytes`);
      const parsed = parseClientMessage(actual);
      assert.equal(parsed.kind, kind);
      const back = parsed.kind === 'step1' ? parsed.stateVector : 'update' in parsed ? parsed.update : null;
      assert.equal(back?.length, length);
    }
  }
});

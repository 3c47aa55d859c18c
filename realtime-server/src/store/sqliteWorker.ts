// The SQLite worker thread: a second connection to the store's file, for the two long writes that
// would otherwise hold the main thread (store/sqliteMaintenance.ts says why and when). One message
// per call; the main thread holds its write gate while a compaction's write runs here.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '../threads/priority.ts';
import type { MaintenanceReply, MaintenanceRequest } from './sqliteMaintenance.ts';

const { file, nice, walKeptBytes } = workerData as { file: string; nice: number; walKeptBytes: number };
lowerThisThread(nice);
// Loaded once the priority is set: loading the driver and the statements' modules (with the
// shared schemas) is most of a start's CPU, which at the main thread's priority would compete
// with every live board (the worker starts mid-edit, at the first compaction or checkpoint).
// Messages sent meanwhile wait in the port.
const [{ default: Database }, { SqliteSql }, { readCompaction, writeCompaction }] = await Promise.all([
  import('better-sqlite3'),
  import('./sql.ts'),
  import('./sqliteCompaction.ts'),
]);

const db = new Database(file);
db.pragma('busy_timeout = 5000');
// The main connection's durability rule (store/sqlite.ts): commits reach the WAL, and the main
// thread flushes it before it reports the compaction done.
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('wal_autocheckpoint = 0');
// As the main connection: whichever writes first after a checkpoint cuts the WAL file back.
db.pragma(`journal_size_limit = ${walKeptBytes}`);
const sql = new SqliteSql(db);

/** What run() answers, and the buffers that move to the main thread with it rather than being copied. */
interface Result {
  value: unknown;
  transfer?: ArrayBuffer[];
}

function run(request: MaintenanceRequest): Result {
  if (request.op === 'read') {
    const input = readCompaction(db, sql, request.key);
    if (!input) return { value: null };
    // Each part in an ArrayBuffer of its own, moved to the main thread without a copy there.
    const parts = input.parts.map((part) => new Uint8Array(part));
    return { value: { parts, seqs: input.seqs }, transfer: parts.map((part) => part.buffer as ArrayBuffer) };
  }
  if (request.op === 'checkpoint') {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    return { value: result };
  }
  writeCompaction(db, sql, request.key, request.seqs, request.merged);
  return { value: null };
}

parentPort?.on('message', (request: MaintenanceRequest) => {
  let reply: MaintenanceReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const result = run(request);
    reply = { rid: request.rid, ok: true, result: result.value };
    transfer = result.transfer ?? [];
  } catch (error) {
    reply = { rid: request.rid, ok: false, name: (error as Error).name, message: (error as Error).message };
  }
  parentPort?.postMessage(reply, transfer);
});

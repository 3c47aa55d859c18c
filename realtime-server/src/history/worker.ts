// The history worker thread: runs history/board.ts's computations for the main thread
// (history/compute.ts), one message per call.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ComputeReply, ComputeRequest } from './compute.ts';

// Below the main thread: on Linux a thread's nice value is its own, and `setPriority(n)` (pid 0)
// sets the calling thread's. On a busy machine the scheduler then gives a core to the main
// thread, which serves every live board, before this one, whose work (an export, a version)
// someone is waiting for anyway. Where it is not allowed, the worker runs at the usual priority.
const nice = (workerData as { nice?: number } | null)?.nice ?? 0;
if (nice > 0) {
  try {
    setPriority(nice);
  } catch {}
}

// Loaded once the priority is set: loading the computations (Yjs, the schemas, the SVG renderer)
// is most of a start's CPU, hundreds of ms, which at the main thread's priority competed with
// every live board of the instance (a compaction's first merge started this thread mid-edit).
// Messages sent meanwhile wait in the port.
const { inlineCompute } = await import('./inline.ts');

parentPort?.on('message', async (request: ComputeRequest) => {
  let reply: ComputeReply;
  try {
    const fn = inlineCompute[request.op] as (...args: unknown[]) => Promise<unknown>;
    reply = { rid: request.rid, ok: true, result: await fn(...request.args) };
  } catch (error) {
    const e = error as Error;
    reply = { rid: request.rid, ok: false, name: e.name, message: e.message };
  }
  parentPort?.postMessage(reply);
});

// The history worker thread: runs history/board.ts's computations for the main thread
// (history/compute.ts), one message per call.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '../threads/priority.ts';
import type { ComputeReply, ComputeRequest } from './compute.ts';

lowerThisThread((workerData as { nice?: number } | null)?.nice);

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

// The history worker thread: runs history/board.ts's computations for the main thread
// (history/compute.ts), one message per call.
import { parentPort } from 'node:worker_threads';
import { type ComputeReply, type ComputeRequest, inlineCompute } from './compute.ts';

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

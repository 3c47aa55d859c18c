// A worker thread's own priority, lowered below the main thread's. On Linux a thread's nice value
// is its own, and `setPriority(n)` (pid 0) sets the calling thread's: on a busy machine the
// scheduler then gives a core to the main thread, which serves every live board, before the
// worker, whose work (an export, a version, a checkpoint) nobody is waiting for in real time.
// Where it is not allowed, the worker runs at the usual priority. Called first thing in a worker,
// before it loads its heavy modules: loading them is most of a start's CPU.
import { setPriority } from 'node:os';

export function lowerThisThread(nice: number | undefined): void {
  if (!nice || nice <= 0) return;
  try {
    setPriority(nice);
  } catch {}
}

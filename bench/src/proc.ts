// Reads a process's CPU time and resident memory from /proc (Linux), so the bench measures servers from outside.
import { readFileSync } from 'node:fs';

const CLK_TCK = 100; // `getconf CLK_TCK` on Linux x86-64 and arm64

/** User + system CPU time of a whole process (all its threads), in microseconds. 10 ms resolution. */
export function procCpuMicros(pid: number): number {
  const { user, system } = procCpuSplitMicros(pid);
  return user + system;
}

/**
 * A process's CPU time in user space and in the kernel, in microseconds. On loopback the kernel
 * delivers a write to the receiving socket in the writer's time, so a server's system time is
 * mostly its socket writes.
 */
export function procCpuSplitMicros(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name is in parentheses and may contain spaces: split after the last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: (Number(fields[11]) * 1e6) / CLK_TCK, system: (Number(fields[12]) * 1e6) / CLK_TCK };
}

/** Resident set size of a process, in bytes. */
export function procRssBytes(pid: number): number {
  return statusKB(pid, 'VmRSS') * 1024;
}

/** The largest resident set size the process has had since it started, in bytes. */
export function procPeakRssBytes(pid: number): number {
  return statusKB(pid, 'VmHWM') * 1024;
}

function statusKB(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : Number.NaN;
}

export function procAlive(pid: number): boolean {
  try {
    readFileSync(`/proc/${pid}/stat`);
    return true;
  } catch {
    return false;
  }
}

/** Load average and the busiest other processes, to note how loaded the machine was during a run. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** Busy time of each CPU (user+nice+system+irq+softirq+steal), in microseconds, from /proc/stat. */
export function cpuBusyMicros(): number[] {
  const out: number[] = [];
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line);
    if (!m) continue;
    const f = (m[2] as string).trim().split(/\s+/).map(Number);
    const busy = (f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0) + (f[7] ?? 0);
    out[Number(m[1])] = (busy * 1e6) / CLK_TCK;
  }
  return out;
}

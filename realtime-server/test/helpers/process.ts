// The real server as a child process (`node --import tsx src/main.ts`), for tests that send it
// signals: SIGTERM, or SIGKILL to simulate a crash.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort, waitUntil } from './services.ts';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  wsUrl: string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: {
      ...process.env,
      PORT: String(chosen),
      HOST: '127.0.0.1',
      CLIENT_DIR: '',
      PUBLIC_ORIGIN: `http://127.0.0.1:${chosen}`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const url = `http://127.0.0.1:${chosen}`;
  await waitUntil(
    `server process on port ${chosen} answers`,
    () =>
      child.exitCode === null &&
      fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ),
    30_000,
  );
  return {
    child,
    port: chosen,
    url,
    wsUrl: url.replace('http:', 'ws:'),
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

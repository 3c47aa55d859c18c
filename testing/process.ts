// The real server as a child process (serverCommand: the built bundle or the sources), for tests that send it
// signals: SIGTERM, or SIGKILL to simulate a crash.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { postgresUrl, redisUrl, waitUntil } from './services.ts';

/**
 * The environment of server processes that form one cluster: the shared PostgreSQL in `schema`,
 * the shared Redis under a prefix of their own, one SECRET.
 */
export function clusterEnv(schema: string): Record<string, string> {
  return {
    DATABASE_URL: postgresUrl(),
    DATABASE_SCHEMA: schema,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: `test:${randomBytes(5).toString('hex')}:`,
    SECRET: randomBytes(32).toString('base64url'),
    DATA_DIR: '/tmp',
  };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  wsUrl: string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const serverDir = new URL('../realtime-server', import.meta.url).pathname;

/**
 * How a test starts the real server as a process: the compiled bundle (realtime-server/dist) when
 * `npm test` has just built it (scripts/test.mjs sets TANDEM_SERVER_BUILT), which is what
 * `npm start` and the image run; otherwise the sources through tsx (a test file run on its own).
 * tsx costs 2-3 s of CPU at each start, compiling and resolving ~300 modules; the bundle about 0.5.
 */
export function serverCommand(): { args: string[]; cwd: string } {
  return process.env.TANDEM_SERVER_BUILT === '1'
    ? { args: ['dist/main.js'], cwd: serverDir }
    : { args: ['--import', 'tsx', 'src/main.ts'], cwd: serverDir };
}

/** Every child still running; killed when the test process exits, so a failed test leaves none behind. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `src/main.ts` as a child. Without `port` it listens on port 0 (the OS picks a free one as
 * it binds) and reports its URL over IPC; a restart passes the port the first process had.
 */
export async function startProcess(
  env: Record<string, string>,
  port?: number,
  /** Node's arguments and the directory to run in: by default serverCommand's (the bundle or the sources). */
  command: { args: string[]; cwd: string } = serverCommand(),
): Promise<ServerProcess> {
  const child = spawn(process.execPath, command.args, {
    cwd: command.cwd,
    env: {
      ...process.env,
      PORT: String(port ?? 0),
      HOST: '127.0.0.1',
      CLIENT_DIR: '',
      ...(port === undefined ? {} : { PUBLIC_ORIGIN: `http://127.0.0.1:${port}` }),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  running.add(child);
  const exited = once(child, 'exit').then(([code]) => {
    running.delete(child);
    return code as number | null;
  });
  let listening: string | null = null;
  child.on('message', (message: { type?: string; url?: string }) => {
    if (message.type === 'listening' && typeof message.url === 'string') listening = message.url;
  });
  // The channel must not keep the test process alive once the child is done with.
  child.channel?.unref();
  let url = '';
  try {
    // Generous: on a loaded machine, tsx compiling the server on start can take tens of seconds.
    await waitUntil(
      'server process reports where it listens and answers',
      async () => {
        if (child.exitCode !== null || listening === null) return false;
        url = listening;
        return fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      60_000,
    );
  } catch (error) {
    // A process that never answered must not outlive the test (it would keep the runner waiting).
    child.kill('SIGKILL');
    throw error;
  }
  const chosen = Number(new URL(url).port);
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

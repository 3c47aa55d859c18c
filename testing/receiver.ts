// The webhook receiver process (webhook-receiver.mjs) from a test: start it, plan its answers,
// read what it received, and check a delivery's signature the way docs/integrations.md tells a
// receiver to.
import { type ChildProcess, fork } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';

export interface Received {
  name: string;
  at: number;
  headers: Record<string, string>;
  body: string;
  answer: number | 'hang';
}

/** docs/integrations.md's check: `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export function verifySignature(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  return expected.length === parts.v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1));
}

export class Receiver {
  private constructor(
    readonly child: ChildProcess,
    readonly base: string,
  ) {}

  static async start(): Promise<Receiver> {
    const child = fork(new URL('./webhook-receiver.mjs', import.meta.url).pathname, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const [message] = (await once(child, 'message')) as [{ port: number }];
    return new Receiver(child, `http://127.0.0.1:${message.port}`);
  }

  url(name: string): string {
    return `${this.base}/hook/${name}`;
  }

  /** The next answers to requests for `name` (then 200). */
  async plan(name: string, answers: (number | 'hang')[]): Promise<void> {
    await fetch(`${this.base}/_control`, { method: 'POST', body: JSON.stringify({ name, answers }) });
  }

  async received(name?: string): Promise<Received[]> {
    const all = (await (await fetch(`${this.base}/_received`)).json()) as Received[];
    return name === undefined ? all : all.filter((r) => r.name === name);
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

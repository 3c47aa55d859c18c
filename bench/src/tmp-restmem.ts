import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import { startServer } from './servers.ts';
const server = await startServer({ kind: 'tandem', env: { CONTENT_WRITES_PER_MINUTE: '1000000' }, nodeArgs: ['--heapsnapshot-signal=SIGUSR2'] } as never);
const [board] = await server.setupBoards(1);
const key = await server.integrationKey!(board!.id);
const base = server.instances[0]!.httpBase;
const pid = server.instances[0]!.pid;
const rss = () => Number(require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
console.log('rss start', rss());
const inflight: Promise<unknown>[] = [];
const t0 = performance.now();
let n = 0;
for (; n < 500; n++) {
  const due = t0 + n * 20;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  inflight.push(fetch(`${base}/api/v1/boards/${board!.id}/shapes`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ shapes: Array.from({ length: 10 }, (_, i) => ({ type: 'sticky', x: (n % 50) * 220, y: Math.floor(n / 50) * 220 + i * 10, text: `bench ${n}.${i}` })) }) }).then((r) => r.status));
  if (n % 100 === 0) console.log(n, 'rss', rss().toFixed(1));
}
const st = await Promise.all(inflight);
console.log('statuses', st.filter((s) => s === 201).length, 'rss', rss().toFixed(1));
await new Promise((r) => setTimeout(r, 3000));
console.log('after 3s rss', rss().toFixed(1));
console.log(require('node:child_process').execSync(`ls /proc/${pid}/task | wc -l; for t in /proc/${pid}/task/*; do cat $t/comm; done | sort | uniq -c; grep -E 'Rss|Anon' /proc/${pid}/smaps_rollup`).toString());
await new Promise((r) => setTimeout(r, 8000));
console.log('after snapshot rss', rss().toFixed(1));
await server.stop();

// A webhook receiver as a process of its own (plain Node, no build step): the server under test
// calls it over real HTTP. Every request to /hook/<name> is recorded with its headers, raw body
// and arrival time; what it answers is planned per name through /_control. It tells its parent
// where it listens over IPC.
import { createServer } from 'node:http';

/** name → { answers: (number | 'hang')[] } consumed in order; then 200. */
const plans = new Map();
const received = [];

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname === '/_control' && req.method === 'POST') {
      const { name, answers } = JSON.parse(body);
      plans.set(name, answers);
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/_received') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
      return;
    }
    const match = /^\/hook\/([^/]+)$/.exec(url.pathname);
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const name = match[1];
    const answer = plans.get(name)?.shift() ?? 200;
    received.push({ name, at: Date.now(), headers: req.headers, body, answer });
    if (answer === 'hang') return; // never answered: the sender times out, or dies
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
  });
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: server.address().port });
});
process.on('disconnect', () => process.exit(0));

// `npm run dev`: the server with reload on :8080 and, when the client has a dev script, Vite's
// dev server proxying to it. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const clientScripts =
  JSON.parse(readFileSync(new URL('../client/package.json', import.meta.url), 'utf8')).scripts ?? {};
const children = [spawn('npm', ['run', 'dev', '--workspace', 'realtime-server'], { stdio: 'inherit' })];
if (clientScripts.dev)
  children.push(spawn('npm', ['run', 'dev', '--workspace', 'client'], { stdio: 'inherit' }));
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop());

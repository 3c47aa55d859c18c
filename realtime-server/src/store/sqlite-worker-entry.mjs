// Worker threads do not inherit tsx's loader from `--import tsx` on every Node version: register it here.
import { register } from 'tsx/esm/api';

register();
await import('./sqliteWorker.ts');

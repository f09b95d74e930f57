// The entry of an upload worker thread. A worker thread starts as plain Node, without the TypeScript
// loader the server runs under: this registers it, then loads the tasks.
import { register } from 'tsx/esm/api';

register();
const tasks = await import('./tasks.ts');

export default tasks.runTask;

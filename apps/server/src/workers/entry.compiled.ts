// The entry of an upload worker thread in the built server (scripts/build.mjs bundles it as
// dist/server/entry.js, beside the server): the tasks, already compiled. Under tsx, entry.js is used.
import { runTask } from './tasks.ts';

export default runTask;

/**
 * Folders found from this file's place. The built server (scripts/build.mjs) bundles every module
 * into apps/server/dist/server/, as deep as this file in apps/server/src/runtime/, so a path
 * relative to a module two folders below apps/server holds in both: keep such paths here.
 */
import { fileURLToPath } from 'node:url';

/** The built web app, apps/web/dist. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

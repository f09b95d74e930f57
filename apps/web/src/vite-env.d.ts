/// <reference types="vite/client" />

/** Version of the web app, taken from apps/web/package.json at build time (vite.config.ts). */
declare const __APP_VERSION__: string;

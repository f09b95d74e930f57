export declare const MALLOC_TUNABLES: string;
export declare function serverEnv<T extends Record<string, string | undefined>>(
  env: T,
): T & { GLIBC_TUNABLES: string };

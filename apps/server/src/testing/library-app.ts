/**
 * A test app on a generated demo library: the library's files in a temporary folder (removed when
 * the app closes) and every demo role signed in, as the analytics-side API tests each need.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { seedDemoLibrary, type DemoLibraryOptions } from '../seed/library.ts';
import { createLocalFileStorage } from '../storage/file-storage.ts';
import { createTestApp, type DemoRole, type TestApp } from './test-app.ts';

const ROLES = ['admin', 'researcher', 'client', 'sales'] as const;

/**
 * Seeds a library (files under a folder named from `prefix`), starts the app on it and writes each
 * role's token into `tokens`. `readsLibraryFiles`: the app's file storage is the library's folder,
 * for calls that read the results files the library stored.
 */
export async function createLibraryTestApp(
  prefix: string,
  library: DemoLibraryOptions,
  tokens: Partial<Record<DemoRole, string>>,
  options: { readsLibraryFiles?: boolean } = {},
): Promise<TestApp> {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const app = await createTestApp({
    seed: async (database) => {
      await seedDemoLibrary(database, createLocalFileStorage(storageDir), library);
    },
    ...(options.readsLibraryFiles ? { storage: () => createLocalFileStorage(storageDir) } : {}),
  }).catch(async (error: unknown) => {
    await rm(storageDir, { recursive: true, force: true });
    throw error;
  });
  for (const role of ROLES) tokens[role] = await app.login(role);
  return {
    ...app,
    async close() {
      await app.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** The rows of a SQL query on the app's database, for tests that recompute from the raw answers. */
export function sqlRows(app: TestApp) {
  return async <T>(text: string, values: unknown[] = []): Promise<T[]> => {
    const { rows } = await app.database.sql.executeSql(text, values);
    return rows as T[];
  };
}

/** A query string of the parameters that are set. */
export const queryString = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([key, value]) => [key, String(value)] as [string, string]),
  ).toString();

/** Categories with the studies and clients of their verified fragrances with liking answers, largest first. */
export async function likingCategories(app: TestApp) {
  return sqlRows(app)<{ category: string; studies: number; clients: number }>(
    `select s.category, count(distinct s.id)::int as studies, count(distinct s.client)::int as clients
       from studies s join products p on p.study_id = s.id
      where s.verified and p.kind = 'fragrance' and s.category is not null
        and exists (select 1 from answers a join metrics m on m.id = a.metric_id
                     where a.product_id = p.id and m.name = 'liking')
      group by s.category order by studies desc, s.category`,
  );
}

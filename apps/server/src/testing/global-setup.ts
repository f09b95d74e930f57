/**
 * Vitest's global setup of the API tests: makes the template database once for the run (see
 * template-database.ts) and names it to the test processes through the environment.
 */
import { makeTemplate, TEMPLATE_ENV } from './template-database.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const template = await makeTemplate();
  process.env[TEMPLATE_ENV] = template.value;
  return async () => {
    delete process.env[TEMPLATE_ENV];
    await template.remove();
  };
}

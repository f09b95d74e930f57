// The migrations that fill and maintain product_metric_demo_stats hold the statement of
// demographic-stats.ts: the same box rules and tolerance as the analytics queries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { insertDemographicStatsSql } from './demographic-stats.ts';

const migration = (name: string) =>
  readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle', name), 'utf8');

describe('product_metric_demo_stats migrations', () => {
  it('fill the table from the answers with the shared statement', () => {
    expect(migration('0004_demographic_stats.sql')).toContain(insertDemographicStatsSql('true'));
  });

  it('add the statistics of new answers and recompute those of updated or deleted ones', () => {
    const triggers = migration('0005_demographic_stats_triggers.sql');
    expect(triggers).toContain(insertDemographicStatsSql('true', 'new_answers'));
    expect(triggers).toContain(
      insertDemographicStatsSql('(a.metric_id, a.product_id) IN (SELECT metric_id, product_id FROM touched)'),
    );
    for (const event of ['INSERT', 'UPDATE', 'DELETE'])
      expect(triggers).toContain(`AFTER ${event} ON "answers"`);
  });

  it('add them unless the inserting transaction stores them itself', () => {
    const upkeep = migration('0010_answers_statistics_upkeep.sql');
    expect(upkeep).toContain(insertDemographicStatsSql('true', 'new_answers'));
    expect(upkeep).toContain("IF current_setting('accord.demo_stats_by_caller', true) = 'on' THEN");
  });
});

import { describe, expect, it } from 'vitest';
import { isReplicaRead } from './read-routing.ts';

describe('isReplicaRead', () => {
  it('sends plain reads of the library to a replica', () => {
    expect(isReplicaRead('select id, name from metrics order by id')).toBe(true);
    expect(isReplicaRead('  WITH x as (select 1) select * from x')).toBe(true);
    expect(isReplicaRead('(select 1) union (select 2)')).toBe(true);
    // Column names that contain a writing word are still reads.
    expect(isReplicaRead('select updated_at, created_at, deleted from studies')).toBe(true);
  });

  it('keeps writes, locks and sequence values on the primary', () => {
    expect(isReplicaRead('insert into studies (name) values ($1)')).toBe(false);
    expect(isReplicaRead('update studies set name = $1')).toBe(false);
    expect(isReplicaRead('with gone as (delete from answers returning 1) select count(*) from gone')).toBe(
      false,
    );
    expect(isReplicaRead('select * from studies where id = $1 for update')).toBe(false);
    expect(isReplicaRead('select * from studies for no key update')).toBe(false);
    expect(isReplicaRead("select nextval('studies_id_seq')")).toBe(false);
    expect(isReplicaRead('select pg_advisory_lock(1)')).toBe(false);
    expect(isReplicaRead("select pg_notify('accord_jobs', $1)")).toBe(false);
    expect(isReplicaRead('begin')).toBe(false);
  });

  it('keeps rows that change outside the library counters on the primary', () => {
    expect(isReplicaRead('select status, result from job_results where id = $1')).toBe(false);
    expect(isReplicaRead('select * from pgboss.job')).toBe(false);
    expect(isReplicaRead('select * from sessions where id = $1')).toBe(false);
    expect(isReplicaRead('select table_name, version from data_versions')).toBe(false);
  });
});

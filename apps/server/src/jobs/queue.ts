/**
 * The background job queue (pg-boss) on the application's own database, so jobs survive a restart
 * and can run in separate worker processes. Features register their queues and workers here.
 */
import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';

export interface JobQueue {
  boss: PgBoss;
  stop(): Promise<void>;
}

export async function startJobQueue(database: Database): Promise<JobQueue> {
  // pg-boss accepts any object with executeSql; both engines provide one.
  const boss = new PgBoss({
    db: database.sql,
    schema: 'pgboss',
    supervise: true,
    schedule: false,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (error) => console.error('job queue:', error));
  await boss.start();
  return {
    boss,
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}

import { describe, expect, it } from 'vitest';
import { loadConfig, parseLogLevel, parseSwitch, parseWebConcurrency } from './config.ts';

const PG = 'postgres://u:p@db:5432/accord';

describe('parseWebConcurrency', () => {
  it('is one process on the embedded database, whatever is asked', () => {
    expect(parseWebConcurrency(undefined, undefined, 8)).toBe(1);
    expect(parseWebConcurrency('4', undefined, 8)).toBe(1);
  });

  it('is the number of cores on PostgreSQL by default, else the number asked', () => {
    expect(parseWebConcurrency(undefined, PG, 8)).toBe(8);
    expect(parseWebConcurrency('', PG, 2)).toBe(2);
    expect(parseWebConcurrency('3', PG, 8)).toBe(3);
  });

  it('refuses what is not a whole number of processes', () => {
    for (const bad of ['0', '-1', '1.5', 'many'])
      expect(() => parseWebConcurrency(bad, PG, 8)).toThrow(/WEB_CONCURRENCY must be a whole number/);
  });
});

describe('parseSwitch', () => {
  it('reads on and off words, and the default when unset', () => {
    expect(parseSwitch(undefined, true)).toBe(true);
    expect(parseSwitch('', false)).toBe(false);
    for (const off of ['0', 'false', 'OFF', 'no']) expect(parseSwitch(off, true)).toBe(false);
    for (const on of ['1', 'true', 'on', 'yes']) expect(parseSwitch(on, false)).toBe(true);
  });
});

describe('loadConfig', () => {
  it('reads the read replicas as a comma-separated list and the process settings', () => {
    const config = loadConfig({
      DATABASE_URL: PG,
      DATABASE_READ_URL: ' postgres://r1/accord, ,postgres://r2/accord ',
      WEB_CONCURRENCY: '2',
      ACCORD_JOB_WORKERS: 'off',
    });
    expect(config.databaseReadUrls).toEqual(['postgres://r1/accord', 'postgres://r2/accord']);
    expect(config.webConcurrency).toBe(2);
    expect(config.jobWorkers).toBe(false);
    expect(config.warmUp).toBe(true);
    expect(loadConfig({}).jobWorkers).toBe(true);
  });
});

describe('parseLogLevel', () => {
  it('is info by default and reads any of the levels in any letter case', () => {
    expect(parseLogLevel(undefined)).toBe('info');
    expect(parseLogLevel(' ')).toBe('info');
    expect(parseLogLevel('WARN')).toBe('warn');
    expect(parseLogLevel('silent')).toBe('silent');
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });

  it('refuses a level that does not exist, naming the ones that do', () => {
    expect(() => parseLogLevel('verbose')).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info/);
  });
});

describe('ACCORD_SOURCE_MAPS', () => {
  it('is off unless switched on', () => {
    expect(loadConfig({}).sourceMaps).toBe(false);
    expect(loadConfig({ ACCORD_SOURCE_MAPS: 'on' }).sourceMaps).toBe(true);
  });
});

export * from './constants.ts';
export * from './common.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './settings.ts';
export * from './fields.ts';
export * from './saved-searches.ts';
export * from './browser.ts';

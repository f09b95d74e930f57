/** The demo library generator: reference data, demo users, a deterministic library of studies. */
export { seedReferenceData } from './reference-data.ts';
export { seedUsers, DEMO_USERS, type DemoUser } from './users.ts';
export {
  seedDemoLibrary,
  type DemoLibraryOptions,
  type DemoLibrarySummary,
  type SeedPhase,
} from './library.ts';
export { seedIfEmpty, demoLoginsText, type SeedConfig, type SeedResult } from './seed-if-empty.ts';
export { createProgressBar, formatDuration } from './progress.ts';
export {
  planStudy,
  generateAnswers,
  DEFAULT_SHAPE,
  type LibraryShape,
  type StudyPlan,
} from './study-plan.ts';
export { harmoniseToFivePoint } from './latent-model.ts';
export { METRICS, ROLES, FIELD_DEFINITIONS } from './catalogue.ts';

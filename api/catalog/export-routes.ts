/** Moved to ./export/routes.ts; this re-export stays until api/app.ts and test/fuzz/ import it from there. */
export * from './export/routes.ts';

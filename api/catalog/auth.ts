/** Moved to ./auth/auth.ts; this re-export stays until api/app.ts and test/fuzz/ import it from there. */
export * from './auth/auth.ts';

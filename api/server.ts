/**
 * Entry of the api process: configuration, services, app, listen; ordered shutdown on SIGTERM
 * (stop accepting, let running jobs finish within SHUTDOWN_GRACE_MS, close pool and store).
 * Without REDIS_URL this one process is the whole service (inline runner, embedded store).
 */
import closeWithGrace from 'close-with-grace';
import { graceOptions } from '../shared/shutdown.ts';
import { loadConfigOrExit } from '../shared/config.ts';
import { seedDemoIfEmpty } from './catalog/import/demo.ts';
import { buildApp } from './app.ts';
import { createServices } from './services.ts';

const config = loadConfigOrExit();

const services = await createServices(config).catch((e: Error) => {
  console.error(`Cannot start: ${e.message}`);
  process.exit(1);
});
const app = await buildApp({
  services,
  logger: { level: config.LOG_LEVEL },
});

closeWithGrace(graceOptions(config.SHUTDOWN_GRACE_MS + 5_000), async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'fatal error, shutting down');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
  await services.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
// A newcomer's empty embedded catalog fills with the LOTUS demo set in the background (the api
// answers meanwhile; /health reports progress).
if (config.SEED_DEMO) services.seed = await seedDemoIfEmpty(services.store, { derive: services.derive, log: app.log });
// The structure-search index: fingerprints for molecules stored without them, then the index
// (inline) or its copy in Redis (distributed); /health reports progress.
services.searchIndex.start().catch((err: unknown) => app.log.error({ err }, 'structure search index failed'));
app.log.info(
  { jobs: services.runner.kind, store: config.MONGO_URL ? 'mongo' : 'embedded', threads: services.pool ? config.WORKERS : 0, version: config.RELEASE_VERSION },
  'natprod ready',
);

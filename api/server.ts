/**
 * Entry of the api process: configuration, logger, services (the composition root,
 * api/services.ts), app, listen; ordered shutdown on SIGTERM (stop accepting, let running jobs
 * finish within SHUTDOWN_GRACE_MS, then close everything the services built, each step even when
 * one fails). Without REDIS_URL this one process is the whole service (inline runner, embedded store).
 */
import closeWithGrace from 'close-with-grace';
import { graceOptions } from '../shared/shutdown.ts';
import { loadConfigOrExit } from '../shared/config.ts';
import { createLogger } from '../shared/log.ts';
import { seedDemoIfEmpty } from './catalog/import/demo.ts';
import { buildApp } from './app.ts';
import { createServices } from './services.ts';
import { webBundle } from './web/bundle.ts';

const config = loadConfigOrExit();
const log = createLogger({ level: config.LOG_LEVEL, role: 'api' });

const services = await createServices(config, { log }).catch((err: Error) => {
  log.fatal({ err }, `Cannot start: ${err.message}`);
  log.flush();
  process.exit(1);
});
const app = await buildApp({ services });

closeWithGrace(graceOptions(config.SHUTDOWN_GRACE_MS + 5_000), async ({ signal, err }) => {
  if (err) log.error({ err }, 'fatal error, shutting down');
  else log.info({ signal }, 'shutting down');
  await app.close().catch((e: unknown) => log.error({ err: e }, 'shutdown: closing the HTTP server failed; going on'));
  await services.close();
  log.flush();
});

await app.listen({ port: config.PORT, host: config.HOST });
// The web interface's bundle (3-4 s with Ketcher), built now rather than on the first visit.
webBundle().catch((err: unknown) => log.error({ err }, 'web interface: bundling failed'));
// A newcomer's empty embedded catalog fills with the LOTUS demo set in the background (the api
// answers meanwhile; /health reports progress).
if (config.SEED_DEMO) services.seed = await seedDemoIfEmpty(services.store, { derive: services.derive, log });
// The structure-search index: fingerprints for molecules stored without them, then the index
// (inline) or its copy in Redis (distributed); /health reports progress.
services.searchIndex.start().catch((err: unknown) => log.error({ err }, 'structure search index failed'));
log.info(
  { jobs: services.runner.kind, store: config.MONGO_URL ? 'mongo' : 'embedded', threads: services.pool ? config.WORKERS : 0, version: config.RELEASE_VERSION },
  'natprod ready',
);

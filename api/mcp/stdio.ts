/**
 * MCP over stdio (`npm run mcp:stdio`), for assistants that start the server themselves. The same
 * tools on the same services as the HTTP server: the inline runner, or BullMQ with REDIS_URL,
 * and `search_catalog` on the catalog of DATA_DIR (or MONGO_URL), whose structure-search index
 * this process builds at start (inline; with REDIS_URL the workers' copy is used).
 * stdout carries the protocol, so every log line goes to stderr.
 *
 * The catalog tools that need a role (get_molecule, list_molecules, export_molecules,
 * export_status, submit_report, the resources) act as the user of the token in NATPROD_TOKEN
 * (`<id>|<secret>`, as `npm run token` prints it); without one they answer 401.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfigOrExit } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';
import { createServices } from '../services.ts';
import { createMcpServer } from './tools.ts';
import { authenticate } from '../catalog/auth/auth.ts';
import { exportOptions } from '../catalog/export/routes.ts';
import { McpExports } from './export-tool.ts';

const config = loadConfigOrExit();
const log = createLogger({ level: config.LOG_LEVEL, role: 'mcp-stdio', fd: 2 });

const services = await createServices(config, { log });
const token = process.env.NATPROD_TOKEN?.trim().replace(/^Bearer\s+/i, '');
const exportJobs = new McpExports(exportOptions(config, services.runner), { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) });
const server = createMcpServer({
  version: config.RELEASE_VERSION,
  longWaitMs: config.LONG_TASK_TIMEOUT_MS,
  context: () => ({ runner: services.runner, config, store: services.store, baseUrl: `http://localhost:${config.PORT}`, prefix: '' }),
  structure: services.structure,
  user: () => authenticate(services.store, token ? `Bearer ${token}` : undefined),
  exportJobs,
  imports: services.imports,
});
const transport = new StdioServerTransport();
transport.onclose = () => void exportJobs.close().then(() => services.close()).then(() => process.exit(0));
await server.connect(transport);
log.info({ jobs: services.runner.kind }, 'natprod MCP server on stdio');
// search_catalog answers 503 until the index is built (seconds for the demo set).
services.searchIndex.start().catch((err: unknown) => log.error({ err }, 'structure search index failed'));

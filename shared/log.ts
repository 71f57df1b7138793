/**
 * One logger for every process: pino (Fastify's own), JSON lines with `role` and `pid`. The api
 * hands the same instance to Fastify (`loggerInstance`), so request logs, the composition root's
 * and the chemistry pool's lines share one format and one level (LOG_LEVEL). MCP over stdio logs
 * to stderr, since its stdout carries the protocol.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export interface LogOptions {
  level: string;
  role: 'api' | 'worker' | 'mcp-stdio' | 'cli';
  /** 2: stderr (MCP over stdio, CLIs); default stdout. */
  fd?: 1 | 2;
}

export function createLogger(opts: LogOptions): Logger {
  return pino({ level: opts.level, base: { role: opts.role, pid: process.pid } }, pino.destination({ fd: opts.fd ?? 1, sync: false }));
}

/** A logger that writes nothing (tests, tools that pass no logger). */
export const silentLogger: Logger = pino({ level: 'silent' });

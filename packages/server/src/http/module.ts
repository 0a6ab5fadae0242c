import type { FastifyInstance } from 'fastify';
import type { Job } from '../db/jobs.js';
import type { CallRegistry } from './calls.js';
import type { ServiceCalls } from './service-calls.js';

/** What a module registers itself on. */
export interface ModuleHost {
  /** The Fastify app, for routes outside the protocol's calls (downloads, webhooks, pages) and hooks. */
  app: FastifyInstance;
  /** The protocol's calls (`POST /api/...`, JSON in and out). */
  calls: CallRegistry;
  /** The generic service calls (`POST /{servicePath}`, JSON or multipart). */
  services: ServiceCalls;
}

/**
 * A domain module, or the flows above them. Each is built from what it needs (constructor
 * arguments, never another module's internals) and then registers its calls the same way, so the
 * app is a list of modules and a new one needs no other module to change.
 */
export interface TillModule {
  readonly name: string;
  register(host: ModuleHost): Promise<void> | void;
  /** Housekeeping it runs on a schedule, once across all instances (a lease in the database). */
  jobs?(): Job[];
}

import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { AnswerCheck } from './http/answer-check.js';
import type { Mailer } from './mail/mailer.js';
import type { PasswordHasher } from './security/passwords.js';
import type { SecurityEvents } from './security/security-events.js';

/** What the app is built on, once per app: handed to the modules' constructors, never imported by them. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  redis: Redis | undefined;
  now: () => number;
}

export interface BuildOptions {
  /** Use this database instead of opening `config.databaseUrl` (it is not closed with the app). */
  db?: Db;
  /** Use this mailer instead of the configured one. */
  mailer?: Mailer;
  /** The clock, for tests of expiry. */
  now?: () => number;
  /** Pino logger options, or false to log nothing. */
  logger?: boolean | Record<string, unknown>;
  /** Run the housekeeping jobs on their schedule (default true; tests run turns themselves). */
  jobs?: boolean;
  /** Check every answer against its call's declared schema (tests). */
  answerCheck?: AnswerCheck;
  /** Where security events go instead of the log (tests record them). */
  securityEvents?: SecurityEvents;
  /** How passwords are hashed: test servers whose tests are not about hashing pass cheap settings. */
  passwords?: PasswordHasher;
  /**
   * How far below the event loop a backup's thread runs (Linux nice; 10 by default). Test servers pass
   * 0 where the priority is not under test: beside a test run's other processes a niced thread waits
   * behind all of them.
   */
  backupThreadNice?: number;
}

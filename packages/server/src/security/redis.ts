import type { FastifyBaseLogger } from 'fastify';
import type { Redis, RedisOptions } from 'ioredis';

/**
 * How the shared counters' Redis client behaves when Redis is away. Rate limits fall back to
 * per-instance counters when a command fails, so a command must fail fast instead of waiting:
 * nothing is queued while disconnected (a stopped or unreachable Redis is noticed at once, with no
 * time-out to wait for), a command gets one retry at most, and one that Redis does not answer within
 * two seconds counts as failed (a hung connection refuses nothing by itself). The time-out is timed
 * on this process's event loop, so it also counts the loop's own stalls: at half a second, a busy
 * machine made answers Redis had sent in time count as failed, and each such call spent its point in a
 * fresh per-instance counter, letting concurrent guesses past a shared failure budget.
 * The client keeps reconnecting in the background and the counters go back to Redis once it answers.
 */
export const redisOptions: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 2000,
  connectTimeout: 2000,
  // Back off to one attempt every two seconds, forever: Redis coming back should be noticed soon.
  retryStrategy: (times) => Math.min(times * 100, 2000),
};

/** Whether the client can take commands now (`ready`), for the health check. */
export const redisUp = (redis: Redis): boolean => redis.status === 'ready';

/**
 * Logs a lost Redis once, when it goes (not on every failed reconnect), and again when it is back.
 * The listener on `error` also keeps ioredis from printing each reconnect failure by itself.
 * Answers the function to call before closing the client on purpose, which is no outage.
 */
export function watchRedis(redis: Redis, log: FastifyBaseLogger): () => void {
  let up = true;
  let closing = false;
  const lost = (err?: Error) => {
    if (!up || closing) return;
    up = false;
    log.warn(
      { err: err && { message: err.message, code: (err as { code?: string }).code } },
      'Redis is unreachable: rate limits fall back to per-instance counters until it answers again',
    );
  };
  redis.on('error', (err: Error) => lost(err));
  redis.on('close', () => lost());
  redis.on('ready', () => {
    if (up) return;
    up = true;
    log.info('Redis is reachable again: rate limits are shared through it');
  });
  return () => {
    closing = true;
  };
}

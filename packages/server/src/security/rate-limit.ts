import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** A named budget: `points` events per `duration` seconds per key. */
export interface Budget {
  points: number;
  duration: number;
}

/** Counts events per key; shared across server copies when backed by Redis. */
export class Limiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(prefix: string, budget: Budget, redis?: Redis) {
    const memory = new RateLimiterMemory({ keyPrefix: prefix, ...budget });
    // Without Redis the budget is counted in this process alone: a budget per copy is still a
    // budget, while refusing (or stalling) every login until Redis returns would lock everyone out.
    // `rejectIfRedisNotReady` sends calls to the memory counters at once while the client is down,
    // instead of letting each one fail on its own.
    this.limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `till:${prefix}`,
          ...budget,
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        })
      : memory;
  }

  /**
   * Spends one point; answers the seconds to wait when the budget is gone, else 0. The spend is one
   * atomic step (an increment in Redis or in memory), so concurrent callers can never all slip under
   * the budget: spend first, then do the guarded work, and {@link refund} the point if it turns out
   * not to count.
   */
  async hit(key: string): Promise<number> {
    try {
      await this.limiter.consume(key, 1);
      return 0;
    } catch (error) {
      if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw error;
    }
  }

  /** The seconds to wait if the budget is already gone, without spending; else 0. */
  async blockedFor(key: string): Promise<number> {
    const res = await this.limiter.get(key);
    if (res && res.remainingPoints <= 0) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return 0;
  }

  /** Gives back a point spent by {@link hit} for something that turned out not to count. */
  async refund(key: string): Promise<void> {
    await this.limiter.reward(key, 1);
  }

  /** Forgets a key (after a successful login, for example). */
  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

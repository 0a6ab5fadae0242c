import type { Db } from './connect.js';

/**
 * Values read from some tables, kept until a commit writes to one of them ({@link Db.version}, SQLite
 * only: elsewhere nothing is kept). A lookup calls {@link begin} before it reads, {@link get} for
 * what is kept, and {@link keep} with the version `begin` gave once it has read: a value read before a
 * commit that another lookup has already seen is not kept. Why: docs/decisions/003-values-kept-between-commits.md.
 */
export class CommitMemo<V> {
  private readonly kept = new Map<string, V>();
  private keptAt = -1;

  constructor(
    private readonly version: Db['version'],
    private readonly tables: readonly string[],
    /** At most this many values; the memo is emptied when full. */
    private readonly limit: number,
  ) {}

  /** The tables' version now (undefined where nothing is kept); what was kept before a change is gone. */
  begin(): number | undefined {
    const version = this.version?.(this.tables);
    if (version !== undefined && version !== this.keptAt) {
      this.kept.clear();
      this.keptAt = version;
    }
    return version;
  }

  get(key: string): V | undefined {
    return this.kept.get(key);
  }

  /**
   * The value kept for `key`, or else what `load` reads, kept (frozen) when `keepable` says so: a lookup
   * that is nothing but {@link begin}, {@link get} and {@link keep} in that order.
   */
  async read<T extends V & object>(
    key: string,
    load: () => Promise<T | undefined>,
    keepable: (value: T) => boolean = () => true,
  ): Promise<V | undefined> {
    const version = this.begin();
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const value = await load();
    // Frozen only when kept: where nothing is kept (PostgreSQL), the caller has a value of its own.
    if (value !== undefined && version !== undefined && keepable(value)) this.keep(key, Object.freeze(value), version);
    return value;
  }

  /** Keeps a value read at `version` (from {@link begin}), unless a later commit has been seen since. */
  keep(key: string, value: V, version: number | undefined): void {
    if (version === undefined || version !== this.keptAt) return;
    if (this.kept.size >= this.limit) this.kept.clear();
    this.kept.set(key, value);
  }
}

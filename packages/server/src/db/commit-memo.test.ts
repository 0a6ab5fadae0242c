import { describe, expect, it } from 'vitest';
import { CommitMemo } from './commit-memo.js';

describe('values kept between commits', () => {
  /** A version function over per-table commit counts that the test moves by hand. */
  const counts = () => {
    const commits = new Map<string, number>();
    return {
      version: (tables: readonly string[]) => tables.reduce((sum, t) => sum + (commits.get(t) ?? 0), 0),
      commit: (table: string) => commits.set(table, (commits.get(table) ?? 0) + 1),
    };
  };

  it('keeps a value until a commit writes one of its tables', () => {
    const db = counts();
    const memo = new CommitMemo<string>(db.version, ['products'], 10);
    memo.keep('gem', 'row', memo.begin());
    memo.begin();
    expect(memo.get('gem')).toBe('row');
    db.commit('orders');
    memo.begin();
    expect(memo.get('gem')).toBe('row');
    db.commit('products');
    memo.begin();
    expect(memo.get('gem')).toBeUndefined();
  });

  it('does not keep what was read before a commit another lookup has already seen', () => {
    const db = counts();
    const memo = new CommitMemo<string>(db.version, ['products'], 10);
    const slow = memo.begin();
    db.commit('products');
    memo.begin();
    memo.keep('gem', 'old row', slow);
    expect(memo.get('gem')).toBeUndefined();
  });

  it('keeps nothing where the database counts no commits, and empties itself when full', () => {
    const none = new CommitMemo<string>(undefined, ['products'], 10);
    const at = none.begin();
    expect(at).toBeUndefined();
    none.keep('gem', 'row', at);
    expect(none.get('gem')).toBeUndefined();
    const db = counts();
    const small = new CommitMemo<string>(db.version, ['products'], 2);
    const v = small.begin();
    small.keep('a', '1', v);
    small.keep('b', '2', v);
    small.keep('c', '3', v);
    expect([small.get('a'), small.get('b'), small.get('c')]).toEqual([undefined, undefined, '3']);
  });
});

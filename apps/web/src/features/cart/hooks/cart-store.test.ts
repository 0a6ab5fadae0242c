import { describe, expect, it } from 'vitest';
import { CartStore, cartIds } from './cart-store';

describe('CartStore', () => {
  it('adds, counts, changes and removes lines, and keeps them in storage', () => {
    const cart = new CartStore(localStorage);
    cart.add('a');
    cart.add('a');
    cart.add('b');
    expect(cart.snapshot).toEqual([
      { id: 'a', quantity: 2 },
      { id: 'b', quantity: 1 },
    ]);
    cart.setQuantity('a', 0);
    expect(cart.count).toBe(1);
    expect(new CartStore(localStorage).snapshot).toEqual([{ id: 'b', quantity: 1 }]);
  });

  it('ignores a stored cart that is not a list of lines', () => {
    localStorage.setItem('till:cart', '{"id":1}');
    expect(new CartStore(localStorage).snapshot).toEqual([]);
    localStorage.setItem('till:cart', '[{"id":"a","quantity":-3},{"id":"b","quantity":2}]');
    expect(new CartStore(localStorage).snapshot).toEqual([{ id: 'b', quantity: 2 }]);
  });

  it('repeats each id by its quantity for the protocol', () => {
    expect(
      cartIds([
        { id: 'a', quantity: 2 },
        { id: 'b', quantity: 1 },
      ]),
    ).toEqual(['a', 'a', 'b']);
  });
});

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

  it('keeps a checked-out cart until that order is paid, across a reload', () => {
    const cart = new CartStore(localStorage);
    cart.add('a');
    cart.checkedOut('o1');
    // Back from the provider's page: a new page load reads the cart and its order again.
    const again = new CartStore(localStorage);
    expect(again.snapshot).toEqual([{ id: 'a', quantity: 1 }]);
    expect(again.checkedOutAs).toBe('o1');
    again.orderPaid('o2');
    expect(again.snapshot).toHaveLength(1);
    again.orderPaid('o1');
    expect(again.snapshot).toEqual([]);
    expect(new CartStore(localStorage).checkedOutAs).toBeNull();
  });

  it('forgets the order once the cart is changed, so that paying it does not empty the new cart', () => {
    const cart = new CartStore(localStorage);
    cart.add('a');
    cart.checkedOut('o1');
    cart.add('b');
    expect(cart.checkedOutAs).toBeNull();
    cart.orderPaid('o1');
    expect(cart.snapshot).toHaveLength(2);
  });

  it("puts an order's lines back, keeping the rest and the larger quantity", () => {
    const cart = new CartStore(null);
    cart.add('a', 3);
    cart.add('c');
    cart.restore([
      { id: 'a', quantity: 1 },
      { id: 'b', quantity: 2 },
    ]);
    expect(cart.snapshot).toEqual([
      { id: 'a', quantity: 3 },
      { id: 'c', quantity: 1 },
      { id: 'b', quantity: 2 },
    ]);
    // A cart that holds the order's lines already is left as it is, its order included.
    cart.checkedOut('o1');
    cart.restore([{ id: 'b', quantity: 1 }]);
    expect(cart.checkedOutAs).toBe('o1');
  });
});

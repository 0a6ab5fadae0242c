/** One line of the cart: a product id and how many. */
export interface CartLine {
  id: string;
  quantity: number;
}

type Listener = () => void;

const MAX_QUANTITY = 99;

/**
 * The cart, kept in the browser's storage so that it survives a reload and the trip to sign in.
 * Built per app (the provider makes one), never a module singleton.
 *
 * A checkout does not empty it: a payment can be declined or left half way on the provider's page,
 * and the buyer then still has the cart. It remembers the order it was checked out as, and empties
 * itself once that order is paid ({@link orderPaid}). Changing the cart afterwards forgets the
 * order: the cart no longer holds what the order does, and must not vanish when the order is paid.
 */
export class CartStore {
  private lines: CartLine[];
  private order: string | null;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null,
    private readonly key = 'till:cart',
  ) {
    this.lines = this.read();
    this.order = this.readOrder();
  }

  get snapshot(): readonly CartLine[] {
    return this.lines;
  }

  get count(): number {
    return this.lines.reduce((n, l) => n + l.quantity, 0);
  }

  /** The order this cart was last checked out as, while the cart is unchanged since. */
  get checkedOutAs(): string | null {
    return this.order;
  }

  add(id: string, quantity = 1): void {
    const found = this.lines.find((l) => l.id === id);
    this.lines = found
      ? this.lines.map((l) => (l.id === id ? { ...l, quantity: Math.min(MAX_QUANTITY, l.quantity + quantity) } : l))
      : [...this.lines, { id, quantity: Math.min(MAX_QUANTITY, quantity) }];
    this.changed();
  }

  setQuantity(id: string, quantity: number): void {
    if (quantity < 1) return this.remove(id);
    this.lines = this.lines.map((l) =>
      l.id === id ? { ...l, quantity: Math.min(MAX_QUANTITY, Math.floor(quantity)) } : l,
    );
    this.changed();
  }

  remove(id: string): void {
    this.lines = this.lines.filter((l) => l.id !== id);
    this.changed();
  }

  clear(): void {
    this.lines = [];
    this.changed();
  }

  /** The cart has just been checked out as this order, which is not paid yet. */
  checkedOut(iden: string): void {
    this.order = iden;
    this.writeOrder();
  }

  /** An order turned paid: empties the cart when it is the one the cart was checked out as. */
  orderPaid(iden: string): void {
    if (this.order === iden) this.clear();
  }

  /**
   * Puts an order's lines back (to pay for them again after a failed or cancelled payment), keeping
   * what else the cart holds; a line already there keeps the larger of the two quantities.
   */
  restore(lines: readonly CartLine[]): void {
    if (lines.every((l) => this.lines.some((c) => c.id === l.id && c.quantity >= l.quantity))) return;
    const wanted = new Map(lines.map((l) => [l.id, Math.min(MAX_QUANTITY, l.quantity)]));
    const next = this.lines.map((c) => ({ ...c, quantity: Math.max(c.quantity, wanted.get(c.id) ?? 0) }));
    for (const [id, quantity] of wanted) if (!next.some((c) => c.id === id)) next.push({ id, quantity });
    this.lines = next;
    this.changed();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private read(): CartLine[] {
    try {
      const raw = this.storage?.getItem(this.key);
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      if (!Array.isArray(parsed)) return [];
      return parsed.filter(
        (l): l is CartLine => typeof l?.id === 'string' && Number.isInteger(l?.quantity) && l.quantity > 0,
      );
    } catch {
      return [];
    }
  }

  private readOrder(): string | null {
    try {
      const raw = this.storage?.getItem(`${this.key}:order`);
      return raw ? raw : null;
    } catch {
      return null;
    }
  }

  private writeOrder(): void {
    try {
      this.storage?.setItem(`${this.key}:order`, this.order ?? '');
    } catch {
      // Storage full or disabled: the cart is then kept after the payment, never lost.
    }
  }

  private changed(): void {
    try {
      this.storage?.setItem(this.key, JSON.stringify(this.lines));
    } catch {
      // Storage full or disabled: the cart still works for this visit.
    }
    if (this.order !== null) {
      this.order = null;
      this.writeOrder();
    }
    for (const l of [...this.listeners]) l();
  }
}

/** Ids as the protocol wants them: each id repeated by its quantity. */
export function cartIds(lines: readonly CartLine[]): string[] {
  return lines.flatMap((l) => Array.from({ length: l.quantity }, () => l.id));
}

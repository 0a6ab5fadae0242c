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
 */
export class CartStore {
  private lines: CartLine[];
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null,
    private readonly key = 'till:cart',
  ) {
    this.lines = this.read();
  }

  get snapshot(): readonly CartLine[] {
    return this.lines;
  }

  get count(): number {
    return this.lines.reduce((n, l) => n + l.quantity, 0);
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

  private changed(): void {
    try {
      this.storage?.setItem(this.key, JSON.stringify(this.lines));
    } catch {
      // Storage full or disabled: the cart still works for this visit.
    }
    for (const l of [...this.listeners]) l();
  }
}

/** Ids as the protocol wants them: each id repeated by its quantity. */
export function cartIds(lines: readonly CartLine[]): string[] {
  return lines.flatMap((l) => Array.from({ length: l.quantity }, () => l.id));
}

// The `paymentwall` library ships no types; this is the part of its API the tests check against.
declare module 'paymentwall' {
  type Value = string | number | boolean | null | undefined | readonly unknown[] | Record<string, unknown>;

  export const Base: { API_VC: 1; API_GOODS: 2; API_CART: 3 };

  export function Configure(apiType: number, appKey: string, secretKey: string): void;

  export interface Product {
    readonly productId: string;
  }
  export const Product: {
    TYPE_SUBSCRIPTION: 'subscription';
    TYPE_FIXED: 'fixed';
    new (
      productId: string,
      amount?: number,
      currencyCode?: string | null,
      name?: string | null,
      productType?: string,
      periodLength?: number,
      periodType?: string | null,
      recurring?: boolean,
    ): Product;
  };

  export class Widget {
    constructor(userId: string, widgetCode: string, products: Product[], extraParams?: Record<string, Value>);
    getUrl(): string;
  }

  export class Pingback {
    constructor(parameters: Record<string, Value> | string, ipAddress: string);
    validate(skipIpWhitelistCheck?: boolean): boolean;
    getErrorSummary(): string;
  }

  export const WidgetSignature: {
    calculateSignature(params: Record<string, Value>, secret: string, version: number | string): string;
  };

  export const PingbackSignature: {
    calculateSignature(params: Record<string, Value>, secret: string, version: number | string): string;
  };
}

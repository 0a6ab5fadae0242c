import type { Product, Provider, SocialProvider } from '@till/protocol';
import type { PurchaseFlowOptions, PurchaseProduct, RestoreResult, StoreMessage } from '@till/client';

/** Where a saved file went, so that the app can say so and offer to open or share it. */
export interface SavedFile {
  name: string;
  /** The browser's downloads, Android's shared Download folder, or the iOS app's Documents (Files app). */
  where: 'downloads' | 'download-folder' | 'documents';
  /** The file's native address (phones only): what opening or sharing hands on. */
  uri?: string;
}

/**
 * What a saved file holds: bytes, text (written as UTF-8), or the address of a file to fetch (a link
 * the server answered). Kept apart so that text is never taken for an address, nor an address for text.
 */
export type FileContent = { blob: Blob } | { text: string } | { url: string };

/** The platform's own in-app store, named as the server's payment routes are. */
export type InAppStore = Extract<Provider, 'appstore' | 'googleplay'>;

/** What a provider's native sign-in sheet answered: its ID token, and the name Apple gives once. */
export interface NativeSocialAnswer {
  idToken: string;
  name?: string;
}

/** What differs between the browser and the native shells, behind one interface. */
export interface Platform {
  readonly kind: 'web' | 'android' | 'ios';
  /** Hands a file to the user: a download in the browser, a saved document on a phone. */
  saveFile(name: string, content: FileContent): Promise<SavedFile>;
  /** Whether a saved file can be opened or shared from the app (phones: the system share sheet). */
  readonly canOpenSaved: boolean;
  /** Opens or shares a saved file with the system's sheet. */
  openFile(file: SavedFile): Promise<void>;
  /** Lets the user choose an image from the photo library; scaled to fit the box, null when cancelled. */
  pickImage(box?: { maxWidth: number; maxHeight: number }): Promise<File | null>;
  /**
   * Reads config file `<name>.json` from the app's persistent storage: the defaults when it is
   * absent; a file that is not JSON of the defaults' kind is reported and replaced by them.
   */
  readConfig<T>(name: string, defaults: T): Promise<T>;
  /** Writes config file `<name>.json` to the app's persistent storage. */
  writeConfig(name: string, value: unknown): Promise<void>;
  /** Calls the listener whenever the app comes back to the foreground; answers the unsubscribe. */
  onResume(listener: () => void): () => void;
  /**
   * Calls the listener with each link the system opens the app with (the phone apps' app links);
   * answers the unsubscribe. Never called in a browser, where a link opens a page.
   */
  onLinkOpened(listener: (url: string) => void): () => void;
  /**
   * Leaves the app for a payment page: the browser goes to it; the phone apps open it in the
   * system browser (payments for the server's checkout never run inside an app's own view), from
   * which the page's return link comes back to the app.
   */
  openPaymentPage(url: string): Promise<void>;
  /**
   * Signs in with a provider's own sheet (Google's, Apple's) in the phone apps, the server's nonce
   * in its ID token. Fails in a browser, which uses the web flow.
   */
  socialSignIn(provider: SocialProvider, nonce: string): Promise<NativeSocialAnswer>;
  /** Closes the system browser a payment page was opened in (phones); nothing in a browser. */
  closePaymentPage(): Promise<void>;
  /**
   * Leaves the app for a provider's sign-in page: the browser goes to it; the phone apps open it in
   * the system browser (Custom Tabs, SFSafariViewController: Google and Apple refuse an app's own
   * WebView), from which the provider's return comes back through the app's URL scheme.
   */
  openSignInPage(url: string): Promise<void>;
  /** Closes the system browser a sign-in page was opened in (phones); nothing in a browser. */
  closeSignInPage(): Promise<void>;
  /** The in-app store this platform can pay through now, or null (the browser, no store plugin). */
  inAppStore(): InAppStore | null;
  /**
   * Starts the in-app store with the catalog's products, so that it refreshes on every resume from
   * the app's start on. Nothing where there is no in-app store.
   */
  startInAppStore(products: readonly Product[], store: { validatePurchase: InAppValidator }): Promise<void>;
  /**
   * Buys the lines through the in-app store (a consumable once per unit, anything else at most
   * once); resolves with the flow's final message and how many units of each product were bought.
   */
  buyInApp(
    lines: readonly InAppLine[],
    store: { validatePurchase: InAppValidator },
    onMessage?: (message: StoreMessage) => void,
  ): Promise<InAppPurchase>;
  /**
   * Calls `listener` with the in-app store's products (by store id: loaded, valid, canPurchase, the
   * store's own price) now and as they change; answers a function that stops it. Never called in
   * a browser.
   */
  watchInAppProducts(listener: (products: readonly PurchaseProduct[]) => void): () => void;
  /**
   * Restores the buyer's purchases from the in-app store, each verified by the server again;
   * answers what was restored. Fails in a browser.
   */
  restoreInApp(store: { validatePurchase: InAppValidator }): Promise<RestoreResult>;
  /** Native behaviour of the shell: back button, status bar, keyboard, splash. Nothing in a browser. */
  startShell(): void;
}

/** A cart line to buy in the app's store. */
export interface InAppLine {
  product: Product;
  quantity: number;
}

/** What an in-app purchase ended with, and the units bought by catalog product id (only those). */
export interface InAppPurchase {
  message: StoreMessage;
  bought: Readonly<Record<string, number>>;
}

/** The server's check of a store transaction: `till.store.validatePurchase`. */
export type InAppValidator = PurchaseFlowOptions['store']['validatePurchase'];

/** Text as a plain-text file's bytes (UTF-8). */
export function textBlob(text: string): Blob {
  return new Blob([text], { type: 'text/plain;charset=utf-8' });
}

/** The file name a config is kept under. */
export function configFileName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `${safe}.json`;
}

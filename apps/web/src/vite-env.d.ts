/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_HOST?: string;
  readonly VITE_STORE_HOST?: string;
  /** The phone apps' URL scheme, as the server's SOCIAL_APP_SCHEME (default: the app id). */
  readonly VITE_APP_SCHEME?: string;
}

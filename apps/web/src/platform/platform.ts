import type { Platform } from './types';
import { webPlatform } from './web/web-platform';

let native: Promise<Platform> | undefined;

// The Capacitor shell injects this global; reading it keeps @capacitor/core off the first screen.
export function isNativeShell(): boolean {
  const cap = (globalThis as { Capacitor?: { isNativePlatform?: () => boolean } }).Capacitor;
  return Boolean(cap?.isNativePlatform?.());
}

/**
 * The platform the app runs on. The native side is loaded only inside the Capacitor shell, so that
 * the browser never downloads it.
 */
export function getPlatform(): Promise<Platform> {
  if (!isNativeShell()) return Promise.resolve(webPlatform);
  native ??= import('./native/native-platform').then((m) => m.nativePlatform);
  return native;
}

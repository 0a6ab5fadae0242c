import type { Platform } from './types';
import { onVisibleAgain } from './resume';

let loaded: Promise<Platform> | undefined;

// The Capacitor shell injects this global; reading it keeps @capacitor/core off the first screen.
export function isNativeShell(): boolean {
  const cap = (globalThis as { Capacitor?: { isNativePlatform?: () => boolean } }).Capacitor;
  return Boolean(cap?.isNativePlatform?.());
}

/**
 * The platform the app runs on, each side loaded only where it runs: the browser never downloads
 * the native side, and neither side weighs on the first screen.
 */
export function getPlatform(): Promise<Platform> {
  loaded ??= isNativeShell()
    ? import('./native/native-platform').then((m) => m.nativePlatform)
    : import('./web/web-platform').then((m) => m.webPlatform);
  return loaded;
}

/**
 * Calls the listener whenever the app comes back to the foreground. In the browser this needs no
 * platform module (a visibility listener), so the first screen can subscribe without loading one.
 */
export function onResume(listener: () => void): () => void {
  if (!isNativeShell()) return onVisibleAgain(listener);
  let off: (() => void) | undefined;
  let stopped = false;
  void getPlatform().then((p) => {
    if (!stopped) off = p.onResume(listener);
  });
  return () => {
    stopped = true;
    off?.();
  };
}

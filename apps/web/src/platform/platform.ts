import type { Platform } from './types';

let loaded: Promise<Platform> | undefined;

// The Capacitor shell injects this global; reading it keeps @capacitor/core off the first screen.
export function isNativeShell(): boolean {
  const cap = (globalThis as { Capacitor?: { isNativePlatform?: () => boolean } }).Capacitor;
  return Boolean(cap?.isNativePlatform?.());
}

/** Which platform the app runs on, known at once: the shell's global says (no module loaded). */
export function platformKind(): 'web' | 'android' | 'ios' {
  if (!isNativeShell()) return 'web';
  const cap = (globalThis as { Capacitor?: { getPlatform?: () => string } }).Capacitor;
  return cap?.getPlatform?.() === 'ios' ? 'ios' : 'android';
}

/**
 * The platform the app runs on, each side loaded only where it runs: the browser never downloads
 * the native side, and neither side weighs on the first screen.
 */
export function getPlatform(): Promise<Platform> {
  loaded ??= isNativeShell()
    ? import('./native/native-platform').then((m) => m.nativePlatform)
    : // The browser's resume listener is handed over rather than imported: it stays in the entry
      // (the first screen subscribes with it) instead of becoming a chunk of its own.
      import('./web/web-platform').then((m) => m.createWebPlatform(onVisibleAgain));
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

/**
 * The browser's resume: the page becomes visible again after being hidden (another tab, another
 * app, the screen off). The first visible state at load is not a resume.
 */
export function onVisibleAgain(listener: () => void, doc: Document = document): () => void {
  let hidden = doc.visibilityState === 'hidden';
  const onChange = () => {
    if (doc.visibilityState === 'hidden') hidden = true;
    else if (hidden) {
      hidden = false;
      listener();
    }
  };
  doc.addEventListener('visibilitychange', onChange);
  return () => doc.removeEventListener('visibilitychange', onChange);
}

import { App } from '@capacitor/app';
import { Capacitor } from '@capacitor/core';
import { Keyboard } from '@capacitor/keyboard';
import { SplashScreen } from '@capacitor/splash-screen';
import { StatusBar, Style } from '@capacitor/status-bar';

/**
 * The shell's native behaviour, started once the first screen has rendered:
 * - Android's back button goes back in the app's history, and leaves the app (to the background,
 *   as Android apps do) where there is nowhere to go back to;
 * - the status bar's icons follow the light or dark scheme;
 * - iOS shows the keyboard's accessory bar (previous, next, done) over the form fields;
 * - the splash screen, kept up until now, goes.
 */
export async function startShell(win: Window = window): Promise<void> {
  const platform = Capacitor.getPlatform();
  if (platform === 'android') {
    // Listening replaces the default (which closes the app on the first screen's back press).
    await App.addListener('backButton', ({ canGoBack }) => {
      if (canGoBack) win.history.back();
      else void App.minimizeApp();
    }).catch(() => undefined); // whatever fails here, the splash below still goes
  }
  const dark = win.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  await StatusBar.setStyle({ style: dark ? Style.Dark : Style.Light }).catch(() => undefined);
  if (platform === 'ios') await Keyboard.setAccessoryBarVisible({ isVisible: true }).catch(() => undefined);
  await SplashScreen.hide();
}

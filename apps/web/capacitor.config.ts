import type { CapacitorConfig } from '@capacitor/cli';

// The native shells load the same build the server serves; the API host is configured at build
// time (VITE_API_HOST, VITE_STORE_HOST), since the shell's own origin is not the server's.
const config: CapacitorConfig = {
  appId: 'app.till.mobile',
  appName: 'Till',
  webDir: 'dist',
  plugins: {
    // The app hides the splash itself once the first screen has rendered (platform/native/shell.ts),
    // so that the user never sees a blank WebView in between. A start that fails before then (a
    // script that throws, a chunk that cannot load) still loses the splash after launchShowDuration:
    // the plugin counts that time only while launchAutoHide is on.
    SplashScreen: { launchAutoHide: true, launchShowDuration: 10_000, backgroundColor: '#ffffff' },
    // The page draws under the system bars (edge to edge, as Android 15 requires) and pads itself
    // by the safe-area insets, which Capacitor hands to the page as CSS variables on Android.
    SystemBars: { insetsHandling: 'css', initialViewportFitValueHint: 'cover' },
  },
};

export default config;

import type { CapacitorConfig } from '@capacitor/cli';

// The native shells load the same build the server serves; the API host is configured at run time.
const config: CapacitorConfig = {
  appId: 'app.till.mobile',
  appName: 'Till',
  webDir: 'dist',
};

export default config;

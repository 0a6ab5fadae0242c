import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The iOS project is not compiled on this machine (no Xcode): these read what the build would.
const ios = fileURLToPath(new URL('../../apps/web/ios/App', import.meta.url));
// The plist reader Capacitor's own CLI edits these files with.
const plist = createRequire(createRequire(import.meta.url).resolve('@capacitor/cli/package.json'))('plist') as {
  parse(text: string): unknown;
};

interface UrlType {
  CFBundleURLName?: string;
  CFBundleURLSchemes: string[];
}

/** Each build configuration's settings of the App target, as `NAME = value;` lines in the project file. */
function buildSettings(): Record<string, Record<string, string>> {
  const project = readFileSync(`${ios}/App.xcodeproj/project.pbxproj`, 'utf8');
  const out: Record<string, Record<string, string>> = {};
  for (const m of project.matchAll(/buildSettings = \{([\s\S]*?)\n\t\t\t\};\n\t\t\tname = (\w+);/g)) {
    const body = m[1] ?? '';
    if (!body.includes('INFOPLIST_FILE = App/Info.plist')) continue;
    const settings: Record<string, string> = {};
    for (const s of body.matchAll(/^\s*([A-Z_]+) = ("?)([^;\n]*)\2;$/gm)) settings[s[1] ?? ''] = s[3] ?? '';
    out[m[2] ?? ''] = settings;
  }
  return out;
}

/** `$(NAME)` replaced by the configuration's setting, as Xcode does when it processes Info.plist. */
const expand = (value: string, settings: Record<string, string>) =>
  value.replace(/\$\(([A-Z_]+)\)/g, (_, name: string) => settings[name] ?? `<unset ${name}>`);

describe('the iOS project', () => {
  const info = plist.parse(readFileSync(`${ios}/App/Info.plist`, 'utf8')) as { CFBundleURLTypes?: UrlType[] };
  const configs = buildSettings();

  it('has Debug and Release settings for the App target', () => {
    expect(Object.keys(configs).sort()).toEqual(['Debug', 'Release']);
  });

  it('takes the app id and the reversed Google iOS client id as URL schemes, from the build settings', () => {
    const schemes = (info.CFBundleURLTypes ?? []).flatMap((t) => t.CFBundleURLSchemes);
    expect(schemes).toEqual(['$(PRODUCT_BUNDLE_IDENTIFIER)', '$(TILL_GOOGLE_IOS_URL_SCHEME)']);
    for (const [name, settings] of Object.entries(configs)) {
      const [app, google] = schemes.map((s) => expand(s, settings));
      // The provider flows in the system browser come back to the server's default SOCIAL_APP_SCHEME.
      expect(app, name).toBe('app.till.mobile');
      expect(google, name).toMatch(/^com\.googleusercontent\.apps\.[0-9]+-[a-z0-9]+$/);
    }
  });
});

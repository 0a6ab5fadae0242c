import { describe, expect, it } from 'vitest';
import { appSessionStorage } from './session-storage';

describe('appSessionStorage', () => {
  it("keeps the browser's session in its localStorage, read at once", () => {
    const storage = appSessionStorage();
    expect(storage).toBe(window.localStorage);
    storage.setItem('till.session', 'kept');
    expect(storage.getItem('till.session')).toBe('kept');
  });
});

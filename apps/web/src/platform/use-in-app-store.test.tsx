import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Code } from '@till/protocol';
import type { Platform } from '@/platform/types';
import { fakeTill, renderWithApp } from '@/test/render';
import { useInAppStore } from './use-in-app-store';

// Where the app runs: a browser, or the phone app's shell with its store.
const where = vi.hoisted(() => ({ native: false, loads: 0 }));
vi.mock('./platform', () => ({
  isNativeShell: () => where.native,
  getPlatform: async () => {
    where.loads += 1;
    return {
      inAppStore: () => 'appstore',
      watchInAppProducts: (show: (products: []) => void) => {
        show([]);
        return () => undefined;
      },
    } as unknown as Platform;
  },
}));

function Store() {
  const view = useInAppStore();
  return <p>{view ? `store ${view.store}` : 'no store'}</p>;
}

const till = () => fakeTill(() => ({ code: Code.Ok, data: { stores: [], webRoutes: false } }));

describe('useInAppStore', () => {
  beforeEach(() => {
    where.loads = 0;
  });

  it("answers no store in a browser without loading the platform's module", () => {
    where.native = false;
    // The render's effects have run when it returns: a load would have begun.
    renderWithApp(<Store />, { till: till() });
    expect(screen.getByText('no store')).toBeTruthy();
    expect(where.loads).toBe(0);
  });

  it("answers the shell's store in the phone app", async () => {
    where.native = true;
    renderWithApp(<Store />, { till: till() });
    await screen.findByText('store appstore');
    expect(where.loads).toBe(1);
  });
});

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SecurityPaths, SocialPaths } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { LinkedProviders } from './linked-providers';
import { SecurityLog } from './security-log';

const corp = { id: 'corp', kind: 'oidc', name: 'Corp ID', native: false, web: true, appClientIds: [] };
const identity = {
  id: 'i1',
  provider: 'corp',
  email: 'work@example.test',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
};

describe('LinkedProviders', () => {
  it('lists the provider a return linked, and logs it, also when the lists asked for before the link answer after it', async () => {
    // The profile opens with the provider's ticket in its address: it asks for the linked providers
    // and the security log and spends the ticket at once. The lists read before the link is stored
    // come back last.
    let answerFirstList: () => void = () => undefined;
    let answerFirstLog: () => void = () => undefined;
    let lists = 0;
    let logs = 0;
    const linkedEntry = {
      id: 'e1',
      kind: 'social_linked',
      at: '2026-11-01T10:00:00.000Z',
      ip: '127.0.0.1',
      device: null,
      actorId: null,
      detail: { provider: 'corp' },
    };
    const till = fakeTill(async (path) => {
      if (path === SocialPaths.providers) return { code: 900, data: { providers: [corp] } };
      if (path === SocialPaths.connectFinish) {
        setTimeout(() => {
          answerFirstList();
          answerFirstLog();
        }, 20);
        return { code: 900, data: { identity } };
      }
      if (path === SecurityPaths.securityLog) {
        logs += 1;
        if (logs === 1) {
          await new Promise<void>((resolve) => (answerFirstLog = resolve));
          return { code: 900, data: { entries: [], total: 0 } };
        }
        return { code: 900, data: { entries: [linkedEntry], total: 1 } };
      }
      if (path === SocialPaths.list) {
        lists += 1;
        if (lists === 1) {
          await new Promise<void>((resolve) => (answerFirstList = resolve));
          return { code: 900, data: { identities: [], hasPassword: true } };
        }
        return { code: 900, data: { identities: [identity], hasPassword: true } };
      }
      return { code: 904, parameter: 'path' };
    });
    signInFake(till);
    renderWithApp(
      <>
        <LinkedProviders />
        <SecurityLog />
      </>,
      { till, route: '/profile#connectTicket=ticket-from-the-provider' },
    );
    expect(await screen.findByText('Done: you can now sign in with Corp ID.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Remove sign-in with Corp ID' })).toBeEnabled();
    expect(screen.getByText('Corp ID · work@example.test')).toBeInTheDocument();
    expect(screen.queryByText('No provider linked yet. Connect one below to sign in with it.')).toBeNull();
    expect(await screen.findByText('Sign-in with corp linked')).toBeInTheDocument();
    expect(lists).toBe(2);
    expect(logs).toBe(2);
  });
});

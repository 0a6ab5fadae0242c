import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { SessionEndReason } from '@till/client';
import type { AppSdk } from './sdk';
import type { User } from '@till/protocol';

/** The SDK instance the whole app talks to the server through. */
export type Till = AppSdk;

const TillContext = createContext<Till | null>(null);

export function TillProvider({ till, children }: { till: Till; children: ReactNode }) {
  return <TillContext.Provider value={till}>{children}</TillContext.Provider>;
}

export function useTill(): Till {
  const till = useContext(TillContext);
  if (!till) throw new Error('useTill needs a TillProvider');
  return till;
}

/** What the interface needs to know of the session. */
export interface SessionView {
  loggedIn: boolean;
  user: User | null;
  level: number;
  /** Why the last session ended, when one ended while the app was open. */
  endReason: SessionEndReason | null;
}

function viewOf(till: Till, endReason: SessionEndReason | null = null): SessionView {
  const token = till.session.token;
  if (!token) return { loggedIn: false, user: null, level: 0, endReason };
  return { loggedIn: true, user: till.session.user, level: till.session.level, endReason: null };
}

// One cached view per SDK instance, so that useSyncExternalStore sees a stable snapshot between changes.
const views = new WeakMap<Till, SessionView>();

/** The signed-in user, kept in step with the SDK's session (login, 901, expiry, another tab's logout). */
export function useSession(): SessionView {
  const till = useTill();
  return useSyncExternalStore(
    (onChange) =>
      till.session.subscribe((event) => {
        views.set(till, viewOf(till, event.type === 'end' ? event.reason : null));
        onChange();
      }),
    () => {
      let view = views.get(till);
      if (!view) {
        view = viewOf(till);
        views.set(till, view);
      }
      return view;
    },
  );
}

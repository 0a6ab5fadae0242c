import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { StepUpPrompt } from '@/lib/step-up';

// The dialog (a form with MUI's text fields) loads the first time the server asks for a proof, not
// with every page's start.
const StepUpDialog = lazy(() => import('./step-up-dialog').then((m) => ({ default: m.StepUpDialog })));

/** Renders the step-up dialog once a proof has been asked for, and keeps it from then on. */
export function StepUpHost({ prompt }: { prompt: StepUpPrompt }) {
  const asked = useSyncExternalStore(
    (onChange) => prompt.subscribe(onChange),
    () => prompt.everAsked,
  );
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <StepUpDialog prompt={prompt} />
    </Suspense>
  );
}

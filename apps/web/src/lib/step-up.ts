import type { StepUpHandler } from '@till/client';

type Proof = Awaited<ReturnType<StepUpHandler>>;
type Refused = Parameters<StepUpHandler>[0];

/** What the step-up dialog shows: whether it is asking, and why the last proof was refused. */
export interface StepUpAsk {
  refused: Refused;
}

/**
 * The bridge between the SDK's step-up hook and the dialog that asks the user: the SDK calls
 * {@link ask} when a call answers 914, the dialog shows while a question is open and answers it.
 */
export class StepUpPrompt {
  private open: (StepUpAsk & { resolve: (proof: Proof) => void }) | null = null;
  private asked = false;
  private readonly listeners = new Set<() => void>();

  /** The SDK's hook: resolves with the user's proof, or null when they cancel. */
  readonly ask: StepUpHandler = (refused) =>
    new Promise<Proof>((resolve) => {
      // One question at a time: an older one still open is given up.
      this.open?.resolve(null);
      this.open = { refused, resolve };
      this.asked = true;
      this.emit();
    });

  /** Whether a question was ever asked (the dialog is loaded from then on). */
  get everAsked(): boolean {
    return this.asked;
  }

  /** The open question, or null. */
  get current(): StepUpAsk | null {
    return this.open;
  }

  /** The dialog's answer: the proof, or null to give up. */
  answer(proof: Proof): void {
    const open = this.open;
    this.open = null;
    this.emit();
    open?.resolve(proof);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

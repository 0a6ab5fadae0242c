import type { Transporter } from 'nodemailer';

/** A message ready to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The message's own id (`<id@host>`), kept when the same mail is sent again. */
  messageId?: string;
}

/** A message kept by the dev outbox. */
export interface OutboxEntry extends MailMessage {
  id: number;
  from: string;
  sentAt: string;
}

/** Sends mail. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** The dev outbox, when mail is not sent for real. */
  outbox?: OutboxEntry[];
  close(): void;
}

const OUTBOX_LIMIT = 200;

/**
 * nodemailer over SMTP when `smtpUrl` is set; otherwise a dev outbox kept in memory (shown at
 * `/dev/mail`), newest first and bounded.
 */
export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  if (smtpUrl) {
    // nodemailer is loaded with the first mail: a server that never sends keeps it out of memory.
    let transport: Promise<Transporter> | undefined;
    const open = () =>
      (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
    return {
      async send(message) {
        await (await open()).sendMail({ from, ...message });
      },
      close: () => {
        void transport?.then((t) => t.close());
      },
    };
  }
  const outbox: OutboxEntry[] = [];
  let next = 1;
  return {
    outbox,
    send(message) {
      outbox.unshift({ id: next++, from, sentAt: new Date().toISOString(), ...message });
      outbox.length = Math.min(outbox.length, OUTBOX_LIMIT);
      return Promise.resolve();
    },
    close: () => undefined,
  };
}

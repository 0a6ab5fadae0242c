import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail the test SMTP server received, parsed. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Waits for the first mail to `to` matching `subject` (and not yet taken) and takes it. */
  next(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(
          (m) => !taken.has(m) && m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)),
        );
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first Till link (`/confirm/...` or `/reset/...`) in a mail's text. */
export function linkToken(mail: ReceivedMail, page: 'confirm' | 'reset'): string {
  const m = new RegExp(`/${page}/([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!m?.[1]) throw new Error(`no ${page} link in mail "${mail.subject}"`);
  return m[1];
}

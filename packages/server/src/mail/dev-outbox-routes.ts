import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../http/html.js';
import type { OutboxEntry } from './mailer.js';

/** `/dev/mail` (a page) and `/dev/mail.json`: the dev outbox. Never registered in production. */
export function registerDevOutbox(app: FastifyInstance, outbox: OutboxEntry[]): void {
  app.get('/dev/mail.json', () => ({ messages: outbox }));
  app.get('/dev/mail', (_req, reply) => {
    const items = outbox
      .map(
        (
          m,
        ) => `<article><h2>${escapeHtml(m.subject)}</h2><p><b>To:</b> ${escapeHtml(m.to)} · ${escapeHtml(m.sentAt)}</p>
<pre style="white-space:pre-wrap">${escapeHtml(m.text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre></article><hr>`,
      )
      .join('\n');
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Dev mailbox | Till</title></head>
<body style="font-family:sans-serif;max-width:48rem;margin:1rem auto;padding:0 1rem"><h1>Dev mailbox</h1><p>Mail is kept here because SMTP_URL is not set.</p>${items || '<p>No mail yet.</p>'}</body></html>`;
    return reply.type('text/html; charset=utf-8').send(body);
  });
}

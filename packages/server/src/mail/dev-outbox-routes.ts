import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../http/html.js';
import type { OutboxEntry } from './mailer.js';

/**
 * The page's look: readable from a 360 px phone up. Long links and addresses wrap anywhere instead
 * of widening the page, and the mails' text keeps its lines.
 */
const STYLE = `*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;line-height:1.5;max-width:48rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.15rem;margin:0 0 .25rem}
article{border:1px solid #ccc;border-radius:8px;padding:.75rem;margin:1rem 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9rem;margin:.5rem 0 0}
a{color:#0b57d0}`;

/** `/dev/mail` (a page) and `/dev/mail.json`: the dev outbox. Never registered in production. */
export function registerDevOutbox(app: FastifyInstance, outbox: OutboxEntry[]): void {
  app.get('/dev/mail.json', () => ({ messages: outbox }));
  app.get('/dev/mail', (_req, reply) => {
    const items = outbox
      .map(
        (
          m,
        ) => `<article><h2>${escapeHtml(m.subject)}</h2><p><b>To:</b> ${escapeHtml(m.to)} · ${escapeHtml(m.sentAt)}</p>
<pre>${escapeHtml(m.text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre></article>`,
      )
      .join('\n');
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Dev mailbox | Till</title><style>${STYLE}</style></head>
<body><main><h1>Dev mailbox</h1><p>Mail is kept here because SMTP_URL is not set.</p>${items || '<p>No mail yet.</p>'}</main></body></html>`;
    return reply.type('text/html; charset=utf-8').send(body);
  });
}

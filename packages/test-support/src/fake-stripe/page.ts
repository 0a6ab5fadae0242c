import { escapeHtml } from '@till/server/testing';
import type { LineItemObject, SessionObject } from './objects.js';

/** An amount in minor units as a buyer reads it, with the currency's own number of decimals. */
export function formatAmount(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#222}
table{width:100%;border-collapse:collapse}td{padding:.3rem 0}td.n{text-align:right}
.total td{border-top:1px solid #ccc;font-weight:600}form{display:inline}
button{font-size:1rem;padding:.6rem 1.2rem;margin:1rem .5rem 0 0}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * The hosted checkout page of an open session: its lines, the total and two plain form posts,
 * so that a browser test can click through it without scripts.
 */
export function checkoutPage(session: SessionObject, items: LineItemObject[]): string {
  const currency = session.currency ?? 'usd';
  const rows = items
    .map(
      (i) =>
        `<tr><td>${escapeHtml(i.description ?? '')}${i.quantity > 1 ? ` × ${i.quantity}` : ''}${
          i.price.recurring ? ` (every ${i.price.recurring.interval_count} ${i.price.recurring.interval})` : ''
        }</td><td class="n">${escapeHtml(formatAmount(i.amount_total, currency))}</td></tr>`,
    )
    .join('');
  const base = `/c/pay/${encodeURIComponent(session.id)}`;
  return shell(
    'Test mode checkout',
    `<table>${rows}<tr class="total"><td>Total due today</td><td class="n" data-testid="amount">${escapeHtml(
      formatAmount(session.amount_total ?? 0, currency),
    )}</td></tr></table>
<form method="post" action="${base}/pay"><button type="submit">Pay</button></form>
<form method="post" action="${base}/cancel"><button type="submit">Cancel</button></form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return shell(title, `<p>${escapeHtml(message)}</p>`);
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Money, Order, ShopLanguage } from '@till/protocol';
import type { Config } from '../../../../config.js';
import { Failure, type Outcome } from '../../../../errors.js';
import { escapeHtml } from '../../../../http/html.js';
import type { PaymentPorts, ProviderEvent } from '../../provider.js';
import type { SandboxEvent } from './events.js';
import { formatMoney, pageLanguage, textsFor, type PageTexts } from './page-texts.js';

/** What the page needs of the sandbox provider: its signed links and notifications. */
export interface SandboxSigner {
  readonly name: 'default';
  checkPageSignature(iden: string, signature: string): boolean;
  signNotification(event: SandboxEvent): { payload: string; signature: string };
  readNotification(payload: string, signature: string): Outcome<ProviderEvent>;
}

const FORM = 'application/x-www-form-urlencoded';

// The app's look (`apps/web/src/lib/theme.ts`): its green, its background, its type and its rounded
// cards, with touch targets of 44 px; one column that fits a 360 px phone.
const STYLE = `*{box-sizing:border-box}
body{margin:0;background:#f6f8f7;color:rgba(0,0,0,.87);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header{background:#1e5b4f;color:#fff;padding:.75rem 1rem;font-weight:600;font-size:1.15rem}
main{max-width:32rem;margin:1.5rem auto;padding:0 1rem}
.card{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.12),0 1px 2px rgba(0,0,0,.08);padding:1.25rem}
h1{font-size:1.5rem;font-weight:500;margin:0 0 1rem}
table{width:100%;border-collapse:collapse;margin-bottom:1rem}
th{text-align:left;font-weight:500;color:rgba(0,0,0,.6);font-size:.875rem;border-bottom:1px solid #e0e0e0;padding:.4rem 0}
td{padding:.5rem 0;vertical-align:top;overflow-wrap:anywhere}.n{text-align:right;white-space:nowrap;padding-left:1rem}
.total td{border-top:1px solid #e0e0e0;font-weight:600}
.actions{display:flex;flex-direction:column;gap:.75rem}
button,.link{display:flex;align-items:center;justify-content:center;min-height:44px;padding:.5rem 1.25rem;border-radius:10px;font:inherit;font-weight:500;text-decoration:none;cursor:pointer;text-align:center}
.primary{background:#1e5b4f;color:#fff;border:0}.primary:hover{background:#153f37}
.secondary{background:#fff;color:#1e5b4f;border:1px solid #1e5b4f}
.link{color:#1e5b4f;border:0;background:none;text-decoration:underline}
button:focus-visible,.link:focus-visible{outline:3px solid #8a3b12;outline-offset:2px}
.note{color:rgba(0,0,0,.6);font-size:.875rem;margin:1rem 0 0}
.status{font-weight:500}
caption{caption-side:top;text-align:left;color:rgba(0,0,0,.6);font-size:.875rem;margin:0 0 .25rem}
@media (min-width:600px){.actions{flex-direction:row;flex-wrap:wrap}}`;

function page(lang: ShopLanguage, title: string, body: string): string {
  // No scripts: the CSP forbids inline ones, and a plain form POST is all this page needs.
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><header>Till</header><main><div class="card"><h1>${escapeHtml(title)}</h1>${body}</div></main></body></html>`;
}

function orderTable(order: Order, lang: ShopLanguage, t: PageTexts): string {
  const money = (m: Money) => escapeHtml(formatMoney(m, lang));
  const rows = order.items
    .map(
      (i) =>
        `<tr><td>${escapeHtml(i.title)}${i.quantity > 1 ? ` × ${i.quantity}` : ''}</td><td class="n">${
          i.price ? money({ ...i.price, amount: i.price.amount * i.quantity }) : ''
        }</td></tr>`,
    )
    .join('');
  const discount = order.discount.amount
    ? `<tr><td>${escapeHtml(t.discount(order.couponCode ?? ''))}</td><td class="n">−${money(order.discount)}</td></tr>`
    : '';
  return `<table><caption>${escapeHtml(t.order)}</caption><thead><tr><th scope="col">${escapeHtml(t.item)}</th><th scope="col" class="n">${escapeHtml(t.price)}</th></tr></thead><tbody>${rows}${discount}<tr class="total"><td>${escapeHtml(t.total)}</td><td class="n">${money(order.total)}</td></tr></tbody></table>`;
}

/**
 * The built-in provider's checkout page. Its link carries a signature of the order's iden, so the
 * page needs no session; paying or declining posts a form back here, which becomes a signed
 * notification, read back through the provider's own check and applied through
 * {@link PaymentPorts.applyEvent}, like a real provider's.
 */
export async function registerCheckoutPage(
  app: FastifyInstance,
  config: Config,
  provider: SandboxSigner,
  ports: PaymentPorts,
): Promise<void> {
  const send = (reply: FastifyReply, status: number, html: string) =>
    reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

  await app.register(async (scope) => {
    // Form posts are parsed only inside this page's scope; the API stays JSON.
    if (!scope.hasContentTypeParser(FORM)) {
      scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      });
    }

    scope.get('/api/pay/default/:iden', async (request, reply) => {
      const { iden } = request.params as { iden: string };
      const query = request.query as { sig?: string; lang?: string };
      const sig = query.sig;
      const lang = pageLanguage(query.lang, request.headers['accept-language']);
      const t = textsFor(lang);
      const order = sig && provider.checkPageSignature(iden, sig) ? await ports.findOrder(iden, lang) : undefined;
      if (!order) return send(reply, 404, page(lang, t.notFound, `<p>${escapeHtml(t.badLink)}</p>`));
      // Relative: back to the order on whichever of the app's hosts the page was opened at.
      const orderUrl = `/orders/${encodeURIComponent(iden)}`;
      if (order.status !== 'pending') {
        const back = `<div class="actions"><a class="link secondary" href="${escapeHtml(orderUrl)}">${escapeHtml(t.back)}</a></div>`;
        return send(
          reply,
          200,
          page(
            lang,
            t.checkout,
            `${orderTable(order, lang, t)}<p class="status" role="status">${escapeHtml(t.status[order.status] ?? '')}</p>${back}`,
          ),
        );
      }
      const action = escapeHtml(`/api/pay/default/${encodeURIComponent(iden)}`);
      const form = `<form method="post" action="${action}"><input type="hidden" name="sig" value="${escapeHtml(sig ?? '')}">
<div class="actions"><button class="primary" type="submit" name="action" value="pay">${escapeHtml(t.pay(formatMoney(order.total, lang)))}</button>
<button class="secondary" type="submit" name="action" value="decline">${escapeHtml(t.decline)}</button>
<button class="link" type="submit" name="action" value="cancel">${escapeHtml(t.cancel)}</button></div></form>
<p class="note">${escapeHtml(t.sandbox)}</p>`;
      return send(reply, 200, page(lang, t.checkout, `${orderTable(order, lang, t)}${form}`));
    });
    scope.post('/api/pay/default/:iden', async (request, reply) => {
      const { iden } = request.params as { iden: string };
      const body = (request.body ?? {}) as Record<string, string | undefined>;
      const sig = body.sig ?? '';
      const order = provider.checkPageSignature(iden, sig) ? await ports.findOrder(iden) : undefined;
      if (!order || (body.action !== 'pay' && body.action !== 'decline' && body.action !== 'cancel')) {
        const lang = pageLanguage(undefined, request.headers['accept-language']);
        const t = textsFor(lang);
        return send(reply, 400, page(lang, t.notPossible, `<p>${escapeHtml(t.badLink)}</p>`));
      }
      if (body.action === 'cancel') {
        // Leaving without paying gives the order up, so that nothing can still pay it.
        const cancelled = await ports.cancelOrder(iden);
        if (cancelled instanceof Failure)
          request.log.info({ iden, outcome: cancelled.body.code }, 'checkout page cancel refused');
        return reply.redirect(`/orders/${encodeURIComponent(iden)}`, 303);
      }
      // One event per order and choice: a double click on "Pay" is the same event, applied once.
      const note = provider.signNotification({
        eventId: `${iden}:${body.action}`,
        orderId: iden,
        outcome: body.action === 'pay' ? 'paid' : 'failed',
        amount: order.total.amount,
        currency: order.total.currency,
      });
      const event = provider.readNotification(note.payload, note.signature);
      const applied = event instanceof Failure ? event : await ports.applyEvent(provider.name, event);
      if (applied instanceof Failure)
        request.log.info({ iden, outcome: applied.body.code }, 'checkout page choice refused');
      // Back to the order in the app, which shows what happened and what to do next (the page
      // itself still shows the result to whoever opens its link again).
      return reply.redirect(`/orders/${encodeURIComponent(iden)}`, 303);
    });
  });
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Money, Order } from '@till/protocol';
import type { Config } from '../../../../config.js';
import { Failure, type Outcome } from '../../../../errors.js';
import { escapeHtml } from '../../../../http/html.js';
import type { PaymentPorts, ProviderEvent } from '../../provider.js';
import type { SandboxEvent } from './notification.js';

/** What the page needs of the sandbox provider: its signed links and notifications. */
export interface SandboxSigner {
  readonly name: 'default';
  checkPageSignature(iden: string, signature: string): boolean;
  signNotification(event: SandboxEvent): { payload: string; signature: string };
  readNotification(payload: string, signature: string): Outcome<ProviderEvent>;
}

const FORM = 'application/x-www-form-urlencoded';

function formatMoney(m: Money): string {
  return `${(m.amount / 100).toFixed(2)} ${escapeHtml(m.currency)}`;
}

function page(title: string, body: string): string {
  // No scripts: the CSP forbids inline ones, and a plain form POST is all this page needs.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}
table{width:100%;border-collapse:collapse}td{padding:.3rem 0}td.n{text-align:right}
.total td{border-top:1px solid #ccc;font-weight:600}button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem}
.note{color:#666;font-size:.9rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function orderTable(order: Order): string {
  const rows = order.items
    .map(
      (i) =>
        `<tr><td>${escapeHtml(i.title)}${i.quantity > 1 ? ` × ${i.quantity}` : ''}</td><td class="n">${
          i.price ? formatMoney({ ...i.price, amount: i.price.amount * i.quantity }) : ''
        }</td></tr>`,
    )
    .join('');
  const discount = order.discount.amount
    ? `<tr><td>Discount (${escapeHtml(order.couponCode ?? '')})</td><td class="n">−${formatMoney(order.discount)}</td></tr>`
    : '';
  return `<table>${rows}${discount}<tr class="total"><td>Total</td><td class="n">${formatMoney(order.total)}</td></tr></table>`;
}

const STATUS_TEXT: Record<string, string> = {
  paid: 'Payment received. Thank you!',
  failed: 'The payment was declined.',
  cancelled: 'This order was cancelled.',
  refunded: 'This order was refunded.',
};

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
      const { sig } = request.query as { sig?: string };
      const order = sig && provider.checkPageSignature(iden, sig) ? await ports.findOrder(iden) : undefined;
      if (!order) return send(reply, 404, page('Order not found', '<p>This payment link is not valid.</p>'));
      const back = `<p><a href="${escapeHtml(`${config.publicUrl}/orders/${encodeURIComponent(iden)}`)}">Back to your order</a></p>`;
      if (order.status !== 'pending') {
        return send(
          reply,
          200,
          page(`Order ${iden}`, `${orderTable(order)}<p>${STATUS_TEXT[order.status] ?? ''}</p>${back}`),
        );
      }
      const action = escapeHtml(`/api/pay/default/${encodeURIComponent(iden)}`);
      const form = `<form method="post" action="${action}"><input type="hidden" name="sig" value="${escapeHtml(sig ?? '')}">
<button type="submit" name="action" value="pay">Pay ${formatMoney(order.total)}</button>
<button type="submit" name="action" value="decline">Decline</button></form>
<p class="note">Test checkout: no money is taken.</p>`;
      return send(reply, 200, page('Checkout', `${orderTable(order)}${form}${back}`));
    });

    scope.post('/api/pay/default/:iden', async (request, reply) => {
      const { iden } = request.params as { iden: string };
      const body = (request.body ?? {}) as Record<string, string | undefined>;
      const sig = body.sig ?? '';
      const order = provider.checkPageSignature(iden, sig) ? await ports.findOrder(iden) : undefined;
      if (!order || (body.action !== 'pay' && body.action !== 'decline')) {
        return send(reply, 400, page('Payment not possible', '<p>This payment link is not valid.</p>'));
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
      // Post/redirect/get: a reload shows the result instead of posting again.
      return reply.redirect(`/api/pay/default/${encodeURIComponent(iden)}?sig=${encodeURIComponent(sig)}`, 303);
    });
  });
}
